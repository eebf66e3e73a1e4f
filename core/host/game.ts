/**
 * A hosted game: the game runs in its own plugin thread (`rules.ts`, started by
 * `thread.ts`), and the caller holds a stand-in with the same protocol whose every call
 * is a synchronous call over shared memory, watched: a call that does not answer within
 * the call limit, or whose thread runs out of memory or crashes, fails with a
 * `PluginFault` naming the plugin, the function and the limit, and the thread is
 * replaced by a fresh one (the next call waits for it), so that the next game of a
 * series starts clean. The plugin thread lives as long as the scope.
 *
 * @module
 */
import { Effect, Result, type Scope } from "../deps.ts";
import { PluginFault } from "../errors.ts";
import type { Game } from "../game.ts";
import { OptionsError, type PluginDeclaration, PluginError } from "../plugin.ts";
import type { GameSource } from "../source.ts";
import {
  type Answer,
  type Channel,
  DEAD,
  IDLE,
  newChannel,
  put,
  QUIT,
  REPLY,
  REQUEST,
  STARTING,
  take,
} from "./calls.ts";
import type { HostDeclared, HostFailed, HostReady, RulesData } from "./rules.ts";
import { RULES_MODULE } from "./entry.ts";
import {
  type PluginLimits,
  type PluginThread,
  spawnPluginThread,
  THREAD_START_MS,
  type ThreadEvents,
} from "./thread.ts";

/** A game in its plugin thread, as `hostGame` gives it. */
export interface HostedGame {
  /** The stand-in: the game's protocol, each call answered by the plugin thread. */
  readonly game: Game<unknown>;
  /** The options as the plugin decoded them. */
  readonly options: unknown;
  /** What the plugin declares beside its game (read in its thread). */
  readonly plugin: PluginDeclaration;
  /** Calls answered so far (what the isolation costs is per call). */
  readonly calls: () => number;
}

/** How a hosted game is started. */
export interface HostOptions {
  /** Where the game comes from. */
  readonly source: GameSource;
  /** How messages name the plugin (`./my.ts`, `kalah`). */
  readonly label: string;
  /** True for a built-in plugin: it keeps the program's permissions. */
  readonly trusted: boolean;
  /** The call limit, heap limit and grants. */
  readonly limits: PluginLimits;
}

/** How long an idle thread may take to say it stopped serving (`stop`). */
const QUIT_MS = 100;

/** How long a thread may take to open its game (first, or again after a restart). */
const RESTART_MS = THREAD_START_MS;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * Waits for a new plugin thread's first message (`T`, or why it has no game), naming the
 * plugin when the thread ran out of memory, crashed or took longer than a minute; `end`
 * terminates the thread when the wait is interrupted and when the scope closes.
 */
const firstWord = <T extends HostReady | HostDeclared>(
  label: string,
  limits: PluginLimits,
  spawn: (events: ThreadEvents) => void,
  end: () => void,
): Effect.Effect<T, PluginError | OptionsError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<T, PluginError | OptionsError>((resume) => {
      const fail = (why: string) =>
        resume(
          Effect.fail(
            new PluginError({ message: `plugin ${label} could not be loaded: ${why}` }),
          ),
        );
      // A plugin that never finishes loading (its module, or create()) is named too.
      const late = setTimeout(
        () => fail(`it did not open its game within ${seconds(RESTART_MS)}`),
        RESTART_MS,
      );
      spawn({
        message: (m) => {
          clearTimeout(late);
          const r = m as T | HostFailed;
          if (r.type !== "failed") resume(Effect.succeed(r as T));
          else {
            const { _tag, ...fields } = r.error;
            resume(Effect.fail(
              _tag === "OptionsError"
                ? new OptionsError(
                  fields as unknown as ConstructorParameters<typeof OptionsError>[0],
                )
                : new PluginError({ message: String(fields.message) }),
            ));
          }
        },
        exit: (e) => {
          clearTimeout(late);
          fail(e.oom ? `it ran out of memory (limit ${limits.memoryMb} MB)` : e.message);
        },
      });
      return Effect.sync(() => {
        clearTimeout(late);
        end();
      });
    }),
    () => Effect.sync(end),
  );

/**
 * A plugin's declaration (`PluginDeclaration`), read in a plugin thread of its own (a
 * user's plugin's module never loads on the caller's thread): for help texts and menus.
 * The thread ends with the scope.
 */
export const hostDeclaration = (
  { source, label, trusted, limits }: HostOptions,
): Effect.Effect<PluginDeclaration, PluginError | OptionsError, Scope.Scope> =>
  Effect.gen(function* () {
    let thread: PluginThread | undefined;
    const data: RulesData = { source, label, channel: newChannel(), declareOnly: true };
    const spawn = (events: ThreadEvents) => {
      thread = spawnPluginThread(
        RULES_MODULE,
        data,
        { plugin: source.url, trusted, limits },
        events,
      );
    };
    const declared = yield* firstWord<HostDeclared>(label, limits, spawn, () => {
      thread?.terminate();
    });
    return declared.plugin;
  });

/**
 * Starts the game of `source` in a plugin thread for the scope's lifetime. Fails as
 * opening the game in process would (`PluginError`, `OptionsError`), or with a
 * `PluginError` when the thread ran out of memory, crashed or took longer than a minute
 * to open the game.
 */
