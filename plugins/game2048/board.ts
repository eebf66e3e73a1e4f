/**
 * The compact 4x4 board: 16 cells of 4 bits, each the rank of its tile (0 empty, k for
 * 2^k), held in two 32-bit integers, `lo` = rows 0 and 1, `hi` = rows 2 and 3 (row r in
 * bits 16r..16r+15 of the 64-bit whole, column c in the nibble at 4c, so cell
 * `y * 4 + x` sits at bit `4 * (y * 4 + x)`). Slides and evaluations are lookups in
 * tables over the 65536 possible rows; up and down slide the transposed board's rows.
 *
 * The row tables are made with the protocol's own slide (`rules.ts` `slideLines`) and
 * evaluations (`LINE_SCORES`, `gradientOfSums`). A rank is at most 15 (the 32768 tile):
 * a row whose slide would merge two 32768s (a 65536 does not fit in 4 bits) is left as it
 * is. The fast expectimax therefore uses this representation only where no 65536 can
 * arise within its search (see `compactFits` there), and its general path otherwise.
 *
 * @module
 */
import {
  gradientOfSums,
  LEFT,
  LINE_SCORES,
  linesOf,
  rankOf,
  RIGHT,
  slideLines,
  UP,
} from "./rules.ts";

/** Number of distinct 16-bit rows. */
const ROWS = 65536;

/** The row after sliding left (towards column 0), by row. */
export const ROW_LEFT: Uint16Array = new Uint16Array(ROWS);
/** The row after sliding right (towards column 3), by row. */
export const ROW_RIGHT: Uint16Array = new Uint16Array(ROWS);
/** The "monotone" line score (`rules.ts` `lineScore`) of a row read left to right. */
export const ROW_MONOTONE: Float64Array = LINE_SCORES[4];
/** The sum of a row's tile values. */
export const ROW_SUM: Float64Array = new Float64Array(ROWS);
/** The sum of a row's tile values weighted by their column (0-3). */
export const ROW_XSUM: Float64Array = new Float64Array(ROWS);
/** The number of empty cells in a row. */
export const ROW_EMPTY: Uint8Array = new Uint8Array(ROWS);

const initTables = () => {
  const line = [0, 0, 0, 0], slid = [0, 0, 0, 0];
  const lefts = linesOf(4, 1, LEFT), rights = linesOf(4, 1, RIGHT);
  // The row of the slid tiles; the row itself when the slide made a 65536.
  const packed = (row: number) => {
    let out = 0;
    for (let c = 0; c < 4; c++) {
      if (slid[c] > 32768) return row;
      out |= rankOf(slid[c]) << (4 * c);
    }
    return out;
  };
  for (let row = 0; row < ROWS; row++) {
    let sum = 0, xsum = 0, empty = 0;
    for (let c = 0; c < 4; c++) {
      const r = (row >>> (4 * c)) & 15;
      const v = r === 0 ? 0 : 1 << r; // a small integer (`2 ** r` made the arrays double)
      line[c] = v;
      sum += v;
      xsum += c * v;
      if (r === 0) empty++;
    }
    ROW_SUM[row] = sum;
    ROW_XSUM[row] = xsum;
    ROW_EMPTY[row] = empty;
    // The protocol's slide of the row's tiles (a 65536 does not fit: see the module notes).
    slideLines(line, slid, lefts);
    ROW_LEFT[row] = packed(row);
    slideLines(line, slid, rights);
    ROW_RIGHT[row] = packed(row);
  }
};
initTables();

/** The low word of the transposed board (its rows 0 and 1 are the columns 0 and 1). */
export const transposeLo = (lo: number, hi: number): number => {
  const a = (lo & 0xf0f00f0f) | ((lo & 0x0000f0f0) << 12) | ((lo >>> 12) & 0x0000f0f0);
  const b = (hi & 0xf0f00f0f) | ((hi & 0x0000f0f0) << 12) | ((hi >>> 12) & 0x0000f0f0);
  return (a & 0x00ff00ff) | ((b & 0x00ff00ff) << 8);
};

/** The high word of the transposed board. */
export const transposeHi = (lo: number, hi: number): number => {
  const a = (lo & 0xf0f00f0f) | ((lo & 0x0000f0f0) << 12) | ((lo >>> 12) & 0x0000f0f0);
  const b = (hi & 0xf0f00f0f) | ((hi & 0x0000f0f0) << 12) | ((hi >>> 12) & 0x0000f0f0);
  return (b & 0xff00ff00) | ((a >>> 8) & 0x00ff00ff);
};

/**
 * Slides the board in direction `dir` (0-3: left, right, up, down) and writes the result
 * to `out[0]` (lo) and `out[1]` (hi). The slide is legal when the result differs.
 *
 * @example
 * ```ts
 * import { packCells, slideBoard } from "./board.ts";
 * const [lo, hi] = packCells([2, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])!;
 * const out = new Int32Array(2);
 * slideBoard(lo, hi, 0, out); // left: [2,0,2,2] becomes [4,2,0,0]
 * if ((out[0] & 0xffff) !== (2 | (1 << 4)) || out[1] !== hi) throw new Error();
 * ```
 */
