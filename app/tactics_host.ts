/**
 * Tactical positions collected off the main thread, as `deno task tactics` does: the
 * whole collection runs in a plugin thread (`tactics_thread.ts`, started by
 * `spawnPluginThread`: a user's plugin sandboxed, the heap bounded by `--memory`), where
 * its millions of calls into the game stay plain calls (a hosted game, `hostGame`,
 * costs each call a round trip between threads: forty times the time here), and the
 * main thread watches it. Shared memory shows which of a user's plugin's functions runs
 * (the guard's slot; a built-in's are not watched, as in the search workers), with a
 * count of calls: a call that does not return within the call limit fails the
 * program with a `PluginFault` naming the plugin and the function (`plugin ./my.ts
 * failed in moves(): it did not return within 2 s (--call-limit changes it)`), as does a
 * thread that runs out of memory; the thread is stopped, even in a loop
 * (`core/host/inside.ts`), and the program ends.
 *
 * @module
 */
import { Effect, Queue, type Scope } from "../core/deps.ts";
import { PluginFault, SearchFailed } from "../core/errors.ts";
import { runningFunction } from "../core/guard.ts";
import {
  type PluginLimits,
  spawnPluginThread,
  THREAD_START_MS,
  type ThreadEvents,
} from "../core/host/thread.ts";
import { Limits } from "../core/host/limits.ts";
import { loadPlugin, OptionsError, PluginError } from "../core/plugin.ts";
import { isBuiltinUrl, looksLikeModule, pluginLabel } from "../core/source.ts";
import { builtins, gameUrl } from "../plugins/registry.ts";
import type { TacticalPosition, TacticsOptions } from "./tactics.ts";

/**
 * The cells of the shared progress (an `Int32Array`): `fn` and `calls` are the guard's
 * slot (`core/guard.ts`: the running function, a count of calls), and `stop` is set by
 * the main thread to end the collection after the random game being played.
 */
export const TACTICS_CELL = { fn: 0, calls: 1, stop: 2, size: 3 } as const;

/** What the tactics thread is started with (its `workerData`). */
export interface TacticsThreadData {
  /** The plugin's module URL. */
  readonly url: string;
  /** The game's options, as given (the thread decodes them). */
  readonly options: Readonly<Record<string, unknown>>;
  /** How to collect. */
  readonly tactics: TacticsOptions;
  /** The shared progress (`TACTICS_CELL`). */
  readonly cells: SharedArrayBuffer;
}

/** What the tactics thread says. */
export type TacticsThreadMessage =
  /** The game could not be opened: the error's tag and fields. */
  | {
    readonly type: "failed";
    readonly error: { readonly _tag: string } & Readonly<Record<string, unknown>>;
  }
  /** The game is open (the collection starts unless it is a one-player game). */
  | {
    readonly type: "ready";
    readonly plugin: { readonly id: string; readonly name: string };
    readonly options: unknown;
    readonly solo: boolean;
  }
  /** The collection's options do not fit the game (`tacticsCollector`'s `RangeError`). */
  | { readonly type: "invalid"; readonly message: string }
  /** The plugin's function `fn` failed: its exception's message and stack. */
  | {
    readonly type: "fault";
    readonly fn: string;
    readonly message: string;
    readonly trace?: string;
  }
  /** Ply's own code failed in the thread (a bug). */
  | { readonly type: "crash"; readonly message: string; readonly trace?: string }
  /** The positions found; `complete` false when stopped early. */
  | {
    readonly type: "done";
    readonly positions: readonly TacticalPosition[];
    readonly games: number;
    readonly complete: boolean;
  };

/** A collection to run in a thread. */
export interface ThreadedTactics {
  /** The plugin's module URL. */
  readonly url: string;
  /** How messages name it (its path as given, its id). */
  readonly label: string;
  /** True for a built-in plugin (it keeps the program's permissions). */
  readonly trusted: boolean;
  /** The game's options, as given. */
  readonly options: Readonly<Record<string, unknown>>;
  /** How to collect. */
  readonly tactics: TacticsOptions;
  /** The call limit, heap limit and grants. */
  readonly limits: PluginLimits;
  /** Completes when the collection should stop early, keeping what it found (Ctrl-C). */
  readonly stop: Effect.Effect<void>;
}

/** What a collection in a thread gave. */
export type TacticsOutcome =
  /** The game is played by one player against chance: no tactics. */
  | { readonly _tag: "Solo" }
  /** The options do not fit the game (the message says why). */
  | { readonly _tag: "Invalid"; readonly message: string }
  /** The positions, with the plugin and the decoded options. */
  | {
    readonly _tag: "Collected";
    readonly plugin: { readonly id: string; readonly name: string };
    readonly options: Readonly<Record<string, unknown>>;
    readonly positions: readonly TacticalPosition[];
    readonly games: number;
    /** False when stopped early (`stop`). */
    readonly complete: boolean;
  };

/** How long the thread may take to start (`THREAD_START_MS`, as `hostGame`'s). */
const LOAD_MS = THREAD_START_MS;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** What the main thread hears: a message, the thread's end, a tick or the stop. */
type Heard =
  | { readonly type: "message"; readonly message: TacticsThreadMessage }
  | { readonly type: "exit"; readonly oom: boolean; readonly why: string }
  | { readonly type: "tick" };

/** The error a thread sent back for a game it could not open. */
const openError = (error: { readonly _tag: string } & Readonly<Record<string, unknown>>) => {
  const { _tag, ...fields } = error;
  return _tag === "OptionsError"
    ? new OptionsError(fields as unknown as ConstructorParameters<typeof OptionsError>[0])
    : new PluginError({ message: String(fields.message) });
};

