/**
 * Seed 003's lab (`plugins/domineering/seed003.ts`): the seed's examples to the character,
 * the node counts of its trees, shapes, and properties of minimax and alpha-beta.
 */
import { assert, assertEquals, assertThrows, fc } from "../testing/deps.ts";
import { Effect, Option, Random } from "../core/deps.ts";
import { mapTree, size, type Tree } from "../core/tree.ts";
import {
  alphabeta,
  alphaDom_vs_LeeSedom,
  alphaDom_vs_RanDom,
  alphamoves,
  alphaprune,
  bestmoves,
  type Board,
  board,
  board4x4_3,
  carpet,
  carpets,
  type Cell,
  compareScore,
  empty,
  fromPicture,
  gametree,
  hatch,
  Heu,
  legalMoves,
  minimax,
  moveLegal,
  opp,
  prune,
  randomBestPlay,
  randomPlay,
  replay,
  runGame,
  score,
  showBoard,
  showBoards,
  showCells,
  showScore,
  valid,
  Win,
} from "../plugins/domineering/seed003.ts";
import { countAlphaBetaTree, countGameTree } from "../plugins/domineering/count.ts";

Deno.test("seed 003: legalMoves H board4x4_3", () => {
  assertEquals(
    showCells(legalMoves("H", board4x4_3)),
    "[(1,2),(2,2),(2,3),(2,4),(3,2),(3,3),(3,4)]",
  );
});

Deno.test("seed 003: legalMoves V board4x4_3", () => {
  assertEquals(
    showCells(legalMoves("V", board4x4_3)),
    "[(1,1),(2,2),(2,3),(3,2),(3,3),(4,1),(4,2),(4,3)]",
  );
});

Deno.test("seed 003: moveLegal board4x4_3 (2,3)", () => {
  assertEquals(
    showBoard(moveLegal(board4x4_3, [2, 3])),
    "Board {turn = V, free = [(1,1),(1,2),(2,2),(2,4),(3,2),(3,4),(4,1),(4,2),(4,3),(4,4)], " +
      "hist = [(2,3),(1,3),(2,1)]}",
  );
});

Deno.test("seed 003: replay board4x4_3", () => {
  assertEquals(
    showBoards(replay(board4x4_3)),
    "[Board {turn = H, free = [(1,1),(1,2),(2,2),(2,3),(2,4),(3,2),(3,3),(3,4),(4,1),(4,2),(4,3)," +
      "(4,4),(1,3),(1,4),(2,1),(3,1)], hist = []},Board {turn = V, free = [(1,1),(1,2),(2,2),(2,3)," +
      "(2,4),(3,2),(3,3),(3,4),(4,1),(4,2),(4,3),(4,4),(1,3),(1,4)], hist = [(2,1)]},Board {turn = H, " +
      "free = [(1,1),(1,2),(2,2),(2,3),(2,4),(3,2),(3,3),(3,4),(4,1),(4,2),(4,3),(4,4)], " +
      "hist = [(1,3),(2,1)]}]",
  );
});

Deno.test("seed 003: score board4x4_3 == Heu 2", () => {
  assertEquals(showScore(score(board4x4_3)), "Heu 2");
  assertEquals(score(board4x4_3), Heu(2));
});

Deno.test("seed 003: bestmoves 4 score (board 3 3)", () => {
  assertEquals(showCells(bestmoves(4, score, board(3, 3))), "[(1,2),(2,2)]");
});

Deno.test("seed 003: bestmoves 4 score (moveLegal (board 3 3) (1,2))", () => {
  assertEquals(showCells(bestmoves(4, score, moveLegal(board(3, 3), [1, 2]))), "[(3,1),(3,2)]");
});

Deno.test("seed 003: the full 4x4 game tree has 65081 nodes", () => {
  assertEquals(size(gametree(board(4, 4))), 65081);
  assertEquals(countGameTree(board(4, 4)), 65081);
});

