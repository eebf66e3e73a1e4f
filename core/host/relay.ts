/**
 * The relay of a plugin thread (see `thread.ts`): a Web Worker, made with the plugin's
 * permissions, that starts the plugin's own thread as a Node worker (whose heap Deno can
 * bound: `resourceLimits`) and passes messages both ways. A Node worker inherits the
 * permissions of the thread that made it, so the plugin gets the relay's; and the
 * relay's event loop stays free, so it hears the plugin thread die (out of memory, a
 * crash) even while the thread that owns it is blocked waiting for an answer: it says
 * so in a message and, for a caller blocked on shared memory, in the `death` cell.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { Worker as NodeWorker } from "node:worker_threads";
import type { RelayReply, RelayStart } from "./thread.ts";
import { nodeWorkerEntry } from "./entry.ts";

let plugin: NodeWorker | undefined;

/** Says that the plugin thread ended, and wakes a caller blocked on `death`. */
const died = (start: RelayStart, reply: RelayReply & { type: "exit" }) => {
  if (start.death !== undefined) {
    const cell = new Int32Array(start.death);
    Atomics.store(cell, 1, reply.oom ? 2 : 1);
    Atomics.store(cell, 0, 3);
    Atomics.notify(cell, 0);
  }
  self.postMessage(reply);
};

self.onmessage = (e: MessageEvent<{ start: RelayStart } | { message: unknown }>) => {
  const data = e.data;
  if ("start" in data) {
    const start = data.start;
    plugin = new NodeWorker(nodeWorkerEntry(new URL(start.module)), {
      workerData: start.data,
      resourceLimits: { maxOldGenerationSizeMb: start.memoryMb },
    });
    let ended = false;
    plugin.on("message", (m: unknown) => self.postMessage({ type: "message", message: m }));
    plugin.on("error", (err: Error & { code?: string }) => {
      if (ended) return;
      ended = true;
      died(start, {
        type: "exit",
        oom: err.code === "ERR_WORKER_OUT_OF_MEMORY",
        message: err.message,
        ...(err.stack !== undefined ? { trace: err.stack } : {}),
      });
    });
    plugin.on("exit", (code: number) => {
      if (ended) return;
      ended = true;
      died(start, { type: "exit", oom: false, message: `its thread exited (code ${code})` });
    });
    return;
  }
  plugin?.postMessage(data.message);
};
