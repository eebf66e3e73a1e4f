/**
 * `deno task serve` when a room's plugin hangs for good: every room runs in a thread of
 * its own (`server/room_thread.ts`), so a plugin stuck in `moves()` holds up its own room
 * only. The call limit is set far beyond the test's length (600 s), so nothing ends the
 * hang while the test runs; the plugin says on standard error when its loop has begun
 * (the handshake). Then a person plays a whole game in another room, and the server's
 * form still answers: before rooms had threads, the server's main thread waited on the
 * hung call and answered nobody.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { startServe } from "../testing/browser.ts";
import { connect, isPosition, post } from "../testing/ws_client.ts";

const here = { _tag: "Here" } as const;
const random = { _tag: "AI", spec: "random" } as const;

Deno.test("serve: a plugin that hangs for good holds up its own room only", async () => {
  const served = await startServe(["./tests/fixtures/hostile/moves.ts", "--call-limit", "600"]);
  try {
    const hung = await post(served.url, "/api/new", {
      game: "hostile-moves",
      options: { mode: "announce" },
      players: [random, random],
      seed: 1,
    });
    assert(hung._tag === "Created", JSON.stringify(hung));
    const h = await connect(served.url, hung.game, hung.seat);
    h.send({ _tag: "Speed", ms: 0 });
    await served.job.waitFor("hostile: looping from here");

    const fine = await post(served.url, "/api/new", {
      game: "tictactoe",
      options: {},
      players: [here, here],
    });
    assert(fine._tag === "Created", JSON.stringify(fine));
    const me = await connect(served.url, fine.game, fine.seat);
    // X takes the left column: five moves, each answered, then the game's end.
    for (const [at, text] of ["a1", "b1", "a2", "b2", "a3"].entries()) {
      me.send({ _tag: "Play", at, text });
      await me.next(isPosition((p) => p.current === at + 1), 0);
    }
    assertEquals(me.position().result?.reason, "end");
    const games = await (await fetch(new URL("/api/games", served.url))).json();
    assert(Array.isArray(games) && games.length > 1);
    // The hung room is still inside its call: nothing has ended it.
    assertEquals(h.position().result, undefined);
    await me.close();
    await h.close();
  } finally {
    // The hung call would hold a clean stop for the call limit: the test ends the server.
    await served.job.kill();
    await served.stop();
  }
});
