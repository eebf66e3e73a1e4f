/**
 * The relay of a plugin thread (see `thread.ts`): a Web Worker, made with the plugin's
 * permissions, that starts the plugin's own thread as a Node worker (whose heap Deno can
 * bound: `resourceLimits`) and hands it the owner's port, so that their messages go
 * straight between them. A Node worker inherits the permissions of the thread that made
 * it, so the plugin gets the relay's; and the relay's event loop stays free, so it hears
 * the plugin thread die (out of memory, a crash) even while the thread that owns it is
 * blocked waiting for an answer: it says so in a message and, for a caller blocked on
 * shared memory, in the `death` cell.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { Worker as NodeWorker } from "node:worker_threads";
import type { RelayEnd, RelayStart } from "./thread.ts";
import { markDeath, nodeWorkerEntry } from "./entry.ts";
import type { ThreadStart } from "./inside.ts";

/** The cell marked when the plugin thread dies (set at the start, or later for an early thread). */
let death: SharedArrayBuffer | undefined;

self.onmessage = (e: MessageEvent<{ start: RelayStart } | { death?: SharedArrayBuffer }>) => {
  if (!("start" in e.data)) {
    death = e.data.death;
    return;
  }
  const start = e.data.start;
  death = start.death;
  const plugin = new NodeWorker(
    nodeWorkerEntry(new URL(start.module)),
    {
      workerData: {
        ...(start.data !== undefined ? { data: start.data } : {}),
        ...(start.warm !== undefined ? { warm: start.warm } : {}),
        port: start.port,
      } satisfies ThreadStart,
      transferList: [start.port as unknown as Transferable],
      resourceLimits: { maxOldGenerationSizeMb: start.memoryMb },
    } as ConstructorParameters<typeof NodeWorker>[1],
  );
  let ended = false;
  const died = (end: RelayEnd) => {
    if (ended) return;
    ended = true;
    markDeath(death, end.oom);
    self.postMessage(end);
  };
  plugin.on("error", (err: Error & { code?: string }) =>
    died({
      oom: err.code === "ERR_WORKER_OUT_OF_MEMORY",
      message: err.message,
      ...(err.stack !== undefined ? { trace: err.stack } : {}),
    }));
  plugin.on(
    "exit",
    (code: number) => died({ oom: false, message: `its thread exited (code ${code})` }),
  );
};
