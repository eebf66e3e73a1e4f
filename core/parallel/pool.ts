/**
 * A pool of Deno Web Workers for parallel search, as an Effect service whose lifetime is
 * a `Scope`: the workers start on first use, are reused across searches, and are all
 * terminated when the scope closes (completion, failure or interruption). Interrupting a
 * search raises its stop flag, which the workers poll every few thousand nodes.
 *
 * @module
 */
import { Context, Effect, Layer, Schema } from "../deps.ts";
import type { GameSource } from "../plugin.ts";
import { TranspositionTable } from "../search/tt.ts";
import type { ReplyMessage, Task, TaskMessage, TaskResult, TaskSettings } from "./protocol.ts";

/** A parallel search failed: a worker threw, or the game cannot be sent to workers. */
export class SearchFailed extends Schema.TaggedError<SearchFailed>()("SearchFailed", {
  message: Schema.String,
}) {}

/** A pool of search workers. */
export class WorkerPool extends Context.Service<WorkerPool, {
  /** The number of workers. */
  readonly size: number;
  /** Runs the tasks on the workers (as many at once as there are workers); results in order. */
  readonly run: (
    source: GameSource,
    settings: TaskSettings,
    tasks: readonly Task[],
  ) => Effect.Effect<readonly TaskResult[], SearchFailed>;
  /** A shared transposition table for a key (made once, reused across searches). */
  readonly sharedTable: (key: string, megabytes: number) => TranspositionTable;
  /** The number of live workers (0 before first use and after the scope closes). */
  readonly alive: () => number;
  /** How many tasks workers abandoned because their search was stopped (interrupted). */
  readonly stopped: () => number;
}>()("ply/WorkerPool") {}

interface Job {
  readonly message: Omit<TaskMessage, "id">;
  readonly done: (r: readonly TaskResult[]) => void;
  readonly fail: (message: string) => void;
  cancelled: boolean;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  id: number;
}

/** The plain pool behind the service. */
class Pool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly tables = new Map<string, TranspositionTable>();
  private nextId = 1;
  private closed = false;
  /** Tasks that ended as "stopped" (their search was interrupted). */
  stopped = 0;

  constructor(readonly size: number) {}

  alive(): number {
    return this.slots.length;
  }

  private spawn(): Slot {
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    const slot: Slot = { worker, job: undefined, id: 0 };
    worker.onmessage = (e: MessageEvent<ReplyMessage>) => {
      const job = slot.job;
      if (job === undefined || e.data.id !== slot.id) return;
      slot.job = undefined;
      if (e.data.type === "stopped") this.stopped++;
      if (!job.cancelled) {
        const r = e.data;
        if (r.type === "done") job.done(r.results);
        else if (r.type === "error") job.fail(r.message);
        else job.fail("the search was stopped");
      }
      this.pump();
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      const job = slot.job;
      slot.job = undefined;
      // The worker is gone: replace it, and fail the job it had.
      worker.terminate();
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (job !== undefined && !job.cancelled) job.fail(e.message || "a worker crashed");
      this.pump();
    };
    this.slots.push(slot);
    return slot;
  }

  submit(job: Job): void {
    if (this.closed) {
      job.fail("the worker pool is closed");
      return;
    }
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const job = this.queue[0];
      if (job.cancelled) {
        this.queue.shift();
        continue;
      }
      let slot = this.slots.find((s) => s.job === undefined);
      if (slot === undefined && this.slots.length < this.size) slot = this.spawn();
      if (slot === undefined) return;
      this.queue.shift();
      slot.job = job;
      slot.id = this.nextId++;
      slot.worker.postMessage({ ...job.message, id: slot.id } satisfies TaskMessage);
    }
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
    for (const s of this.slots) s.worker.terminate();
    this.slots.length = 0;
    for (const j of this.queue) j.cancelled = true;
    this.queue.length = 0;
    this.tables.clear();
  }
}

/** The machine's logical cores (the default worker count). */
export const defaultWorkers = (): number => Math.max(1, navigator.hardwareConcurrency || 1);

/** The pool service over a scoped `Pool`. */
const make = (size: number) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new Pool(size)),
      (pool) => Effect.sync(() => pool.terminate()),
    ),
    (pool) =>
      WorkerPool.of({
        size,
        alive: () => pool.alive(),
        stopped: () => pool.stopped,
        sharedTable: (key, mb) => pool.table(key, mb),
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
              fail: (message) => {
                if (finished) return;
                finished = true;
                Atomics.store(new Int32Array(stop), 0, 1);
                for (const j of jobs) j.cancelled = true;
                resume(
                  Effect.fail(new SearchFailed({ message: `a search worker failed: ${message}` })),
                );
              },
            }));
            for (const j of jobs) pool.submit(j);
            // Interrupted: stop the workers' searches and drop the queued tasks.
            return Effect.sync(() => {
              finished = true;
              Atomics.store(new Int32Array(stop), 0, 1);
              for (const j of jobs) j.cancelled = true;
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
