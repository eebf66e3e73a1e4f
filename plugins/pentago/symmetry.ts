/**
 * The eight symmetries of the Pentago board (the dihedral group of the square: four
 * turns of the whole board and four reflections). Each maps quadrants to quadrants and
 * turns or mirrors their contents alike, so a player's marbles transform by four lookups
 * (one per quadrant) in `SYM_PACKED`, and a move by `SYM_MOVE` (a reflection turns a
 * clockwise twist anticlockwise). The rules are the same in every orientation, so
 * symmetric positions have the same value: the engine's transposition table keys a
 * position by its least orientation.
 *
 * @module
 */
import { CELLS } from "./board.ts";
import { NO_TWIST } from "./rules.ts";
import { localBit } from "./windows.ts";

/** The number of symmetries. */
export const SYMMETRIES = 8;

/** The symmetries as maps of (row, column), identity first; 4-7 are reflections. */
const MAPS: readonly ((r: number, c: number) => readonly [number, number])[] = [
  (r, c) => [r, c],
  (r, c) => [c, 5 - r], // a quarter turn clockwise
  (r, c) => [5 - r, 5 - c],
  (r, c) => [5 - c, r],
  (r, c) => [r, 5 - c], // mirror left-right
  (r, c) => [5 - r, c],
  (r, c) => [c, r], // transpose
  (r, c) => [5 - c, 5 - r],
];

/** `SYM_CELL[s * 36 + cell]`: where symmetry s takes a cell. */
export const SYM_CELL: Int8Array = (() => {
  const t = new Int8Array(SYMMETRIES * CELLS);
  MAPS.forEach((f, s) => {
    for (let cell = 0; cell < CELLS; cell++) {
      const [r, c] = f(Math.floor(cell / 6), cell % 6);
      t[s * CELLS + cell] = r * 6 + c;
    }
  });
  return t;
})();

/** `SYM_INVERSE[s]`: the symmetry that undoes s. */
export const SYM_INVERSE: Int8Array = (() => {
  const t = new Int8Array(SYMMETRIES);
  for (let s = 0; s < SYMMETRIES; s++) {
    for (let u = 0; u < SYMMETRIES; u++) {
      let ok = true;
      for (let cell = 0; cell < CELLS && ok; cell++) {
        ok = SYM_CELL[u * CELLS + SYM_CELL[s * CELLS + cell]] === cell;
      }
      if (ok) t[s] = u;
    }
  }
  return t;
})();

const quadrantOfCell = (cell: number) =>
  (Math.floor(cell / 6) >= 3 ? 2 : 0) + (cell % 6 >= 3 ? 1 : 0);

/** `SYM_QUAD[s * 4 + q]`: the quadrant symmetry s takes quadrant q to. */
export const SYM_QUAD: Int8Array = (() => {
  const t = new Int8Array(SYMMETRIES * 4);
  for (let s = 0; s < SYMMETRIES; s++) {
    for (let cell = 0; cell < CELLS; cell++) {
      t[s * 4 + quadrantOfCell(cell)] = quadrantOfCell(SYM_CELL[s * CELLS + cell]);
    }
  }
  return t;
})();

/**
 * `SYM_PACKED[(s * 4 + q) * 512 + x]`: the nine bits x of quadrant q after symmetry s,
 * in place in a player's packed board `top * 2^18 + bottom` (the halves of `board.ts`):
 * a player's transformed board is the sum of four entries, one per quadrant.
 */
export const SYM_PACKED: Float64Array = (() => {
  const t = new Float64Array(SYMMETRIES * 4 * 512);
  for (let s = 0; s < SYMMETRIES; s++) {
    for (let cell = 0; cell < CELLS; cell++) {
      const q = quadrantOfCell(cell), to = SYM_CELL[s * CELLS + cell];
      const shift = (quadrantOfCell(to) & 1) * 9 + (quadrantOfCell(to) < 2 ? 18 : 0);
      const from = localBit(cell), bit = 2 ** shift * localBit(to);
      for (let x = 0; x < 512; x++) if (x & from) t[(s * 4 + q) * 512 + x] += bit;
    }
  }
  return t;
})();

/**
 * `SYM_MOVE[s * 324 + m]`: move m (a placement and twist, or `NO_TWIST + cell`) seen
 * after symmetry s: the cell moved, the quadrant moved, a reflection's twist reversed.
 */
export const SYM_MOVE: Int16Array = (() => {
  const t = new Int16Array(SYMMETRIES * (NO_TWIST + CELLS));
  for (let s = 0; s < SYMMETRIES; s++) {
    const flip = s >= 4 ? 1 : 0;
    for (let m = 0; m < NO_TWIST + CELLS; m++) {
      if (m >= NO_TWIST) {
        t[s * 324 + m] = NO_TWIST + SYM_CELL[s * CELLS + m - NO_TWIST];
        continue;
      }
      const cell = m >> 3, q = (m >> 1) & 3, d = m & 1;
      t[s * 324 + m] = SYM_CELL[s * CELLS + cell] * 8 + SYM_QUAD[s * 4 + q] * 2 + (d ^ flip);
    }
  }
  return t;
})();

/**
 * One player's marbles `(h0, h1)` after symmetry s, packed as `h0' * 2^18 + h1'` (36
 * bits, exact in a double).
 *
 * @example A quarter turn takes a6 (top left) to f6 (top right)
 * ```ts
 * import { transform } from "./symmetry.ts";
 * import { CELL_BIT } from "./board.ts";
 * const t = transform(1, CELL_BIT[0], 0);
 * if (t !== CELL_BIT[5] * 262144) throw new Error("a6 -> f6");
 * ```
 */
export const transform = (s: number, h0: number, h1: number): number => {
  const b = s * 2048;
  return SYM_PACKED[b + (h0 & 511)] + SYM_PACKED[b + 512 + (h0 >>> 9)] +
    SYM_PACKED[b + 1024 + (h1 & 511)] + SYM_PACKED[b + 1536 + (h1 >>> 9)];
};
