/**
 * Searching 2048: seed 001's minimax and expectimax over the depth-cut lazy tree on the
 * Figure 1 positions (checked against a direct recursion written from the seed's text),
 * the compact board against the plain one, the fast expectimax against the tree
 * expectimax (exactly, with no probability cut-off), its budgets, and seeded replays.
 */
import { assert, assertAlmostEquals, assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE, pickChance } from "../core/game.ts";
import { replay, runGame } from "../app/match.ts";
import { randomAgent, searchAgent } from "../app/players/agents.ts";
import { makeRng } from "../core/rng.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { evaluate, expectimax, gameTree, minimax, size, takeTree } from "../core/tree.ts";
import {
  canMove4,
  distinctTiles4,
  empty4,
  gradient4,
  monotone4,
  packCells,
  slideBoard,
  transposeHi,
  transposeLo,
  unpackCells,
} from "../plugins/game2048/board.ts";
import { expectimax2048, fastExpectimax } from "../plugins/game2048/expectimax.ts";
import {
  canSlide,
  createGame,
  type EvalName,
  gradientValue,
  monotoneValue,
  slideCells,
  type State2048,
} from "../plugins/game2048/rules.ts";
import {
  expectimaxDecision,
  game2048,
  type Grid,
  minimaxDecision,
  move,
  moves,
  showAction,
  toState,
  value,
} from "../plugins/game2048/seed001.ts";
import plugin from "../plugins/game2048/mod.ts";
import { testrunAgent } from "../plugins/game2048/scripts/testrun.ts";

const G44 = game2048(4, 4);
const FIG1 = {
  // Figure 1's boards 2, 4 and 6: the slider to move.
  b2: [[8, 32, 64, 512], [0, 2, 2, 32], [0, 0, 0, 8], [0, 0, 0, 2]],
  b4: [[8, 32, 64, 512], [4, 32, 0, 0], [8, 0, 0, 2], [2, 0, 0, 0]],
  b6: [[8, 64, 64, 512], [4, 0, 2, 2], [8, 0, 0, 0], [2, 0, 0, 0]],
  // Board 3: the computer to move.
  b3: [[8, 32, 64, 512], [4, 32, 0, 0], [8, 0, 0, 0], [2, 0, 0, 0]],
} as const;

/** Seed 001's algorithms written directly from its text, on its own functions. */
const seedSearch = (
  kind: "minimax" | "expectimax",
  g: typeof G44,
  depth: number,
  p: boolean,
  s: Grid,
): number => {
  const ms = moves(g, p, s);
  if (depth === 0 || ms.length === 0) return value(g, p, s);
  const vs = ms.map(([w, m]) => [w, seedSearch(kind, g, depth - 1, !p, move(g, p, s, m))]);
  if (p) return Math.max(...vs.map(([, v]) => v));
  if (kind === "minimax") return Math.min(...vs.map(([, v]) => v));
  return vs.reduce((a, [w, v]) => a + w * v, 0);
};

const grid = (b: readonly (readonly number[])[]): Grid => b.map((r) => r.slice());

Deno.test("seed 001 minimax on Figure 1's positions: the tree, the seed's recursion, the core", () => {
  const game = createGame(4, 4, "gradient");
  for (const [name, b] of Object.entries(FIG1)) {
    const p = name !== "b3";
    for (const depth of [1, 2, 3]) {
      const [m, v] = minimaxDecision(G44, depth, p, grid(b));
      assertEquals(v, seedSearch("minimax", G44, depth, p, grid(b)), `${name} depth ${depth}`);
      assertEquals(v, minimaxSearch(game, toState(grid(b), p), { depth }).value);
      if (p) assert(m !== undefined && m.tag === "Slide");
      else assert(m === undefined || m.tag === "NewTile", "the computer's minimizing tile");
    }
  }
  // Depth 1 from board 2: the slide with the largest gradient value after it.
  const [m1] = minimaxDecision(G44, 1, true, grid(FIG1.b2));
  const after = moves(G44, true, grid(FIG1.b2)).map(([, a]) =>
    [showAction(a), value(G44, false, move(G44, true, grid(FIG1.b2), a))] as const
  );
  const best = Math.max(...after.map(([, v]) => v));
  assertEquals(showAction(m1!), after.find(([, v]) => v === best)![0]);
});

