/**
 * Kalah-specialised depth-limited searches, seed 004's `SeqMM` and `SeqAB`: plain
 * minimax, and alpha-beta without ordering or table (one recursion), in the game's move
 * order, on a stack of boards in one array (no allocation per node) sown by `rules.ts`'s
 * `sowAt`, with `control.ts`'s `deepen` driving the depths. They give the same values,
 * moves and (for minimax) node counts as the generic `minimax` strategy, only faster;
 * the tests check it.
 *
 * Seed 004's `runAB` raises alpha with the previous best value (`max a v`) rather than
 * the new one; that only prunes less, so this alpha-beta uses the new value and finds
 * the same value and move.
 *
 * @module
 */
import type { Game, Player } from "../../core/game.ts";
import {
  deepen,
  type Iteration,
  POLL_MASK,
  SearchStopped,
  stopTest,
} from "../../core/search/control.ts";
import type { SearchOptions, SearchResult } from "../../core/search/types.ts";
import { isKalahGame } from "./game.ts";
import { sowAt } from "./rules.ts";

/** `length` zeros in a packed array of small integers. */
const zeros = (length: number): number[] => {
  const out: number[] = [];
  for (let i = 0; i < length; i++) out.push(0);
  return out;
};

/** Which of seed 004's sequential searches. */
export type FastKind = "mm" | "ab";

/**
 * The change of seed 004's `util` (from the mover's side) that playing house `m` of the
 * board at `b[off ..]` makes, computed without playing it: every stone sown into the
 * opponent's houses counts -2, every stone captured from them +2 (the sweep at the end
 * keeps each side's stones, so it changes nothing). A shortcut of `rules.ts`'s sowing,
 * tested against it.
 *
 * @example South's third house at the start of Kalah(6, 4) reaches only its own side
 * ```ts
 * import { utilDelta } from "./fast.ts";
 * import { initialState } from "./rules.ts";
 * if (utilDelta(initialState(6, 4), 0, 6, 0, 2, false) !== 0) throw new Error();
 * ```
 */
export const utilDelta = (
  b: readonly number[],
  off: number,
  n: number,
  mover: number,
  m: number,
  always: boolean,
): number => {
  const lap = 2 * n + 1;
  const base = off + (mover === 0 ? 0 : n + 1);
  const g = b[base + m];
  const q = Math.floor((g - 1) / lap);
  const end = m + g - q * lap; // the last stone's position, counted from the mover's side
  // Cycle positions n+1..2n are the opponent's houses.
  const reach = end < 2 * n ? end : 2 * n;
  let delta = -2 * (q * n + (reach > n ? reach - n : 0));
  if (q === 0) {
    const c = end >= lap ? end - lap : end;
    if (c < n && (c === m || b[base + c] === 0)) {
      // The opposite house gained a stone if the sowing wrapped around past it.
      const opp = b[off + 2 * n - (base - off + c)] + (end >= lap ? 1 : 0);
      if (always || opp > 0) delta += 2 * opp;
    }
  }
  return delta;
};

/**
 * Runs seed 004's `seq_mm` (`kind` "mm") or `seq_ab` ("ab") on a Kalah game: to
 * `options.depth` (default 4) in one pass, or by iterative deepening within
 * `options.timeMs`. Ties keep the first best move in house order; with `lastMaxAtRoot`,
 * minimax's root keeps the last of equal maxima instead (seed 004's `maximumBy`; a root
 * that minimizes keeps the first, as its `minimumBy` does). On a game that is not Kalah
 * it throws.
 *
 * @example Depth-1 minimax from the start of Kalah(6, 4): every move is worth 0 or 1
 * ```ts
 * import { fastSearch } from "./fast.ts";
 * import { kalahGame } from "./game.ts";
 * const g = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "util" });
 * const r = fastSearch(g, g.initial(), { depth: 1 }, "mm");
 * if (r.nodes !== 7) throw new Error(String(r.nodes));
 * ```
 */
