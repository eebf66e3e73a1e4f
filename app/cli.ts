/**
 * What the command-line programs share: flag parsing (unknown flags are game options),
 * loading a game, building players from specs, formatting, and running a program with
 * clean errors (a usage mistake prints one message and exits with code 2, never a stack
 * trace).
 *
 * @module
 */
import { parseArgs } from "./deps.ts";
import { LIMIT_FLAGS, limitsFromArgs } from "./limits.ts";
import { Cause, Effect, Exit, Layer, Result, Schema, type Scope } from "../core/deps.ts";
import { Limits } from "../core/host/limits.ts";
import {
  coerceOption,
  DEFAULT_STRENGTHS,
  type GamePlugin,
  optionHelp,
  OptionsError,
  PluginError,
  refusePluginsOnThisThread,
} from "../core/plugin.ts";
import type { Game } from "../core/game.ts";
import { WIN, WIN_THRESHOLD } from "../core/game.ts";
import { builtinIds } from "../plugins/registry.ts";
import { pluginOf } from "./games.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { defaultWorkers, type WorkerPool, workerPoolLayer } from "../core/parallel/pool.ts";
import {
  faultTrace,
  ParallelUnavailable,
  PluginFault,
  type SearchError,
  SearchFailed,
} from "../core/errors.ts";
import { userCwd } from "../core/source.ts";
import { type Engine, liveEngine } from "../core/engine/engine.ts";
import type { Strategy } from "../core/search/types.ts";
import { parseSpec, parseStrategyParams, type PlayerSpec, SPEC_GRAMMAR } from "./players/spec.ts";
import { liveTerminal, STOP_SIGNALS, Terminal } from "./terminal.ts";
import { folderOf, makeFolderFor } from "./files.ts";
import { DEFAULT_TT_MB } from "../core/search/tt.ts";

/** A mistake in the command line; the message says what was expected. */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  message: Schema.String,
}) {}

/** Errors a program reports to the user (exit code 2). */
export type UserError = UsageError | PluginError | OptionsError;

/** Flags a script declares. */
export interface FlagSpec {
  /** Flags that take a value. */
  readonly string: readonly string[];
  /** Flags without a value. */
  readonly boolean: readonly string[];
  /** The most positional words the program takes (default 1: the game). */
  readonly positionals?: number;
}

/** Parsed command line: the script's flags, the game options, and positional words. */
export interface Parsed {
  /** The script's own flags. */
  readonly flags: Readonly<Record<string, string | boolean | undefined>>;
  /** Every other `--name value` flag, as game options (coerced). */
  readonly gameOptions: Readonly<Record<string, unknown>>;
  /** Positional arguments. */
  readonly positional: readonly string[];
}

/** A negative number (`-3`, `-0.5`): a value or a positional word, never a flag. */
const NEGATIVE = /^-\.?\d/;

/** The arguments split into flag words for `parseArgs` and positional words, in order. */
interface Split {
  /** Flags as `--name=value`, a bare `--name`, or a short flag (`-h`). */
  readonly flags: string[];
  /** The flags given a value. */
  readonly valued: Set<string>;
  /** The positional words, each with the value-less flag just before it, if any. */
  readonly positional: { readonly word: string; readonly after?: string }[];
  /** A flag given more than once, if any. */
  repeated?: string;
}

/**
 * Splits the arguments: a flag that takes a value (every flag but the booleans) takes the
 * next word even when it is a negative number (`--pits -3`, `--seed -1`); a boolean takes
 * only `true` or `false`; after `--` every word is positional.
 */
