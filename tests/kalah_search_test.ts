/**
 * Searching Kalah: the specialised `seq_mm` / `seq_ab` against the generic minimax
 * (values, moves, lines and node counts), the move ordering, and the exact solver
 * against plain alpha-beta to the end and against an independent memoized negamax,
 * under both capture rules; the endgame database against the solver; database files.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { Effect } from "../core/deps.ts";
import { kalahGame, seqAbStrategy, seqMmStrategy } from "../plugins/kalah/mod.ts";
import { fastSearch } from "../plugins/kalah/fast.ts";
import { modeByName, parseParams } from "../plugins/kalah/modes.ts";
import {
  buildDb,
  dbSize,
  lookup,
  nextComposition,
  predictSow,
  rankFlipped,
  rankPosition,
  sowRelative,
} from "../plugins/kalah/db.ts";
import { dbFileName, listDbs, loadDb, saveDb } from "../plugins/kalah/db_file.ts";
import { buildDbParallel } from "../plugins/kalah/db_build.ts";
import { type KalahState, orderKalahMoves } from "../plugins/kalah/rules.ts";
import { KalahSolver } from "../plugins/kalah/solver.ts";
import { databaseNotes, solveKalah, spotDbStones } from "../plugins/kalah/solve.ts";

type Capture = "nonempty" | "always";

/** A Kalah game and a position reached by random moves. */
const positionArb = fc
  .record({
    pits: fc.integer({ min: 1, max: 7 }),
    stones: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(20, 1000)),
    capture: fc.constantFrom<Capture>("nonempty", "always"),
    evalName: fc.constantFrom<"util" | "store">("util", "store"),
    picks: fc.array(fc.nat(), { maxLength: 40 }),
  })
  .map(({ pits, stones, capture, evalName, picks }) => {
    const game = kalahGame({ pits, stones, capture, eval: evalName });
    let s: KalahState = game.initial();
    for (const p of picks) {
      const ms = game.moves(s);
      if (ms.length === 0) break;
      s = game.play(s, ms[p % ms.length]);
    }
    return {
      game,
      s,
      [fc.toStringMethod]: () => `Kalah(${pits},${stones}) ${capture} ${evalName} [${s}]`,
    };
  });

Deno.test("seq_mm equals the generic minimax: value, move, line and node count", () => {
  fc.assert(
    fc.property(positionArb, fc.integer({ min: 0, max: 4 }), ({ game, s }, depth) => {
      const mm = minimaxSearch(game, s, { depth });
      const fast = seqMmStrategy.search(game, s, { depth });
      assertEquals(fast.value, mm.value);
      assertEquals(fast.move, mm.move);
      assertEquals(fast.pv, mm.pv);
      assertEquals(fast.nodes, mm.nodes);
      assertEquals(fast.exact, mm.exact);
    }),
    { numRuns: 150 },
  );
});

Deno.test("seq_ab finds minimax's value and move (the first best in house order)", () => {
  fc.assert(
    fc.property(positionArb, fc.integer({ min: 0, max: 5 }), ({ game, s }, depth) => {
      const mm = minimaxSearch(game, s, { depth });
      const ab = seqAbStrategy.search(game, s, { depth });
      assertEquals(ab.value, mm.value);
      assertEquals(ab.move, mm.move);
      assert(ab.nodes <= mm.nodes);
      const all = seqAbStrategy.search(game, s, { depth, allBest: true });
      const allMm = minimaxSearch(game, s, { depth, allBest: true });
      assertEquals(all.bestMoves, allMm.bestMoves);
    }),
    { numRuns: 100 },
  );
});

