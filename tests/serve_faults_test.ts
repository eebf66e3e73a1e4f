/**
 * `deno task serve` when a game's plugin fails: the page's message names the plugin, the
 * function and the reason, and the server writes one line of it to standard error. The
 * plugin is a hostile fixture (`tests/fixtures/hostile/`: Nim 3,4,5 whose `moves()` throws
 * once 10 or fewer stones are left), served as a user serves it.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { gotoGame, openPage, withBrowser, withServe } from "../testing/browser.ts";
import { connect, isPosition, post } from "../testing/ws_client.ts";

const HOSTILE = "./tests/fixtures/hostile/moves.ts";
const here = { _tag: "Here" } as const;

Deno.test("serve: a plugin's fault names the plugin, its function and why, on the page and stderr", async () => {
  await withServe([HOSTILE], async (served) => {
    const created = await post(served.url, "/api/new", {
      game: "hostile-moves",
      options: { mode: "throw" },
      players: [here, here],
    });
    assert(created._tag === "Created", JSON.stringify(created));
    const me = await connect(served.url, created.game, created.seat);
    // Each move takes a whole heap: the second move leaves 10 or fewer stones.
    while (me.position().result === undefined) {
      const p = me.position();
      const from = me.received.length;
      me.send({ _tag: "Move", at: p.current, move: p.legal.at(-1)!.move });
      await me.next(isPosition((q) => q.current !== p.current || q.result !== undefined), from);
    }
    const result = me.position().result!;
    assertEquals(result.reason, "error");
    assertEquals(
      result.text,
      `The game stops here: plugin ${HOSTILE} failed in moves(): boom.`,
    );
    await me.close();
    // The page shows the same message.
    await withBrowser(async (browser) => {
      const { page } = await openPage(browser);
      await gotoGame(page, new URL(`/?game=${created.game}&seat=${created.seat}`, served.url).href);
      assertEquals(await page.$eval("#status", (e) => e.textContent), result.text);
    });
    const { err } = await served.stop();
    const lines = err.split("\n").filter((l) => l.startsWith("ply serve: room "));
    assertEquals(lines, [`ply serve: room ${created.game}: plugin ${HOSTILE} moves: boom`]);
  });
});