Deno.test("seed 003: the left-to-right alpha-beta tree of 4x4 has 1362 nodes", () => {
  const t = alphaprune(alphabeta(score, gametree(board(4, 4))));
  assert(t !== undefined);
  assertEquals(size(t), 1362);
  assertEquals(countAlphaBetaTree(board(4, 4)), 1362);
  assertEquals(t.label[1], { tag: "Exact", score: Win("H") }, "H wins 4x4 moving first");
});

Deno.test("the bitboard counters agree with the lab's trees on small shapes", () => {
  const shapes: Board[] = [
    board(3, 3),
    board(2, 5),
    board(3, 4),
    hatch(1),
    carpet(1),
    fromPicture("..#/.##/##."),
    moveLegal(board(3, 4), [1, 2]),
  ];
  for (const b of shapes) {
    const bb = { ...b, hist: [] }; // the counters take the free cells as a fresh board
    assertEquals(countGameTree(bb), size(gametree(bb)), showBoard(bb));
    assertEquals(countAlphaBetaTree(bb), size(alphaprune(alphabeta(score, gametree(bb)))!));
  }
});

Deno.test("Score: Win H < Heu x < Win V, shown as Haskell shows it", () => {
  assert(compareScore(Win("H"), Heu(-1000)) < 0);
  assert(compareScore(Heu(1000), Win("V")) < 0);
  assert(compareScore(Heu(-2), Heu(1)) < 0);
  assertEquals(compareScore(Heu(3), Heu(3)), 0);
  assertEquals(showScore(Heu(-2)), "Heu (-2)");
  assertEquals(showScore(Win("V")), "Win V");
});

Deno.test("score: a win for the opponent when the player to move is stuck", () => {
  // A single row: V never has a move.
  const row = empty([[1, 1], [2, 1], [3, 1]]);
  assertEquals(score({ ...row, turn: "V" }), Win("H"));
  assertEquals(score(row), Heu(0 - 2 + 1)); // #V - #H - sign(H)
});

Deno.test("board, hatch and carpets have the seed's shapes", () => {
  assertEquals(board(2, 3).free, [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [2, 3]]);
  // hatch 1: a 3x3 square without its centre.
  assertEquals(hatch(1).free.length, 8);
  assert(!hatch(1).free.some(([x, y]) => x === 2 && y === 2));
  // hatch 2: 5x5 without (2,2), (2,4), (4,2), (4,4).
  assertEquals(hatch(2).free.length, 21);
  const it = carpets();
  const first = [0, 1, 2, 3].map(() => it.next().value!);
  assertEquals(first.map((c) => c.free.length), [1, 8, 64, 512]);
  assertEquals(first.map((c) => c.turn), ["H", "V", "H", "V"]);
  assertEquals(first[2], carpet(2));
  // carpet 2: the centre 3x3 and the centres of the eight outer blocks are holes.
  const has = (b: Board, x: number, y: number) => b.free.some((c) => c[0] === x && c[1] === y);
  assert(
    !has(first[2], 5, 5) && !has(first[2], 4, 6) && !has(first[2], 2, 2) && !has(first[2], 8, 5),
  );
  assert(has(first[2], 1, 1) && has(first[2], 3, 4) && has(first[2], 9, 9));
  // The seed's Alpha Dom games are played on carpet 2 (shifted to -4..4).
  const shape = (b: Board) => replay(b)[0].free.map(([x, y]) => `${x + 5},${y + 5}`).sort();
  assertEquals(shape(alphaDom_vs_LeeSedom), first[2].free.map(([x, y]) => `${x},${y}`).sort());
  assertEquals(shape(alphaDom_vs_RanDom), shape(alphaDom_vs_LeeSedom));
});

Deno.test("fromPicture reads rows top first and names a bad character", () => {
  const b = fromPicture("#.\n-#");
  assertEquals(b.free, [[1, 2], [2, 1], [2, 2]]);
  assertEquals(fromPicture("#./-#").free, b.free);
  assertThrows(() => fromPicture("#?"), RangeError, "'?'");
});

