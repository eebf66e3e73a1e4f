/**
 * One implementation of each game rule, its fast forms tied to the readable one:
 *
 * - Kalah: the shared sowing (`sowAt`, `sowInPlace`), the move classification, the
 *   solver's mover-relative sowing and its O(1) forecast, and `fast.ts`'s `utilDelta`,
 *   all against the stone-by-stone `sowNaive` (1-8 pits, 0-6 stones, both capture rules,
 *   positions reached by play, and boards with laps); `seq_mm` and `seq_ab` (one
 *   recursion) against a plain minimax.
 * - 2048: the protocol's slide (also the general path's and, by its tables, the compact
 *   board's) against the seed's text written as list functions; the gradient's closed
 *   forms against seed 001's literal matrices; the monotone tables against `lineScore`;
 *   the compact board is not used where two 32768s could merge.
 * - 2048's expectimax keeps its state per search: searches nested in another's stop test
 *   or run on two contexts give what each gives alone.
 * - Hashing (`core/hash.ts`): keys separate what they must, slots spread.
 * - Pentago: the random playout (its twist written out) replays through `play`.
 */
import { assert, assertAlmostEquals, assertEquals, assertThrows, fc } from "../testing/deps.ts";
import { fmix32, hashInts, hashPrefix, mix32 } from "../core/hash.ts";
import { makeRng, type Rng } from "../core/rng.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { evaluate, expectimax, gameTree, takeTree } from "../core/tree.ts";
import { predictSow, sowRelative } from "../plugins/kalah/db.ts";
import { fastSearch, utilDelta } from "../plugins/kalah/fast.ts";
import { kalahGame } from "../plugins/kalah/game.ts";
import {
  MoveKind,
  moveKind,
  sowAt,
  sowInPlace,
  sowNaive,
  type SowReport,
  util,
} from "../plugins/kalah/rules.ts";
import {
  gradient4,
  monotone4,
  packCells,
  slideBoard,
  unpackCells,
} from "../plugins/game2048/board.ts";
import { compactFits, ExpectimaxContext, fastExpectimax } from "../plugins/game2048/expectimax.ts";
import {
  createGame,
  type EvalName,
  gradientValue,
  lineScore,
  linesOf,
  monotoneValue,
  rankOf,
  slideCells,
  slideLines,
  type State2048,
} from "../plugins/game2048/rules.ts";
import { game2048, move, slide, value as seedValue } from "../plugins/game2048/seed001.ts";
import { DIRECTIONS } from "../plugins/game2048/rules.ts";
import { domineeringGame, geometryOfBoard } from "../plugins/domineering/board.ts";
import { board as labBoard } from "../plugins/domineering/seed003.ts";
import { pentagoGame } from "../plugins/pentago/mod.ts";
import {
  keyOf,
  NO_TWIST,
  ONGOING,
  type PentagoState,
  play as pentagoPlay,
  randomPlayout,
  winningCells,
} from "../plugins/pentago/rules.ts";
import { BIT_CELL, CELL_BIT, CELL_HALF, POPCOUNT } from "../plugins/pentago/board.ts";

// ---------------------------------------------------------------------------------------
// Kalah: every form of sowing against the stone-by-stone reference.

type Capture = "nonempty" | "always";

/** The reference move: `sowNaive` on a copy, the turn passed on unless the move earns another. */
const naivePlay = (s: readonly number[], n: number, m: number, always: boolean) => {
  const b = s.slice(), report: SowReport = { captured: 0 };
  const mover = s[2 * n + 2];
  const extra = sowNaive(b, n, mover, m, always, report);
  if (!extra) b[2 * n + 2] = 1 - mover;
  return { next: b, extra, captured: report.captured };
};

const sideEmpty = (s: readonly number[], n: number): boolean => {
  let south = 0, north = 0;
  for (let i = 0; i < n; i++) south += s[i];
  for (let i = n + 1; i <= 2 * n; i++) north += s[i];
  return south === 0 || north === 0;
};

const legalHouses = (s: readonly number[], n: number): number[] => {
  if (sideEmpty(s, n)) return [];
  const base = s[2 * n + 2] === 0 ? 0 : n + 1;
  return [...Array(n).keys()].filter((m) => s[base + m] > 0);
};

/** The houses from the mover's side: its own from its left, then the opponent's. */
const relative = (s: readonly number[], n: number, mover: number): number[] => {
  const south = s.slice(0, n), north = s.slice(n + 1, 2 * n + 1);
  return mover === 0 ? [...south, ...north] : [...north, ...south];
};

