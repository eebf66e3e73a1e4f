/**
 * The lazy tree and the seeds' compositions: seed 000's strategy properties (Nim's xor
 * rule, alpha-beta = minimax on random trees and Nim, bounded alpha-beta optimal for
 * Nim, pruning on static test trees), takeTree / size / annotate / bestMoves.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import {
  alphabeta,
  annotate,
  bestMoves,
  type Branch,
  evaluate,
  expectimax,
  gameTree,
  height,
  mapTree,
  minimax,
  node,
  type Scored,
  scoredTree,
  showTree,
  size,
  takeTree,
  type Tree,
} from "../core/tree.ts";
import { nimGame } from "../plugins/nim/mod.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { raceGame } from "./fixtures/race.ts";
import { type ToMove, WIN } from "../core/game.ts";

const xor = (hs: readonly number[]) => hs.reduce((a, b) => a ^ b, 0);
const heapsArb = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 })
  .filter((hs) => hs.reduce((a, b) => a + b, 0) <= 8);

Deno.test("seed 000: minimax picks a winning strategy for Nim (the xor rule)", () => {
  fc.assert(
    fc.property(heapsArb, (heaps) => {
      const game = nimGame({ heaps, misere: false });
      const s = game.initial();
      const r = minimax(scoredTree(game, s));
      if (heaps.every((h) => h === 0)) return r.move === undefined;
      // The first player wins exactly when the xor of the heaps is not zero...
      assertEquals(r.value > 0, xor(heaps) !== 0);
      // ...and then the chosen move leaves heaps whose xor is zero.
      if (xor(heaps) !== 0) assertEquals(xor(game.play(s, r.move!.move).slice(0, -1)), 0);
      return true;
    }),
    { numRuns: 100 },
  );
});

/** Random game trees with alternating (or repeated) movers and random leaf values. */
const treeArb: fc.Arbitrary<Tree<number, Scored>> = fc.letrec<{ t: Tree<number, Scored> }>(
  (tie) => ({
    t: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.record({ v: fc.integer({ min: -20, max: 20 }), p: fc.constantFrom<ToMove>(0, 1) })
        .map(({ v, p }) => node<number, Scored>({ toMove: p, value: v })),
      fc.record({
        v: fc.integer({ min: -20, max: 20 }),
        p: fc.constantFrom<ToMove>(0, 1),
        kids: fc.array(tie("t"), { minLength: 1, maxLength: 4 }),
      }).map(({ v, p, kids }) =>
        node<number, Scored>(
          { toMove: p, value: v },
          () => kids.map((k, i): Branch<number, Scored> => [i, k]),
        )
      ),
    ),
  }),
).t;

