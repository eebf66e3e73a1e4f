/**
 * The openings' distinct count (`distinctOpenings` of `app/tournament/results.ts`, the
 * `distinctOpenings` of `match` and `tournament`): the number of different openings the
 * games started from, read from the games themselves, so that a rerun of a finished
 * folder, which plays nothing, reports the same count; and random openings, asked for in
 * any order (as games running at once ask), the same ones for the same seed.
 */
import { assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { randomOpenings } from "../app/tournament/openings.ts";
import { distinctOpenings } from "../app/tournament/results.ts";
import { type GameRecord, OPENING_AGENT } from "../app/tournament/runner.ts";
import type { Transcript } from "../app/transcript.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";

/** A game that started from `opening` (its moves marked as the opening's), then `after`. */
const game = (id: string, opening: readonly number[], after: readonly number[]): GameRecord => ({
  id,
  round: 0,
  pairing: 0,
  seats: [0, 1],
  seed: 1,
  ms: 1,
  transcript: {
    game: "x",
    options: {},
    seed: 1,
    players: ["a", "b"],
    moves: [
      ...opening.map((move) => ({ by: 0, move, notation: `${move}`, ms: 0, agent: OPENING_AGENT })),
      ...after.map((move) => ({ by: 1, move, notation: `${move}`, ms: 1, agent: "b" })),
    ],
    result: { winner: null, margin: 0, reason: "end" },
  } as Transcript,
});

Deno.test("property: the distinct count is the number of different openings the games began with", () => {
  const line = fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 3 });
  fc.assert(
    fc.property(
      fc.array(fc.record({ opening: line, after: line }), { maxLength: 12 }),
      (games) => {
        const records = games.map((g, i) => game(`g${i}`, g.opening, g.after));
        const want = new Set(games.map((g) => g.opening.join(","))).size;
        assertEquals(distinctOpenings(records), want);
        // The moves after the opening do not count, nor the order the games came in.
        assertEquals(distinctOpenings([...records].reverse()), want);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("property: random openings are the seed's, whatever order the rounds ask in", () => {
  const ttt = tictactoe.create({});
  const inOrder = (seed: number, n: number) => {
    const o = randomOpenings(ttt, 2, seed);
    return Array.from({ length: n }, (_, r) => Effect.runSync(o.at(r)).notation.join(" "));
  };
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1000 }),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 10 }),
      (seed, rounds) => {
        const want = inOrder(seed, 10);
        const o = randomOpenings(ttt, 2, seed);
        // Asked at once, in a shuffled order, by fibers running together.
        const got = Effect.runSync(
          Effect.forEach(rounds, (r) => o.at(r), { concurrency: "unbounded" }),
        );
        assertEquals(got.map((x) => x.notation.join(" ")), rounds.map((r) => want[r]));
      },
    ),
    { numRuns: 8 },
  );
});