const splitArgs = (args: readonly string[], booleans: ReadonlySet<string>): Split => {
  const out: Split = { flags: [], valued: new Set(), positional: [] };
  const seen = new Set<string>();
  let after: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.positional.push(...args.slice(i + 1).map((word) => ({ word })));
      break;
    }
    if (!a.startsWith("-") || a === "-" || NEGATIVE.test(a)) {
      out.positional.push(after === undefined ? { word: a } : { word: a, after });
      after = undefined;
      continue;
    }
    after = undefined;
    const m = /^--([^=]+)(=[^]*)?$/.exec(a);
    if (m === null) {
      out.flags.push(a); // a short flag, such as -h
      continue;
    }
    const [, name, value] = m;
    if (seen.has(name) && name !== "help") out.repeated ??= name;
    seen.add(name);
    const next = args[i + 1];
    const boolean = booleans.has(name) || (name.startsWith("no-") && booleans.has(name.slice(3)));
    if (value !== undefined) {
      out.valued.add(name);
      out.flags.push(a);
    } else if (boolean && (next === "true" || next === "false")) {
      out.flags.push(`${a}=${next}`);
      i++;
    } else if (!boolean && next !== undefined && (!next.startsWith("-") || NEGATIVE.test(next))) {
      out.valued.add(name);
      out.flags.push(`${a}=${next}`);
      i++;
    } else {
      out.flags.push(a);
      if (boolean) after = a;
    }
  }
  return out;
};

/**
 * Parses arguments: declared flags go to `flags`, all other flags are game options.
 * Values stay as typed (`0x10` is not 16); a negative number after a flag is its value.
 *
 * @example
 * ```ts
 * import { Effect } from "../core/deps.ts";
 * import { parseCommandLine } from "./cli.ts";
 * const spec = { string: ["seed"], boolean: ["json"] };
 * const p = Effect.runSync(parseCommandLine(["kalah", "--pits", "-3", "--seed", "-1"], spec));
 * if (p.gameOptions.pits !== -3 || p.flags.seed !== "-1") throw new Error();
 * ```
 */
export const parseCommandLine = (
  args: readonly string[],
  spec: FlagSpec,
): Effect.Effect<Parsed, UsageError> =>
  Effect.gen(function* () {
    // Every program takes --help and --debug (the stack of a plugin's exception), and
    // the plugin threads' limits (`limitsFromArgs`).
    const known = new Set([...spec.string, ...spec.boolean, "help", "h", "debug", ...LIMIT_FLAGS]);
    const split = splitArgs(args, new Set([...spec.boolean, "help", "debug"]));
    if (split.repeated !== undefined) {
      return yield* new UsageError({ message: `--${split.repeated} is given more than once` });
    }
    const stray = split.positional[spec.positionals ?? 1];
    if (stray !== undefined) {
      return yield* new UsageError({
        message: `unexpected argument '${stray.word}'` +
          (stray.after === undefined ? "" : ` (${stray.after} takes no value)`),
      });
    }
    const parsed = parseArgs(split.flags, {
      string: [...spec.string, ...LIMIT_FLAGS, ...[...split.valued].filter((k) => !known.has(k))],
      boolean: [...spec.boolean, "help", "debug"],
      alias: { h: "help" },
    }) as Record<string, unknown>;
    const flags: Record<string, string | boolean | undefined> = {};
    const gameOptions: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (k === "_") continue;
      if (known.has(k)) {
        flags[k] = typeof v === "string" || typeof v === "boolean" ? v : undefined;
      } else if (typeof v === "string" || typeof v === "boolean") {
        gameOptions[k] = typeof v === "boolean" ? v : coerceOption(v);
      } else {
        return yield* new UsageError({ message: `unknown option --${k}` });
      }
    }
    for (const name of spec.string) {
      if (flags[name] === "") {
        return yield* new UsageError({ message: `--${name} needs a value` });
      }
    }
    return { flags, gameOptions, positional: split.positional.map((p) => p.word) };
  });

/** Every strategy a game can use: the built-in ones and the plugin's own. */
export const strategiesFor = (
  plugin: GamePlugin<unknown, unknown>,
): Readonly<Record<string, Strategy>> => ({ ...allStrategies, ...plugin.strategies });

