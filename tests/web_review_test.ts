/**
 * The review of a loaded game in a real browser (headless Chromium), against `deno task
 * serve`: a tic-tac-toe game with four blunders, saved with its players' names, loaded
 * from the header's file input. The page shows the names (not "you"), each move's
 * explanation under the board, the evaluation graph (a click on it goes to that move),
 * each side's inaccuracies, mistakes and blunders, and "show the best move" (the
 * position before the move with the best move marked on the board and its button).
 *
 * The expected marks come from an independent reference (a plain minimax of tic-tac-toe
 * to its end): the review marks exactly the moves that change the result. Every wait is
 * a handshake (`data-ready`, `data-reviewed`, `data-node`, `data-best`); nothing depends
 * on speed (the exact solver settles every tic-tac-toe position in a few milliseconds,
 * far inside the review's time per position; a position it did not settle would be
 * judged by the heuristic pass, and the counts below would show it).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import {
  navigates,
  openPage,
  textOf,
  waitData,
  waitNode,
  withBrowser,
  withServe,
} from "../testing/browser.ts";
import { openGame } from "../mod.ts";
import { Effect, Result } from "../core/deps.ts";
import type { Player } from "../core/game.ts";
import { newSession, playMove } from "../app/session.ts";
import { exportTranscript } from "../app/transcript.ts";
import { exactMargin } from "./tools/helpers.ts";

const ttt = await Effect.runPromise(openGame("tictactoe", {}));
const game = ttt.game;
const solve = exactMargin(game);

/** Moves 2 and 8 by O, 5 and 7 by X change the result (by the reference). */
const MOVES = ["b2", "b1", "a1", "c3", "c1", "a3", "c2", "a2", "b3"];
const NAMES = ["alice", "bob"] as const;

/** The positions along the game, the start first. */
const positions = (): unknown[] => {
  const out = [game.initial()];
  for (const w of MOVES) {
    const s = out.at(-1)!;
    out.push(game.play(s, Result.getOrThrow(game.parseMove(s, w))));
  }
  return out;
};

/** The result of position `s` for `by` under perfect play: 1, 0 or -1. */
const resultFor = (s: unknown, by: Player): number => Math.sign(by === 0 ? solve(s) : -solve(s));

Deno.test("web review: a loaded game's names, explanations, graph, counts and best move", async () => {
  const session = newSession({
    game: ttt.specifier,
    options: ttt.options,
    seed: 1,
    players: [...NAMES],
  });
  let s = game.initial();
  for (const w of MOVES) {
    const m = Result.getOrThrow(game.parseMove(s, w));
    playMove(session, { by: game.toMove(s), move: m, notation: game.formatMove(s, m) });
    s = game.play(s, m);
  }
  const file = await Deno.makeTempFile({ prefix: "ply-review-", suffix: ".json" });
  await Deno.writeTextFile(file, JSON.stringify(exportTranscript(session)));
  // The reference's blunders, by side.
  const states = positions();
  const blunders = MOVES.map((_, i) => i + 1).filter((ply) => {
    const by = (ply - 1) % 2 as Player;
    return resultFor(states[ply], by) < resultFor(states[ply - 1], by);
  });
  assertEquals(blunders, [2, 5, 7, 8]);
  try {
    // The exact solver ends each position in milliseconds; a minute each means the review
    // never depends on the machine's speed.
    await withServe(["--review-time", "60s"], (served) =>
      withBrowser(async (browser) => {
        const { page, problems } = await openPage(browser);
        await page.goto(served.url);
        await page.waitForSelector('body[data-ready="1"]');
        const input = await page.$("input#load-file");
        assert(input !== null);
        await navigates(
          page,
          () => (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(file),
        );
        await waitData(page, "reviewed", String(MOVES.length));

        // The players keep their names.
        const players = await textOf(page, "#players");
        for (const name of NAMES) assertStringIncludes(players, name);
        assert(!players.includes("you"), players);

        // Each side's counts: the reference's blunders, nothing else marked.
        for (const side of [0, 1] as const) {
          for (const severity of ["inaccuracy", "mistake", "blunder"]) {
            const cell = await textOf(
              page,
              `#review-counts tr[data-side="${side}"] td[data-count="${severity}"]`,
            );
            const want = severity === "blunder"
              ? blunders.filter((p) => (p - 1) % 2 === side).length
              : 0;
            assertEquals(cell, String(want), `side ${side}, ${severity}`);
          }
        }
        assertStringIncludes(await textOf(page, '#review-counts tr[data-side="0"]'), "alice");
        const marks = await page.$$eval(
          "#moves [data-node] .mark",
          (es) =>
            es.map((e) => [e.closest("[data-node]")!.getAttribute("data-node"), e.textContent]),
        );
        assertEquals(marks, blunders.map((p) => [String(p), "??"]));

        // The graph: a line over the game, each move a column; a click goes there.
        assertEquals(await page.$$eval("#review-graph polyline", (es) => es.length), 1);
        assertEquals(
          await page.$$eval("#review-graph rect.col[data-node]", (es) => es.length),
          MOVES.length + 1,
        );
        assertEquals(
          await page.$$eval("#review-graph circle.blunder", (es) => es.length),
          blunders.length,
        );
        await page.click('#review-graph rect.col[data-node="2"]');
        await waitNode(page, 2);

        // The explanation of move 2, in words under the board.
        const said = await textOf(page, "#review-text");
        assertStringIncludes(said, "move 2: O played b1: a blunder, turns a draw into a loss");
        assertStringIncludes(said, "the best was ");
        const best = /the best was (\w+)/.exec(said)![1];
        // The reference: the best move keeps O's draw.
        const after = game.play(states[1], Result.getOrThrow(game.parseMove(states[1], best)));
        assertEquals(resultFor(after, 1), resultFor(states[1], 1), `best ${best}`);

        // Show the best move: the position before, the best move marked.
        assert(
          await page.$eval("#show-best", (e) => !(e as unknown as { hidden: boolean }).hidden),
        );
        await page.click("#show-best");
        await waitNode(page, 1);
        await waitData(page, "best", best);
        assertEquals(await textOf(page, "#move-buttons button.best"), best);
        assert(await page.$$eval("#board [data-pick].best", (es) => es.length) > 0);
        assertStringIncludes(await textOf(page, "#review-text"), `the best move here: ${best}`);

        // A move that keeps the result: no mark, and its words say so.
        await page.click('#review-graph rect.col[data-node="3"]');
        await waitNode(page, 3);
        await waitData(page, "best", "");
        const kept = await textOf(page, "#review-text");
        assertStringIncludes(kept, "move 3: X played a1: ");
        assert(!/inaccuracy|mistake|blunder/.test(kept), kept);
        assertEquals(problems, [], "the page's errors");
      }));
  } finally {
    await Deno.remove(file);
  }
});
