/**
 * Distances in parallel search: with `distance` set, a decisive value carries its
 * distance from the root, and the parallel strategies, which search the positions of
 * their frontier (`par` plies down) in workers, must give it as the sequential search
 * does — a win found k plies below the frontier is `par + k` plies from the root, a game
 * that ends above the frontier as many plies as it is from the root.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { type Game, WIN, WIN_THRESHOLD } from "../core/game.ts";
import { type GamePlugin, openGameWith } from "../core/plugin.ts";
import type { GameSource } from "../core/source.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { parallelStrategies } from "../core/parallel/strategies.ts";
import { workerPoolLayer } from "../core/parallel/pool.ts";
import { runStrategy } from "../core/engine/strategies.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";
import nim from "../plugins/nim/mod.ts";
import kalah from "../plugins/kalah/mod.ts";
import { randomPosition } from "./tools/helpers.ts";

/** A game opened from its plugin module, with its source (so that workers open it too). */
const built = (plugin: unknown, url: URL, options = {}): readonly [Game<unknown>, GameSource] => {
  const loaded = { plugin: plugin as GamePlugin<unknown, unknown>, url: url.href };
  const { game, source } = Effect.runSync(openGameWith({}, loaded, options));
  return [game, source];
};

const here = (path: string) => new URL(path, import.meta.url);

/** The games, and whether a decisive value is exactly `±(WIN - distance)` (no margin). */
const GAMES: readonly [string, Game<unknown>, GameSource, boolean][] = [
  ["tic-tac-toe", ...built(tictactoe, here("../plugins/tictactoe/mod.ts")), true],
  ["Nim 2,3,4", ...built(nim, here("../plugins/nim/mod.ts"), { heaps: [2, 3, 4] }), true],
  ["Kalah 3x2", ...built(kalah, here("../plugins/kalah/mod.ts"), { pits: 3, stones: 2 }), false],
];

Deno.test("distance: the parallel strategies give the sequential search's decisive values", async () => {
  const samples = fc.sample(
    fc.record({
      g: fc.integer({ min: 0, max: GAMES.length - 1 }),
      seed: fc.integer({ min: 0, max: 1e9 }),
      plies: fc.integer({ min: 0, max: 5 }),
      depth: fc.integer({ min: 1, max: 7 }),
      par: fc.integer({ min: 1, max: 4 }),
    }),
    { numRuns: 40, seed: 19 },
  );
  // Decisive values found above the frontier (at most `par` plies from the root) and
  // below it: the test's reach.
  const reach = { above: 0, below: 0 };
  await Effect.runPromise(
    Effect.gen(function* () {
      for (const { g, seed, plies, depth, par } of samples) {
        const [label, game, source, plain] = GAMES[g];
        const s = randomPosition(game, seed, plies);
        if (game.moves(s).length === 0) continue;
        const sequential = minimaxSearch(game, s, { depth, distance: true }).value;
        if (plain && Math.abs(sequential) >= WIN_THRESHOLD) {
          reach[WIN - Math.abs(sequential) <= par ? "above" : "below"]++;
        }
        for (const [name, strategy] of Object.entries(parallelStrategies)) {
          const r = yield* runStrategy(strategy, game, s, {
            depth,
            distance: true,
            params: name === "lazy_smp" ? {} : { par },
          }, source);
          assertEquals(
            r.value,
            sequential,
            `${label} after ${plies} plies (seed ${seed}), ${name} par ${par} depth ${depth}`,
          );
        }
      }
    }).pipe(Effect.provide(workerPoolLayer(2))),
  );
  assert(reach.above >= 3 && reach.below >= 3, `decisive values: ${JSON.stringify(reach)}`);
});
