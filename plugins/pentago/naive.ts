/**
 * A plain Pentago: the board as 36 numbers, rotations by coordinates and fives found by
 * walking the board in four directions. It follows the same rules and move codes as the
 * bitboard plugin and serves as its reference: the tests check that both agree over
 * random games, and the bench measures the bitboards against it.
 *
 * @module
 */
import { Result } from "../../core/deps.ts";
import { type Game, type Player, WIN } from "../../core/game.ts";
import { LINE_WEIGHTS } from "./eval.ts";
import { BLACK_WON, DRAW, NO_TWIST, ONGOING, WHITE_WON } from "./rules.ts";

/** A plain state: 36 cells (0 empty, 1 white, 2 black) in reading order, mover, result. */
export interface NaiveState {
  /** The cells, reading order from the top left. */
  readonly cells: readonly number[];
  /** Whose turn it is. */
  readonly turn: Player;
  /** `ONGOING`, `WHITE_WON`, `BLACK_WON` or `DRAW` (as in `rules.ts`). */
  readonly result: number;
}

const DIRS = [[0, 1], [1, 0], [1, 1], [1, -1]] as const;

/** True when `mark` has five in a row anywhere, found by walking from every cell. */
export const naiveFive = (cells: readonly number[], mark: number): boolean => {
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) {
      for (const [dr, dc] of DIRS) {
        let k = 0;
        while (k < 5) {
          const rr = r + dr * k, cc = c + dc * k;
          if (rr < 0 || rr > 5 || cc < 0 || cc > 5 || cells[rr * 6 + cc] !== mark) break;
          k++;
        }
        if (k === 5) return true;
      }
    }
  }
  return false;
};

/**
 * Turns quadrant `q` (0 NW, 1 NE, 2 SW, 3 SE) a quarter turn, clockwise (`dir` 0) or
 * anticlockwise (1), by coordinates: clockwise, local (r, c) goes to (c, 2 - r).
 */
export const naiveRotate = (cells: readonly number[], q: number, dir: number): number[] => {
  const out = cells.slice();
  const r0 = q >= 2 ? 3 : 0, c0 = q % 2 === 1 ? 3 : 0;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const [nr, nc] = dir === 0 ? [c, 2 - r] : [2 - c, r];
      out[(r0 + nr) * 6 + c0 + nc] = cells[(r0 + r) * 6 + c0 + c];
    }
  }
  return out;
};

const resultOf = (cells: readonly number[]): number => {
  const w = naiveFive(cells, 1), b = naiveFive(cells, 2);
  if (w && b) return DRAW;
  if (w) return WHITE_WON;
  if (b) return BLACK_WON;
  return cells.includes(0) ? ONGOING : DRAW;
};

/** Plays a move code (as in `rules.ts`) on the plain board. */
export const naivePlay = (s: NaiveState, m: number): NaiveState => {
  const cell = m >= NO_TWIST ? m - NO_TWIST : m >> 3;
  const mark = s.turn + 1;
  const turn: Player = s.turn === 0 ? 1 : 0;
  const placed = s.cells.slice();
  placed[cell] = mark;
  if (naiveFive(placed, mark)) {
    return { cells: placed, turn, result: s.turn === 0 ? WHITE_WON : BLACK_WON };
  }
  if (m >= NO_TWIST) return { cells: placed, turn, result: resultOf(placed) };
  const cells = naiveRotate(placed, (m >> 1) & 3, m & 1);
  return { cells, turn, result: resultOf(cells) };
};

/** The legal moves, in the bitboard plugin's order: winning placements, then twists. */
export const naiveMoves = (s: NaiveState): number[] => {
  if (s.result !== ONGOING) return [];
  const wins: number[] = [], twists: number[] = [];
  for (let cell = 0; cell < 36; cell++) {
    if (s.cells[cell] !== 0) continue;
    const placed = s.cells.slice();
    placed[cell] = s.turn + 1;
    if (naiveFive(placed, s.turn + 1)) wins.push(NO_TWIST + cell);
    else for (let k = 0; k < 8; k++) twists.push(cell * 8 + k);
  }
  return [...wins, ...twists];
};

/** The open-lines value (as `eval.ts`'s `linesValue`), walking each line of five. */
export const naiveValue = (s: NaiveState): number => {
  if (s.result === WHITE_WON) return WIN;
  if (s.result === BLACK_WON) return -WIN;
  if (s.result === DRAW) return 0;
  let v = 0;
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) {
      for (const [dr, dc] of DIRS) {
        const er = r + 4 * dr, ec = c + 4 * dc;
        if (er > 5 || ec < 0 || ec > 5) continue;
        let w = 0, b = 0;
        for (let k = 0; k < 5; k++) {
          const x = s.cells[(r + k * dr) * 6 + c + k * dc];
          if (x === 1) w++;
          else if (x === 2) b++;
        }
        if (b === 0 && w > 0) {
          if (w === 4 && s.turn === 0) return WIN - 1;
          v += LINE_WEIGHTS[w];
        } else if (w === 0 && b > 0) {
          if (b === 4 && s.turn === 1) return -(WIN - 1);
          v -= LINE_WEIGHTS[b];
        }
      }
    }
  }
  return v;
};

/**
 * The plain Pentago as a `Game` (numeric notation only), for agreement tests and for
 * measuring the bitboards against it.
 *
 * @example The first move: 36 cells x 8 twists
 * ```ts
 * import { naiveGame } from "./naive.ts";
 * const g = naiveGame();
 * if (g.moves(g.initial()).length !== 288) throw new Error("36 cells x 8 twists");
 * ```
 */
export const naiveGame = (): Game<NaiveState> => ({
  id: "pentago-naive",
  players: ["white", "black"],
  initial: () => ({ cells: new Array(36).fill(0), turn: 0, result: ONGOING }),
  toMove: (s) => s.turn,
  moves: naiveMoves,
  chances: () => [],
  play: naivePlay,
  outcome: (s) =>
    s.result === ONGOING
      ? undefined
      : s.result === DRAW
      ? { winner: null, margin: 0 }
      : { winner: s.result as Player, margin: s.result === WHITE_WON ? 1 : -1 },
  value: naiveValue,
  render: (s) =>
    Array.from({ length: 6 }, (_, r) => s.cells.slice(r * 6, r * 6 + 6).join("")).join("\n") +
    "\n",
  formatMove: (_s, m) => String(m),
  parseMove: (s, text) => {
    const m = Number(text.trim());
    return /^\d+$/.test(text.trim()) && naiveMoves(s).includes(m)
      ? Result.succeed(m)
      : Result.fail("expected a legal move code");
  },
  key: (s) => {
    let h = 0;
    for (const x of s.cells) h = (h * 3 + x) % 9007199254740881;
    return h;
  },
});
