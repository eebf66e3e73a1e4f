/**
 * Where a game comes from, and how messages name it: the plugin module and options a
 * game was built from (`GameSource`, which a worker needs to build the same game), and
 * the user's directory that module paths are resolved and shown against. The plugin
 * loader, the searches, the worker pool and the engine all import it, none another.
 *
 * @module
 */

/**
 * Where a game came from: enough for a worker to build the same game again. `openGame`
 * returns it beside the game; whatever runs the game in a worker is given it.
 */
export interface GameSource {
  /** The plugin module's URL. */
  readonly url: string;
  /** The raw options it was built from. */
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * The directory the user ran the program from: `INIT_CWD` when `deno task` set it (a task
 * runs in the project's directory, not the user's) and the program may read it
 * (`--allow-env=INIT_CWD`), else the working directory.
 */
export const userCwd = (): string => {
  const env = Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" });
  const dir = env.state === "granted" ? Deno.env.get("INIT_CWD") : undefined;
  return dir !== undefined && dir !== "" ? dir : Deno.cwd();
};

/**
 * How messages name a plugin module: a file under the user's directory by its relative
 * path (`./my.ts`), any other by its URL.
 */
export const pluginLabel = (url: string): string => {
  const here = `file://${userCwd().replace(/\/?$/, "/")}`;
  return url.startsWith(here) ? `./${url.slice(here.length)}` : url;
};

/** Where the built-in plugins live (ply's `plugins/` folder). */
const BUILTIN_PLUGINS = new URL("../plugins/", import.meta.url).href;

/**
 * True when a plugin module is one of ply's own (under its `plugins/` folder): it runs
 * with the program's permissions; any other is a user's, sandboxed (`core/host/`).
 */
export const isBuiltinUrl = (url: string): boolean => url.startsWith(BUILTIN_PLUGINS);

const isUrlLike = (s: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(s) && !/^[a-z]:[\\/]/i.test(s);

/** True when a specifier names a module (a URL or a path) rather than a built-in game. */
export const looksLikeModule = (specifier: string): boolean =>
  isUrlLike(specifier) || /[./\\]/.test(specifier);

/** Resolves a module specifier (a path relative to the user's directory, or a URL). */
export const resolveSpecifier = (specifier: string): string =>
  isUrlLike(specifier)
    ? specifier
    : new URL(specifier, `file://${userCwd().replace(/\/?$/, "/")}`).href;
