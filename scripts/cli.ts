/**
 * What the command-line programs share: flag parsing (unknown flags are game options),
 * loading a game, building players from specs, formatting, and running a program with
 * clean errors (a usage mistake prints one message and exits with code 2, never a stack
 * trace).
 *
 * @module
 */
import { parseArgs } from "./deps.ts";
import { Cause, Effect, Exit, Layer, Result, Schema } from "../core/deps.ts";
import {
  coerceOption,
  type GamePlugin,
  loadPlugin,
  makeGame,
  optionHelp,
  OptionsError,
  PluginError,
} from "../core/plugin.ts";
import type { Game } from "../core/game.ts";
import { WIN, WIN_THRESHOLD } from "../core/game.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import { allStrategies } from "../core/search/strategies.ts";
import {
  defaultWorkers,
  SearchFailed,
  type WorkerPool,
  workerPoolLayer,
} from "../core/parallel/pool.ts";
import type { Strategy } from "../core/search/types.ts";
import { parseSpec, type PlayerSpec, SPEC_GRAMMAR } from "../core/players/spec.ts";
import { liveTerminal, Terminal } from "../core/terminal.ts";
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

/** Parses arguments: declared flags go to `flags`, all other flags are game options. */
export const parseCommandLine = (
  args: readonly string[],
  spec: FlagSpec,
): Effect.Effect<Parsed, UsageError> =>
  Effect.gen(function* () {
    const known = new Set([...spec.string, ...spec.boolean, "help", "h"]);
    const parsed = parseArgs([...args], {
      string: [...spec.string],
      boolean: [...spec.boolean, "help"],
      alias: { h: "help" },
    }) as Record<string, unknown> & { _: unknown[] };
    const flags: Record<string, string | boolean | undefined> = {};
    const gameOptions: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (k === "_") continue;
      if (known.has(k)) {
        if (Array.isArray(v)) {
          return yield* new UsageError({ message: `--${k} is given more than once` });
        }
        flags[k] = typeof v === "string" || typeof v === "boolean" ? v : undefined;
      } else {
        if (Array.isArray(v)) {
          return yield* new UsageError({ message: `--${k} is given more than once` });
        }
        gameOptions[k] = typeof v === "boolean" ? v : coerceOption(String(v));
      }
    }
    for (const name of spec.string) {
      if (flags[name] === "") {
        return yield* new UsageError({ message: `--${name} needs a value` });
      }
    }
    return { flags, gameOptions, positional: parsed._.map(String) };
  });

/** A game ready to play: its plugin, module URL, decoded options and the game. */
export interface OpenedGame {
  /** The plugin. */
  readonly plugin: GamePlugin<unknown, unknown>;
  /** The specifier the user gave (an id, path or URL). */
  readonly specifier: string;
  /** The plugin module's URL. */
  readonly url: string;
  /** The decoded options. */
  readonly options: unknown;
  /** The game. */
  readonly game: Game<unknown>;
}

/** Loads a game by id or module and builds it from the options. */
export const openGame = (
  specifier: string,
  rawOptions: Readonly<Record<string, unknown>>,
): Effect.Effect<OpenedGame, PluginError | OptionsError> =>
  Effect.gen(function* () {
    const { plugin, url } = yield* loadPlugin(specifier, builtins);
    const { game, options } = yield* makeGame(plugin, rawOptions, url);
    return { plugin, specifier, url, options, game };
  });

/** Every strategy a game can use: the built-in ones and the plugin's own. */
export const strategiesFor = (
  plugin: GamePlugin<unknown, unknown>,
): Readonly<Record<string, Strategy>> => ({ ...allStrategies, ...plugin.strategies });

/** Parses a player spec from a flag, naming the flag in the error. */
export const playerSpec = (
  flag: string,
  text: string,
  strategies: Readonly<Record<string, Strategy>>,
): Effect.Effect<PlayerSpec, UsageError> => {
  const r = parseSpec(text, Object.keys(strategies));
  return Result.isSuccess(r)
    ? Effect.succeed(r.success)
    : Effect.fail(new UsageError({ message: `--${flag}: ${r.failure}` }));
};

