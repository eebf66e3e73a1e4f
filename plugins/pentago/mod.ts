/**
 * Pentago (seed 002): a 6x6 board of four 3x3 quadrants; a move places a marble and then
 * turns one quadrant a quarter turn. Five in a row wins. White (`o`, player 0) moves
 * first and maximizes, as in seed 002 (where a white win scores 1).
 *
 * Rules point (official rules): a five made by the placement wins at once, without a
 * twist; after a twist, fives for both players are a draw. See `rules.ts` and
 * `plugins/pentago/README.md`.
 *
 * @module
 */
import { Effect, Schema } from "../../core/deps.ts";
import type { Game } from "../../core/game.ts";
import { definePlugin } from "../../core/plugin.ts";
import { about } from "./about.ts";
import { Keep } from "../../core/search/keep.ts";
import { CELL_BIT, CELL_HALF } from "./board.ts";
import { pentagoStrategy } from "./engine.ts";
import { linesValue, orderByLines, playoutValue, resultValue } from "./eval.ts";
import { formatMove, movesHelp, parseMove, render } from "./notation.ts";
import {
  initialState,
  keyOf,
  legalMoves,
  marbles,
  ONGOING,
  type PentagoState,
  play,
  winningCells,
} from "./rules.ts";
import { pentagoPicture } from "./picture.ts";
import { withPicture } from "../svg.ts";

export type { PentagoState } from "./rules.ts";

/** Pentago's options. */
export const PentagoOptions = Schema.Struct({
  eval: Schema.Literals(["lines", "playouts"])
    .annotate({
      description:
        "how the AI weighs a position: lines, the open lines of 2-4 marbles each side has, " +
        "or playouts, random games played out from it",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("lines" as const))),
  playouts: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10000 }))
    .annotate({ description: "random games per position weighed, with --eval playouts" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(10))),
  shuffle: Schema.Boolean
    .annotate({
      description: "list the moves in a shuffled order, seeded by the position and " +
        "--aiSeed, so the AI varies among equally good moves",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(false))),
  dedupe: Schema.Boolean
    .annotate({
      description: "count moves that reach the same position once (such as twists of an " +
        "empty quadrant), so the AI has fewer to search",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(false))),
  aiSeed: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 31 - 1 }))
    .annotate({ description: "seed of the shuffling and of the random playouts" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(0))),
});

/** Decoded Pentago options. */
export type PentagoOptions = typeof PentagoOptions.Type;

/** The default options. */
export const DEFAULT_OPTIONS: PentagoOptions = {
  eval: "lines",
  playouts: 10,
  shuffle: false,
  dedupe: false,
  aiSeed: 0,
};

/** True when the mover's placement on `cell` makes five. */
const winsAt = (s: PentagoState, cell: number): boolean => {
  const w = winningCells(s);
  return ((CELL_HALF[cell] === 0 ? w % 262144 : Math.floor(w / 262144)) & CELL_BIT[cell]) !== 0;
};

/** Pentago's game. */
export interface PentagoGame extends Game<PentagoState> {
  /** What the engine keeps between searches on this game (its own table, `tt: false`). */
  readonly keep: Keep;
}

/**
 * Builds Pentago for the options.
 *
 * @example The first move has 36 cells x 8 twists; duplicate removal leaves 36
 * ```ts
 * import { pentagoGame } from "./mod.ts";
 * const g = pentagoGame();
 * if (g.moves(g.initial()).length !== 288) throw new Error("288 moves");
 * const d = pentagoGame({ dedupe: true });
 * // On the empty board every child is one white marble somewhere: 36 positions.
 * if (d.moves(d.initial()).length !== 36) throw new Error("36 distinct children");
 * ```
 */
export const pentagoGame = (options: Partial<PentagoOptions> = {}): PentagoGame => {
  const o: PentagoOptions = { ...DEFAULT_OPTIONS, ...options };
  const listing = {
    dedupe: o.dedupe,
    ...(o.shuffle ? { shuffleSeed: o.aiSeed } : {}),
  };
  const moves = (s: PentagoState) => legalMoves(s, listing);
  const value = o.eval === "playouts"
    ? (s: PentagoState) => playoutValue(s, o.playouts, o.aiSeed)
    : linesValue;
  const players = ["white", "black"] as const;
  // With dedupe, a typed twist maps to the listed move that reaches the same position.
  const canonical = (s: PentagoState, m: number): number => {
    if (!o.dedupe) return m;
    const ms = legalMoves(s, { dedupe: true });
    if (ms.includes(m)) return m;
    const c = play(s, m);
    for (const x of ms) {
      const d = play(s, x);
      if (
        d.white0 === c.white0 && d.white1 === c.white1 && d.black0 === c.black0 &&
        d.black1 === c.black1
      ) return x;
    }
    return m;
  };
  return {
    id: "pentago",
    players,
    keep: new Keep(),
    initial: initialState,
    toMove: (s) => s.turn,
    moves,
    chances: () => [],
    play,
    outcome: (s) => {
      if (s.result === ONGOING) return undefined;
      const v = resultValue(s.result);
      return v === 0
        ? { winner: null, margin: 0 }
        : { winner: v > 0 ? 0 : 1, margin: v > 0 ? 1 : -1 };
    },
    value,
    render: (s, view) => render(s, players, view),
    formatMove: (_s, m) => formatMove(m),
    parseMove: (s, text) => parseMove(s, text, winsAt, canonical),
    movesHelp: (s) => movesHelp(s, winsAt),
    key: keyOf,
    orderMoves: orderByLines,
    stats: (s) => ({ marbles: marbles(s) }),
  };
};

/** Pentago's rules and notation, for a person (`rules` in `play`). */
export const PENTAGO_RULES =
  `Pentago: a 6x6 board of four 3x3 quadrants, nw ne sw se. White (o) moves
first. A move places a marble of yours on an empty cell, then turns any one
quadrant a quarter turn, clockwise or anticlockwise. Five in a row (across,
down or diagonal) wins. A five made by the placement wins at once, without a
twist; fives for both players after a twist, or a full board, are a draw.
Moves: cell, quadrant, direction, as c4 ne cw (a1 is the bottom left; cw or
ccw), or the short form c4ne+ (+ clockwise, - anticlockwise: c4sw- is c4 sw
ccw). A winning placement is the cell alone: e6. Ask for the moves to see the
free cells on the board.`;

/**
 * The AI's strengths, weakest first (see the README): the dedicated engine (`engine.ts`,
 * the `pentago` strategy), one ply deep for `easy`, one and five seconds a move above.
 */
export const PENTAGO_STRENGTHS: Readonly<Record<string, string>> = {
  easy: "pentago:1",
  medium: "pentago:1s",
  strong: "pentago:5s",
};

/** The Pentago plugin. */
export default definePlugin({
  ...about,
  options: PentagoOptions,
  create: (o: PentagoOptions) => withPicture(pentagoPicture, pentagoGame(o)),
  strategies: { pentago: pentagoStrategy },
  rules: PENTAGO_RULES,
  strengths: PENTAGO_STRENGTHS,
  advancedOptions: ["eval", "playouts", "aiSeed"],
  defaultOpponent: "pentago:1s",
});
