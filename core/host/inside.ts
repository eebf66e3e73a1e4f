/**
 * What a plugin thread's own module uses (see `thread.ts`): the data it was started
 * with, and its port to the thread that owns it; importing it makes the thread
 * stoppable (its Web Lock, below). A user's plugin thread, started inside
 * a relay Web Worker, talks to its owner over a `MessagePort` of its own, not through
 * the relay (a message through the relay costs about ten times as much); a built-in's
 * uses its parent port.
 *
 * @module
 */
import { parentPort, threadId, workerData } from "node:worker_threads";

// The thread holds a Web Lock for as long as it lives: Deno 2.9 halts the JavaScript of
// a terminated Node worker only when it holds one (`WorkerThread::drop` in its
// `runtime/ops/worker_host.rs`); without one, a plugin looping in `for (;;) {}` kept a
// core busy after `terminate()` until the process exited. Every module of a plugin
// thread imports this one, and runs once the lock is held (the await below): before the
// thread loads a plugin. (Deno halts it with `terminate_execution`; its comment warns that
// this can abort the lazy load of one of its own modules in progress, which panics: a
// window of the first use of such a module, at the moment the thread is terminated.)
const locks = (navigator as unknown as {
  readonly locks: { request(name: string, f: () => Promise<never>): Promise<unknown> };
}).locks;
await new Promise<void>((held) =>
  void locks.request(`ply-thread-${threadId}-${crypto.randomUUID()}`, () => {
    held();
    return new Promise<never>(() => {});
  })
);

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