/**
 * Parses a player spec from a flag, naming the flag in the error; the strategy's
 * parameters are checked against the ones it takes. A strength's name (`easy`,
 * `strong`, ... of `strengths`) stands for its spec.
 */
export const playerSpec = (
  flag: string,
  text: string,
  strategies: Readonly<Record<string, Strategy>>,
  strengths: Readonly<Record<string, string>> = {},
): Effect.Effect<PlayerSpec, UsageError> => {
  const named = text.trim().toLowerCase();
  const r = parseSpec(Object.hasOwn(strengths, named) ? strengths[named] : text, strategies);
  return Result.isSuccess(r)
    ? Effect.succeed(r.success)
    : Effect.fail(new UsageError({ message: `--${flag}: ${r.failure}` }));
};

/** Reads a numeric flag within a range; the error names the flag, the kind and the range. */
const rangeFlag = (
  kind: "an integer" | "a number",
  parse: (text: string) => number,
): RangeFlag =>
(flags, name, fallback, min, max) => {
  const v = flags[name];
  if (v === undefined) return Effect.succeed(fallback);
  const n = typeof v === "string" ? parse(v.trim()) : NaN;
  return n >= min && n <= max ? Effect.succeed(n) : Effect.fail(
    new UsageError({ message: `--${name} must be ${kind} from ${min} to ${max}, got '${v}'` }),
  );
};

/** Reads a numeric flag `name` (or `fallback` when absent) that must lie in [min, max]. */
export type RangeFlag = (
  flags: Parsed["flags"],
  name: string,
  fallback: number,
  min: number,
  max: number,
) => Effect.Effect<number, UsageError>;

/** Reads an integer flag within a range (the error names the flag and the range). */
export const intFlag: RangeFlag = rangeFlag(
  "an integer",
  (t) => (/^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : NaN),
);

/** Reads a number flag within a range (the error names the flag and the range). */
export const numberFlag: RangeFlag = rangeFlag(
  "a number",
  (t) => (t !== "" && Number.isFinite(Number(t)) ? Number(t) : NaN),
);

/** The transposition-table size flag (`--tt-mb`), bounded. */
export const ttFlag = (flags: Parsed["flags"]): Effect.Effect<number, UsageError> =>
  intFlag(flags, "tt-mb", DEFAULT_TT_MB, 1, 4096);

/** A strategy chosen by name, with its parameters checked. */
export interface ChosenStrategy {
  /** Its name. */
  readonly name: string;
  /** The strategy. */
  readonly strategy: Strategy;
  /** Its parameters (`young_bros,par=2` gives `{ par: 2 }`). */
  readonly params: Readonly<Record<string, number>>;
}

/**
 * Reads a `--strategy NAME[,PARAM=VALUE...]` flag (`young_bros,par=2`): the strategy by
 * name and its parameters, each checked against the ones the strategy takes.
 */
export const strategyFlag = (
  text: string,
  strategies: Readonly<Record<string, Strategy>>,
): Effect.Effect<ChosenStrategy, UsageError> => {
  const [name, ...paramTexts] = text.trim().toLowerCase().split(",");
  const strategy = Object.hasOwn(strategies, name) ? strategies[name] : undefined;
  if (strategy === undefined) {
    return Effect.fail(
      new UsageError({
        message: `--strategy must be one of ${Object.keys(strategies).join(", ")}; got '${name}'`,
      }),
    );
  }
  const params = parseStrategyParams(name, strategy.params ?? {}, paramTexts);
  return Result.isSuccess(params)
    ? Effect.succeed({ name, strategy, params: params.success })
    : Effect.fail(new UsageError({ message: `--strategy: ${params.failure}` }));
};

/**
 * Checks `analyze`'s search flags together, so that none is silently dropped: `--depth`
 * and `--time` are one or the other, `--solve` takes neither, and `--all` needs a
 * strategy that lists every optimal move (`Strategy.allBest`).
 */
