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
  DEFAULT_OPPONENT,
  DEFAULT_STRENGTHS,
  type GamePlugin,
  loadPlugin,
  optionHelp,
  type OptionsError,
  PluginError,
} from "../core/plugin.ts";
import { openHostedGame } from "../app/games.ts";
import type { Strategy } from "../core/search/types.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import { Limits, spawnPluginThread, THREAD_START_MS } from "../core/host/thread.ts";
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

/** Each built-in game's players and whether it is played alone, at its default options. */
export type BuiltinShapes = Record<
  string,
  { readonly players: readonly string[]; readonly solo: boolean }
>;

/**
 * The built-in games' shapes, made in one thread (`catalog_thread.ts`): no plugin's
 * `create()` runs on the server's thread, and one thread starts for all of them. Its
 * answer must come within a thread's start and the call limit.
 */
const builtinShapes: Effect.Effect<BuiltinShapes, PluginError> = Effect.gen(function* () {
  const limits = yield* Limits;
  type Answer = { readonly shapes?: BuiltinShapes; readonly failed?: string };
  const answer: Answer = yield* Effect.callback<Answer>(
    (resume) => {
      const thread = spawnPluginThread(
        new URL("./catalog_thread.ts", import.meta.url),
        {},
        { plugin: new URL("../plugins/registry.ts", import.meta.url).href, trusted: true, limits },
        {
          message: (m) => resume(Effect.succeed(m as Answer)),
          exit: (end) => resume(Effect.succeed({ failed: end.message })),
        },
      );
      return Effect.sync(() => thread.terminate());
    },
  ).pipe(
    Effect.timeoutOrElse({
      duration: THREAD_START_MS + limits.callLimitMs,
      orElse: () =>
        Effect.succeed<Answer>({
          failed: `it did not answer within ${
            limits.callLimitMs / 1000
          } s (--call-limit changes it)`,
        }),
    }),
  );
  if (answer.shapes === undefined) {
    return yield* new PluginError({
      message: `the built-in games could not be made: ${answer.failed}`,
    });
  }
  return answer.shapes;
});

/**
 * A plugin and its game at its default options, for the form: a built-in's from the
 * shapes made in their thread (`builtinShapes`); a user's opened in a thread of its own
 * (its module never loads on the server's thread), which ends once it has answered.
 */
const inspect = (
  specifier: string,
  shapes: BuiltinShapes,
): Effect.Effect<
  { plugin: GamePlugin<unknown, unknown>; url: string; players: readonly string[]; solo: boolean },
  PluginError | OptionsError
> => {
  const shape = Object.hasOwn(shapes, specifier) ? shapes[specifier] : undefined;
  if (shape !== undefined) {
    return Effect.map(loadPlugin(specifier, builtins), ({ plugin }) => ({
      plugin,
      url: builtins[specifier].url,
      ...shape,
    }));
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
  shapes?: BuiltinShapes,
): Effect.Effect<Offered, PluginError | OptionsError> =>
  Effect.gen(function* () {
    const { plugin, url, players, solo } = yield* inspect(
      specifier,
      shapes ?? (builtinIds.includes(specifier) ? yield* builtinShapes : {}),
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
    const shapes = yield* builtinShapes;
    const offered = yield* Effect.forEach(
      [...builtinIds, ...plugins],
      (specifier) => offer(specifier, shapes),
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
