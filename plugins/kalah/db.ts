/**
 * Kalah endgame databases: the exact value of every position with at most `K` stones
 * left in the houses, for one board width and capture rule.
 *
 * A position is seen from the player to move: `h[0..n-1]` are the mover's houses from
 * the mover's left, `h[n..2n-1]` the opponent's from the opponent's left. Its value is
 * the mover's *future* net gain: the stones that will still reach the mover's store
 * minus those that will reach the opponent's, under perfect play. It does not depend on
 * what the stores already hold, so one table serves every position with the same houses.
 *
 * Positions are ranked by their number of stones `s` (levels) and, within a level, in
 * lexicographic order of the houses (the combinatorial number system), so a level holds
 * `C(s + 2n - 1, 2n - 1)` entries and the table is one `Int8Array`.
 *
 * Inside a level, a move that puts no stone in a store keeps the level; it moves stones
 * towards the mover's store, so such chains end and a memoized recursion settles them.
 *
 * @module
 */

/** An endgame database for one board width and capture rule. */
export interface EndgameDb {
  /** Houses per side. */
  readonly pits: number;
  /** True for seed 000's capture rule (capture even when the opposite house is empty). */
  readonly captureAlways: boolean;
  /** The largest number of stones in the houses it covers. */
  readonly maxStones: number;
  /** Values by rank (see `rankPosition`). */
  readonly values: Int8Array;
  /** `offsets[s]`: the rank of the first position with `s` stones. */
  readonly offsets: Float64Array;
  /** Binomial coefficients `C(a, b)` at `a * (2n + 1) + b`, for ranking. */
  readonly binom: Float64Array;
}

/** The marker of a value not yet computed during a build. */
const UNKNOWN = -128;

/** The number of positions with at most `maxStones` stones on `2 * pits` houses. */
export const dbSize = (pits: number, maxStones: number): number =>
  binomial(maxStones + 2 * pits, 2 * pits);

/** `C(a, b)` as a float (exact below 2^53). */
export const binomial = (a: number, b: number): number => {
  if (b < 0 || b > a) return 0;
  let r = 1;
  for (let i = 1; i <= Math.min(b, a - b); i++) r = (r * (a - Math.min(b, a - b) + i)) / i;
  return Math.round(r);
};

const tables = (pits: number, maxStones: number) => {
  const k = 2 * pits;
  const binom = new Float64Array((maxStones + k + 1) * (k + 1));
  for (let a = 0; a <= maxStones + k; a++) {
    for (let b = 0; b <= k; b++) binom[a * (k + 1) + b] = binomial(a, b);
  }
  const offsets = new Float64Array(maxStones + 2);
  for (let s = 0; s <= maxStones; s++) offsets[s + 1] = offsets[s] + binomial(s + k - 1, k - 1);
  return { binom, offsets };
};

/**
 * The rank of the houses `h[off .. off + 2n - 1]` holding `s` stones in all (the caller
 * knows `s`).
 */
export const rankPosition = (
  db: Pick<EndgameDb, "pits" | "offsets" | "binom">,
  h: ArrayLike<number>,
  off: number,
  s: number,
): number => {
  const k = 2 * db.pits, w = k + 1, binom = db.binom;
  let idx = db.offsets[s];
  let r = s;
  for (let i = 0; i < k - 1; i++) {
    const c = h[off + i];
    if (c > 0) {
      const p = k - i; // parts left, this one included
      idx += binom[(r + p - 1) * w + p - 1] - binom[(r - c + p - 1) * w + p - 1];
      r -= c;
      if (r === 0) break;
    }
  }
  return idx;
};

/**
 * The rank of the houses with their halves swapped (the opponent's view), without
 * swapping them: the same as `rankPosition` after `flipHalves`, whose loop it runs
 * over the two halves in turn (the solver ranks a sown child this way instead of
 * flipping it first; the tests tie the two together).
 */
export const rankFlipped = (
  db: Pick<EndgameDb, "pits" | "offsets" | "binom">,
  h: ArrayLike<number>,
  off: number,
  s: number,
): number => {
  const n = db.pits, k = 2 * n, w = k + 1, binom = db.binom;
  let idx = db.offsets[s];
  let r = s;
  let p = k;
  for (let j = off + n; j < off + k; j++, p--) {
    const c = h[j];
    if (c > 0) {
      idx += binom[(r + p - 1) * w + p - 1] - binom[(r - c + p - 1) * w + p - 1];
      r -= c;
      if (r === 0) return idx;
    }
  }
  for (let j = off; j < off + n - 1; j++, p--) {
    const c = h[j];
    if (c > 0) {
      idx += binom[(r + p - 1) * w + p - 1] - binom[(r - c + p - 1) * w + p - 1];
      r -= c;
      if (r === 0) return idx;
    }
  }
  return idx;
};

