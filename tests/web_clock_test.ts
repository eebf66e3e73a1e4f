/**
 * Clocks on the web page, in headless Chromium against `deno task serve`: the form's clock
 * field starts a clocked game; each side's time shows beside its name, the running one
 * marked; a person who does not move loses on time (only the clock can end that game, so
 * no wait depends on the machine's speed); each move's time left is kept in the game's
 * transcript and shown; a wrong time control is refused next to its field.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { openPage, withBrowser, withServe } from "../testing/browser.ts";
import { clickMove, setField, startFromForm, waitIncludes } from "../testing/page.ts";
import { afterMove, formatTime } from "../app/clock.ts";

Deno.test("web page: a clocked game: the clocks run, a person who does not move loses on time", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      await startFromForm(page, served.url, {
        game: "tictactoe",
        sides: ["here", "random"],
        seed: 1,
        clock: "1s",
      });
      await waitIncludes(page, ".clock-control", "clock: 1 s a move");
      // Nobody moves: the server's clock ends the game.
      await page.waitForSelector('body[data-result="time"]');
      assertStringIncludes(
        await page.$eval("#status", (e) => e.textContent ?? ""),
        "X ran out of time; O wins.",
      );
      // The game is over: no clock runs, and X's shows what it had when its turn began.
      assertEquals(await page.$$eval(".clock.running", (es) => es.length), 0);
      assertEquals(await page.$eval('[data-clock="0"]', (e) => e.textContent), "0:01.0");
      assertEquals(problems, []);
    }));
});

Deno.test("web page: a clocked game keeps each move's time left, shown beside the player", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      const { id } = await startFromForm(page, served.url, {
        game: "tictactoe",
        sides: ["here", "random"],
        seed: 1,
        clock: "10+5",
      });
      await waitIncludes(page, ".clock-control", "clock: 10 min + 5 s a move");
      // Against the AI (and with a clock) no pause between AI moves applies: none offered.
      assertEquals(
        await page.$eval("#ai-pause", (e) => (e as unknown as { hidden: boolean }).hidden),
        true,
      );
      await page.waitForSelector('[data-clock="0"].running');
      assertEquals(await page.$eval('[data-clock="1"]', (e) => e.textContent), "10:00");
      await clickMove(page, "b2");
      // O (random) answers; X's clock runs again.
      await page.waitForSelector('body[data-node="2"]');
      await page.waitForSelector('[data-clock="0"].running');
      const saved = await (await fetch(`${served.url}api/games/${id}/transcript`)).json();
      assertEquals(saved.clock, { kind: "fischer", baseMs: 600_000, incrementMs: 5000 });
      const [x, o] = saved.moves;
      assertEquals(x.clock, afterMove(saved.clock, 600_000, x.ms));
      assertEquals(o.clock, afterMove(saved.clock, 600_000, o.ms));
      assert(x.clock > 600_000 && o.clock > 600_000, "each gained its increment");
      // O's clock stands still at what its move left it.
      assertEquals(await page.$eval('[data-clock="1"]', (e) => e.textContent), formatTime(o.clock));
      assertEquals(problems, []);
    }));
});

Deno.test("web page: a wrong time control is refused next to the clock field", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page } = await openPage(browser);
      await page.goto(served.url);
      await page.waitForSelector('#new-game select[name="game"]');
      await setField(page, '#new-game select[name="game"]', "tictactoe");
      await setField(page, '#new-game input[name="clock"]', "5x3");
      await page.click("#start");
      await waitIncludes(page, '.field-error[data-option="clock"]', "'5x3' is not a time control");
      assert(!new URL(page.url()).searchParams.has("game"), "no game was started");
    }));
});
