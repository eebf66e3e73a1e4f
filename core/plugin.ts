/**
 * Game plugins: a module whose default export describes a game (id, name, description,
 * an options Schema with defaults, and a constructor). Built-in plugins load by id,
 * any other by module specifier (a file path or a URL), the same way.
 *
 * @module
 */
import { type Cause, Data, Effect, Result, Schema, SchemaAST, type SchemaIssue } from "./deps.ts";
import { type Game, OPTIONAL_FUNCTIONS, REQUIRED_FUNCTIONS } from "./game.ts";
import type { SequentialStrategy, StrategyInfo } from "./search/types.ts";
import { guardPlugin, type GuardSlot } from "./guard.ts";
import { type GameSource, looksLikeModule, pluginLabel, resolveSpecifier } from "./source.ts";

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
  /**
   * Extra strategies this game offers (for example an exact solver), by name: sequential
   * ones (`_tag: "Sequential"`), which run in the engine's workers like the built-in ones.
   */
  readonly strategies?: Readonly<Record<string, SequentialStrategy>>;
  /**
   * A short statement of the game's rules and its move notation, for a person (`rules`
   * in `play`). Every plugin should give one; the conformance suite checks it.
   */
  readonly rules?: string;
  /**
   * The AI's strengths by name, weakest first, each a player spec (such as
   * `{ easy: "alphabeta:2", medium: "alphabeta:1s", strong: "alphabeta:5s", perfect:
   * "solve" }`); menus offer these names. Default `DEFAULT_STRENGTHS`.
   */
  readonly strengths?: Readonly<Record<string, string>>;
  /**
   * The options that tune the AI rather than the game (Pentago's `eval`): menus ask for
   * them only when the player chooses "advanced"; flags set them as any other.
   */
  readonly advancedOptions?: readonly string[];
  /**
   * How much worse than the best move, in `value` units from the mover's side, a move
   * must be for `review` to flag it as a mistake (default 1). Turning a win into a draw
   * or a loss, or a draw into a loss, is always a mistake.
   */
  readonly mistakeMargin?: number;
  /** The AI player spec that menus offer first (default `alphabeta:1s`). */
  readonly defaultOpponent?: string;
}

/** The strengths offered when a plugin names none (player specs by name). */
export const DEFAULT_STRENGTHS: Readonly<Record<string, string>> = {
  easy: "alphabeta:2",
  medium: "alphabeta:1s",
  strong: "alphabeta:5s",
};

/** The AI spec offered when a plugin names none. */
export const DEFAULT_OPPONENT = "alphabeta:1s";

/**
 * Declares a plugin with its types checked; returns it unchanged.
 *
 * @example
 * ```ts
 * import { definePlugin } from "./plugin.ts";
 * import { Schema } from "./deps.ts";
 * import nim from "../plugins/nim/mod.ts";
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

/** The fields of `PluginError`. */
const pluginErrorFields: { readonly message: Schema.String } = { message: Schema.String };

// The superclass as a variable of an explicit type: JSR's fast check reads no call there.
const PluginErrorBase: Schema.Class<
  PluginError,
  Schema.TaggedStruct<"PluginError", typeof pluginErrorFields>,
  Cause.YieldableError
> = Schema.TaggedError<PluginError>()("PluginError", pluginErrorFields);

/** A plugin module could not be loaded or is not a valid plugin. */
export class PluginError extends PluginErrorBase {}

/** One problem with a game's options: which option, the value given, what is wrong. */
export interface OptionProblem {
  /** The option's name; absent for a problem of the options as a whole. */
  readonly option?: string;
  /** The item of a list option (`"2"`, or `"1.2"` in nested lists), counted from 1. */
  readonly item?: string;
  /** The value given (absent when the option was left out). */
  readonly value?: unknown;
  /** What is wrong, or what is allowed (`"must be an integer from 1 to 16"`, `"unknown option"`). */
  readonly problem: string;
}

/** What an `OptionsError` holds. */
export interface OptionsErrorFields {
  /** Every problem, formatted for a command line. */
  readonly message: string;
  /** The plugin's id. */
  readonly plugin: string;
  /** Each problem. */
  readonly problems: readonly OptionProblem[];
  /** The names of the game's options. */
  readonly known: readonly string[];
}

// The superclass as a variable of an explicit type: JSR's fast check reads no call there.
const OptionsErrorBase: new (
  fields: OptionsErrorFields,
) => Cause.YieldableError & { readonly _tag: "OptionsError" } & Readonly<OptionsErrorFields> = Data
  .TaggedError("OptionsError")<OptionsErrorFields>;