/** Checks every form of house `m`'s sowing in position `s` against `sowNaive`. */
const checkSowing = (s: readonly number[], n: number, m: number, always: boolean) => {
  const mover = s[2 * n + 2];
  const own = mover === 0 ? n : 2 * n + 1, theirs = mover === 0 ? 2 * n + 1 : n;
  const { next, extra, captured } = naivePlay(s, n, m, always);
  const label = `n=${n} ${always ? "always" : "nonempty"} [${s}] house ${m}`;

  // The shared sowing, alone and at an offset inside a stack of boards.
  const a = s.slice();
  const ea = sowInPlace(a, n, mover, m, always);
  assertEquals([a.slice(0, 2 * n + 2), ea], [next.slice(0, 2 * n + 2), extra], label);
  const W = 2 * n + 3, off = 2 * W;
  const stack = [...s, ...s, ...s, ...s];
  const es = sowAt(stack, off, n, mover, m, always);
  assertEquals(stack.slice(off, off + 2 * n + 2), next.slice(0, 2 * n + 2), label);
  assertEquals(es, extra, label);
  assertEquals([...stack.slice(0, off), ...stack.slice(off + W)], [...s, ...s, ...s], label);

  // The classification without playing.
  const kind = extra ? MoveKind.Extra : captured > 0 ? MoveKind.Capture : MoveKind.Plain;
  assertEquals(moveKind(s, n, m, always), kind, label);

  // fast.ts's shortcut: the change of util from the mover's side.
  const sign = mover === 0 ? 1 : -1;
  assertEquals(
    utilDelta(stack.slice(0, W), 0, n, mover, m, always),
    sign * (util(next, n) - util(s, n)),
    label,
  );

  // The solver's mover-relative sowing and its forecast.
  const h = Int32Array.from(relative(s, n, mover));
  let mine = 0, opp = 0;
  for (let j = 0; j < n; j++) mine += h[j];
  for (let j = n; j < 2 * n; j++) opp += h[j];
  const told = new Int32Array(3), done = new Int32Array(3);
  const forecast = predictSow(h, 0, n, m, always, told, mine, opp);
  const gain = sowRelative(h, 0, n, m, always, done, mine, opp);
  const over = sideEmpty(next, n);
  const after = relative(next, n, mover);
  const side = (xs: number[], from: number) => xs.slice(from, from + n).reduce((x, y) => x + y, 0);
  assertEquals(
    [gain, ...done],
    [
      (next[own] - s[own]) - (next[theirs] - s[theirs]),
      over ? 2 : extra ? 1 : 0,
      side(after, 0),
      side(after, n),
    ],
    label,
  );
  assertEquals([...h], after, label);
  assertEquals([forecast, ...told], [gain, ...done], label);
};

/** A Kalah board and a position reached by play (the reference's moves). */
const playedArb = fc
  .record({
    pits: fc.integer({ min: 1, max: 8 }),
    stones: fc.integer({ min: 0, max: 6 }),
    always: fc.boolean(),
    picks: fc.array(fc.nat(), { maxLength: 40 }),
  })
  .map(({ pits, stones, always, picks }) => {
    const positions: number[][] = [];
    let s: number[] = [];
    for (let i = 0; i < 2 * pits + 3; i++) s.push(i === pits || i > 2 * pits ? 0 : stones);
    for (const p of picks) {
      const ms = legalHouses(s, pits);
      if (ms.length === 0) break;
      positions.push(s);
      s = naivePlay(s, pits, ms[p % ms.length], always).next;
    }
    positions.push(s);
    return { pits, always, positions };
  });

Deno.test("Kalah: sowAt, moveKind, utilDelta, sowRelative and predictSow follow sowNaive along played games", () => {
  fc.assert(
    fc.property(playedArb, ({ pits, always, positions }) => {
      for (const s of positions) {
        for (const m of legalHouses(s, pits)) checkSowing(s, pits, m, always);
      }
    }),
    { numRuns: 150 },
  );
});

