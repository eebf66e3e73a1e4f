/**
 * A plugin thread that loops is stopped for good when it is replaced (`core/host/inside.ts`:
 * each plugin thread holds a Web Lock, without which Deno 2.9 left a terminated Node
 * worker looping, a core busy, until the process exited). The proof is a count, not a
 * time: the operating system's list of the process's threads (`/proc/self/task`) loses
 * the hung thread and its relay, and their processor time stops growing; the test waits
 * for that handshake (the threads' exit), and fails if it never comes.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { hostGame } from "../core/host/game.ts";
import { DEFAULT_LIMITS } from "../core/host/thread.ts";
import { PluginFault } from "../core/errors.ts";

/** The process's worker threads (Deno names them `worker-N`), by thread id. */
const workerThreads = (): Set<string> => {
  const ids = new Set<string>();
  for (const t of Deno.readDirSync("/proc/self/task")) {
    try {
      if (Deno.readTextFileSync(`/proc/self/task/${t.name}/comm`).startsWith("worker-")) {
        ids.add(t.name);
      }
    } catch {
      // The thread ended while the list was read.
    }
  }
  return ids;
};

/** A thread's processor time so far (user and system, in clock ticks), or undefined once it ended. */
const ticks = (tid: string): number | undefined => {
  try {
    const stat = Deno.readTextFileSync(`/proc/self/task/${tid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
};

Deno.test("a user's plugin thread that loops is stopped when it is replaced: its threads exit", async () => {
  const url = new URL("./fixtures/hostile/moves.ts", import.meta.url).href;
  const before = workerThreads();
  await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
    const { game } = yield* hostGame({
      source: { url, options: {} },
      label: "./hostile.ts",
      trusted: false,
      limits: { ...DEFAULT_LIMITS, callLimitMs: 300 },
    });
    // The game's thread and its relay (sandboxed: a Node worker in a Web Worker).
    const mine = [...workerThreads()].filter((t) => !before.has(t));
    assert(mine.length >= 2, `the game's threads: ${mine.join(", ")}`);
    // moves() loops from here: the call fails at its limit and the thread is replaced.
    let fault: unknown;
    try {
      game.moves([1, 1, 1, 0]);
    } catch (e) {
      fault = e;
    }
    assert(fault instanceof PluginFault, String(fault));
    // The handshake: every thread of the hung game exits (a looping one never would; the
    // minute is only how long the test waits before it says so).
    const giveUp = Date.now() + 60_000;
    while (mine.some((t) => ticks(t) !== undefined) && Date.now() < giveUp) {
      yield* Effect.promise(() => new Promise((r) => setTimeout(r, 20)));
    }
    assertEquals(mine.map(ticks), mine.map(() => undefined));
    // The fresh thread answers.
    assertEquals(game.moves(game.initial()).length, 12);
  })));
});