Deno.test("seq_mm with seed 004's root ties: the last best move for player 0, the first for 1", () => {
  fc.assert(
    fc.property(positionArb, fc.integer({ min: 0, max: 4 }), ({ game, s }, depth) => {
      const mm = minimaxSearch(game, s, { depth, allBest: true });
      const seed = fastSearch(game, s, { depth }, "mm", true);
      assertEquals([seed.value, seed.nodes, seed.exact], [mm.value, mm.nodes, mm.exact]);
      const best = mm.bestMoves ?? [];
      if (best.length === 0) return assertEquals(seed.move, mm.move);
      // maximumBy keeps the last of equal maxima, minimumBy the first of equal minima.
      assertEquals(seed.move, game.toMove(s) === 0 ? best.at(-1) : best[0]);
      const child = minimaxSearch(game, game.play(s, seed.move!), { depth: depth - 1 });
      assertEquals(seed.pv, [seed.move!, ...child.pv]);
    }),
    { numRuns: 150 },
  );
});

Deno.test("seed 004's modes: depths 0-1000, parDepth 0 runs the seed's sequential search", async () => {
  const mm = modeByName("seq_mm")!, pab = modeByName("par_then_ab")!;
  assertEquals(parseParams(mm, "(1000)"), { params: { depth: 1000 } });
  assertEquals(parseParams(mm, "1001"), { error: "search_depth_limit must be at most 1000" });
  assertEquals(parseParams(pab, "(3,1001)"), {
    error: "search_depth_limit and parallelism_depth_limit must be at most 1000",
  });
  // With parDepth 0 no worker is needed: par_then_mm is runMM, par_then_ab runAB.
  const options = { pits: 6, stones: 4, capture: "nonempty", eval: "util" } as const;
  const g = kalahGame(options);
  const source = { url: new URL("../plugins/kalah/mod.ts", import.meta.url).href, options };
  const run = (name: string) =>
    Effect.runPromise(
      modeByName(name)!.search(g, source, g.initial(), { depth: 1, parDepth: 0 }),
    );
  const [pmm, ab, yb] = await Promise.all(["par_then_mm", "par_then_ab", "young_bros"].map(run));
  assertEquals([pmm.move, ab.move, yb.move], [2, 0, 0]);
});

Deno.test("seed 004 computeAIMove1/2: seq_mm and seq_ab at depth 9 from the initial board", () => {
  const g = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "util" });
  const mm = seqMmStrategy.search(g, g.initial(), { depth: 9 });
  const ab = seqAbStrategy.search(g, g.initial(), { depth: 9 });
  assertEquals([mm.move, mm.value, mm.nodes], [5, 4, 3_470_067]);
  assertEquals([ab.move, ab.value], [5, 4]);
  assertEquals(mm.pv.length, 9);
  // The generic alpha-beta (table, ordering, deepening) agrees.
  const generic = alphabetaSearch(g, g.initial(), { depth: 9, tt: new TranspositionTable(8) });
  assertEquals(generic.value, 4);
});

Deno.test("seq_ab with a time budget deepens and returns a legal move", () => {
  const g = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "util" });
  const r = seqAbStrategy.search(g, g.initial(), { timeMs: 50 });
  assert(r.depth >= 1 && g.moves(g.initial()).includes(r.move!));
});

Deno.test("move ordering: extra turns first, then captures; the same moves", () => {
  // South: house 6 (1 stone) reaches the store; house 1 (1 stone) captures north's 5.
  const s = [1, 0, 0, 0, 2, 1, 0, 2, 0, 0, 0, 5, 0, 0, 0];
  assertEquals(orderKalahMoves(s, 6, [0, 4, 5], false), [5, 4, 0]);
  // Only the capture comes first when no move reaches the store.
  const t = [1, 0, 0, 0, 3, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0];
  assertEquals(orderKalahMoves(t, 6, [0, 4], false), [0, 4]);
  assertEquals(orderKalahMoves(t, 6, [4, 0], false), [0, 4]);
  fc.assert(fc.property(positionArb, ({ game, s }) => {
    const ms = game.moves(s);
    const ordered = game.orderMoves!(s, ms);
    assertEquals([...ordered].sort((a, b) => a - b), [...ms]);
  }));
});

// ---------------------------------------------------------------------------------------
// The exact solver.

