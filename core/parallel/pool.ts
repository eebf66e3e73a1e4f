/**
 * A pool of Deno Web Workers for search, as an Effect service whose lifetime is a
 * `Scope`: the workers start on first use, are reused across searches, and are all
 * terminated when the scope closes (completion, failure or interruption).
 *
 * Interrupting a search raises its stop flag, which the workers poll every few thousand
 * nodes, and waits for the worker's answer (its handshake); a worker that does not answer
 * within the grace period is terminated and replaced. A search with a time budget that
 * runs past it by the grace period is abandoned the same way and fails with a message
 * naming the plugin function that did not return.
 *
 * @module
 */
import { Context, Effect, Layer } from "../deps.ts";
import { runningFunction, sharedSlot } from "../guard.ts";
import { SearchFailed } from "../errors.ts";
import {
  type PluginLimits,
  type PluginThread,
  spawnPluginThread,
  spawnWebThread,
} from "../host/thread.ts";
import { SEARCH_PLUGIN_THREAD, SEARCH_WEB_WORKER } from "./entries.ts";
import { Limits } from "../host/limits.ts";
import { type GameSource, isBuiltinUrl, pluginLabel } from "../source.ts";
import { TranspositionTable } from "../search/tt.ts";
import type { SearchResult } from "../search/types.ts";
import {
  HEARTBEAT_MS,
  type Progress,
  type ReplyMessage,
  type Task,
  type TaskMessage,
  type TaskResult,
  type TaskSettings,
  type WireOptions,
} from "./protocol.ts";

/** How long a worker may take to answer a stop (or to stop past its budget) by default. */
const DEFAULT_GRACE_MS = 1000;

/** One whole search for a worker (see `WorkerPool.search`). */
export interface SearchTask {
  /** The strategy's name (built in, or the plugin's). */
  readonly strategy: string;
  /** The position (plain data). */
  readonly state: unknown;
  /** The options. */
  readonly options: WireOptions;
  /** Called with each progress report. */
  readonly onProgress?: (p: Progress) => void;
  /** Milliseconds past the time budget (or past a stop) before the worker is replaced. */
  readonly graceMs?: number;
  /**
   * True for a search someone waits for (a person's opponent on a server): it goes ahead
   * of the queued searches that are not, behind the queued ones that are.
   */
  readonly priority?: boolean;
}

/** The pool's operations (the service's shape). */
export interface WorkerPoolShape {
  /** The number of workers. */
  readonly size: number;
  /** Runs the tasks on the workers (as many at once as there are workers); results in order. */
  readonly run: (
    source: GameSource,
    settings: TaskSettings,
    tasks: readonly Task[],
  ) => Effect.Effect<readonly TaskResult[], SearchFailed>;
  /** Runs one whole search on one worker, with progress (the engine service's search). */
  readonly search: (
    source: GameSource,
    task: SearchTask,
  ) => Effect.Effect<SearchResult, SearchFailed>;
  /** A shared transposition table for a key (made once, reused across searches). */
  readonly sharedTable: (key: string, megabytes: number) => TranspositionTable;
  /**
   * A new search's number on this pool (`TaskSettings.generation`): the workers empty
   * their own tables when it changes, so that every search starts cold.
   */
  readonly newSearch: () => number;
  /**
   * Starts a worker for the plugin at `url` now, if there is room and none of its kind
   * is idle, so that its start overlaps the program's own (a program that opens a game
   * will search it).
   */
  readonly warm: (url: string) => void;
  /** The number of live workers (0 before first use and after the scope closes). */
  readonly alive: () => number;
  /** How many tasks workers abandoned because they saw their stop flag (the handshakes). */
  readonly stopped: () => number;
  /** How many workers were terminated because they did not stop in time. */
  readonly replaced: () => number;
  /** How many workers are busy with a task now. */
  readonly busy: () => number;
}

// The superclass as a variable of an explicit type: JSR's fast check reads no call there.
const WorkerPoolKey: Context.ServiceClass<WorkerPool, "ply/WorkerPool", WorkerPoolShape> = Context
  .Service<
    WorkerPool,
    WorkerPoolShape
  >()("ply/WorkerPool");

