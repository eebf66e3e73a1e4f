/**
 * Pentago's board geometry as bitboards: cells, quadrants, the 32 lines of five, the
 * quadrant rotation tables and bit counting.
 *
 * The 36 cells are numbered in reading order from the top left (`a6` is 0, `f6` is 5,
 * `a1` is 30, `f1` is 35). A player's marbles are two 18-bit numbers, one per half of
 * the board (`top`: rows 6-4, quadrants NW and NE; `bottom`: rows 3-1, SW and SE). Inside
 * a half the bits are quadrant-major: bits 0-8 are the left quadrant and bits 9-17 the
 * right one, each in reading order, so a quadrant is nine contiguous bits and a rotation
 * is one lookup in a 512-entry table. JavaScript's bit operators work on 32 bits, which
 * the 18-bit halves respect.
 *
 * @module
 */

/** Number of cells. */
export const CELLS = 36;

/** The bits of one half (two quadrants of nine cells). */
export const HALF_MASK = 0x3ffff;

/** Quadrant numbers: 0 north-west, 1 north-east, 2 south-west, 3 south-east. */
export const QUADRANT_NAMES = ["nw", "ne", "sw", "se"] as const;

/** Column letters, left to right. */
export const COLUMNS = "abcdef";

/** The row (0 = top) of a cell. */
export const rowOf = (cell: number): number => Math.floor(cell / 6);

/** The column (0 = left) of a cell. */
export const colOf = (cell: number): number => cell % 6;

/** The quadrant (0-3) that holds a cell. */
export const quadrantOf = (cell: number): number =>
  (rowOf(cell) >= 3 ? 2 : 0) + (colOf(cell) >= 3 ? 1 : 0);

/** A cell's name: column letter and row number, `a1` at the bottom left. */
export const cellName = (cell: number): string => `${COLUMNS[colOf(cell)]}${6 - rowOf(cell)}`;

/** Which half (0 top, 1 bottom) holds each cell. */
export const CELL_HALF: Uint8Array = new Uint8Array(CELLS);

/** The single bit of each cell inside its half. */
export const CELL_BIT: Int32Array = new Int32Array(CELLS);

/** The cell of each (half, bit index): `BIT_CELL[half * 18 + bit]`. */
export const BIT_CELL: Int8Array = new Int8Array(36);

for (let cell = 0; cell < CELLS; cell++) {
  const r = rowOf(cell), c = colOf(cell);
  const local = (r % 3) * 3 + (c % 3);
  const bit = (c >= 3 ? 9 : 0) + local;
  CELL_HALF[cell] = r >= 3 ? 1 : 0;
  CELL_BIT[cell] = 1 << bit;
  BIT_CELL[CELL_HALF[cell] * 18 + bit] = cell;
}

/**
 * Rotates a 3x3 quadrant's nine bits (reading order) a quarter turn clockwise:
 * the cell at local (row r, column c) moves to (c, 2 - r). This is the naive version
 * the tables are built from and tested against.
 */
export const rotateCwNaive = (q: number): number => {
  let out = 0;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      if (q & (1 << (r * 3 + c))) out |= 1 << (c * 3 + (2 - r));
    }
  }
  return out;
};

/** A quadrant's nine bits after a clockwise quarter turn, by table. */
export const ROT_CW: Uint16Array = new Uint16Array(512);

/** A quadrant's nine bits after an anticlockwise quarter turn, by table. */
export const ROT_CCW: Uint16Array = new Uint16Array(512);

for (let q = 0; q < 512; q++) {
  const cw = rotateCwNaive(q);
  ROT_CW[q] = cw;
  ROT_CCW[cw] = q;
}

/**
 * Rotates quadrant `slot` (0 left, 1 right) of an 18-bit half by the table `rot`
 * (`ROT_CW` or `ROT_CCW`).
 */
export const rotateHalf = (half: number, slot: number, rot: Uint16Array): number =>
  slot === 0 ? (half & 0x3fe00) | rot[half & 511] : (half & 511) | (rot[half >>> 9] << 9);

/** The number of set bits of every 18-bit value. */
export const POPCOUNT: Uint8Array = new Uint8Array(1 << 18);
for (let i = 1; i < 1 << 18; i++) POPCOUNT[i] = POPCOUNT[i >> 1] + (i & 1);

/** The cells of the 32 lines of five (12 rows, 12 columns, 8 diagonals). */
export const LINE_CELLS: readonly (readonly number[])[] = (() => {
  const lines: number[][] = [];
  const at = (r: number, c: number) => r * 6 + c;
  for (let r = 0; r < 6; r++) {
    for (let s = 0; s < 2; s++) lines.push([0, 1, 2, 3, 4].map((i) => at(r, s + i)));
  }
  for (let c = 0; c < 6; c++) {
    for (let s = 0; s < 2; s++) lines.push([0, 1, 2, 3, 4].map((i) => at(s + i, c)));
  }
  for (let r = 0; r < 2; r++) {
    for (let c = 0; c < 2; c++) {
      lines.push([0, 1, 2, 3, 4].map((i) => at(r + i, c + i)));
      lines.push([0, 1, 2, 3, 4].map((i) => at(r + i, 5 - c - i)));
    }
  }
  return lines;
})();

/** Number of lines of five. */
export const LINE_COUNT: number = LINE_CELLS.length;

/** Each line as two masks: `LINES[2 * i]` in the top half, `LINES[2 * i + 1]` in the bottom. */
export const LINES: Int32Array = new Int32Array(2 * LINE_CELLS.length);
LINE_CELLS.forEach((cells, i) => {
  for (const cell of cells) LINES[2 * i + CELL_HALF[cell]] |= CELL_BIT[cell];
});

/** For each cell, the indices of the lines through it. */
export const CELL_LINES: readonly Int32Array[] = Array.from(
  { length: CELLS },
  (_, cell) =>
    Int32Array.from(
      LINE_CELLS.flatMap((cells, i) => (cells.includes(cell) ? [i] : [])),
    ),
);

/**
 * True when the marbles `(top, bottom)` hold a line of five.
 *
 * @example
 * ```ts
 * import { CELL_BIT, CELL_HALF, hasFive } from "./board.ts";
 * const h = [0, 0];
 * for (const cell of [0, 1, 2, 3, 4]) h[CELL_HALF[cell]] |= CELL_BIT[cell]; // a6-e6
 * if (!hasFive(h[0], h[1])) throw new Error("a6-e6 is five in a row");
 * ```
 */
export const hasFive = (top: number, bottom: number): boolean => {
  if (POPCOUNT[top] + POPCOUNT[bottom] < 5) return false;
  for (let i = 0; i < 64; i += 2) {
    const lt = LINES[i], lb = LINES[i + 1];
    if ((top & lt) === lt && (bottom & lb) === lb) return true;
  }
  return false;
};

/** True when the marbles hold a line of five through `cell` (after placing there). */
export const hasFiveThrough = (top: number, bottom: number, cell: number): boolean => {
  const ls = CELL_LINES[cell];
  for (let k = 0; k < ls.length; k++) {
    const lt = LINES[2 * ls[k]], lb = LINES[2 * ls[k] + 1];
    if ((top & lt) === lt && (bottom & lb) === lb) return true;
  }
  return false;
};