/** An independent exact negamax over the plugin's rules (memoized on the state). */
const referenceValue = (game: ReturnType<typeof kalahGame>, s: KalahState): number => {
  const memo = new Map<string, number>();
  const n = game.config.pits;
  const rec = (t: KalahState): number => {
    const key = t.join(",");
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const ms = game.moves(t);
    let v: number;
    if (ms.length === 0) v = game.outcome(t)!.margin;
    else {
      const max = t[2 * n + 2] === 0;
      v = max ? -Infinity : Infinity;
      for (const m of ms) {
        const c = rec(game.play(t, m));
        v = max ? Math.max(v, c) : Math.min(v, c);
      }
    }
    memo.set(key, v);
    return v;
  };
  return rec(s);
};

/** Small tables and databases: the tests' boards need no more. */
const SMALL = { ttMb: 8, spotDbPositions: 20_000 };

const smallArb = fc
  .record({
    pits: fc.integer({ min: 1, max: 4 }),
    stones: fc.integer({ min: 1, max: 3 }),
    capture: fc.constantFrom<Capture>("nonempty", "always"),
    picks: fc.array(fc.nat(), { maxLength: 12 }),
  })
  .filter(({ pits, stones }) => pits * stones <= 6)
  .map(({ pits, stones, capture, picks }) => {
    const game = kalahGame({ pits, stones, capture, eval: "util" });
    let s: KalahState = game.initial();
    for (const p of picks) {
      const ms = game.moves(s);
      if (ms.length === 0) break;
      s = game.play(s, ms[p % ms.length]);
    }
    return { game, s, [fc.toStringMethod]: () => `Kalah(${pits},${stones}) ${capture} [${s}]` };
  });

Deno.test("the solver agrees with alpha-beta to the end and a plain negamax (property)", () => {
  fc.assert(
    fc.property(smallArb, ({ game, s }) => {
      const solved = solveKalah(game, s, {}, SMALL);
      const ab = alphabetaSearch(game, s, { depth: 200, tt: new TranspositionTable(1) });
      assert(ab.exact);
      assertEquals(solved.value, ab.value);
      assertEquals(solved.value, referenceValue(game, s));
      assert(solved.exact);
      if (game.moves(s).length === 0) return assertEquals(solved.move, undefined);
      // The solver's move keeps the value; so does its whole line.
      assertEquals(referenceValue(game, game.play(s, solved.move!)), solved.value);
      let t = s;
      for (const m of solved.pv) {
        assert(game.moves(t).includes(m));
        t = game.play(t, m);
      }
      assertEquals(game.moves(t).length, 0, "the line runs to the end of the game");
      assertEquals(game.outcome(t)!.margin, solved.value);
    }),
    { numRuns: 120 },
  );
});

Deno.test("the solver names a move when the worst bound is the value (found by the property)", () => {
  // South's only move loses every stone left: the value equals the futility bound, which
  // once settled the root test before any move was tried.
  const game = kalahGame({ pits: 4, stones: 1, capture: "nonempty", eval: "util" });
  const s: KalahState = [1, 0, 0, 0, 1, 2, 0, 0, 2, 2, 0];
  const solved = solveKalah(game, s, {}, SMALL);
  assertEquals([solved.value, solved.move], [-6, 0]);
  assertEquals(referenceValue(game, game.play(s, 0)), -6);
});

Deno.test("every optimal root move (--all) is found, and only those", () => {
  for (const capture of ["nonempty", "always"] as const) {
    const game = kalahGame({ pits: 3, stones: 3, capture, eval: "util" });
    const s = game.initial();
    const r = solveKalah(game, s, { allBest: true }, SMALL);
    const want = game.moves(s).filter((m) => referenceValue(game, game.play(s, m)) === r.value);
    assertEquals(r.bestMoves, want);
  }
});