Deno.test("replay ends at the board and starts from an empty history", () => {
  for (const b of [board4x4_3, alphaDom_vs_LeeSedom, alphaDom_vs_RanDom]) {
    const r = replay(b);
    assertEquals(r[r.length - 1], b);
    assertEquals(r[0].hist, []);
    assertEquals(r.length, b.hist.length + 1);
    // Each step is a legal move of the player to move.
    for (let i = 1; i < r.length; i++) {
      assert(valid(r[i - 1], r[i].hist[0]));
      assertEquals(showBoard(moveLegal(r[i - 1], r[i].hist[0])).length, showBoard(r[i]).length);
      assertEquals(
        new Set(moveLegal(r[i - 1], r[i].hist[0]).free.map(String)),
        new Set(r[i].free.map(String)),
      );
    }
  }
});

Deno.test("the Alpha Dom games end with V stuck: H won", () => {
  for (const b of [alphaDom_vs_LeeSedom, alphaDom_vs_RanDom]) {
    assertEquals(b.turn, "V");
    assertEquals(legalMoves("V", b), []);
    assertEquals(score(b), Win("H"));
  }
});

const shapeOf = <M, V>(t: Tree<M, V>): unknown =>
  [...t.children()].map(([m, c]) => [m, shapeOf(c)]);
const labelsOf = <M, V>(t: Tree<M, V>): V[] => {
  const out = [t.label];
  for (const [, c] of t.children()) out.push(...labelsOf(c));
  return out;
};

Deno.test("minimax keeps the tree: fmap fst (minimax sfn t) == t", () => {
  const t = prune(3, gametree(moveLegal(board(3, 4), [1, 1])));
  const m = minimax(score, t);
  assertEquals(labelsOf(mapTree(([b]) => b, m)), labelsOf(t));
  assertEquals(shapeOf(m), shapeOf(t));
  // Leaves keep their own score; inner nodes take the best child for the mover.
  for (const [, c] of m.children()) {
    const kids = [...c.children()].map(([, k]) => k.label[1]);
    if (kids.length > 0) {
      const best = kids.reduce((
        a,
        b,
      ) => (c.label[0].turn === "V"
        ? (compareScore(b, a) > 0 ? b : a)
        : (compareScore(b, a) < 0 ? b : a))
      );
      assertEquals(c.label[1], best);
    }
  }
});

Deno.test("alphabeta keeps the tree and marks 3x3 at depth 2 as the seed's picture", () => {
  const t = prune(2, gametree(board(3, 3)));
  const a = alphabeta(score, t);
  assertEquals(labelsOf(mapTree(([b]) => b, a)), labelsOf(t));
  const kids = [...a.children()].map(([, c]) => c.label[1]);
  assertEquals(a.label[1], { tag: "Exact", score: Heu(-2) });
  // The seed: "some of the nodes are marked with lower bounds, e.g., ≥Heu 2 and ≥Heu 0",
  // beside a sibling marked Heu (-2).
  assert(kids.some((k) => k?.tag === "Bound" && compareScore(k.score, Heu(2)) === 0));
  assert(kids.some((k) => k?.tag === "Bound" && compareScore(k.score, Heu(0)) === 0));
  assert(kids.some((k) => k?.tag === "Exact" && compareScore(k.score, Heu(-2)) === 0));
  // Pruned nodes carry no score and the full minimax agrees with the root.
  assertEquals(minimax(score, t).label[1], Heu(-2));
});

Deno.test("alphaprune drops exactly the unscored subtrees", () => {
  const a = alphabeta(score, prune(3, gametree(board(3, 3))));
  const scored = labelsOf(a).filter(([, s]) => s !== undefined).length;
  assertEquals(size(alphaprune(a)!), scored);
  assertEquals(alphaprune(mapTree(([b]) => [b, undefined] as const, a)), undefined);
});

/** Random positions on small boards, reached by random legal moves. */
const positions = fc.tuple(
  fc.constantFrom(board(3, 3), board(3, 4), board(4, 3), board(4, 4), hatch(1), board(2, 5)),
  fc.array(fc.nat(), { maxLength: 6 }),
).map(([b, picks]) => {
  let cur = b;
  for (const p of picks) {
    const ms = legalMoves(cur.turn, cur);
    if (ms.length === 0) break;
    cur = moveLegal(cur, ms[p % ms.length]);
  }
  return cur;
});