export const fastSearch = <S>(
  game: Game<S>,
  state: S,
  options: SearchOptions,
  kind: FastKind,
  lastMaxAtRoot = false,
): SearchResult => {
  if (!isKalahGame(game as Game<unknown>)) {
    throw new TypeError(`seq_${kind} searches only Kalah, not ${game.id}`);
  }
  const { pits: n, capture, eval: evalName } = (game as unknown as {
    config: {
      pits: number;
      capture: string;
      eval: string;
    };
  }).config;
  const always = capture === "always";
  const utilEval = evalName === "util";
  const root = state as unknown as readonly number[];
  const W = 2 * n + 3;
  const M = 2 * n + 2; // the mover's index
  const start = performance.now();
  const counter = { nodes: 0 };
  const stop = stopTest(options, start);
  // The boards, one per ply: a plain array of small integers, as the states `sowAt` plays
  // on elsewhere (a typed array here made that shared loop polymorphic, and slower).
  let b: number[] = zeros(W * 16);
  let pvs = new Int32Array(16 * 16);
  let pvLen = new Int32Array(16);
  let cap = 16; // plies the arrays hold
  let cut = false;
  // The ply whose maximizer keeps the last of equal values (-1: none).
  const lastMaxPly = lastMaxAtRoot && kind === "mm" ? 0 : -1;

  const grow = (plies: number) => {
    if (plies <= cap) return;
    const c = Math.max(plies, 2 * cap);
    b = b.concat(zeros(W * (c - cap)));
    pvs = new Int32Array(c * c);
    pvLen = new Int32Array(c);
    cap = c;
  };

  const value = (off: number): number => {
    let south = 0, north = 0;
    for (let i = off; i < off + n; i++) south += b[i];
    for (let i = off + n + 1; i <= off + 2 * n; i++) north += b[i];
    if (utilEval || south === 0 || north === 0) {
      return south + b[off + n] - north - b[off + 2 * n + 1];
    }
    return b[off + n] - b[off + 2 * n + 1];
  };

  const setPv = (ply: number, m: number) => {
    const row = ply * cap, next = (ply + 1) * cap, len = pvLen[ply + 1];
    pvs[row] = m;
    for (let i = 0; i < len; i++) pvs[row + 1 + i] = pvs[next + i];
    pvLen[ply] = len + 1;
  };

  /** True when the board at `off` is a finished game (a side empty, even unswept). */
  const ended = (off: number): boolean => {
    let south = 0, north = 0;
    for (let i = off; i < off + n; i++) south += b[i];
    for (let i = off + n + 1; i <= off + 2 * n; i++) north += b[i];
    return south === 0 || north === 0;
  };

  // The children of a node one ply above the leaves, valued without playing them (the
  // util changes by `utilDelta`); counted as the nodes they are. A child is a leaf at the
  // depth limit, cut off unless it ends the game; only a child that may end it is played
  // to see (the mover's other houses empty, or at most one of the opponent's not: a
  // capture empties one house at most).
  const frontier = (ply: number, alpha: number, beta: number): number => {
    const off = ply * W;
    const mover = b[off + M];
    const base = off + (mover === 0 ? 0 : n + 1);
    const oppBase = off + (mover === 0 ? n + 1 : 0);
    let mine = 0, oppHouses = 0;
    for (let i = 0; i < n; i++) {
      mine += b[base + i];
      if (b[oppBase + i] > 0) oppHouses++;
    }
    const coff = off + W;
    const u = value(off);
    const sign = mover === 0 ? 1 : -1;
    let best = mover === 0 ? -Infinity : Infinity;
    let any = false;
    pvLen[ply + 1] = 0;
    for (let m = 0; m < n; m++) {
      if (b[base + m] === 0) continue;
      any = true;
      counter.nodes++;
      if (mine !== b[base + m] && oppHouses > 1) cut = true;
      else {
        for (let i = 0; i < W; i++) b[coff + i] = b[off + i];
        sowAt(b, coff, n, mover, m, always);
        if (!ended(coff)) cut = true;
      }
      const v = u + sign * utilDelta(b, off, n, mover, m, always);
      if (mover === 0) {
        if (v > best || (v === best && ply === lastMaxPly)) {
          best = v;
          setPv(ply, m);
          if (v > alpha) alpha = v;
          if (alpha >= beta) break;
        }
      } else if (v < best) {
        best = v;
        setPv(ply, m);
        if (v < beta) beta = v;
        if (alpha >= beta) break;
      }
    }
    return any ? best : u;
  };

  // Seed 004's SeqMM (`prune` false: the window stays open, every child is searched)
  // and SeqAB (`prune` true) in one recursion.
  const prune = kind === "ab";
  const search = (ply: number, depth: number, alpha: number, beta: number): number => {
    if ((++counter.nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
    const off = ply * W;
    pvLen[ply] = 0;
    if (depth <= 0) {
      if (!ended(off)) cut = true;
      return value(off);
    }
    if (depth === 1 && utilEval) return frontier(ply, alpha, beta);
    const mover = b[off + M];
    const base = off + (mover === 0 ? 0 : n + 1);
    const coff = off + W;
    let best = mover === 0 ? -Infinity : Infinity;
    let any = false;
    for (let m = 0; m < n; m++) {
      if (b[base + m] === 0) continue;
      any = true;
      for (let i = 0; i < W; i++) b[coff + i] = b[off + i];
      if (!sowAt(b, coff, n, mover, m, always)) b[coff + M] = 1 - mover;
      const v = search(ply + 1, depth - 1, alpha, beta);
      if (mover === 0) {
        if (v > best || (v === best && ply === lastMaxPly)) {
          best = v;
          setPv(ply, m);
          if (prune && v > alpha) alpha = v;
          if (alpha >= beta) break;
        }
      } else if (v < best) {
        best = v;
        setPv(ply, m);
        if (prune && v < beta) beta = v;
        if (alpha >= beta) break;
      }
    }
    return any ? best : value(off);
  };

  // The root: a finished position (either side empty, even unswept) is a leaf.
  let south = 0, north = 0;
  for (let i = 0; i < n; i++) south += root[i];
  for (let i = n + 1; i <= 2 * n; i++) north += root[i];
  const over = south === 0 || north === 0;
  const rootMover = root[M] as Player;
  const rootMoves: number[] = [];
  if (!over) {
    for (let m = 0; m < n; m++) if (root[(rootMover === 0 ? 0 : n + 1) + m] > 0) rootMoves.push(m);
  }
  const run = (depth: number, alpha: number, beta: number): number => {
    grow(depth + 2);
    for (let i = 0; i < W; i++) b[i] = root[i];
    if (over) {
      counter.nodes++;
      pvLen[0] = 0;
      return value(0);
    }
    return search(0, depth, alpha, beta);
  };

  const iteration = (depth: number): Iteration => {
    cut = false;
    const v = run(depth, -Infinity, Infinity);
    const pv = Array.from(pvs.subarray(0, pvLen[0]));
    const exact = !cut;
    if (!options.allBest || rootMoves.length === 0 || depth === 0) return { value: v, pv, exact };
    // Every optimal root move: each child searched alone (a narrow window for alpha-beta).
    const bestMoves: number[] = [];
    for (const m of rootMoves) {
      grow(depth + 2);
      for (let i = 0; i < W; i++) b[i] = root[i];
      for (let i = 0; i < W; i++) b[W + i] = root[i];
      if (!sowAt(b, W, n, rootMover, m, always)) b[W + M] = 1 - rootMover;
      const cv = prune
        ? search(1, depth - 1, v - 0.5, v + 0.5)
        : search(1, depth - 1, -Infinity, Infinity);
      if (cv === v) bestMoves.push(m);
    }
    return { value: v, pv, exact, bestMoves };
  };
  const fallback = rootMoves[0];
  if (options.timeMs === undefined) {
    return deepen(options, start, counter, fallback, iteration, options.depth ?? 4);
  }
  return deepen(options, start, counter, fallback, iteration);
};