Deno.test("known values: Kalah(1..4, small) from the start, both capture rules", () => {
  // Computed here and cross-checked by alpha-beta to the end (see the property above).
  const table: [number, number, Capture, number][] = [
    [2, 1, "nonempty", 2],
    [2, 4, "nonempty", -10],
    [2, 4, "always", -12],
    [3, 3, "nonempty", 2],
    [3, 3, "always", 2],
    [4, 2, "always", 6],
  ];
  for (const [pits, stones, capture, value] of table) {
    const game = kalahGame({ pits, stones, capture, eval: "util" });
    const s = game.initial();
    const r = solveKalah(game, s, {}, SMALL);
    assertEquals(r.value, value, `Kalah(${pits}, ${stones}) ${capture}`);
    const exact = (t: KalahState) =>
      alphabetaSearch(game, t, { depth: 200, tt: new TranspositionTable(1) }).value;
    assertEquals(exact(s), value);
    assertEquals(exact(game.play(s, r.move!)), value);
  }
});

Deno.test("the solver from the north side and from finished positions", () => {
  const game = kalahGame({ pits: 3, stones: 2, capture: "nonempty", eval: "util" });
  const s = game.play(game.initial(), 0); // north to move
  assertEquals(game.toMove(s), 1);
  assertEquals(solveKalah(game, s, {}, SMALL).value, referenceValue(game, s));
  const over = [0, 0, 0, 5, 1, 2, 0, 4, 1];
  const r = solveKalah(game, over, {}, SMALL);
  assertEquals([r.value, r.move, r.pv], [-2, undefined, []]);
});

// ---------------------------------------------------------------------------------------
// The endgame database.

Deno.test("ranking: every composition in order, flipped ranks equal ranks of the flip", () => {
  const db = buildDb(2, false, 5);
  for (let s = 0; s <= 5; s++) {
    const h = new Int32Array(4);
    h[3] = s;
    let idx = db.offsets[s];
    do {
      assertEquals(rankPosition(db, h, 0, s), idx);
      const flipped = Int32Array.from([h[2], h[3], h[0], h[1]]);
      assertEquals(rankFlipped(db, h, 0, s), rankPosition(db, flipped, 0, s));
      idx++;
    } while (nextComposition(h, 4));
    assertEquals(idx, db.offsets[s + 1]);
  }
  assertEquals(db.values.length, dbSize(2, 5));
});

Deno.test("predictSow foretells sowRelative's gain, kind and sides without sowing", () => {
  // Houses with laps (up to 3 * lap stones), empty houses, captures, extra turns and ends.
  const boardArb = fc.integer({ min: 1, max: 7 }).chain((n) =>
    fc.record({
      n: fc.constant(n),
      h: fc.array(
        fc.oneof(
          fc.constant(0),
          fc.integer({ min: 0, max: 4 }),
          fc.integer({ min: 0, max: 3 * (2 * n + 1) + 1 }),
        ),
        { minLength: 2 * n, maxLength: 2 * n },
      ),
      i: fc.integer({ min: 0, max: n - 1 }),
      always: fc.boolean(),
    })
  );
  fc.assert(
    fc.property(boardArb, ({ n, h, i, always }) => {
      fc.pre(h[i] > 0);
      const houses = Int32Array.from(h);
      let mine = 0, theirs = 0;
      for (let j = 0; j < n; j++) mine += h[j];
      for (let j = n; j < 2 * n; j++) theirs += h[j];
      const told = new Int32Array(3), done = new Int32Array(3);
      const gain = predictSow(houses, 0, n, i, always, told, mine, theirs);
      assertEquals([...houses], h, "predictSow leaves the houses alone");
      assertEquals(
        [gain, ...told],
        [sowRelative(houses, 0, n, i, always, done, mine, theirs), ...done],
      );
    }),
    { numRuns: 3000 },
  );
});

