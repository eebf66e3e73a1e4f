/**
 * The conformance suite off the main thread, as `deno task check-plugin` runs it: the
 * whole suite runs in a plugin thread (`conformance_thread.ts`, started by
 * `spawnPluginThread`: a user's plugin sandboxed, the heap bounded by `--memory`), where
 * its millions of calls into the plugin stay plain calls, and the main thread watches it.
 * The thread says each check's result as soon as it is known; shared memory shows where
 * it is (the check, the playout and ply) and which of the plugin's functions runs, with
 * a count of calls. Silence (no call, no step) for longer than the call limit is a hang:
 * the check that was running fails naming the function (`moves: it did not return
 * within 2 s (--call-limit changes it) in playout 1 after 4 plies`), the thread is
 * stopped (even in a loop: `core/host/inside.ts`) and the checks after it run in a fresh
 * thread. A thread that runs out of memory fails its check the same way (`it ran out of
 * memory (limit 64 MB; --memory changes it)`), and the checks after it run in a fresh
 * thread too. Either way the report is whole: every check, and its summary.
 *
 * @module
 */
import { Effect, Queue, type Scope } from "../core/deps.ts";
import { runningFunction } from "../core/guard.ts";
import {
  type PluginLimits,
  type PluginThread,
  spawnPluginThread,
  THREAD_START_MS,
  type ThreadEvents,
} from "../core/host/thread.ts";
import {
  checkNames,
  type ConformanceCheck,
  type ConformanceOptions,
  type ConformanceProblem,
  type ConformanceReport,
  stepPlace,
} from "./conformance.ts";

/**
 * The cells of the shared progress (an `Int32Array`): `fn` and `calls` are the guard's
 * slot (`core/guard.ts`: the running function, a count of calls), then the check being
 * run, its step (`round`, `ply`: see `ConformanceWatch.step`) and a count of steps.
 */
export const CELL = { fn: 0, calls: 1, check: 2, round: 3, ply: 4, steps: 5, size: 6 } as const;

/** What the conformance thread is started with (its `workerData`). */
export interface ConformanceThreadData {
  /** The plugin's module URL. */
  readonly url: string;
  /** How the report names the plugin. */
  readonly label: string;
  readonly options: ConformanceOptions;
  /** The shared progress (`CELL`). */
  readonly cells: SharedArrayBuffer;
  /** The indices of the checks to run. */
  readonly checks: readonly number[];
}

/** What the conformance thread says. */
export type ConformanceThreadMessage =
  /** The module loaded; the checks start. */
  | { readonly type: "loaded" }
  /** The module did not load: why (the first line of the error). */
  | { readonly type: "unloadable"; readonly error: string }
  /** A check's result. */
  | { readonly type: "check"; readonly index: number; readonly check: ConformanceCheck }
  /** Every check asked for was run. */
  | { readonly type: "done" };

/** A plugin to check in a thread. */
export interface ThreadedCheck {
  /** The plugin's module URL. */
  readonly url: string;
  /** How the report names it (its path as given, its id). */
  readonly label: string;
  /** True for a built-in plugin (it keeps the program's permissions). */
  readonly trusted: boolean;
  readonly options: ConformanceOptions;
  /** The call limit (silence longer than it is a hang), heap limit and grants. */
  readonly limits: PluginLimits;
}

/** What checking in a thread gave: the report, or why the module did not load. */
export type ThreadedResult =
  | { readonly report: ConformanceReport }
  | { readonly error: string };

/** How long the thread may take to start (`THREAD_START_MS`, as `hostGame`'s). */
const LOAD_MS = THREAD_START_MS;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** What the main thread hears: a thread's message or its end (by its run), or a tick. */
type Heard =
  | { readonly type: "message"; readonly run: number; readonly message: ConformanceThreadMessage }
  | { readonly type: "exit"; readonly run: number; readonly oom: boolean; readonly why: string }
  | { readonly type: "tick" };

/**
 * Runs the conformance suite on a plugin in a plugin thread and watches it (see the
 * module's documentation): `onCheck` is given each check, in order, as soon as it is
 * known (a user's plugin sandboxed where it can be: see `spawnPluginThread`).
 */