Deno.test("seed 000: alpha-beta's solution equals minimax's on random trees", () => {
  fc.assert(
    fc.property(treeArb, (t) => {
      const mm = minimax(t), ab = alphabeta(t);
      assertEquals(ab.value, mm.value);
      if (ab.move !== undefined) {
        // The move alpha-beta picks has the minimax value.
        const child = [...t.children()].find(([m]) => m === ab.move)![1];
        assertEquals(minimax(child).value, mm.value);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("seed 000: alpha-beta's solution equals minimax's for Nim", () => {
  fc.assert(
    fc.property(heapsArb, fc.boolean(), (heaps, misere) => {
      const game = nimGame({ heaps, misere });
      const t = scoredTree(game, game.initial());
      assertEquals(alphabeta(t).value, minimax(t).value);
    }),
    { numRuns: 100 },
  );
});

Deno.test("seed 000: bounded alpha-beta is optimal for Nim", () => {
  fc.assert(
    fc.property(heapsArb, (heaps) => {
      const game = nimGame({ heaps, misere: false });
      const stones = heaps.reduce((a, b) => a + b, 0);
      // A cut at the number of stones never cuts a line short: still optimal.
      const r = alphabeta(evaluate(game, takeTree(stones, gameTree(game, game.initial()))));
      assertEquals(r.value > 0, xor(heaps) !== 0);
    }),
    { numRuns: 100 },
  );
});

/** Wraps a tree so that every generated node is recorded (to see what was pruned). */
const spy = <M, V>(t: Tree<M, V>, seen: V[]): Tree<M, V> =>
  node(t.label, function* () {
    for (const [m, c] of t.children()) {
      seen.push(c.label);
      yield [m, spy(c, seen)] as Branch<M, V>;
    }
  });

const leaf = (v: number, p: ToMove = 0) => node<number, Scored>({ toMove: p, value: v });
const inner = (p: ToMove, kids: Tree<number, Scored>[]) =>
  node<number, Scored>({ toMove: p, value: 0 }, () => kids.map((k, i) => [i, k] as const));

Deno.test("seed 000: pruning is done correctly on static test trees", () => {
  // The seed's testTree, with the root maximizing and its children minimizing.
  const seedTree = inner(0, [inner(1, [leaf(5), leaf(6), leaf(7)]), inner(1, [leaf(10)])]);
  const seen1: Scored[] = [];
  assertEquals(alphabeta(spy(seedTree, seen1)), { move: 1, value: 10 });
  assertEquals(seen1.length, 6, "nothing can be pruned in the seed's tree");

  // A classic cut-off: after the first child is worth 5, the second child's first leaf (2)
  // already refutes it, so its remaining leaves (9, 8) are never generated.
  const cutTree = inner(0, [inner(1, [leaf(5), leaf(7)]), inner(1, [leaf(2), leaf(9), leaf(8)])]);
  const seen2: Scored[] = [];
  assertEquals(alphabeta(spy(cutTree, seen2)), { move: 0, value: 5 });
  assertEquals(seen2.map((l) => l.value), [0, 5, 7, 0, 2, 9]);
  assertEquals(minimax(cutTree), { move: 0, value: 5 });
});

Deno.test("takeTree, size and height on tic-tac-toe", () => {
  const g = ticTacToeGame();
  const t = gameTree(g, g.initial());
  assertEquals(size(takeTree(0, t)), 1);
  assertEquals(size(takeTree(1, t)), 10);
  assertEquals(size(takeTree(2, t)), 1 + 9 + 72);
  assertEquals(size(t), 549946, "the full tic-tac-toe game tree");
  assertEquals(height(takeTree(3, t)), 3);
  assertEquals(alphabeta(scoredTree(g, g.initial())).value, 0, "tic-tac-toe is a draw");
});

Deno.test("annotate keeps the tree and labels minimax values (seed 003)", () => {
  const g = nimGame({ heaps: [1, 2], misere: false });
  const t = takeTree(3, gameTree(g, g.initial()));
  const a = annotate((s) => g.value(s), (s) => g.toMove(s), t);
  const strip = (
    x: Tree<unknown, unknown>,
  ): unknown => [x.label, [...x.children()].map(([m, c]) => [m, strip(c)])];
  assertEquals(strip(mapTree((l) => l.label, a)), strip(t));
  assertEquals(a.label.minimax, minimax(evaluate(g, t)).value);
});

Deno.test("bestMoves returns every optimal move (seed 003's bestmoves)", () => {
  const g = ticTacToeGame();
  // X: a1, O: b2, X: c3 -> O must not take a corner... every move is checked against minimax.
  let s = g.initial();
  for (const m of [6, 4, 2]) s = g.play(s, m);
  const t = scoredTree(g, s);
  const best = bestMoves(t).map((e) => e.move);
  const values = g.moves(s).map((m) => minimax(scoredTree(g, g.play(s, m))).value);
  const target = Math.min(...values);
  assertEquals(best, g.moves(s).filter((_, i) => values[i] === target));
  assert(best.length > 0 && best.length < g.moves(s).length);
});

Deno.test("expectimax weighs chance outcomes (seed 001)", () => {
  const g = raceGame(2);
  // After A steps 1, chance: +0 (0.7) leaves A at 1, +1 (0.3) reaches the goal.
  const s = g.play(g.initial(), 1);
  const r = expectimax(evaluate(g, takeTree(1, gameTree(g, s))));
  assertEquals(r.move, undefined, "no move is chosen at a chance node");
  assertEquals(r.value, 0.7 * 1 + 0.3 * WIN);
  // Minimax treats chance as the adversary: the worse outcome.
  assertEquals(minimax(evaluate(g, takeTree(1, gameTree(g, s)))).value, 1);
});

Deno.test("showTree draws branches as move => label", () => {
  const t = inner(0, [leaf(1), inner(1, [leaf(2)])]);
  assertEquals(
    showTree(t, (l) => String(l.value)),
    "0\n|\n+- 0 => 1\n|\n`- 1 => 0\n   |\n   `- 0 => 2\n",
  );
});
