/**
 * Position hashing: the one place the project mixes bits. `hashInts` is a 53-bit hash of
 * a list of small integers for `Game.key`, exact enough for transposition tables
 * (collisions at 2^-53 per pair); its two 32-bit lanes (`laneA`, `laneB`) and finish
 * (`finish53`) serve the plugins that hash a few words without an array (Pentago's
 * bitboards) or keep the lanes as a 64-bit fingerprint (2048's expectimax cache). `fmix32`
 * (murmur3's finalizer, also the seeding of `rng.ts`) and `mix32` turn words into table
 * slots.
 *
 * These are small functions on purpose: V8 inlines them into the hot loops that call them.
 * Pass them int32 values (`v | 0` after a `>>>` or a `%`): where a call is not inlined, a
 * double argument is boxed, which measured 25% slower in the Domineering solver.
 *
 * @module
 */

/** The first lane's start (cyrb53's). */
export const LANE_A_SEED = 0xdeadbeef;
/** The second lane's start (cyrb53's). */
export const LANE_B_SEED = 0x41c6ce57;

/**
 * One step of the first 32-bit lane: mixes value `v` into lane state `h`.
 *
 * @example Order matters
 * ```ts
 * import { laneA, LANE_A_SEED } from "./hash.ts";
 * const ab = laneA(laneA(LANE_A_SEED, 1), 2), ba = laneA(laneA(LANE_A_SEED, 2), 1);
 * if (ab === ba) throw new Error("order-blind");
 * ```
 */
export const laneA = (h: number, v: number): number => Math.imul(h ^ v, 2654435761);

/** One step of the second 32-bit lane (another multiplier than `laneA`). */
export const laneB = (h: number, v: number): number => Math.imul(h ^ v, 1597334677);

/**
 * The 53-bit non-negative integer hash of two lane states (each lane avalanched and
 * crossed with the other).
 */
export const finish53 = (h1: number, h2: number): number => {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
};

/**
 * A 53-bit hash of the first `length` values (each treated as a 32-bit int), the lanes
 * started from their seeds xor `seed`.
 *
 * @example A prefix: the grid of a state whose last entry does not matter
 * ```ts
 * import { hashPrefix } from "./hash.ts";
 * if (hashPrefix([1, 2, 3], 2, 0) !== hashPrefix([1, 2, 4], 2, 0)) throw new Error();
 * ```
 */
export const hashPrefix = (values: ArrayLike<number>, length: number, seed: number): number => {
  let h1 = LANE_A_SEED ^ seed;
  let h2 = LANE_B_SEED ^ seed;
  for (let i = 0; i < length; i++) {
    const v = values[i] | 0;
    h1 = laneA(h1, v);
    h2 = laneB(h2, v);
  }
  return finish53(h1, h2);
};

/**
 * A 53-bit non-negative integer hash of the values (each treated as a 32-bit int).
 *
 * @example Equal arrays hash equally
 * ```ts
 * import { hashInts } from "./hash.ts";
 * if (hashInts([1, 2, 3]) !== hashInts([1, 2, 3])) throw new Error("unstable");
 * ```
 */
export const hashInts = (values: ArrayLike<number>): number =>
  hashPrefix(values, values.length, values.length);

/**
 * Murmur3's 32-bit finalizer: a bijection on 32-bit integers in which every input bit
 * flips each output bit with probability about 1/2. Returns a signed 32-bit integer.
 *
 * @example
 * ```ts
 * import { fmix32 } from "./hash.ts";
 * if (fmix32(0) !== 0 || fmix32(1) === 1) throw new Error();
 * ```
 */
export const fmix32 = (h: number): number => {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
};

/**
 * A 32-bit hash of two 32-bit words (such as the halves of a 64-bit key), for table
 * slots: take its low bits with a mask, or its high bits with a shift. Signed.
 */
export const mix32 = (lo: number, hi: number): number => fmix32(laneA(lo, 0) ^ hi);