/** A plugin's fault, as a hosted game's call reports it (a defect, with the stack). */
const fault = (label: string, fn: string, message: string, trace?: string) => {
  const cause = new Error(message);
  if (trace !== undefined) cause.stack = trace;
  return Effect.die(new PluginFault(label, fn, cause));
};

/**
 * Collects tactical positions (`tacticsCollector`) of the game at `url` in a plugin
 * thread and watches it (see the module's documentation). Fails as opening the game
 * would (`PluginError`, `OptionsError`); a plugin's exception, a call past the call
 * limit or a thread out of memory is a `PluginFault` (a defect) naming the plugin and
 * the function. The thread ends with the scope, if not before.
 */
export const collectInThread = (
  { url, label, trusted, options, tactics, limits, stop }: ThreadedTactics,
): Effect.Effect<TacticsOutcome, PluginError | OptionsError | SearchFailed, Scope.Scope> =>
  Effect.gen(function* () {
    const heard = yield* Queue.unbounded<Heard>();
    const buffer = new SharedArrayBuffer(TACTICS_CELL.size * 4);
    const cells = new Int32Array(buffer);
    const slot = cells.subarray(TACTICS_CELL.fn, TACTICS_CELL.calls + 1);
    const events: ThreadEvents = {
      message: (m) =>
        Queue.offerUnsafe(heard, { type: "message", message: m as TacticsThreadMessage }),
      exit: (end) =>
        Queue.offerUnsafe(heard, {
          type: "exit",
          oom: end.oom,
          why: end.message || "its thread crashed",
        }),
    };
    const tick = Math.min(250, Math.max(10, limits.callLimitMs / 10));
    const startedAt = performance.now();
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        const data: TacticsThreadData = { url, options, tactics, cells: buffer };
        const thread = spawnPluginThread(
          new URL("./tactics_thread.ts", import.meta.url),
          data,
          { plugin: url, trusted, limits },
          events,
        );
        const timer = setInterval(() => Queue.offerUnsafe(heard, { type: "tick" }), tick);
        return { thread, timer };
      }),
      ({ thread, timer }) =>
        Effect.sync(() => {
          clearInterval(timer);
          thread.terminate();
        }),
    );
    yield* Effect.forkScoped(
      Effect.andThen(stop, Effect.sync(() => Atomics.store(cells, TACTICS_CELL.stop, 1))),
    );
    let ready: Extract<TacticsThreadMessage, { type: "ready" }> | undefined;
    let seen = { calls: 0, at: performance.now() };
    for (;;) {
      const h = yield* Queue.take(heard);
      if (h.type === "tick") {
        const now = performance.now();
        if (ready === undefined) {
          if (now - startedAt < LOAD_MS) continue;
          return yield* new PluginError({
            message: `plugin ${label} could not be loaded: it did not open its game within ` +
              seconds(LOAD_MS),
          });
        }
        const calls = cells[TACTICS_CELL.calls];
        if (calls !== seen.calls) seen = { calls, at: now };
        else if (now - seen.at >= limits.callLimitMs) {
          // Silence between calls is ply's own code (labelling's bookkeeping): it ends.
          const fn = runningFunction(slot);
          if (fn === undefined) continue;
          return yield* fault(
            label,
            fn,
            `it did not return within ${seconds(limits.callLimitMs)} (--call-limit changes it)`,
          );
        }
        continue;
      }
      if (h.type === "exit") {
        const why = h.oom
          ? `it ran out of memory (limit ${limits.memoryMb} MB; --memory changes it)`
          : h.why;
        if (ready === undefined) {
          return yield* new PluginError({ message: `plugin ${label} could not be loaded: ${why}` });
        }
        const fn = runningFunction(slot);
        if (fn !== undefined) return yield* fault(label, fn, why);
        return yield* new SearchFailed({ message: `plugin ${label}: ${why}` });
      }
      const m = h.message;
      switch (m.type) {
        case "failed":
          return yield* openError(m.error);
        case "ready":
          ready = m;
          seen = { calls: cells[TACTICS_CELL.calls], at: performance.now() };
          if (m.solo) return { _tag: "Solo" } as const;
          continue;
        case "invalid":
          return { _tag: "Invalid", message: m.message } as const;
        case "fault":
          return yield* fault(label, m.fn, m.message, m.trace);
        case "crash":
          return yield* Effect.die(Object.assign(new Error(m.message), { stack: m.trace }));
        case "done":
          return {
            _tag: "Collected",
            plugin: ready!.plugin,
            options: ready!.options as Record<string, unknown>,
            positions: m.positions,
            games: m.games,
            complete: m.complete,
          } as const;
      }
    }
  });

/**
 * Collects tactical positions of the game `from` names (a built-in id, a path or a URL;
 * `options` as given) in a plugin thread (`collectInThread`), under the program's
 * `Limits`; `stop` ends it early, keeping what was found.
 */
export const collectTactics = (
  from: string,
  options: Readonly<Record<string, unknown>>,
  tactics: TacticsOptions,
  stop: Effect.Effect<void>,
): Effect.Effect<TacticsOutcome, PluginError | OptionsError | SearchFailed, Scope.Scope> =>
  Effect.gen(function* () {
    const url = gameUrl(from);
    const trusted = isBuiltinUrl(url);
    // A word that names no built-in game and no module: loading says so.
    if (!trusted && !looksLikeModule(from)) yield* loadPlugin(from, builtins);
    const limits = yield* Limits;
    return yield* collectInThread({
      url,
      label: pluginLabel(url),
      trusted,
      options,
      tactics,
      limits,
      stop,
    });
  });
