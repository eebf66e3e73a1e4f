/**
 * The engine service: every search a program runs goes through `Engine`. To the program
 * a search is an interruptible Effect plus its progress (each completed iteration, and a
 * heartbeat while a long iteration runs), like a UCI engine's `info` lines.
 *
 * - `liveEngine` runs each search in a Web Worker of the `WorkerPool` (the game rebuilt
 *   there from its plugin module), so the main thread stays responsive: interrupting the
 *   search's fiber (Ctrl-C, a parent's failure, a closed scope) raises the worker's stop
 *   flag and waits for its answer; a worker that neither stops nor answers within the
 *   grace period is terminated and replaced, and the search fails naming the plugin.
 * - `inProcessEngine` runs the plain synchronous search on the calling thread (tests, and
 *   a library user who wants a plain call). `search` uses it when no engine is provided.
 *
 * Parallel strategies run where they always do: their coordination on the calling
 * thread, their work on the pool's workers.
 *
 * @module
 */
import { Context, Effect, Layer, Option, Queue, Stream } from "../deps.ts";
import { faultTrace, PluginFault, type SearchError, SearchFailed } from "../errors.ts";
import type { Game } from "../game.ts";
import { type SearchTask, WorkerPool } from "../parallel/pool.ts";
import type { Progress } from "../parallel/protocol.ts";
import type { GameSource } from "../source.ts";
import { makeRng } from "../rng.ts";
import { runStrategy } from "./strategies.ts";
import type { SearchOptions, SearchResult, Strategy } from "../search/types.ts";

export type { Progress } from "../parallel/protocol.ts";

/**
 * What a search may use: `SearchOptions` that are plain data (a player's table is shared
 * with the worker only when it lives in shared memory, `TranspositionTable.shared`;
 * otherwise the worker uses its own, emptied for each search), plus the engine's own.
 */
export interface EngineOptions
  extends Omit<SearchOptions, "rng" | "shouldStop" | "onIteration" | "busy"> {
  /** Seed of the strategy's random choices (MCTS playouts, tie-breaks). */
  readonly seed?: number;
  /**
   * Milliseconds a worker may run past its time budget, or past an interruption, before
   * it is terminated and replaced (default 1000).
   */
  readonly graceMs?: number;
  /** True for a search someone waits for: the pool runs it before others that are not. */
  readonly priority?: boolean;
}

/** One search: a strategy, a game, a position and the options. */
export interface SearchRequest<S> {
  /** The strategy (built in, or one the game's plugin adds). */
  readonly strategy: Strategy;
  /** The game. */
  readonly game: Game<S>;
  /**
   * Where the game came from (`OpenedGame.source`): with it, the live engine searches in
   * a worker that opens the same game, and a parallel strategy can run; without it, a
   * sequential search runs on the calling thread and a parallel one fails with
   * `ParallelUnavailable`.
   */
  readonly source?: GameSource;
  /** The position. */
  readonly state: S;
  /** The budget and settings. */
  readonly options?: EngineOptions;
}

/** The engine's events for one search: progress reports, then the result. */
export type SearchEvent = Progress | {
  /** The search ended with this result. */
  readonly _tag: "Done";
  readonly result: SearchResult;
};

/** The engine's operations (the service's shape). */
export interface EngineShape {
  /**
   * Runs one search; `onProgress` hears each iteration and heartbeat. Interrupting the
   * effect stops the search.
   */
  readonly search: <S>(
    request: SearchRequest<S>,
    onProgress?: (p: Progress) => void,
  ) => Effect.Effect<SearchResult, SearchError>;
}

// The superclass as a variable of an explicit type: JSR's fast check reads no call there.
const EngineKey: Context.ServiceClass<Engine, "ply/Engine", EngineShape> = Context.Service<
  Engine,
  EngineShape
>()("ply/Engine");

/** The engine: runs searches as interruptible Effects with progress. */
export class Engine extends EngineKey {}

/** `EngineOptions` as the synchronous searches take them. */
const searchOptions = (o: EngineOptions, onProgress?: (p: Progress) => void): SearchOptions => {
  const { seed, graceMs: _, priority: __, ...rest } = o;
  return {
    ...rest,
    ...(seed !== undefined ? { rng: makeRng(seed) } : {}),
    ...(onProgress !== undefined
      ? { onIteration: (result: SearchResult) => onProgress({ _tag: "Iteration", result }) }
      : {}),
  };
};

/** A plugin's exception becomes the search's failure (any other is a defect). */
const pluginFaults = <A>(effect: Effect.Effect<A, SearchError>) =>
  Effect.catchDefect(
    effect,
    (d) =>
      d instanceof PluginFault
        ? Effect.fail(new SearchFailed({ message: d.message, trace: faultTrace(d) }))
        : Effect.die(d),
  );

/** A search on the calling thread (a parallel strategy: on the pool, from here). */
const inProcess = <S>(
  { strategy, game, source, state, options = {} }: SearchRequest<S>,
  onProgress?: (p: Progress) => void,
): Effect.Effect<SearchResult, SearchError> =>
  pluginFaults(runStrategy(strategy, game, state, searchOptions(options, onProgress), source));

