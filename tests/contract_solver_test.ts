/**
 * Contracts of the exact solvers (Kalah's MTD(f) solver, Domineering's boolean solver),
 * each checked against an independent reference (core alpha-beta to the end, a plain
 * memoized search written here):
 *
 * - the value depends neither on MTD(f)'s first guess nor on the table's size (a table of
 *   a thousand entries, where replacements are constant, against a big one);
 * - every Kalah table entry is a proved bound (a fail-low is an upper bound, a fail-high a
 *   lower one), found again whichever way its position is reached;
 * - Domineering's mirror images, transposes (the other player to move) and translations
 *   share one table entry: re-solving any of them costs exactly the same table hits.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { WIN } from "../core/game.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { kalahGame } from "../plugins/kalah/game.ts";
import type { KalahState } from "../plugins/kalah/rules.ts";
import { buildDb } from "../plugins/kalah/db.ts";
import { KalahSolver } from "../plugins/kalah/solver.ts";
import { createSolver, type Solver } from "../plugins/domineering/solver.ts";
import { domineeringGame, geometry } from "../plugins/domineering/board.ts";
import { board } from "../plugins/domineering/seed003.ts";
import { solvePosition } from "../plugins/domineering/mod.ts";
import {
  children,
  plainWins,
  shapeArb as domineeringShapes,
} from "./tools/domineering_reference.ts";

// ---------------------------------------------------------------------------------------
// Kalah.

type Capture = "nonempty" | "always";

/** Houses per side and stones per house of the boards tested. */
const BOARDS: readonly (readonly [number, number])[] = [[3, 2], [3, 3], [4, 2], [4, 3]];

/** At most this many stones left in the houses on Kalah(4, 3): alpha-beta stays fast. */
const MAX_LEFT_4X3 = 16;

const housesLeft = (pits: number, s: KalahState): number => {
  let t = 0;
  for (let i = 0; i < pits; i++) t += s[i] + s[pits + 1 + i];
  return t;
};

/** A Kalah position reached by a random playout (picks index the legal moves). */
const kalahArb = fc
  .record({
    board: fc.constantFrom(...BOARDS),
    capture: fc.constantFrom<Capture>("nonempty", "always"),
    picks: fc.array(fc.nat(), { maxLength: 30 }),
    guess: fc.integer({ min: -30, max: 30 }),
  })
  .map(({ board: [pits, stones], capture, picks, guess }) => {
    const game = kalahGame({ pits, stones, capture, eval: "util" });
    let s: KalahState = game.initial();
    const big = pits * stones >= 12;
    for (let i = 0; i < picks.length || (big && housesLeft(pits, s) > MAX_LEFT_4X3); i++) {
      const ms = game.moves(s);
      if (ms.length === 0) break;
      s = game.play(s, ms[(picks[i % Math.max(1, picks.length)] ?? i) % ms.length]);
    }
    return {
      game,
      pits,
      capture,
      s,
      guess,
      [fc.toStringMethod]: () => `Kalah(${pits},${stones}) ${capture} [${s}] guess ${guess}`,
    };
  });

/**
 * A state as the solver takes it: the mover's houses then the opponent's, and how the
 * mover's future gain becomes south's final margin.
 */
const moverView = (pits: number, s: KalahState) => {
  const mover = s[2 * pits + 2];
  const own = mover === 0 ? 0 : pits + 1, other = mover === 0 ? pits + 1 : 0;
  const houses = [...s.slice(own, own + pits), ...s.slice(other, other + pits)];
  const stores = s[own + pits] - s[other + pits];
  return { houses, toSouth: (gain: number) => (mover === 0 ? 1 : -1) * (stores + gain) };
};

/** The exact value (south's margin) by core alpha-beta to the end. */
const reference = (game: ReturnType<typeof kalahGame>, s: KalahState): number => {
  const r = alphabetaSearch(game, s, { depth: 500, tt: new TranspositionTable(1) });
  assert(r.exact);
  return r.value;
};

/** Solvers kept per board and rule (tables persist between solves, as in use). */
const kalahSolvers = new Map<string, Record<"tiny" | "big" | "tinyDb", KalahSolver>>();
const solversFor = (pits: number, capture: Capture) => {
  const id = `${pits}/${capture}`;
  let got = kalahSolvers.get(id);
  if (got === undefined) {
    const captureAlways = capture === "always";
    const db = buildDb(pits, captureAlways, 5);
    got = {
      // ttMb 0: the smallest table, 512 buckets of two entries.
      tiny: new KalahSolver({ pits, captureAlways, ttMb: 0 }),
      big: new KalahSolver({ pits, captureAlways, ttMb: 4 }),
      tinyDb: new KalahSolver({ pits, captureAlways, ttMb: 0, db }),
    };
    kalahSolvers.set(id, got);
  }
  return got;
};

