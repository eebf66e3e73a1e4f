/**
 * The thread that describes the built-in games (started by `catalog.ts` through
 * `spawnPluginThread`): each plugin's declaration and its game's players and whether it is
 * played alone at its default options, sent back as data; then it checks options on
 * request (`CatalogCheck`), so that no built-in plugin's module loads on a program's main
 * thread, and one thread starts for all of them.
 *
 * @module
 */
import { Effect, Result } from "../core/deps.ts";
import { ownerPort } from "../core/host/inside.ts";
import {
  declarePlugin,
  decodeOptions,
  type GamePlugin,
  loadPlugin,
  makeGame,
} from "../core/plugin.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import type { BuiltinGames, CatalogAnswer, CatalogCheck, CatalogChecked } from "./catalog.ts";

const owner = ownerPort();
const plugins = new Map<string, GamePlugin<unknown, unknown>>();

const made = await Effect.runPromise(Effect.result(Effect.gen(function* () {
  const games: Record<string, BuiltinGames[string]> = {};
  for (const id of builtinIds) {
    const { plugin } = yield* loadPlugin(id, builtins);
    plugins.set(id, plugin);
    const { game } = yield* makeGame(plugin, {});
    games[id] = {
      plugin: declarePlugin(plugin),
      players: [...game.players],
      solo: game.solo === true,
    };
  }
  return games;
})));

owner.listen((m) => {
  const { check, id, options } = m as CatalogCheck;
  const plugin = plugins.get(id);
  let reply: CatalogChecked;
  if (plugin === undefined) reply = { check, failed: `no built-in game '${id}'` };
  else {
    const r = Effect.runSync(Effect.result(decodeOptions(plugin, options)));
    reply = Result.isSuccess(r) ? { check } : {
      check,
      problems: r.failure.problems,
      known: r.failure.known,
      message: r.failure.message,
    };
  }
  owner.post(reply);
});

owner.post(
  (made._tag === "Success"
    ? { games: made.success }
    : { failed: made.failure.message }) satisfies CatalogAnswer,
);
