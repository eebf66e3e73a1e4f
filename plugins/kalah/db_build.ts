/**
 * The endgame database built on several threads: the values live in a
 * `SharedArrayBuffer`, and every level is split into stripes that workers
 * (`db_worker.ts`) settle together before the next level starts. A position that two
 * workers reach is settled twice, to the same value, so they need no locks.
 *
 * @module
 */
import {
  buildDb,
  type BuildProgress,
  dbFromValues,
  type EndgameDb,
  levelSize,
  startValues,
} from "./db.ts";

/**
 * Builds the database of every position with at most `maxStones` stones on `workers`
 * threads (one: `buildDb` on this thread), extending `from` when given.
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
): Promise<EndgameDb> => {
  if (workers <= 1) return buildDb(pits, captureAlways, maxStones, progress, from);
  const { values, firstLevel } = startValues(pits, captureAlways, maxStones, from, true);
  const pool = Array.from(
    { length: workers },
    () => new Worker(new URL("./db_worker.ts", import.meta.url), { type: "module" }),
  );
  try {
    for (const w of pool) w.postMessage({ pits, captureAlways, maxStones, values });
    const start = performance.now();
    for (let s = firstLevel; s <= maxStones; s++) {
      await Promise.all(pool.map((w, part) =>
        new Promise<void>((resolve, reject) => {
          w.onmessage = () => resolve();
          w.onerror = (e) => {
            e.preventDefault();
            reject(new Error(`database worker failed: ${e.message}`));
          };
          w.postMessage({ level: s, part, parts: workers });
        })
      ));
      progress?.(s, levelSize(pits, s), performance.now() - start);
    }
  } finally {
    for (const w of pool) w.terminate();
  }
  // An ordinary buffer from here on (files are written from it).
  return dbFromValues(pits, captureAlways, maxStones, values.slice());
};
