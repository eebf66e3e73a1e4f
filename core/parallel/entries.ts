/**
 * The search workers' modules, named with no Effect, so that a program's entry can start
 * one before it loads the program (`app/prestart.ts`): a Web Worker for the built-in
 * plugins' searches, a plugin thread (sandboxed, its heap bounded) for a user's.
 *
 * @module
 */

/** The built-in plugins' search worker (a Web Worker). */
export const SEARCH_WEB_WORKER: URL = new URL("./web_worker.ts", import.meta.url);

/** A user's plugin's search worker (a plugin thread: see `core/host/thread.ts`). */
export const SEARCH_PLUGIN_THREAD: URL = new URL("./node_worker.ts", import.meta.url);
