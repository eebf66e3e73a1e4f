/**
 * Kalah as a `Game` of the protocol: south is player 0 (seed 004's player 0, seed 000's
 * bob) and maximizes. Moves are houses counted from the mover's left (0-based
 * internally, written 1..n). See `rules.ts` for the state layout.
 *
 * @module
 */
import { Result } from "../../core/deps.ts";
import type { Game, Player } from "../../core/game.ts";
import { hashInts } from "../../core/hash.ts";
import { Keep } from "../../core/search/keep.ts";
import { playBoard, PLAYERS, seedBoard } from "./board.ts";
import { kalahCursor } from "./cursor.ts";
import {
  initialState,
  isOver,
  type KalahConfig,
  type KalahState,
  movesFor,
  orderKalahMoves,
  play,
  sowNaive,
  type SowReport,
  storeDiff,
  util,
} from "./rules.ts";

/** How `render` draws the board: the play board, or `plain`, seed 000's `showGame`. */
export type BoardStyle = "play" | "plain";

/** Everything that builds a Kalah game. */
export interface KalahGameOptions extends KalahConfig {
  /** The picture `render` draws (default the play board). */
  readonly board?: BoardStyle;
}

/** A Kalah game with its configuration attached (the fast searches read it). */
export interface KalahGame extends Game<KalahState> {
  /** The rules it was built with. */
  readonly config: KalahConfig;
  /** What the solve strategy keeps between searches on this game (`solve.ts`). */
  readonly keep: Keep;
}

/** True when `game` is a Kalah game built by `kalahGame` (it carries its configuration). */
export const isKalahGame = (game: Game<unknown>): game is Game<unknown> & KalahGame =>
  game.id === "kalah" && typeof (game as { config?: unknown }).config === "object";

/**
 * What a move did besides sowing, for a person: `"extra turn"` when its last stone
 * fell in the mover's store and the game goes on, `"captures N"` when it captured (N
 * counts every stone the capture put in the store: the opposite house's and the
 * capturing stone itself, so a capture of an empty house under `capture: always` is
 * `"captures 1"`), else `undefined`. A move cannot do both: an extra turn ends in the
 * store, a capture in a house.
 *
 * @example South's third house in Kalah(6, 4) ends in the store
 * ```ts
 * import { describeKalahMove } from "./game.ts";
 * import { initialState } from "./rules.ts";
 * if (describeKalahMove(initialState(6, 4), 6, 2, false) !== "extra turn") throw new Error();
 * ```
 */
export const describeKalahMove = (
  before: KalahState,
  n: number,
  m: number,
  captureAlways: boolean,
): string | undefined => {
  const b = before.slice();
  const report: SowReport = { captured: 0 };
  const extra = sowNaive(b, n, before[2 * n + 2], m, captureAlways, report);
  if (report.captured > 0) return `captures ${report.captured}`;
  return extra && !isOver(b, n) ? "extra turn" : undefined;
};

/**
 * Builds Kalah(pits, stones) with a capture rule and an evaluation.
 *
 * Values are stone margins from south's point of view: `util` (seed 004: south's houses
 * and store minus north's) or `store` (seed 000: south's store minus north's). At the
 * end of the game both are the final margin, which is also `outcome(s).margin`.
 *
 * @example
 * ```ts
 * import { kalahGame } from "./game.ts";
 * const g = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "util" });
 * const s = g.play(g.initial(), 2); // house 3: the last stone lands in the store
 * if (g.toMove(s) !== 0 || g.formatMove(s, 5) !== "6") throw new Error();
 * ```
 */
export const kalahGame = (options: KalahGameOptions): KalahGame => {
  const config: KalahConfig = {
    pits: options.pits,
    stones: options.stones,
    capture: options.capture,
    eval: options.eval,
  };
  const n = config.pits;
  const always = config.capture === "always";
  const moves = movesFor(n);
  const start = initialState(n, config.stones);
  const board = options.board ?? "play";
  const value = config.eval === "util"
    ? (s: KalahState) => util(s, n)
    : (s: KalahState) => (isOver(s, n) ? util(s, n) : storeDiff(s, n));
  return {
    id: "kalah",
    config,
    keep: new Keep(),
    players: PLAYERS,
    marginUnit: "stones",
    initial: () => start.slice(),
    toMove: (s) => s[2 * n + 2] as Player,
    moves,
    chances: () => [],
    play: (s, m) => play(s, n, m, always),
    outcome: (s) => {
      if (!isOver(s, n)) return undefined;
      const margin = util(s, n);
      return { winner: margin > 0 ? 0 : margin < 0 ? 1 : null, margin };
    },
    value,
    render: (s, view) => board === "play" ? playBoard(s, n, view) : seedBoard(s, n, config.stones),
    formatMove: (_s, m) => String(m + 1),
    parseMove: (s, text) => {
      const t = text.trim();
      if (!/^\d+$/.test(t)) {
        return Result.fail(`expected a house number 1-${n} (counted from your left)`);
      }
      const h = Number(t);
      if (h < 1 || h > n) return Result.fail(`there is no house ${t}: houses are 1-${n}`);
      if (isOver(s, n)) return Result.fail("the game is over");
      const base = s[2 * n + 2] === 0 ? 0 : n + 1;
      if (s[base + h - 1] === 0) return Result.fail(`house ${h} is empty`);
      return Result.succeed(h - 1);
    },
    describeMove: (before, m) => describeKalahMove(before, n, m, always),
    key: hashInts,
    orderMoves: (s, ms) => orderKalahMoves(s, n, ms, always),
    fast: () => kalahCursor(n, always, value),
    stats: (s) => ({ margin: util(s, n) }),
  };
};
