/**
 * The openings' distinct count (`app/tournament/openings.ts`, the `distinctOpenings` of
 * `match` and `tournament`): after the rounds of a series asked for their openings — each
 * round at least once, in any order, as games running at once ask — it is the number of
 * different openings they got, for a book (with repeated lines, fewer lines than rounds
 * or more) and for random openings (more rounds than the game has openings too).
 */
import { assertEquals, fc } from "../testing/deps.ts";
import {
  fixedOpenings,
  type Opening,
  type Openings,
  randomOpenings,
} from "../app/tournament/openings.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";

/** Rounds 0..n-1, each asked once or twice, in the order `keys` shuffles them into. */
const roundsArb = fc.record({
  n: fc.integer({ min: 1, max: 14 }),
  twice: fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
  keys: fc.array(fc.nat(), { minLength: 28, maxLength: 28 }),
}).map(({ n, twice, keys }) => {
  const asks = Array.from({ length: n }, (_, r) => (twice[r] ? [r, r] : [r])).flat();
  return asks.map((r, i) => [keys[i], r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
});

/** Asks `openings` for each round, and checks the count against the openings given. */
const check = (openings: Openings, rounds: readonly number[], what: string) => {
  const given = new Set(rounds.map((r) => openings.at(r).moves.join(",")));
  assertEquals(openings.distinct(), given.size, `${what}, rounds asked ${rounds.join(" ")}`);
};

Deno.test("property: a book's distinct count is the number of different lines the rounds got", () => {
  // Lines of a tic-tac-toe book: one move each (a repeated line is the same opening).
  const line = (cell: number): Opening => ({ moves: [cell], notation: [`c${cell}`] });
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }),
      roundsArb,
      (cells, rounds) => check(fixedOpenings(cells.map(line)), rounds, `book ${cells.join(" ")}`),
    ),
    { numRuns: 300 },
  );
});

Deno.test("property: random openings' distinct count is the number of different ones given", () => {
  const ttt = tictactoe.create({});
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 0, max: 1000 }),
      roundsArb,
      (plies, seed, rounds) =>
        check(randomOpenings(ttt, plies, seed), rounds, `${plies} plies, seed ${seed}`),
    ),
    { numRuns: 60 },
  );
  // One ply: nine openings only, repeated in order for the rounds beyond.
  const nine = randomOpenings(ttt, 1, 4);
  const rounds = [12, 3, ...Array.from({ length: 12 }, (_, r) => r)];
  check(nine, rounds, "one ply");
  assertEquals(nine.distinct(), 9);
});
