/**
 * The built-in plugins, by id. Each loads its module on demand; a user's plugin loads
 * the same way from a path or URL (`core/plugin.ts`).
 *
 * @module
 */
import type { BuiltinEntry } from "../core/plugin.ts";

const entry = (file: string, load: () => Promise<unknown>): BuiltinEntry => ({
  url: new URL(file, import.meta.url).href,
  load,
});

/**
 * The built-in games with their ids, in menu order (an array: an object would list the
 * id "2048" first, as JavaScript orders integer-like keys before all others).
 */
export const builtinList: readonly (readonly [id: string, entry: BuiltinEntry])[] = [
  ["kalah", entry("./kalah/mod.ts", () => import("./kalah/mod.ts"))],
  ["tictactoe", entry("./tictactoe/mod.ts", () => import("./tictactoe/mod.ts"))],
  ["nim", entry("./nim/mod.ts", () => import("./nim/mod.ts"))],
  ["pentago", entry("./pentago/mod.ts", () => import("./pentago/mod.ts"))],
  ["2048", entry("./game2048/mod.ts", () => import("./game2048/mod.ts"))],
  ["domineering", entry("./domineering/mod.ts", () => import("./domineering/mod.ts"))],
];

/** The built-in games' ids in menu order. */
export const builtinIds: readonly string[] = builtinList.map(([id]) => id);

/** The built-in games by id (for lookup; use `builtinIds` for their order). */
export const builtins: Readonly<Record<string, BuiltinEntry>> = Object.fromEntries(builtinList);