Deno.test("Kalah: the value depends on neither the first guess nor the table size; it is alpha-beta's", () => {
  fc.assert(
    fc.property(kalahArb, ({ game, pits, capture, s, guess }) => {
      const expected = reference(game, s);
      const { houses, toSouth } = moverView(pits, s);
      for (const [name, solver] of Object.entries(solversFor(pits, capture))) {
        for (const g of [guess, -99, 99]) {
          const r = solver.solve(houses, g);
          assertEquals(toSouth(r.value), expected, `${name} table, first guess ${g}`);
          if (game.moves(s).length === 0) continue;
          // The move it names keeps the value.
          assertEquals(reference(game, game.play(s, r.move)), expected, `${name}: move ${r.move}`);
        }
      }
    }),
    { numRuns: 120 },
  );
});

Deno.test("Kalah: every table entry is a proved bound, found again from any path to its position", () => {
  for (const [pits, stones] of [[3, 2], [3, 3], [4, 2]]) {
    for (const capture of ["nonempty", "always"] as const) {
      const game = kalahGame({ pits, stones, capture, eval: "util" });
      // The exact value of every reachable state (south's margin), memoized by state.
      const memo = new Map<string, number>();
      const exact = (s: KalahState): number => {
        const key = s.join();
        let v = memo.get(key);
        if (v === undefined) {
          const ms = game.moves(s);
          if (ms.length === 0) v = game.outcome(s)!.margin;
          else {
            const vs = ms.map((m) => exact(game.play(s, m)));
            v = s[2 * pits + 2] === 0 ? Math.max(...vs) : Math.min(...vs);
          }
          memo.set(key, v);
        }
        return v;
      };
      const root = game.initial();
      exact(root);
      // Solves from several first guesses (fail-lows and fail-highs at every node), from
      // the start and from each position after one move: entries pile up from many paths.
      const solver = new KalahSolver({ pits, captureAlways: capture === "always", ttMb: 1 });
      const starts = [root, ...game.moves(root).map((m) => game.play(root, m))];
      for (const s of starts) {
        for (const g of [-20, -3, 0, 3, 20]) solver.solve(moverView(pits, s).houses, g);
      }
      let found = 0;
      for (const [key, value] of memo) {
        const s = key.split(",").map(Number) as KalahState;
        if (game.moves(s).length === 0) continue;
        const { houses, toSouth } = moverView(pits, s);
        const e = solver.entry(houses);
        if (e === undefined) continue;
        found++;
        // Bounds on the mover's gain; south's view flips them when north moves.
        const [lo, hi] = [toSouth(e.lower), toSouth(e.upper)].sort((a, b) => a - b);
        assert(
          lo <= value && value <= hi,
          `Kalah(${pits},${stones}) ${capture} [${s}]: value ${value}, entry ${lo}..${hi}`,
        );
      }
      assert(found >= 20, `only ${found} positions found in the table`);
    }
  }
});

// ---------------------------------------------------------------------------------------
// Domineering.

const shapeArb = domineeringShapes(2, 0.5);

Deno.test("Domineering: the result does not depend on the table size; it is a plain search's", () => {
  // 2^10 entries: constant replacement on these boards; 2^20: hardly any.
  const tiny = createSolver({ ttBits: 10 }), big = createSolver({ ttBits: 20 });
  fc.assert(
    fc.property(shapeArb, ({ w, h, rows, horizontal }) => {
      const memo = new Map<string, boolean>();
      const wins = plainWins(rows, w, horizontal, memo);
      const winning = children(rows, w, horizontal)
        .filter((c) => !plainWins(c.rows, w, !horizontal, memo))
        .map((c) => c.move);
      const input = { width: w, height: h, rows, mover: horizontal ? "H" as const : "V" as const };
      for (const [name, solver] of [["tiny", tiny], ["big", big]] as const) {
        const r = solver.solve(input, { allWinning: true });
        assertEquals(r.moverWins, wins, `${name} table`);
        assertEquals(r.winning, winning, `${name} table: the winning moves`);
        assertEquals(solver.solve(input).moverWins, wins, `${name} table, first win only`);
      }
    }),
    { numRuns: 300 },
  );
});

