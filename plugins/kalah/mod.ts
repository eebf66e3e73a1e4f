/**
 * Kalah / Kalaha(pits, stones): seeds 000 and 004 as one plugin.
 *
 * - Options: `pits` (houses a side), `stones` (per house), `capture` (`nonempty`, seed
 *   004's rule, or `always`, seed 000's), `eval` (`util`, seed 004's, or `store`, seed
 *   000's store difference) and `board` (`play`, or `plain`: seed 000's `showGame`).
 * - South (player 0, who moves first) is seed 004's player 0 and seed 000's bob.
 * - Strategies of its own: `seq_mm` and `seq_ab` (seed 004's searches, specialised) and
 *   `solve` (the exact solver, for `deno task analyze kalah --solve`).
 *
 * See `plugins/kalah/README.md` for the rules, the seed mapping and the solver's results.
 *
 * @module
 */
import { Effect, Schema } from "../../core/deps.ts";
import { definePlugin, type GamePlugin } from "../../core/plugin.ts";
import { about } from "./about.ts";
import type { SearchOptions, SearchResult, SequentialStrategy } from "../../core/search/types.ts";
import type { Game } from "../../core/game.ts";
import { fastSearch } from "./fast.ts";
import { LASTMAX_PARAM } from "../../core/parallel/strategies.ts";
import { type KalahGame, kalahGame } from "./game.ts";
import type { KalahState } from "./rules.ts";
import { solveStrategy } from "./solve.ts";
import { kalahPicture } from "./picture.ts";
import { withPicture } from "../svg.ts";

export { type BoardStyle, isKalahGame, type KalahGame, kalahGame } from "./game.ts";
export type { CaptureRule, EvalName, KalahConfig, KalahState } from "./rules.ts";

/** The largest number of houses a side. */
export const MAX_PITS = 100;
/** The largest number of stones per house (the total stays below 2^31). */
export const MAX_STONES = 10_000_000;

/** Kalah's options: every field has a default and a description. */
export const KalahOptions = Schema.Struct({
  pits: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_PITS }))
    .annotate({ description: "houses per side" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(6))),
  stones: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_STONES }))
    .annotate({ description: "stones per house at the start" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(4))),
  capture: Schema.Literals(["nonempty", "always"])
    .annotate({
      description: "when your last stone lands in an empty house of yours, it and the " +
        "stones opposite go to your store: nonempty, only if the house opposite has " +
        "stones, or always",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("nonempty" as const))),
  eval: Schema.Literals(["util", "store"])
    .annotate({
      description: "how the AI weighs a position: util, the difference in stones on each " +
        "side, houses and store, or store, the difference in the stores only",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("util" as const))),
  board: Schema.Literals(["play", "plain"])
    .annotate({
      description: "the board picture: play, the houses numbered as you type them and the " +
        "last move marked, or plain, the stones only, then who moves",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("play" as const))),
});

/** Decoded Kalah options. */
export type KalahOptions = typeof KalahOptions.Type;

/**
 * Seed 004's `SeqMM`: plain minimax in house order, specialised (same results as
 * `minimax`); with `,lastmax=1` the root keeps the last of equal maxima, as the seed's
 * program does (`deno task kalah`).
 */
export const seqMmStrategy: SequentialStrategy = {
  _tag: "Sequential",
  budget: "depth",
  name: "seq_mm",
  description: "plain minimax in house order, made for Kalah (same result as minimax)",
  allBest: true,
  params: { lastmax: LASTMAX_PARAM },
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult =>
    fastSearch(game, state, options, "mm", options.params?.lastmax === 1),
};

/** Seed 004's `SeqAB`: alpha-beta without ordering or table, specialised. */
export const seqAbStrategy: SequentialStrategy = {
  _tag: "Sequential",
  budget: "depth",
  name: "seq_ab",
  description: "alpha-beta in house order, no move ordering or table, made for Kalah",
  allBest: true,
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult =>
    fastSearch(game, state, options, "ab"),
};

/** The exact solver (`solve`). */
export const kalahSolveStrategy: SequentialStrategy = solveStrategy;

/** Builds the game for decoded options, with its picture for a web page (`picture.ts`). */
export const createKalah = (options: KalahOptions): KalahGame =>
  withPicture(kalahPicture, kalahGame(options));

/** Kalah's rules and notation, for a person (`rules` in `play`). */
export const KALAH_RULES =
  `Kalah: each side has a row of houses (--pits, default 6) with stones in them
(--stones, default 4 each) and a store on its right. South moves first. A
move takes every stone of one of your houses and sows them one by one
counter-clockwise into the next houses and your own store (never into the
opponent's store). Last stone in your store: you move again (extra turn).
Last stone in an empty house of yours: it and the stones of the house
opposite are captured into your store, if that house is not empty (--capture
nonempty, the default) or always (--capture always).
When one side's houses are all empty the game ends: each side keeps the
stones on its side, and more stones win.
Moves: a house number 1..n counted from your left, as the board numbers them.`;

/**
 * The AI's strengths, weakest first (see the README). `perfect` is the exact solver
 * without a time limit (a depth budget, which the solver ignores): on the classic board
 * its first moves take minutes unless `deno task kalah-db` has built a database.
 */
export const KALAH_STRENGTHS: Readonly<Record<string, string>> = {
  easy: "alphabeta:2",
  medium: "alphabeta:1s",
  strong: "alphabeta:5s",
  perfect: "solve:1000",
};

/** The Kalah plugin. */
const plugin: GamePlugin<KalahOptions, KalahState> = definePlugin({
  ...about,
  options: KalahOptions,
  create: createKalah,
  strategies: { seq_mm: seqMmStrategy, seq_ab: seqAbStrategy, solve: kalahSolveStrategy },
  rules: KALAH_RULES,
  strengths: KALAH_STRENGTHS,
  defaultOpponent: "alphabeta:1s",
});

export default plugin;
