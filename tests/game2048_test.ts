/**
 * 2048 as seed 001 defines it: Figure 1 step by step (board printouts to the character),
 * the slide examples of the text, `showGame`'s example, the weights of `moves`, the
 * gradient value, and properties over random grids (tile sums conserved, mirror and
 * transpose symmetry, weights summing to 1, no tile lost or invented), plus the protocol
 * game against the seed's functions, notation and options.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, pickChance } from "../core/game.ts";
import { makeGame } from "../core/plugin.ts";
import { makeRng } from "../core/rng.ts";
import plugin from "../plugins/game2048/mod.ts";
import { createGame, gradientValue, showCells, type State2048 } from "../plugins/game2048/rules.ts";
import {
  type Action,
  game2048,
  type Grid,
  move,
  moves,
  newTile,
  showAction,
  showGame,
  slide,
  startState,
  toAction,
  toGrid,
  toMove,
  toState,
  value,
} from "../plugins/game2048/seed001.ts";

const G44 = game2048(4, 4);

/** Figure 1: the moves and the boards after each, as the figure prints them. */
const FIGURE_1: readonly [Action | undefined, string][] = [
  [
    undefined,
    "    8    32    64   512\n" +
    "    -     -     2    32\n" +
    "    -     -     -     8\n" +
    "    -     -     -     2",
  ],
  [
    newTile(1, 1, 2),
    "    8    32    64   512\n" +
    "    -     2     2    32\n" +
    "    -     -     -     8\n" +
    "    -     -     -     2",
  ],
  [
    slide("L"),
    "    8    32    64   512\n" +
    "    4    32     -     -\n" +
    "    8     -     -     -\n" +
    "    2     -     -     -",
  ],
  [
    newTile(3, 2, 2),
    "    8    32    64   512\n" +
    "    4    32     -     -\n" +
    "    8     -     -     2\n" +
    "    2     -     -     -",
  ],
  [
    slide("U"),
    "    8    64    64   512\n" +
    "    4     -     -     2\n" +
    "    8     -     -     -\n" +
    "    2     -     -     -",
  ],
  [
    newTile(2, 1, 2),
    "    8    64    64   512\n" +
    "    4     -     2     2\n" +
    "    8     -     -     -\n" +
    "    2     -     -     -",
  ],
  [
    slide("R"),
    "    -     8   128   512\n" +
    "    -     -     4     4\n" +
    "    -     -     -     8\n" +
    "    -     -     -     2",
  ],
  [
    newTile(0, 1, 2),
    "    -     8   128   512\n" +
    "    2     -     4     4\n" +
    "    -     -     -     8\n" +
    "    -     -     -     2",
  ],
];

const FIGURE_1_START: Grid = [[8, 32, 64, 512], [0, 0, 2, 32], [0, 0, 0, 8], [0, 0, 0, 2]];

Deno.test("Figure 1: every step with the seed's functions, printed to the character", () => {
  let s = FIGURE_1_START;
  assertEquals(showGame(G44, s), FIGURE_1[0][1]);
  for (const [a, expected] of FIGURE_1.slice(1)) {
    const p = a!.tag === "Slide";
    // The move is among the player's feasible moves.
    assert(
      moves(G44, p, s).some(([, m]) => showAction(m) === showAction(a!)),
      `${showAction(a!)} must be feasible`,
    );
    s = move(G44, p, s, a!);
    assertEquals(showGame(G44, s), expected, `after ${showAction(a!)}`);
  }
});

Deno.test("Figure 1: every step with the protocol game (moves as typed, rendering)", () => {
  const game = createGame(4, 4, "gradient");
  // The figure starts with the computer to move (step 2 places a tile).
  let s: State2048 = toState(FIGURE_1_START, false);
  for (const [a, expected] of FIGURE_1.slice(1)) {
    const typed = a!.tag === "Slide" ? a!.direction : showAction(a!);
    const parsed = game.parseMove(s, typed);
    assert(Result.isSuccess(parsed), `'${typed}' must parse`);
    assertEquals(parsed.success, toMove(G44, a!));
    assertEquals(game.formatMove(s, parsed.success), typed);
    s = game.play(s, parsed.success);
    assertEquals(showCells(s, 4, 4), expected);
    assert(game.render(s).startsWith(expected + "\n"));
  }
  // Merges in the figure: 2+2 (step 3), 32+32 (step 5), 64+64 and 2+2 (step 7).
  assertEquals(s[17], 4 + 64 + 128 + 4);
  assertStringIncludes(game.render(s), "score 200, largest tile 512");
});

