/**
 * The lobby, in headless Chromium against `deno task serve`: a game started with "whoever
 * joins from the lobby" as a side is listed on everyone's start page (its game, clock and
 * the side to play) while its host waits; one click joins it and plays that side; then it
 * is listed as a game to watch, and watching it gives no seat; its seat is given once (a
 * second join is refused). A lobby game needs its host at a browser. Every wait is for the
 * page to show something (the lobby is read again every few seconds), never for a time.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { openPage, withBrowser, withServe } from "../testing/browser.ts";
import { clickMove, routeOf, startFromForm, waitIncludes } from "../testing/page.ts";
import { post } from "../testing/ws_client.ts";

Deno.test("web page: a game in the lobby is joined with one click, then watched", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const host = await openPage(await browser.createBrowserContext());
      const { id } = await startFromForm(host.page, served.url, {
        game: "tictactoe",
        sides: ["here", "lobby"],
        seed: 4,
        clock: "5+3",
      });
      await host.page.waitForSelector('body[data-ready="1"]');

      // Someone else opens the start page: the game waits for them there.
      const guest = await openPage(await browser.createBrowserContext());
      await guest.page.goto(served.url);
      const item = `#lobby-waiting li[data-game="${id}"]`;
      await guest.page.waitForSelector(item);
      const text = await guest.page.$eval(item, (e) => e.textContent ?? "");
      assertStringIncludes(text, "Tic-tac-toe");
      assertStringIncludes(text, "clock 5 min + 3 s a move");
      assertStringIncludes(text, "play O against X");
      await Promise.all([guest.page.waitForNavigation(), guest.page.click(`${item} button.join`)]);
      const joined = routeOf(guest.page.url());
      assertEquals(joined.id, id);
      assert(joined.seat !== "", "the guest holds a seat");
      await guest.page.waitForSelector('body[data-ready="1"]');

      // The two play: X here, O from the lobby.
      await clickMove(host.page, "b2");
      await clickMove(guest.page, "a1");
      await host.page.waitForSelector('body[data-node="2"]');

      // A third person sees it as a game to watch, not as waiting, and watches it.
      const watcher = await openPage(await browser.createBrowserContext());
      await watcher.page.goto(served.url);
      const watched = `#lobby-watching li[data-game="${id}"]`;
      await watcher.page.waitForSelector(watched);
      await waitIncludes(watcher.page, watched, "X (human) vs O (human), 2 moves");
      assertEquals(await watcher.page.$$(`#lobby-waiting li[data-game="${id}"]`), []);
      // Its seat was given once: joining again is refused.
      const again = await watcher.page.evaluate(async (game: string) => {
        const r = await fetch(`/api/lobby/${game}/join`, { method: "POST" });
        return { status: r.status, body: await r.json() };
      }, id);
      assertEquals(again.status, 409);
      assertEquals(
        again.body.message,
        "this game is no longer waiting: someone joined it, or it ended",
      );
      await Promise.all([
        watcher.page.waitForNavigation(),
        watcher.page.click(`${watched} a.watch`),
      ]);
      assertEquals(routeOf(watcher.page.url()), { id, seat: "" });
      await watcher.page.waitForSelector('body[data-node="2"]');
      assertEquals(await watcher.page.$$("#move-buttons button[data-move]"), []);
      assertEquals([...host.problems, ...guest.problems, ...watcher.problems], []);
    }));
});

Deno.test("serve: a lobby game needs a person here; a join from another site is refused", async () => {
  await withServe([], async (served) => {
    const r = await post(served.url, "/api/new", {
      game: "tictactoe",
      options: {},
      players: [{ _tag: "Lobby" }, { _tag: "AI", spec: "random" }],
    });
    assertEquals(r._tag, "Refused");
    assertStringIncludes(
      r._tag === "Refused" ? r.message : "",
      "a game in the lobby is between a person here and whoever joins it",
    );
    const made = await post(served.url, "/api/new", {
      game: "tictactoe",
      options: {},
      players: [{ _tag: "Here" }, { _tag: "Lobby" }],
    });
    assert(made._tag === "Created", JSON.stringify(made));
    const foreign = await fetch(new URL(`/api/lobby/${made.game}/join`, served.url), {
      method: "POST",
      headers: { origin: "https://elsewhere.example" },
    });
    assertEquals(foreign.status, 403);
    await foreign.body?.cancel();
    // Nobody opened it yet: its host is not there, so the lobby does not list it.
    const lobby = await (await fetch(new URL("/api/lobby", served.url))).json();
    assertEquals(lobby.waiting, []);
  });
});
