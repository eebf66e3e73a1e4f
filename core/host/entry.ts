/**
 * The module a Node worker starts from: Deno starts Node workers only from `file:` and
 * `data:` URLs, so a module served over HTTP (ply run from its URL) is imported by a
 * one-line `data:` module instead.
 *
 * @module
 */

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
