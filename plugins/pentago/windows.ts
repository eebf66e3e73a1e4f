/**
 * The 32 windows of five as count vectors, for the engine (`engine.ts`): how many marbles
 * one player has in each window, packed three bits a window, ten windows a 32-bit word,
 * four words (`WORDS`) a player.
 *
 * - A quadrant's share of a vector is one table row (`QUAD_COUNTS`, by quadrant and its
 *   nine bits), so a player's vector is the sum of four rows (`recount`), and a twist
 *   changes it by one row less and another more: the engine keeps the vectors
 *   incrementally, a placement adding `CELL_COUNTS`, a twist swapping a quadrant's row.
 * - The evaluation reads two windows at a time: the six bits of the mover's two counts
 *   and the six of the opponent's index `PAIR` (4096 entries), which adds up, in one
 *   number, `linesValue`'s weights (`LINE_WEIGHTS`, the 4^count idea) and the count of
 *   fives and open fours of each side. Sixteen lookups give the value and the facts the
 *   rules need (a five after a twist; an open four, which wins at once by placement).
 *
 * Measured against `linesValue` (`deno task bench pentago`): see the README.
 *
 * @module
 */
import { CELLS, LINE_CELLS, POPCOUNT, quadrantOf } from "./board.ts";
import { LINE_WEIGHTS } from "./eval.ts";

/** Words per player's count vector (ten windows of three bits per word). */
export const WORDS = 4;

/** The nine-bit local index of a cell in its quadrant (reading order). */
export const localBit = (cell: number): number =>
  1 << ((Math.floor(cell / 6) % 3) * 3 + ((cell % 6) % 3));

/** The word and shift of window `i` in a count vector. */
const place = (i: number): [number, number] => [Math.floor(i / 10), 3 * (i % 10)];

/**
 * `QUAD_COUNTS[(q * 512 + x) * WORDS + j]`: word j of the count vector of a player whose
 * marbles in quadrant q are the nine bits x (and none elsewhere).
 */
export const QUAD_COUNTS: Int32Array = (() => {
  const t = new Int32Array(4 * 512 * WORDS);
  // The local bits of each window in each quadrant.
  const seg = LINE_CELLS.map((cells) => {
    const s = [0, 0, 0, 0];
    for (const c of cells) s[quadrantOf(c)] |= localBit(c);
    return s;
  });
  for (let q = 0; q < 4; q++) {
    for (let x = 0; x < 512; x++) {
      seg.forEach((s, i) => {
        const [j, shift] = place(i);
        t[(q * 512 + x) * WORDS + j] += POPCOUNT[x & s[q]] << shift;
      });
    }
  }
  return t;
})();

/** `CELL_COUNTS[cell * WORDS + j]`: word j of the count vector of one marble on `cell`. */
export const CELL_COUNTS: Int32Array = (() => {
  const t = new Int32Array(CELLS * WORDS);
  LINE_CELLS.forEach((cells, i) => {
    const [j, shift] = place(i);
    for (const c of cells) t[c * WORDS + j] += 1 << shift;
  });
  return t;
})();

/**
 * Writes the count vector of the marbles `(h0, h1)` (the two 18-bit halves of
 * `board.ts`) to `out[at .. at + WORDS)`, from scratch: four table rows.
 */
export const recount = (h0: number, h1: number, out: Int32Array, at: number): void => {
  const a = (h0 & 511) * WORDS, b = (512 + (h0 >>> 9)) * WORDS;
  const c = (1024 + (h1 & 511)) * WORDS, d = (1536 + (h1 >>> 9)) * WORDS;
  for (let j = 0; j < WORDS; j++) {
    out[at + j] = QUAD_COUNTS[a + j] + QUAD_COUNTS[b + j] + QUAD_COUNTS[c + j] +
      QUAD_COUNTS[d + j];
  }
};

/** What `PAIR` adds per pair of windows, so that the sum of 16 entries stays non-negative. */
const BIAS = 128;
/** The bias of a whole evaluation (16 pairs). */
export const EVAL_BIAS: number = 16 * BIAS;
/** The first flag unit: below it, a sum is `value + EVAL_BIAS` and no flag is set. */
export const FLAG_UNIT = 8192;
/** The unit of the count of the mover's fives. */
export const MOVER_FIVE: number = FLAG_UNIT;
/** The unit of the count of the opponent's fives. */
export const OPP_FIVE: number = FLAG_UNIT * 64;
/** The unit of the count of the mover's open fours (a placement there wins at once). */
export const MOVER_FOUR: number = FLAG_UNIT * 64 * 64;
/** The unit of the count of the opponent's open fours (threats the mover must meet). */
export const OPP_FOUR: number = FLAG_UNIT * 64 * 64 * 64;

