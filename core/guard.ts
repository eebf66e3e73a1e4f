/**
 * Guarding a plugin's game: every protocol function of the guarded game records, in a
 * small (possibly shared) array, which function is running, so that an exception names
 * the plugin and the function (`PluginFault`) and a worker stuck inside a plugin's
 * function can be named from outside (the engine reads the array from the main thread).
 *
 * @module
 */
import { PluginFault } from "./errors.ts";
import type { Game } from "./game.ts";

/** The protocol functions a guard wraps; slot value `i + 1` means `GAME_FUNCTIONS[i]`. */
const GAME_FUNCTIONS = [
  "initial",
  "toMove",
  "moves",
  "chances",
  "play",
  "outcome",
  "value",
  "render",
  "formatMove",
  "parseMove",
  "key",
  "orderMoves",
  "stats",
  "describeMove",
  "movesHelp",
  "picture.svg",
  "picture.picks",
  "picture.refuse",
] as const;

/**
 * Where a guard records what runs: `[0]` the running function (0: none, else its index
 * in `GAME_FUNCTIONS` plus one), `[1]` a count of calls (it changes while the plugin
 * makes progress). Make it over a `SharedArrayBuffer` to read it from another thread.
 */
export type GuardSlot = Int32Array;

/** A new slot in shared memory. */
export const sharedSlot = (): GuardSlot => new Int32Array(new SharedArrayBuffer(8));

/** The function a slot says is running, or `undefined`. */
export const runningFunction = (slot: GuardSlot): string | undefined =>
  slot[0] === 0 ? undefined : GAME_FUNCTIONS[slot[0] - 1];

/**
 * Wraps every protocol function of `game`: an exception becomes a `PluginFault` naming
 * `plugin` and the function, and `slot` tells which function runs. The guarded game
 * keeps every other property of the game (it inherits them).
 *
 * @example
 * ```ts
 * import { guardGame } from "./guard.ts";
 * import { PluginFault } from "./errors.ts";
 * import nim from "../plugins/nim/mod.ts";
 * const game = nim.create({ heaps: [1, 2], misere: false });
 * const broken = guardGame({ ...game, moves: () => { throw new Error("boom"); } }, "nim");
 * try {
 *   broken.moves(broken.initial());
 *   throw new Error("no fault");
 * } catch (e) {
 *   if (!(e instanceof PluginFault) || e.fn !== "moves") throw e;
 * }
 * ```
 */
export const guardGame = <S>(
  game: Game<S>,
  plugin: string,
  slot: GuardSlot = new Int32Array(2),
): Game<S> => {
  const guarded = Object.create(game) as Record<string, unknown>;
  // A picture's functions are guarded in a guarded copy of the picture.
  const picture = game.picture === undefined
    ? undefined
    : Object.create(game.picture) as Record<string, unknown>;
  if (picture !== undefined) guarded.picture = picture;
  GAME_FUNCTIONS.forEach((name, i) => {
    const [owner, target, key] = name.startsWith("picture.")
      ? [game.picture, picture, name.slice("picture.".length)]
      : [game, guarded, name];
    const f = (owner as unknown as Record<string, unknown> | undefined)?.[key];
    if (typeof f !== "function" || target === undefined) return;
    target[key] = wrap(
      f as (a: unknown, b: unknown, c: unknown) => unknown,
      owner,
      i + 1,
      name,
      plugin,
      slot,
    );
  });
  return guarded as unknown as Game<S>;
};

/** Where ply's own plugins live (this package's `plugins/`). */
const OWN_PLUGINS = new URL("../plugins/", import.meta.url).href;

/**
 * Guards a game built from the plugin module at `url` (see `guardGame`), unless the
 * module is one of ply's own plugins: their exceptions are ply's bugs, reported as such,
 * and a guard costs every call a wrapper (about 13% of Kalah alpha-beta's node rate,
 * `deno run -A bench/engine_overhead.ts` reports the search-level figures).
 */
export const guardPlugin = <S>(
  game: Game<S>,
  url: string,
  plugin: string,
  slot?: GuardSlot,
): Game<S> => url.startsWith(OWN_PLUGINS) ? game : guardGame(game, plugin, slot);

const wrap = (
  f: (a: unknown, b: unknown, c: unknown) => unknown,
  self: unknown,
  id: number,
  name: string,
  plugin: string,
  slot: GuardSlot,
) =>
(a: unknown, b: unknown, c: unknown): unknown => {
  const outer = slot[0];
  slot[0] = id;
  slot[1] = (slot[1] + 1) | 0;
  try {
    return f.call(self, a, b, c);
  } catch (e) {
    throw e instanceof PluginFault ? e : new PluginFault(plugin, name, e);
  } finally {
    slot[0] = outer;
  }
};
