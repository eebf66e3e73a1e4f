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

/**
 * What a plugin thread's `workerData` holds: its data, and its owner's port if it has one.
 * A thread started early (`prestartPluginThread`) has no data yet: its owner sends it as
 * `{ start: data }` when it takes the thread; meanwhile the thread loads the module `warm`
 * names (the plugin's), so that it is ready sooner.
 */
export interface ThreadStart {
  readonly data?: unknown;
  readonly port?: MessagePort;
  readonly warm?: string;
}

/**
 * The data the plugin thread was started with (`spawnPluginThread`'s `data`), at once, or
 * once its owner sends it (a thread started early).
 */
export const threadData = <T>(): Promise<T> => {
  const start = workerData as ThreadStart;
  if (start.data !== undefined) return Promise.resolve(start.data as T);
  // Loading the plugin's module now is only a head start: opening the game loads it again
  // (from the module cache) and says what went wrong, if anything did.
  if (start.warm !== undefined) import(start.warm).catch(() => {});
  return new Promise<T>((resolve) => {
    const stop = ownerPort().listen((m) => {
      const data = (m as { readonly start?: unknown }).start;
      if (data === undefined) return;
      stop();
      resolve(data as T);
    });
  });
};

/** The plugin thread's way to its owner: send a message, hear each message. */
export interface OwnerPort {
  /** Sends a message to the owner (shared memory is shared, not copied). */
  readonly post: (message: unknown) => void;
  /** Calls `f` with each message from the owner, until the function returned is called. */
  readonly listen: (f: (message: unknown) => void) => () => void;
}

/** Who hears the owner's messages on a port of its own (the port has one handler). */
const listeners = new Set<(message: unknown) => void>();

/** The plugin thread's port to its owner. */
export const ownerPort = (): OwnerPort => {
  const port = (workerData as ThreadStart).port;
  if (port !== undefined) {
    return {
      post: (message) => port.postMessage(message),
      listen: (f) => {
        listeners.add(f);
        port.onmessage = (e: MessageEvent) => {
          for (const l of [...listeners]) l(e.data);
        };
        return () => void listeners.delete(f);
      },
    };
  }
  const parent = parentPort!;
  return {
    post: (message) => parent.postMessage(message),
    listen: (f) => {
      parent.on("message", f);
      return () => void parent.off("message", f);
    },
  };
};
