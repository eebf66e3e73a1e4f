/**
 * The built-in plugins, by id. Each loads its module on demand; a user's plugin loads
 * the same way from a path or URL (`core/plugin.ts`). Each one's name and description
 * come from its `about.ts`, plain data, so that a menu lists the games without loading
 * any plugin's module.
 *
 * @module
 */
import type { BuiltinEntry } from "../core/plugin.ts";
import { resolveSpecifier } from "../core/source.ts";
import { about as kalah } from "./kalah/about.ts";
import { about as tictactoe } from "./tictactoe/about.ts";
import { about as nim } from "./nim/about.ts";
import { about as pentago } from "./pentago/about.ts";
import { about as game2048 } from "./game2048/about.ts";
import { about as domineering } from "./domineering/about.ts";

const entry = (
  about: { readonly name: string; readonly description: string },
  file: string,
  load: () => Promise<unknown>,
): BuiltinEntry => ({
  url: new URL(file, import.meta.url).href,
  load,
  name: about.name,
  description: about.description,
});

/**
 * The built-in games with their ids, in menu order (an array: an object would list the
 * id "2048" first, as JavaScript orders integer-like keys before all others).
 */
export const builtinList: readonly (readonly [id: string, entry: BuiltinEntry])[] = [
  [kalah.id, entry(kalah, "./kalah/mod.ts", () => import("./kalah/mod.ts"))],
  [tictactoe.id, entry(tictactoe, "./tictactoe/mod.ts", () => import("./tictactoe/mod.ts"))],
  [nim.id, entry(nim, "./nim/mod.ts", () => import("./nim/mod.ts"))],
  [pentago.id, entry(pentago, "./pentago/mod.ts", () => import("./pentago/mod.ts"))],
  [game2048.id, entry(game2048, "./game2048/mod.ts", () => import("./game2048/mod.ts"))],
  [
    domineering.id,
    entry(domineering, "./domineering/mod.ts", () => import("./domineering/mod.ts")),
  ],
];

/** The built-in games' ids in menu order. */
export const builtinIds: readonly string[] = builtinList.map(([id]) => id);

/** The built-in games by id (for lookup; use `builtinIds` for their order). */
export const builtins: Readonly<Record<string, BuiltinEntry>> = Object.fromEntries(builtinList);

/** The module URL a game's name (a built-in id, a path or a URL) stands for. */
export const gameUrl = (from: string): string =>
  Object.hasOwn(builtins, from) ? builtins[from].url : resolveSpecifier(from);
