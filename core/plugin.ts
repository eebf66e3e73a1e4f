/**
 * Game plugins: a module whose default export describes a game (id, name, description,
 * an options Schema with defaults, and a constructor). Built-in plugins load by id,
 * any other by module specifier (a file path or a URL), the same way.
 *
 * @module
 */
import { Effect, Result, Schema, SchemaAST, SchemaIssue } from "./deps.ts";
import type { Game } from "./game.ts";
import type { Strategy } from "./search/types.ts";

/**
 * What a plugin module exports as default.
 *
 * @typeParam O the decoded options.
 * @typeParam S the game's state type.
 */
export interface GamePlugin<O = unknown, S = unknown> {
  /** Short id used on the command line, such as `"kalah"`. */
  readonly id: string;
  /** Display name, such as `"Kalah"`. */
  readonly name: string;
  /** One line describing the game. */
  readonly description: string;
  /** The options as an Effect Schema struct whose fields all have defaults. */
  readonly options: Schema.Decoder<O>;
  /** Builds the game for decoded options (may throw a plain `Error` for bad combinations). */
  readonly create: (options: O) => Game<S>;
  /** Extra strategies this game offers (for example an exact solver), by name. */
  readonly strategies?: Readonly<Record<string, Strategy>>;
  /** The AI player spec that menus offer first (default `alphabeta:1s`). */
  readonly defaultOpponent?: string;
}

/** The AI spec offered when a plugin names none. */
export const DEFAULT_OPPONENT = "alphabeta:1s";

/**
 * Declares a plugin with its types checked; returns it unchanged.
 *
 * @example
 * ```ts
 * import { definePlugin } from "./plugin.ts";
 * import { Schema } from "./deps.ts";
 * import nim from "../plugins/nim.ts";
 * const mine = definePlugin({
 *   id: "tiny-nim",
 *   name: "Tiny Nim",
 *   description: "Nim on heaps 1, 2",
 *   options: Schema.Struct({}),
 *   create: () => nim.create({ heaps: [1, 2], misere: false }),
 * });
 * if (mine.create({}).moves(mine.create({}).initial()).length !== 3) throw new Error();
 * ```
 */
export const definePlugin = <O, S>(plugin: GamePlugin<O, S>): GamePlugin<O, S> => plugin;

/** A plugin module could not be loaded or is not a valid plugin. */
export class PluginError extends Schema.TaggedError<PluginError>()("PluginError", {
  message: Schema.String,
}) {}

/** Game options did not decode; the message lists every problem. */
export class OptionsError extends Schema.TaggedError<OptionsError>()("OptionsError", {
  message: Schema.String,
}) {}

/** A loaded plugin with the specifier it was loaded from (workers reload it from there). */
export interface LoadedPlugin {
  /** The plugin. */
  readonly plugin: GamePlugin<unknown, unknown>;
  /** The absolute module URL it came from. */
  readonly url: string;
}

/** A built-in plugin entry: where its module is. */
export interface BuiltinEntry {
  /** The module URL. */
  readonly url: string;
  /** Loads the module. */
  readonly load: () => Promise<unknown>;
}

const isFunction = (u: unknown): u is (...args: never[]) => unknown => typeof u === "function";

const PluginShape = Schema.Struct({
  id: Schema.NonEmptyString,
  name: Schema.NonEmptyString,
  description: Schema.String,
  options: Schema.declare(Schema.isSchema, { expected: "an Effect Schema of the options" }),
  create: Schema.declare(isFunction, { expected: "a function from options to a game" }),
});

/** Formats a Schema error as lines `path: message`, naming paths with `prefix`. */
export const formatIssues = (
  error: Schema.SchemaError,
  name: (path: readonly PropertyKey[]) => string,
): string[] =>
  SchemaIssue.makeFormatterStandardSchemaV1()(error.issue).issues.map((i) => {
    const path = (i.path ?? []).map((p) => (typeof p === "object" ? p.key : p));
    const msg = i.message.replace(/^Expected no excess property$/, "unknown");
    return path.length === 0 ? msg : `${name(path)}: ${msg[0].toLowerCase()}${msg.slice(1)}`;
  });

