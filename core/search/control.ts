/**
 * Search plumbing shared by the strategies: stopping (deadline and interruption),
 * principal-variation chains, and the iterative-deepening driver.
 *
 * @module
 */
import type { SearchOptions, SearchResult } from "./types.ts";

/** Thrown inside a search to unwind it when time is up or it was interrupted. */
export class SearchStopped extends Error {
  /** Creates the sentinel. */
  constructor() {
    super("search stopped");
  }
}

/** How often (milliseconds) a long search reports its progress through `onIteration`. */
export const PROGRESS_MS = 1000;

/** How often (in nodes, a power of two minus one) a search polls its stop condition. */
export const POLL_MASK = 2047;

/** A stop test from the options: the deadline and the external flag. */
export const stopTest = (options: SearchOptions, start: number): () => boolean => {
  const deadline = options.timeMs === undefined ? Infinity : start + options.timeMs;
  const flag = options.shouldStop;
  if (deadline === Infinity) return flag ?? (() => false);
  return () => performance.now() >= deadline || (flag !== undefined && flag());
};

/** A principal variation as a linked list (allocated only when a best move improves). */
export interface Pv {
  /** The move. */
  readonly move: number;
  /** The rest of the line. */
  readonly next: Pv | null;
}

/** The line as an array. */
export const pvToArray = (pv: Pv | null): number[] => {
  const out: number[] = [];
  for (let p = pv; p !== null; p = p.next) out.push(p.move);
  return out;
};

/** One iteration's outcome, as the driver needs it. */
export interface Iteration {
  /** Root value. */
  readonly value: number;
  /** Root line. */
  readonly pv: readonly number[];
  /** True when no node was cut off by the depth limit. */
  readonly exact: boolean;
  /** Optimal root moves, when asked for. */
  readonly bestMoves?: readonly number[];
}

/**
 * Iterative deepening: runs `iteration(d)` for d = 1, 2, ... up to the depth limit,
 * until time runs out (the last complete iteration stands), or until an iteration is
 * exact (deeper ones cannot change it).
 */
export const deepen = (
  options: SearchOptions,
  start: number,
  counter: { nodes: number },
  fallbackMove: number | undefined,
  iteration: (depth: number) => Iteration,
  firstDepth = 1,
): SearchResult => {
  const maxDepth = options.depth ?? (options.timeMs === undefined ? 4 : Infinity);
  let result: SearchResult = {
    move: fallbackMove,
    value: NaN,
    pv: fallbackMove === undefined ? [] : [fallbackMove],
    nodes: 0,
    depth: 0,
    exact: false,
    timeMs: 0,
  };
  for (let d = Math.min(firstDepth, maxDepth); d <= maxDepth; d++) {
    let it: Iteration;
    try {
      it = iteration(d);
    } catch (e) {
      if (e instanceof SearchStopped) break;
      throw e;
    }
    const pv = it.pv;
    result = {
      move: pv[0],
      value: it.value,
      pv,
      nodes: counter.nodes,
      depth: d,
      exact: it.exact,
      timeMs: performance.now() - start,
      ...(it.bestMoves ? { bestMoves: it.bestMoves } : {}),
    };
    options.onIteration?.(result);
    if (it.exact) break;
  }
  return { ...result, nodes: counter.nodes, timeMs: performance.now() - start };
};
