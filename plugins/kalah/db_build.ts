/**
 * The endgame database built on worker threads: the values live in a
 * `SharedArrayBuffer`, and every level is split into stripes that workers
 * (`db_worker.ts`) settle together before the next level starts. A position that two
 * workers reach is settled twice, to the same value, so they need no locks.
 *
 * The calling thread only waits, so it stays free to report progress within a level
 * (`BuildControl.onTick`) and to stop the build (`BuildControl.signal`).
 *
 * @module
 */
import {
  type BuildProgress,
  dbFromValues,
  dbSize,
  type EndgameDb,
  levelSize,
  startValues,
} from "./db.ts";

/** Where a build stands, about every `BuildControl.tickMs` (see `buildDbParallel`). */
export interface BuildTick {
  /** The level (stones left in the houses) being settled. */
  readonly level: number;
  /** Positions in that level. */
  readonly positions: number;
  /** Positions of that level settled so far (an estimate from a sample). */
  readonly settled: number;
  /** Milliseconds since the build started. */
  readonly ms: number;
}

/** Progress and stopping for `buildDbParallel`. */
export interface BuildControl {
  /** Aborting it stops the build: the workers are terminated and the promise rejects. */
  readonly signal?: AbortSignal;
  /** Called about every `tickMs` while a level is being settled. */
  readonly onTick?: (tick: BuildTick) => void;
  /** Milliseconds between ticks (default 1000). */
  readonly tickMs?: number;
}

/** Entries sampled to estimate how much of a level is settled. */
const SAMPLES = 4096;

/**
 * The share of `values[from, to)` settled (not `unknown`), from at most `SAMPLES`
 * evenly spaced entries (workers settle their stripes spread over the level).
 */
const settledShare = (values: Int8Array, from: number, to: number, unknown: number): number => {
  const size = to - from;
  if (size <= 0) return 1;
  const step = Math.max(1, Math.floor(size / SAMPLES));
  let seen = 0, done = 0;
  for (let i = from; i < to; i += step) {
    seen++;
    if (values[i] !== unknown) done++;
  }
  return done / seen;
};

/**
 * Builds the database of every position with at most `maxStones` stones on `workers`
 * worker threads (at least one), extending `from` when given. `progress` hears of every
 * level settled; `control` adds ticks within a level and a signal that stops the build
 * (the promise then rejects with the signal's reason, and no worker is left running).
 *
 * @example The same values as the single-threaded build
 * ```ts
 * import { buildDbParallel } from "./db_build.ts";
 * import { buildDb } from "./db.ts";
 * const db = await buildDbParallel(2, false, 6, 2);
 * if (db.values.join() !== buildDb(2, false, 6).values.join()) throw new Error();
 * ```
 */
export const buildDbParallel = async (
  pits: number,
  captureAlways: boolean,
  maxStones: number,
  workers: number,
  progress?: BuildProgress,
  from?: EndgameDb,
  control: BuildControl = {},
): Promise<EndgameDb> => {
  const { signal, onTick, tickMs = 1000 } = control;
  signal?.throwIfAborted();
  const parts = Math.max(1, Math.floor(workers));
  const { values, firstLevel } = startValues(pits, captureAlways, maxStones, from, true);
  // The marker of unsettled entries (db.ts's UNKNOWN): the last entry, in the top level,
  // is unsettled before the build.
  const unknown = values[values.length - 1];
  const pool: Worker[] = [];
  const start = performance.now();
  let level = firstLevel;
  const ticker = onTick === undefined ? undefined : setInterval(() => {
    const lo = dbSize(pits, level - 1), hi = dbSize(pits, level);
    onTick({
      level,
      positions: hi - lo,
      settled: Math.round(settledShare(values, lo, hi, unknown) * (hi - lo)),
      ms: performance.now() - start,
    });
  }, tickMs);
  let abort: (() => void) | undefined;
  const onAbort = () => abort?.();
  signal?.addEventListener("abort", onAbort);
  try {
    for (let i = 0; i < (firstLevel <= maxStones ? parts : 0); i++) {
      pool.push(new Worker(new URL("./db_worker.ts", import.meta.url), { type: "module" }));
    }
    for (const w of pool) w.postMessage({ pits, captureAlways, maxStones, values });
    for (; level <= maxStones; level++) {
      const s = level;
      const stopped = new Promise<never>((_, reject) => {
        abort = () => reject(signal?.reason ?? new DOMException("aborted", "AbortError"));
        if (signal?.aborted) abort();
      });
      await Promise.race([
        stopped,
        Promise.all(pool.map((w, part) =>
          new Promise<void>((resolve, reject) => {
            w.onmessage = () => resolve();
            w.onerror = (e) => {
              e.preventDefault();
              reject(new Error(`database worker failed: ${e.message}`));
            };
            w.postMessage({ level: s, part, parts });
          })
        )),
      ]);
      progress?.(s, levelSize(pits, s), performance.now() - start);
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (ticker !== undefined) clearInterval(ticker);
    for (const w of pool) w.terminate();
  }
  // An ordinary buffer from here on (files are written from it).
  return dbFromValues(pits, captureAlways, maxStones, values.slice());
};