export const checkSearchFlags = (
  flags: Parsed["flags"],
  name: string,
  strategies: Readonly<Record<string, Strategy>>,
): Effect.Effect<void, UsageError> => {
  const fail = (message: string) => Effect.fail(new UsageError({ message }));
  if (flags.depth !== undefined && flags.time !== undefined) {
    return fail("--depth and --time cannot be combined: give a depth or a time budget");
  }
  if (flags.solve === true && (flags.depth !== undefined || flags.time !== undefined)) {
    return fail("--solve searches to the end: drop --depth/--time");
  }
  if (flags.all === true && strategies[name]?.allBest !== true) {
    const able = Object.keys(strategies).filter((n) => strategies[n].allBest === true);
    return fail(
      `--all needs a strategy that lists every optimal move (${able.join(", ")}); ` +
        `${name} cannot`,
    );
  }
  return Effect.void;
};

/** A path the user typed, relative to the directory they ran the program from. */
export const userPath = (path: string): string =>
  /^([a-z]:)?[\\/]/i.test(path) ? path : `${userCwd().replace(/[\\/]?$/, "/")}${path}`;

/**
 * Checks, before a game starts, that `--save FILE` can be written: not a directory, its
 * folder made when missing (with its parents, as the in-game `save FILE` does), and a
 * new file can be made there (a probe file, removed again; saves write a temporary file
 * there and rename it over FILE).
 */
export const checkSavePath = (path: string): Effect.Effect<void, UsageError> => {
  const fail = (why: string) => Effect.fail(new UsageError({ message: `--save ${path}: ${why}` }));
  const why = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0];
  try {
    if (Deno.statSync(path).isDirectory) return fail("is a directory; give a file name");
  } catch (e) {
    const missing = e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory;
    if (!missing) return fail(`cannot be written: ${why(e)}`);
  }
  const dir = folderOf(path);
  try {
    makeFolderFor(path);
  } catch (e) {
    return fail(`cannot make the folder ${dir}: ${why(e)}`);
  }
  try {
    Deno.removeSync(Deno.makeTempFileSync({ dir, prefix: ".ply-probe-" }));
  } catch (e) {
    return fail(`cannot be written: ${why(e)}`);
  }
  return Effect.void;
};

/**
 * The moves of a comma-separated list, trimmed; a comma inside parentheses belongs to its
 * move (2048's tiles: `NewTile (0,1) 2,L` is two moves).
 *
 * @example
 * ```ts
 * import { splitMoves } from "./cli.ts";
 * const words = splitMoves("NewTile (0,1) 2, L,");
 * if (words.join("|") !== "NewTile (0,1) 2|L") throw new Error();
 * ```
 */