/**
 * Game options did not decode: one entry per problem, and every option the game has.
 * `message` is the entries formatted (`optionsMessage`); a program that shows problems
 * one by one (the menu asks again for one option) reads `problems`.
 */
export class OptionsError extends OptionsErrorBase {}

/** How a problem reads on a command line: `--pits: must be ...`. */
export const formatProblem = (p: OptionProblem): string =>
  p.option === undefined
    ? p.problem
    : `--${p.option}${p.item !== undefined ? ` (item ${p.item})` : ""}: ${p.problem}`;

/** An `OptionsError` for `plugin`'s problems, its message made from them. */
const optionsError = (
  plugin: string,
  problems: readonly OptionProblem[],
  known: readonly string[],
): OptionsError =>
  new OptionsError({
    message: `bad options for ${plugin}:\n` +
      problems.map((p) => `  ${formatProblem(p)}\n`).join("") +
      `  (options of ${plugin}: ${known.map((k) => `--${k}`).join(", ") || "none"})`,
    plugin,
    problems,
    known,
  });

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
  /** The game's name, as its plugin declares it (read without loading the module). */
  readonly name: string;
  /** The game's description, as its plugin declares it. */
  readonly description: string;
}

const isFunction = (u: unknown): u is (...args: never[]) => unknown => typeof u === "function";

const PluginShape = Schema.Struct({
  id: Schema.NonEmptyString,
  name: Schema.NonEmptyString,
  description: Schema.String,
  options: Schema.declare(Schema.isSchema, { expected: "an Effect Schema of the options" }),
  create: Schema.declare(isFunction, { expected: "a function from options to a game" }),
});

/** One problem a Schema error reports: where, what is wrong, and whether it is an excess key. */
interface SchemaProblem {
  /** The path to the value (option name, then list items). */
  readonly path: readonly PropertyKey[];
  /** What is wrong, to follow `NAME: ` (`expected number`, the plugin's own message). */
  readonly message: string;
  /** True for a key the schema does not have (an unknown option). */
  readonly excess: boolean;
}

/** What an AST node expects, as messages name it (`number`, `"a" | "b"`, its annotation). */
const expectedType = (ast: SchemaAST.AST): string => {
  const own = SchemaAST.resolveIdentifier(ast) ?? textAt(ast.annotations, "expected");
  if (own !== undefined) return own;
  switch (ast._tag) {
    case "Number":
      return "number";
    case "String":
      return "string";
    case "Boolean":
      return "boolean";
    case "Literal":
      return JSON.stringify(ast.literal);
    case "Union":
      return ast.types.map(expectedType).join(" | ");
    case "Arrays":
      return "a list";
    case "Objects":
      return "an object";
    default:
      return ast._tag.toLowerCase();
  }
};

/** An annotation that is a text, if present. */
const textAt = (annotations: object | undefined, key: string): string | undefined => {
  const v = (annotations as Record<string, unknown> | undefined)?.[key];
  return typeof v === "string" ? v : undefined;
};

/**
 * The schema's own message for a leaf issue (a plugin's `message` annotation, or
 * `messageMissingKey` / `messageUnexpectedKey`), where Effect's formatter looks for it.
 */
const ownMessage = (issue: SchemaIssue.Leaf | SchemaIssue.AnyOf): string | undefined => {
  const at = "annotations" in issue ? issue.annotations : issue.ast.annotations;
  const key = issue._tag === "MissingKey"
    ? "messageMissingKey"
    : issue._tag === "UnexpectedKey"
    ? "messageUnexpectedKey"
    : "message";
  const m = textAt(at, key);
  return m === undefined ? undefined : lowerFirst(m);
};

/** What a check expects (`a value between 1 and 9`), from its annotation. */
const checkExpected = (check: SchemaAST.Check<unknown>): string => {
  const expected = check.annotations?.expected;
  if (typeof expected === "string") return expected;
  return check._tag === "FilterGroup"
    ? check.checks.map(checkExpected).join(" & ")
    : "a valid value";
};

/**
 * A Schema error's problems, read from its issue tree by the issues' tags (not from
 * Effect's English messages): each leaf with its path, its message (the plugin's own
 * `message` annotation, else ours from what the schema expected), and whether it is an
 * excess key.
 */