/** Reads an integer flag within a range (the error names the flag and the range). */
export const intFlag = (
  flags: Parsed["flags"],
  name: string,
  fallback: number,
  min: number,
  max: number,
): Effect.Effect<number, UsageError> => {
  const v = flags[name];
  if (v === undefined) return Effect.succeed(fallback);
  const n = typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    return Effect.fail(
      new UsageError({ message: `--${name} must be an integer from ${min} to ${max}, got '${v}'` }),
    );
  }
  return Effect.succeed(n);
};

/** The transposition-table size flag (`--tt-mb`), bounded. */
export const ttFlag = (flags: Parsed["flags"]): Effect.Effect<number, UsageError> =>
  intFlag(flags, "tt-mb", DEFAULT_TT_MB, 1, 4096);

/** Reads a list of moves in the game's notation, each checked in turn. */
export const parseMoves = <S>(
  game: Game<S>,
  text: string,
): Effect.Effect<{ readonly moves: number[]; readonly state: S }, UsageError> =>
  Effect.gen(function* () {
    let state = game.initial();
    const moves: number[] = [];
    const words = text.split(",").map((w) => w.trim()).filter((w) => w !== "");
    for (const [i, w] of words.entries()) {
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

/** A count with thousands separators. */
export const num = (n: number): string => Math.round(n).toLocaleString("en-US");

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
      `  --${o.name.padEnd(12)} ${o.description}${o.description ? "; " : ""}${o.expected} ` +
        `(default ${Array.isArray(o.default) ? o.default.join(",") : String(o.default)})`,
    );
  }
  const extra = Object.values(plugin.strategies ?? {});
  if (extra.length > 0) {
    lines.push("Strategies of this game:");
    for (const s of extra) lines.push(`  ${s.name.padEnd(16)} ${s.description}`);
  }
  return lines.join("\n") + "\n";
};

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
): Effect.Effect<number, PluginError, Terminal> =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const extra = game === undefined
      ? ""
      : gameHelp((yield* loadPlugin(game, builtins)).plugin) + "\n";
    yield* term.print(usage + "\n" + extra + gamesHelp());
    return 0;
  });

const isUserError = (e: unknown): e is UserError =>
  e instanceof UsageError || e instanceof PluginError || e instanceof OptionsError;

/**
 * Runs a program with the live terminal and exits: 0 on success (or the program's own
 * code), 2 with a one-line message on a user error, 1 on a bug (with its cause).
 */
export const runMain = (
  program: Effect.Effect<number | void, UserError | SearchFailed, Terminal | WorkerPool>,
  usage: string,
): void => {
  // One worker pool for the program's lifetime (workers start on first parallel search).
  const workers = workersFromArgs(Deno.args);
  if (typeof workers === "string") {
    console.error(`error: ${workers}`);
    console.error(`(${usage} --help shows the usage)`);
    Deno.exit(2);
  }
  const layer = Layer.merge(liveTerminal, workerPoolLayer(workers));
  Effect.runPromiseExit(program.pipe(Effect.provide(layer))).then((exit) => {
    if (Exit.isSuccess(exit)) Deno.exit(typeof exit.value === "number" ? exit.value : 0);
    const failure = Cause.findErrorOption(exit.cause);
    if (failure._tag === "Some" && isUserError(failure.value)) {
      console.error(`error: ${failure.value.message}`);
      console.error(`(${usage} --help shows the usage)`);
      Deno.exit(2);
    }
    if (failure._tag === "Some" && failure.value instanceof SearchFailed) {
      console.error(`error: ${failure.value.message}`);
      Deno.exit(1);
    }
    console.error(`internal error (please report it):\n${Cause.pretty(exit.cause)}`);
    Deno.exit(1);
  });
};
