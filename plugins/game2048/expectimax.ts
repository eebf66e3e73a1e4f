/**
 * The fast expectimax for 2048, the plugin's `expectimax` strategy. The slider maximizes,
 * the computer's node is worth the probability-weighted mean of its tile placements (seed
 * 001's expectimax), over:
 *
 * - the compact 4x4 board of `board.ts` (two 32-bit words, slides and evaluations by row
 *   tables) or, for other sizes and for grids where a 65536 could arise, a general path
 *   over flat arrays preallocated per ply (no allocation per node), slid and valued by
 *   the protocol's own functions (`rules.ts`);
 * - a cache of evaluated computer nodes (board and remaining depth), shared by the
 *   iterations of one search;
 * - a probability cut-off: a computer node whose path probability (the product of the
 *   tile probabilities from the root) is below `minProbability` (default 1e-4) is
 *   evaluated as a leaf;
 * - the depth: a fixed depth in plies (`expectimax:7`), or with a time budget
 *   (`expectimax:100ms`) iterative deepening over 1, 3, 5, ... plies (each iteration one
 *   more slide) up to a cap set by the board (`autoSlides`: deeper as the board fills),
 *   stopping early when the next iteration would not fit the budget. The budget is an
 *   upper bound: on most moves the cap ends the search well before it. With network
 *   leaves there is no cap: the budget alone chooses the depth (each iteration costs
 *   several times the one before, so a search ends on average at about a third of its
 *   budget). Without either, the cap alone sets the depth;
 * - the endgame (4x4): when the large tiles stand in a chain that leaves at most
 *   `,endgame=K` cells free (default `ENDGAME_REGION` with a network, else off), the slide
 *   comes from the exact endgame solver (`endgame.ts`: the probability of making the tile
 *   that collapses the chain, solved to the end), and the search values that slide; the
 *   result's `notes` say so. With a time budget the solver takes at most half of it, and
 *   what it solved stays for the next move.
 *
 * Spec parameters: `,cutoff=P` sets the probability cut-off (0 turns it off),
 * `,slides=K` sets the cap to K slides, with or without a network (`expectimax:1s,slides=6`),
 * `,endgame=K` the endgame solver's largest region (0 never). The search also reads the
 * endgame experiments' settings from `SearchOptions.params`, which only the lab's
 * strategy takes in a spec: `downgrade=T` the tile-downgrading of the network's leaves
 * (`downgrade.ts`: from tile T on, default `DEFAULT_DOWNGRADE`, 0 never), `gaps=G` the
 * ranks a chain may skip where no chain without one fits (`endgame.ts` `chainsOf`;
 * default 0), `through=1` a chain whose gap is just before its tail solved through the
 * whole chain's goal (`EndgameSolver.solve`'s `through`), and a goal on the board merged
 * into the tail in place (`collapseSlide`) before any solve (default 0); with a fixed
 * depth, `rescue=D,crowd=E` searches D plies instead on a board with at most E empty
 * cells where the solver gives no slide; `letgo=P` plays the solver's slide only where its
 * chance is above P; `tables=GB` keeps the solver's tables over games (measured in
 * `lab/game2048/FIGURES.md`).
 *
 * Leaves take the game's evaluation (`eval` option): seed 001's gradient, or "monotone".
 * With `minProbability: 0` the value equals seed 001's tree expectimax
 * (`core/tree.ts`) on the same depth, which the tests check. A game that carries an
 * n-tuple network (`--eval ntuple`: `ntuple.ts` `withNetwork`) takes it on the compact
 * board instead, in functions of their own (the others are untouched): the network values
 * a computer node (an afterstate) by the score still to come, a slider node is the best
 * slide's score plus its computer node, a finished game is 0; the general path (a tile
 * sum near 65536) falls back to the monotone evaluation.
 *
 * Everything a search changes (settings, node count, cache, buffers) lives in its
 * `ExpectimaxContext`, so searches can run nested or interleaved in one worker.
 *
 * @module
 */