Deno.test("seed 001 expectimax on Figure 1's positions: the tree and the seed's recursion", () => {
  for (const [name, b] of Object.entries(FIG1)) {
    const p = name !== "b3";
    for (const depth of [1, 2, 3]) {
      const [m, v] = expectimaxDecision(G44, depth, p, grid(b));
      assertAlmostEquals(v, seedSearch("expectimax", G44, depth, p, grid(b)), 1e-9);
      // The computer's node chooses no move.
      assertEquals(m === undefined, !p, `${name} depth ${depth}`);
    }
  }
});

Deno.test("the depth-cut tree of Figure 1's board 2 has the seed's shape", () => {
  const game = createGame(4, 4, "gradient");
  const s = toState(grid(FIG1.b2), true);
  // L, R and D are legal (U moves nothing); after each, n empty cells give 2n tiles.
  assertEquals(game.moves(s).map((m) => game.formatMove(s, m)), ["L", "R", "D"]);
  const t1 = takeTree(1, gameTree(game, s));
  assertEquals(size(t1), 1 + 3);
  const t2 = takeTree(2, gameTree(game, s));
  let expected = 1;
  for (const m of game.moves(s)) expected += 1 + game.chances(game.play(s, m)).length;
  assertEquals(size(t2), expected);
  const d = minimax(evaluate(game, t2));
  assert(d.move !== undefined && d.move.p === 1 / 3);
});

// ---------------------------------------------------------------------------------------
// The compact board against the plain one.

const boards = fc.array(
  fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 14 }).map((k) => 2 ** k)),
  { minLength: 16, maxLength: 16 },
);