Deno.test("Figure 1's actions print as Haskell shows them", () => {
  assertEquals(
    FIGURE_1.slice(1).map(([a]) => showAction(a!)),
    [
      "NewTile (1,1) 2",
      "Slide L",
      "NewTile (3,2) 2",
      "Slide U",
      "NewTile (2,1) 2",
      "Slide R",
      "NewTile (0,1) 2",
    ],
  );
});

const row = (r: number[], d: "L" | "R"): number[] =>
  move(game2048(r.length, 1), true, [r], slide(d))[0];
const col = (c: number[], d: "U" | "D"): number[] =>
  move(game2048(1, c.length), true, c.map((v) => [v]), slide(d)).map((r) => r[0]);

Deno.test("the slide examples of the text", () => {
  // Slide L: [2,0,2,2] -> [2,2,2] -> [4,2] -> [4,2,0,0].
  assertEquals(row([2, 0, 2, 2], "L"), [4, 2, 0, 0]);
  assertEquals(row([2, 2, 2], "L"), [4, 2, 0]);
  assertEquals(row([2, 2, 2, 2], "L"), [4, 4, 0, 0]);
  assertEquals(row([2, 2, 4], "L"), [4, 4, 0]);
  assertEquals(row([2, 2, 0, 0], "L"), [4, 0, 0, 0]);
  // Slide R merges from the right and pads at the beginning.
  assertEquals(row([2, 0, 2, 2], "R"), [0, 0, 2, 4]);
  assertEquals(row([2, 2, 2], "R"), [0, 2, 4]);
  assertEquals(row([2, 2, 2, 2], "R"), [0, 0, 4, 4]);
  assertEquals(row([2, 2, 4], "R"), [0, 4, 4]);
  assertEquals(row([4, 2, 2, 0], "R"), [0, 0, 4, 4]); // Figure 1 step 7, second row
  // U and D are the same on columns.
  assertEquals(col([2, 0, 2, 2], "U"), [4, 2, 0, 0]);
  assertEquals(col([2, 0, 2, 2], "D"), [0, 0, 2, 4]);
  // Merged tiles do not merge again in the same slide; the seed works on any integers.
  assertEquals(row([4, 4, 8, 0], "L"), [8, 8, 0, 0]);
  assertEquals(row([3, 3, 5, 5, 5], "L"), [6, 10, 5, 0, 0]);
});

Deno.test("showGame: the seed's example, widths beyond 5, other sizes", () => {
  const s = [[4, 2, 16, 4], [0, 8, 32, 8], [0, 64, 256, 32], [0, 16, 512, 1024]];
  assertEquals(
    showGame(G44, s),
    "    4     2    16     4\n" +
      "    -     8    32     8\n" +
      "    -    64   256    32\n" +
      "    -    16   512  1024",
  );
  assertEquals(showGame(game2048(2, 1), [[131072, 0]]), "131072      -");
  assertEquals(
    showGame(game2048(3, 2), startState(game2048(3, 2))),
    "    -     -     -\n".repeat(2).trimEnd(),
  );
});

Deno.test("startState is h rows of w zeros", () => {
  assertEquals(startState(game2048(3, 2)), [[0, 0, 0], [0, 0, 0]]);
  assertEquals(startState(game2048(1, 1)), [[0]]);
});

