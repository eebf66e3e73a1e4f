/**
 * The built-in search strategies by name, as player specs and `--strategy` use them.
 *
 * @module
 */
import { alphabetaSearch } from "./alphabeta.ts";
import { mctsSearch } from "./mcts.ts";
import { minimaxSearch } from "./minimax.ts";
import type { SequentialStrategy } from "./types.ts";

// The three full-width strategies below are alike by nature, entries of one table (a name,
// a description, a search and its chance rule): nothing in them to share but their shape.

/** Plain minimax: every node to the depth; chance nodes minimize (seed 001). */
export const minimaxStrategy: SequentialStrategy = {
  _tag: "Sequential",
  name: "minimax",
  budget: "depth",
  description: "plain minimax, every node to the depth (chance nodes minimize)",
  allBest: true,
  search: (game, state, options) => minimaxSearch(game, state, options, "min"),
};

/** Alpha-beta with a transposition table, move ordering and iterative deepening. */
export const alphabetaStrategy: SequentialStrategy = {
  _tag: "Sequential",
  name: "alphabeta",
  budget: "depth",
  description: "alpha-beta with iterative deepening, transposition table and move ordering",
  allBest: true,
  search: (game, state, options) => alphabetaSearch(game, state, options, "min"),
};

/** Expectimax: chance nodes take the probability-weighted mean (seed 001). */
export const expectimaxStrategy: SequentialStrategy = {
  _tag: "Sequential",
  name: "expectimax",
  budget: "depth",
  description: "expectiminimax: chance nodes average their outcomes by probability",
  allBest: true,
  search: (game, state, options) => alphabetaSearch(game, state, options, "expect"),
};

/**
 * Monte Carlo tree search (UCT with random playouts); `mcts:N` runs N iterations, and
 * `,c=X` sets the exploration constant (`mcts:1s,c=1.4`).
 */
export const mctsStrategy: SequentialStrategy = {
  _tag: "Sequential",
  name: "mcts",
  budget: "iterations",
  description: "Monte Carlo tree search (UCT, random playouts); mcts:N = N iterations (,c=1)",
  solves: false,
  params: { c: { min: 0, max: 100, description: "the UCT exploration constant, default 1" } },
  search: (game, state, options) =>
    mctsSearch(
      game,
      state,
      options,
      options.params?.c !== undefined ? { exploration: options.params.c } : {},
    ),
};

/** Strategies every game can use, by name. */
export const builtinStrategies: Readonly<Record<string, SequentialStrategy>> = {
  minimax: minimaxStrategy,
  alphabeta: alphabetaStrategy,
  expectimax: expectimaxStrategy,
  mcts: mctsStrategy,
};