import type { Game } from "../../core/game.ts";
import { LANE_A_SEED, LANE_B_SEED, laneA, laneB, mix32 } from "../../core/hash.ts";
import { alphabetaSearch } from "../../core/search/alphabeta.ts";
import { SearchStopped } from "../../core/search/control.ts";
import { type Keep, keepOf, slot } from "../../core/search/keep.ts";
import type { SearchOptions, SearchResult, SequentialStrategy } from "../../core/search/types.ts";
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
import { evaluate, networkOf, type NTupleNetwork, potential } from "./ntuple.ts";
import { downgrade, downgradeRank } from "./downgrade.ts";
import { collapseSlide, ENDGAME_REGION, type EndgameAnswer, EndgameSolver } from "./endgame.ts";
import {
  canSlide,
  DEATH_VALUE,
  type Game2048,
  gradientValue,
  is2048,
  type Lines,
  linesOf,
  monotoneRanks,
  P_FOUR,
  P_TWO,
  rankOf,
  slideLines,
  SLIDER_TURN,
  type State2048,
} from "./rules.ts";

/** The default probability cut-off (as the C++ program's `CPROB_THRESH_BASE`). */
export const DEFAULT_MIN_PROBABILITY = 1e-4;

/** The deepest search in plies the engine accepts (the cache stores depths below 64). */
export const MAX_PLIES = 63;

/**
 * With a network, leaves whose largest tile is at least this are downgraded by default
 * (`downgrade.ts`; `,downgrade=0` turns it off): measured in the plugin's FIGURES.md.
 */
export const DEFAULT_DOWNGRADE = 16384;

/**
 * The compact board's row tables cannot make a 65536 (see `board.ts`). A search adds at
 * most a 4 per ply, so from a grid whose tiles sum to less than this, no 65536 arises
 * (it needs a tile sum of 65536) and the compact board slides as the protocol does.
 */
const COMPACT_SUM_LIMIT = 65536 - 4 * (MAX_PLIES + 1);

/** Slots of a context's cache of computer nodes. */
const CACHE_SIZE = 1 << 20;
const CACHE_MASK = CACHE_SIZE - 1;

/** The cache slot of a computer node: the board's two words and the remaining depth. */
const slotOf = (lo: number, hi: number, depth: number): number =>
  mix32(lo, hi ^ depth) & CACHE_MASK;

/** A cache probe's answer: not there. */
const MISS = 0;
/** A cache probe's answer: there. */
const HIT = 1;
/** A cache probe's answer: there, and its subtree was cut off (by depth or probability). */
const HIT_CUT = 2;

/**
 * The cache of computer nodes: open slots keyed by two 32-bit words of the board and a
 * stamp (search generation, remaining depth, and whether the subtree was cut off).
 */
class NodeCache {
  lo = new Int32Array(0);
  hi = new Int32Array(0);
  stamp = new Int32Array(0);
  value = new Float64Array(0);
  generation = 0;

  /** Starts a search: older entries read as misses (the arrays are made by the first). */
  newGeneration(): void {
    if (this.stamp.length === 0) {
      this.lo = new Int32Array(CACHE_SIZE);
      this.hi = new Int32Array(CACHE_SIZE);
      this.stamp = new Int32Array(CACHE_SIZE);
      this.value = new Float64Array(CACHE_SIZE);
    }
    if (++this.generation >= 1 << 24) {
      this.stamp.fill(0);
      this.generation = 1;
    }
  }

  /** The stamp of a node with `depth` plies left in this generation (without the cut bit). */
  tag(depth: number): number {
    return (this.generation << 7) | (depth << 1);
  }

  /** `MISS`, `HIT` or `HIT_CUT` for the node in `slot` (its value then `value[slot]`). */
  probe(slot: number, lo: number, hi: number, tag: number): number {
    const stamp = this.stamp[slot];
    if ((stamp & ~1) !== tag || this.lo[slot] !== lo || this.hi[slot] !== hi) return MISS;
    return stamp & 1 ? HIT_CUT : HIT;
  }

  /** Stores a node's value under its stamp (`tag`, with the cut bit). */
  store(slot: number, lo: number, hi: number, stamp: number, v: number): void {
    this.lo[slot] = lo;
    this.hi[slot] = hi;
    this.value[slot] = v;
    this.stamp[slot] = stamp;
  }
}

/**
 * The engine of one context: everything a search changes, in this closure's variables
 * (a context's fields read in the hot methods measured 3-5% fewer nodes per second on
 * the compact board; closure variables run as fast as the former module-level state).
 */
