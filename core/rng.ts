/**
 * A small, fast, seedable pseudo-random generator for hot loops (playouts, shuffling,
 * random tie-breaks). Effect's `Random` seeds it at the edge, so every random choice
 * still flows from the user's seed.
 *
 * @module
 */
import { type Effect, Random } from "./deps.ts";
import { fmix32 } from "./hash.ts";

/** A source of uniform numbers in [0, 1). */
export interface Rng {
  /** The next uniform float in [0, 1). */
  next(): number;
  /** A uniform integer in [0, n). */
  int(n: number): number;
}

/**
 * A seeded generator (sfc32 with a splitmix32 seeding); the same seed gives the same
 * sequence on every platform.
 *
 * @example
 * ```ts
 * import { makeRng } from "./rng.ts";
 * const a = makeRng(7), b = makeRng(7);
 * if (a.int(100) !== b.int(100)) throw new Error("not deterministic");
 * ```
 */
export const makeRng = (seed: number): Rng => {
  let s = seed >>> 0;
  // splitmix32: a Weyl sequence through murmur3's finalizer.
  const split = () => {
    s = (s + 0x9e3779b9) | 0;
    return fmix32(s) >>> 0;
  };
  let a = split(), b = split(), c = split(), d = split();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return { next, int: (n) => Math.floor(next() * n) };
};

/**
 * A uniform index in [0, n) from Effect's `Random` (whose `nextIntBetween` includes its
 * upper bound unless asked not to).
 */
export const randomIndex = (n: number): Effect.Effect<number> =>
  Random.nextIntBetween(0, n, { halfOpen: true });
