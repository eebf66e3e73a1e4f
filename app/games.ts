/**
 * Opening a game by its built-in id, path or URL: the plugin loaded, its options decoded,
 * the game built (and guarded, for a user's plugin), returned with its source.
 *
 * @module
 */
import { Effect, type Scope } from "../core/deps.ts";
import { builtins, gameUrl } from "../plugins/registry.ts";
import {
  declaredPlugin,
  type LoadedPlugin,
  loadPlugin,
  type OpenedGame,
  openGameWith,
  type OptionsError,
  type PluginError,
} from "../core/plugin.ts";
import { isBuiltinUrl, looksLikeModule, pluginLabel } from "../core/source.ts";
import { hostDeclaration, hostGame } from "../core/host/game.ts";
import { Limits } from "../core/host/limits.ts";
import { WorkerPool } from "../core/parallel/pool.ts";

/**
 * Opens a game by built-in id (`"kalah"`, `"tictactoe"`, ...), by a plugin module's path
 * or URL, or from a plugin already loaded, and builds it from options (missing ones take
 * their defaults). The error lists every problem with the module or the options. A
 * user's plugin comes guarded (`guardPlugin`): its exceptions are `PluginFault`s naming
 * it and the function. The game comes with its `source`, which searches in workers need
 * (`SearchRequest.source`, `AgentOptions.source`).
 *
 * @example A built-in game with an option, and its source
 * ```ts
 * import { Effect } from "../core/deps.ts";
 * import { openGame } from "./games.ts";
 * const { game, source } = await Effect.runPromise(openGame("nim", { heaps: [1, 2] }));
 * if (game.moves(game.initial()).length !== 3) throw new Error("nim 1,2 has 3 moves");
 * if (!source.url.endsWith("/plugins/nim/mod.ts")) throw new Error(source.url);
 * ```
 */
export const openGame = (
  from: string | LoadedPlugin,
  options: Readonly<Record<string, unknown>> = {},
): Effect.Effect<OpenedGame, PluginError | OptionsError> => openGameWith(builtins, from, options);

/**
 * Opens a game as `openGame` does, but runs it in its own plugin thread for the scope's
 * lifetime (`core/host/`): the game returned is a stand-in whose every call is answered
 * there and watched (`Limits`: a call past the call limit, or the thread out of memory,
 * is a `PluginFault` naming the plugin and the function), and a user's plugin runs
 * sandboxed. This is how the programs open games: no game code runs on their main thread.
 */
export const openHostedGame = (
  from: string,
  options: Readonly<Record<string, unknown>> = {},
): Effect.Effect<OpenedGame, PluginError | OptionsError, Scope.Scope> =>
  Effect.gen(function* () {
    const url = gameUrl(from);
    const trusted = isBuiltinUrl(url);
    // A word that names no built-in game and no module: loading says so (it loads nothing).
    if (!trusted && !looksLikeModule(from)) yield* loadPlugin(from, builtins);
    const source = { url, options: { ...options } };
    // The search workers start while the game's thread does.
    const pool = yield* Effect.serviceOption(WorkerPool);
    if (pool._tag === "Some") pool.value.warm(url);
    const limits = yield* Limits;
    const label = pluginLabel(url);
    // The plugin's module loads in its thread alone, which sends its declaration back.
    const hosted = yield* hostGame({ source, label, trusted, limits });
    const plugin = declaredPlugin(hosted.plugin, label);
    return { plugin, specifier: from, options: hosted.options, game: hosted.game, source };
  });

/**
 * The plugin `from` names, as a program's main thread may hold it: declared by a thread
 * of its own (`declaredPlugin`: its module never loads here, a built-in's no more than a
 * user's), which ends with the scope. For help texts.
 */
export const pluginOf = (
  from: string,
): Effect.Effect<LoadedPlugin, PluginError | OptionsError, Scope.Scope> =>
  Effect.gen(function* () {
    const url = gameUrl(from);
    const trusted = isBuiltinUrl(url);
    if (!trusted && !looksLikeModule(from)) return yield* loadPlugin(from, builtins);
    const label = pluginLabel(url);
    const limits = yield* Limits;
    const declared = yield* hostDeclaration({
      source: { url, options: {} },
      label,
      trusted,
      limits,
    });
    return { plugin: declaredPlugin(declared, label), url };
  });