Deno.test("Kalah: the same on boards with full laps, empty houses and either mover", () => {
  // Counts up to 52: three laps of the widest board (8 houses a side, 17 pits a lap).
  const count = fc.oneof(fc.constant(0), fc.nat(6), fc.nat(52));
  const boardArb = fc
    .record({
      n: fc.integer({ min: 1, max: 8 }),
      counts: fc.array(count, { minLength: 18, maxLength: 18 }),
      mover: fc.nat(1),
      always: fc.boolean(),
    })
    .map(({ n, counts, mover, always }) => ({
      n,
      always,
      s: [...counts.slice(0, 2 * n + 2), mover],
    }));
  fc.assert(
    fc.property(boardArb, ({ n, always, s }) => {
      for (const m of legalHouses(s, n)) checkSowing(s, n, m, always);
    }),
    { numRuns: 500 },
  );
});

/** A plain minimax over the protocol (the reference for the fast searches' values). */
const plainMinimax = (
  game: ReturnType<typeof kalahGame>,
  s: readonly number[],
  depth: number,
): number => {
  const ms = game.moves(s);
  if (depth === 0 || ms.length === 0) return game.value(s);
  const vs = ms.map((m) => plainMinimax(game, game.play(s, m), depth - 1));
  return game.toMove(s) === 0 ? Math.max(...vs) : Math.min(...vs);
};

Deno.test("Kalah: seq_mm and seq_ab, one recursion: minimax's value; seq_mm its nodes, seq_ab fewer", () => {
  const arb = fc.record({
    pits: fc.integer({ min: 1, max: 4 }),
    stones: fc.integer({ min: 1, max: 3 }),
    capture: fc.constantFrom<Capture>("nonempty", "always"),
    evalName: fc.constantFrom<"util" | "store">("util", "store"),
    picks: fc.array(fc.nat(), { maxLength: 12 }),
    depth: fc.integer({ min: 0, max: 5 }),
  });
  let pruned = 0;
  fc.assert(
    fc.property(arb, ({ pits, stones, capture, evalName, picks, depth }) => {
      const game = kalahGame({ pits, stones, capture, eval: evalName });
      let s = game.initial();
      for (const p of picks) {
        const ms = game.moves(s);
        if (ms.length === 0) break;
        s = game.play(s, ms[p % ms.length]);
      }
      const expected = plainMinimax(game, s, depth);
      const mm = fastSearch(game, s, { depth }, "mm");
      const ab = fastSearch(game, s, { depth }, "ab");
      assertEquals(mm.value, expected);
      assertEquals(ab.value, expected);
      assertEquals(mm.nodes, minimaxSearch(game, s, { depth }).nodes);
      assert(ab.nodes <= mm.nodes);
      assertEquals(ab.move, mm.move);
      if (ab.nodes < mm.nodes) pruned++;
    }),
    { numRuns: 200 },
  );
  assert(pruned > 0, "alpha-beta never pruned");
});

// ---------------------------------------------------------------------------------------
// 2048: the slide and the evaluations, one implementation and its forms.

/** Seed 001's slide of one line towards its start, as list functions; `score` adds the merges. */
const slideList = (line: readonly number[], score = { merged: 0 }): number[] => {
  const tiles = line.filter((v) => v !== 0), out: number[] = [];
  for (let i = 0; i < tiles.length; i++) {
    if (i + 1 < tiles.length && tiles[i] === tiles[i + 1]) {
      out.push(2 * tiles[i++]);
      score.merged += out[out.length - 1];
    } else out.push(tiles[i]);
  }
  while (out.length < line.length) out.push(0);
  return out;
};

/** Seed 001's slide of a grid (rows of columns) in direction L, R, U or D. */
const slideGrid = (g: number[][], d: number, score = { merged: 0 }): number[][] => {
  const h = g.length, w = g[0].length;
  const cols = () => [...Array(w).keys()].map((x) => g.map((row) => row[x]));
  const fromCols = (cs: number[][]) => [...Array(h).keys()].map((y) => cs.map((c) => c[y]));
  const toStart = (line: number[]) => slideList(line, score);
  const toEnd = (line: number[]) => slideList([...line].reverse(), score).reverse();
  if (d === 0) return g.map(toStart);
  if (d === 1) return g.map(toEnd);
  if (d === 2) return fromCols(cols().map(toStart));
  return fromCols(cols().map(toEnd));
};

const gridArb = (maxRank: number) =>
  fc.record({ w: fc.integer({ min: 1, max: 5 }), h: fc.integer({ min: 1, max: 5 }) }).chain((
    { w, h },
  ) =>
    fc.array(
      fc.array(
        fc.oneof(
          fc.constant(0),
          fc.constant(0),
          fc.integer({ min: 1, max: maxRank }).map((k) => 2 ** k),
        ),
        { minLength: w, maxLength: w },
      ),
      { minLength: h, maxLength: h },
    )
  );

