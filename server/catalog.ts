/**
 * The games a server offers: every built-in game and each plugin named on its command
 * line, loaded once at start (a browser can never make the server load a module). For
 * each: the entry the new-game form is built from, and how to make a game from the
 * form's options.
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import {
  declaredPlugin,
  DEFAULT_OPPONENT,
  DEFAULT_STRENGTHS,
  type GamePlugin,
  optionHelp,
  type OptionsError,
  PluginError,
} from "../core/plugin.ts";
import { openHostedGame } from "../app/games.ts";
import { builtinCatalog, type BuiltinGames } from "../app/catalog.ts";
import { pluginLabel } from "../core/source.ts";
import type { Strategy } from "../core/search/types.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import type { GameEntry, OptionField } from "./protocol.ts";

/** A game the server offers: its plugin, where it came from, and its form entry. */
export interface Offered {
  /** The plugin. */
  readonly plugin: GamePlugin<unknown, unknown>;
  /** The module URL it was loaded from (workers rebuild games from it). */
  readonly url: string;
  /** The specifier a transcript names (`kalah`, or the path or URL given). */
  readonly specifier: string;
  /** What the page shows. */
  readonly entry: GameEntry;
  /** Every strategy its AIs may use, by name. */
  readonly strategies: Readonly<Record<string, Strategy>>;
}

/** The form fields of a plugin's options. */
const fieldsOf = (plugin: GamePlugin<unknown, unknown>): OptionField[] => {
  const advanced = new Set(plugin.advancedOptions ?? []);
  return optionHelp(plugin).map((o) => ({
    name: o.name,
    description: o.description,
    expected: o.expected,
    default: Array.isArray(o.default) ? o.default.join(",") : String(o.default),
    ...(o.choices !== undefined ? { choices: [...o.choices] } : {}),
    advanced: advanced.has(o.name),
  }));
};

/**
 * A plugin and its game at its default options, for the form: a built-in's as the
 * catalog's thread described it (`builtinCatalog`); a user's opened in a thread of its own.
 * Neither module loads on the server's thread.
 */
const inspect = (
  specifier: string,
  builtin: BuiltinGames,
): Effect.Effect<
  { plugin: GamePlugin<unknown, unknown>; url: string; players: readonly string[]; solo: boolean },
  PluginError | OptionsError
> => {
  const described = Object.hasOwn(builtin, specifier) ? builtin[specifier] : undefined;
  if (described !== undefined) {
    const url = builtins[specifier].url;
    return Effect.succeed({
      plugin: declaredPlugin(described.plugin, pluginLabel(url)),
      url,
      players: described.players,
      solo: described.solo,
    });
  }
  return Effect.scoped(Effect.map(openHostedGame(specifier, {}), (opened) => ({
    plugin: opened.plugin,
    url: opened.source.url,
    players: opened.game.players,
    solo: opened.game.solo === true,
  })));
};

/** Loads one plugin (a built-in id, a path or a URL) and describes it. */
export const offer = (
  specifier: string,
  builtin?: BuiltinGames,
): Effect.Effect<Offered, PluginError | OptionsError> =>
  Effect.gen(function* () {
    const { plugin, url, players, solo } = yield* inspect(
      specifier,
      builtin ??
        (builtinIds.includes(specifier) ? (yield* Effect.scoped(builtinCatalog)).games : {}),
    );
    const strengths = plugin.strengths ?? DEFAULT_STRENGTHS;
    return {
      plugin,
      url,
      specifier,
      strategies: { ...allStrategies, ...plugin.strategies },
      entry: {
        id: plugin.id,
        name: plugin.name,
        description: plugin.description,
        rules: plugin.rules ?? "",
        options: fieldsOf(plugin),
        strengths: Object.entries(strengths),
        defaultOpponent: plugin.defaultOpponent ?? DEFAULT_OPPONENT,
        players: [players[0], players[1]],
        solo,
      },
    };
  });

/**
 * The built-in games and the plugins named, by id; a plugin whose id is taken by an
 * earlier one is refused (naming both), so that an id means one game.
 */
export const catalog = (
  plugins: readonly string[],
): Effect.Effect<ReadonlyMap<string, Offered>, PluginError | OptionsError> =>
  Effect.gen(function* () {
    const games = new Map<string, Offered>();
    // Each game's thread starts at once; the ids are checked in the order given.
    const builtin = (yield* Effect.scoped(builtinCatalog)).games;
    const offered = yield* Effect.forEach(
      [...builtinIds, ...plugins],
      (specifier) => offer(specifier, builtin),
      { concurrency: "unbounded" },
    );
    for (const [i, o] of offered.entries()) {
      const specifier = [...builtinIds, ...plugins][i];
      const taken = games.get(o.entry.id);
      if (taken !== undefined) {
        return yield* new PluginError({
          message: `${specifier} has the id "${o.entry.id}", which ${taken.specifier} has already`,
        });
      }
      games.set(o.entry.id, o);
    }
    return games;
  });
