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

const USAGE = `Usage: deno task screenshots [GAME ...]
Remakes the web page's pictures docs/img/web-GAME.png (1200x900; they are tracked: the
README shows them): starts deno task serve, plays a few moves of each game (or of each
GAME named: ${SHOTS.map((s) => s.setup.game).join(", ")}) against a small AI in headless
Chromium (Debian's chromium, or the browser PLY_CHROMIUM names) and takes its picture.
`;

if (import.meta.main) {
  if (Deno.args.includes("--help") || Deno.args.includes("-h")) {
    console.log(USAGE.trimEnd());
    Deno.exit(0);
  }
  const games = SHOTS.map((s) => s.setup.game);
  const wrong = Deno.args.find((a) => a.startsWith("-") || !games.includes(a));
  if (wrong !== undefined) {
    console.error(
      wrong.startsWith("-")
        ? `error: screenshots takes no flag ${wrong}; name games (${games.join(", ")})`
        : `error: no picture of '${wrong}'; the games are ${games.join(", ")}`,
    );
    Deno.exit(2);
  }
  const wanted = Deno.args;
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
