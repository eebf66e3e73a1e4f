/**
 * Every strategy by name, sequential and parallel, and `runStrategy`, which runs any of
 * them as an Effect. The engine's layer: the sequential searches (`core/search/`) and the
 * parallel ones (`core/parallel/`) do not import each other for this.
 *
 * @module
 */
import { Effect } from "../deps.ts";
import type { SearchFailed } from "../errors.ts";
import type { Game } from "../game.ts";
import { parallelStrategies } from "../parallel/strategies.ts";
import { builtinStrategies } from "../search/strategies.ts";
import type { SearchOptions, SearchResult, Strategy } from "../search/types.ts";

/** Every strategy, sequential and parallel, by name. */
export const allStrategies: Readonly<Record<string, Strategy>> = {
  ...builtinStrategies,
  ...parallelStrategies,
};

/**
 * Runs any strategy as an Effect: a parallel one on the worker pool (the one in the
 * context, or a temporary one), a sequential one synchronously.
 */
export const runStrategy = <S>(
  strategy: Strategy,
  game: Game<S>,
  state: S,
  options: SearchOptions,
): Effect.Effect<SearchResult, SearchFailed> =>
  strategy.parallel !== undefined
    ? strategy.parallel(game, state, options)
    : Effect.sync(() => strategy.search(game, state, options));
