/**
 * check-plugin's plugin thread (started by `conformance_host.ts` through
 * `spawnPluginThread`: sandboxed, its heap bounded): loads the plugin's module, runs the
 * conformance suite on it in process, here, where its millions of calls into the plugin
 * cost what they cost on a main thread, and says what it found, each check as soon as
 * it is known. Meanwhile the cells in shared memory (`CELL`) show the main thread, which
 * watches them, where the suite is and which of the plugin's functions runs.
 *
 * @module
 */
import { ownerPort, threadData } from "../core/host/inside.ts";
import { checkPlugin } from "./conformance.ts";
import {
  CELL,
  type ConformanceThreadData,
  type ConformanceThreadMessage,
} from "./conformance_host.ts";

const { url, label, options, cells, checks } = await threadData<ConformanceThreadData>();
const owner = ownerPort();
const post = (m: ConformanceThreadMessage) => owner.post(m);
const progress = new Int32Array(cells);

/** Runs the checks asked for, then says it is done. */
const run = (mod: unknown) => {
  checkPlugin(mod, label, options, {
    slot: progress.subarray(CELL.fn, CELL.calls + 1),
    step: (check, round, ply) => {
      progress[CELL.check] = check;
      progress[CELL.round] = round;
      progress[CELL.ply] = ply;
      progress[CELL.steps] = (progress[CELL.steps] + 1) | 0;
    },
    checked: (index, check) => post({ type: "check", index, check }),
    checks,
  });
  post({ type: "done" });
};

const loaded = await import(url).then(
  (mod: unknown) => ({ mod }),
  (e: unknown) => ({ error: (e instanceof Error ? e.message : String(e)).split("\n")[0] }),
);
if ("error" in loaded) post({ type: "unloadable", error: loaded.error });
else {
  post({ type: "loaded" });
  // The checks run in a task of their own, not in the module's evaluation (after its
  // top-level await): a thread stopped there for running out of memory was never
  // reported dead (as in `core/host/rules.ts`).
  setTimeout(() => run(loaded.mod), 0);
}