export const hostGame = (
  { source, label, trusted, limits }: HostOptions,
): Effect.Effect<HostedGame, PluginError | OptionsError, Scope.Scope> =>
  Effect.gen(function* () {
    let channel: Channel = newChannel();
    let control = new Int32Array(channel.control);
    let thread: PluginThread | undefined;
    /** A thread for the game on the current channel. */
    const spawn = (events: ThreadEvents) => {
      const data: RulesData = { source, label, channel };
      thread = spawnPluginThread(
        RULES_MODULE,
        data,
        { plugin: source.url, trusted, limits, death: channel.control },
        events,
      );
    };
    /** A fresh thread on a fresh channel, after a death (it reports nothing but its end). */
    const restart = () => {
      thread?.terminate();
      channel = newChannel();
      control = new Int32Array(channel.control);
      Atomics.store(control, 0, STARTING);
      const cell = control;
      spawn({
        message: (m) => {
          if ((m as HostFailed).type !== "failed") return;
          Atomics.store(cell, 0, DEAD);
          Atomics.notify(cell, 0);
        },
        exit: () => {},
      });
    };
    let serving = false;
    /**
     * Ends the thread: one that waits for a call is asked to stop serving first (`QUIT`,
     * answered `GONE` within a moment), so that it ends from its event loop.
     */
    const stop = () => {
      if (serving && Atomics.compareExchange(control, 0, IDLE, QUIT) === IDLE) {
        Atomics.notify(control, 0);
        Atomics.wait(control, 0, QUIT, QUIT_MS);
      }
      thread?.terminate();
    };
    const ready = yield* firstWord<HostReady>(label, limits, spawn, stop);
    serving = true;
    let calls = 0;
    // The calls that did not return (past the limit, or their thread died), by their
    // text: the protocol's functions are pure, so the same call fails again at once,
    // without waiting for the limit again (a page showing the position where a game
    // failed asks for its moves again and again). An exception is asked again: a retried
    // game may pass where a passing fault failed it.
    const failed = new Map<string, PluginFault>();
    const lost = new WeakSet<PluginFault>();
    const call = (fn: string, args: readonly unknown[]): unknown => {
      // JSON would send a trailing `undefined` (render's absent view) as null.
      let n = args.length;
      while (n > 0 && args[n - 1] === undefined) n--;
      const text = JSON.stringify({ fn, args: args.slice(0, n) });
      const known = failed.get(text);
      if (known !== undefined) throw known;
      try {
        return answer(fn, text);
      } catch (e) {
        if (e instanceof PluginFault && lost.has(e)) failed.set(text, e);
        throw e;
      }
    };
    const answer = (fn: string, text: string): unknown => {
      if (Atomics.load(control, 0) === STARTING) {
        Atomics.wait(control, 0, STARTING, RESTART_MS);
      }
      if (Atomics.load(control, 0) !== IDLE) {
        throw new PluginFault(label, fn, new Error("its thread could not be restarted"));
      }
      Atomics.store(control, 2, put(channel, text));
      Atomics.store(control, 0, REQUEST);
      Atomics.notify(control, 0);
      const end = performance.now() + limits.callLimitMs;
      let state = Atomics.load(control, 0);
      while (state === REQUEST) {
        const left = end - performance.now();
        if (left <= 0) break;
        Atomics.wait(control, 0, REQUEST, left);
        state = Atomics.load(control, 0);
      }
      if (state === REPLY) {
        const a = take(channel, Atomics.load(control, 2)) as Answer;
        Atomics.store(control, 0, IDLE);
        calls++;
        if (!("fault" in a)) return a.value;
        const cause = new Error(a.fault.message.replace(/^plugin .*? failed in .*?\(\): /, ""));
        if (a.fault.trace !== undefined) cause.stack = a.fault.trace;
        throw new PluginFault(label, a.fault.fn, cause);
      }
      const why = state === DEAD
        ? Atomics.load(control, 1) === 2
          ? `it ran out of memory (limit ${limits.memoryMb} MB; --memory changes it)`
          : "its thread crashed"
        : `it did not return within ${seconds(limits.callLimitMs)} (--call-limit changes it)`;
      restart();
      const fault = new PluginFault(label, fn, new Error(why));
      lost.add(fault);
      throw fault;
    };
    const g: Record<string, unknown> = { ...ready.members };
    const picture: Record<string, unknown> = {};
    for (const fn of ready.functions) {
      const target = fn.startsWith("picture.") ? picture : g;
      const name = fn.startsWith("picture.") ? fn.slice("picture.".length) : fn;
      target[name] = fn === "parseMove"
        ? (...args: unknown[]) => {
          const r = call(fn, args) as { ok: number } | { error: string };
          return "ok" in r ? Result.succeed(r.ok) : Result.fail(r.error);
        }
        : (...args: unknown[]) => call(fn, args);
    }
    if (Object.keys(picture).length > 0) g.picture = picture;
    return {
      game: g as unknown as Game<unknown>,
      options: ready.options,
      plugin: ready.plugin,
      calls: () => calls,
    };
  });
