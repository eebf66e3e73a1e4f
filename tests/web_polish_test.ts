/**
 * The page's polish in headless Chromium (`deno task serve`): the move list says who
 * moved (a Kalah extra turn as such) and writes 2048's tiles in the game's words, results
 * read in words, a finished game's winning line is marked on the board, the page follows
 * the system's dark mode, phones get a glance at the search under the board, Pentago's
 * 288 move buttons are folded away, the AI pause shows only where an AI plays, and the
 * icon is there.
 *
 * What the page should show is computed from the games' own plugins (the saved
 * transcript replayed with the library); every wait is a handshake (`data-node`,
 * `data-result`, a text that appears), never a time.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes, fc } from "../testing/deps.ts";
import {
  gotoGame,
  nodeOf,
  openPage,
  type Page,
  waitData,
  waitNodeChange,
  waitText,
  withBrowser,
  withServe,
} from "../testing/browser.ts";
import {
  download,
  pluginOf,
  replayed,
  setField,
  startFromForm,
  waitMyTurn,
} from "../testing/page.ts";
import { post } from "../testing/ws_client.ts";
import type { Game } from "../core/game.ts";
import { Effect } from "../core/deps.ts";
import { decodeOptions } from "../core/plugin.ts";
import type { NodeView } from "../server/protocol.ts";
import { catalog } from "../server/catalog.ts";
import { extraTurn } from "../web/tree.ts";
import { choiceWords, expectedWords, withoutFlags } from "../web/words.ts";

/** Plays `text` in the notation box and waits until the page shows another node. */
const typeMove = async (page: Page, text: string): Promise<number> => {
  await waitMyTurn(page);
  const node = await nodeOf(page);
  await setField(page, "#notation", text);
  await page.click("#play");
  return await waitNodeChange(page, node);
};

/** True when the element `selector` can be seen (not hidden, folded or `display: none`). */
const shown = (page: Page, selector: string): Promise<boolean> =>
  page.$eval(selector, (e) => (e as unknown as { checkVisibility(): boolean }).checkVisibility());

/** The texts of the elements matching `selector`. */
const texts = (page: Page, selector: string): Promise<string[]> =>
  page.$$eval(selector, (es) => es.map((e) => e.textContent ?? ""));

/** The game `id` at its default options, built by its plugin. */
const gameOf = async (id: string): Promise<Game<unknown>> => {
  const plugin = await pluginOf(id);
  return plugin.create(await Effect.runPromise(decodeOptions(plugin, {}))) as Game<unknown>;
};

Deno.test("web polish: who moved (a Kalah extra turn), results in words, the winning line, no AI pause without an AI, the icon", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);

      // The icon: both the one the page names and the one browsers ask for.
      for (const path of ["favicon.svg", "favicon.ico"]) {
        const r = await fetch(new URL(path, served.url));
        assertEquals(r.status, 200, `GET /${path}`);
        assertEquals(r.headers.get("content-type"), "image/svg+xml");
        assertStringIncludes(await r.text(), "<svg");
      }

      // Kalah between two people here: house 3 ends in the store (an extra turn).
      const kalah = await gameOf("kalah");
      const s0 = kalah.initial();
      const house3 = kalah.parseMove(s0, "3");
      assert(house3._tag === "Success");
      const s1 = kalah.play(s0, house3.success);
      assertEquals(kalah.toMove(s1), 0, "south moves again after house 3");
      const words = kalah.describeMove?.(s0, house3.success, s1);
      assertEquals(words, "extra turn");
      await startFromForm(page, served.url, { game: "kalah", sides: ["here", "here"], seed: 5 });
      assertEquals(await shown(page, "#ai-pause"), false, "no AI plays: no AI pause");
      await typeMove(page, "3");
      await typeMove(page, "1");
      await typeMove(page, "2");
      const [south, north] = kalah.players;
      assertEquals(await texts(page, '#moves [data-node="1"] .who'), [south]);
      assertEquals(await texts(page, '#moves [data-node="1"] .note'), [words]);
      assertEquals(await texts(page, '#moves [data-node="2"] .who.again'), [`${south} again`]);
      assertEquals(await texts(page, '#moves [data-node="3"] .who'), [north]);
      assertEquals(await texts(page, '#moves [data-node="3"] .again'), [], "north's first move");
      // The same game loaded: the room asks the game for its words on moves it never saw played.
      const loaded = await post(served.url, "/api/load", {
        transcript: (await download(page)).text,
      });
      assert(loaded._tag === "Created", JSON.stringify(loaded));
      await gotoGame(page, new URL(`/?game=${loaded.game}&seat=${loaded.seat}`, served.url).href);
      assertEquals(await texts(page, '#moves [data-node="1"] .note'), [words]);
      assertEquals(await texts(page, '#moves [data-node="2"] .who.again'), [`${south} again`]);

      // Tic-tac-toe: X takes the bottom row; the result in words, the line marked.
      const ttt = await gameOf("tictactoe");
      await startFromForm(page, served.url, {
        game: "tictactoe",
        sides: ["here", "here"],
        seed: 1,
      });
      for (const cell of ["a1", "a2", "b1", "b2"]) await typeMove(page, cell);
      assertEquals(await page.$$eval("#board .decisive", (es) => es.length), 0, "not over yet");
      assertEquals(await texts(page, '#moves [data-node="2"] .who'), [ttt.players[1]]);
      await typeMove(page, "c1");
      await waitData(page, "result", "end");
      assertEquals((await texts(page, "#status"))[0], `${ttt.players[0]} wins.`);
      const line = await page.$$eval(
        "#board [data-pick].decisive",
        (es) => es.map((e) => e.getAttribute("data-pick") ?? "").sort(),
      );
      assertEquals(line, ["a1", "b1", "c1"], "the winning line is marked, and only it");

      // A draw, in words.
      await startFromForm(page, served.url, {
        game: "tictactoe",
        sides: ["here", "here"],
        seed: 2,
      });
      const draw = ["b2", "a1", "c1", "a3", "a2", "c2", "b3", "b1", "c3"];
      let s = ttt.initial();
      for (const cell of draw) {
        const m = ttt.parseMove(s, cell);
        assert(m._tag === "Success");
        s = ttt.play(s, m.success);
        await typeMove(page, cell);
      }
      assertEquals(ttt.outcome(s)?.winner, null, "the line is a draw");
      await waitData(page, "result", "end");
      assertEquals((await texts(page, "#status"))[0], "A draw.");
      assertEquals(await page.$$eval("#board .decisive", (es) => es.length), 0);
      assertEquals(problems, []);
    }));
});

