/**
 * The thread that makes each built-in game at its default options for the server's form
 * (started by `catalog.ts` through `spawnPluginThread`): their players and whether each is
 * played alone, sent back as data, so that no plugin's `create()` runs on the server's
 * thread, and one thread starts for all of them.
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { ownerPort } from "../core/host/inside.ts";
import { loadPlugin, makeGame } from "../core/plugin.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import type { BuiltinShapes } from "./catalog.ts";

const made = await Effect.runPromise(Effect.result(Effect.gen(function* () {
  const shapes: Record<string, BuiltinShapes[string]> = {};
  for (const id of builtinIds) {
    const { plugin } = yield* loadPlugin(id, builtins);
    const { game } = yield* makeGame(plugin, {});
    shapes[id] = { players: [...game.players], solo: game.solo === true };
  }
  return shapes;
})));
ownerPort().post(
  made._tag === "Success" ? { shapes: made.success } : { failed: made.failure.message },
);
