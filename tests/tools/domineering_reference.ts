/**
 * A plain reference for Domineering, shared by the solver's tests: a memoized search to
 * the end over boards as row bit masks (no tricks), the positions after each move, and
 * random small shapes.
 *
 * @module
 */
import { fc } from "../../testing/deps.ts";

/** The positions after each legal move, with the move's cell index `y * w + x`. */
export const children = (
  rows: readonly number[],
  w: number,
  horizontal: boolean,
): { move: number; rows: number[] }[] => {
  const out: { move: number; rows: number[] }[] = [];
  for (let y = 0; y < rows.length; y++) {
    for (let x = 0; x < w; x++) {
      const next = rows.slice();
      if (horizontal && x + 1 < w && ((rows[y] >> x) & 3) === 3) next[y] &= ~(3 << x);
      else if (!horizontal && y + 1 < rows.length && (rows[y] >> x) & (rows[y + 1] >> x) & 1) {
        next[y] &= ~(1 << x);
        next[y + 1] &= ~(1 << x);
      } else continue;
      out.push({ move: y * w + x, rows: next });
    }
  }
  return out;
};

/** Does the player to move win? A plain memoized search to the end. */
export const plainWins = (
  rows: readonly number[],
  w: number,
  horizontal: boolean,
  memo: Map<string, boolean> = new Map(),
): boolean => {
  const key = `${rows.join(",")}${horizontal ? "H" : "V"}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let wins = false;
  for (const child of children(rows, w, horizontal)) {
    if (!plainWins(child.rows, w, !horizontal, memo)) {
      wins = true;
      break;
    }
  }
  memo.set(key, wins);
  return wins;
};

/** A random shape: rows as bit masks in a box of at most 20 cells, and who moves. */
export interface Shape {
  /** The box's width. */
  readonly w: number;
  /** The box's height (the number of rows). */
  readonly h: number;
  /** The free cells of each row, bit x for column x. */
  readonly rows: number[];
  /** True when H (horizontal dominoes) is to move. */
  readonly horizontal: boolean;
}

/**
 * Random shapes in a box of at most 20 cells (5x4, 4x5, 6x3, ...), each cell free with a
 * probability of at least `minDensity`; sides from `minSide`.
 */
export const shapeArb = (minSide: number, minDensity: number): fc.Arbitrary<Shape> =>
  fc
    .record({
      w: fc.integer({ min: minSide, max: 6 }),
      h: fc.integer({ min: minSide, max: 5 }),
      density: fc.double({ min: minDensity, max: 1, noNaN: true }),
      bits: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 30, maxLength: 30 }),
      horizontal: fc.boolean(),
    })
    .filter(({ w, h }) => w * h <= 20)
    .map(({ w, h, density, bits, horizontal }) => {
      const rows: number[] = [];
      for (let y = 0; y < h; y++) {
        let r = 0;
        for (let x = 0; x < w; x++) if (bits[y * w + x] < density) r |= 1 << x;
        rows.push(r);
      }
      return { w, h, rows, horizontal };
    });
