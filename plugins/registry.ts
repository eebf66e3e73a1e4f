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

/** Built-in games in menu order. */
export const builtins: Readonly<Record<string, BuiltinEntry>> = {
  tictactoe: entry("./tictactoe.ts", () => import("./tictactoe.ts")),
  nim: entry("./nim.ts", () => import("./nim.ts")),
};
