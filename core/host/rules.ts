/**
 * A game's plugin thread (see `thread.ts`): opens the game from its source (loading the
 * plugin; a user's is guarded) and answers the calls of the thread that uses it, one at
 * a time, over the call channel (`calls.ts`). First it says what game it has
 * (`HostReady`) or why it has none (`HostFailed`).
 *
 * @module
 */
import { Effect, Result } from "../deps.ts";
import { PluginFault } from "../errors.ts";
import { type Game, OPTIONAL_FUNCTIONS, PICTURE_FUNCTIONS, REQUIRED_FUNCTIONS } from "../game.ts";
import {
  declarePlugin,
  type GamePlugin,
  loadPlugin,
  type OpenedGame,
  openGameWith,
  type OptionsError,
  type PluginDeclaration,
  type PluginError,
} from "../plugin.ts";
import type { GameSource } from "../source.ts";
import {
  type Answer,
  type Call,
  type Channel,
  GONE,
  IDLE,
  put,
  QUIT,
  REPLY,
  REQUEST,
  STARTING,
  take,
} from "./calls.ts";
import { ownerPort, threadData } from "./inside.ts";

/** What a game's plugin thread is started with. */
export interface RulesData {
  readonly source: GameSource;
  /** How messages name the plugin. */
  readonly label: string;
  readonly channel: Channel;
  /** True when only the plugin's declaration is asked for (`HostDeclared`), not a game. */
  readonly declareOnly?: boolean;
}

/** What the thread says once it has the game: its data members and functions. */
export interface HostReady {
  readonly type: "ready";
  /** The plugin's declaration. */
  readonly plugin: PluginDeclaration;
  /** The decoded options. */
  readonly options: unknown;
  /** The game's data members (`id`, `players`, `solo`, `unsolvable`, `marginUnit`). */
  readonly members: Readonly<Record<string, unknown>>;
  /** The game's functions (`picture.svg` for the picture's). */
  readonly functions: readonly string[];
}

/** What the thread says when only the declaration was asked for (`declareOnly`). */
export interface HostDeclared {
  readonly type: "declared";
  readonly plugin: PluginDeclaration;
}

/** What the thread says when it could not open the game: the error's tag and fields. */
export interface HostFailed {
  readonly type: "failed";
  readonly error: { readonly _tag: string } & Readonly<Record<string, unknown>>;
}

const FUNCTIONS = [...REQUIRED_FUNCTIONS, ...OPTIONAL_FUNCTIONS];
const MEMBERS = ["id", "players", "solo", "unsolvable", "marginUnit"];

/** The functions and data members a game has. */
const describe = (
  game: Game<unknown>,
  options: unknown,
  plugin: GamePlugin<unknown, unknown>,
): HostReady => {
  const g = game as unknown as Record<string, unknown>;
  const p = game.picture as unknown as Record<string, unknown> | undefined;
  return {
    type: "ready",
    plugin: declarePlugin(plugin),
    options,
    members: Object.fromEntries(MEMBERS.filter((m) => g[m] !== undefined).map((m) => [m, g[m]])),
    functions: [
      ...FUNCTIONS.filter((f) => typeof g[f] === "function"),
      ...(p === undefined
        ? []
        : PICTURE_FUNCTIONS.filter((f) => typeof p[f] === "function").map((f) => `picture.${f}`)),
    ],
  };
};

/** Answers one call: the value (a parse result as plain data), or the plugin's fault. */
const answer = (game: Game<unknown>, label: string, { fn, args }: Call): Answer => {
  const [owner, name] = fn.startsWith("picture.")
    ? [game.picture as unknown as Record<string, unknown>, fn.slice("picture.".length)]
    : [game as unknown as Record<string, unknown>, fn];
  try {
    const value = (owner[name] as (...a: unknown[]) => unknown).apply(owner, args as unknown[]);
    if (fn === "parseMove") {
      const r = value as Result.Result<number, string>;
      return { value: Result.isSuccess(r) ? { ok: r.success } : { error: r.failure } };
    }
    return { value };
  } catch (e) {
    const fault = e instanceof PluginFault ? e : new PluginFault(label, fn, e);
    const trace = fault.cause instanceof Error ? fault.cause.stack : undefined;
    return {
      fault: { fn: fault.fn, message: fault.message, ...(trace !== undefined ? { trace } : {}) },
    };
  }
};

const { source, label, channel, declareOnly } = await threadData<RulesData>();
const owner = ownerPort();
const opened = await Effect.runPromise(Effect.result<
  { readonly plugin: GamePlugin<unknown, unknown>; readonly game?: Game<unknown> },
  PluginError | OptionsError,
  never
>(
  declareOnly === true ? loadPlugin(source.url, {}) : openGameWith({}, source.url, source.options),
));
if (Result.isFailure(opened)) {
  const e = opened.failure as unknown as Record<string, unknown>;
  const error = Object.fromEntries(
    ["_tag", "message", "plugin", "problems", "known"].filter((k) => e[k] !== undefined)
      .map((k) => [k, e[k]]),
  ) as HostFailed["error"];
  owner.post({ type: "failed", error } satisfies HostFailed);
} else if (opened.success.game === undefined) {
  const declared: HostDeclared = { type: "declared", plugin: declarePlugin(opened.success.plugin) };
  owner.post(declared);
} else {
  const { game, options, plugin } = opened.success as OpenedGame;
  owner.post(describe(game, options, plugin));
  // The calls are served from a task of their own, not from the module's evaluation
  // (after its top-level await): a thread stopped there for running out of memory was
  // never reported dead.
  setImmediate(() => serve(game, new Int32Array(channel.control)));
}

/** Answers calls, one at a time, until the owner says `QUIT`. */
function serve(game: Game<unknown>, control: Int32Array): void {
  // A restarted thread's caller may be waiting for it to serve (a first thread's caller
  // may already have sent its first call: that state stays).
  Atomics.compareExchange(control, 0, STARTING, IDLE);
  Atomics.notify(control, 0);
  for (;;) {
    let state = Atomics.load(control, 0);
    while (state !== REQUEST) {
      if (state === QUIT) {
        // The game is over: back to the event loop, where the thread is terminated.
        Atomics.store(control, 0, GONE);
        Atomics.notify(control, 0);
        return;
      }
      Atomics.wait(control, 0, state);
      state = Atomics.load(control, 0);
    }
    const call = take(channel, Atomics.load(control, 2)) as Call;
    const length = put(channel, answer(game, label, call));
    Atomics.store(control, 2, length);
    Atomics.store(control, 0, REPLY);
    Atomics.notify(control, 0);
  }
}
