/**
 * The page across a server's restart, in headless Chromium: the server is killed
 * (`kill -9`, after the game's last move was stored: a handshake on the database) and
 * started again on the same port and database; the page reconnects by itself and the
 * game goes on from where it was. Then a server that does not have the game (a new
 * database): the page says so and offers the moves it holds, as a file to save and as
 * a new game to play on from, which opens at the same position.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import {
  navigates,
  nodeOf,
  openPage,
  type Page,
  startServe,
  waitData,
  waitNode,
  withBrowser,
} from "../testing/browser.ts";
import { replayTranscript, routeOf, startFromForm } from "../testing/page.ts";
import { waitStored } from "../testing/stored.ts";

/** Plays the first legal move shown and waits until the page shows the next node. */
const playFirst = async (page: Page, node: number): Promise<void> => {
  const button = `body[data-node="${node}"] #move-buttons button[data-move]`;
  await page.waitForSelector(button);
  // Clicked in the page at once (the buttons are drawn again with every message).
  await page.$eval(button, (b) => (b as unknown as { click(): void }).click());
  await waitNode(page, node + 1);
};

/** The main line of a transcript, as notations. */
const notations = (t: { moves: readonly { notation: string }[] }) => t.moves.map((m) => m.notation);

Deno.test("web restart: the page goes on after kill -9 and a restart; a lost game's moves are offered", async () => {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/serve.db`;
  try {
    await withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      let served = await startServe(["--db", db]);
      const port = String(served.port);
      try {
        const opened = await startFromForm(page, served.url, {
          game: "tictactoe",
          sides: ["here", "here"],
          seed: 4,
        });
        await playFirst(page, 0);
        await playFirst(page, 1);
        await waitStored(db, opened.id, 2);
        await served.job.kill();
        await served.stop();
        await waitData(page, "link", "lost");

        // The same port and database: the page reconnects and plays on.
        served = await startServe(["--port", port, "--db", db]);
        await waitData(page, "link", "open");
        await playFirst(page, 2);
        const kept = await (await fetch(
          new URL(`/api/games/${opened.id}/transcript`, served.url),
        )).json();
        assertEquals(kept.moves.length, 3);
        await waitStored(db, opened.id, 3);
        await served.job.kill();
        await served.stop();

        // A server without the game: the page offers what it holds.
        served = await startServe(["--port", port, "--db", `${dir}/other.db`]);
        await waitData(page, "gone", "1");
        const text = await page.$eval("#gone-text", (e) => e.textContent ?? "");
        // Nothing that would change the game is offered any more.
        for (const gone of ["#to-play", ".controls", "a#save"]) {
          assertEquals(
            await page.$eval(gone, (e) =>
              (globalThis as unknown as {
                getComputedStyle(e: unknown): { display: string };
              }).getComputedStyle(e).display),
            "none",
            gone,
          );
        }
        assert(/no longer has this game/.test(text) && /3 moves/.test(text), text);
        assert(
          (await page.$eval("#gone-save", (a) => a.getAttribute("href") ?? "")).startsWith("blob:"),
        );
        const saved = await page.$eval(
          "#gone-moves",
          (t) => (t as unknown as { value: string }).value,
        );
        const replayed = await replayTranscript(JSON.parse(saved));
        assertEquals(notations(replayed.transcript), notations(kept));
        assertEquals(replayed.session.current, 3);
        await navigates(page, () => page.click("#gone-play"));
        const again = routeOf(page.url());
        assert(again.id !== opened.id && again.id !== "", page.url());
        assertEquals(await nodeOf(page), 3);
        await playFirst(page, 3);
        // The browser logs each refused try while the server was down; nothing else.
        assertEquals(problems.filter((p) => !/ERR_CONNECTION_REFUSED/.test(p)), []);
      } finally {
        await served.stop();
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