Deno.test("property: the compact board slides, evaluates and counts as the plain one", () => {
  const out = new Int32Array(2);
  fc.assert(
    fc.property(boards, (cells) => {
      const [lo, hi] = packCells(cells)!;
      assertEquals(unpackCells(lo, hi), cells);
      for (let d = 0; d < 4; d++) {
        slideBoard(lo, hi, d, out);
        const plain = cells.slice();
        const gained = slideCells(cells, plain, 4, 4, d);
        assertEquals(unpackCells(out[0], out[1]), plain, `direction ${d}`);
        assertEquals(out[0] !== lo || out[1] !== hi, gained >= 0);
      }
      assertEquals(gradient4(lo, hi), gradientValue(cells, 4, 4));
      assertAlmostEquals(monotone4(lo, hi), monotoneValue(cells, 4, 4), 1e-6);
      assertEquals(empty4(lo, hi), cells.filter((v) => v === 0).length);
      assertEquals(canMove4(lo, hi), canSlide(cells, 4, 4));
      assertEquals(distinctTiles4(lo, hi), new Set(cells.filter((v) => v > 0)).size);
      // Transposing twice is the identity; once, it swaps rows and columns.
      const tl = transposeLo(lo, hi), th = transposeHi(lo, hi);
      assertEquals([transposeLo(tl, th), transposeHi(tl, th)], [lo, hi]);
      const t = unpackCells(tl, th);
      for (let y = 0; y < 4; y++) {
        for (let x = 0; x < 4; x++) assertEquals(t[x * 4 + y], cells[y * 4 + x]);
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("the compact board does not merge two 32768s; packCells refuses larger tiles", () => {
  const out = new Int32Array(2);
  const cells = [32768, 32768, 0, 0, ...new Array(12).fill(0)];
  const [lo, hi] = packCells(cells)!;
  slideBoard(lo, hi, 0, out);
  assertEquals([out[0], out[1]], [lo, hi]);
  assertEquals(packCells([65536, ...new Array(15).fill(0)]), undefined);
  assertEquals(packCells([6, ...new Array(15).fill(0)]), undefined);
});

// ---------------------------------------------------------------------------------------
// The fast expectimax against the tree.

/** Positions of a seeded random playout, both slider and computer nodes. */
const positions = (w: number, h: number, evaluation: EvalName, seed: number, count: number) => {
  const game = createGame(w, h, evaluation);
  const rng = makeRng(seed);
  const out: State2048[] = [];
  let s = game.initial();
  for (let ply = 0; out.length < count; ply++) {
    if (game.toMove(s) !== CHANCE && game.moves(s).length === 0) s = game.initial();
    if (ply % 3 === 0) out.push(s);
    const ms = game.toMove(s) === CHANCE
      ? [pickChance(game.chances(s), rng.next())]
      : game.moves(s);
    s = game.play(s, ms[rng.int(ms.length)]);
  }
  return { game, states: out };
};

const treeExpectimax = (game: ReturnType<typeof createGame>, s: State2048, depth: number) =>
  expectimax(evaluate(game, takeTree(depth, gameTree(game, s))));

Deno.test("the fast expectimax equals seed 001's tree expectimax (no cut-off)", () => {
  const cases: [number, number, EvalName, number][] = [
    [2, 2, "gradient", 6],
    [3, 3, "gradient", 3],
    [3, 2, "monotone", 4],
    [4, 4, "gradient", 3],
    [4, 4, "monotone", 3],
    [2, 3, "monotone", 5],
  ];
  for (const [w, h, evaluation, depth] of cases) {
    const { game, states } = positions(w, h, evaluation, w * 100 + h, 12);
    for (const s of states) {
      const tree = treeExpectimax(game, s, depth);
      for (const representation of ["auto", "general"] as const) {
        const fast = fastExpectimax(game, s, { depth, minProbability: 0 }, representation);
        const label = `${w}x${h} ${evaluation} depth ${depth} ${representation}`;
        assertAlmostEquals(fast.value, tree.value, 1e-9 * Math.max(1, Math.abs(tree.value)), label);
        assertEquals(fast.move, tree.move, label);
        assertEquals(fast.depth, depth);
      }
    }
  }
});

Deno.test("the fast expectimax takes the general path for tiles beyond 32768", () => {
  const game = createGame(4, 4, "gradient");
  const s = toState([[65536, 2, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], true);
  const tree = treeExpectimax(game, s, 3);
  const fast = fastExpectimax(game, s, { depth: 3, minProbability: 0 });
  assertAlmostEquals(fast.value, tree.value, 1e-9 * Math.abs(tree.value));
  assertEquals(fast.move, tree.move);
});

Deno.test("the probability cut-off prunes and still plays a legal move", () => {
  const { game, states } = positions(4, 4, "monotone", 7, 30);
  for (const s of states.filter((x) => game.toMove(x) === 0 && game.moves(x).length > 0)) {
    const full = fastExpectimax(game, s, { depth: 5, minProbability: 0 });
    const cut = fastExpectimax(game, s, { depth: 5, minProbability: 0.01 });
    assert(cut.nodes <= full.nodes);
    assert(game.moves(s).includes(cut.move!));
  }
});

Deno.test("a time budget deepens by slides, a spent one after the first; no budget uses the board's depth", () => {
  const game = createGame(4, 4, "monotone");
  const s = toState([[2, 4, 8, 16], [256, 128, 64, 32], [512, 1024, 2, 4], [0, 0, 8, 2]], true);
  const seen: number[] = [];
  const r = fastExpectimax(game, s, { timeMs: 30, onIteration: (it) => seen.push(it.depth) });
  assert(seen.length >= 1 && seen.every((d, i) => d === 2 * i + 1), `iterations ${seen}`);
  assertEquals(r.depth, seen.at(-1));
  // No time left once the first iteration ends: no second one (a count, not a clock).
  const spent: number[] = [];
  fastExpectimax(game, s, { timeMs: 0, onIteration: (it) => spent.push(it.depth) });
  assertEquals(spent, [1]);
  const auto = fastExpectimax(game, s, {});
  assert(auto.depth >= 3 && auto.depth % 2 === 1);
  // An interruption before the first iteration ends still gives a legal move.
  const stopped = fastExpectimax(game, s, { depth: 9, shouldStop: () => true });
  assert(game.moves(s).includes(stopped.move!));
});

Deno.test("the plugin's expectimax strategy is the fast one; other games get the core's", async () => {
  assertEquals(plugin.strategies?.expectimax, expectimax2048);
  const game = createGame(3, 3, "gradient");
  const s = positions(3, 3, "gradient", 3, 4).states[3];
  const a = expectimax2048.search(game, s, { depth: 3, minProbability: 0 });
  const b = alphabetaSearch(game, s, { depth: 3, tt: false }, "expect");
  assertAlmostEquals(a.value, b.value, 1e-9 * Math.max(1, Math.abs(b.value)));
  const nim = (await import("../plugins/nim/mod.ts")).default.create({
    heaps: [1, 2],
    misere: false,
  });
  const r = expectimax2048.search(nim, nim.initial(), { depth: 4 });
  assertEquals(nim.formatMove(nim.initial(), r.move!), "2-1");
});

Deno.test("a seeded game replays: same seed, same game; the transcript replays to the end", () => {
  const game = createGame(3, 3, "monotone");
  const strategy = plugin.strategies!.expectimax;
  const run = () =>
    Effect.runSync(
      runGame(game, [searchAgent(strategy, { depth: 3 }), randomAgent()], { seed: 42 }),
    );
  const a = run(), b = run();
  // Everything but the times (the player's and its search's).
  const untimed = (t: typeof a.transcript) =>
    t.moves.map(({ ms: _ms, search, ...m }) => ({ ...m, search: { ...search, timeMs: 0 } }));
  assertEquals(untimed(a.transcript), untimed(b.transcript));
  assertEquals(a.transcript.result.reason, "end");
  assertEquals(replay(game, a.transcript), a.final);
  assertEquals(a.transcript.stats?.score, a.final[10]);
  const other = Effect.runSync(
    runGame(game, [searchAgent(strategy, { depth: 3 }), randomAgent()], { seed: 43 }),
  );
  assert(JSON.stringify(untimed(other.transcript)) !== JSON.stringify(untimed(a.transcript)));
});

Deno.test("regression: testrun minimax 4 4 4 --seed 7 and expectimax 4 4 4 --seed 7", () => {
  // The games plugins/game2048/README.md shows, with the fast searches (the tree's moves, sooner).
  const game = createGame(4, 4, "gradient");
  const play = (kind: "minimax" | "expectimax") =>
    Effect.runSync(
      runGame(game, [testrunAgent(kind, 4, true), randomAgent()], { seed: 7 }),
    ).transcript;
  const mm = play("minimax");
  assertEquals(mm.moves.filter((m) => m.by === 0).length, 594);
  assertEquals([mm.stats?.score, mm.stats?.maxTile], [8588, 512]);
  const ex = play("expectimax");
  assertEquals(ex.moves.filter((m) => m.by === 0).length, 1497);
  assertEquals([ex.stats?.score, ex.stats?.maxTile], [28164, 2048]);
});

Deno.test("rescue: a crowded board the solver does not play (or lets go) is searched the rescue's depth", () => {
  const game = createGame(4, 4, "monotone");
  const crowded = toState(
    [[2, 4, 8, 16], [256, 128, 64, 32], [512, 1024, 2, 4], [0, 0, 8, 2]],
    true,
  );
  const open = toState([[2, 4, 8, 16], [256, 128, 64, 32], [0, 0, 0, 0], [0, 0, 0, 2]], true);
  const params = { rescue: 5, crowd: 2 };
  assertEquals(fastExpectimax(game, crowded, { depth: 3, params }).depth, 5);
  assertEquals(fastExpectimax(game, open, { depth: 3, params }).depth, 3);
  assertEquals(fastExpectimax(game, crowded, { depth: 3, params: { rescue: 5 } }).depth, 3);
  assertEquals(fastExpectimax(game, crowded, { depth: 3 }).depth, 3);
  // A 256 beside the chain's tail: the solver's slide merges it in place (collapseSlide),
  // and the search keeps the spec's depth however crowded the board.
  const goal = toState(
    [[16384, 0, 0, 0], [8192, 0, 4, 0], [4096, 256, 256, 2], [2048, 512, 4, 4]],
    true,
  );
  const near = { rescue: 5, crowd: 5, gaps: 1 };
  const solved = fastExpectimax(game, goal, {
    depth: 3,
    params: { ...near, endgame: 10, through: 1 },
  });
  assertEquals([solved.move, solved.depth], [0, 3]);
  assertEquals(fastExpectimax(game, goal, { depth: 3, params: { ...near, endgame: 0 } }).depth, 5);
  // The solver's slide let go below its chance (`,letgo`): the search chooses, crowded.
  const free = { ...near, endgame: 10, through: 1, letgo: 1 };
  assertEquals(fastExpectimax(game, goal, { depth: 3, params: free }).depth, 5);
});