export const splitMoves = (text: string): string[] => {
  const words: string[] = [];
  let depth = 0, word = "";
  for (const c of text) {
    if (c === "," && depth === 0) {
      words.push(word);
      word = "";
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    word += c;
  }
  words.push(word);
  return words.map((w) => w.trim()).filter((w) => w !== "");
};

/** Reads a list of moves in the game's notation (`splitMoves`), each checked in turn. */
export const parseMoves = <S>(
  game: Game<S>,
  text: string,
): Effect.Effect<{ readonly moves: number[]; readonly state: S }, UsageError> =>
  Effect.gen(function* () {
    let state = game.initial();
    const moves: number[] = [];
    for (const [i, w] of splitMoves(text).entries()) {
      const r = game.parseMove(state, w);
      if (Result.isFailure(r)) {
        return yield* new UsageError({ message: `--moves: move ${i + 1} '${w}': ${r.failure}` });
      }
      if (game.toMove(state) !== "chance" && !game.moves(state).includes(r.success)) {
        return yield* new UsageError({
          message: `--moves: move ${i + 1} '${w}' is not legal there`,
        });
      }
      moves.push(r.success);
      state = game.play(state, r.success);
    }
    return { moves, state };
  });

/** A value as text: decisive values as a win in N plies, others as numbers. */
export const formatValue = (game: Game<unknown>, v: number): string => {
  if (v >= WIN_THRESHOLD || v <= -WIN_THRESHOLD) {
    const who = game.players[v > 0 ? 0 : 1];
    const plies = Math.round(Math.abs(Math.abs(v) - WIN));
    return `${who} wins${plies > 0 ? ` (in ${plies} plies)` : ""}`;
  }
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
};

/** Reads a time flag: `500ms`, `2s`, or a number of milliseconds. */
export const timeFlag = (text: string, flag = "--time"): Effect.Effect<number, UsageError> => {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  const ms = m === null ? NaN : Number(m[1]) * (m[2] === "s" ? 1000 : 1);
  return ms > 0
    ? Effect.succeed(ms)
    : Effect.fail(new UsageError({ message: `${flag} must be like 500ms or 2s, got '${text}'` }));
};

/** The list of games and the spec grammar, for help texts. */
export const gamesHelp = (): string =>
  `Games: ${builtinIds.join(", ")}, or a plugin module's path or URL.\n` +
  `Player SPEC: ${SPEC_GRAMMAR}\n` +
  `  human            you, at the terminal\n` +
  `  random           a uniformly random legal move (seeded)\n` +
  `  randombest:D     a random choice among the optimal moves at depth D\n` +
  Object.values(allStrategies).map((s) => `  ${s.name.padEnd(16)} ${s.description}\n`)
    .join("") +
  `  e.g. alphabeta:6 (depth 6), alphabeta:500ms or expectimax:2s (time per move);\n` +
  `  a bare strategy name thinks 1s per move.\n`;

/** A game's options (and extra strategies) for `GAME --help`. */
export const gameHelp = (plugin: GamePlugin<unknown, unknown>): string => {
  const opts = optionHelp(plugin);
  const lines = [`${plugin.name} (${plugin.id}): ${plugin.description}`];
  lines.push(opts.length === 0 ? "  no options" : "Options:");
  for (const o of opts) {
    lines.push(
      `  --${o.name.padEnd(12)} ${o.description}${o.description ? "; " : ""}${o.expected}` +
        (o.default === undefined
          ? ""
          : ` (default ${Array.isArray(o.default) ? o.default.join(",") : String(o.default)})`),
    );
  }
  const extra = Object.values(plugin.strategies ?? {});
  if (extra.length > 0) {
    lines.push("Strategies of this game:");
    for (const s of extra) lines.push(`  ${s.name.padEnd(16)} ${s.description}`);
  }
  lines.push("AI strengths (--p1/--p2 NAME):");
  for (const [name, spec] of Object.entries(plugin.strengths ?? DEFAULT_STRENGTHS)) {
    lines.push(`  ${name.padEnd(16)} ${spec}`);
  }
  return lines.join("\n") + "\n";
};

/** What `--help` says of the plugin threads' limits (every program takes these flags). */
const LIMITS_HELP =
  "Every game runs in a thread of its own, watched (every program takes these):\n" +
  "  --call-limit S     seconds a call into a game's code may take (0.1 to 3600; default 2)\n" +
  "  --memory MB        a game's heap limit (64 to 65536; default 2048)\n" +
  "  --plugin-allow L   what a user's plugin may use: some of read, write, net, env, run,\n" +
  "                     ffi, sys, or all (default none)\n";

/** The `--workers N` flag (every program takes it): the pool size, or an error message. */
export const workersFromArgs = (args: readonly string[]): number | string => {
  const v = (parseArgs([...args], { string: ["workers"] }) as { workers?: unknown }).workers;
  if (v === undefined) return defaultWorkers();
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN;
  return n >= 1 && n <= 256 ? n : `--workers must be an integer from 1 to 256, got '${String(v)}'`;
};

/**
 * A program's `--help`: its usage, then the game's options and strategies if a game is
 * named, then the games and the player SPEC grammar.
 */
export const printHelp = (
  usage: string,
  game: string | undefined,
): Effect.Effect<number, PluginError | OptionsError, Terminal | Scope.Scope> =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    // A user's plugin declares itself from its thread: its module never loads here.
    const extra = game === undefined ? "" : gameHelp((yield* pluginOf(game)).plugin) + "\n";
    yield* term.print(usage + "\n" + LIMITS_HELP + extra + gamesHelp());
    return 0;
  });

