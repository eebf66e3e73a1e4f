/**
 * Opening a game by its built-in id, path or URL: the plugin loaded, its options decoded,
 * the game built (and guarded, for a user's plugin).
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { builtins } from "../plugins/registry.ts";
import {
  type GamePlugin,
  loadPlugin,
  makeGame,
  type OptionsError,
  type PluginError,
} from "../core/plugin.ts";
import type { Game } from "../core/game.ts";
import { guardPlugin } from "../core/guard.ts";
import { pluginLabel } from "../core/source.ts";

/** A game built from a plugin and options. */
export interface LoadedGame {
  /** The plugin. */
  readonly plugin: GamePlugin<unknown, unknown>;
  /** The specifier it was loaded by (an id, path or URL). */
  readonly specifier: string;
  /** The plugin module's URL. */
  readonly url: string;
  /** The decoded options. */
  readonly options: unknown;
  /** The game. */
  readonly game: Game<unknown>;
}

/**
 * Loads a game by built-in id (`"kalah"`, `"tictactoe"`, ...) or by a plugin module's
 * path or URL, and builds it from options (missing ones take their defaults). The error
 * lists every problem with the module or the options. A user's plugin comes guarded
 * (`guardPlugin`): its exceptions are `PluginFault`s naming it and the function.
 *
 * @example A built-in game with an option, and the defaults of the others
 * ```ts
 * import { Effect } from "../core/deps.ts";
 * import { loadGame } from "./games.ts";
 * const { game, options } = await Effect.runPromise(loadGame("nim", { heaps: [1, 2] }));
 * if (game.moves(game.initial()).length !== 3) throw new Error("take 1 from heap 1, or 1-2 from 2");
 * if ((options as { misere: boolean }).misere !== false) throw new Error("normal play by default");
 * ```
 */
export const loadGame = (
  specifier: string,
  options: Readonly<Record<string, unknown>> = {},
): Effect.Effect<LoadedGame, PluginError | OptionsError> =>
  Effect.gen(function* () {
    const { plugin, url } = yield* loadPlugin(specifier, builtins);
    const made = yield* makeGame(plugin, options, url);
    const game = guardPlugin(made.game, url, pluginLabel(url));
    return { plugin, specifier, url, options: made.options, game };
  });
