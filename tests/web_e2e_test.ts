/**
 * The web page in a real browser (headless Chromium), against `deno task serve`: for
 * tic-tac-toe, Nim and Kalah, a game against the AI started from the form, moves by
 * clicks, an illegal click refused with its reason, undo, reload, a link to a position,
 * save and load (testing/page.ts's `againstTheAi`); and the form's refusals.
 * Domineering, Pentago and 2048 are in web_e2e_boards_test.ts.
 *
 * Every wait is a handshake (the server's printed URL, `data-ready`, `data-node`, the
 * move buttons); the AIs are small fixed-depth searches, so nothing depends on speed.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { openPage, waitText, withBrowser, withServe } from "../testing/browser.ts";
import { eachAgainstTheAi, setField, type Setup } from "../testing/page.ts";

const GAMES: readonly Setup[] = [
  { game: "tictactoe", sides: ["here", "alphabeta:2"], seed: 11 },
  { game: "nim", options: { heaps: "3,4,5" }, sides: ["here", "alphabeta:2"], seed: 12 },
  { game: "kalah", options: { pits: "4", stones: "3" }, sides: ["here", "alphabeta:2"], seed: 13 },
];

Deno.test("web page: tic-tac-toe, Nim, Kalah against the AI by clicks", async (t) => {
  await eachAgainstTheAi(t, GAMES, "play, refused click, undo, reload, link, save, load");
});

Deno.test("web page: a refused option is explained next to its field", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const context = await browser.createBrowserContext();
      try {
        const { page, problems } = await openPage(context);
        await page.goto(served.url);
        await page.waitForSelector('#new-game select[name="game"]');
        await setField(page, '#new-game select[name="game"]', "kalah");
        await setField(page, '#new-game [name="opt-pits"]', "0");
        await page.click("#start");
        const said = await waitText(page, '.field-error[data-option="pits"]');
        assert(said.length > 0);
        assertEquals(new URL(page.url()).searchParams.get("game"), null, "no game was opened");
        assertEquals(problems, []);
      } finally {
        await context.close();
      }
    }));
});
