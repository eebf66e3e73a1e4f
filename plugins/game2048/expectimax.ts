/**
 * The fast expectimax for 2048, the plugin's `expectimax` strategy. The slider maximizes,
 * the computer's node is worth the probability-weighted mean of its tile placements (seed
 * 001's expectimax), over:
 *
 * - the compact 4x4 board of `board.ts` (two 32-bit words, slides and evaluations by row
 *   tables) or, for other sizes and for tiles beyond 32768, a general path over flat
 *   buffers preallocated per ply (no allocation per node);
 * - a cache of evaluated computer nodes (board and remaining depth), shared by the
 *   iterations of one search;
 * - a probability cut-off: a computer node whose path probability (the product of the
 *   tile probabilities from the root) is below `minProbability` (default 1e-4) is
 *   evaluated as a leaf;
 * - the depth: a fixed depth in plies (`expectimax:7`), or with a time budget
 *   (`expectimax:100ms`) iterative deepening over 1, 3, 5, ... plies (each iteration one
 *   more slide) up to a cap set by the board (`autoSlides`: deeper as the board fills),
 *   stopping early when the next iteration would not fit the budget. The budget is an
 *   upper bound: on most moves the cap ends the search well before it. Without either,
 *   the cap alone sets the depth.
 *
 * Spec parameters: `,cutoff=P` sets the probability cut-off (0 turns it off) and
 * `,slides=K` replaces the board's cap by K slides (`expectimax:1s,slides=6`).
 *
 * Leaves take the game's evaluation (`eval` option): seed 001's gradient, or "monotone".
 * With `minProbability: 0` the value equals seed 001's tree expectimax
 * (`core/tree.ts`) on the same depth, which the tests check.
 *
 * @module
 */
import type { Game } from "../../core/game.ts";
import { alphabetaSearch } from "../../core/search/alphabeta.ts";
import { SearchStopped } from "../../core/search/control.ts";
import type { SearchOptions, SearchResult, Strategy } from "../../core/search/types.ts";
import {
  canMove4,
  distinctTiles4,
  empty4,
  gradient4,
  monotone4,
  packCells,
  ROW_LEFT,
  ROW_RIGHT,
  slideBoard,
  transposeHi,
  transposeLo,
} from "./board.ts";
import {
  canSlide,
  DEATH_VALUE,
  type Game2048,
  is2048,
  lineScore,
  linesOf,
  P_FOUR,
  P_TWO,
  rankOf,
  SLIDER_TURN,
  type State2048,
} from "./rules.ts";

/** The default probability cut-off (as the C++ program's `CPROB_THRESH_BASE`). */
export const DEFAULT_MIN_PROBABILITY = 1e-4;

/** The deepest search in plies the engine accepts (the cache stores depths below 64). */
export const MAX_PLIES = 63;

// ---------------------------------------------------------------------------------------
// Per-search settings, module-level so that the hot functions stay monomorphic and warm
// from one search to the next (closures made per search would start cold each time).

let minP = 0;
let monotone = false;
let nodes = 0;
let cut = false;
let stoppable = false;
let deadline = Infinity;
let stopFlag: (() => boolean) | undefined;
const OUT = new Int32Array(2);

// The deadline applies once one iteration is complete; an interruption at any time.
const poll = (): void => {
  if ((stoppable && performance.now() >= deadline) || (stopFlag !== undefined && stopFlag())) {
    throw new SearchStopped();
  }
};

// ---------------------------------------------------------------------------------------
// The cache of computer nodes: open slots keyed by two 32-bit words of the board and a
// stamp (search generation, remaining depth, and whether the subtree was cut off).

const CACHE_BITS = 20;
const CACHE_MASK = (1 << CACHE_BITS) - 1;
let cacheLo = new Int32Array(0);
let cacheHi = new Int32Array(0);
let cacheStamp = new Int32Array(0);
let cacheValue = new Float64Array(0);
let generation = 0;

const newGeneration = (): void => {
  if (cacheStamp.length === 0) {
    cacheLo = new Int32Array(CACHE_MASK + 1);
    cacheHi = new Int32Array(CACHE_MASK + 1);
    cacheStamp = new Int32Array(CACHE_MASK + 1);
    cacheValue = new Float64Array(CACHE_MASK + 1);
  }
  generation++;
  if (generation >= 1 << 24) {
    cacheStamp.fill(0);
    generation = 1;
  }
};