const makeEngine = () => {
  // The running search's settings.
  let minP = 0;
  let monotone = false;
  // The running search's network, when the game has one (`ntuple.ts` `networkOf`).
  let net: NTupleNetwork | undefined = undefined;
  // What the running search's game keeps between searches (the endgame solver), if anything.
  let keep: Keep | undefined = undefined;
  const outN = new Int32Array(2);
  // Leaves whose largest tile has at least this rank are downgraded (`downgrade.ts`).
  let downFrom = Infinity;
  const outD = new Int32Array(2);
  // The root's slide when the endgame solver chose it (`endgame.ts`), else -1.
  let forced = -1;
  let stoppable = false;
  let deadline = Infinity;
  let stopFlag: (() => boolean) | undefined = undefined;
  // Its progress: nodes so far, and whether a node was cut off (by depth or probability).
  let nodes = 0;
  let cut = false;
  let running = false;
  // The cache of computer nodes, kept from one search to the next.
  const cache = new NodeCache();
  // The general path: its grid, each direction's lines, a board buffer per ply, ranks.
  let gw = 0;
  let gh = 0;
  let gn = 0;
  let lines: readonly Lines[] = [];
  let buffers: number[][] = [];
  let ranks = new Int32Array(0);
  const out = new Int32Array(2);

  // The deadline applies once one iteration is complete; an interruption at any time.
  const poll = (): void => {
    if (
      (stoppable && performance.now() >= deadline) ||
      (stopFlag !== undefined && stopFlag())
    ) throw new SearchStopped();
  };

  // -------------------------------------------------------------------------------------
  // The compact 4x4 path.

  const leafSlider4 = (lo: number, hi: number): number => {
    if (!monotone) return gradient4(lo, hi);
    return canMove4(lo, hi) ? monotone4(lo, hi) : DEATH_VALUE;
  };

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
    const slot = slotOf(lo, hi, depth), tag = cache.tag(depth);
    const hit = cache.probe(slot, lo, hi, tag);
    if (hit !== MISS) {
      if (hit === HIT_CUT) cut = true;
      return cache.value[slot];
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
    cache.store(slot, lo, hi, tag | (cut ? 1 : 0), v);
    cut = cut || cutBefore;
    return v;
  };

  // -------------------------------------------------------------------------------------
  // The compact path with an n-tuple network (`ntuple.ts`) at the leaves. The network
  // values an afterstate (a computer node) by the score still to come, so a slider node
  // is worth the best slide's score plus its computer node, and a finished game 0.

  /** The network's value of afterstate `lo`, `hi`, downgraded when it qualifies. */
  const leafN = (lo: number, hi: number): number => {
    return downgrade(lo, hi, downFrom, outD)
      ? evaluate(net!, outD[0], outD[1])
      : evaluate(net!, lo, hi);
  };

  /** A slider node with the network; `depth` plies remain (at 0: the greedy one-ply value). */
  const sliderN = (lo: number, hi: number, depth: number, prob: number): number => {
    if ((++nodes & 4095) === 0) poll();
    if (depth <= 0) cut = true;
    const before = potential(lo, hi);
    let best = -Infinity;
    for (let d = 0; d < 4; d++) {
      slideBoard(lo, hi, d, outN);
      const a = outN[0], b = outN[1];
      if (a === lo && b === hi) continue;
      const r = potential(a, b) - before;
      const v = r + (depth <= 0 ? leafN(a, b) : chanceN(a, b, depth - 1, prob));
      if (v > best) best = v;
    }
    return best === -Infinity ? 0 : best;
  };

  /**
   * A computer node with the network: the mean over the tile placements. The twin of
   * `chance4` over `sliderN` and `leafN`: the two stay apart so that each hot loop calls
   * one known function (a shared version taking the slider and the leaf as arguments
   * would call through closures at every node).
   */
  const chanceN = (lo: number, hi: number, depth: number, prob: number): number => {
    if ((++nodes & 4095) === 0) poll();
    if (depth <= 0 || prob < minP) {
      cut = true;
      return leafN(lo, hi);
    }
    const slot = slotOf(lo, hi, depth), tag = cache.tag(depth);
    const hit = cache.probe(slot, lo, hi, tag);
    if (hit !== MISS) {
      if (hit === HIT_CUT) cut = true;
      return cache.value[slot];
    }
    const free = empty4(lo, hi);
    const p2 = P_TWO / free, p4 = P_FOUR / free;
    const q2 = prob * p2, q4 = prob * p4;
    const cutBefore = cut;
    cut = false;
    let v = 0;
    for (let i = 0; i < 32; i += 4) {
      if (((lo >>> i) & 15) === 0) {
        v += p2 * sliderN(lo | (1 << i), hi, depth - 1, q2);
        v += p4 * sliderN(lo | (2 << i), hi, depth - 1, q4);
      }
    }
    for (let i = 0; i < 32; i += 4) {
      if (((hi >>> i) & 15) === 0) {
        v += p2 * sliderN(lo, hi | (1 << i), depth - 1, q2);
        v += p4 * sliderN(lo, hi | (2 << i), depth - 1, q4);
      }
    }
    cache.store(slot, lo, hi, tag | (cut ? 1 : 0), v);
    cut = cut || cutBefore;
    return v;
  };

  // -------------------------------------------------------------------------------------
  // The general path: tile values in one buffer per ply (any size, any tile), slid and
  // valued by the protocol's own functions (`rules.ts`). Its own slide and gradient on
  // typed arrays (before they were shared) ran 5-15% more nodes per second on this path
  // (`deno task bench 2048`, its "general path" row, old and new alternated): a cost
  // taken for one implementation, on the path that only boards other than 4x4 take.

  const setupGeneral = (w: number, h: number, plies: number): void => {
    if (w !== gw || h !== gh) {
      gw = w;
      gh = h;
      gn = w * h;
      lines = [0, 1, 2, 3].map((d) => linesOf(w, h, d));
      buffers = [];
      ranks = new Int32Array(gn);
    }
    // Plain arrays of small integers, as the protocol's states: `rules.ts`'s functions then
    // see one kind of array only (mixing in typed arrays measured 10-25% slower).
    while (buffers.length < plies + 2) {
      const b: number[] = [];
      for (let i = 0; i < gn; i++) b.push(0);
      buffers.push(b);
    }
  };

  const heuristicG = (b: readonly number[]): number => {
    if (!monotone) return gradientValue(b, gw, gh);
    for (let i = 0; i < gn; i++) ranks[i] = rankOf(b[i]);
    return monotoneRanks(ranks, gw, gh);
  };

  const leafSliderG = (b: readonly number[]): number => {
    if (monotone && !canSlide(b, gw, gh)) return DEATH_VALUE;
    return heuristicG(b);
  };

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
      if (slideLines(b, child, lines[d]) < 0) continue;
      const v = chanceG(ply + 1, depth - 1, prob);
      if (v > best) best = v;
    }
    return best === -Infinity ? leafSliderG(b) : best;
  };

  const chanceG = (ply: number, depth: number, prob: number): number => {
    if ((++nodes & 4095) === 0) poll();
    const b = buffers[ply], n = gn;
    if (depth <= 0 || prob < minP) {
      cut = true;
      return heuristicG(b);
    }
    // The board's 64-bit fingerprint: the two lanes of `core/hash.ts`.
    let h1 = LANE_A_SEED ^ n, h2 = LANE_B_SEED ^ n, free = 0;
    for (let i = 0; i < n; i++) {
      const v = b[i];
      if (v === 0) free++;
      h1 = laneA(h1, v);
      h2 = laneB(h2, v);
    }
    const slot = slotOf(h1, h2, depth), tag = cache.tag(depth);
    const hit = cache.probe(slot, h1, h2, tag);
    if (hit !== MISS) {
      if (hit === HIT_CUT) cut = true;
      return cache.value[slot];
    }
    const p2 = P_TWO / free, p4 = P_FOUR / free;
    const q2 = prob * p2, q4 = prob * p4;
    const child = buffers[ply + 1];
    for (let i = 0; i < n; i++) child[i] = b[i];
    const cutBefore = cut;
    cut = false;
    let v = 0;
    for (let i = 0; i < n; i++) {
      if (b[i] !== 0) continue;
      child[i] = 2;
      v += p2 * sliderG(ply + 1, depth - 1, q2);
      child[i] = 4;
      v += p4 * sliderG(ply + 1, depth - 1, q4);
      child[i] = 0;
    }
    cache.store(slot, h1, h2, tag | (cut ? 1 : 0), v);
    cut = cut || cutBefore;
    return v;
  };

  // -------------------------------------------------------------------------------------
  // The root and the iterations.

  /** The root with the network: the slide of the best score plus computer node. */
  const searchRootN = (lo: number, hi: number, slider: boolean, depth: number): RootValue => {
    if (!slider) return { move: undefined, value: chanceN(lo, hi, depth, 1) };
    if (depth <= 0) return { move: undefined, value: sliderN(lo, hi, 0, 1) };
    const before = potential(lo, hi);
    let best = -Infinity, move: number | undefined;
    for (let d = 0; d < 4; d++) {
      if (forced >= 0 && d !== forced) continue;
      slideBoard(lo, hi, d, out);
      const a = out[0], b = out[1];
      if (a === lo && b === hi) continue;
      const v = potential(a, b) - before + chanceN(a, b, depth - 1, 1);
      if (move === undefined || v > best) {
        best = v;
        move = d;
      }
    }
    return { move, value: move === undefined ? 0 : best };
  };

  /** One full search of the root to `depth` plies. */
  const searchRoot = (
    compact: readonly [number, number] | undefined,
    state: State2048,
    slider: boolean,
    depth: number,
  ): RootValue => {
    if (compact !== undefined) {
      const [lo, hi] = compact;
      if (net !== undefined) return searchRootN(lo, hi, slider, depth);
      if (!slider) return { move: undefined, value: chance4(lo, hi, depth, 1) };
      if (depth <= 0) {
        cut = true;
        return { move: undefined, value: leafSlider4(lo, hi) };
      }
      let best = -Infinity, move: number | undefined;
      for (let d = 0; d < 4; d++) {
        if (forced >= 0 && d !== forced) continue;
        slideBoard(lo, hi, d, out);
        const a = out[0], b = out[1];
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
      if (slideLines(b, buffers[1], lines[d]) < 0) continue;
      const v = chanceG(1, depth - 1, 1);
      if (move === undefined || v > best) {
        best = v;
        move = d;
      }
    }
    return move === undefined ? { move, value: leafSliderG(b) } : { move, value: best };
  };

  /**
   * The endgame solver's answer for the root (`endgame.ts`), within half the time budget
   * and until an interruption (what it solved stays for the next move); `undefined` when it
   * does not take the position, finds its chance at most `letGo` (0: lost), or runs out of
   * time. Its nodes count.
   */
  const solveEndgame = (
    lo: number,
    hi: number,
    region: number,
    gaps: number,
    through: boolean,
    tables: number,
    timeMs: number | undefined,
    start: number,
    letGo: number,
  ): EndgameAnswer | undefined => {
    // With through, a goal on the board is merged into the tail in place first.
    const collapse = through ? collapseSlide(lo, hi, gaps) : undefined;
    if (collapse !== undefined) return collapse.probability > letGo ? collapse : undefined;
    const make = () => new EndgameSolver();
    const solver = keep === undefined ? make() : keep.get(ENDGAME_SOLVER, make);
    if (tables > 0) solver.keepTables(tables * 2 ** 30);
    const until = timeMs === undefined ? Infinity : start + timeMs / 2;
    const before = solver.nodes;
    try {
      const answer = solver.solve(
        lo,
        hi,
        region,
        () => {
          if (performance.now() >= until || (stopFlag !== undefined && stopFlag())) {
            throw new SearchStopped();
          }
        },
        gaps,
        through,
      );
      return answer !== undefined && answer.probability > letGo ? answer : undefined;
    } catch (e) {
      if (e instanceof SearchStopped) return undefined;
      throw e;
    } finally {
      nodes += solver.nodes - before;
    }
  };

  const run = (
    game: Game2048,
    state: State2048,
    options: SearchOptions,
    representation: Representation,
  ): SearchResult => {
    const start = performance.now();
    const w = game.width, h = game.height, n = w * h;
    const slider = state[n] === SLIDER_TURN;
    minP = options.minProbability ?? options.params?.cutoff ?? DEFAULT_MIN_PROBABILITY;
    monotone = game.evaluation === "monotone";
    net = networkOf(game);
    keep = keepOf(game);
    downFrom = downgradeRank(options.params?.downgrade ?? DEFAULT_DOWNGRADE);
    nodes = 0;
    stoppable = false;
    deadline = options.timeMs === undefined ? Infinity : start + options.timeMs;
    stopFlag = options.shouldStop;
    cache.newGeneration();
    const compact = w === 4 && h === 4 && representation !== "general"
      ? compactFits(state)
      : undefined;
    // The endgame solver's slide, when it takes the position (the search then values it).
    const region = options.params?.endgame ?? (net === undefined ? 0 : ENDGAME_REGION);
    const endgame = compact !== undefined && slider && region > 0
      ? solveEndgame(
        compact[0],
        compact[1],
        region,
        options.params?.gaps ?? 0,
        (options.params?.through ?? 0) > 0,
        options.params?.tables ?? 0,
        options.timeMs,
        start,
        options.params?.letgo ?? 0,
      )
      : undefined;
    forced = endgame?.move ?? -1;
    const [empty, distinct] = compact !== undefined
      ? [empty4(compact[0], compact[1]), distinctTiles4(compact[0], compact[1])]
      : shape(state, n);
    const slides = options.params?.slides;
    // With network leaves and a time budget, the time alone chooses the depth.
    const cap = slides !== undefined
      ? 2 * Math.max(1, Math.min(31, Math.round(slides))) - 1
      : net !== undefined && compact !== undefined && options.timeMs !== undefined
      ? MAX_PLIES
      : 2 * autoSlides(n, empty, distinct) - 1;
    const plan: number[] = [];
    // `,rescue=D`: D plies on a crowded board that the solver does not play.
    const rescue = options.params?.rescue ?? 0;
    const crowded = rescue > 0 && forced < 0 && empty <= (options.params?.crowd ?? 0);
    if (options.timeMs === undefined) {
      plan.push(Math.min(MAX_PLIES, crowded ? rescue : options.depth ?? cap));
    } else {
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
        ...(endgame === undefined ? {} : { notes: [endgameNote(endgame)] }),
      };
      options.onIteration?.(result);
      if (!cut) break;
      // The next iteration (one more slide) costs about as much more as this one did.
      const ms = now - t0, grown = nodes - n0;
      const factor = lastNodes > 0 ? Math.max(2, grown / lastNodes) : 8;
      lastMs = ms;
      lastNodes = grown;
      if (options.timeMs !== undefined && now + lastMs * factor >= deadline) break;
      stoppable = true;
    }
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

  const search = (
    game: Game2048,
    state: State2048,
    options: SearchOptions,
    representation: Representation,
  ): SearchResult => {
    if (running) throw new Error("this expectimax context is already searching");
    running = true;
    try {
      return run(game, state, options, representation);
    } finally {
      running = false;
      stoppable = false;
      stopFlag = undefined;
      net = undefined;
      keep = undefined;
      forced = -1;
    }
  };
  return { search, busy: () => running };
};