const schemaIssues = (error: Schema.SchemaError): SchemaProblem[] => {
  const walk = (
    issue: SchemaIssue.Issue,
    path: readonly PropertyKey[],
    override: string | undefined,
  ): SchemaProblem[] => {
    const leaf = (message: string, excess = false): SchemaProblem[] => [
      { path, message: override ?? message, excess },
    ];
    switch (issue._tag) {
      case "Pointer":
        return walk(issue.issue, [...path, ...issue.path], override);
      case "Encoding":
        return walk(issue.issue, path, override);
      case "Filter": {
        const inner = issue.issue;
        const own = textAt(issue.filter.annotations, "message") ??
          ("annotations" in inner ? textAt(inner.annotations, "message") : undefined);
        const expected = inner._tag !== "InvalidValue"
          ? undefined
          : textAt(inner.annotations, "expected") ?? checkExpected(issue.filter);
        const message = own !== undefined
          ? lowerFirst(own)
          : expected !== undefined
          ? `expected ${expected}`
          : undefined;
        return walk(inner, path, override ?? message);
      }
      case "Composite":
        return issue.issues.flatMap((i) => walk(i, path, override));
      case "AnyOf":
        return issue.issues.length > 0
          ? issue.issues.flatMap((i) => walk(i, path, override))
          : leaf(ownMessage(issue) ?? `expected ${expectedType(issue.ast)}`);
      case "InvalidType":
        return leaf(ownMessage(issue) ?? `expected ${expectedType(issue.ast)}`);
      case "InvalidValue": {
        const expected = textAt(issue.annotations, "expected");
        return leaf(
          ownMessage(issue) ??
            (expected !== undefined ? `expected ${expected}` : "expected a valid value"),
        );
      }
      case "MissingKey":
        return leaf(ownMessage(issue) ?? "missing key");
      case "UnexpectedKey":
        return leaf(ownMessage(issue) ?? "unknown key", true);
      case "Forbidden":
        return leaf(ownMessage(issue) ?? "forbidden operation");
      case "OneOf":
        return leaf(ownMessage(issue) ?? "expected exactly one member to match");
    }
  };
  return walk(error.issue, [], undefined);
};

/** Formats a Schema error as lines `path: message`, naming paths with `name`. */
const formatIssues = (
  error: Schema.SchemaError,
  name: (path: readonly PropertyKey[]) => string,
): string[] =>
  schemaIssues(error).map(({ path, message }) =>
    path.length === 0 ? message : `${name(path)}: ${message}`
  );

/** A message to follow a name and a colon. */
const lowerFirst = (s: string): string => s === "" ? s : `${s[0].toLowerCase()}${s.slice(1)}`;

/** True when a specifier looks like a URL (`https:`, `file:`, `jsr:`, `npm:`, ...). */
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
 * Why the plugin module at `url` could not be loaded (`e`, what `import` threw), in one
 * line naming the plugin: the error's first line and where in the module it is. A module
 * that does not parse, fetched over HTTP, is most often a page the server sent for it
 * (`text/html`) or a module it sent with the wrong media type: the message says so.
 */
const loadFailure = (url: string, e: unknown): string => {
  const lines = (e instanceof Error ? e.message : String(e)).split("\n");
  const at = lines.map((l) => l.trim()).find((l) => /^at \S+:\d+:\d+$/.test(l));
  const syntax = /^SyntaxError\b/.test(lines[0]) || e instanceof SyntaxError;
  return `plugin ${pluginLabel(url)} could not be loaded: ${lines[0]}` +
    (at === undefined ? "" : ` (${at})`) +
    (syntax && /^https?:/i.test(url)
      ? "; if it is served over HTTP, check that the server sends it as " +
        "JavaScript/TypeScript (Content-Type)"
      : "");
};

let refusal: string | undefined;

/**
 * From now on, loading a plugin's module on this thread is a defect naming `program`: a
 * program's main thread runs no plugin code (its games run in plugin threads, see
 * `core/host/`), and this makes a path that would load one there fail loudly, in the
 * tests too, instead of running the plugin's top-level code beside the program. `runMain`
 * calls it; a library user's thread, which may open games in process, never does.
 */
