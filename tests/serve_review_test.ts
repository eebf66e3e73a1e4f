/**
 * `deno task serve`'s review of a loaded game with a game's own exact solver: a random
 * Kalah (3 houses, 2 stones) game, loaded over HTTP, is reviewed in the room's thread
 * with Kalah's `solve` strategy on the server's worker pool. Every move comes back
 * exact, and the marked moves are exactly those that change the result by an
 * independent reference (plain minimax of the final margin to the end), each a blunder;
 * the game is loaded with its players' names (`Position.loaded`).
 *
 * The waits are handshakes (the messages); the solver settles Kalah(3,2) in well under a
 * millisecond per position, far inside the review's 300 ms.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { withServe } from "../testing/browser.ts";
import { connect, isPosition, post } from "../testing/ws_client.ts";
import { openGame } from "../mod.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE } from "../core/game.ts";
import { runGame } from "../app/match.ts";
import { randomAgent } from "../app/players/agents.ts";
import { exactMargin } from "./tools/helpers.ts";

const kalah = await Effect.runPromise(openGame("kalah", { pits: 3, stones: 2 }));
const solve = exactMargin(kalah.game);

Deno.test("serve: a loaded Kalah game is reviewed exactly with Kalah's solver", async () => {
  const game = kalah.game;
  // A seed whose game has a move that changes the result (so the marks can be wrong).
  const wanted = (seed: number) => {
    const t = Effect.runSync(runGame(game, [randomAgent(), randomAgent()], {
      seed,
      gameId: kalah.specifier,
      options: kalah.options,
    })).transcript;
    let s = game.initial();
    const marked: number[] = [];
    t.moves.forEach((m, i) => {
      const by = game.toMove(s);
      const after = game.play(s, m.move);
      const side = (v: number) => Math.sign(by === 0 ? v : -v);
      if (by !== CHANCE && side(solve(after)) < side(solve(s))) marked.push(i + 1);
      s = after;
    });
    return { t, marked };
  };
  let seed = 1;
  while (wanted(seed).marked.length === 0) seed++;
  const { t, marked } = wanted(seed);
  const transcript = { ...t, players: ["carol", "dave"] };
  // A minute a position: the solver's end decides, never the machine's speed.
  await withServe(["--review-time", "60s"], async (served) => {
    const loaded = await post(served.url, "/api/load", { transcript: JSON.stringify(transcript) });
    assert(loaded._tag === "Created", JSON.stringify(loaded));
    const client = await connect(served.url, loaded.game, loaded.seat);
    const done = await client.next(
      isPosition((p) => p.nodes.filter((n) => n.review !== undefined).length === t.moves.length),
      0,
    );
    assertEquals(done.loaded, true);
    assertEquals(done.players, ["carol", "dave"]);
    const reviews = done.nodes.slice(1).map((n) => n.review!);
    assert(reviews.every((r) => r.exact === true), JSON.stringify(reviews));
    assertEquals(
      reviews.flatMap((r, i) => (r.mistake ? [i + 1] : [])),
      marked,
      `seed ${seed}`,
    );
    assert(reviews.every((r) => r.mistake === (r.severity === "blunder")));
    await client.close();
  });
});