/**
 * A fast expectimax with everything a search changes: its settings, node count and stop
 * test, a cache of computer nodes (open slots keyed by two 32-bit words of the board and
 * a stamp: search generation, remaining depth, and whether the subtree was cut off) kept
 * from one search to the next, and the general path's buffers. One context runs one
 * search at a time; two contexts search independently, interleaved or not, in one
 * worker. `fastExpectimax` lends one from a small pool, so that the hot methods and the
 * cache stay warm from move to move.
 *
 * @example Two contexts give the same answer as one
 * ```ts
 * import { createGame } from "./rules.ts";
 * import { ExpectimaxContext } from "./expectimax.ts";
 * const game = createGame(4, 4, "gradient");
 * const s = [8, 32, 64, 512, 0, 2, 2, 32, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0];
 * const a = new ExpectimaxContext().search(game, s, { depth: 3 });
 * const b = new ExpectimaxContext().search(game, s, { depth: 3 });
 * if (a.move !== b.move || a.value !== b.value) throw new Error();
 * ```
 */
export class ExpectimaxContext {
  readonly #engine = makeEngine();

  /** True while a search runs on this context. */
  get busy(): boolean {
    return this.#engine.busy();
  }

  /**
   * Searches a 2048 position (see `fastExpectimax`). Throws when this context is already
   * searching (start another context, or call `fastExpectimax`, from `onIteration`).
   */
  search(
    game: Game2048,
    state: State2048,
    options: SearchOptions = {},
    representation: Representation = "auto",
  ): SearchResult {
    return this.#engine.search(game, state, options, representation);
  }
}