/** True when a specifier looks like a URL (`https:`, `file:`, `jsr:`, `npm:`, ...). */
const isUrlLike = (s: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(s) && !/^[a-z]:[\\/]/i.test(s);

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

/** Resolves a module specifier (a path relative to the user's directory, or a URL). */
export const resolveSpecifier = (specifier: string): string =>
  isUrlLike(specifier)
    ? specifier
    : new URL(specifier, `file://${userCwd().replace(/\/?$/, "/")}`).href;

/**
 * How messages name a plugin module: a file under the user's directory by its relative
 * path (`./my.ts`), any other by its URL.
 */
export const pluginLabel = (url: string): string => {
  const here = `file://${userCwd().replace(/\/?$/, "/")}`;
  return url.startsWith(here) ? `./${url.slice(here.length)}` : url;
};

/**
 * Checks that a module's default export is a plugin; the error lists every problem.
 */
export const validatePlugin = (
  mod: unknown,
  where: string,
): Result.Result<GamePlugin<unknown, unknown>, PluginError> => {
  const def = typeof mod === "object" && mod !== null && "default" in mod
    ? (mod as { default: unknown }).default
    : undefined;
  if (def === undefined) {
    return Result.fail(
      new PluginError({
        message: `${where} is not a ply plugin: it has no default export ` +
          "(export default definePlugin({ id, name, description, options, create }))",
      }),
    );
  }
  const r = Schema.decodeUnknownResult(PluginShape, { errors: "all" })(def);
  if (Result.isFailure(r)) {
    const problems = formatIssues(r.failure, (p) => p.join("."));
    return Result.fail(
      new PluginError({
        message: `${where} is not a ply plugin; its default export has these problems:\n` +
          problems.map((p) => `  - ${p}`).join("\n"),
      }),
    );
  }
  return Result.succeed(def as GamePlugin<unknown, unknown>);
};

/**
 * Loads a plugin by built-in id or module specifier.
 *
 * @param builtins the built-in registry (see `plugins/registry.ts`).
 */
export const loadPlugin = (
  specifier: string,
  builtins: Readonly<Record<string, BuiltinEntry>>,
): Effect.Effect<LoadedPlugin, PluginError> =>
  Effect.gen(function* () {
    const builtin = Object.hasOwn(builtins, specifier) ? builtins[specifier] : undefined;
    const looksLikeModule = isUrlLike(specifier) || /[./\\]/.test(specifier);
    if (builtin === undefined && !looksLikeModule) {
      return yield* new PluginError({
        message: `unknown game '${specifier}'; built-in games: ${
          Object.keys(builtins).join(", ")
        } (or give a plugin module's path or URL)`,
      });
    }
    const url = builtin?.url ?? resolveSpecifier(specifier);
    const mod = yield* Effect.tryPromise({
      try: () => (builtin ? builtin.load() : import(url)),
      catch: (e) =>
        new PluginError({
          message: `could not load plugin module ${url}: ${
            (e instanceof Error ? e.message : String(e)).split("\n")[0]
          }`,
        }),
    });
    const plugin = yield* Effect.fromResult(validatePlugin(mod, `module ${url}`));
    return { plugin, url };
  });

/**
 * Turns a command-line text into an option value: decimal numbers, `true`/`false`, and
 * comma-separated lists (`3,4,5`); anything else stays a string. Every item of a list is
 * kept (`3,,5` has an empty one, which the options refuse), and `0x10` or `1e1` stay
 * strings, which an integer option refuses.
 */
export const coerceOption = (text: string): unknown => {
  const t = text.trim();
  if (t.includes(",")) return t.split(",").map(coerceOption);
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === "true") return true;
  if (t === "false") return false;
  return t;
};

/** Where a game came from: enough for a worker to build the same game again. */
export interface GameSource {
  /** The plugin module's URL. */
  readonly url: string;
  /** The raw options it was built from. */
  readonly options: Readonly<Record<string, unknown>>;
}

const sources = new WeakMap<object, GameSource>();

/** The module and options a game was built from (by `makeGame` with a URL), if known. */
export const gameSource = (game: object): GameSource | undefined => sources.get(game);

/** Records where a game came from (a wrapper of a game keeps its source this way). */
export const rememberSource = (game: object, source: GameSource): void => {
  sources.set(game, source);
};

/**
 * Builds a game from a plugin and raw options; the error names every bad option. With
 * the plugin's module `url`, the game remembers its source (see `gameSource`), so that
 * parallel searches can rebuild it in workers.
 */