/**
 * `PAIR[m | o << 6]` for two windows whose mover counts are the two three-bit fields of m
 * and opponent counts those of o: `BIAS` + the windows' open-line value for the mover
 * (`LINE_WEIGHTS` of a window only one side holds, mover's positive) + the flag units of
 * their fives and open fours. Sums of 16 entries are exact in a double (under 2^38).
 */
export const PAIR: Float64Array = (() => {
  const t = new Float64Array(4096);
  for (let m = 0; m < 64; m++) {
    for (let o = 0; o < 64; o++) {
      let e = BIAS;
      for (const shift of [0, 3]) {
        const mc = (m >> shift) & 7, oc = (o >> shift) & 7;
        if (mc === 5) e += MOVER_FIVE;
        if (oc === 5) e += OPP_FIVE;
        if (oc === 0 && mc > 0 && mc < 5) {
          e += LINE_WEIGHTS[mc];
          if (mc === 4) e += MOVER_FOUR;
        } else if (mc === 0 && oc > 0 && oc < 5) {
          e -= LINE_WEIGHTS[oc];
          if (oc === 4) e += OPP_FOUR;
        }
      }
      t[m | (o << 6)] = e;
    }
  }
  return t;
})();

/**
 * The evaluation sum of the mover's count vector `v[m ..]` against the opponent's
 * `v[o ..]`: `EVAL_BIAS` + the open-line value + the flag units (`flagsOf` reads them).
 */
export const pairSum = (v: Int32Array, m: number, o: number): number => {
  const m0 = v[m], m1 = v[m + 1], m2 = v[m + 2], m3 = v[m + 3];
  const o0 = v[o], o1 = v[o + 1], o2 = v[o + 2], o3 = v[o + 3];
  return PAIR[(m0 & 63) | ((o0 & 63) << 6)] +
    PAIR[((m0 >>> 6) & 63) | (((o0 >>> 6) & 63) << 6)] +
    PAIR[((m0 >>> 12) & 63) | (((o0 >>> 12) & 63) << 6)] +
    PAIR[((m0 >>> 18) & 63) | (((o0 >>> 18) & 63) << 6)] +
    PAIR[((m0 >>> 24) & 63) | (((o0 >>> 24) & 63) << 6)] +
    PAIR[(m1 & 63) | ((o1 & 63) << 6)] +
    PAIR[((m1 >>> 6) & 63) | (((o1 >>> 6) & 63) << 6)] +
    PAIR[((m1 >>> 12) & 63) | (((o1 >>> 12) & 63) << 6)] +
    PAIR[((m1 >>> 18) & 63) | (((o1 >>> 18) & 63) << 6)] +
    PAIR[((m1 >>> 24) & 63) | (((o1 >>> 24) & 63) << 6)] +
    PAIR[(m2 & 63) | ((o2 & 63) << 6)] +
    PAIR[((m2 >>> 6) & 63) | (((o2 >>> 6) & 63) << 6)] +
    PAIR[((m2 >>> 12) & 63) | (((o2 >>> 12) & 63) << 6)] +
    PAIR[((m2 >>> 18) & 63) | (((o2 >>> 18) & 63) << 6)] +
    PAIR[((m2 >>> 24) & 63) | (((o2 >>> 24) & 63) << 6)] +
    PAIR[(m3 & 63) | ((o3 & 63) << 6)];
};

/** The flag counts of a sum (`pairSum`): fives and open fours of each side. */
export interface Flags {
  /** The mover's fives. */
  readonly moverFives: number;
  /** The opponent's fives. */
  readonly oppFives: number;
  /** The mover's open fours (four marbles, the fifth cell empty). */
  readonly moverFours: number;
  /** The opponent's open fours. */
  readonly oppFours: number;
  /** The open-line value for the mover (`linesValue`'s sum, the mover's view). */
  readonly value: number;
}

/** Reads a sum (`pairSum`) apart; for tests and tools (the engine decodes inline). */
export const flagsOf = (k: number): Flags => {
  const hi = Math.floor(k / FLAG_UNIT);
  return {
    moverFives: hi & 63,
    oppFives: (hi >>> 6) & 63,
    moverFours: (hi >>> 12) & 63,
    oppFours: (hi >>> 18) & 63,
    value: k - hi * FLAG_UNIT - EVAL_BIAS,
  };
};
