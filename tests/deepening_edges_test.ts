/**
 * Iterative deepening's edges (`core/search/control.ts`: `deepen`, `deepening`,
 * `depthLimit`, under `alphabetaSearch` and `minimaxSearch`): the depths run (from the
 * first, clamped, up to and including the limit), the result kept from the last
 * complete iteration when a stop interrupts the next one (the stop given by a count of
 * polls, never by time), the fallback move when none completed, the progress reports'
 * depths in order, and the result equal to a fixed-depth search at the last completed
 * depth (a property over random positions).
 *
 * Mutants this file was proven against (each made by hand, seen failing, restored):
 * - `deepen`: `d <= run.last` as `d < run.last` (the limit's iteration never runs)
 * - `deepen`: `break` on `SearchStopped` as `continue` (a stopped iteration is skipped,
 *   the next one runs)
 * - `deepen`: the exact iteration's `break` dropped (it deepens past an exact result)
 * - `deepening`: `Math.min(firstDepth, last)` as `firstDepth` (an infinite first depth
 *   runs nothing)
 * - `deepening`: `complete` taking `it.pv[1]` as the move
 * - `deepening`: the fallback's `pv` empty, or its `depth` 1
 * - `deepening`: `result` keeping the last iteration's node count (not the total)
 * - `depthLimit`: the default 4 as 5
 * - `rootIteration`: ties taking the last best move (`i < best` as `i > best`)
 * (Not killed: the root's fail-high re-search dropped, or its bound `v >= hi` as `v > hi`:
 * on these games the fail-soft bound already is the value; see the report.)
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import type { Game } from "../core/game.ts";
import { deepen, depthLimit, SearchStopped } from "../core/search/control.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import type { SearchResult } from "../core/search/types.ts";
import { kalahGame } from "../plugins/kalah/mod.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";
import nim from "../plugins/nim/mod.ts";
import { randomPosition } from "./tools/helpers.ts";

const KALAH = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "util" }) as Game<unknown>;
const SMALL: readonly [string, Game<unknown>][] = [
  [
    "Kalah 4x3",
    kalahGame({ pits: 4, stones: 3, capture: "nonempty", eval: "util" }) as Game<unknown>,
  ],
  ["Kalah 6x4", KALAH],
  ["tic-tac-toe", tictactoe.create({}) as Game<unknown>],
  ["Nim 3,4,5", nim.create({ heaps: [3, 4, 5], misere: false }) as Game<unknown>],
];

/** A stop that answers true from its `k`-th poll on (polls come every 2048 nodes). */
const stopAfter = (k: number) => {
  let polls = 0;
  return () => ++polls >= k;
};

/** An iteration's outcome as `deepen` takes it, named by its depth. */
const it = (depth: number, exact = false) => ({
  value: depth * 10,
  pv: [depth, depth + 100],
  exact,
});

Deno.test("deepen: every depth from the first to the limit, inclusive, in order", () => {
  const ran: number[] = [];
  const reported: number[] = [];
  const r = deepen(
    { depth: 5, onIteration: (x) => void reported.push(x.depth) },
    performance.now(),
    { nodes: 7 },
    99,
    (d) => (ran.push(d), it(d)),
  );
  assertEquals(ran, [1, 2, 3, 4, 5]);
  assertEquals(reported, [1, 2, 3, 4, 5]);
  assertEquals([r.depth, r.move, r.value, r.pv, r.exact, r.nodes], [5, 5, 50, [5, 105], false, 7]);
});

Deno.test("deepen: an exact iteration ends it; the deeper ones never run", () => {
  const ran: number[] = [];
  const r = deepen({ depth: 9 }, performance.now(), { nodes: 0 }, 99, (d) => {
    ran.push(d);
    return it(d, d === 3);
  });
  assertEquals(ran, [1, 2, 3]);
  assertEquals([r.depth, r.exact, r.move], [3, true, 3]);
});

Deno.test("deepen: a stop mid-iteration keeps the last complete one; none complete, the fallback", () => {
  for (const stopAt of [1, 2, 4]) {
    const ran: number[] = [];
    const counter = { nodes: 0 };
    const r = deepen({ depth: 9 }, performance.now(), counter, 99, (d) => {
      ran.push(d);
      counter.nodes += 10;
      if (d === stopAt) throw new SearchStopped();
      return it(d);
    });
    assertEquals(ran, Array.from({ length: stopAt }, (_, i) => i + 1), `stop at ${stopAt}`);
    // The nodes count every iteration, the stopped one too.
    assertEquals(r.nodes, 10 * stopAt);
    if (stopAt === 1) {
      assertEquals([r.move, r.pv, r.depth, r.exact], [99, [99], 0, false]);
      assert(Number.isNaN(r.value), "no value without an iteration");
    } else {
      assertEquals([r.move, r.pv, r.depth, r.value], [
        stopAt - 1,
        [stopAt - 1, stopAt + 99],
        stopAt - 1,
        (stopAt - 1) * 10,
      ]);
    }
  }
  // No move at all (the end, or a chance node at the root): no fallback line either.
  const none = deepen({ depth: 3 }, performance.now(), { nodes: 0 }, undefined, () => {
    throw new SearchStopped();
  });
  assertEquals([none.move, none.pv], [undefined, []]);
  // Anything else thrown is not a stop: it passes through.
  let thrown: unknown;
  try {
    deepen({ depth: 3 }, performance.now(), { nodes: 0 }, 1, () => {
      throw new RangeError("boom");
    });
  } catch (e) {
    thrown = e;
  }
  assert(thrown instanceof RangeError, "a fault is not a stop");
});