/**
 * Sows the mover's house `i` of the mover-relative houses `h[off .. off + 2n - 1]` in
 * place (the endgame solver's own form of `rules.ts`'s sowing: houses only, from the
 * mover's side, the net gain returned; tested against `sowNaive`), given the stones on
 * the mover's side (`mine`) and the opponent's (`theirs`).
 * Returns the mover's immediate net gain and writes into `out`: `out[0]` is 1 when the
 * mover moves again, 0 when the opponent moves, 2 when the game ended (all houses are
 * then empty and the gain includes the sweep); `out[1]` and `out[2]` are the stones then
 * on the mover's and the opponent's side. The caller flips the halves when the opponent
 * moves. Its twin `predictSow` foretells the same without sowing (the same arguments,
 * lap arithmetic and game-end sweep): see there why both exist.
 */
export const sowRelative = (
  h: Int32Array,
  off: number,
  n: number,
  i: number,
  captureAlways: boolean,
  out: Int32Array,
  mine: number,
  theirs: number,
): number => {
  const lap = 2 * n + 1;
  const g = h[off + i];
  h[off + i] = 0;
  mine -= g;
  let gain = 0;
  let rest = g - 1;
  if (rest >= lap) {
    const q = Math.floor(rest / lap);
    rest -= q * lap;
    for (let j = off; j < off + 2 * n; j++) h[j] += q;
    gain += q;
    mine += n * q;
    theirs += n * q;
  }
  // Cycle positions: own houses 0..n-1, the store n, the opponent's n+1..2n (index c-1).
  let c = i;
  for (let x = 0; x < rest; x++) {
    if (++c === lap) c = 0;
    if (c < n) {
      h[off + c]++;
      mine++;
    } else if (c === n) gain++;
    else {
      h[off + c - 1]++;
      theirs++;
    }
  }
  if (++c === lap) c = 0;
  let next = 0;
  if (c === n) {
    gain++;
    next = 1;
  } else if (c > n) {
    h[off + c - 1]++;
    theirs++;
  } else if (h[off + c] === 0) {
    const opp = off + 2 * n - 1 - c;
    const taken = h[opp];
    if (captureAlways || taken > 0) {
      gain += taken + 1;
      h[opp] = 0;
      theirs -= taken;
    } else {
      h[off + c] = 1;
      mine++;
    }
  } else {
    h[off + c]++;
    mine++;
  }
  if (mine === 0 || theirs === 0) {
    gain += mine - theirs;
    for (let j = off; j < off + 2 * n; j++) h[j] = 0;
    next = 2;
    mine = 0;
    theirs = 0;
  }
  out[0] = next;
  out[1] = mine;
  out[2] = theirs;
  return gain;
};

/**
 * What `sowRelative` would return and write into `out` for the mover's house `i`, in
 * O(1) and without touching the houses: the solver orders and settles moves with it and
 * sows only the ones it searches. It takes `sowRelative`'s arguments, starts with its
 * lap arithmetic and ends with its game-end sweep on purpose (the same contract,
 * foretold); the tests tie the two together and both to `rules.ts`'s stone-by-stone
 * `sowNaive`. Sowing a copy instead made the solver slower where houses hold many
 * stones: `deno task bench kalah --solve 4 8`, search 8.0-8.2 s with it, 8.6-9.0 s
 * without (Kalah(5, 4): 1.8 s either way).
 */
export const predictSow = (
  h: ArrayLike<number>,
  off: number,
  n: number,
  i: number,
  captureAlways: boolean,
  out: Int32Array,
  mine: number,
  theirs: number,
): number => {
  const lap = 2 * n + 1;
  const g = h[off + i];
  mine -= g;
  let gain = 0, rest = g - 1, q = 0;
  if (rest >= lap) {
    q = Math.floor(rest / lap);
    rest -= q * lap;
    gain += q;
    mine += n * q;
    theirs += n * q;
  }
  // The other stones but the last reach cycle positions i + 1 .. e (own houses
  // 0..n-1, the store n, the opponent's n+1..2n; past 2n it wraps to 0).
  const e = i + rest;
  const top = e < lap - 1 ? e : lap - 1;
  if (e >= n) gain++;
  mine += (e < n - 1 ? e : n - 1) - i;
  if (top > n) theirs += top - n;
  if (e >= lap) mine += e - lap + 1;
  const c = (e + 1) % lap;
  let next = 0;
  if (c === n) {
    gain++;
    next = 1;
  } else if (c > n) theirs++;
  else if ((c === i ? 0 : h[off + c]) + q === 0) {
    const opp = 2 * n - 1 - c;
    const d = (opp + 1 - i + lap) % lap;
    const taken = h[off + opp] + q + (d <= rest ? 1 : 0);
    if (captureAlways || taken > 0) {
      gain += taken + 1;
      theirs -= taken;
    } else mine++;
  } else mine++;
  if (mine === 0 || theirs === 0) {
    gain += mine - theirs;
    next = 2;
    mine = 0;
    theirs = 0;
  }
  out[0] = next;
  out[1] = mine;
  out[2] = theirs;
  return gain;
};