const slotOf = (lo: number, hi: number, depth: number): number => {
  let h = Math.imul(lo ^ Math.imul(depth, 0x27d4eb2d), 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h & CACHE_MASK;
};

// ---------------------------------------------------------------------------------------
// The compact 4x4 path.

const leafSlider4 = (lo: number, hi: number): number =>
  monotone ? (canMove4(lo, hi) ? monotone4(lo, hi) : DEATH_VALUE) : gradient4(lo, hi);

/** A slider node of the compact path; `depth` plies remain. Moves in the order L, R, U, D. */
const slider4 = (lo: number, hi: number, depth: number, prob: number): number => {
  if ((++nodes & 4095) === 0) poll();
  if (depth <= 0) {
    cut = true;
    return leafSlider4(lo, hi);
  }
  const r0 = lo & 0xffff, r1 = lo >>> 16, r2 = hi & 0xffff, r3 = hi >>> 16;
  let best = -Infinity;
  let a = ROW_LEFT[r0] | (ROW_LEFT[r1] << 16), b = ROW_LEFT[r2] | (ROW_LEFT[r3] << 16);
  if (a !== lo || b !== hi) best = chance4(a, b, depth - 1, prob);
  a = ROW_RIGHT[r0] | (ROW_RIGHT[r1] << 16);
  b = ROW_RIGHT[r2] | (ROW_RIGHT[r3] << 16);
  if (a !== lo || b !== hi) {
    const v = chance4(a, b, depth - 1, prob);
    if (v > best) best = v;
  }
  // Up and down slide the rows of the transposed board.
  const tl = transposeLo(lo, hi), th = transposeHi(lo, hi);
  const t0 = tl & 0xffff, t1 = tl >>> 16, t2 = th & 0xffff, t3 = th >>> 16;
  a = ROW_LEFT[t0] | (ROW_LEFT[t1] << 16);
  b = ROW_LEFT[t2] | (ROW_LEFT[t3] << 16);
  if (a !== tl || b !== th) {
    const v = chance4(transposeLo(a, b), transposeHi(a, b), depth - 1, prob);
    if (v > best) best = v;
  }
  a = ROW_RIGHT[t0] | (ROW_RIGHT[t1] << 16);
  b = ROW_RIGHT[t2] | (ROW_RIGHT[t3] << 16);
  if (a !== tl || b !== th) {
    const v = chance4(transposeLo(a, b), transposeHi(a, b), depth - 1, prob);
    if (v > best) best = v;
  }
  return best === -Infinity ? leafSlider4(lo, hi) : best;
};

/** A computer node of the compact path: the mean over the tile placements. */
const chance4 = (lo: number, hi: number, depth: number, prob: number): number => {
  if ((++nodes & 4095) === 0) poll();
  if (depth <= 0 || prob < minP) {
    cut = true;
    return monotone ? monotone4(lo, hi) : gradient4(lo, hi);
  }
  const slot = slotOf(lo, hi, depth);
  const tag = (generation << 7) | (depth << 1);
  const stamp = cacheStamp[slot];
  if ((stamp & ~1) === tag && cacheLo[slot] === lo && cacheHi[slot] === hi) {
    if (stamp & 1) cut = true;
    return cacheValue[slot];
  }
  const free = empty4(lo, hi);
  const p2 = P_TWO / free, p4 = P_FOUR / free;
  const q2 = prob * p2, q4 = prob * p4;
  const cutBefore = cut;
  cut = false;
  let v = 0;
  for (let i = 0; i < 32; i += 4) {
    if (((lo >>> i) & 15) === 0) {
      v += p2 * slider4(lo | (1 << i), hi, depth - 1, q2);
      v += p4 * slider4(lo | (2 << i), hi, depth - 1, q4);
    }
  }
  for (let i = 0; i < 32; i += 4) {
    if (((hi >>> i) & 15) === 0) {
      v += p2 * slider4(lo, hi | (1 << i), depth - 1, q2);
      v += p4 * slider4(lo, hi | (2 << i), depth - 1, q4);
    }
  }
  cacheLo[slot] = lo;
  cacheHi[slot] = hi;
  cacheValue[slot] = v;
  cacheStamp[slot] = tag | (cut ? 1 : 0);
  cut = cut || cutBefore;
  return v;
};

// ---------------------------------------------------------------------------------------
// The general path: tile values in one buffer per ply (any size, any tile).

let gw = 0, gh = 0, gn = 0;
let lineStarts: (readonly number[])[] = [];
let lineSteps: number[] = [];
let lineLengths: number[] = [];
let buffers: Int32Array[] = [];
let rankScratch = new Int32Array(0);

const setupGeneral = (w: number, h: number, plies: number): void => {
  if (w !== gw || h !== gh) {
    gw = w;
    gh = h;
    gn = w * h;
    const ls = [0, 1, 2, 3].map((d) => linesOf(w, h, d));
    lineStarts = ls.map((l) => l.starts);
    lineSteps = ls.map((l) => l.step);
    lineLengths = ls.map((l) => l.length);
    buffers = [];
    rankScratch = new Int32Array(gn);
  }
  while (buffers.length < plies + 2) buffers.push(new Int32Array(gn));
};

/**
 * Slides `src` into `dst` (every cell written); true when something moved. The same
 * rule as `rules.ts` `slideLine`, kept apart so that this hot loop only ever sees
 * `Int32Array`s.
 */
const slideG = (src: Int32Array, dst: Int32Array, dir: number): boolean => {
  const starts = lineStarts[dir], step = lineSteps[dir], len = lineLengths[dir];
  let changed = false;
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k], end = start + len * step;
    let write = start, pending = 0;
    for (let i = start; i !== end; i += step) {
      const v = src[i];
      if (v === 0) continue;
      if (pending === 0) {
        pending = v;
        continue;
      }
      let out = pending;
      if (pending === v) {
        out = 2 * v;
        pending = 0;
      } else pending = v;
      if (src[write] !== out) changed = true;
      dst[write] = out;
      write += step;
    }
    if (pending !== 0) {
      if (src[write] !== pending) changed = true;
      dst[write] = pending;
      write += step;
    }
    for (; write !== end; write += step) {
      if (src[write] !== 0) changed = true;
      dst[write] = 0;
    }
  }
  return changed;
};

