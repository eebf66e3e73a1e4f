/**
 * ply for advanced use: the engine service, the worker pool it searches on, the parallel
 * strategies and shared transposition tables.
 *
 * `search` and `searchEvents` (`mod.ts`) run a search on the calling thread unless an
 * `Engine` is provided. Provide `liveEngine` over a `workerPoolLayer` and every search
 * runs in a Web Worker of the pool, the game rebuilt there from its `source` (the plugin
 * module and options `openGame` returns beside the game): the calling thread stays free, interrupting the
 * search's fiber stops the worker's search, and a worker that does not stop within the
 * grace period is replaced. A table made by `TranspositionTable.shared` lives in shared
 * memory, so that the workers' searches share it; the parallel strategies
 * (`parallelStrategies`: `par_then_mm`, `par_then_ab`, `young_bros`, `lazy_smp`) split
 * one search over the pool's workers.
 *
 * @example A search in a worker, with a table the worker fills in shared memory
 * ```ts
 * import { Effect, Layer } from "npm:effect@4.1.0";
 * import { liveEngine, TranspositionTable, workerPoolLayer } from "./engine.ts";
 * import { allStrategies, openGame, search } from "./mod.ts";
 *
 * const { game, source } = await Effect.runPromise(openGame("tictactoe"));
 * const engine = liveEngine.pipe(Layer.provide(workerPoolLayer(2)));
 * const tt = TranspositionTable.shared(1);
 * const r = await Effect.runPromise(
 *   search({ strategy: allStrategies.alphabeta, game, source, state: game.initial(), options: { tt } })
 *     .pipe(Effect.provide(engine)),
 * );
 * console.log(r.value, tt.fill() > 0); // 0 (a draw), true
 * ```
 *
 * @example A parallel strategy: one search over the pool's workers
 * ```ts
 * import { Effect } from "npm:effect@4.1.0";
 * import { parallelStrategies, workerPoolLayer } from "./engine.ts";
 * import { openGame, search } from "./mod.ts";
 *
 * const { game, source } = await Effect.runPromise(openGame("kalah", { pits: 4, stones: 3 }));
 * const r = await Effect.runPromise(
 *   search({
 *     strategy: parallelStrategies.young_bros,
 *     game,
 *     source,
 *     state: game.initial(),
 *     options: { depth: 6 },
 *   }).pipe(Effect.provide(workerPoolLayer(2))),
 * );
 * console.log(game.formatMove(game.initial(), r.move!), r.value, r.nodes);
 * ```
 *
 * @module
 */

export { Engine, inProcessEngine, liveEngine } from "./core/engine/engine.ts";
export { defaultWorkers, WorkerPool, workerPoolLayer } from "./core/parallel/pool.ts";
export { DEFAULT_TT_MB, TranspositionTable } from "./core/search/tt.ts";
export { parallelStrategies } from "./core/parallel/strategies.ts";
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
export type { Rng } from "./core/rng.ts";
export { ParallelUnavailable, type SearchError, SearchFailed } from "./core/errors.ts";
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
} from "./core/game.ts";