const isUserError = (e: unknown): e is UserError =>
  e instanceof UsageError || e instanceof PluginError || e instanceof OptionsError;

/**
 * The services every program has: the terminal, the worker pool, the engine, and a scope
 * (its games' plugin threads live as long as the program: `openHostedGame`).
 */
export type ProgramServices = Terminal | WorkerPool | Engine | Scope.Scope;

/**
 * Says on standard error that a plugin failed or a search could not run: one line, and
 * with the global `--debug` the stack where it happened (`trace`).
 */
export const reportFault = (message: string, trace?: string): Effect.Effect<void> =>
  Effect.sync(() => {
    console.error(`error: ${message}`);
    if (trace !== undefined && Deno.args.includes("--debug")) console.error(trace);
  });

/**
 * Runs a program with the live terminal, a worker pool (`--workers N`) and the live
 * engine, and exits: the program's code (0 if none; 130 if the user pressed Ctrl-C), 2
 * with a one-line message on a user error, 1 with a one-line message when a plugin
 * failed or a search could not run (the stack with `--debug`), 1 with the cause on a bug.
 * The program's thread loads no plugin (`refusePluginsOnThisThread`): its games run in
 * plugin threads.
 */
export const runMain = (
  program: Effect.Effect<number | void, UserError | SearchError, ProgramServices>,
  usage: string,
): void => {
  refusePluginsOnThisThread(usage);
  // One worker pool for the program's lifetime (workers start on first use).
  const workers = workersFromArgs(Deno.args);
  if (typeof workers === "string") {
    console.error(`error: ${workers}`);
    console.error(`(${usage} --help shows the usage)`);
    Deno.exit(2);
  }
  const limits = limitsFromArgs(Deno.args);
  if (typeof limits === "string") {
    console.error(`error: ${limits}`);
    console.error(`(${usage} --help shows the usage)`);
    Deno.exit(2);
  }
  const withCode = Effect.gen(function* () {
    const code = yield* Effect.scoped(Effect.provideService(program, Limits, limits));
    // Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): its exit code, unless the program failed.
    const by = yield* (yield* Terminal).stoppedBy;
    return by !== undefined && (code ?? 0) === 0 ? STOP_SIGNALS[by] : code ?? 0;
  });
  const layer = Layer.mergeAll(
    liveTerminal,
    liveEngine.pipe(
      Layer.provideMerge(
        workerPoolLayer(workers).pipe(Layer.provide(Layer.succeed(Limits, limits))),
      ),
    ),
  );
  Effect.runPromiseExit(withCode.pipe(Effect.provide(layer))).then((exit) => {
    if (Exit.isSuccess(exit)) Deno.exit(exit.value);
    const failure = Cause.findErrorOption(exit.cause);
    if (failure._tag === "Some" && isUserError(failure.value)) {
      console.error(`error: ${failure.value.message}`);
      console.error(`(${usage} --help shows the usage)`);
      Deno.exit(2);
    }
    const defect = Cause.findDefect(exit.cause);
    const fault = failure._tag === "Some" &&
        (failure.value instanceof SearchFailed || failure.value instanceof ParallelUnavailable)
      ? failure.value
      : Result.isSuccess(defect) && defect.success instanceof PluginFault
      ? defect.success
      : undefined;
    if (fault !== undefined) {
      Effect.runSync(reportFault(fault.message, faultTrace(fault)));
      Deno.exit(1);
    }
    console.error(`internal error (please report it):\n${Cause.pretty(exit.cause)}`);
    Deno.exit(1);
  });
};
