/**
 * The search worker as a plugin thread (a user's plugin's searches: a Node worker with a
 * bounded heap, sandboxed; see `core/host/thread.ts`): `worker.ts` on its parent port.
 *
 * @module
 */
import { parentPort } from "node:worker_threads";
import type { TaskMessage } from "./protocol.ts";
import { serveTasks } from "./worker.ts";

const port = parentPort!;
const handle = serveTasks((reply) => port.postMessage(reply), true);
port.on("message", (msg: TaskMessage) => void handle(msg));
