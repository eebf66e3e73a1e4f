/**
 * What a plugin thread's own module uses (see `thread.ts`): the data it was started
 * with, and its port to the thread that owns it. A user's plugin thread, started inside
 * a relay Web Worker, talks to its owner over a `MessagePort` of its own, not through
 * the relay (a message through the relay costs about ten times as much); a built-in's
 * uses its parent port.
 *
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";

/** What a plugin thread's `workerData` holds: its data, and its owner's port if it has one. */
export interface ThreadStart {
  readonly data: unknown;
  readonly port?: MessagePort;
}

/** The data the plugin thread was started with (`spawnPluginThread`'s `data`). */
export const threadData = <T>(): T => (workerData as ThreadStart).data as T;

/** The plugin thread's way to its owner: send a message, hear each message. */
export interface OwnerPort {
  /** Sends a message to the owner (shared memory is shared, not copied). */
  readonly post: (message: unknown) => void;
  /** Calls `f` with each message from the owner. */
  readonly listen: (f: (message: unknown) => void) => void;
}

/** The plugin thread's port to its owner. */
export const ownerPort = (): OwnerPort => {
  const port = (workerData as ThreadStart).port;
  if (port !== undefined) {
    return {
      post: (message) => port.postMessage(message),
      listen: (f) => {
        port.onmessage = (e: MessageEvent) => f(e.data);
      },
    };
  }
  const parent = parentPort!;
  return {
    post: (message) => parent.postMessage(message),
    listen: (f) => void parent.on("message", f),
  };
};