/** A pool of search workers. */
export class WorkerPool extends WorkerPoolKey {}

interface Job {
  readonly message: Omit<TaskMessage, "id" | "slot">;
  readonly done: (r: readonly TaskResult[]) => void;
  readonly fail: (message: string, trace?: string) => void;
  readonly progress?: (p: Progress) => void;
  /** Set once the job's answer no longer matters (interrupted, failed elsewhere). */
  cancelled: boolean;
  /** Queued ahead of the jobs without it (`SearchTask.priority`). */
  readonly priority?: boolean;
  /** Called when the worker that had the job is free again, or gone. */
  released?: () => void;
  /** Called when the worker has built the game and starts the job's tasks. */
  started?: () => void;
  /**
   * A search without a time budget: the job fails with `silence.message(...)` when its
   * worker sends nothing (no progress, no heartbeat) for `silence.ms`.
   */
  readonly silence?: {
    readonly ms: number;
    readonly message: (fn: string | undefined) => string;
  };
  /** A time limit: the job fails with `limit.message(...)` if it runs longer. */
  readonly limit?: {
    readonly budgetMs: number;
    readonly graceMs: number;
    /** The failure: `fn` runs now (`sameCall`: since the budget's end, `pastMs` ago). */
    readonly message: (fn: string | undefined, sameCall: boolean, pastMs: number) => string;
  };
}

interface Slot {
  worker: PluginThread;
  /** The kind of sources the worker may run (`threadKind`): its permissions. */
  readonly kind: string;
  job: Job | undefined;
  id: number;
  /** What the worker's guarded game is running (shared with the worker). */
  readonly guard: Int32Array;
  timers: ReturnType<typeof setTimeout>[];
  /** The silence watchdog of a search without a time budget (reset by each message). */
  quiet?: ReturnType<typeof setTimeout>;
  /** True once the worker said it built the game for its current job. */
  started: boolean;
}

/** The kind of the built-in plugins' workers (see `threadKind`). */
const TRUSTED = "built-in";

/**
 * Which workers may run a source: a built-in plugin's (the program's permissions), or a
 * user's from the same folder (a sandboxed worker may read its plugin's folder alone),
 * or from a URL.
 */
const threadKind = (url: string): string =>
  isBuiltinUrl(url) ? TRUSTED : url.startsWith("file:") ? new URL("./", url).href : "remote";

/**
 * How long a worker may take to load a plugin and build its game (a network's weights
 * file, say) before a job's time limit counts: past it, the job fails as one that did
 * not stop.
 */
const LOAD_ALLOWANCE_MS = 60_000;