/** Swaps the two halves of `h[off .. off + 2n - 1]` (the other player's view). */
export const flipHalves = (h: Int32Array, off: number, n: number): void => {
  for (let j = off; j < off + n; j++) {
    const t = h[j];
    h[j] = h[j + n];
    h[j + n] = t;
  }
};

/** Progress of a build: the level just finished and the time so far. */
export type BuildProgress = (level: number, positions: number, ms: number) => void;

/**
 * The builder of one database's levels over `values` (every entry up to `maxStones`
 * stones, `UNKNOWN` where not yet known): `(s, part, parts)` settles the positions of
 * level `s` in stripes `part`, `part + parts`, ... (every position for `part` 0 of 1;
 * a level has about 16 stripes per part, of 64 to 4096 positions). Levels below `s` must be settled first. Positions of the
 * same level that a move reaches are settled on the way, whichever stripe holds them, so
 * builders sharing `values` may settle one twice, always to the same value.
 */
export const levelSolver = (
  pits: number,
  captureAlways: boolean,
  maxStones: number,
  values: Int8Array,
): (s: number, part: number, parts: number) => void => {
  if (maxStones > 127) throw new RangeError("an endgame database holds at most 127 stones");
  const n = pits, k = 2 * n;
  const { binom, offsets } = tables(pits, maxStones);
  // One board per recursion level (same-level chains are at most s * n long).
  const maxDepth = maxStones * n + 4;
  const stack = new Int32Array((maxDepth + 1) * k);
  const w = k + 1, flag = new Int32Array(3);
  // The search of one position (its houses at `stack[d * k]`), with ranking inlined: this
  // loop runs for every position of the database.
  const solve = (d: number): number => {
    const off = d * k;
    let mine0 = 0, theirs0 = 0;
    for (let j = off; j < off + n; j++) mine0 += stack[j];
    for (let j = off + n; j < off + k; j++) theirs0 += stack[j];
    if (mine0 === 0 || theirs0 === 0) return mine0 - theirs0;
    let best = -1000;
    const c0 = off + k;
    for (let i = 0; i < n; i++) {
      const g = stack[off + i];
      if (g === 0) continue;
      for (let j = 0; j < k; j++) stack[c0 + j] = stack[off + j];
      const gain = sowRelative(stack, c0, n, i, captureAlways, flag, mine0, theirs0);
      const next = flag[0], mine = flag[1], theirs = flag[2];
      let v: number;
      if (next === 2) v = gain;
      else {
        // Rank the child as its mover sees it (flipped unless it is an extra turn).
        const left = mine + theirs;
        let idx = offsets[left], r = left, p = k;
        const first = next === 1 ? c0 : c0 + n;
        for (let j = first; j < first + k - 1; j++, p--) {
          const cj = stack[j < c0 + k ? j : j - k];
          if (cj > 0) {
            idx += binom[(r + p - 1) * w + p - 1] - binom[(r - cj + p - 1) * w + p - 1];
            r -= cj;
            if (r === 0) break;
          }
        }
        let cv = values[idx];
        if (cv === UNKNOWN) {
          if (next === 0) flipHalves(stack, c0, n);
          cv = solve(d + 1);
          values[idx] = cv;
        }
        v = next === 1 ? gain + cv : gain - cv;
      }
      if (v > best) best = v;
    }
    return best;
  };
  const h = new Int32Array(k);
  return (s, part, parts) => {
    // Enumerate the level in rank order: compositions of s into k parts, lexicographic.
    let idx = offsets[s], i = 0;
    const size = offsets[s + 1] - offsets[s];
    const stripe = Math.min(4096, Math.max(64, Math.ceil(size / (16 * parts))));
    h.fill(0);
    h[k - 1] = s;
    while (true) {
      if (values[idx] === UNKNOWN && Math.floor(i / stripe) % parts === part) {
        for (let j = 0; j < k; j++) stack[j] = h[j];
        values[idx] = solve(0);
      }
      idx++;
      i++;
      if (!nextComposition(h, k)) break;
    }
  };
};