/**
 * The compact board of a 4x4 grid when the row tables slide it as the protocol does
 * throughout a search (every tile a power of two up to 32768, and too few in all for a
 * 65536 to arise: `COMPACT_SUM_LIMIT`), else `undefined`.
 */
export const compactFits = (cells: ArrayLike<number>): [number, number] | undefined => {
  let sum = 0;
  for (let i = 0; i < 16; i++) sum += cells[i];
  return sum < COMPACT_SUM_LIMIT ? packCells(cells) : undefined;
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
 * A game's endgame solver (made when first needed, kept in the game's `keep`): its table of
 * solved positions is a cache that every context searching the game shares, so successive
 * moves find what earlier searches solved. Solves are synchronous, so no two run at once.
 */
const ENDGAME_SOLVER = slot<EndgameSolver>("2048 endgame solver");

/** What the search says of the endgame solver's slide (`analyze` prints it). */
const endgameNote = (answer: EndgameAnswer): string => {
  const { ranks, tailRank } = answer.chain;
  const tile = (rank: number) => `${rank === 3 || rank === 13 ? "an" : "a"} ${2 ** rank}`;
  const goal = answer.through
    ? `${tile(tailRank)} merged into it, then ${tile(tailRank + 1)} beside it,`
    : answer.collapse
    ? `${tile(tailRank)} beside it, merged into it in place,`
    : `${tile(tailRank)} beside it`;
  const how = answer.collapse
    ? "the goal on the board"
    : `exact, over ${answer.positions.toLocaleString("en-US")} positions`;
  return `endgame: the chain ${ranks.map((r) => 2 ** r).join(" ")} stays; ${goal} with ` +
    `probability ${answer.probability.toFixed(3)} (${how})`;
};