export const checkInThread = (
  { url, label, trusted, options, limits }: ThreadedCheck,
  onCheck: (check: ConformanceCheck) => Effect.Effect<void>,
): Effect.Effect<ThreadedResult, never, Scope.Scope> =>
  Effect.gen(function* () {
    const names = checkNames(options);
    const results: (ConformanceCheck | undefined)[] = names.map(() => undefined);
    const heard = yield* Queue.unbounded<Heard>();
    let run = 0;
    let thread: PluginThread | undefined;
    let cells: Int32Array = new Int32Array(0);
    let loaded = false;
    let everLoaded = false;
    let startedAt = 0;
    /** The last change of the progress counters seen, and when. */
    let seen = { calls: 0, steps: 0, at: 0 };
    const missing = () => names.map((_, i) => i).filter((i) => results[i] === undefined);
    /** Starts a thread that runs the checks `checks` (after stopping the last one). */
    const start = (checks: readonly number[]) => {
      thread?.terminate();
      const id = ++run;
      const buffer = new SharedArrayBuffer(CELL.size * 4);
      cells = new Int32Array(buffer);
      loaded = false;
      startedAt = performance.now();
      const data: ConformanceThreadData = { url, label, options, cells: buffer, checks };
      const events: ThreadEvents = {
        message: (m) =>
          Queue.offerUnsafe(heard, {
            type: "message",
            run: id,
            message: m as ConformanceThreadMessage,
          }),
        exit: (end) =>
          Queue.offerUnsafe(heard, {
            type: "exit",
            run: id,
            oom: end.oom,
            why: end.message || "its thread crashed",
          }),
      };
      thread = spawnPluginThread(
        new URL("./conformance_thread.ts", import.meta.url),
        data,
        { plugin: url, trusted, limits },
        events,
      );
    };
    const tick = Math.min(250, Math.max(10, limits.callLimitMs / 10));
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        start(names.map((_, i) => i));
        return setInterval(() => Queue.offerUnsafe(heard, { type: "tick" }), tick);
      }),
      (timer) =>
        Effect.sync(() => {
          clearInterval(timer);
          thread?.terminate();
        }),
    );
    let printed = 0;
    /** Gives `onCheck` the checks known, in order, up to the first one not known. */
    const flush = Effect.gen(function* () {
      while (printed < results.length && results[printed] !== undefined) {
        yield* onCheck(results[printed]!);
        printed++;
      }
    });
    /**
     * The thread was lost (`why`: it hung, ran out of memory or crashed): the check it ran
     * fails, naming the function that ran. The others still to run get a fresh thread
     * (`again`), or are skipped when the plugin could not be built or a fresh thread did
     * not start. Returns false when there is nothing left to run.
     */
    const lost = (why: string, again: boolean): boolean => {
      thread?.terminate();
      thread = undefined;
      let at = loaded ? cells[CELL.check] : -1;
      if (at < 0 || results[at] !== undefined) at = missing()[0] ?? -1;
      if (at < 0) return false;
      const fn = loaded
        ? runningFunction(cells.subarray(CELL.fn, CELL.calls + 1)) ??
          (at === 0 ? "create" : undefined)
        : undefined;
      const place = loaded ? stepPlace(at, cells[CELL.round], cells[CELL.ply]) : "";
      const message = place === "" ? why : `${why} ${place}`;
      const problem: ConformanceProblem = fn === undefined ? { message } : { fn, message };
      results[at] = { name: names[at], problems: [problem] };
      if (at === 0 || !again) {
        const [skipped, skippedNames] = at === 0
          ? ["the plugin could not be built", checkNames(options, false)]
          : ["its thread could not be started again", names];
        for (const i of missing()) results[i] = { name: skippedNames[i], problems: [], skipped };
        return false;
      }
      const rest = missing();
      if (rest.length === 0) return false;
      start(rest);
      return true;
    };
    for (;;) {
      const h = yield* Queue.take(heard);
      if (h.type === "tick") {
        const now = performance.now();
        if (!loaded) {
          if (now - startedAt < LOAD_MS) continue;
          if (!everLoaded) return { error: `it did not load within ${seconds(LOAD_MS)}` };
          if (!lost(`its thread did not start again within ${seconds(LOAD_MS)}`, false)) break;
          continue;
        }
        const calls = cells[CELL.calls], steps = cells[CELL.steps];
        if (calls !== seen.calls || steps !== seen.steps) seen = { calls, steps, at: now };
        else if (now - seen.at >= limits.callLimitMs) {
          const running = runningFunction(cells.subarray(CELL.fn, CELL.calls + 1)) !== undefined ||
            cells[CELL.check] === 0;
          const why = running
            ? `it did not return within ${seconds(limits.callLimitMs)} (--call-limit changes it)`
            : `it made no progress for ${seconds(limits.callLimitMs)} (--call-limit changes it)`;
          if (!lost(why, true)) break;
          yield* flush;
        }
        continue;
      }
      if (h.type === "exit") {
        if (h.run !== run) continue;
        const why = h.oom
          ? `it ran out of memory (limit ${limits.memoryMb} MB; --memory changes it)`
          : h.why;
        if (!loaded && !everLoaded) return { error: why };
        if (!lost(why, true)) break;
        yield* flush;
        continue;
      }
      const m = h.message;
      // A check's result is good whichever thread found it; the rest is the live thread's.
      if (m.type === "check") {
        results[m.index] ??= m.check;
        yield* flush;
        continue;
      }
      if (h.run !== run) continue;
      if (m.type === "loaded") {
        loaded = everLoaded = true;
        seen = { calls: cells[CELL.calls], steps: cells[CELL.steps], at: performance.now() };
      } else if (m.type === "unloadable") {
        if (!everLoaded) return { error: m.error };
        if (!lost(`its thread, started again, could not load the module: ${m.error}`, true)) {
          break;
        }
        yield* flush;
      } else {
        // Done: every result it found came before (messages keep their order).
        thread?.terminate();
        thread = undefined;
        break;
      }
    }
    for (const i of missing()) {
      results[i] = { name: names[i], problems: [{ message: "its result never came" }] };
    }
    yield* flush;
    const checks = results as ConformanceCheck[];
    return {
      report: { plugin: label, checks, ok: checks.every((c) => c.problems.length === 0) },
    };
  });
