/**
 * The web page in a real browser, continued (see web_e2e_test.ts): Domineering (a
 * domino's two cells), Pentago (a cell, then a twist arrow) and 2048 (arrow keys; a key
 * that slides nothing is refused) against the AI, with undo, reload, a link to a
 * position, save and load.
 */

import { eachAgainstTheAi, type Setup } from "../testing/page.ts";

const GAMES: readonly Setup[] = [
  { game: "domineering", options: { board: "5x5" }, sides: ["here", "alphabeta:2"], seed: 21 },
  { game: "pentago", sides: ["here", "alphabeta:1"], seed: 22 },
  { game: "2048", sides: ["here", "here"], seed: 23 },
];

Deno.test("web page: Domineering, Pentago, 2048 against the AI (or chance) by clicks and keys", async (t) => {
  await eachAgainstTheAi(t, GAMES, "play, refused pointing, undo, reload, link, save, load");
});
