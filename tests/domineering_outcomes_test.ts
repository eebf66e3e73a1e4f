/**
 * The solver's outcome classes on empty rectangles against the published ones
 * (`plugins/domineering/solver_outcomes.ts` cites them: Breuker, Uiterwijk and van den
 * Herik 2000, "Solving 8x8 Domineering"; Lachmann, Moore and Rapaport 2002, "Who wins
 * Domineering on rectangular boards?"; Bullock 2002; Uiterwijk 2016) — the fast rows here,
 * every row in `deno task bench domineering --table` — and on every rectangle of up to
 * 20 cells against a plain search to the end (an independent reference).
 */
import { assertEquals } from "../testing/deps.ts";
import { createSolver } from "../plugins/domineering/solver.ts";
import { outcomeOf, PUBLISHED } from "../plugins/domineering/solver_outcomes.ts";
import { plainWins } from "./tools/domineering_reference.ts";

const full = (w: number, h: number) => Array.from({ length: h }, () => (1 << w) - 1);

const classOf = (w: number, h: number): string => {
  const solver = createSolver({ ttBits: 18 });
  const first = (mover: "H" | "V") =>
    solver.solve({ width: w, height: h, rows: full(w, h), mover }).moverWins;
  return outcomeOf(first("H"), first("V"));
};

Deno.test("published outcome classes of boards up to 49 cells (BUH 2000, LMR 2002, Bullock 2002)", () => {
  // Every rectangle of Bullock's list up to 7x7, 6x8 and 4x12 in both orientations.
  const fast = PUBLISHED.filter((p) => p.width * p.height <= 49);
  assertEquals(fast.length, 95);
  for (const p of fast) {
    assertEquals(classOf(p.width, p.height), p.outcome, `${p.width}x${p.height} (${p.source})`);
  }
});

Deno.test("every rectangle of up to 20 cells: the solver's class is the plain search's", () => {
  for (let w = 1; w <= 20; w++) {
    for (let h = 1; w * h <= 20; h++) {
      const plain = outcomeOf(plainWins(full(w, h), w, true), plainWins(full(w, h), w, false));
      assertEquals(classOf(w, h), plain, `${w}x${h}`);
    }
  }
});
