/**
 * The Domineering solver (`plugins/domineering/solver.ts`) against a plain memoized
 * search to the end on random small shapes, with every enhancement on and off; its
 * results on rectangles; and the `solve` strategy of the plugin.
 */
import { assert, assertEquals } from "@std/assert";
import fc from "fast-check";
import { Effect } from "../core/deps.ts";
import { WIN } from "../core/game.ts";
import { makeGame } from "../core/plugin.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { createSolver, type SolverOptions } from "../plugins/domineering/solver.ts";
import domineering, { solvePosition } from "../plugins/domineering/mod.ts";
import type { DomineeringGame } from "../plugins/domineering/board.ts";
import { children, plainWins, shapeArb } from "./tools/domineering_reference.ts";

const shapes = shapeArb(1, 0.45);

const variants: Record<string, SolverOptions> = {
  "all enhancements": {},
  "no symmetry": { symmetry: false },
  "no vulnerable-move bounds": { vulnerableBounds: false },
  "safe moves played": { skipSafeMoves: false },
  "no ordering": { ordering: false },
};

for (const [name, options] of Object.entries(variants)) {
  Deno.test(`property: the solver (${name}) agrees with a plain search to the end`, () => {
    const solver = createSolver({ ttBits: 14, ...options });
    fc.assert(
      fc.property(shapes, ({ w, h, rows, horizontal }) => {
        const memo = new Map<string, boolean>();
        const expected = plainWins(rows, w, horizontal, memo);
        const r = solver.solve({ width: w, height: h, rows, mover: horizontal ? "H" : "V" }, {
          allWinning: true,
        });
        assertEquals(r.moverWins, expected);
        const winning = children(rows, w, horizontal)
          .filter((c) => !plainWins(c.rows, w, !horizontal, memo))
          .map((c) => c.move);
        assertEquals(r.winning, winning, "every winning move, in index order");
        if (expected) assert(winning.includes(r.move), "the move shown wins");
        else if (r.move >= 0) {
          assert(children(rows, w, horizontal).some((c) => c.move === r.move));
        } else assertEquals(children(rows, w, horizontal).length, 0);
      }),
      { numRuns: name === "all enhancements" ? 400 : 100 },
    );
  });
}

const full = (w: number, h: number) => Array.from({ length: h }, () => (1 << w) - 1);

Deno.test("rectangles up to 4x5 and 5x4: solver and plain search agree for both first players", () => {
  const solver = createSolver({ ttBits: 16 });
  for (let w = 1; w <= 5; w++) {
    for (let h = 1; h <= 5; h++) {
      if (w * h > 20) continue;
      for (const horizontal of [true, false]) {
        const r = solver.solve({
          width: w,
          height: h,
          rows: full(w, h),
          mover: horizontal ? "H" : "V",
        });
        assertEquals(r.moverWins, plainWins(full(w, h), w, horizontal), `${w}x${h}`);
      }
    }
  }
});

Deno.test("known results: 2x2, 3x3, 4x4, 6x6 first-player wins; 5x5 a second-player win", () => {
  const solver = createSolver({ ttBits: 18 });
  const firstWins = (n: number) =>
    solver.solve({ width: n, height: n, rows: full(n, n), mover: "H" }).moverWins;
  assertEquals([2, 3, 4, 5, 6].map(firstWins), [true, true, true, false, true]);
  assert(!solver.solve({ width: 1, height: 1, rows: [1], mover: "H" }).moverWins);
});

const game = (options: Record<string, unknown>): DomineeringGame =>
  Effect.runSync(makeGame(domineering, options)).game as unknown as DomineeringGame;

Deno.test("the solve strategy: values, a legal winning move, a line of play, all best moves", () => {
  const g = game({ board: "4x4" });
  const r = solvePosition(g, g.initial(), { allBest: true });
  assertEquals(r.value, -WIN, "H (player 1) wins 4x4 moving first");
  assert(r.exact && r.move !== undefined && g.moves(g.initial()).includes(r.move));
  assert(r.bestMoves !== undefined && r.bestMoves.includes(r.move!));
  // The line is legal and H, who wins, makes the last move.
  let s = g.initial();
  for (const m of r.pv) {
    assert(g.moves(s).includes(m));
    s = g.play(s, m);
  }
  assertEquals(g.moves(s), []);
  assertEquals(g.outcome(s)?.winner, 1);
  // Every optimal move by the solver is a win by alpha-beta to the end.
  for (const m of r.bestMoves!) {
    const ab = alphabetaSearch(g, g.play(g.initial(), m), { depth: 20, tt: false });
    assertEquals(ab.value, -WIN);
  }
  const g5 = game({ board: "5x5" });
  assertEquals(solvePosition(g5, g5.initial()).value, WIN, "V wins 5x5 when H starts");
});

Deno.test("the solve strategy honours a time budget", () => {
  const g = game({ board: "12x12" });
  const r = solvePosition(g, g.initial(), { timeMs: 30 });
  assert(!r.exact);
  assert(r.move !== undefined && g.moves(g.initial()).includes(r.move));
});
