/**
 * `deno task screenshots [GAME ...]`: pictures of the web page for the docs. Starts
 * `deno task serve`, opens each built-in game's page in headless Chromium (Debian's
 * `chromium`, or `PLY_CHROMIUM`), plays a few moves by pointing against a small AI with a
 * fixed seed, turns the analysis on, and writes `docs/img/web-GAME.png` (1200x900).
 *
 * It drives the page with the end-to-end tests' tools (tests/tools/), so it runs from
 * the repository only, not from a URL.
 *
 * @module
 */
import { makeRng } from "../core/rng.ts";
import { nodeOf, openPage, startServe, VIEWPORT, waitData, withBrowser } from "./browser.ts";
import { isOverOnPage, playByPicks, type Setup, startFromForm, waitMyTurn } from "./page.ts";

/** A game's picture: how it is set up and how many moves the person makes first. */
interface Shot {
  readonly setup: Setup;
  readonly moves: number;
}

/** The games and their positions, in the README's order. */
export const SHOTS: readonly Shot[] = [
  { setup: { game: "kalah", sides: ["here", "alphabeta:4"], seed: 4 }, moves: 3 },
  { setup: { game: "tictactoe", sides: ["here", "alphabeta:2"], seed: 1 }, moves: 2 },
  { setup: { game: "nim", sides: ["here", "alphabeta:4"], seed: 2 }, moves: 2 },
  { setup: { game: "pentago", sides: ["here", "alphabeta:1"], seed: 3 }, moves: 3 },
  { setup: { game: "2048", sides: ["here", "here"], seed: 5 }, moves: 12 },
  {
    setup: {
      game: "domineering",
      options: { board: "6x6" },
      sides: ["here", "alphabeta:3"],
      seed: 6,
    },
    moves: 3,
  },
];

/** The folder the pictures go to. */
const OUT = new URL("../docs/img/", import.meta.url);

if (import.meta.main) {
  const wanted = Deno.args.filter((a) => !a.startsWith("-"));
  const shots = SHOTS.filter((s) => wanted.length === 0 || wanted.includes(s.setup.game));
  await Deno.mkdir(OUT, { recursive: true });
  const served = await startServe();
  try {
    await withBrowser(async (browser) => {
      for (const { setup, moves } of shots) {
        const context = await browser.createBrowserContext();
        try {
          const { page, problems } = await openPage(context);
          await startFromForm(page, served.url, setup);
          const rng = makeRng(setup.seed);
          for (let i = 0; i < moves && !(await isOverOnPage(page)); i++) {
            await playByPicks(page, rng);
            await waitMyTurn(page);
          }
          // The engine's view of the position: the analysis of the node shown.
          await page.click("#analyse");
          await waitData(page, "analysis", String(await nodeOf(page)));
          await page.mouse.move(0, 0); // no hover
          // The value bar slides to its value (a CSS transition): wait until it is there.
          await page.waitForFunction(() =>
            (globalThis as unknown as {
              document: { getAnimations(): { playState: string }[] };
            }).document.getAnimations().every((a) => a.playState !== "running")
          );
          const file = new URL(`web-${setup.game}.png`, OUT);
          await page.screenshot({ path: file.pathname, clip: { x: 0, y: 0, ...VIEWPORT } });
          console.log(
            `wrote ${file.pathname.slice(new URL("../", import.meta.url).pathname.length)}`,
          );
          if (problems.length > 0) console.error(`${setup.game}: ${problems.join("; ")}`);
        } finally {
          await context.close();
        }
      }
    });
  } finally {
    await served.stop();
  }
}
