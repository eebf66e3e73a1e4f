/**
 * A game between two people in real browsers (the host's and the invited player's
 * contexts, no shared storage): a takeback is asked, declined, asked again and accepted;
 * stepping back on the invited player's board shows an earlier position there only;
 * no analysis reaches either page (their sockets' frames are read) until the game
 * ends, when it opens; and a client over its budget of new games reads why on the
 * form. Every wait is a handshake.
 */
import { assert, assertEquals, assertMatch } from "../testing/deps.ts";
import {
  gotoGame,
  nodeOf,
  openPage,
  type Page,
  textOf,
  waitData,
  waitNode,
  withBrowser,
  withServe,
} from "../testing/browser.ts";
import { post } from "../testing/ws_client.ts";
import { clickMove as play, setField, startFromForm, waitIncludes } from "../testing/page.ts";

/** Collects the text of every WebSocket frame the page receives (through CDP). */
const framesOf = async (page: Page): Promise<string[]> => {
  const frames: string[] = [];
  const cdp = await page.createCDPSession();
  cdp.on("Network.webSocketFrameReceived", (e) => frames.push(e.response.payloadData));
  await cdp.send("Network.enable");
  return frames;
};

const visible = (page: Page, selector: string): Promise<boolean> =>
  page.$eval(selector, (e) => !(e as unknown as { hidden: boolean }).hidden);

Deno.test("web page: a game between people is fair: takebacks asked, local browsing, no engine", async () => {
  await withServe(["--games-per-minute", "2"], (served) =>
    withBrowser(async (browser) => {
      const contexts = await Promise.all([0, 1, 2].map(() => browser.createBrowserContext()));
      try {
        const [a, b, c] = await Promise.all(contexts.map(openPage));
        const frames = await Promise.all([framesOf(a.page), framesOf(b.page)]);
        const host = a.page;
        const guest = b.page;
        await startFromForm(host, served.url, {
          game: "tictactoe",
          sides: ["here", "remote"],
          seed: 3,
        });
        await host.waitForSelector("#invite[href]");
        const invite = await host.$eval("#invite", (e) => e.getAttribute("href") ?? "");
        await gotoGame(guest, new URL(invite, served.url).href);

        // While the game goes on: no analysis switch, no redo; undo asks the other player.
        for (const p of [host, guest]) {
          assertEquals(
            await p.$eval("#analyse", (e) => (e as unknown as { disabled: boolean }).disabled),
            true,
          );
          assertEquals(await visible(p, "#redo"), false);
          assertEquals(await textOf(p, "#undo"), "ask to take back");
          assertEquals(await visible(p, "#live-hint"), true);
        }

        await play(host, "b2");
        for (const p of [host, guest]) await waitNode(p, 1);

        // The invited player steps back: their board only shows the start.
        await guest.click('#moves [data-node="0"]');
        await waitData(guest, "view", "0");
        assertEquals(await nodeOf(guest), 1, "the game itself did not move");
        assertEquals(await visible(guest, "#to-play"), false, "no moves offered on a look back");
        assertEquals(await nodeOf(host), 1);
        assertEquals(await host.$eval("body", (e) => e.getAttribute("data-view")), "");
        await guest.click("#viewing-back");
        await waitData(guest, "view", "");

        // A takeback asked and declined...
        await host.click("#undo");
        await waitData(guest, "takeback", "0");
        assertMatch(await textOf(guest, "#takeback-text"), /asks to take back/);
        assertEquals(await visible(host, "#takeback-accept"), false, "the asker cannot answer");
        await guest.click("#takeback-decline");
        await waitData(host, "takeback", "");
        await waitIncludes(host, "#message", "declined");
        assertEquals(await nodeOf(host), 1);
        // ...then asked again and accepted: X is to move at the start.
        await host.click("#undo");
        await waitData(guest, "takeback", "0");
        await guest.click("#takeback-accept");
        for (const p of [host, guest]) await waitNode(p, 0);

        // Play to the end (X takes the a column); the new moves are nodes 2 to 6.
        for (const [i, notation] of ["a1", "b1", "a2", "b2", "a3"].entries()) {
          await play(i % 2 === 0 ? host : guest, notation);
          for (const p of [host, guest]) await waitNode(p, i + 2);
        }
        for (const p of [host, guest]) await p.waitForSelector('body:not([data-result=""])');
        const engine = (fs: string[]) =>
          fs.filter((f) => /"_tag":"(Analysis|Progress)"/.test(f)).length;
        assertEquals(frames.map(engine), [0, 0], "no analysis reached a page's socket");
        for (const p of [host, guest]) {
          assertEquals(await p.$eval("body", (e) => e.getAttribute("data-analysis")), null);
        }

        // After the game everything opens: the host goes back and analyses.
        await host.waitForSelector("#analyse:not([disabled])");
        await host.click('#moves [data-node="3"]');
        await waitNode(host, 3);
        await host.click("#analyse");
        await waitData(host, "analysis", "3");
        assert(engine(frames[0]) > 0);

        // A client over its budget of new games reads why (the host's game and one more).
        assertEquals(
          (await post(served.url, "/api/new", {
            game: "nim",
            options: {},
            players: [{ _tag: "Here" }, { _tag: "Here" }],
          })).status,
          200,
        );
        await c.page.goto(served.url);
        await c.page.waitForSelector('#new-game select[name="game"]');
        await setField(c.page, '#new-game select[name="game"]', "nim");
        await c.page.click("#start");
        await waitIncludes(c.page, "#form-error", "too many");
        assertMatch(
          await textOf(c.page, "#form-error"),
          /too many new games from your address: at most 2 a minute/,
        );
        for (const w of [a, b]) assertEquals(w.problems, []);
      } finally {
        for (const context of contexts) await context.close();
      }
    }));
});
