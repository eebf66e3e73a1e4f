/**
 * What both ways of starting a plugin thread share (`thread.ts`, `relay.ts`): the module
 * a Node worker starts from (Deno starts Node workers only from `file:` and `data:` URLs,
 * so a module served over HTTP, ply run from its URL, is imported by a one-line `data:`
 * module instead), the death cell a blocked caller is woken by, and the game thread's
 * module.
 *
 * @module
 */

/** The module of a game's plugin thread (`rules.ts`). */
export const RULES_MODULE: URL = new URL("./rules.ts", import.meta.url);

/**
 * The URL to give a Node worker for `module`: itself if it is a file, else a `data:`
 * module that imports it.
 *
 * @example
 * ```ts
 * import { nodeWorkerEntry } from "./entry.ts";
 * const file = new URL("file:///x/rules.ts");
 * if (nodeWorkerEntry(file) !== file) throw new Error();
 * if (nodeWorkerEntry(new URL("https://e.org/rules.ts")).protocol !== "data:") throw new Error();
 * ```
 */
export const nodeWorkerEntry = (module: URL): URL =>
  module.protocol === "file:" || module.protocol === "data:" ? module : new URL(
    `data:text/javascript,${encodeURIComponent(`await import(${JSON.stringify(module.href)});`)}`,
  );

/**
 * Marks a plugin thread's death in its `death` cell (an Int32 cell: `[0]` set to 3, `[1]`
 * to 2 when it ran out of memory, else 1) and wakes a caller blocked waiting on it.
 */
export const markDeath = (death: SharedArrayBuffer | undefined, oom: boolean): void => {
  if (death === undefined) return;
  const cell = new Int32Array(death);
  Atomics.store(cell, 1, oom ? 2 : 1);
  Atomics.store(cell, 0, 3);
  Atomics.notify(cell, 0);
};