Deno.test("deepen: the first depth is clamped to the limit (one pass at the limit)", () => {
  for (const first of [Infinity, 7, 3]) {
    const ran: number[] = [];
    deepen({ depth: 3 }, performance.now(), { nodes: 0 }, 1, (d) => (ran.push(d), it(d)), first);
    assertEquals(ran, [3], `first depth ${first}`);
  }
  const ran: number[] = [];
  deepen({ depth: 4 }, performance.now(), { nodes: 0 }, 1, (d) => (ran.push(d), it(d)), 2);
  assertEquals(ran, [2, 3, 4]);
});

Deno.test("depthLimit: the depth given; else 4 without a time budget, unbounded with one", () => {
  assertEquals(depthLimit({}), 4);
  assertEquals(depthLimit({ depth: 7 }), 7);
  assertEquals(depthLimit({ depth: 2, timeMs: 10 }), 2);
  assertEquals(depthLimit({ timeMs: 10 }), Infinity);
  // Through the searches: alpha-beta deepens to 4 by default, minimax one pass at 4.
  const depths: number[] = [];
  const r = alphabetaSearch(KALAH, KALAH.initial(), {
    onIteration: (x) => void depths.push(x.depth),
  });
  assertEquals([depths, r.depth], [[1, 2, 3, 4], 4]);
  const once: number[] = [];
  const m = minimaxSearch(KALAH, KALAH.initial(), { onIteration: (x) => void once.push(x.depth) });
  assertEquals([once, m.depth], [[4], 4]);
});

/** A search stopped by polls, with its reported iterations. */
const stopped = (
  game: Game<unknown>,
  s: unknown,
  polls: number,
  search: "alphabeta" | "minimax",
) => {
  const its: SearchResult[] = [];
  const options = {
    depth: 60,
    allBest: true,
    tt: false as const,
    shouldStop: stopAfter(polls),
    onIteration: (x: SearchResult) => void its.push(x),
  };
  const r = search === "alphabeta"
    ? alphabetaSearch(game, s, options)
    : minimaxSearch(game, s, { ...options, timeMs: 1e9 });
  return { r, its };
};

Deno.test("a stopped search keeps its last complete iteration: the same as a fixed-depth search there", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: SMALL.length - 1 }),
      fc.integer({ min: 0, max: 1e9 }),
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 1, max: 6 }),
      fc.constantFrom("alphabeta" as const, "minimax" as const),
      (g, seed, plies, polls, search) => {
        const [label, game] = SMALL[g];
        const s = randomPosition(game, seed, plies);
        if (game.moves(s).length === 0) return;
        const what = `${label}, ${plies} plies (seed ${seed}), ${search} stopped at poll ${polls}`;
        const { r, its } = stopped(game, s, polls, search);
        // The reports: one per completed depth, in order from 1.
        assertEquals(its.map((x) => x.depth), its.map((_, k) => k + 1), what);
        if (its.length === 0) {
          assertEquals([r.depth, r.move], [0, game.moves(s)[0]], `${what}: the fallback`);
          return;
        }
        const last = its[its.length - 1];
        assertEquals(
          [r.depth, r.move, r.value, r.pv, r.exact, r.bestMoves],
          [last.depth, last.move, last.value, last.pv, last.exact, last.bestMoves],
          `${what}: the result is the last report's`,
        );
        assert(r.nodes >= last.nodes, `${what}: nodes ${r.nodes} < ${last.nodes}`);
        if (!r.exact) {
          // It was stopped, not finished: the polls ran out at the next depth.
          assert(r.nodes >= 2048 * polls, `${what}: stopped before its polls`);
        }
        const fixed = alphabetaSearch(game, s, { depth: r.depth, allBest: true, tt: false });
        assertEquals(
          [fixed.value, fixed.move, fixed.bestMoves],
          [r.value, r.move, r.bestMoves],
          `${what}: a fixed-depth search at depth ${r.depth}`,
        );
        // Ties keep the first best move in the game's order.
        assertEquals(r.move, r.bestMoves?.[0], `${what}: the first of the best moves`);
        // The root's narrow windows (and re-search on a fail high) change nothing: plain
        // minimax, which has no window, finds the same value and the same best moves.
        if (r.depth <= 6) {
          const plain = minimaxSearch(game, s, { depth: r.depth, allBest: true });
          assertEquals([plain.value, plain.bestMoves], [r.value, r.bestMoves], `${what}: minimax`);
        }
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("a stop at the first poll of a deep position keeps the depths before it", () => {
  // Kalah 6x4 from the start: depth 1..3 take fewer than 2048 nodes (no poll), so a stop
  // that is always true first bites in a deeper iteration, which it interrupts.
  const { r, its } = stopped(KALAH, KALAH.initial(), 1, "alphabeta");
  assert(its.length >= 3, `only ${its.length} iterations before the first poll`);
  assert(!r.exact);
  assertEquals(r.depth, its.length);
  // One poll more reaches at least as deep.
  const later = stopped(KALAH, KALAH.initial(), 3, "alphabeta");
  assert(later.r.depth >= r.depth, `${later.r.depth} < ${r.depth}`);
  assert(later.r.nodes > r.nodes);
});
