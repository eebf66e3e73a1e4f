/**
 * The messages between the main thread and the search workers. Work travels as compact
 * positions: a game's source (module URL and options, `GameSource`) and a state,
 * which must be plain data (arrays and objects of numbers), copied by structured clone.
 *
 * @module
 */
import type { GameSource } from "../source.ts";
import type { ChanceMode, SearchResult } from "../search/types.ts";

/** Settings shared by every task of one search. */
export interface TaskSettings {
  /** How chance nodes are treated. */
  readonly chance: ChanceMode;
  /** Prefer quick wins (distance-adjusted decisive values). */
  readonly distance: boolean;
  /**
   * The search this task belongs to (numbered by the pool, `WorkerPool.newSearch`): a
   * worker empties its own table when a new search starts, so every search starts cold
   * (results never depend on earlier searches).
   */
  readonly generation: number;
  /**
   * A transposition table in shared memory for every alpha-beta task of the search (the
   * workers share what they find); without it each worker keeps its own.
   */
  readonly table?: SharedArrayBuffer;
  /** Lazy SMP: the shared marks of positions being searched (`SearchOptions.busy`). */
  readonly busy?: SharedArrayBuffer;
}

/** One unit of work for a worker. */
export type Task =
  | {
    /** Plain minimax of `state` to `depth`. */
    readonly kind: "minimax";
    readonly state: unknown;
    readonly depth: number;
    readonly ply: number;
  }
  | {
    /** Alpha-beta of `state` to `depth` within the window. */
    readonly kind: "alphabeta";
    readonly state: unknown;
    readonly depth: number;
    readonly ply: number;
    readonly alpha: number;
    readonly beta: number;
  }
  | {
    /**
     * Lazy SMP: iterative-deepening alpha-beta of the root over the shared table
     * (`TaskSettings.table`) and busy marks (`TaskSettings.busy`). The first helper to
     * finish raises the stop flag for the others; helper k takes the root moves from
     * the k-th on.
     */
    readonly kind: "smp";
    readonly state: unknown;
    readonly depth: number;
    readonly timeMs: number | undefined;
    readonly helper: number;
  }
  | {
    /**
     * A whole search by a named strategy (the engine service's task): a built-in
     * sequential strategy or one the game's plugin adds. Its result is a full
     * `SearchResult`; it reports progress on the way.
     */
    readonly kind: "search";
    readonly strategy: string;
    readonly state: unknown;
    readonly options: WireOptions;
  };

/** Search options as they travel to a worker (plain data; see `SearchOptions`). */
export interface WireOptions {
  /** Depth in plies. */
  readonly depth?: number;
  /** MCTS's iterations. */
  readonly iterations?: number;
  /** Time budget in milliseconds. */
  readonly timeMs?: number;
  /** Prefer quick wins. */
  readonly distance?: boolean;
  /** Move ordering. */
  readonly ordering?: boolean;
  /** Every optimal root move. */
  readonly allBest?: boolean;
  /** Expectimax's probability cut. */
  readonly minProbability?: number;
  /** Strategy parameters. */
  readonly params?: Readonly<Record<string, number>>;
  /** Seed of the strategy's generator. */
  readonly seed?: number;
  /**
   * The caller's transposition table in shared memory (kept across moves by a player);
   * `false` for none; absent: the worker's own table for the game, emptied first.
   */
  readonly tt?: SharedArrayBuffer | false;
}

/** A batch of tasks as sent to a worker (many small tasks travel in few messages). */
export interface TaskMessage {
  /** The job's id in the pool. */
  readonly id: number;
  /** Where the game comes from. */
  readonly source: GameSource;
  /** The search settings. */
  readonly settings: TaskSettings;
  /** The work, done in order. */
  readonly tasks: readonly Task[];
  /** One Int32 stop flag shared by all tasks of a search (non-zero: stop now). */
  readonly stop: SharedArrayBuffer;
  /** The worker's guard slot (see `core/guard.ts`): which plugin function runs. */
  readonly slot: Int32Array;
}

/** What a task found. */
export interface TaskResult {
  /** The value (player 0 maximizes). */
  readonly value: number;
  /** Nodes visited. */
  readonly nodes: number;
  /** The principal variation from the task's state. */
  readonly pv: readonly number[];
  /** True when no depth cut-off was reached. */
  readonly exact: boolean;
  /** Lazy SMP: the depth of the last completed iteration. */
  readonly depth: number;
}

/** What a search reports while it runs (the engine's progress stream). */
export type Progress =
  | {
    /** An iteration completed (a depth of iterative deepening, a batch of MCTS playouts). */
    readonly _tag: "Iteration";
    readonly result: SearchResult;
  }
  | {
    /** Still searching (sent at least every second by a search that polls its stop flag). */
    readonly _tag: "Heartbeat";
    /** Milliseconds since the search started. */
    readonly timeMs: number;
  };

/**
 * A worker's reply. `done` carries one result per task (a `search` task's is a whole
 * `SearchResult`); `stopped` says the worker saw the stop flag (the handshake of an
 * interruption); `started` comes once the worker has built the game, before the search
 * runs; `progress` may come any number of times before the end.
 */
export type ReplyMessage =
  | { readonly id: number; readonly type: "done"; readonly results: readonly TaskResult[] }
  | { readonly id: number; readonly type: "stopped" }
  | {
    readonly id: number;
    readonly type: "error";
    readonly message: string;
    /** The exception's stack (a plugin's, for `--debug`). */
    readonly trace?: string;
  }
  | { readonly id: number; readonly type: "progress"; readonly progress: Progress }
  /** The worker has its game (the plugin loaded, the game built): the time limit starts. */
  | { readonly id: number; readonly type: "started" };

/**
 * A search in a worker reports that it is alive at least this often (milliseconds), if
 * it polls; the pool waits for at least two of them before it calls a search silent.
 */
export const HEARTBEAT_MS = 1000;
