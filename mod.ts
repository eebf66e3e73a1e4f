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
 * import { alphabetaSearch, openGame } from "./mod.ts";
 *
 * const { game } = await Effect.runPromise(openGame("tictactoe"));
 * const r = alphabetaSearch(game, game.initial(), { depth: 9 });
 * console.log(game.formatMove(game.initial(), r.move!), r.value); // a draw: value 0
 * ```
 *
 * @example Play a seeded game between two AIs and replay it
 * ```ts
 * import { Effect } from "npm:effect@4.1.0";
 * import { alphabetaStrategy, openGame, randomAgent, replay, runGame, searchAgent } from "./mod.ts";
 *
 * const { game } = await Effect.runPromise(openGame("nim", { heaps: [3, 4, 5] }));
 * const { transcript, final } = Effect.runSync(
 *   runGame(game, [searchAgent(alphabetaStrategy, { depth: 12 }), randomAgent()], { seed: 7 }),
 * );
 * console.log(transcript.result.winner); // 0: the first player wins Nim 3,4,5
 * console.log(JSON.stringify(replay(game, transcript)) === JSON.stringify(final)); // true
 * ```
 *
 * @module
 */

export * from "./core/game.ts";
export * from "./core/picture.ts";
export * from "./core/tree.ts";
export * from "./core/hash.ts";
export * from "./core/rng.ts";
export * from "./core/plugin.ts";
export * from "./core/source.ts";
export * from "./app/match.ts";
export * from "./app/session.ts";
export {
  decodeTranscript,
  exportTranscript,
  importTranscript,
  TRANSCRIPT_VERSION,
  type VariationMove,
} from "./app/transcript.ts";
export * from "./app/terminal.ts";
export * from "./app/players/agents.ts";
export * from "./app/players/spec.ts";
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
export * from "./app/games.ts";