Deno.test("database values equal the solver's, every position, both rules", () => {
  for (const [pits, k] of [[2, 7], [3, 5]]) {
    for (const always of [false, true]) {
      const db = buildDb(pits, always, k);
      const solver = new KalahSolver({ pits, captureAlways: always, ttMb: 4 });
      for (let s = 0; s <= k; s++) {
        const h = new Int32Array(2 * pits);
        h[2 * pits - 1] = s;
        do {
          assertEquals(lookup(db, h, 0, s), solver.solve(h).value, `${[...h]} ${always}`);
        } while (nextComposition(h, 2 * pits));
      }
      // A database solver gives the same values as one without.
      const withDb = new KalahSolver({ pits, captureAlways: always, ttMb: 4, db });
      const h = new Int32Array(2 * pits).fill(3);
      assertEquals(withDb.solve(h).value, solver.solve(h).value);
    }
  }
});

Deno.test("a database built on workers equals the one built on one thread", async () => {
  for (const always of [false, true]) {
    // Levels of 6 stones on 6 houses span several stripes, so both workers take part.
    const one = buildDb(3, always, 9);
    const levels: number[] = [];
    const two = await buildDbParallel(3, always, 9, 2, (level) => levels.push(level));
    assertEquals(two.values, one.values);
    assertEquals(levels, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert(!(two.values.buffer instanceof SharedArrayBuffer));
    // Extending a smaller database keeps its levels and builds only the others.
    levels.length = 0;
    const grown = await buildDbParallel(
      3,
      always,
      9,
      3,
      (level) => levels.push(level),
      buildDb(3, always, 6),
    );
    assertEquals(grown.values, one.values);
    assertEquals(levels, [7, 8, 9]);
  }
});

Deno.test("database files: saved, listed, loaded whole or as a prefix", async () => {
  const dir = new URL(`file://${await Deno.makeTempDir()}/`);
  try {
    const db = buildDb(2, true, 6);
    const file = saveDb(db, dir);
    assert(file.pathname.endsWith(dbFileName(2, true, 6)));
    assertEquals(listDbs(2, true, dir).map((d) => d.maxStones), [6]);
    assertEquals(listDbs(2, false, dir), []);
    const whole = loadDb(2, true, 127, dir)!;
    assertEquals(whole.maxStones, 6);
    assertEquals(whole.values, db.values);
    const prefix = loadDb(2, true, 4, dir)!;
    assertEquals(prefix.maxStones, 4);
    assertEquals(prefix.values, db.values.subarray(0, dbSize(2, 4)));
    // Extending a database keeps its levels and adds the next ones.
    const bigger = buildDb(2, true, 8, undefined, whole);
    assertEquals(bigger.values, buildDb(2, true, 8).values);
    assertEquals(loadDb(3, true, 127, dir), undefined);
    assertEquals(loadDb(2, true, 127, new URL("file:///nonexistent/dir/")), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the spot database stays small and below the game's stones", () => {
  assertEquals(spotDbStones(2, 4), 3);
  assert(dbSize(6, spotDbStones(6, 48)) <= 2_500_000);
  assertEquals(spotDbStones(6, 0), 0);
});

Deno.test("solve notes name the database and, when slow without a file, the command for one", () => {
  const db = buildDb(12, true, 2);
  const solver = new KalahSolver({ pits: 12, captureAlways: true, ttMb: 1, db });
  const built = { solver, db, dbSource: "built", dbMs: 0 } as const;
  assertEquals(databaseNotes(built, 24, 100), ["endgame database: built on the spot (2 stones)"]);
  assertEquals(databaseNotes(built, 24, 5000), [
    "endgame database: built on the spot (2 stones)",
    "faster with a database file: deno task kalah-db --pits 12 --stones 10 --capture always " +
    "(125 MB, built once)",
  ]);
  // Never a database as big as the game, and never a file when one is in use.
  assertEquals(databaseNotes(built, 3, 5000).length, 1);
  assertEquals(databaseNotes({ ...built, dbSource: "file" }, 24, 5000), [
    "endgame database: out/kalah-db/kalah-p12-always-s2.bin",
  ]);
});
