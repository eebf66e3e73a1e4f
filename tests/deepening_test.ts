/**
 * Iterative deepening (`core/search/control.ts`'s `deepening`, under the sequential
 * searches and the parallel strategies' driver) stops at the first exact iteration, and
 * not before: every iteration before the last is inexact, and the last one is exact or at
 * the depth limit. Checked through `onIteration` on random positions, where wins found
 * before the search is exact (a decisive value, a line shorter than the depth) abound.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { type GamePlugin, openGameWith } from "../core/plugin.ts";
import type { GameSource } from "../core/source.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import type { SearchOptions, SearchResult } from "../core/search/types.ts";
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

const here = (folder: string) => new URL(`../plugins/${folder}/mod.ts`, import.meta.url);

const GAMES: readonly [string, Game<unknown>, GameSource][] = [
  ["tic-tac-toe", ...built(tictactoe, here("tictactoe"))],
  ["Nim 2,3,4", ...built(nim, here("nim"), { heaps: [2, 3, 4] })],
  ["Kalah 3x2", ...built(kalah, here("kalah"), { pits: 3, stones: 2 })],
];

/** The depth limit: beyond every tic-tac-toe and Nim line, not every Kalah one. */
const LIMIT = 11;

/** Checks one run's iterations against its result; `what` names the run. */
const checkRun = (what: string, its: readonly SearchResult[], r: SearchResult) => {
  assert(its.length > 0, `${what}: no iteration`);
  assertEquals(its.map((i) => i.depth), its.map((_, k) => k + 1), `${what}: the depths`);
  for (const it of its.slice(0, -1)) {
    assert(!it.exact, `${what}: exact at depth ${it.depth}, yet it went on`);
  }
  const last = its[its.length - 1];
  assert(
    last.exact || last.depth === LIMIT,
    `${what}: stopped at depth ${last.depth}, inexact (value ${last.value}, line of ${last.pv.length})`,
  );
  assertEquals([r.depth, r.exact, r.value], [last.depth, last.exact, last.value], what);
};

const positionArb = fc.record({
  g: fc.integer({ min: 0, max: GAMES.length - 1 }),
  seed: fc.integer({ min: 0, max: 1e9 }),
  plies: fc.integer({ min: 1, max: 7 }),
  distance: fc.boolean(),
});

Deno.test("deepening: minimax and alpha-beta stop at the first exact iteration, not before", () => {
  fc.assert(
    fc.property(positionArb, ({ g, seed, plies, distance }) => {
      const [label, game] = GAMES[g];
      const s = randomPosition(game, seed, plies);
      if (game.moves(s).length === 0) return;
      // minimax deepens with a time budget (here one that never ends); alpha-beta always.
      const runs: [string, (o: SearchOptions) => SearchResult][] = [
        ["minimax", (o) => minimaxSearch(game, s, { ...o, timeMs: 1e9 })],
        ["alphabeta", (o) => alphabetaSearch(game, s, o)],
        ["alphabeta allBest", (o) => alphabetaSearch(game, s, { ...o, allBest: true })],
      ];
      for (const [name, run] of runs) {
        const its: SearchResult[] = [];
        const r = run({ depth: LIMIT, distance, onIteration: (it) => void its.push(it) });
        checkRun(
          `${label} after ${plies} plies (seed ${seed}), ${name}, distance ${distance}`,
          its,
          r,
        );
      }
    }),
    { numRuns: 150 },
  );
});

Deno.test("deepening: the parallel strategies stop at the first exact iteration, not before", async () => {
  const samples = fc.sample(positionArb, { numRuns: 24, seed: 11 });
  await Effect.runPromise(
    Effect.gen(function* () {
      for (const [k, { g, seed, plies, distance }] of samples.entries()) {
        const [label, game, source] = GAMES[g];
        const s = randomPosition(game, seed, plies + 1);
        if (game.moves(s).length === 0) continue;
        for (const name of ["par_then_mm", "par_then_ab", "young_bros"]) {
          const its: SearchResult[] = [];
          // A time budget makes them deepen; this one never runs out.
          const r = yield* runStrategy(parallelStrategies[name], game, s, {
            depth: LIMIT,
            timeMs: 1e9,
            distance,
            params: { par: 1 + (k % 2) },
            onIteration: (it) => void its.push(it),
          }, source);
          checkRun(`${label} after ${plies + 1} plies (seed ${seed}), ${name}`, its, r);
        }
      }
    }).pipe(Effect.provide(workerPoolLayer(2))),
  );
});