/** The engine that searches on the calling thread. */
export const inProcessEngine: Layer.Layer<Engine> = Layer.succeed(
  Engine,
  Engine.of({ search: inProcess }),
);

/**
 * A sequential search as the pool runs it (`WorkerPool.search`), plain data that a
 * message can carry: a player's table goes with it only when it lives in shared memory.
 */
export const poolTask = (
  strategy: string,
  state: unknown,
  options: EngineOptions = {},
): Omit<SearchTask, "onProgress"> => {
  const { tt, graceMs, priority, ...rest } = options;
  const shared = tt !== undefined && tt !== false &&
      typeof SharedArrayBuffer !== "undefined" && tt.buffer instanceof SharedArrayBuffer
    ? tt.buffer
    : tt === false
    ? false
    : undefined;
  return {
    strategy,
    state,
    options: { ...rest, ...(shared !== undefined ? { tt: shared } : {}) },
    ...(graceMs !== undefined ? { graceMs } : {}),
    ...(priority === true ? { priority } : {}),
  };
};

/**
 * The engine that searches in the pool's workers, which open the game from the request's
 * `source`. A request without a source runs its sequential search in process; a parallel
 * strategy coordinates here and searches on the pool.
 *
 * @example A search in a worker of a pool of one
 * ```ts
 * import { Effect, Layer } from "../deps.ts";
 * import { liveEngine, search } from "./engine.ts";
 * import { workerPoolLayer } from "../parallel/pool.ts";
 * import { alphabetaStrategy } from "../search/strategies.ts";
 * import { openGameWith } from "../plugin.ts";
 * const nim = new URL("../../plugins/nim/mod.ts", import.meta.url).href;
 * const { game, source } = await Effect.runPromise(openGameWith({}, nim, { heaps: [2, 3] }));
 * const r = await Effect.runPromise(
 *   search({ strategy: alphabetaStrategy, game, source, state: game.initial(), options: { depth: 6 } })
 *     .pipe(Effect.provide(liveEngine.pipe(Layer.provide(workerPoolLayer(1))))),
 * );
 * if (r.value <= 0) throw new Error("Nim 2,3 is a first player's win");
 * ```
 */
export const liveEngine: Layer.Layer<Engine, never, WorkerPool> = Layer.effect(
  Engine,
  Effect.map(Effect.service(WorkerPool), (pool) =>
    Engine.of({
      search: (request, onProgress) => {
        const { strategy, source, state, options = {} } = request;
        if (strategy._tag === "Parallel" || source === undefined) {
          return Effect.provideService(inProcess(request, onProgress), WorkerPool, pool);
        }
        return pool.search(source, {
          ...poolTask(strategy.name, state, options),
          ...(onProgress !== undefined ? { onProgress } : {}),
        });
      },
    })),
);

/**
 * Runs a search with the engine in the context, or in process when there is none.
 *
 * @example
 * ```ts
 * import { Effect } from "../deps.ts";
 * import { search } from "./engine.ts";
 * import { alphabetaStrategy } from "../search/strategies.ts";
 * import tictactoe from "../../plugins/tictactoe/mod.ts";
 * const game = tictactoe.create({});
 * const r = Effect.runSync(
 *   search({ strategy: alphabetaStrategy, game, state: game.initial(), options: { depth: 9 } }),
 * );
 * if (r.value !== 0 || !r.exact) throw new Error("tic-tac-toe is a draw");
 * ```
 */
export const search = <S>(
  request: SearchRequest<S>,
  onProgress?: (p: Progress) => void,
): Effect.Effect<SearchResult, SearchError> =>
  Effect.flatMap(
    Effect.serviceOption(Engine),
    (engine) =>
      Option.isSome(engine)
        ? engine.value.search(request, onProgress)
        : inProcess(request, onProgress),
  );

/**
 * A search as a stream of its events: progress reports as they happen, then `Done` with
 * the result. Ending the stream early interrupts the search.
 *
 * @example
 * ```ts
 * import { Effect, Stream } from "../deps.ts";
 * import { searchEvents } from "./engine.ts";
 * import { alphabetaStrategy } from "../search/strategies.ts";
 * import tictactoe from "../../plugins/tictactoe/mod.ts";
 * const game = tictactoe.create({});
 * const events = Effect.runSync(Stream.runCollect(searchEvents({
 *   strategy: alphabetaStrategy, game, state: game.initial(), options: { depth: 3 },
 * })));
 * const tags = events.map((e) => e._tag);
 * if (tags.join(" ") !== "Iteration Iteration Iteration Done") throw new Error(tags.join());
 * ```
 */
export const searchEvents = <S>(
  request: SearchRequest<S>,
): Stream.Stream<SearchEvent, SearchError> =>
  Stream.callback<SearchEvent, SearchError>((queue) =>
    search(request, (p) => Queue.offerUnsafe(queue, p)).pipe(
      Effect.matchEffect({
        onFailure: (e) => Queue.fail(queue, e),
        onSuccess: (result) =>
          Effect.sync(() => {
            Queue.offerUnsafe(queue, { _tag: "Done", result });
            Queue.endUnsafe(queue);
          }),
      }),
    )
  );