/** Idle contexts, kept so that the next search finds its cache and methods warm. */
const idle: ExpectimaxContext[] = [];

/** How many idle contexts are kept (each holds a 20 MB cache). */
const IDLE_CONTEXTS = 2;

/**
 * Searches a 2048 position with the fast expectimax. `options.depth` fixes the depth in
 * plies; `options.timeMs` deepens one slide at a time within the budget; without either,
 * `autoSlides` sets the depth. `options.minProbability` overrides the 1e-4 cut-off.
 * Each search runs on its own `ExpectimaxContext` (an idle one reused), so searches may
 * be nested or interleaved (one started from another's `onIteration`).
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
  const context = idle.pop() ?? new ExpectimaxContext();
  try {
    return context.search(game, state, options, representation);
  } finally {
    if (idle.length < IDLE_CONTEXTS) idle.push(context);
  }
};

/**
 * The plugin's `expectimax` strategy: the fast expectimax on 2048 games, the core's
 * generic expectimax on any other game. Its spec takes what a player sets: the depth or
 * the time, `,slides=K`, `,cutoff=P` and `,endgame=K`. The search reads more settings
 * from `SearchOptions.params` (`downgrade`, `gaps`, `through`, `rescue`, `crowd`, `letgo`,
 * `tables`: the endgame experiments' arms), which the lab's strategy takes in its spec
 * (`lab/game2048/strategy.ts`).
 */
export const expectimax2048: SequentialStrategy = {
  _tag: "Sequential",
  budget: "depth",
  name: "expectimax",
  description: "2048's fast expectimax: depth in plies, or deepening by the board's " +
    "emptiness within a time (,slides=K the most slides ahead; ,cutoff=P chance branches " +
    `less likely are leaves, default 1e-4; ,endgame=K exact endgames of at most K free ` +
    `cells, default ${ENDGAME_REGION} with a network)`,
  params: {
    cutoff: { min: 0, max: 1, description: "chance branches less likely are leaves, default 1e-4" },
    slides: { min: 1, max: 31, integer: true, description: "the most slides searched ahead" },
    endgame: {
      min: 0,
      max: 15,
      integer: true,
      description: "4x4: endgames whose region (the cells outside the chain of large tiles) " +
        `has at most this many cells are solved exactly (default ${ENDGAME_REGION} with a ` +
        "network, else 0: never; 10 takes minutes and 2 GB once per chain)",
    },
  },
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult =>
    is2048(game)
      ? fastExpectimax(game, state as unknown as State2048, options)
      : alphabetaSearch(game, state, options, "expect"),
};