Deno.test("moves: the computer's weights 0.9/n and 0.1/n, the slider's 1/n", () => {
  const s = [[2, 0], [0, 4]];
  const computer = moves(game2048(2, 2), false, s);
  assertEquals(computer.map(([w, a]) => [w, showAction(a)]), [
    [0.45, "NewTile (1,0) 2"],
    [0.05, "NewTile (1,0) 4"],
    [0.45, "NewTile (0,1) 2"],
    [0.05, "NewTile (0,1) 4"],
  ]);
  const slider = moves(game2048(2, 2), true, s);
  // L changes nothing in row 0 but moves the 4 in row 1; R moves the 2; U and D likewise.
  assertEquals(slider.map(([w, a]) => [w, showAction(a)]), [
    [0.25, "Slide L"],
    [0.25, "Slide R"],
    [0.25, "Slide U"],
    [0.25, "Slide D"],
  ]);
  // Only D moves anything here: the rows and columns are packed without equal neighbours.
  const stuck = [[2, 4], [0, 0]];
  assertEquals(moves(game2048(2, 2), true, stuck).map(([w, a]) => [w, showAction(a)]), [
    [1, "Slide D"],
  ]);
  assertEquals(moves(game2048(2, 2), true, [[2, 4], [4, 2]]), []);
});

Deno.test("value: the gradient matrices, by hand on a 3x2 grid", () => {
  // m = 2: G1 = [[2,1,0],[1,0,-1]], mirrored left-right, top-bottom and both.
  const g = game2048(3, 2);
  const s = [[0, 0, 2], [0, 4, 8]];
  // G1: 0+0+0 + 0+0-8 = -8; G2 [[0,1,2],[-1,0,1]]: 4+0+8 = 12;
  // G3 [[1,0,-1],[2,1,0]]: -2+4+0 = 2; G4 [[-1,0,1],[0,1,2]]: 2+4+16 = 22.
  assertEquals(value(g, true, s), 22);
  assertEquals(value(g, false, s), 22);
  assertEquals(gradientValue(s.flat(), 3, 2), 22);
  assertEquals(value(G44, true, startState(G44)), 0);
});

// ---------------------------------------------------------------------------------------
// Properties over random grids.

const grid = (maxSide = 5, powers = true) =>
  fc.record({ w: fc.integer({ min: 1, max: maxSide }), h: fc.integer({ min: 1, max: maxSide }) })
    .chain(({ w, h }) =>
      fc.array(
        fc.array(
          powers
            ? fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 }).map((k) => 2 ** k))
            : fc.integer({ min: 0, max: 9 }),
          { minLength: w, maxLength: w },
        ),
        { minLength: h, maxLength: h },
      ).map((s) => ({ g: game2048(w, h), s }))
    );

const DIRS = ["L", "R", "U", "D"] as const;
const sum = (s: Grid) => s.flat().reduce((a, b) => a + b, 0);
const mirror = (s: Grid): Grid => s.map((r) => r.slice().reverse());
const transpose = (s: Grid): Grid => s[0].map((_, x) => s.map((r) => r[x]));

/**
 * True when `after` (a line's tiles after sliding to its start, zeros dropped) is `before`
 * with some disjoint pairs of equal neighbours merged, taken from the start.
 */
const explains = (before: number[], after: number[]): boolean => {
  let i = 0;
  for (const t of after) {
    if (before[i] === t && !(before[i + 1] === t && i + 1 < before.length)) i += 1;
    else if (before[i] * 2 === t && before[i + 1] === before[i]) i += 2;
    else return false;
  }
  return i === before.length;
};

Deno.test("property: slides conserve the tile sum", () => {
  fc.assert(
    fc.property(grid(5, false), fc.constantFrom(...DIRS), ({ g, s }, d) => {
      assertEquals(sum(move(g, true, s, slide(d))), sum(s));
    }),
    { numRuns: 300 },
  );
});

Deno.test("property: L is R on the mirrored grid, U and D are L and R on the transpose", () => {
  fc.assert(
    fc.property(grid(5, false), ({ g, s }) => {
      const gt = game2048(g.height, g.width);
      assertEquals(move(g, true, s, slide("L")), mirror(move(g, true, mirror(s), slide("R"))));
      assertEquals(
        move(g, true, s, slide("U")),
        transpose(move(gt, true, transpose(s), slide("L"))),
      );
      assertEquals(
        move(g, true, s, slide("D")),
        transpose(move(gt, true, transpose(s), slide("R"))),
      );
    }),
    { numRuns: 300 },
  );
});