/** The plain pool behind the service. */
class Pool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly tables = new Map<string, TranspositionTable>();
  private nextId = 1;
  private closed = false;
  /** Tasks that ended as "stopped" (their search saw the stop flag). */
  stopped = 0;
  /** Workers terminated because they did not stop in time. */
  replaced = 0;
  /** Searches numbered so far (`WorkerPoolShape.newSearch`). */
  searches = 0;

  /**
   * @param size the number of workers.
   * @param limits the plugin threads' limits: a search without a time budget may send
   *   nothing for the call limit; each worker's heap and a user's plugin's grants.
   */
  constructor(readonly size: number, readonly limits: PluginLimits) {}

  /**
   * How long a search without a time budget may send nothing: the call limit, but at
   * least two heartbeats.
   */
  get silenceMs(): number {
    return Math.max(this.limits.callLimitMs, 2 * HEARTBEAT_MS);
  }

  alive(): number {
    return this.slots.length;
  }

  busy(): number {
    return this.slots.filter((s) => s.job !== undefined).length;
  }

  /** A worker for sources of `kind` (a plugin thread: see `core/host/thread.ts`). */
  private spawn(kind: string, url: string): Slot {
    const slot = {
      kind,
      job: undefined,
      id: 0,
      guard: sharedSlot(),
      timers: [],
      started: false,
    } as unknown as Slot;
    const events = {
      message: (m: unknown) => this.reply(slot, m as ReplyMessage),
      exit: (end: { readonly oom: boolean; readonly message: string; readonly trace?: string }) => {
        const job = slot.job;
        this.kill(slot);
        if (job !== undefined && !job.cancelled) {
          const label = pluginLabel(job.message.source.url);
          job.fail(
            end.oom
              ? `plugin ${label} ran out of memory (limit ${this.limits.memoryMb} MB; ` +
                "--memory changes it)"
              : `a worker crashed: ${end.message}`,
            end.trace,
          );
        }
        job?.released?.();
        this.pump();
      },
    };
    // The built-in plugins search in Web Workers (their messages cost a tenth of a Node
    // worker's); a user's plugin in a plugin thread: its heap bounded, sandboxed.
    slot.worker = kind === TRUSTED ? spawnWebThread(SEARCH_WEB_WORKER, events) : spawnPluginThread(
      SEARCH_PLUGIN_THREAD,
      {},
      { plugin: url, trusted: false, limits: this.limits },
      events,
    );
    this.slots.push(slot);
    return slot;
  }

  /** A worker's message about its current job. */
  private reply(slot: Slot, r: ReplyMessage): void {
    const job = slot.job;
    if (job === undefined || r.id !== slot.id) return;
    if (r.type === "progress") {
      this.listen(slot, job);
      if (!job.cancelled) job.progress?.(r.progress);
      return;
    }
    if (r.type === "started") {
      this.listen(slot, job);
      // The game is built (a plugin may load a large file first): the budget starts now.
      slot.started = true;
      job.started?.();
      if (job.limit !== undefined) {
        for (const t of slot.timers) clearTimeout(t);
        slot.timers = [];
        this.watch(slot, job, job.limit);
      }
      return;
    }
    this.free(slot);
    if (r.type === "stopped") this.stopped++;
    if (!job.cancelled) {
      if (r.type === "done") job.done(r.results);
      else if (r.type === "error") job.fail(r.message, r.trace);
      else job.fail("the search was stopped");
    }
    job.released?.();
    this.pump();
  }

  /**
   * Restarts the silence watchdog of a job without a time budget: a worker that sends
   * nothing for the limit is stuck (a search polls its stop flag and sends a heartbeat
   * every second); it is terminated, and the job fails naming the function it runs.
   */
  private listen(slot: Slot, job: Job): void {
    const silence = job.silence;
    if (silence === undefined) return;
    clearTimeout(slot.quiet);
    slot.quiet = setTimeout(() => {
      if (slot.job !== job) return;
      const fn = runningFunction(slot.guard);
      this.replaced++;
      this.kill(slot);
      if (!job.cancelled) job.fail(silence.message(fn));
      job.released?.();
      this.pump();
    }, silence.ms);
  }

  private free(slot: Slot): void {
    clearTimeout(slot.quiet);
    slot.job = undefined;
    for (const t of slot.timers) clearTimeout(t);
    slot.timers = [];
  }

  /** Terminates a worker (it is replaced on demand). */
  private kill(slot: Slot): void {
    this.free(slot);
    slot.worker.terminate();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  warm(url: string): void {
    const kind = threadKind(url);
    if (this.closed || this.slots.length >= this.size) return;
    if (this.slots.some((s) => s.kind === kind && s.job === undefined)) return;
    this.spawn(kind, url);
  }

  submit(job: Job): void {
    if (this.closed) {
      job.fail("the worker pool is closed");
      return;
    }
    const at = job.priority === true ? this.queue.findIndex((j) => j.priority !== true) : -1;
    if (at >= 0) this.queue.splice(at, 0, job);
    else this.queue.push(job);
    this.pump();
  }

  /**
   * Gives up a job: a queued one is dropped at once; a running one (whose stop flag the
   * caller raised) is waited for until its worker answers, or terminated after `graceMs`.
   */
  cancel(job: Job, graceMs: number): Promise<void> {
    job.cancelled = true;
    const slot = this.slots.find((s) => s.job === job);
    if (slot === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (slot.job === job) {
            this.replaced++;
            this.kill(slot);
            this.pump();
          }
          resolve();
        }, ms);
      };
      // A worker still building the game cannot see the stop flag yet: the grace period
      // starts once it has built it.
      if (slot.started) arm(graceMs);
      else {
        arm(graceMs + LOAD_ALLOWANCE_MS);
        job.started = () => arm(graceMs);
      }
      job.released = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const job = this.queue[0];
      if (job.cancelled) {
        this.queue.shift();
        continue;
      }
      const kind = threadKind(job.message.source.url);
      let slot = this.slots.find((s) => s.job === undefined && s.kind === kind);
      if (slot === undefined && this.slots.length >= this.size) {
        // Every worker is made: an idle one of another kind gives its place.
        const idle = this.slots.find((s) => s.job === undefined);
        if (idle !== undefined) this.kill(idle);
      }
      if (slot === undefined && this.slots.length < this.size) {
        slot = this.spawn(kind, job.message.source.url);
      }
      if (slot === undefined) return;
      this.queue.shift();
      slot.job = job;
      slot.id = this.nextId++;
      slot.started = false;
      // Until the worker has built the game, the limit allows for the loading too.
      if (job.limit !== undefined) {
        this.watch(slot, job, { ...job.limit, budgetMs: job.limit.budgetMs + LOAD_ALLOWANCE_MS });
      }
      slot.worker.post({ ...job.message, id: slot.id, slot: slot.guard } satisfies TaskMessage);
    }
  }

  /**
   * A job's time limit: at the end of its budget, note what the worker runs; a grace
   * period later, if it still has the job, terminate it and fail the job, naming the
   * plugin function that runs (and whether it is the same call as at the budget's end).
   */
  private watch(slot: Slot, job: Job, limit: NonNullable<Job["limit"]>): void {
    slot.timers.push(setTimeout(() => {
      const seen = { fn: slot.guard[0], calls: slot.guard[1], at: performance.now() };
      slot.timers.push(setTimeout(() => {
        if (slot.job !== job) return;
        const same = seen.fn !== 0 && seen.fn === slot.guard[0] && seen.calls === slot.guard[1];
        const fn = runningFunction(slot.guard);
        const past = performance.now() - seen.at;
        this.replaced++;
        this.kill(slot);
        if (!job.cancelled) job.fail(limit.message(fn, same, past));
        job.released?.();
        this.pump();
      }, limit.graceMs));
    }, limit.budgetMs));
  }

  table(key: string, megabytes: number): TranspositionTable {
    let t = this.tables.get(key);
    if (t === undefined) {
      t = TranspositionTable.shared(megabytes);
      this.tables.set(key, t);
    }
    return t;
  }

  terminate(): void {
    this.closed = true;
    for (const s of this.slots) {
      for (const t of s.timers) clearTimeout(t);
      s.worker.terminate();
    }
    this.slots.length = 0;
    for (const j of this.queue) j.cancelled = true;
    this.queue.length = 0;
    this.tables.clear();
  }
}