Deno.test("web polish: Kalah's result gives the margin in stones; the AI pause shows with an AI", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      await startFromForm(page, served.url, {
        game: "kalah",
        options: { pits: "2", stones: "2" },
        sides: ["alphabeta:2", "alphabeta:2"],
        seed: 3,
      });
      assertEquals(await shown(page, "#ai-pause"), true, "AIs play: the AI pause");
      await waitData(page, "result", "end");
      const r = await replayed(page);
      const outcome = r.game.outcome(r.state);
      assert(outcome !== undefined, "the game is over");
      const n = Math.abs(outcome.margin);
      const expected = outcome.winner === null
        ? "A draw."
        : `${r.game.players[outcome.winner]} wins by ${n} ${n === 1 ? "stone" : "stones"}.`;
      assertEquals((await texts(page, "#status"))[0], expected);
      assertEquals(problems, []);
    }));
});

Deno.test("web polish: 2048's tiles in the game's words; Pentago's buttons folded and its five marked", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);

      await startFromForm(page, served.url, { game: "2048", sides: ["here", "here"], seed: 7 });
      assertEquals(await shown(page, "#ai-pause"), false, "the slider is a person: no AI pause");
      await waitMyTurn(page);
      const r = await replayed(page);
      const [tile] = r.transcript.moves;
      assertEquals(tile.by, "chance");
      const start = r.game.initial();
      const words = r.game.describeMove?.(start, tile.move, r.game.play(start, tile.move));
      assert(words !== undefined && words !== "", "2048 describes its tiles");
      assertMatch(words, /^\d+ at \(\d+,\d+\)$/);
      assertEquals(await texts(page, '#moves [data-node="1"] .san'), [words]);
      const title = await page.$eval('#moves [data-node="1"]', (e) => e.getAttribute("title"));
      assertStringIncludes(title ?? "", tile.notation, "the tile's notation in the title");
      assertEquals(await texts(page, "#moves .who"), [], "a solo game: no one to name");

      // Pentago: 288 buttons folded away; the board is the way to move.
      const pentago = await gameOf("pentago");
      await startFromForm(page, served.url, { game: "pentago", sides: ["here", "here"], seed: 1 });
      await waitMyTurn(page);
      const count = pentago.moves(pentago.initial()).length;
      assertEquals(await page.$$eval("#move-buttons button[data-move]", (es) => es.length), count);
      assertEquals(await page.$eval("#move-fold", (e) => e.hasAttribute("open")), false);
      assertEquals(await shown(page, "#move-buttons"), false, "folded away");
      assertStringIncludes((await texts(page, "#move-fold-count"))[0], String(count));
      await page.click("#move-fold-count");
      assertEquals(await shown(page, "#move-buttons"), true, "one click away");

      // White's five along the top row wins at once; the five is marked.
      const line = ["a6 sw cw", "a1 sw cw", "b6 sw cw", "b1 sw cw", "c6 sw cw", "c1 sw cw"]
        .concat(["d6 sw cw", "d1 sw cw", "e6"]);
      let s = pentago.initial();
      for (const text of line) {
        const m = pentago.parseMove(s, text);
        assert(m._tag === "Success", text);
        s = pentago.play(s, m.success);
        await typeMove(page, text);
      }
      assertEquals(pentago.outcome(s)?.winner, 0, "white wins");
      await waitData(page, "result", "end");
      assertEquals((await texts(page, "#status"))[0], `${pentago.players[0]} wins.`);
      const five = await page.$$eval(
        "#board [data-pick].decisive",
        (es) => es.map((e) => e.getAttribute("data-pick") ?? "").sort(),
      );
      assertEquals(five, ["a6", "b6", "c6", "d6", "e6"]);
      assertEquals(problems, []);
    }));
});