/**
 * The values of a database under construction: `UNKNOWN` everywhere but the levels
 * `from` (a smaller database of the same board and rule) already holds, in a
 * `SharedArrayBuffer` when `shared`. Returns them with the first level left to build.
 */
export const startValues = (
  pits: number,
  captureAlways: boolean,
  maxStones: number,
  from: EndgameDb | undefined,
  shared: boolean,
): { readonly values: Int8Array; readonly firstLevel: number } => {
  if (maxStones > 127) throw new RangeError("an endgame database holds at most 127 stones");
  const total = dbSize(pits, maxStones);
  const values = new Int8Array(shared ? new SharedArrayBuffer(total) : new ArrayBuffer(total));
  values.fill(UNKNOWN);
  let firstLevel = 0;
  if (from !== undefined && from.pits === pits && from.captureAlways === captureAlways) {
    // The levels a smaller database already holds are kept as they are.
    firstLevel = Math.min(from.maxStones, maxStones) + 1;
    values.set(from.values.subarray(0, dbSize(pits, firstLevel - 1)));
  }
  return { values, firstLevel };
};

/**
 * Builds the database of every position with at most `maxStones` stones, level by level
 * (each level needs only itself and the levels below), on this thread; `db_build.ts`
 * shares the levels between workers.
 *
 * @example Kalah with one house a side: one stone each, the mover sows into the store
 * and moves again with an empty side, so the sweep gives north its stone: net 0
 * ```ts
 * import { buildDb, lookup } from "./db.ts";
 * const db = buildDb(1, false, 2);
 * if (lookup(db, Int32Array.from([1, 1]), 0, 2) !== 0) throw new Error();
 * ```
 */
export const buildDb = (
  pits: number,
  captureAlways: boolean,
  maxStones: number,
  progress?: BuildProgress,
  from?: EndgameDb,
): EndgameDb => {
  const { values, firstLevel } = startValues(pits, captureAlways, maxStones, from, false);
  const settle = levelSolver(pits, captureAlways, maxStones, values);
  const start = performance.now();
  for (let s = firstLevel; s <= maxStones; s++) {
    settle(s, 0, 1);
    progress?.(s, levelSize(pits, s), performance.now() - start);
  }
  return dbFromValues(pits, captureAlways, maxStones, values);
};

/** The number of positions with exactly `s` stones on `2 * pits` houses. */
export const levelSize = (pits: number, s: number): number =>
  binomial(s + 2 * pits - 1, 2 * pits - 1);

/** The stones in `k` houses from `off`. */
export const stonesIn = (h: Int32Array, off: number, k: number): number => {
  let t = 0;
  for (let j = off; j < off + k; j++) t += h[j];
  return t;
};

/**
 * Steps `h` (k parts with a fixed sum) to the next composition in lexicographic order;
 * false after the last one.
 */
export const nextComposition = (h: Int32Array, k: number): boolean => {
  // Find the rightmost part before the last that can grow: it takes one from the tail.
  const last = h[k - 1];
  if (last > 0) {
    h[k - 2]++;
    h[k - 1] = last - 1;
    return true;
  }
  // The last part is empty: find the rightmost non-zero part p < k-1, move it on.
  let p = k - 2;
  while (p >= 0 && h[p] === 0) p--;
  if (p <= 0) return false;
  const v = h[p];
  h[p] = 0;
  h[p - 1]++;
  h[k - 1] = v - 1;
  return true;
};

/** The database value of the mover-relative houses `h[off ..]` holding `s` stones. */
export const lookup = (db: EndgameDb, h: ArrayLike<number>, off: number, s: number): number =>
  db.values[rankPosition(db, h, off, s)];

/**
 * A database from stored values (a file's bytes): any prefix of a larger database's
 * values is the database of its first levels.
 */
export const dbFromValues = (
  pits: number,
  captureAlways: boolean,
  maxStones: number,
  values: Int8Array,
): EndgameDb => {
  const { binom, offsets } = tables(pits, maxStones);
  const size = offsets[maxStones + 1];
  if (values.length < size) {
    throw new RangeError(`${values.length} values are too few for ${maxStones} stones (${size})`);
  }
  return { pits, captureAlways, maxStones, values: values.subarray(0, size), offsets, binom };
};