export const makeGame = <O, S>(
  plugin: GamePlugin<O, S>,
  raw: Readonly<Record<string, unknown>>,
  url?: string,
): Effect.Effect<{ readonly game: Game<S>; readonly options: O }, OptionsError> =>
  Effect.gen(function* () {
    const decoded = Schema.decodeUnknownResult(plugin.options, {
      errors: "all",
      onExcessProperty: "error",
    })(raw);
    // Unknown options are named even for a struct without fields (which Schema lets pass).
    const names = new Set(optionHelp(plugin).map((o) => o.name));
    const unknown = plugin.options.ast._tag === "Objects"
      ? Object.keys(raw).filter((k) => !names.has(k))
      : [];
    if (Result.isFailure(decoded) || unknown.length > 0) {
      const lines = Result.isFailure(decoded)
        ? formatIssues(
          decoded.failure,
          ([name, ...rest]) =>
            `--${String(name)}${
              rest.length > 0 ? ` (item ${rest.map((i) => Number(i) + 1).join(".")})` : ""
            }`,
        )
        : [];
      for (const k of unknown) {
        if (!lines.includes(`--${k}: unknown`)) lines.unshift(`--${k}: unknown`);
      }
      for (let i = 0; i < lines.length; i++) {
        lines[i] = lines[i].replace(/: unknown$/, ": unknown option");
      }
      const known = optionHelp(plugin).map((o) => `--${o.name}`).join(", ") || "none";
      return yield* new OptionsError({
        message: `bad options for ${plugin.id}:\n` + lines.map((l) => `  ${l}`).join("\n") +
          `\n  (options of ${plugin.id}: ${known})`,
      });
    }
    const options = (decoded as Result.Success<O, never>).success;
    const game = yield* Effect.try({
      try: () => plugin.create(options),
      catch: (e) =>
        new OptionsError({
          message: `bad options for ${plugin.id}: ${e instanceof Error ? e.message : String(e)}`,
        }),
    });
    if (url !== undefined) sources.set(game, { url, options: { ...raw } });
    return { game, options };
  });

/** One option of a plugin, for help texts and menus. */
export interface OptionInfo {
  /** The option name (a flag `--name`). */
  readonly name: string;
  /** Its description, if the schema has one. */
  readonly description: string;
  /** What values it takes, from the schema's checks. */
  readonly expected: string;
  /** Its default value. */
  readonly default: unknown;
}

const expectedOf = (ast: SchemaAST.AST): string => {
  const checks = (ast.checks ?? [])
    .map((c) => (c as { annotations?: { expected?: unknown } }).annotations?.expected)
    .filter((e): e is string => typeof e === "string");
  let base: string;
  switch (ast._tag) {
    case "Number":
      base = "a number";
      break;
    case "String":
      base = "a text";
      break;
    case "Boolean":
      base = "true or false";
      break;
    case "Union":
      base = ast.types.map((t) => t._tag === "Literal" ? String(t.literal) : expectedOf(t)).join(
        " | ",
      );
      break;
    case "Literal":
      base = String(ast.literal);
      break;
    case "Arrays":
      base = `a comma-separated list of ${expectedOf(ast.rest[0] ?? ast.elements[0])}`;
      break;
    default:
      base = ast._tag.toLowerCase();
  }
  if (checks.length === 0) return base;
  if (ast._tag === "Arrays") {
    return `${base} (${
      checks.map((c) => c.replace(/^a value with a length of /, "length ")).join(", ")
    })`;
  }
  // "an integer" and "a value between 1 and 9" read better as "an integer between 1 and 9".
  const rest = checks.filter((c) => c !== "an integer");
  if (rest.length < checks.length) {
    if (rest.length === 0) return "an integer";
    rest[0] = rest[0].replace(/^a value\b/, "an integer");
  }
  return rest.join(", ");
};

/** The options of a plugin with descriptions, accepted values and defaults. */
export const optionHelp = <O, S>(plugin: GamePlugin<O, S>): OptionInfo[] => {
  const ast = plugin.options.ast;
  if (ast._tag !== "Objects") return [];
  const defaults = Schema.decodeUnknownResult(plugin.options)({});
  const defs = Result.isSuccess(defaults) ? defaults.success as Record<string, unknown> : {};
  return ast.propertySignatures.map((ps) => ({
    name: String(ps.name),
    description: SchemaAST.resolveDescription(ps.type) ?? "",
    expected: expectedOf(ps.type),
    default: defs[String(ps.name)],
  }));
};
