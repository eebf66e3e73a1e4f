/**
 * The search worker as a plugin thread (a user's plugin's searches: a Node worker with a
 * bounded heap, sandboxed; see `core/host/thread.ts`): `worker.ts` on its owner's port.
 *
 * @module
 */
import type { TaskMessage } from "./protocol.ts";
import { serveTasks } from "./worker.ts";
import { ownerPort, threadData } from "../host/inside.ts";

// A thread started early gets its (empty) data first; tasks come after.
await threadData();
const owner = ownerPort();
const handle = serveTasks((reply) => owner.post(reply), true);
owner.listen((msg) => void handle(msg as TaskMessage));
