/**
 * ply for library users: load a game (a built-in by id, or any plugin by path or URL),
 * search its positions, follow a search's progress, and play seeded games between
 * players, with transcripts that replay.
 *
 * The protocol (`Game`): two players, player 0 maximizes `value`, always from player
 * 0's view; moves are small integers the plugin encodes, with a notation a person types;
 * chance nodes list their outcomes with probabilities. A decided position is worth
 * `±WIN`; a search that prefers quick wins (`distance`, as players do) returns
 * `±(WIN - n)` for a win or loss `n` plies ahead, and values within `±WIN_THRESHOLD`
 * are heuristic. Strategies (`allStrategies`, the game's own in `plugin.strategies`) are
 * plain synchronous functions; `search` and `searchEvents` run one as an Effect. Players
 * are Effects; `runGame` plays them against each other.
 *
 * Writing a plugin: `plugin.ts`. Workers, the worker pool and shared tables: `engine.ts`.
 * ply is built on `npm:effect@4.1.0`: import Effect at that version.
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
 * @example Follow a search as it deepens, and read a decisive value
 * ```ts
 * import { Effect, Stream } from "npm:effect@4.1.0";
 * import { allStrategies, openGame, searchEvents, WIN } from "./mod.ts";
 *
 * const { game } = await Effect.runPromise(openGame("nim", { heaps: [1, 2] }));
 * const events = await Effect.runPromise(Stream.runCollect(searchEvents({
 *   strategy: allStrategies.alphabeta,
 *   game,
 *   state: game.initial(),
 *   options: { depth: 4, distance: true },
 * })));
 * for (const e of events) {
 *   if (e._tag === "Iteration") console.log(`depth ${e.result.depth}: ${e.result.value}`);
 * }
 * const last = events[events.length - 1];
 * if (last._tag !== "Done" || WIN - last.result.value !== 3) throw new Error("a win in 3");
 * ```
 *
 * @example Bad options are reported as data, every problem named
 * ```ts
 * import { Effect, Result } from "npm:effect@4.1.0";
 * import { openGame } from "./mod.ts";
 *
 * const r = await Effect.runPromise(Effect.result(openGame("kalah", { pits: 0, seeds: 4 })));
 * if (Result.isSuccess(r) || r.failure._tag !== "OptionsError") throw new Error("accepted");
 * for (const p of r.failure.problems) console.log(p.option, p.problem);
 * // seeds unknown option
 * // pits expected a value between 1 and 100
 * ```
 *
 * @module
 */

export {
  CHANCE,
  type Chance,
  type FastGame,
  type Game,
  type Outcome,
  type ParseResult,
  type Picture,
  type Player,
  type RenderOptions,
  type ToMove,
  WIN,
  WIN_THRESHOLD,
} from "./core/game.ts";
export { openGame } from "./app/games.ts";
export { builtinIds } from "./plugins/registry.ts";
export {
  type GamePlugin,
  type OpenedGame,
  type OptionProblem,
  OptionsError,
  PluginError,
} from "./core/plugin.ts";
export { ParallelUnavailable, PluginFault, type SearchError, SearchFailed } from "./core/errors.ts";
export type {
  BudgetKind,
  ParallelStrategy,
  SearchOptions,
  SearchResult,
  SequentialStrategy,
  Strategy,
  StrategyInfo,
  StrategyParam,
} from "./core/search/types.ts";
export type { GameSource } from "./core/source.ts";
export { TranspositionTable } from "./core/search/tt.ts";
export type { Rng } from "./core/rng.ts";
export { alphabetaSearch } from "./core/search/alphabeta.ts";
export { alphabetaStrategy, mctsStrategy } from "./core/search/strategies.ts";
export { allStrategies } from "./core/engine/strategies.ts";
export {
  type EngineOptions,
  type Progress,
  search,
  type SearchEvent,
  searchEvents,
  type SearchRequest,
} from "./core/engine/engine.ts";
export { type GameEvent, type Played, replay, runGame, type RunOptions } from "./app/match.ts";
export type { GameResult, Transcript, TranscriptMove, VariationMove } from "./app/transcript.ts";
export type {
  MoveRecord,
  SearchInfo,
  Session,
  SessionNode,
  SessionResult,
  TimeControl,
} from "./app/session.ts";
export type { ClockView } from "./app/clock.ts";
export {
  type Agent,
  type AgentOptions,
  type Budget,
  type Choice,
  randomAgent,
  searchAgent,
} from "./app/players/agents.ts";
