/**
 * The built-in search strategies by name, as player specs and `--strategy` use them.
 *
 * @module
 */
import { alphabetaSearch } from "./alphabeta.ts";
import { minimaxSearch } from "./minimax.ts";
import type { Strategy } from "./types.ts";

/** Plain minimax: every node to the depth; chance nodes minimize (seed 001). */
export const minimax: Strategy = {
  name: "minimax",
  description: "plain minimax, every node to the depth (chance nodes minimize)",
  search: (game, state, options) => minimaxSearch(game, state, options, "min"),
};

/** Alpha-beta with a transposition table, move ordering and iterative deepening. */
export const alphabeta: Strategy = {
  name: "alphabeta",
  description: "alpha-beta with iterative deepening, transposition table and move ordering",
  search: (game, state, options) => alphabetaSearch(game, state, options, "min"),
};

/** Expectimax: chance nodes take the probability-weighted mean (seed 001). */
export const expectimax: Strategy = {
  name: "expectimax",
  description: "expectiminimax: chance nodes average their outcomes by probability",
  search: (game, state, options) => alphabetaSearch(game, state, options, "expect"),
};

/** Strategies every game can use, by name. */
export const builtinStrategies: Readonly<Record<string, Strategy>> = {
  minimax,
  alphabeta,
  expectimax,
};