export const slideBoard = (lo: number, hi: number, dir: number, out: Int32Array): void => {
  if (dir === LEFT || dir === RIGHT) {
    const t = dir === LEFT ? ROW_LEFT : ROW_RIGHT;
    out[0] = t[lo & 0xffff] | (t[lo >>> 16] << 16);
    out[1] = t[hi & 0xffff] | (t[hi >>> 16] << 16);
    return;
  }
  const t = dir === UP ? ROW_LEFT : ROW_RIGHT;
  const tl = transposeLo(lo, hi), th = transposeHi(lo, hi);
  const sl = t[tl & 0xffff] | (t[tl >>> 16] << 16);
  const sh = t[th & 0xffff] | (t[th >>> 16] << 16);
  out[0] = transposeLo(sl, sh);
  out[1] = transposeHi(sl, sh);
};

/** Seed 001's gradient value of a compact board (the closed form of `rules.ts`). */
export const gradient4 = (lo: number, hi: number): number => {
  const s0 = ROW_SUM[lo & 0xffff], s1 = ROW_SUM[lo >>> 16];
  const s2 = ROW_SUM[hi & 0xffff], s3 = ROW_SUM[hi >>> 16];
  const x = ROW_XSUM[lo & 0xffff] + ROW_XSUM[lo >>> 16] + ROW_XSUM[hi & 0xffff] +
    ROW_XSUM[hi >>> 16];
  return gradientOfSums(s0 + s1 + s2 + s3, x, s1 + 2 * s2 + 3 * s3, 4, 4);
};

/** The "monotone" heuristic of a compact board: line scores of its rows and columns. */
export const monotone4 = (lo: number, hi: number): number => {
  const tl = transposeLo(lo, hi), th = transposeHi(lo, hi);
  return ROW_MONOTONE[lo & 0xffff] + ROW_MONOTONE[lo >>> 16] + ROW_MONOTONE[hi & 0xffff] +
    ROW_MONOTONE[hi >>> 16] + ROW_MONOTONE[tl & 0xffff] + ROW_MONOTONE[tl >>> 16] +
    ROW_MONOTONE[th & 0xffff] + ROW_MONOTONE[th >>> 16];
};

/** The number of empty cells of a compact board. */
export const empty4 = (lo: number, hi: number): number =>
  ROW_EMPTY[lo & 0xffff] + ROW_EMPTY[lo >>> 16] + ROW_EMPTY[hi & 0xffff] + ROW_EMPTY[hi >>> 16];

const movable = (r: number) => ROW_LEFT[r] !== r || ROW_RIGHT[r] !== r;

/** True when some slide changes the compact board. */
export const canMove4 = (lo: number, hi: number): boolean => {
  if (
    movable(lo & 0xffff) || movable(lo >>> 16) || movable(hi & 0xffff) || movable(hi >>> 16)
  ) return true;
  const tl = transposeLo(lo, hi), th = transposeHi(lo, hi);
  return movable(tl & 0xffff) || movable(tl >>> 16) || movable(th & 0xffff) ||
    movable(th >>> 16);
};

/** The number of distinct tile ranks on a compact board (empty cells not counted). */
export const distinctTiles4 = (lo: number, hi: number): number => {
  let seen = 0;
  for (let i = 0; i < 8; i++) {
    seen |= 1 << ((lo >>> (4 * i)) & 15);
    seen |= 1 << ((hi >>> (4 * i)) & 15);
  }
  seen &= ~1;
  let k = 0;
  for (; seen !== 0; seen &= seen - 1) k++;
  return k;
};

/**
 * Packs 16 tile values (reading order) into `[lo, hi]`, or `undefined` when a tile is not
 * a power of two from 2 to 32768.
 */
export const packCells = (cells: ArrayLike<number>): [number, number] | undefined => {
  let lo = 0, hi = 0;
  for (let i = 0; i < 16; i++) {
    const v = cells[i];
    if (v === 0) continue;
    const r = 31 - Math.clz32(v);
    if (v < 2 || v > 32768 || 2 ** r !== v) return undefined;
    if (i < 8) lo |= r << (4 * i);
    else hi |= r << (4 * (i - 8));
  }
  return [lo, hi];
};

/** The 16 tile values (reading order) of a compact board. */
export const unpackCells = (lo: number, hi: number): number[] => {
  const out: number[] = [];
  for (let i = 0; i < 16; i++) {
    const r = i < 8 ? (lo >>> (4 * i)) & 15 : (hi >>> (4 * (i - 8))) & 15;
    out.push(r === 0 ? 0 : 1 << r);
  }
  return out;
};
