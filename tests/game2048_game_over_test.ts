/**
 * 2048's game-over test at the grid's edges: on full grids whose one possible merge (or
 * one empty cell) sits in the first or last row or column, or nowhere, the game is over
 * exactly when no slide changes the grid — `canSlide`, the protocol game's `moves`,
 * `outcome` and the "monotone" evaluation's death value, and the compact 4x4 board's
 * `canMove4` — on 1xN, Nx1, 4x4, 5x3 and other grids, whatever the score.
 */
import { assertEquals, fc } from "../testing/deps.ts";
import {
  canSlide,
  createGame,
  DEATH_VALUE,
  slideCells,
  SLIDER_TURN,
} from "../plugins/game2048/rules.ts";
import { canMove4, packCells } from "../plugins/game2048/board.ts";

/** The reference: some slide changes the grid (the slides are checked against seed 001). */
const slides = (cells: readonly number[], w: number, h: number): boolean =>
  [0, 1, 2, 3].some((d) => slideCells(cells, cells.slice(), w, h, d) >= 0);

/** Where the one merge or empty cell goes. */
type Place = "first row" | "last row" | "first column" | "last column" | "anywhere";

interface Grid {
  readonly w: number;
  readonly h: number;
  readonly cells: readonly number[];
  readonly what: string;
}

const sizeArb = fc.oneof(
  fc.constantFrom<[number, number]>([1, 1], [4, 4], [5, 3], [3, 5], [2, 2]),
  fc.integer({ min: 2, max: 6 }).map((n): [number, number] => [n, 1]),
  fc.integer({ min: 2, max: 6 }).map((n): [number, number] => [1, n]),
  fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 })),
);

/**
 * A full grid with no two equal neighbours (each cell's rank avoids its left and upper
 * neighbours'; ranks up to 13), then at most one change at `place`: two neighbours made
 * equal with a rank found nowhere else (16384, so that this is the only merge; the compact
 * board does not merge two 32768s), or one cell emptied.
 */
const gridArb: fc.Arbitrary<Grid> = fc.record({
  size: sizeArb,
  top: fc.integer({ min: 3, max: 13 }),
  picks: fc.array(fc.nat(), { minLength: 36, maxLength: 36 }),
  change: fc.constantFrom("none", "merge", "merge", "empty"),
  place: fc.constantFrom<Place>("first row", "last row", "first column", "last column", "anywhere"),
  at: fc.nat(),
  across: fc.boolean(),
}).map(({ size: [w, h], top, picks, change, place, at, across }) => {
  const ranks: number[] = [];
  for (let i = 0; i < w * h; i++) {
    const x = i % w;
    const near = [x > 0 ? ranks[i - 1] : 0, i >= w ? ranks[i - w] : 0];
    const free = Array.from({ length: top }, (_, r) => r + 1).filter((r) => !near.includes(r));
    ranks.push(free[picks[i] % free.length]);
  }
  const cells = ranks.map((r) => 2 ** r);
  // The pairs of neighbours (a cell and the next along a row or down a column) at `place`.
  const pairs: [number, number][] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const row = (x + 1 < w) && (place === "anywhere" ||
        (place === "first row" && y === 0) || (place === "last row" && y === h - 1));
      const col = (y + 1 < h) && (place === "anywhere" ||
        (place === "first column" && x === 0) || (place === "last column" && x === w - 1));
      if (row && (across || !col)) pairs.push([y * w + x, y * w + x + 1]);
      if (col && (!across || !row)) pairs.push([y * w + x, (y + 1) * w + x]);
    }
  }
  let what = `${w}x${h} full, no merge`;
  if (change === "merge" && pairs.length > 0) {
    const [a, b] = pairs[at % pairs.length];
    cells[a] = cells[b] = 16384;
    what = `${w}x${h} full, one merge at cells ${a} and ${b} (${place})`;
  } else if (change === "empty") {
    const edge = pairs.length > 0 ? pairs[at % pairs.length][at % 2] : at % (w * h);
    cells[edge] = 0;
    what = `${w}x${h}, cell ${edge} empty (${place})`;
  }
  return { w, h, cells, what };
});

Deno.test("property: on full grids, the game is over exactly when no slide changes the grid", () => {
  fc.assert(
    fc.property(gridArb, fc.nat(), ({ w, h, cells, what }, pick) => {
      const live = slides(cells, w, h);
      const grid = `${what}: ${cells.join(",")}`;
      assertEquals(canSlide(cells, w, h), live, `canSlide, ${grid}`);
      // The protocol game, whatever the score (0, or a tile's value) and evaluation.
      const score = [0, ...cells][pick % (cells.length + 1)];
      const s = [...cells, SLIDER_TURN, score];
      for (const evaluation of ["gradient", "monotone"] as const) {
        const game = createGame(w, h, evaluation);
        assertEquals(game.moves(s).length > 0, live, `moves, ${grid}`);
        assertEquals(game.outcome(s) === undefined, live, `outcome, ${grid}`);
        if (evaluation === "monotone") {
          assertEquals(game.value(s) === DEATH_VALUE, !live, `death value, ${grid}`);
        }
      }
      if (w === 4 && h === 4) {
        const [lo, hi] = packCells(cells)!;
        assertEquals(canMove4(lo, hi), live, `canMove4, ${grid}`);
      }
    }),
    { numRuns: 3000 },
  );
});

Deno.test("the compact board's game over: a full board's one merge on each edge, or none", () => {
  // A full 4x4 board without merges, its ranks high enough to set the words' sign bits.
  const dead = [
    [2, 4, 2, 4],
    [4, 2, 4, 2],
    [2, 4, 2, 4],
    [4, 2, 4, 32768],
  ].flat();
  const cases: [string, number[], boolean][] = [["no merge", dead, false]];
  const withPair = (label: string, a: number, b: number) => {
    const cells = dead.slice();
    cells[a] = cells[b] = 16384;
    cases.push([label, cells, true]);
  };
  withPair("first row", 1, 2);
  withPair("last row", 13, 14);
  withPair("first column", 4, 8);
  withPair("last column", 7, 11);
  withPair("top left corner, across", 0, 1);
  withPair("bottom right corner, down", 11, 15);
  for (const empty of [0, 3, 12, 15, 5]) {
    const cells = dead.slice();
    cells[empty] = 0;
    cases.push([`cell ${empty} empty`, cells, true]);
  }
  // Tiles along one side only: the slide away from it is the only move.
  const side = [2, 0, 0, 0, 4, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0];
  cases.push(["the first column full, the rest empty", side, true]);
  for (const [label, cells, live] of cases) {
    assertEquals(slides(cells, 4, 4), live, `the reference, ${label}`);
    const [lo, hi] = packCells(cells)!;
    assertEquals(canMove4(lo, hi), live, `canMove4, ${label}`);
    assertEquals(canSlide(cells, 4, 4), live, `canSlide, ${label}`);
  }
});
