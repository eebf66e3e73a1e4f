/**
 * The rooms' threads (`server/room_threads.ts`): a room's thread holds the next room once
 * its room has ended, so rooms opened one after another start no thread of their own (a
 * count of threads started, not a time); and in `deno task serve`, a game between AIs
 * runs in a thread of lower priority than a person's game (the threads' `nice` values,
 * read from `/proc`).
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { DEFAULT_LIMITS } from "../core/host/thread.ts";
import { catalog } from "../server/catalog.ts";
import { openRoom } from "../server/room_handle.ts";
import { RoomThreads } from "../server/room_threads.ts";
import { startServe } from "../testing/browser.ts";
import { programPid, threadNices } from "../testing/process.ts";
import { post } from "../testing/ws_client.ts";

Deno.test("room threads: a thread whose room ended holds the next room", async () => {
  const threads = new RoomThreads(DEFAULT_LIMITS);
  try {
    const games = await Effect.runPromise(catalog([]));
    const ttt = games.get("tictactoe")!;
    for (let i = 0; i < 6; i++) {
      const opened = await Effect.runPromise(
        openRoom(threads, ttt, {}, DEFAULT_LIMITS, { aiMs: 1000, analysisMs: 1000 }),
      );
      const started = await Effect.runPromise(opened.start({
        id: `r${i}`,
        sides: [{ kind: "human" }, { kind: "human" }],
        seats: [{ token: "t", sides: [true, true] }],
        createdAt: 0,
        session: { _tag: "New", seed: i, players: ["human", "human"] },
      }, { changed: () => {}, ended: () => {}, now: () => 0 }));
      assert(Result.isSuccess(started));
      const room = started.success;
      // The room runs in its thread: its record names its seed.
      assertEquals(room.saved().transcript.seed, i);
      opened.close();
    }
    // One thread for the first room and one readied behind it; each later room found one
    // waiting (six rooms without reuse would start seven).
    assertEquals(threads.spawned(), 2);
  } finally {
    threads.shutdown();
  }
});

Deno.test("serve: a game between AIs runs at a lower priority than a person's game", async () => {
  const served = await startServe([]);
  try {
    const pid = programPid(served.job.pid, "scripts/serve.ts");
    const before = threadNices(pid).filter((n) => n !== 0).length;
    const person = await post(served.url, "/api/new", {
      game: "nim",
      options: {},
      players: [{ _tag: "Here" }, { _tag: "AI", spec: "random" }],
    });
    assert(person._tag === "Created", JSON.stringify(person));
    assertEquals(threadNices(pid).filter((n) => n !== 0).length, before, "a person's game");
    const ais = await post(served.url, "/api/new", {
      game: "nim",
      options: {},
      players: [{ _tag: "AI", spec: "random" }, { _tag: "AI", spec: "random" }],
    });
    assert(ais._tag === "Created", JSON.stringify(ais));
    // The room set its priority before it said it had started.
    assertEquals(threadNices(pid).filter((n) => n === 10).length, before + 1, "a game of AIs");
  } finally {
    await served.stop();
  }
});
