/**
 * Seed 001's own search as strategies: `minimax (takeTree d (tree g s))` and
 * `expectimax ...` over the lazy game tree of `core/tree.ts`, the reference path that
 * `deno task testrun` plays by default. As strategies they run where every program's
 * searches run, in the engine's worker (`tree_minimax:4`, `tree_expectimax:4`), and they
 * stop when asked: the tree's evaluation polls the stop flag. The fast strategies
 * (`minimax`, and `expectimax` with `,cutoff=0`) give the same decisions much sooner.
 *
 * @module
 */
import type { Game } from "../../core/game.ts";
import { POLL_MASK, SearchStopped, stopTest } from "../../core/search/control.ts";
import type { SearchOptions, SearchResult, SequentialStrategy } from "../../core/search/types.ts";
import {
  type Decision,
  evaluate,
  expectimax,
  gameTree,
  minimax,
  takeTree,
} from "../../core/tree.ts";

/** The depth a tree search takes without `depth`: seed 001's examples use 4. */
const DEFAULT_DEPTH = 4;

/**
 * A tree strategy: the depth-cut lazy tree, scored by the game and decided by `decide`.
 * A stopped search returns no move.
 */
const treeStrategy = (
  name: string,
  description: string,
  decide: (game: Game<unknown>, state: unknown, depth: number) => Decision<number>,
): SequentialStrategy => ({
  _tag: "Sequential",
  budget: "depth",
  name,
  description,
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult => {
    const start = performance.now();
    const depth = options.depth ?? DEFAULT_DEPTH;
    const stop = stopTest(options, start);
    let nodes = 0;
    // Every node of the cut tree is scored once: count them there, and poll the stop.
    const counted: Game<S> = Object.create(game);
    counted.value = (s: S) => {
      if ((++nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
      return game.value(s);
    };
    try {
      const d = decide(counted as Game<unknown>, state, depth);
      const result: SearchResult = {
        move: d.move,
        value: d.value,
        pv: d.move === undefined ? [] : [d.move],
        nodes,
        depth,
        exact: false,
        timeMs: performance.now() - start,
      };
      options.onIteration?.(result);
      return result;
    } catch (e) {
      if (!(e instanceof SearchStopped)) throw e;
      return {
        move: undefined,
        value: 0,
        pv: [],
        nodes,
        depth: 0,
        exact: false,
        timeMs: performance.now() - start,
      };
    }
  },
});

/** Seed 001's minimax over the lazy tree (the computer minimizes). */
export const treeMinimax: SequentialStrategy = treeStrategy(
  "tree_minimax",
  "minimax over the whole game tree to the depth, the tiles chosen to hurt most (slow; " +
    "testrun's reference)",
  (game, state, depth) => {
    const d = minimax(evaluate(game, takeTree(depth, gameTree(game, state))));
    return { move: d.move?.move, value: d.value };
  },
);

/** Seed 001's expectimax over the lazy tree (tiles weighted by their probabilities). */
export const treeExpectimax: SequentialStrategy = treeStrategy(
  "tree_expectimax",
  "expectimax over the whole game tree to the depth, the tiles weighted by their chances " +
    "(slow; testrun's reference)",
  (game, state, depth) => expectimax(evaluate(game, takeTree(depth, gameTree(game, state)))),
);