const gradientG = (b: Int32Array): number => {
  let t = 0, x = 0, y = 0;
  for (let r = 0; r < gh; r++) {
    for (let c = 0; c < gw; c++) {
      const v = b[r * gw + c];
      t += v;
      x += c * v;
      y += r * v;
    }
  }
  return Math.min(gw, gh) * t - Math.min(x, (gw - 1) * t - x) - Math.min(y, (gh - 1) * t - y);
};

/** Line scores by packed ranks (4 bits each), for lines of 1-4 cells; built on first use. */
const lineTables: Float64Array[] = [];
const lineTable = (len: number): Float64Array => {
  let t = lineTables[len];
  if (t === undefined) {
    t = new Float64Array(1 << (4 * len));
    const line = new Int32Array(len);
    for (let key = 0; key < t.length; key++) {
      for (let c = 0; c < len; c++) line[c] = (key >>> (4 * c)) & 15;
      t[key] = lineScore(line, 0, 1, len);
    }
    lineTables[len] = t;
  }
  return t;
};

/** The line score of `rankScratch` from `start`: a table lookup when the line fits one. */
const lineG = (start: number, step: number, len: number): number => {
  if (len <= 4) {
    let key = 0, fits = true;
    for (let c = 0; c < len; c++) {
      const r = rankScratch[start + c * step];
      if (r > 15) fits = false;
      key |= r << (4 * c);
    }
    if (fits) return lineTable(len)[key];
  }
  return lineScore(rankScratch, start, step, len);
};

const monotoneG = (b: Int32Array): number => {
  for (let i = 0; i < gn; i++) rankScratch[i] = rankOf(b[i]);
  let v = 0;
  for (let y = 0; y < gh; y++) v += lineG(y * gw, 1, gw);
  for (let x = 0; x < gw; x++) v += lineG(x, gw, gh);
  return v;
};

const leafSliderG = (b: Int32Array): number =>
  monotone ? (canSlide(b, gw, gh) ? monotoneG(b) : DEATH_VALUE) : gradientG(b);

const sliderG = (ply: number, depth: number, prob: number): number => {
  if ((++nodes & 4095) === 0) poll();
  const b = buffers[ply];
  if (depth <= 0) {
    cut = true;
    return leafSliderG(b);
  }
  const child = buffers[ply + 1];
  let best = -Infinity;
  for (let d = 0; d < 4; d++) {
    if (!slideG(b, child, d)) continue;
    const v = chanceG(ply + 1, depth - 1, prob);
    if (v > best) best = v;
  }
  return best === -Infinity ? leafSliderG(b) : best;
};