Deno.test("property: alphamoves d agrees with bestmoves d in value", () => {
  fc.assert(
    fc.property(positions, fc.integer({ min: 1, max: 3 }), (b, d) => {
      const best = bestmoves(d, score, b);
      const alpha = alphamoves(d, score, b);
      assertEquals(alpha.length === 0, best.length === 0);
      const key = (c: Cell) => `${c[0]},${c[1]}`;
      // Every alpha-beta move is optimal, and has the optimal value.
      for (const m of alpha) assert(best.map(key).includes(key(m)), `${key(m)} is not optimal`);
      if (best.length > 0) {
        const root = minimax(score, prune(d, gametree(b))).label[1];
        const valueOf = (m: Cell) =>
          minimax(score, prune(d - 1, gametree(moveLegal(b, m)))).label[1];
        for (const m of alpha) assertEquals(compareScore(valueOf(m), root), 0);
        const abRoot = alphabeta(score, prune(d, gametree(b))).label[1];
        assertEquals(abRoot, { tag: "Exact", score: root });
      }
    }),
    { numRuns: 60 },
  );
});

Deno.test("property: a Bound is reached by its player, an Exact is the minimax value", () => {
  fc.assert(
    fc.property(positions, fc.integer({ min: 1, max: 3 }), (b, d) => {
      const t = prune(d, gametree(b));
      const walk = (a: ReturnType<typeof alphabeta<Cell>>, m: ReturnType<typeof minimax<Cell>>) => {
        const [bd, ab] = a.label;
        const v = m.label[1];
        if (ab?.tag === "Exact") assertEquals(compareScore(ab.score, v), 0);
        if (ab?.tag === "Bound") {
          // At least as good for the player to move there.
          assert(bd.turn === "V" ? compareScore(v, ab.score) >= 0 : compareScore(v, ab.score) <= 0);
        }
        const ak = [...a.children()], mk = [...m.children()];
        ak.forEach(([, c], i) => walk(c, mk[i][1]));
      };
      walk(alphabeta(score, t), minimax(score, t));
    }),
    { numRuns: 40 },
  );
});

Deno.test("runGame plays to the end, repeatably from a seed", () => {
  const play = (seed: number) =>
    Effect.runSync(
      runGame(randomPlay, randomBestPlay(2, score), board(4, 4)).pipe(Random.withSeed(seed)),
    );
  const a = play(3), b = play(3);
  assertEquals(a, b);
  assertEquals(legalMoves(a.turn, a), []);
  assertEquals(replay(a)[0].free.length, 16);
});

Deno.test("runGame stops when a player gives up or plays an illegal move", () => {
  const giveUp = () => Effect.succeed(Option.none<Cell>());
  const start = board(4, 4);
  const afterOne = Effect.runSync(
    runGame((b) => Effect.succeed(Option.some(legalMoves(b.turn, b)[0])), giveUp, start),
  );
  assertEquals(afterOne.hist.length, 1);
  assertEquals(afterOne.turn, "V");
  const illegal = Effect.runSync(
    runGame(() => Effect.succeed(Option.some<Cell>([4, 1])), giveUp, start),
  );
  assertEquals(illegal, start, "(4,1) is not a horizontal move on 4x4: the game stops at once");
});

Deno.test("randomBestPlay picks only optimal moves; randomPlay only legal ones", () => {
  const b = board(3, 3);
  const best = bestmoves(3, score, b).map(String);
  for (let seed = 0; seed < 10; seed++) {
    const m = Effect.runSync(randomBestPlay(3, score)(b).pipe(Random.withSeed(seed)));
    assert(Option.isSome(m) && best.includes(String(m.value)));
    const r = Effect.runSync(randomPlay(b).pipe(Random.withSeed(seed)));
    assert(Option.isSome(r) && valid(b, r.value));
  }
  const over = { ...board(1, 1), turn: opp("H") } as Board;
  assertEquals(Effect.runSync(randomPlay(over)), Option.none());
});