Deno.test("2048: the protocol's slide (slideLines, slideCells, seed001's move, the row tables) is the seed's", () => {
  const out = new Int32Array(2);
  fc.assert(
    fc.property(gridArb(14), (g) => {
      const h = g.length, w = g[0].length, cells = g.flat();
      for (let d = 0; d < 4; d++) {
        const merges = { merged: 0 };
        const want = slideGrid(g, d, merges);
        const changed = want.flat().some((v, i) => v !== cells[i]);
        const copy = cells.slice();
        const score = slideCells(cells, copy, w, h, d);
        assertEquals(copy, want.flat(), `slideCells ${DIRECTIONS[d]}`);
        // The score: the merged tiles, or -1 for a slide that changes nothing.
        assertEquals(score, changed ? merges.merged : -1);
        // The general path's buffers start with anything in them: every cell is written.
        const junk = cells.map(() => 7);
        assertEquals(slideLines(cells, junk, linesOf(w, h, d)), score);
        assertEquals(junk, want.flat(), `slideLines ${DIRECTIONS[d]}`);
        assertEquals(move(game2048(w, h), true, g, slide(DIRECTIONS[d])), want);
        if (w === 4 && h === 4) {
          const [lo, hi] = packCells(cells)!;
          slideBoard(lo, hi, d, out);
          assertEquals(unpackCells(out[0], out[1]), want.flat(), `compact ${DIRECTIONS[d]}`);
        }
      }
    }),
    { numRuns: 400 },
  );
});

