/**
 * Pentago's evaluations (white, player 0, maximizes) and move ordering.
 *
 * - `linesValue`: the open lines of each player. A line of five that holds marbles of
 *   one player only is open for that player and counts `LINE_WEIGHTS[k]` for its `k`
 *   marbles (2, 3 and 4 weigh most); white's count minus black's is the value. An open
 *   four of the player to move is a won position (the fifth marble wins at once, before
 *   any twist), so it is worth `±(WIN - 1)`: a win one ply away.
 * - `playoutValue`: seed 002's `randomPlayEvaluate`: the mean result of random games
 *   from the position, scaled to ±1000. Its generator is seeded by the position's key
 *   and a seed, so the value is a pure function of the position (a transposition table
 *   and alpha-beta's agreement with minimax rely on that).
 *
 * @module
 */
import { WIN } from "../../core/game.ts";
import { makeRng } from "../../core/rng.ts";
import { LINES, POPCOUNT } from "./board.ts";
import {
  BLACK_WON,
  keyOf,
  ONGOING,
  type PentagoState,
  play,
  randomPlayout,
  WHITE_WON,
} from "./rules.ts";

/** What a line open for one player is worth by its number of marbles (0-4). */
export const LINE_WEIGHTS: readonly number[] = [0, 1, 4, 16, 64];

const W1 = LINE_WEIGHTS[1], W2 = LINE_WEIGHTS[2], W3 = LINE_WEIGHTS[3], W4 = LINE_WEIGHTS[4];
const weight = (k: number): number => (k === 1 ? W1 : k === 2 ? W2 : k === 3 ? W3 : W4);

/** The value of a finished game: `±WIN` or 0. */
export const resultValue = (result: number): number =>
  result === WHITE_WON ? WIN : result === BLACK_WON ? -WIN : 0;

/**
 * The open-lines evaluation (see the module notes).
 *
 * @example An open four for the player to move is a win one ply away
 * ```ts
 * import { fromCells } from "./rules.ts";
 * import { linesValue } from "./eval.ts";
 * import { WIN } from "../../core/game.ts";
 * const cells = new Array(36).fill(0);
 * for (const c of [0, 1, 2, 3]) cells[c] = 1; // white a6-d6
 * for (const c of [30, 31, 32, 33]) cells[c] = 2; // black a1-d1, white to move
 * if (linesValue(fromCells(cells)) !== WIN - 1) throw new Error("white wins next");
 * ```
 */
export const linesValue = (s: PentagoState): number => {
  if (s.result !== ONGOING) return resultValue(s.result);
  const w0 = s.white0, w1 = s.white1, b0 = s.black0, b1 = s.black1;
  let v = 0;
  for (let i = 0; i < 64; i += 2) {
    const lt = LINES[i], lb = LINES[i + 1];
    const wc = POPCOUNT[w0 & lt] + POPCOUNT[w1 & lb];
    const bc = POPCOUNT[b0 & lt] + POPCOUNT[b1 & lb];
    if (bc === 0) {
      if (wc === 0) continue;
      if (wc === 4 && s.turn === 0) return WIN - 1;
      v += weight(wc);
    } else if (wc === 0) {
      if (bc === 4 && s.turn === 1) return -(WIN - 1);
      v -= weight(bc);
    }
  }
  return v;
};

/** The scale of `playoutValue`: a certain white win would be worth this. */
export const PLAYOUT_SCALE = 1000;

/**
 * Seed 002's random-playout evaluation: `count` random games from the position, white's
 * wins minus black's over `count`, times `PLAYOUT_SCALE`. An open four of the player to
 * move is a win one ply away, as in `linesValue`.
 */
export const playoutValue = (s: PentagoState, count: number, seed: number): number => {
  if (s.result !== ONGOING) return resultValue(s.result);
  const quick = linesValue(s);
  if (Math.abs(quick) === WIN - 1) return quick;
  const key = keyOf(s);
  const rng = makeRng((key ^ Math.imul(seed | 0, 0x9e3779b9) ^ Math.floor(key / 4294967296)) | 0);
  let score = 0;
  for (let i = 0; i < count; i++) {
    const r = randomPlayout(s, rng);
    if (r === WHITE_WON) score++;
    else if (r === BLACK_WON) score--;
  }
  return (score / count) * PLAYOUT_SCALE;
};

/**
 * Move ordering for alpha-beta: the moves sorted by the open-lines value of the position
 * each leads to, best for the mover first (stable: equal moves keep their order, which
 * the shuffling option randomizes).
 */
export const orderByLines = (s: PentagoState, ms: readonly number[]): number[] => {
  const n = ms.length;
  const sign = s.turn === 0 ? 1 : -1;
  const scores = new Array<number>(n);
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    scores[i] = sign * linesValue(play(s, ms[i]));
    idx[i] = i;
  }
  idx.sort((a, b) => scores[b] - scores[a] || a - b);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = ms[idx[i]];
  return out;
};
