/**
 * Search plumbing shared by the strategies: stopping (deadline and interruption), leaf
 * values, principal-variation chains, the root of a search (its value, line and every
 * optimal move) and iterative deepening (the bookkeeping shared with the parallel
 * strategies' effectful driver, and the sequential driver `deepen`).
 *
 * @module
 */
import { byDistance, CHANCE, type Game } from "../game.ts";
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

/**
 * The value of a position searched as a leaf at `ply` plies from the root: the game's
 * heuristic, decisive values adjusted by their distance when `distance` is set.
 */
export const leafValue = <S>(
  game: Game<S>,
  distance: boolean,
): (s: S, ply: number) => number =>
  distance ? (s, ply) => byDistance(game.value(s), ply) : (s) => game.value(s);

/**
 * What every depth-first engine starts from: its node counter, its stop test (polled
 * every `POLL_MASK + 1` nodes), its leaf values, and whether a leaf at the depth limit
 * ends the game (`ended`: then nothing was cut off there, so a search whose every limit
 * leaf ends the game is exact). `ended` costs an `outcome` call per limit leaf, and
 * little: `deno bench bench/core.bench.ts`, group "leaves" (alpha-beta without a table,
 * Kalah depth 14 from the start, 1.2 M nodes): min of five 245-268 ms before, 272-273 ms
 * after, on this shared 2-core machine; Domineering 8x8 depth 7 the same, since its
 * `outcome` stops at the first move found.
 */
export const engineBase = <S>(
  game: Game<S>,
  options: SearchOptions,
  start: number,
): {
  readonly counter: { nodes: number };
  readonly stop: () => boolean;
  readonly value: (s: S, ply: number) => number;
  readonly ended: (s: S) => boolean;
} => ({
  counter: { nodes: 0 },
  stop: stopTest(options, start),
  value: leafValue(game, options.distance === true),
  ended: (s) => game.outcome(s) !== undefined,
});

/** The moves of the player to move at the root: none at a chance node or the end. */
export const rootMovesOf = <S>(game: Game<S>, s: S): readonly number[] =>
  game.toMove(s) === CHANCE ? [] : game.moves(s);

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
  /** True when the search met a chance node (`SearchResult.chance`). */
  readonly chance?: boolean;
  /** Optimal root moves, when asked for. */
  readonly bestMoves?: readonly number[];
}

/**
 * The last depth iterative deepening may reach: `options.depth`; without it, unbounded
 * with a time budget, else 4.
 */
export const depthLimit = (options: SearchOptions): number =>
  options.depth ?? (options.timeMs === undefined ? 4 : Infinity);

/**
 * The bookkeeping of iterative deepening, one for every driver (the sequential `deepen`
 * here, the parallel strategies' effectful loop): the depths to run, the result of the
 * last completed iteration, progress reports, and the end once an iteration is exact.
 */
export interface Deepening {
  /** The first depth to run. */
  readonly first: number;
  /** The last depth to run (`Infinity`: until time runs out or an iteration is exact). */
  readonly last: number;
  /**
   * Records the iteration completed at `depth` (`nodes`: visited so far, all iterations)
   * and reports it through `onIteration`; true when it is exact (deeper ones cannot
   * change it), so the driver stops.
   */
  readonly complete: (depth: number, it: Iteration, nodes: number) => boolean;
  /** The result: the last completed iteration's (or the fallback move), with `nodes`. */
  readonly result: (nodes: number) => SearchResult;
}

/**
 * Starts the bookkeeping of a search that began at `start`. `firstDepth` is clamped to
 * the last depth: 1 deepens from the start, `Infinity` runs one pass at the last depth.
 */
export const deepening = (
  options: SearchOptions,
  start: number,
  fallbackMove: number | undefined,
  firstDepth = 1,
): Deepening => {
  const last = depthLimit(options);
  let result: SearchResult = {
    move: fallbackMove,
    value: NaN,
    pv: fallbackMove === undefined ? [] : [fallbackMove],
    nodes: 0,
    depth: 0,
    exact: false,
    timeMs: 0,
  };
  return {
    first: Math.min(firstDepth, last),
    last,
    complete: (depth, it, nodes) => {
      result = {
        move: it.pv[0],
        value: it.value,
        pv: it.pv,
        nodes,
        depth,
        exact: it.exact,
        timeMs: performance.now() - start,
        ...(it.bestMoves ? { bestMoves: it.bestMoves } : {}),
        ...(it.chance === true ? { chance: true } : {}),
      };
      options.onIteration?.(result);
      return it.exact;
    },
    result: (nodes) => ({ ...result, nodes, timeMs: performance.now() - start }),
  };
};

/**
 * Iterative deepening: runs `iteration(d)` for d = `firstDepth`, ... up to the depth
 * limit, until time runs out (the last complete iteration stands), or until an iteration
 * is exact (deeper ones cannot change it).
 */
