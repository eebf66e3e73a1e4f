/**
 * The search worker as a Web Worker (the built-in plugins' searches): `worker.ts` on
 * this worker's port.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import type { TaskMessage } from "./protocol.ts";
import { serveTasks } from "./worker.ts";

const handle = serveTasks((reply) => self.postMessage(reply));
self.onmessage = (e: MessageEvent<TaskMessage>) => void handle(e.data);