Deno.test("2048: the compact board's row tables slide as the protocol, up to the 32768 tile", () => {
  // Few tile sizes, large ones among them: pairs of 16384s that merge into 32768s.
  const big = fc.array(fc.constantFrom(0, 2, 4, 8192, 16384, 16384), {
    minLength: 16,
    maxLength: 16,
  });
  const out = new Int32Array(2);
  fc.assert(
    fc.property(big, (cells) => {
      const [lo, hi] = packCells(cells)!;
      for (let d = 0; d < 4; d++) {
        const want = cells.slice();
        slideCells(cells, want, 4, 4, d);
        slideBoard(lo, hi, d, out);
        assertEquals(unpackCells(out[0], out[1]), want, `direction ${DIRECTIONS[d]}`);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("2048: the gradient's closed forms (gradientValue, gradient4) are seed 001's matrices", () => {
  fc.assert(
    fc.property(gridArb(15), (g) => {
      const h = g.length, w = g[0].length, cells = g.flat();
      const literal = seedValue(game2048(w, h), true, g);
      assertEquals(gradientValue(cells, w, h), literal);
      if (w === 4 && h === 4) assertEquals(gradient4(...packCells(cells)!), literal);
    }),
    { numRuns: 400 },
  );
});

Deno.test("2048: the monotone tables (monotoneValue, monotone4) are lineScore on every row and column", () => {
  fc.assert(
    fc.property(gridArb(17), (g) => {
      const h = g.length, w = g[0].length, cells = g.flat();
      const ranks = Int32Array.from(cells, rankOf);
      let want = 0;
      for (let y = 0; y < h; y++) want += lineScore(ranks, y * w, 1, w);
      for (let x = 0; x < w; x++) want += lineScore(ranks, x, w, h);
      assertAlmostEquals(monotoneValue(cells, w, h), want, 1e-9 * Math.max(1, Math.abs(want)));
      if (w === 4 && h === 4 && cells.every((v) => v <= 32768)) {
        assertAlmostEquals(
          monotone4(...packCells(cells)!),
          want,
          1e-9 * Math.max(1, Math.abs(want)),
        );
      }
    }),
    { numRuns: 400 },
  );
});

const treeValue = (game: ReturnType<typeof createGame>, s: State2048, depth: number) =>
  expectimax(evaluate(game, takeTree(depth, gameTree(game, s))));

Deno.test("2048: two 32768s side by side merge in the fast expectimax as in the tree (bug fixed)", () => {
  // The compact board's tables cannot hold a 65536: such grids take the general path.
  const s = [32768, 32768, 0, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0];
  assertEquals(compactFits(s), undefined);
  assert(compactFits([16384, 16384, ...new Array(14).fill(0)]) !== undefined);
  for (const evaluation of ["gradient", "monotone"] as const) {
    const game = createGame(4, 4, evaluation);
    const tree = treeValue(game, s, 3);
    const fast = fastExpectimax(game, s, { depth: 3, minProbability: 0 });
    assertAlmostEquals(fast.value, tree.value, 1e-9 * Math.abs(tree.value), evaluation);
    assertEquals(fast.move, tree.move, evaluation);
  }
});

// ---------------------------------------------------------------------------------------
// 2048's expectimax: the state of a search is its own.

/** A few positions of a seeded game (slider and computer to move). */
const positions2048 = (w: number, h: number, evaluation: EvalName, count: number) => {
  const game = createGame(w, h, evaluation);
  const rng = makeRng(w * 10 + h);
  const out: State2048[] = [];
  let s = game.initial();
  for (let ply = 0; out.length < count; ply++) {
    const ms = game.toMove(s) === "chance" ? game.chances(s).map((c) => c.move) : game.moves(s);
    if (ms.length === 0) {
      s = game.initial();
      continue;
    }
    if (ply > 20 && ply % 7 === 0) out.push(s);
    s = game.play(s, ms[rng.int(ms.length)]);
  }
  return { game, states: out };
};

const result = (r: { move?: number; value: number; nodes: number; depth: number }) => [
  r.move,
  r.value,
  r.nodes,
  r.depth,
];

Deno.test("2048 expectimax: a search nested in another's stop test leaves both results as alone", () => {
  // Different sizes, evaluations, cut-offs and representations: every setting differs.
  const outer = positions2048(4, 4, "monotone", 3);
  const inner = positions2048(3, 3, "gradient", 3);
  for (let i = 0; i < 3; i++) {
    const so = outer.states[i], si = inner.states[i];
    const outerOpts = { depth: 5, minProbability: 0.001 };
    const innerOpts = { depth: 5, minProbability: 0 };
    const aloneOuter = fastExpectimax(outer.game, so, outerOpts);
    const aloneInner = fastExpectimax(inner.game, si, innerOpts, "general");
    assert(aloneOuter.nodes > 4096, "the outer search must poll its stop test");
    let nested: ReturnType<typeof fastExpectimax> | undefined;
    const both = fastExpectimax(outer.game, so, {
      ...outerOpts,
      shouldStop: () => {
        nested ??= fastExpectimax(inner.game, si, innerOpts, "general");
        return false;
      },
    });
    assertEquals(result(both), result(aloneOuter));
    assertEquals(result(nested!), result(aloneInner));
  }
});

Deno.test("2048 expectimax: two contexts interleave; one context refuses a second search at once", () => {
  const { game, states } = positions2048(4, 4, "gradient", 2);
  const general = positions2048(2, 3, "monotone", 2);
  const a = new ExpectimaxContext(), b = new ExpectimaxContext();
  const alone = [
    a.search(game, states[0], { depth: 5 }),
    b.search(general.game, general.states[0], { depth: 7 }),
  ];
  const got: ReturnType<typeof fastExpectimax>[] = [];
  const first = a.search(game, states[0], {
    depth: 5,
    shouldStop: () => {
      if (got.length === 0) got.push(b.search(general.game, general.states[0], { depth: 7 }));
      assert(a.busy && !b.busy);
      return false;
    },
  });
  assertEquals(result(first), result(alone[0]));
  assertEquals(result(got[0]), result(alone[1]));
  assertThrows(
    () =>
      a.search(game, states[0], { depth: 5, shouldStop: () => (a.search(game, states[1]), false) }),
    Error,
    "already searching",
  );
  assert(!a.busy);
});

// ---------------------------------------------------------------------------------------
// Hashing.

Deno.test("hash: keys separate what they must; hashInts is hashPrefix of the whole; slots spread", () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -1000, max: 1000 })), (xs) => {
      assertEquals(hashInts(xs), hashPrefix(xs, xs.length, xs.length));
      assertEquals(hashPrefix([...xs, 5], xs.length, 3), hashPrefix([...xs, 6], xs.length, 3));
      const k = hashInts(xs);
      assert(Number.isSafeInteger(k) && k >= 0);
    }),
  );
  // Every 2048 grid of a 2x2 board with tiles 0-8 (and both turns): distinct keys; the
  // score does not count.
  const g2 = createGame(2, 2, "gradient");
  const seen = new Map<number, string>();
  const tiles = [0, 2, 4, 8];
  for (let code = 0; code < 4 ** 4 * 2; code++) {
    const s = [0, 1, 2, 3].map((i) => tiles[(code >> (2 * i)) & 3]);
    s.push(code >> 8, 0);
    const k = g2.key!(s);
    assertEquals(seen.get(k), undefined, `key collision at [${s}]`);
    seen.set(k, String(s));
    assertEquals(g2.key!([...s.slice(0, 5), 1234]), k);
  }
  // Every Domineering 4x3 position (free cells and turn): distinct keys.
  const dom = domineeringGame(geometryOfBoard(labBoard(4, 3)));
  const dh = dom.geometry.height;
  const keys = new Map<number, string>();
  const walk = (s: readonly number[]) => {
    const id = `${s.slice(0, dh)}|${s[2 * dh]}`;
    const k = dom.key!(s);
    const known = keys.get(k);
    if (known !== undefined) return assertEquals(known, id);
    keys.set(k, id);
    for (const m of dom.moves(s)) walk(dom.play(s, m));
  };
  walk(dom.initial());
  assert(keys.size > 100);
  // Pentago positions of random games: distinct boards, distinct keys.
  const pg = pentagoGame({});
  const boards = new Map<number, string>();
  const rng = makeRng(11);
  for (let game = 0; game < 40; game++) {
    let s: PentagoState = pg.initial();
    while (s.result === ONGOING) {
      const board = `${s.white0},${s.white1},${s.black0},${s.black1}`;
      const k = keyOf(s);
      assertEquals(boards.get(k) ?? board, board);
      boards.set(k, board);
      const ms = pg.moves(s);
      s = pg.play(s, ms[rng.int(ms.length)]);
    }
  }
  // Slots: 2^16 consecutive keys into 2^16 slots fill about 1 - 1/e of them, as random.
  const used = new Uint8Array(1 << 16);
  for (let k = 0; k < 1 << 16; k++) used[mix32(k, 7) & 0xffff] = 1;
  const fill = used.reduce((a, b) => a + b, 0) / used.length;
  assert(Math.abs(fill - (1 - 1 / Math.E)) < 0.01, `fill ${fill}`);
  // fmix32 is a bijection: no two of 2^16 inputs collide, in the high or the low half.
  const outs = new Set<number>();
  for (let k = 0; k < 1 << 16; k++) outs.add(fmix32(k * 65537));
  assertEquals(outs.size, 1 << 16);
});