export const refusePluginsOnThisThread = (program: string): void => {
  refusal = program;
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
    if (builtin === undefined && !looksLikeModule(specifier)) {
      return yield* new PluginError({
        message: `unknown game '${specifier}'; built-in games: ${
          Object.keys(builtins).join(", ")
        } (or give a plugin module's path or URL)`,
      });
    }
    const url = builtin?.url ?? resolveSpecifier(specifier);
    if (refusal !== undefined) {
      return yield* Effect.die(
        new Error(
          `${refusal} loaded plugin ${builtin ? specifier : pluginLabel(url)} on its main thread`,
        ),
      );
    }
    const mod = yield* Effect.tryPromise({
      try: () => (builtin ? builtin.load() : import(url)),
      catch: (e) => new PluginError({ message: loadFailure(url, e) }),
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

/**
 * The raw options with each list option given one item (`--heaps 5`) made a list of
 * one, as a comma-separated list of one item is.
 */
const withLists = <O, S>(
  plugin: GamePlugin<O, S>,
  raw: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> => {
  const ast = plugin.options.ast;
  if (ast._tag !== "Objects") return raw;
  const lists = new Set(
    ast.propertySignatures.filter((ps) => ps.type._tag === "Arrays").map((ps) => String(ps.name)),
  );
  return Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [k, lists.has(k) && !Array.isArray(v) ? [v] : v]),
  );
};

/** What a member of the game protocol must be: required or not, and its kind. */
type MemberKind = "function" | "text" | "boolean" | "players" | "picture";

/** The members of `Game` (see `core/game.ts`): which are required, and what each must be. */
const GAME_MEMBERS: readonly (readonly [name: string, kind: MemberKind, required: boolean])[] = [
  ["id", "text", true],
  ["players", "players", true],
  ["solo", "boolean", false],
  ["unsolvable", "text", false],
  ...REQUIRED_FUNCTIONS.map((f) => [f, "function", true] as const),
  ...OPTIONAL_FUNCTIONS.map((f) => [f, "function", false] as const),
  ["picture", "picture", false],
  ["fast", "function", false],
];

/** What a member of a kind must be, as a message says it. */
const KIND_TEXT: Readonly<Record<MemberKind, string>> = {
  function: "a function",
  text: "a string",
  boolean: "true or false",
  players: "the two players' names",
  picture: "an object with functions svg and picks",
};

/** True when `u` is what a member of `kind` must be. */
const isKind = (u: unknown, kind: MemberKind): boolean => {
  switch (kind) {
    case "function":
      return typeof u === "function";
    case "text":
      return typeof u === "string";
    case "boolean":
      return typeof u === "boolean";
    case "players":
      return Array.isArray(u) && u.length === 2 && u.every((p) => typeof p === "string");
    case "picture": {
      const p = u as Record<string, unknown> | null;
      return typeof p === "object" && p !== null && typeof p.svg === "function" &&
        typeof p.picks === "function" && (p.refuse === undefined || typeof p.refuse === "function");
    }
  }
};

/** A member's value as a message names it. */
const shown = (u: unknown): string =>
  typeof u === "string"
    ? JSON.stringify(u)
    : Array.isArray(u)
    ? `a list of ${u.length}`
    : u === null || typeof u !== "object"
    ? String(u)
    : "an object";

/**
 * What is wrong with the game a plugin's `create` returned, in one line, or `undefined`:
 * every required member of the protocol missing, and every member of the wrong kind
 * (members are read as the game has them, its prototype's included).
 *
 * @example
 * ```ts
 * import { gameProblems } from "./plugin.ts";
 * import nim from "../plugins/nim/mod.ts";
 * const game = nim.create({ heaps: [1, 2], misere: false });
 * if (gameProblems(game) !== undefined) throw new Error("nim is a game");
 * const { outcome: _, ...broken } = game;
 * if (gameProblems(broken) !== "outcome is missing (a function)") throw new Error();
 * ```
 */
export const gameProblems = (game: unknown): string | undefined => {
  if (typeof game !== "object" || game === null) {
    return `it is ${shown(game)}, not a game (an object)`;
  }
  const members = game as Record<string, unknown>;
  const problems = GAME_MEMBERS.flatMap(([name, kind, required]) => {
    const v = members[name];
    const label = kind === "function" ? `${name}()` : name;
    if (v === undefined) return required ? [`${name} is missing (${KIND_TEXT[kind]})`] : [];
    return isKind(v, kind) ? [] : [`${label} is ${shown(v)}, not ${KIND_TEXT[kind]}`];
  });
  return problems.length === 0 ? undefined : problems.join("; ");
};

/**
 * Builds a game from a plugin and raw options (a list option may be given one item); the
 * error names every bad option. The game `create` returns is checked to have every
 * required member of the protocol, each of the right kind (`gameProblems`); the error
 * says what is wrong in one line naming the plugin (`label`, default its id). The game
 * has no source, so parallel strategies cannot rebuild it in workers: `openGameWith`
 * opens a game with its source.
 */
export const makeGame = <O, S>(
  plugin: GamePlugin<O, S>,
  raw: Readonly<Record<string, unknown>>,
  label: string = plugin.id,
): Effect.Effect<{ readonly game: Game<S>; readonly options: O }, OptionsError> =>
  Effect.gen(function* () {
    const options = yield* decodeOptions(plugin, raw);
    const names = optionHelp(plugin).map((o) => o.name);
    const game = yield* Effect.try({
      try: () => plugin.create(options),
      catch: (e) =>
        optionsError(plugin.id, [{ problem: e instanceof Error ? e.message : String(e) }], names),
    });
    const wrong = gameProblems(game);
    if (wrong !== undefined) {
      const message = `plugin ${label}: the game its create() returned is not a ply game: ${wrong}`;
      return yield* new OptionsError({
        message,
        plugin: plugin.id,
        problems: [{ problem: message }],
        known: names,
      });
    }
    return { game, options };
  });

/**
 * Decodes raw options (a list option may be given one item) by a plugin's schema, its
 * defaults filled in, without making a game; the error names every bad option.
 */
export const decodeOptions = <O, S>(
  plugin: GamePlugin<O, S>,
  raw: Readonly<Record<string, unknown>>,
): Effect.Effect<O, OptionsError> =>
  Effect.gen(function* () {
    const decoded = Schema.decodeUnknownResult(plugin.options, {
      errors: "all",
      onExcessProperty: "error",
    })(withLists(plugin, raw));
    // Unknown options are named even for a struct without fields (which Schema lets pass).
    const names = new Set(optionHelp(plugin).map((o) => o.name));
    const unknown = plugin.options.ast._tag === "Objects"
      ? Object.keys(raw).filter((k) => !names.has(k))
      : [];
    if (Result.isFailure(decoded) || unknown.length > 0) {
      const problems: OptionProblem[] = Result.isFailure(decoded)
        ? schemaIssues(decoded.failure).map(({ path: [name, ...rest], message, excess }) => ({
          ...(name === undefined ? {} : { option: String(name), value: raw[String(name)] }),
          ...(rest.length > 0 ? { item: rest.map((i) => Number(i) + 1).join(".") } : {}),
          problem: excess ? "unknown option" : message,
        }))
        : [];
      for (const k of unknown) {
        if (!problems.some((p) => p.option === k && p.problem === "unknown option")) {
          problems.unshift({ option: k, value: raw[k], problem: "unknown option" });
        }
      }
      return yield* optionsError(plugin.id, problems, [...names]);
    }
    return (decoded as Result.Success<O, never>).success;
  });

/**
 * A game opened from a plugin, with what a worker needs to open it again (`source`):
 * whatever runs the game elsewhere (the engine's workers, parallel strategies, a cluster's
 * runners) is given the source with the game.
 */
export interface OpenedGame {
  /** The plugin. */
  readonly plugin: GamePlugin<unknown, unknown>;
  /** What it was opened by: a built-in id, a path or a URL. */
  readonly specifier: string;
  /** The decoded options. */
  readonly options: unknown;
  /** The game (guarded, for a user's plugin: see `guardPlugin`). */
  readonly game: Game<unknown>;
  /** The plugin module's URL and the raw options: how to open the same game again. */
  readonly source: GameSource;
}

/**
 * Opens a game: loads the plugin (a built-in id from `builtins`, a module path or URL, or
 * a plugin already loaded), builds the game from raw options (missing ones take their
 * defaults; the error lists every problem with the module or the options), guards a
 * user's plugin (its exceptions are `PluginFault`s naming it and the function, recorded
 * in `guard`, a worker's shared slot) and returns it with its source.
 */
export const openGameWith = (
  builtins: Readonly<Record<string, BuiltinEntry>>,
  from: string | LoadedPlugin,
  raw: Readonly<Record<string, unknown>> = {},
  guard?: GuardSlot,
): Effect.Effect<OpenedGame, PluginError | OptionsError> =>
  Effect.gen(function* () {
    const { plugin, url } = typeof from === "string" ? yield* loadPlugin(from, builtins) : from;
    const made = yield* makeGame(plugin, raw, pluginLabel(url));
    return {
      plugin,
      specifier: typeof from === "string" ? from : plugin.id,
      options: made.options,
      game: guardPlugin(made.game, url, pluginLabel(url), guard),
      source: { url, options: { ...raw } },
    };
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
  /** The values it takes when they are a few literals (a menu rather than a text). */
  readonly choices?: readonly string[];
}

/** The literal choices of an option's type, when it has a few. */
const choicesOf = (ast: SchemaAST.AST): string[] | undefined => {
  if (ast._tag === "Boolean") return ["true", "false"];
  if (ast._tag !== "Union") return undefined;
  const literals = ast.types.map((t) => t._tag === "Literal" ? String(t.literal) : undefined);
  return literals.every((l) => l !== undefined) ? literals as string[] : undefined;
};

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
  const declared = (plugin as { [DECLARED_OPTIONS]?: readonly OptionInfo[] })[DECLARED_OPTIONS];
  if (declared !== undefined) return [...declared];
  const ast = plugin.options.ast;
  if (ast._tag !== "Objects") return [];
  const defaults = Schema.decodeUnknownResult(plugin.options)({});
  const defs = Result.isSuccess(defaults) ? defaults.success as Record<string, unknown> : {};
  return ast.propertySignatures.map((ps) => {
    const choices = choicesOf(ps.type);
    return {
      name: String(ps.name),
      description: SchemaAST.resolveDescription(ps.type) ?? "",
      expected: expectedOf(ps.type),
      default: defs[String(ps.name)],
      ...(choices !== undefined ? { choices } : {}),
    };
  });
};

/** Where a declared plugin (`declaredPlugin`) keeps its options' help. */
const DECLARED_OPTIONS = Symbol("ply/declaredOptions");

/**
 * What a plugin declares beside its game, as plain data (its options as `optionHelp`
 * reads them, its strategies without their search): what a program needs of a plugin
 * whose module it does not load itself (a user's plugin is loaded in its thread only).
 */
export interface PluginDeclaration {
  /** The plugin's id. */
  readonly id: string;
  /** Its name. */
  readonly name: string;
  /** Its description. */
  readonly description: string;
  /** Its options (names, descriptions, accepted values, defaults, choices). */
  readonly options: readonly OptionInfo[];
  /** Its rules, if it states them. */
  readonly rules?: string;
  /** Its AI strengths. */
  readonly strengths?: Readonly<Record<string, string>>;
  /** The options that tune its AI rather than the game. */
  readonly advancedOptions?: readonly string[];
  /** The value difference a review calls a mistake. */
  readonly mistakeMargin?: number;
  /** Its default opponent. */
  readonly defaultOpponent?: string;
  /** Its own strategies' descriptions (`StrategyInfo`), by name. */
  readonly strategies?: Readonly<Record<string, StrategyInfo>>;
}

/** A plugin's declaration, as plain data (where its module was loaded). */
export const declarePlugin = (plugin: GamePlugin<unknown, unknown>): PluginDeclaration => {
  const { options: _, create: __, strategies, ...rest } = plugin;
  const data = JSON.parse(JSON.stringify(rest)) as Omit<PluginDeclaration, "options">;
  const options = JSON.parse(JSON.stringify(optionHelp(plugin))) as OptionInfo[];
  if (strategies === undefined) return { ...data, options };
  return {
    ...data,
    options,
    strategies: Object.fromEntries(
      Object.entries(strategies).map(([k, { search: _s, _tag: _t, ...info }]) => [k, info]),
    ),
  };
};

/**
 * A plugin as a program sees it from its declaration alone (a user's plugin, whose module
 * only its thread loads): `optionHelp` reads the declared options; its options schema
 * takes none (the thread decodes them), and `create` and its strategies' search refuse
 * (they run in the plugin's thread and in the engine's workers, never here).
 */
export const declaredPlugin = (
  d: PluginDeclaration,
  label: string,
): GamePlugin<unknown, unknown> => {
  const elsewhere = (what: string) => () => {
    throw new Error(`plugin ${label}: ${what} runs in the plugin's thread, not here`);
  };
  const { options, strategies, ...rest } = d;
  return {
    ...rest,
    [DECLARED_OPTIONS]: options,
    options: Schema.Struct({}) as unknown as Schema.Decoder<unknown>,
    create: elsewhere("create()"),
    ...(strategies === undefined ? {} : {
      strategies: Object.fromEntries(
        Object.entries(strategies).map(([k, info]) => [
          k,
          { ...info, _tag: "Sequential" as const, search: elsewhere(`its strategy ${k}`) },
        ]),
      ),
    }),
  } as GamePlugin<unknown, unknown>;
};