Deno.test("property: the weights of every move list sum to 1", () => {
  fc.assert(
    fc.property(grid(5), fc.boolean(), ({ g, s }, p) => {
      const ms = moves(g, p, s);
      if (ms.length === 0) return;
      const total = ms.reduce((a, [w]) => a + w, 0);
      assert(Math.abs(total - 1) < 1e-12, `weights sum to ${total}`);
      assert(ms.every(([w]) => w > 0));
    }),
    { numRuns: 300 },
  );
});

Deno.test("property: no tile is lost or invented by a slide or a new tile", () => {
  fc.assert(
    fc.property(grid(5, false), fc.constantFrom(...DIRS), ({ g, s }, d) => {
      const after = move(g, true, s, slide(d));
      // Read every line from the side it slides to: the result merges neighbours only.
      const lines = (x: Grid) => {
        const rows = d === "L" || d === "R" ? x : transpose(x);
        return rows.map((r) => (d === "R" || d === "D" ? r.slice().reverse() : r));
      };
      const bs = lines(s), as = lines(after);
      bs.forEach((b, i) => {
        const nz = (r: number[]) => r.filter((v) => v !== 0);
        assert(explains(nz(b), nz(as[i])), `${b} -> ${as[i]}`);
        // Tiles sit at the line's start, zeros after them.
        const k = nz(as[i]).length;
        assertEquals(as[i].slice(k), new Array(as[i].length - k).fill(0));
      });
      // A new tile changes one empty cell to 2 or 4 and nothing else.
      for (const [, a] of moves(g, false, s)) {
        if (a.tag !== "NewTile") continue;
        const t = move(g, false, s, a);
        let changed = 0;
        t.forEach((r, y) => r.forEach((v, x) => v !== s[y][x] && changed++));
        assertEquals(changed, 1);
        assertEquals(s[a.y][a.x], 0);
        assert(t[a.y][a.x] === 2 || t[a.y][a.x] === 4);
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("property: a slide is feasible exactly when it changes the grid", () => {
  fc.assert(
    fc.property(grid(4), ({ g, s }) => {
      const feasible = moves(g, true, s).map(([, a]) => showAction(a));
      for (const d of DIRS) {
        const changes = JSON.stringify(move(g, true, s, slide(d))) !== JSON.stringify(s);
        assertEquals(feasible.includes(`Slide ${d}`), changes);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("property: the gradient value's closed form equals the literal definition", () => {
  fc.assert(
    fc.property(grid(6, false), ({ g, s }) => {
      assertEquals(gradientValue(s.flat(), g.width, g.height), value(g, true, s));
    }),
    { numRuns: 300 },
  );
});

Deno.test("the protocol game follows the seed's functions over random playouts", () => {
  for (const [w, h] of [[4, 4], [3, 2], [2, 3], [5, 4]]) {
    const g = game2048(w, h);
    const game = createGame(w, h, "gradient");
    const rng = makeRng(w * 10 + h);
    let s = game.initial();
    let seedGrid = startState(g);
    for (let ply = 0; ply < 300; ply++) {
      const p = game.toMove(s) !== CHANCE;
      assertEquals(toGrid(g, s), seedGrid);
      assertEquals(game.value(s), value(g, p, seedGrid));
      const seedMoves = moves(g, p, seedGrid);
      if (p) {
        assertEquals(
          game.moves(s).map((m) => showAction(toAction(g, m))),
          seedMoves.map(([, a]) => showAction(a)),
        );
      } else {
        const cs = game.chances(s);
        assertEquals(
          cs.map((c) => [c.p, showAction(toAction(g, c.move))]),
          seedMoves.map(([w, a]) => [w, showAction(a)]),
        );
      }
      if (seedMoves.length === 0) {
        assert(game.outcome(s) !== undefined);
        break;
      }
      const m = p
        ? game.moves(s)[rng.int(game.moves(s).length)]
        : pickChance(game.chances(s), rng.next());
      seedGrid = move(g, p, seedGrid, toAction(g, m));
      s = game.play(s, m);
    }
  }
});

Deno.test("the score adds the merged tiles; stats report the tiles reached", () => {
  const game = createGame(4, 1, "gradient");
  const s = game.play(toState([[1024, 1024, 2, 2]], true), 0);
  assertEquals(s.slice(0, 4), [2048, 4, 0, 0]);
  assertEquals(s[5], 2052);
  assertEquals(game.stats!(s), {
    score: 2052,
    maxTile: 2048,
    reached2048: 1,
    reached4096: 0,
    reached8192: 0,
    reached16384: 0,
    reached32768: 0,
  });
});

Deno.test("the game ends when no slide changes the grid; outcome gives the score", () => {
  const game = createGame(2, 2, "gradient");
  const s = toState([[2, 4], [4, 2]], true, 36);
  assertEquals(game.moves(s), []);
  assertEquals(game.outcome(s), { winner: null, margin: 36 });
  const m = createGame(2, 2, "monotone");
  assert(m.value(s) < m.value(toState([[2, 4], [4, 0]], true)));
  assertEquals(m.value(s), -400000);
  assertEquals(game.value(s), gradientValue([2, 4, 4, 2], 2, 2));
});

Deno.test("notation: slides as letters, words, arrows and arrow keys; tiles as the seed writes them", () => {
  const game = createGame(4, 4, "gradient");
  const s = toState([[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], true);
  const p = (t: string) => game.parseMove(s, t);
  for (
    const [text, m] of [
      ["L", 0],
      ["left", 0],
      ["Slide L", 0],
      ["←", 0],
      ["\x1b[D", 0],
      ["r", 1],
      ["RIGHT", 1],
      ["→", 1],
      ["u", 2],
      ["↑", 2],
      ["D", 3],
      ["down", 3],
      ["↓", 3],
    ] as const
  ) {
    const r = p(text);
    assert(Result.isSuccess(r) && r.success === m, `${JSON.stringify(text)} should be move ${m}`);
  }
  const stuck = toState([[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], true);
  const up = game.parseMove(stuck, "U");
  assert(Result.isFailure(up));
  assertStringIncludes(up.failure, "sliding up changes nothing; legal: D");
  const bad = p("sideways");
  assert(Result.isFailure(bad));
  assertStringIncludes(bad.failure, "expected a slide L, R, U or D");
  const notYet = p("NewTile (0,1) 2");
  assert(Result.isFailure(notYet) && notYet.failure.includes("slider moves now"));
  const c = toState(FIGURE_1_START, false);
  const tile = game.parseMove(c, "newtile (0, 1) 4");
  assert(Result.isSuccess(tile) && game.formatMove(c, tile.success) === "NewTile (0,1) 4");
  // Forms without a comma, for comma-separated move lists (analyze --moves).
  for (const text of ["NewTile (0 1) 4", "(0;1) 4", "0;1=4", "0:1 4"]) {
    const r = game.parseMove(c, text);
    assert(Result.isSuccess(r) && r.success === tile.success, text);
  }
  for (
    const [text, why] of [["NewTile (2,1) 2", "not empty"], ["NewTile (4,0) 2", "off the grid"], [
      "NewTile (0,1) 8",
      "2 or 4",
    ], ["L", "computer places"]]
  ) {
    const r = game.parseMove(c, text);
    assert(Result.isFailure(r) && r.failure.includes(why), `${text}: ${JSON.stringify(r)}`);
  }
});

Deno.test("options: defaults, sizes, evaluation; bad values are named", () => {
  const made = Effect.runSync(makeGame(plugin, {}));
  assertEquals(made.options, { width: 4, height: 4, eval: "gradient" });
  const small = Effect.runSync(makeGame(plugin, { width: 3, height: 2, eval: "monotone" }));
  assertEquals(small.game.initial().length, 3 * 2 + 2);
  const bad = Effect.runSync(Effect.flip(makeGame(plugin, { width: 0, eval: "clever" })));
  assertStringIncludes(bad.message, "--width");
  assertStringIncludes(bad.message, "--eval");
});