/** A shape as a set of cells `[x, y]`. */
type Cells = [number, number][];
const cellsOf = (rows: readonly number[], w: number): Cells =>
  rows.flatMap((r, y) =>
    [...Array(w).keys()].filter((x) => (r >> x) & 1).map((x): [number, number] => [x, y])
  );
/** Row masks of cells in a `w` x `h` box. */
const rowsOf = (cells: Cells, h: number): number[] => {
  const rows = new Array<number>(h).fill(0);
  for (const [x, y] of cells) rows[y] |= 1 << x;
  return rows;
};

/** The eight images of a shape (mirrors, rotations, transposes) and a translated copy. */
const images = (rows: readonly number[], w: number, h: number, horizontal: boolean) => {
  const cells = cellsOf(rows, w);
  const same = horizontal ? "H" as const : "V" as const;
  const other = horizontal ? "V" as const : "H" as const;
  const make = (name: string, f: (x: number, y: number) => [number, number], swap: boolean) => {
    const [bw, bh] = swap ? [h, w] : [w, h];
    return {
      name,
      input: {
        width: bw,
        height: bh,
        rows: rowsOf(cells.map(([x, y]) => f(x, y)), bh),
        mover: swap ? other : same,
      },
    };
  };
  return [
    make("itself", (x, y) => [x, y], false),
    make("mirrored left-right", (x, y) => [w - 1 - x, y], false),
    make("mirrored top-bottom", (x, y) => [x, h - 1 - y], false),
    make("turned half round", (x, y) => [w - 1 - x, h - 1 - y], false),
    make("transposed, the other player to move", (x, y) => [y, x], true),
    make("turned a quarter, the other player to move", (x, y) => [h - 1 - y, x], true),
    make("turned three quarters, the other player to move", (x, y) => [y, w - 1 - x], true),
    make("anti-transposed, the other player to move", (x, y) => [h - 1 - y, w - 1 - x], true),
    {
      name: "moved into a bigger box",
      input: {
        width: w + 2,
        height: h + 3,
        rows: rowsOf(cells.map(([x, y]) => [x + 2, y + 1]), h + 3),
        mover: same,
      },
    },
  ];
};

Deno.test("Domineering: mirror images, transposes and translations share table entries (counted hits)", () => {
  fc.assert(
    fc.property(shapeArb, ({ w, h, rows, horizontal }) => {
      // Without the move-count bounds (they are not symmetric: their greedy pairing runs
      // one way), every child of the root is either settled by counting alone or in the
      // table once the shape itself is solved.
      const solver: Solver = createSolver({ ttBits: 20, vulnerableBounds: false });
      const all = images(rows, w, h, horizontal);
      solver.solve(all[0].input, { allWinning: true });
      const counts = all.map(({ input }) => {
        const hits = solver.hits();
        const r = solver.solve(input, { allWinning: true });
        return { nodes: r.nodes, hits: solver.hits() - hits, wins: r.moverWins };
      });
      const moves = children(rows, w, horizontal).length;
      for (let i = 0; i < all.length; i++) {
        assertEquals(counts[i], counts[0], all[i].name);
      }
      // Re-solving the shape itself: the root, then one node per root move.
      assertEquals(counts[0].nodes, 1 + moves);
    }),
    { numRuns: 200 },
  );
});

Deno.test("Domineering: the solve strategy agrees with core alpha-beta on random positions", () => {
  const arb = fc.record({
    size: fc.constantFrom([4, 4], [5, 4], [4, 5], [3, 5], [6, 3]),
    first: fc.constantFrom<"H" | "V">("H", "V"),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
    small: fc.boolean(),
  });
  fc.assert(
    fc.property(arb, ({ size: [w, h], first, picks, small }) => {
      const b = board(w, h);
      const game = domineeringGame(geometry(b.free, first));
      let s = game.initial();
      for (const p of picks) {
        const ms = game.moves(s);
        if (ms.length === 0) break;
        s = game.play(s, ms[p % ms.length]);
      }
      const ab = alphabetaSearch(game, s, { depth: 100, tt: false });
      assert(ab.exact);
      // The strategy sizes its table from the caller's (16 to 26 bits).
      const r = solvePosition(game, s, small ? { tt: new TranspositionTable(0) } : {});
      assertEquals(Math.sign(r.value), Math.sign(ab.value));
      assertEquals(Math.abs(r.value), WIN);
      if (r.move !== undefined) {
        const after = alphabetaSearch(game, game.play(s, r.move), { depth: 100, tt: false });
        // A winning position's move wins; a lost one's move loses (all do).
        assertEquals(Math.sign(after.value), Math.sign(ab.value));
      }
    }),
    { numRuns: 60 },
  );
});
