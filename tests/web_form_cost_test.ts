/**
 * The new-game form warns before an expensive board with an AI (`web/cost.ts`): in
 * headless Chromium against `deno task serve`, Kalah with many pits and stones, a big 2048
 * board and a big Domineering board show `#form-warning` while an AI plays; the default
 * boards, and a big board between people, do not. Every wait is a handshake (the form's
 * select, each field's events dispatched and handled before `$eval` reads the page).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { openPage, withBrowser, withServe } from "../testing/browser.ts";
import { setField } from "../testing/page.ts";
import type { Page } from "../testing/browser.ts";
import { boardFactor, costWarning, EXPENSIVE_FACTOR } from "../web/cost.ts";
import type { GameEntry } from "../server/protocol.ts";

/** The warning's text when it is shown, or undefined when it is hidden. */
const warning = (page: Page): Promise<string | undefined> =>
  page.$eval(
    "#form-warning",
    (e) => (e as unknown as { hidden: boolean }).hidden ? undefined : e.textContent ?? "",
  );

Deno.test("web page: the form warns before an expensive board with an AI", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      await page.goto(served.url);
      await page.waitForSelector('#new-game select[name="game"]');
      const set = (name: string, value: string) =>
        setField(page, `#new-game [name="${name}"]`, value);

      await set("game", "kalah");
      assertEquals(await warning(page), undefined, "the default board against the AI");
      await set("opt-pits", "10");
      await set("opt-stones", "10");
      const said = await warning(page);
      assert(said !== undefined, "10 pits x 10 stones against the AI is warned of");
      assertStringIncludes(said, "This board is 4.2 times the default's size");
      // Between people, the same board is not.
      await set("side-1", "here");
      assertEquals(await warning(page), undefined);
      await set("side-1", "ai");
      assert(await warning(page) !== undefined);
      await set("opt-stones", "4");
      assertEquals(await warning(page), undefined, "10 x 4 is 1.7 times the default");

      await set("game", "2048");
      assertEquals(await warning(page), undefined);
      await set("side-0", "ai");
      await set("opt-width", "8");
      await set("opt-height", "8");
      assertStringIncludes((await warning(page))!, "4 times the default's size");

      await set("game", "domineering");
      await set("opt-board", "12x12");
      assertStringIncludes((await warning(page))!, "4 times the default's size");
      await set("opt-board", "8x8");
      assertEquals(await warning(page), undefined);
      assertEquals(problems, []);
    }));
});

Deno.test("the cost warning's threshold: EXPENSIVE_FACTOR times the default's size", () => {
  const entry = {
    options: [
      { name: "pits", default: "6", advanced: false },
      { name: "stones", default: "4", advanced: false },
      { name: "playouts", default: "10", advanced: true },
    ],
  } as unknown as GameEntry;
  assertEquals(boardFactor(entry, {}), 1);
  assertEquals(boardFactor(entry, { pits: "12", stones: "8", playouts: "1000" }), 4);
  assertEquals(boardFactor(entry, { stones: "0" }), 0.25);
  assertEquals(costWarning(EXPENSIVE_FACTOR, false), undefined);
  assertEquals(costWarning(EXPENSIVE_FACTOR - 0.1, true), undefined);
  assert(costWarning(EXPENSIVE_FACTOR, true) !== undefined);
});
