/**
 * ply: a scriptable game-search engine for Deno.
 *
 * The core speaks one protocol (`Game`): two players (player 0 maximizes), integer
 * moves, optional chance moves with probabilities. On top of it: the seeds' lazy game
 * tree and its compositions, fast searches (minimax, alpha-beta with a transposition
 * table, expectimax), players as Effects (human, random, search), a seeded match runner
 * with replayable transcripts, and plugins loaded by id, path or URL.
 *
 * @example Load a game and ask alpha-beta for a move
 * ```ts
 * import { Effect } from "npm:effect@4.1.0";
 * import { alphabetaSearch, loadGame } from "./mod.ts";
 *
 * const { game } = await Effect.runPromise(loadGame("tictactoe"));
 * const r = alphabetaSearch(game, game.initial(), { depth: 9 });
 * console.log(game.formatMove(game.initial(), r.move!), r.value); // a draw: value 0
 * ```
 *
 * @example Play a seeded game between two AIs and replay it
 * ```ts
 * import { Effect } from "npm:effect@4.1.0";
 * import { alphabetaStrategy, loadGame, randomAgent, replay, runGame, searchAgent } from "./mod.ts";
 *
 * const { game } = await Effect.runPromise(loadGame("nim", { heaps: [3, 4, 5] }));
 * const { transcript, final } = Effect.runSync(
 *   runGame(game, [searchAgent(alphabetaStrategy, { depth: 12 }), randomAgent()], { seed: 7 }),
 * );
 * console.log(transcript.result.winner); // 0: the first player wins Nim 3,4,5
 * console.log(JSON.stringify(replay(game, transcript)) === JSON.stringify(final)); // true
 * ```
 *
 * @module
 */
import { Effect } from "./core/deps.ts";
import { builtins } from "./plugins/registry.ts";
import {
  type GamePlugin,
  loadPlugin,
  makeGame,
  type OptionsError,
  type PluginError,
} from "./core/plugin.ts";
import type { Game } from "./core/game.ts";
import { guardPlugin } from "./core/guard.ts";
import { pluginLabel } from "./core/source.ts";

export * from "./core/game.ts";
export * from "./core/picture.ts";
export * from "./core/tree.ts";
export * from "./core/hash.ts";
export * from "./core/rng.ts";
export * from "./core/plugin.ts";
export * from "./core/source.ts";
export * from "./core/match.ts";
export * from "./core/session.ts";
export {
  decodeTranscript,
  exportTranscript,
  importTranscript,
  TRANSCRIPT_VERSION,
  type VariationMove,
} from "./core/transcript.ts";
export * from "./core/terminal.ts";
export * from "./core/players/agents.ts";
export * from "./core/players/spec.ts";
export * from "./core/search/types.ts";
export * from "./core/search/tt.ts";
export { deepen, type Iteration, SearchStopped } from "./core/search/control.ts";
export { type MinimaxEngine, minimaxEngine, minimaxSearch } from "./core/search/minimax.ts";
export * from "./core/parallel/pool.ts";
export * from "./core/parallel/strategies.ts";
export type { Task, TaskResult, TaskSettings, WireOptions } from "./core/parallel/protocol.ts";
export * from "./core/errors.ts";
export * from "./core/engine/engine.ts";
export * from "./core/engine/strategies.ts";
export * from "./core/guard.ts";
export { type AlphaBetaEngine, alphabetaEngine, alphabetaSearch } from "./core/search/alphabeta.ts";
export { type MctsParams, mctsSearch } from "./core/search/mcts.ts";
export * from "./core/search/strategies.ts";
export { builtins } from "./plugins/registry.ts";

/** A game built from a plugin and options. */
export interface LoadedGame {
  /** The plugin. */
  readonly plugin: GamePlugin<unknown, unknown>;
  /** The specifier it was loaded by (an id, path or URL). */
  readonly specifier: string;
  /** The plugin module's URL. */
  readonly url: string;
  /** The decoded options. */
  readonly options: unknown;
  /** The game. */
  readonly game: Game<unknown>;
}

/**
 * Loads a game by built-in id (`"kalah"`, `"tictactoe"`, ...) or by a plugin module's
 * path or URL, and builds it from options (missing ones take their defaults). The error
 * lists every problem with the module or the options. A user's plugin comes guarded
 * (`guardPlugin`): its exceptions are `PluginFault`s naming it and the function.
 */
export const loadGame = (
  specifier: string,
  options: Readonly<Record<string, unknown>> = {},
): Effect.Effect<LoadedGame, PluginError | OptionsError> =>
  Effect.gen(function* () {
    const { plugin, url } = yield* loadPlugin(specifier, builtins);
    const made = yield* makeGame(plugin, options, url);
    const game = guardPlugin(made.game, url, pluginLabel(url));
    return { plugin, specifier, url, options: made.options, game };
  });