const chanceG = (ply: number, depth: number, prob: number): number => {
  if ((++nodes & 4095) === 0) poll();
  const b = buffers[ply];
  if (depth <= 0 || prob < minP) {
    cut = true;
    return monotone ? monotoneG(b) : gradientG(b);
  }
  let h1 = 0x2048 ^ gn, h2 = 0x9e3779b9 ^ gn, free = 0;
  for (let i = 0; i < gn; i++) {
    const v = b[i];
    if (v === 0) free++;
    h1 = Math.imul(h1 ^ v, 2654435761);
    h2 = Math.imul(h2 ^ v, 1597334677);
  }
  h1 ^= h1 >>> 16;
  h2 ^= h2 >>> 13;
  const slot = slotOf(h1, h2, depth);
  const tag = (generation << 7) | (depth << 1);
  const stamp = cacheStamp[slot];
  if ((stamp & ~1) === tag && cacheLo[slot] === h1 && cacheHi[slot] === h2) {
    if (stamp & 1) cut = true;
    return cacheValue[slot];
  }
  const p2 = P_TWO / free, p4 = P_FOUR / free;
  const q2 = prob * p2, q4 = prob * p4;
  const child = buffers[ply + 1];
  child.set(b);
  const cutBefore = cut;
  cut = false;
  let v = 0;
  for (let i = 0; i < gn; i++) {
    if (b[i] !== 0) continue;
    child[i] = 2;
    v += p2 * sliderG(ply + 1, depth - 1, q2);
    child[i] = 4;
    v += p4 * sliderG(ply + 1, depth - 1, q4);
    child[i] = 0;
  }
  cacheLo[slot] = h1;
  cacheHi[slot] = h2;
  cacheValue[slot] = v;
  cacheStamp[slot] = tag | (cut ? 1 : 0);
  cut = cut || cutBefore;
  return v;
};

// ---------------------------------------------------------------------------------------
// The root and the depth policy.

/**
 * The depth cap in slides for a board of `cells` cells with `empty` empty ones and
 * `distinct` tile sizes: 2 slides in the opening (at most 4 tile sizes), 3 while at least
 * 6 of 16 cells are empty, 4 while at least 2 of 16 are, and 5 on a nearly full board,
 * where the game is decided and the computer's branching is small. A search of `s`
 * slides looks `2s - 1` plies ahead (it ends after the computer's last placements).
 *
 * @example
 * ```ts
 * import { autoSlides } from "./expectimax.ts";
 * if (autoSlides(16, 1, 3) !== 2 || autoSlides(16, 1, 9) !== 5) throw new Error();
 * ```
 */
export const autoSlides = (cells: number, empty: number, distinct: number): number => {
  if (distinct <= 4) return 2;
  if (empty * 16 >= 6 * cells) return 3;
  if (empty * 16 >= 2 * cells) return 4;
  return 5;
};

interface RootValue {
  readonly move: number | undefined;
  readonly value: number;
}

/** One full search of the root to `depth` plies. */
const searchRoot = (
  compact: readonly [number, number] | undefined,
  state: State2048,
  slider: boolean,
  depth: number,
): RootValue => {
  if (compact !== undefined) {
    const [lo, hi] = compact;
    if (!slider) return { move: undefined, value: chance4(lo, hi, depth, 1) };
    if (depth <= 0) {
      cut = true;
      return { move: undefined, value: leafSlider4(lo, hi) };
    }
    let best = -Infinity, move: number | undefined;
    for (let d = 0; d < 4; d++) {
      slideBoard(lo, hi, d, OUT);
      const a = OUT[0], b = OUT[1];
      if (a === lo && b === hi) continue;
      const v = chance4(a, b, depth - 1, 1);
      if (move === undefined || v > best) {
        best = v;
        move = d;
      }
    }
    return move === undefined ? { move, value: leafSlider4(lo, hi) } : { move, value: best };
  }
  const b = buffers[0];
  for (let i = 0; i < gn; i++) b[i] = state[i];
  if (!slider) return { move: undefined, value: chanceG(0, depth, 1) };
  if (depth <= 0) {
    cut = true;
    return { move: undefined, value: leafSliderG(b) };
  }
  let best = -Infinity, move: number | undefined;
  for (let d = 0; d < 4; d++) {
    if (!slideG(b, buffers[1], d)) continue;
    const v = chanceG(1, depth - 1, 1);
    if (move === undefined || v > best) {
      best = v;
      move = d;
    }
  }
  return move === undefined ? { move, value: leafSliderG(b) } : { move, value: best };
};

/** Empty cells and distinct tile values of a protocol state's grid. */
const shape = (state: State2048, n: number): [number, number] => {
  const seen = new Set<number>();
  let empty = 0;
  for (let i = 0; i < n; i++) {
    if (state[i] === 0) empty++;
    else seen.add(state[i]);
  }
  return [empty, seen.size];
};

/**
 * Which board representation a search uses: `"auto"` takes the compact one on 4x4 boards
 * whose tiles fit it, `"general"` forces the general path (for tests and benchmarks).
 */
export type Representation = "auto" | "general";

