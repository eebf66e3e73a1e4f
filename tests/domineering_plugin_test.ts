/**
 * The Domineering plugin (`plugins/domineering/mod.ts`, `board.ts`): options, shapes,
 * notation, the text picture, and agreement of the bitboard game with seed 003's lab.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Effect, Exit, Result } from "../core/deps.ts";
import { WIN } from "../core/game.ts";
import { makeGame, optionHelp } from "../core/plugin.ts";
import { bestMoves, gameTree, scoredTree, takeTree } from "../core/tree.ts";
import domineering, { parseShape } from "../plugins/domineering/mod.ts";
import {
  cellOf,
  type DomineeringGame,
  type DomState,
  geometryOfBoard,
  indexOf,
  initialState,
} from "../plugins/domineering/board.ts";
import {
  alphaDom_vs_LeeSedom,
  bestmoves,
  type Board,
  board,
  type Cell,
  empty,
  legalMoves,
  moveLegal,
  score,
  scoreRank,
  showCells,
} from "../plugins/domineering/seed003.ts";

const make = (options: Record<string, unknown> = {}): DomineeringGame =>
  Effect.runSync(makeGame(domineering, options)).game as unknown as DomineeringGame;

const optionError = (options: Record<string, unknown>): string => {
  const exit = Effect.runSyncExit(makeGame(domineering, options));
  assert(Exit.isFailure(exit), `expected ${JSON.stringify(options)} to be refused`);
  return String(exit.cause);
};

Deno.test("options: defaults, rectangles, shapes and the first player", () => {
  const g = make();
  assertEquals([g.geometry.width, g.geometry.height], [6, 6]);
  assertEquals(g.players, ["V", "H"]);
  assertEquals(g.toMove(g.initial()), 1, "H (player 1) moves first");
  assertEquals(make({ board: "8x5" }).geometry.width, 8);
  assertEquals(make({ board: 7 }).geometry.height, 7, "--board 7 is 7x7");
  assertEquals(make({ first: "V" }).toMove(make({ first: "V" }).initial()), 0);
  const c1 = make({ shape: "carpet:1" });
  assertEquals(c1.toMove(c1.initial()), 0, "V starts on odd carpets");
  assertEquals(c1.geometry.rows, [7, 5, 7]);
  assertEquals(make({ shape: "carpet:1", first: "H" }).toMove(c1.initial()), 0);
  const hatch = make({ shape: "hatch:2" });
  assertEquals(hatch.geometry.rows.map((r) => r.toString(2)), [
    "11111",
    "10101",
    "11111",
    "10101",
    "11111",
  ]);
  assertEquals(make({ shape: "picture:.-/.." }).geometry.rows, [3, 1]);
  // A cell list from the command line arrives split at its commas.
  const cells = make({ shape: ["cells:(1", "1)", "(2", "1)", "(2", "2)"] });
  assertEquals(cells.geometry.rows, [3, 2]);
  assertEquals(optionHelp(domineering).map((o) => o.name), ["board", "shape", "first"]);
});

Deno.test("options: a bad value gets one message naming the option", () => {
  assertStringIncludes(optionError({ board: "0x3" }), "--board");
  assertStringIncludes(optionError({ board: "big" }), "WxH");
  assertStringIncludes(optionError({ board: "40x2" }), "1 to 30");
  assertStringIncludes(optionError({ shape: "hatch:x" }), "--shape");
  assertStringIncludes(optionError({ shape: "circle" }), "unknown shape");
  assertStringIncludes(optionError({ shape: "carpet:5" }), "carpet:N takes N from 0 to 3");
  assertStringIncludes(optionError({ shape: "picture:.?" }), "'?'");
  assertStringIncludes(optionError({ first: "X" }), "--first");
  assertStringIncludes(optionError({ size: 3 }), "--size: unknown option");
});

Deno.test("shapes list their cells in the lab's order", () => {
  assertEquals(parseShape("rect", "2x2").cells, [[1, 1], [1, 2], [2, 1], [2, 2]]);
  assertEquals(parseShape("rect:3x1").cells.length, 3);
  assertEquals(parseShape("cells:1:1 2:1").cells, [[1, 1], [2, 1]]);
});

Deno.test("notation: b3 on ordinary boards, x:y elsewhere; errors say why", () => {
  const g = make({ board: "4x4" });
  const s = g.initial();
  const m = indexOf(g.geometry, [2, 3]);
  assertEquals(g.formatMove(s, m), "b3");
  for (const text of ["b3", "B3", "(2,3)", "2,3", "2 3", "2:3", " ( 2 , 3 ) "]) {
    const r = g.parseMove(s, text);
    assert(Result.isSuccess(r) && r.success === m, text);
  }
  const err = (text: string, st: DomState = s) => {
    const r = g.parseMove(st, text);
    assert(Result.isFailure(r), text);
    return r.failure;
  };
  assertStringIncludes(err("zz"), "lower-left cell");
  assertStringIncludes(err("e1"), "not a cell of the board");
  assertStringIncludes(err("d1"), "no cell right of it");
  const after = g.play(s, indexOf(g.geometry, [1, 1])); // H covers a1 b1; V to move
  assertStringIncludes(err("a1", after), "is covered");
  assertStringIncludes(err("b4", after), "no cell above it");
  const v = g.play(after, indexOf(g.geometry, [3, 1])); // V covers c1 c2
  assertStringIncludes(err("b2", v), "the cell right of it is covered");
  // Boards with other coordinates write x:y.
  const geo = geometryOfBoard(alphaDom_vs_LeeSedom);
  assert(!geo.letters);
});

Deno.test("render: a text picture with both players' dominoes", () => {
  const g = make({ board: "3x2" });
  let s = g.initial();
  s = g.play(s, indexOf(g.geometry, [1, 1])); // H: a1 b1
  s = g.play(s, indexOf(g.geometry, [3, 1])); // V: c1 c2
  assertEquals(
    g.render(s),
    "2 . . V\n1 H H V\n  a b c\nH to move (H: horizontal dominoes, V: vertical)\n",
  );
});

/** The lab's board for a protocol state reached by `moves`. */
const labBoard = (g: DomineeringGame, moves: readonly number[]): Board => {
  const geo = g.geometry;
  let b: Board = { ...empty(geo.order.map((m) => cellOf(geo, m))), turn: geo.first };
  for (const m of moves) b = moveLegal(b, cellOf(geo, m));
  return b;
};