/** The relative luminance of a CSS `rgb(...)` colour, 0 (black) to 1 (white). */
const luminance = (css: string): number => {
  const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};

Deno.test("web polish: dark mode follows the system; phones see the search under the board", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      await startFromForm(page, served.url, {
        game: "kalah",
        sides: ["alphabeta:4", "alphabeta:4"],
        seed: 11,
      });
      const colours = () =>
        page.$eval("body", (b) => {
          const style = (globalThis as unknown as {
            getComputedStyle(e: unknown): { backgroundColor: string; color: string };
          }).getComputedStyle(b);
          return [style.backgroundColor, style.color];
        });
      await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);
      const [lightBack, lightInk] = await colours();
      assert(luminance(lightBack) > 0.8 && luminance(lightInk) < 0.3, `${lightBack} ${lightInk}`);
      await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
      const [darkBack, darkInk] = await colours();
      assert(luminance(darkBack) < 0.2 && luminance(darkInk) > 0.7, `${darkBack} ${darkInk}`);

      // A wide screen has the panel beside the board: no glance.
      assertEquals(await shown(page, "#glance"), false);
      // A phone: the glance (bar and line) is on the first screen, under the board.
      const phone = { width: 390, height: 844 };
      await page.setViewport(phone);
      const said = await waitText(page, "#glance-text");
      assertMatch(said, /AI .*: .*depth \d+/);
      const box = (selector: string) =>
        page.$eval(selector, (e) => {
          const r = (e as unknown as { getBoundingClientRect(): { top: number; bottom: number } })
            .getBoundingClientRect();
          return { top: r.top, bottom: r.bottom };
        });
      await page.evaluate(() =>
        (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0)
      );
      const glance = await box("#glance");
      const board = await box("#board");
      const panel = await box("#search");
      assert(glance.top >= board.bottom - 1, `under the board (${glance.top}, ${board.bottom})`);
      assert(glance.bottom <= phone.height, `on the first screen (${glance.bottom})`);
      assert(panel.top > glance.bottom, "above the search panel");
      assertEquals(problems, []);
    }));
});

/** A node of a line (`by` per move; the start first, as the server numbers them). */
const lineOf = (movers: readonly (0 | 1 | "chance")[]): NodeView[] =>
  [{ by: "chance" as const }, ...movers.map((by) => ({ by }))].map((n, id, all) => ({
    id,
    parent: id - 1,
    move: 0,
    notation: "",
    by: n.by,
    children: id + 1 < all.length ? [id + 1] : [],
  }));

Deno.test("move list: a player's second move in a row is an extra turn, chance's moves passed over", () => {
  const nodes = lineOf([0, 0, 1, "chance", 1, 0, "chance", "chance", 0]);
  const extra = nodes.map((n) => extraTurn(nodes, n.id));
  assertEquals(extra, [false, false, true, false, false, true, false, false, false, true]);
  fc.assert(
    fc.property(fc.array(fc.constantFrom<0 | 1 | "chance">(0, 1, "chance")), (movers) => {
      const line = lineOf(movers);
      let last: 0 | 1 | undefined;
      for (const n of line.slice(1)) {
        if (n.by === "chance") {
          assertEquals(extraTurn(line, n.id), false);
          continue;
        }
        assertEquals(extraTurn(line, n.id), last === n.by, `node ${n.id}`);
        last = n.by;
      }
    }),
  );
});

Deno.test("form words: the built-in games' option help has no flags, lists read as sentences", async () => {
  const games = await Effect.runPromise(catalog([]));
  let flags = 0;
  for (const [id, { entry }] of games) {
    const fields = entry.options;
    for (const f of fields) {
      if (/--\w/.test(f.description)) flags++;
      const said = withoutFlags(f.description, fields);
      for (const g of fields) {
        assert(!new RegExp(`--${g.name}\\b`).test(said), `${id} ${f.name}: ${said}`);
      }
      assert(!/comma-separated list of/.test(expectedWords(f)), `${id} ${f.name}`);
    }
  }
  assert(flags > 0, "some plugin's help names a flag (else this test proves nothing)");
  assertEquals(
    withoutFlags("random games per position weighed, with --eval playouts", [
      { name: "eval", choices: ["lines", "playouts"] },
    ]),
    "random games per position weighed, with eval set to playouts",
  );
  assertEquals(withoutFlags("see --other", [{ name: "eval" }]), "see --other", "not an option");
  assertEquals(expectedWords({ expected: "true or false", choices: ["true", "false"] }), "");
  assertEquals(choiceWords("true"), "yes");
  assertEquals(choiceWords("nonempty"), "nonempty");
});