/** The machine's logical cores (the default worker count). */
export const defaultWorkers = (): number => Math.max(1, navigator.hardwareConcurrency || 1);

const raise = (stop: SharedArrayBuffer) => Atomics.store(new Int32Array(stop), 0, 1);

/** One whole search as a pool job, interruptible, with its time limit. */
const searchOn = (pool: Pool, source: GameSource, task: SearchTask) =>
  Effect.callback<SearchResult, SearchFailed>((resume) => {
    const stop = new SharedArrayBuffer(4);
    const graceMs = task.graceMs ?? DEFAULT_GRACE_MS;
    const budget = task.options.timeMs;
    const label = pluginLabel(source.url);
    const job: Job = {
      message: {
        source,
        settings: { chance: "min", distance: task.options.distance === true, generation: 0 },
        tasks: [{
          kind: "search",
          strategy: task.strategy,
          state: task.state,
          options: task.options,
        }],
        stop,
      },
      cancelled: false,
      ...(task.priority === true ? { priority: true } : {}),
      ...(task.onProgress !== undefined ? { progress: task.onProgress } : {}),
      done: (rs) => resume(Effect.succeed(rs[0] as SearchResult)),
      fail: (message, trace) => resume(Effect.fail(new SearchFailed({ message, trace }))),
      ...(budget === undefined
        ? {
          silence: {
            ms: pool.silenceMs,
            message: (fn) => {
              const secs = `${Number((pool.silenceMs / 1000).toFixed(3))} s`;
              return `plugin ${label} did not stop: ` +
                (fn === undefined
                  ? `its search (${task.strategy}) gave no sign of progress for ${secs}`
                  : `${fn}() ran for over ${secs} (--call-limit changes it)`);
            },
          },
        }
        : {
          limit: {
            budgetMs: budget,
            graceMs,
            message: (fn, same, pastMs) => {
              const secs = `${(pastMs / 1000).toFixed(1)} s`;
              return `plugin ${label} did not stop: ` +
                (fn === undefined
                  ? `its search (${task.strategy}) ran ${secs} past its time budget`
                  : same
                  ? `${fn}() ran for over ${secs}`
                  : `${fn}() was still running ${secs} past the time budget`);
            },
          },
        }),
    };
    pool.submit(job);
    // Interrupted: raise the stop flag and wait for the worker's answer (or replace it).
    return Effect.promise(() => {
      raise(stop);
      return pool.cancel(job, graceMs);
    });
  });

