/**
 * Every strategy by name, sequential and parallel, and `runStrategy`, which runs any of
 * them as an Effect. The engine's layer: the sequential searches (`core/search/`) and the
 * parallel ones (`core/parallel/`) do not import each other for this.
 *
 * @module
 */
import { Effect } from "../deps.ts";
import { ParallelUnavailable, type SearchError } from "../errors.ts";
import type { Game } from "../game.ts";
import { parallelStrategies } from "../parallel/strategies.ts";
import { builtinStrategies } from "../search/strategies.ts";
import type { SearchOptions, SearchResult, Strategy } from "../search/types.ts";
import type { GameSource } from "../source.ts";

/** Every strategy, sequential and parallel, by name. */
export const allStrategies: Readonly<Record<string, Strategy>> = {
  ...builtinStrategies,
  ...parallelStrategies,
};

/**
 * Runs any strategy as an Effect: a sequential one synchronously, a parallel one on the
 * worker pool (the one in the context, or a temporary one), whose workers open the game
 * from `source`. A parallel strategy without a source fails with `ParallelUnavailable`:
 * it never runs another search instead.
 *
 * @example
 * ```ts
 * import { Effect } from "../deps.ts";
 * import { runStrategy } from "./strategies.ts";
 * import { parallelStrategies } from "../parallel/strategies.ts";
 * import nim from "../../plugins/nim/mod.ts";
 * const game = nim.create({ heaps: [1, 2], misere: false });
 * const error = Effect.runSync(Effect.flip(runStrategy(parallelStrategies.young_bros, game, game.initial(), {})));
 * if (error._tag !== "ParallelUnavailable") throw new Error(error.message);
 * ```
 */
export const runStrategy = <S>(
  strategy: Strategy,
  game: Game<S>,
  state: S,
  options: SearchOptions,
  source?: GameSource,
): Effect.Effect<SearchResult, SearchError> => {
  if (strategy._tag === "Sequential") {
    return Effect.sync(() => strategy.search(game, state, options));
  }
  if (source === undefined) {
    return Effect.fail(
      new ParallelUnavailable({
        strategy: strategy.name,
        message: `${strategy.name} searches in parallel workers, which open the game from ` +
          "its plugin module: open the game with openGame and pass its source",
      }),
    );
  }
  return strategy.run(game, source, state, options);
};