// ---------------------------------------------------------------------------------------
// Pentago: the playout's own twist against `play`.

/** A generator that records the integers it draws. */
const recording = (seed: number): Rng & { readonly drawn: number[] } => {
  const rng = makeRng(seed), drawn: number[] = [];
  return {
    drawn,
    next: () => rng.next(),
    int: (n) => {
      const v = rng.int(n);
      drawn.push(v);
      return v;
    },
  };
};

/** The k-th empty cell in the playout's order (top half's bits from the lowest, then the bottom's). */
const kthEmpty = (s: PentagoState, k: number): number => {
  let f = s.free0, half = 0;
  if (k >= POPCOUNT[s.free0]) {
    k -= POPCOUNT[s.free0];
    f = s.free1;
    half = 1;
  }
  while (k-- > 0) f &= f - 1;
  return BIT_CELL[half * 18 + (31 - Math.clz32(f & -f))];
};

Deno.test("Pentago: a random playout ends as play() does with the same draws", () => {
  const pg = pentagoGame({});
  fc.assert(
    fc.property(fc.nat(), fc.array(fc.nat(), { maxLength: 12 }), (seed, picks) => {
      let s: PentagoState = pg.initial();
      for (const p of picks) {
        if (s.result !== ONGOING) break;
        const ms = pg.moves(s);
        s = pg.play(s, ms[p % ms.length]);
      }
      const rng = recording(seed);
      const outcome = randomPlayout(s, rng);
      // Replay the draws: an empty cell, then (unless the placement makes five) a twist.
      let t = s, i = 0;
      while (t.result === ONGOING) {
        assert(i < rng.drawn.length, "play goes on where the playout ended");
        const cell = kthEmpty(t, rng.drawn[i++]);
        const wins = winningCells(t), bit = CELL_BIT[cell];
        const five = CELL_HALF[cell] === 0
          ? (wins % 262144) & bit
          : Math.floor(wins / 262144) & bit;
        t = pentagoPlay(t, five ? NO_TWIST + cell : cell * 8 + rng.drawn[i++]);
      }
      assertEquals(i, rng.drawn.length);
      assertEquals(outcome, t.result);
    }),
    { numRuns: 300 },
  );
});
