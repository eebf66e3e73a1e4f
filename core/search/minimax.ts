/**
 * Plain minimax over the protocol (seed 004's `runMM`), without building a tree: player
 * 0 maximizes, player 1 minimizes. Chance nodes minimize (seed 001's minimax, where the
 * computer is the adversary) or take the expectation (expectiminimax).
 *
 * It visits every node of the depth-cut tree, so its node count equals
 * `size(takeTree(depth, gameTree(game, s)))`: a baseline for the other strategies.
 *
 * @module
 */
import { CHANCE, type Game } from "../game.ts";
import {
  engineBase,
  type NodeSearch,
  POLL_MASK,
  type Pv,
  pvToArray,
  searchRoot,
  SearchStopped,
} from "./control.ts";
import type { ChanceMode, SearchOptions, SearchResult } from "./types.ts";

/** Plain minimax over one game, reusable for many roots (workers run it per task). */
export interface MinimaxEngine<S> {
  /** The minimax value of `s` to `depth` plies; `ply` is its distance from the root. */
  readonly search: (s: S, depth: number, ply: number) => number;
  /** Nodes visited so far. */
  readonly counter: { nodes: number };
  /** The line found by the last `search`. */
  readonly pv: () => number[];
  /** True when the last `search` reached no depth cut-off. */
  readonly exact: () => boolean;
}

/**
 * Builds the minimax engine; `start` is the clock origin of the time budget.
 *
 * Its loop stays apart from alpha-beta's, which starts the same way (`alphabetaEngine`
 * with pruning switched off would serve): that loop's table, ordering and busy-mark
 * branches cost 17% on the tic-tac-toe tree (depth 9) and 22% on Nim 3,4,5 (depth 12):
 * 69.7 vs 81.4 ms and 89.8 vs 109.8 ms, `deno bench` of this engine against a copy of
 * `alphabetaEngine` (`tt: false, ordering: false`) whose cut-off test was removed, the
 * same nodes visited. A `prune` flag in alpha-beta's loop would tax alpha-beta.
 */
export const minimaxEngine = <S>(
  game: Game<S>,
  options: SearchOptions = {},
  chance: ChanceMode = "min",
  start: number = performance.now(),
): MinimaxEngine<S> => {
  const { counter, stop, value, ended } = engineBase(game, options, start);
  let cut = false;
  let retPv: Pv | null = null;

  const leaf = (s: S, ply: number): number => {
    retPv = null;
    return value(s, ply);
  };

  const mm = (s: S, depth: number, ply: number): number => {
    if ((++counter.nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
    if (depth <= 0) {
      if (!ended(s)) cut = true;
      return leaf(s, ply);
    }
    const tm = game.toMove(s);
    if (tm === CHANCE) {
      const cs = game.chances(s);
      if (chance === "expect") {
        let v = 0;
        for (let i = 0; i < cs.length; i++) {
          v += cs[i].p * mm(game.play(s, cs[i].move), depth - 1, ply + 1);
        }
        retPv = null;
        return v;
      }
      let best = Infinity, bestPv: Pv | null = null;
      for (let i = 0; i < cs.length; i++) {
        const v = mm(game.play(s, cs[i].move), depth - 1, ply + 1);
        if (v < best) {
          best = v;
          bestPv = { move: cs[i].move, next: retPv };
        }
      }
      retPv = bestPv;
      return best;
    }
    const ms = game.moves(s);
    if (ms.length === 0) return leaf(s, ply);
    const max = tm === 0;
    let best = max ? -Infinity : Infinity, bestPv: Pv | null = null;
    for (let i = 0; i < ms.length; i++) {
      const v = mm(game.play(s, ms[i]), depth - 1, ply + 1);
      if (max ? v > best : v < best) {
        best = v;
        bestPv = { move: ms[i], next: retPv };
      }
    }
    retPv = bestPv;
    return best;
  };

  return {
    search: (s, depth, ply) => {
      cut = false;
      return mm(s, depth, ply);
    },
    counter,
    pv: () => pvToArray(retPv),
    exact: () => !cut,
  };
};

/**
 * Minimax search to `options.depth` (default 4), or iterative deepening within
 * `options.timeMs`. Ties keep the first best move in the game's move order.
 *
 * @example Nim with heaps 1 and 2: the first player wins by taking one from heap 2
 * ```ts
 * import { minimaxSearch } from "./minimax.ts";
 * import nim from "../../plugins/nim/mod.ts";
 * const game = nim.create({ heaps: [1, 2], misere: false });
 * const r = minimaxSearch(game, game.initial(), { depth: 10 });
 * if (game.formatMove(game.initial(), r.move!) !== "2-1") throw new Error("wrong move");
 * ```
 */
export const minimaxSearch = <S>(
  game: Game<S>,
  state: S,
  options: SearchOptions = {},
  chance: ChanceMode = "min",
): SearchResult => {
  const start = performance.now();
  const engine = minimaxEngine(game, options, chance, start);
  // The root's driver passes windows; minimax has none (its values are all exact).
  const root: NodeSearch<S> = {
    search: (s, depth, _alpha, _beta, ply) => engine.search(s, depth, ply),
    counter: engine.counter,
    pv: () => engine.pv(),
    exact: engine.exact,
    windowless: true,
  };
  // A fixed depth: one pass, as the seeds do (no deepening, so the node count is the tree's).
  return searchRoot(game, state, options, root, start, options.timeMs === undefined ? Infinity : 1);
};