/**
 * Searches a 2048 position with the fast expectimax. `options.depth` fixes the depth in
 * plies; `options.timeMs` deepens one slide at a time within the budget; without either,
 * `autoSlides` sets the depth. `options.minProbability` overrides the 1e-4 cut-off.
 * The search keeps its tables in module state: it is not re-entrant (do not start a search
 * from `options.onIteration`).
 *
 * @example Seed 001's Figure 1 position before step 3: the slider to move
 * ```ts
 * import { createGame } from "./rules.ts";
 * import { fastExpectimax } from "./expectimax.ts";
 * const game = createGame(4, 4, "monotone");
 * const s = [8, 32, 64, 512, 0, 2, 2, 32, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0];
 * const r = fastExpectimax(game, s, { depth: 3 });
 * if (r.move === undefined || !game.moves(s).includes(r.move)) throw new Error();
 * ```
 */
export const fastExpectimax = (
  game: Game2048,
  state: State2048,
  options: SearchOptions = {},
  representation: Representation = "auto",
): SearchResult => {
  const start = performance.now();
  const w = game.width, h = game.height, n = w * h;
  const slider = state[n] === SLIDER_TURN;
  minP = options.minProbability ?? options.params?.cutoff ?? DEFAULT_MIN_PROBABILITY;
  monotone = game.evaluation === "monotone";
  nodes = 0;
  stoppable = false;
  deadline = options.timeMs === undefined ? Infinity : start + options.timeMs;
  stopFlag = options.shouldStop;
  newGeneration();
  const compact = w === 4 && h === 4 && representation !== "general" ? packCells(state) : undefined;
  const [empty, distinct] = compact !== undefined
    ? [empty4(compact[0], compact[1]), distinctTiles4(compact[0], compact[1])]
    : shape(state, n);
  const slides = options.params?.slides;
  const cap = 2 *
      (slides !== undefined
        ? Math.max(1, Math.min(31, Math.round(slides)))
        : autoSlides(n, empty, distinct)) - 1;
  const plan: number[] = [];
  if (options.timeMs === undefined) plan.push(Math.min(MAX_PLIES, options.depth ?? cap));
  else {
    const last = Math.min(MAX_PLIES, options.depth ?? cap);
    for (let d = 1; d < last; d += 2) plan.push(d);
    plan.push(last);
  }
  if (compact === undefined) setupGeneral(w, h, plan[plan.length - 1]);

  let result: SearchResult | undefined;
  let lastMs = 0, lastNodes = 0;
  for (const depth of plan) {
    const t0 = performance.now();
    const n0 = nodes;
    cut = false;
    let r: RootValue;
    try {
      r = searchRoot(compact, state, slider, depth);
    } catch (e) {
      if (e instanceof SearchStopped) break;
      throw e;
    }
    const now = performance.now();
    result = {
      move: r.move,
      value: r.value,
      pv: r.move === undefined ? [] : [r.move],
      nodes,
      depth,
      exact: !cut,
      timeMs: now - start,
    };
    options.onIteration?.(result);
    if (!cut) break;
    // The next iteration (one more slide) costs about as much more as this one did.
    const ms = now - t0, grown = nodes - n0;
    const factor = lastNodes > 0 ? Math.max(2, grown / lastNodes) : 8;
    lastMs = ms;
    lastNodes = grown;
    if (options.timeMs !== undefined && now + lastMs * factor > deadline) break;
    stoppable = true;
  }
  stoppable = false;
  stopFlag = undefined;
  if (result === undefined) {
    // Interrupted before the first iteration ended: the first legal move.
    const first = slider ? game.moves(state)[0] : undefined;
    result = {
      move: first,
      value: NaN,
      pv: first === undefined ? [] : [first],
      nodes,
      depth: 0,
      exact: false,
      timeMs: 0,
    };
  }
  return { ...result, nodes, timeMs: performance.now() - start };
};

/**
 * The plugin's `expectimax` strategy: the fast expectimax on 2048 games, the core's
 * generic expectimax on any other game.
 */
export const expectimax2048: Strategy = {
  name: "expectimax",
  description: "2048's fast expectimax: depth in plies, or deepening by the board's " +
    "emptiness within a time (,cutoff=P probability cut-off, default 1e-4; ,slides=K cap)",
  params: {
    cutoff: { min: 0, max: 1, description: "chance branches less likely are leaves, default 1e-4" },
    slides: { min: 1, max: 31, integer: true, description: "the most slides searched ahead" },
  },
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult =>
    is2048(game)
      ? fastExpectimax(game, state as unknown as State2048, options)
      : alphabetaSearch(game, state, options, "expect"),
};