export const deepen = (
  options: SearchOptions,
  start: number,
  counter: { nodes: number },
  fallbackMove: number | undefined,
  iteration: (depth: number) => Iteration,
  firstDepth = 1,
): SearchResult => {
  const run = deepening(options, start, fallbackMove, firstDepth);
  for (let d = run.first; d <= run.last; d++) {
    let it: Iteration;
    try {
      it = iteration(d);
    } catch (e) {
      if (e instanceof SearchStopped) break;
      throw e;
    }
    if (run.complete(d, it, counter.nodes)) break;
  }
  return run.result(counter.nodes);
};

/** A node search as the root needs it (alpha-beta's engine; minimax's, ignoring windows). */
export interface NodeSearch<S> {
  /**
   * The value of `s` searched to `depth` plies within the window (alpha, beta), fail-soft:
   * a value at or below alpha is an upper bound, at or above beta a lower bound; `ply` is
   * the distance of `s` from the root.
   */
  readonly search: (s: S, depth: number, alpha: number, beta: number, ply: number) => number;
  /** Nodes visited so far. */
  readonly counter: { nodes: number };
  /** The line found by the last `search`, which started from `from`. */
  readonly pv: (from: S, depth: number) => number[];
  /** True when the last `search` reached no depth cut-off. */
  readonly exact: () => boolean;
  /** True when a search has met a chance node (engines that tell: alpha-beta's). */
  readonly chance?: () => boolean;
  /** Remembers the root's best move, to try first next time. */
  readonly preferAtRoot?: (move: number) => void;
  /** True when every search returns the exact value, the window unused (minimax). */
  readonly windowless?: boolean;
}

/** `{ chance: true }` when `engine` says it met a chance node, else nothing. */
const metChance = <S>(engine: NodeSearch<S>): { chance?: true } =>
  engine.chance?.() === true ? { chance: true } : {};

/** At least one unit in the last place of `v`: `v - margin(v) < v < v + margin(v)`. */
const margin = (v: number) => Math.max(Math.abs(v), 1) * Number.EPSILON;

/**
 * One iteration at the root: the root's value, line and exactness, and with `allBest`
 * every optimal root move. Then each root move is searched, the previous best first, with
 * the narrowest window that strictly contains the best value so far (one unit in its
 * last place each side): a move as good comes back with that value exactly, a worse one
 * with less, a better one fails high and is searched again above it for its value. The
 * optimal moves are those whose value equals the root's exactly. No tolerance: near `WIN`
 * one ply of distance is 1 in 2^40, and an expectimax mean is compared bit for bit with
 * the mean that made the root value. Ties keep the first best move in the game's order.
 */
export const rootIteration = <S>(
  game: Game<S>,
  state: S,
  engine: NodeSearch<S>,
  allBest: boolean,
): (depth: number) => Iteration => {
  const rootMoves = rootMovesOf(game, state);
  const max = game.toMove(state) === 0;
  let previous = -1;
  return (depth) => {
    if (!allBest || rootMoves.length === 0 || depth <= 0) {
      const value = engine.search(state, depth, -Infinity, Infinity, 0);
      const pv = rootMoves.length === 0 ? [] : engine.pv(state, depth);
      if (pv.length > 0) engine.preferAtRoot?.(pv[0]);
      return { value, pv, exact: engine.exact(), ...metChance(engine) };
    }
    engine.counter.nodes++; // the root
    const values: number[] = new Array(rootMoves.length);
    let value = max ? -Infinity : Infinity, best = -1, pv: number[] = [], exact = true;
    const first = Math.max(0, rootMoves.indexOf(previous));
    for (let k = 0; k < rootMoves.length; k++) {
      const i = k === 0 ? first : k <= first ? k - 1 : k;
      const child = game.play(state, rootMoves[i]);
      const known = Number.isFinite(value);
      const lo = known ? value - margin(value) : -Infinity;
      const hi = known ? value + margin(value) : Infinity;
      let v = engine.search(child, depth - 1, lo, hi, 1);
      if (known && engine.windowless !== true && (max ? v >= hi : v <= lo)) {
        // Better than the best so far: its value, from just below the bound found.
        v = max
          ? engine.search(child, depth - 1, v - margin(v), Infinity, 1)
          : engine.search(child, depth - 1, -Infinity, v + margin(v), 1);
      }
      exact &&= engine.exact();
      values[i] = v;
      if ((max ? v > value : v < value) || (v === value && i < best)) {
        value = v;
        best = i;
        pv = [rootMoves[i], ...engine.pv(child, depth - 1)];
      }
    }
    previous = pv[0];
    engine.preferAtRoot?.(previous);
    return {
      value,
      pv,
      exact,
      bestMoves: rootMoves.filter((_, i) => values[i] === value),
      ...metChance(engine),
    };
  };
};

/**
 * A search from a root with an engine: `rootIteration` under `deepen`, from `firstDepth`
 * (1: iterative deepening; `Infinity`: one pass at the depth limit).
 */
export const searchRoot = <S>(
  game: Game<S>,
  state: S,
  options: SearchOptions,
  engine: NodeSearch<S>,
  start: number,
  firstDepth: number,
): SearchResult =>
  deepen(
    options,
    start,
    engine.counter,
    rootMovesOf(game, state)[0],
    rootIteration(game, state, engine, options.allBest === true),
    firstDepth,
  );