/** The pool service over a scoped `Pool` (searches watched with the call limit, `Limits`). */
const make = (size: number) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.map(Effect.service(Limits), (limits) => new Pool(size, limits)),
      (pool) => Effect.sync(() => pool.terminate()),
    ),
    (pool) =>
      WorkerPool.of({
        size,
        alive: () => pool.alive(),
        warm: (url) => pool.warm(url),
        stopped: () => pool.stopped,
        replaced: () => pool.replaced,
        busy: () => pool.busy(),
        sharedTable: (key, mb) => pool.table(key, mb),
        newSearch: () => ++pool.searches,
        search: (source, task) => searchOn(pool, source, task),
        run: (source, settings, tasks) =>
          tasks.length === 0 ? Effect.succeed([]) : Effect.callback<
            readonly TaskResult[],
            SearchFailed
          >((resume) => {
            const stop = new SharedArrayBuffer(4);
            const results: TaskResult[] = new Array(tasks.length);
            // About eight batches per worker: few messages, and still balanced.
            const per = Math.max(1, Math.ceil(tasks.length / (size * 8)));
            const batches: number[] = [];
            for (let i = 0; i < tasks.length; i += per) batches.push(i);
            let remaining = batches.length;
            let finished = false;
            const jobs: Job[] = batches.map((from) => ({
              message: { source, settings, tasks: tasks.slice(from, from + per), stop },
              cancelled: false,
              done: (rs) => {
                for (let k = 0; k < rs.length; k++) results[from + k] = rs[k];
                if (--remaining === 0 && !finished) {
                  finished = true;
                  resume(Effect.succeed(results));
                }
              },
              fail: (message, trace) => {
                if (finished) return;
                finished = true;
                raise(stop);
                for (const j of jobs) j.cancelled = true;
                resume(
                  Effect.fail(
                    new SearchFailed({ message: `a search worker failed: ${message}`, trace }),
                  ),
                );
              },
            }));
            for (const j of jobs) pool.submit(j);
            // Interrupted: stop the workers' searches, drop the queued tasks, and wait
            // for the running ones to answer (or replace their workers).
            return Effect.promise(() => {
              finished = true;
              raise(stop);
              return Promise.all(jobs.map((j) => pool.cancel(j, DEFAULT_GRACE_MS)));
            });
          }),
      }),
  );

/**
 * A layer providing a pool of `size` workers (default: the machine's cores) for the
 * layer's lifetime; the workers are terminated when it ends.
 */
export const workerPoolLayer = (size: number = defaultWorkers()): Layer.Layer<WorkerPool> =>
  Layer.effect(WorkerPool, make(size));

/**
 * Runs an effect that needs a pool: with the pool in the context if there is one, else
 * with a temporary pool for this effect alone (terminated when it ends).
 */
export const withPool = <A, E>(
  use: (pool: WorkerPool["Service"]) => Effect.Effect<A, E>,
): Effect.Effect<A, E> =>
  Effect.flatMap(
    Effect.serviceOption(WorkerPool),
    (found) =>
      found._tag === "Some"
        ? use(found.value)
        : Effect.scoped(Effect.flatMap(make(defaultWorkers()), use)),
  );