const key = (c: Cell) => `${c[0]},${c[1]}`;

Deno.test("property: the bitboard game and the lab agree on moves, values and the end", () => {
  const games = [
    make({ board: "4x4" }),
    make({ board: "5x3" }),
    make({ shape: "hatch:2" }),
    make({ shape: "carpet:1" }),
    make({ shape: "picture:.../.../-.-/..." }),
  ];
  fc.assert(
    fc.property(fc.constantFrom(...games), fc.array(fc.nat(), { maxLength: 12 }), (g, picks) => {
      let s = g.initial();
      const moves: number[] = [];
      for (const p of [...picks, 0]) {
        const b = labBoard(g, moves);
        const ms = g.moves(s);
        assertEquals(ms.map((m) => key(cellOf(g.geometry, m))), legalMoves(b.turn, b).map(key));
        const v = scoreRank(score(b));
        assertEquals(g.value(s), v === Infinity ? WIN : v === -Infinity ? -WIN : v);
        assertEquals(g.toMove(s), b.turn === "V" ? 0 : 1);
        if (ms.length === 0) {
          assertEquals(g.outcome(s)?.winner, b.turn === "V" ? 1 : 0);
          break;
        }
        assertEquals(g.outcome(s), undefined);
        const m = ms[p % ms.length];
        moves.push(m);
        s = g.play(s, m);
      }
    }),
    { numRuns: 80 },
  );
});

Deno.test("the core's trees over the plugin give seed 003's bestmoves", () => {
  const g = make({ board: "3x3" });
  const cells = (ms: readonly { move: number }[]) =>
    showCells(ms.map((e) => cellOf(g.geometry, e.move)));
  assertEquals(
    cells(bestMoves(takeTree(4, scoredTree(g, g.initial())))),
    showCells(bestmoves(4, score, board(3, 3))),
  );
  const after = g.play(g.initial(), indexOf(g.geometry, [1, 2]));
  assertEquals(cells(bestMoves(takeTree(4, scoredTree(g, after)))), "[(3,1),(3,2)]");
  // The protocol tree of 3x3 has the lab tree's 75 nodes.
  let n = 0;
  const walk = (t: ReturnType<typeof gameTree<DomState>>): void => {
    n++;
    for (const [, c] of t.children()) walk(c);
  };
  walk(gameTree(g, g.initial()));
  assertEquals(n, 75);
});

Deno.test("geometryOfBoard recovers a seed board's shape and first player", () => {
  const geo = geometryOfBoard(alphaDom_vs_LeeSedom);
  assertEquals([geo.width, geo.height, geo.x0, geo.y0, geo.first], [9, 9, -4, -4, "H"]);
  assertEquals(
    initialState(geo).slice(0, 9).reduce((a, r) => a + r.toString(2).replace(/0/g, "").length, 0),
    64,
  );
});
