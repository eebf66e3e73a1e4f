/**
 * A database build worker (`db_build.ts`): it shares the database's values with the
 * other workers and settles its stripes of each level it is sent.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { levelSolver } from "./db.ts";

/** The first message: the database being built. */
interface Setup {
  readonly pits: number;
  readonly captureAlways: boolean;
  readonly maxStones: number;
  readonly values: Int8Array;
}

/** Every later message: one level to settle, then `{ level }` is posted back. */
interface Level {
  readonly level: number;
  readonly part: number;
  readonly parts: number;
}

let settle: ((s: number, part: number, parts: number) => void) | undefined;

self.onmessage = (e: MessageEvent<Setup | Level>) => {
  const m = e.data;
  if ("values" in m) {
    settle = levelSolver(m.pits, m.captureAlways, m.maxStones, m.values);
    return;
  }
  settle!(m.level, m.part, m.parts);
  self.postMessage({ level: m.level });
};
