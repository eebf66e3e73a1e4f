/**
 * Position hashing helpers for `Game.key`: a 53-bit hash of a list of small integers,
 * exact enough for transposition tables (collisions at 2^-53 per pair).
 *
 * @module
 */

/**
 * A 53-bit non-negative integer hash of the values (each treated as a 32-bit int).
 *
 * @example Equal arrays hash equally
 * ```ts
 * import { hashInts } from "./hash.ts";
 * if (hashInts([1, 2, 3]) !== hashInts([1, 2, 3])) throw new Error("unstable");
 * ```
 */
export const hashInts = (values: ArrayLike<number>): number => {
  let h1 = 0xdeadbeef ^ values.length;
  let h2 = 0x41c6ce57 ^ values.length;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] | 0;
    h1 = Math.imul(h1 ^ v, 2654435761);
    h2 = Math.imul(h2 ^ v, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
};

/** Mixes one more 32-bit value into a 53-bit hash (for incremental keys). */
export const mixHash = (h: number, v: number): number =>
  hashInts([h % 4294967296, Math.floor(h / 4294967296), v]);
