/**
 * `deno task render`'s pictures made off the main thread: the boards, the game trees, their
 * minimax or alpha-beta labels and the SVG text (seed 003's `seed003.ts` and `svg.ts`) are
 * all made in a plugin thread (`render_thread.ts`, started by `spawnPluginThread`: its heap
 * bounded by `--memory`), which sends back the SVG text, or the user's mistake it found.
 * The main thread watches it: the thread counts its steps in shared memory (a move
 * replayed, a tree node's children generated) and says which function of the plugin runs;
 * no step for longer than the call limit (`--call-limit`), or a thread that runs out of
 * memory, fails the program with a `PluginFault` naming the plugin and the function
 * (`plugin ... failed in labelledTreeSVG(): it ran out of memory (limit 64 MB; --memory
 * changes it)`); the thread is stopped, even in a loop (`core/host/inside.ts`), and the
 * program ends.
 *
 * @module
 */
import { Effect, Queue, type Scope } from "../../../core/deps.ts";
import { PluginFault, SearchFailed } from "../../../core/errors.ts";
import {
  spawnPluginThread,
  THREAD_START_MS,
  type ThreadEvents,
} from "../../../core/host/thread.ts";
import { Limits } from "../../../core/host/limits.ts";
import { pluginLabel } from "../../../core/source.ts";
import { builtins } from "../../registry.ts";
import { UsageError } from "../../../app/cli.ts";

/** The names of the ready-made boards (`--example`), in the order the usage lists them. */
export const EXAMPLE_NAMES: readonly string[] = [
  "board4x4_3",
  "alphadom-leesedom",
  "alphadom-random",
];

/**
 * The functions of the plugin the thread runs, as the `fn` cell names them (its value is
 * the index plus one; 0 before the work starts): the game made from its options, the
 * moves replayed, then the picture's function.
 */
export const RENDER_FUNCTIONS: readonly string[] = [
  "create",
  "play",
  "boardSVG",
  "gametreeSVG",
  "labelledTreeSVG",
  "alphabetaSVG",
];

/** The cells of the shared progress (an `Int32Array`): the running function and a count of steps. */
export const RENDER_CELL = { fn: 0, steps: 1, size: 2 } as const;

/** A picture to make, as the command line asked for it (the thread checks the rest). */
export interface RenderRequest {
  /** A ready-made board (one of `EXAMPLE_NAMES`), or none: the game's options and moves. */
  readonly example?: string;
  /** The game's options, as given. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The moves from the start, as given (`--moves`). */
  readonly moves: string;
  /** `--tree`, as given: none for the board alone. */
  readonly tree?: string;
  /** `--label`, as given. */
  readonly label?: string;
  /** `--drop-pruned`. */
  readonly dropPruned: boolean;
  /** The size factor (checked). */
  readonly scale: number;
}

/** What the render thread is started with (its `workerData`). */
export interface RenderThreadData {
  readonly request: RenderRequest;
  /** The shared progress (`RENDER_CELL`). */
  readonly cells: SharedArrayBuffer;
}

/** What the render thread says (once). */
export type RenderThreadMessage =
  /** The picture, and what it shows (`the board (3 moves, H to move)`). */
  | { readonly type: "done"; readonly svg: string; readonly what: string }
  /** The request was refused: a user's mistake, as the program says it. */
  | { readonly type: "refused"; readonly message: string }
  /** Ply's own code failed in the thread (a bug). */
  | { readonly type: "crash"; readonly message: string; readonly trace?: string };

/** How long the thread may take to start (`THREAD_START_MS`, as `hostGame`'s). */
const LOAD_MS = THREAD_START_MS;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** What the main thread hears: a message, the thread's end, or a tick. */
type Heard =
  | { readonly type: "message"; readonly message: RenderThreadMessage }
  | { readonly type: "exit"; readonly oom: boolean; readonly why: string }
  | { readonly type: "tick" };

/**
 * Makes the picture `request` asks for in a plugin thread, watched (see the module's
 * documentation), under the program's `Limits`. A user's mistake found there is a
 * `UsageError`; a thread silent past the call limit, or out of memory, a `PluginFault`
 * (a defect) naming Domineering's plugin and the function. The thread ends with the
 * scope, if not before.
 */
export const renderInThread = (
  request: RenderRequest,
): Effect.Effect<
  { readonly svg: string; readonly what: string },
  UsageError | SearchFailed,
  Scope.Scope
> =>
  Effect.gen(function* () {
    const limits = yield* Limits;
    const url = builtins.domineering.url;
    const label = pluginLabel(url);
    const heard = yield* Queue.unbounded<Heard>();
    const buffer = new SharedArrayBuffer(RENDER_CELL.size * 4);
    const cells = new Int32Array(buffer);
    const events: ThreadEvents = {
      message: (m) =>
        Queue.offerUnsafe(heard, { type: "message", message: m as RenderThreadMessage }),
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
        const data: RenderThreadData = { request, cells: buffer };
        const thread = spawnPluginThread(
          new URL("./render_thread.ts", import.meta.url),
          data,
          { plugin: url, trusted: true, limits },
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
    const running = () => RENDER_FUNCTIONS[cells[RENDER_CELL.fn] - 1];
    const fault = (why: string) => Effect.die(new PluginFault(label, running(), new Error(why)));
    let seen = { steps: -1, at: performance.now() };
    for (;;) {
      const h = yield* Queue.take(heard);
      if (h.type === "tick") {
        const now = performance.now();
        if (running() === undefined) {
          if (now - startedAt < LOAD_MS) continue;
          return yield* new SearchFailed({
            message: `plugin ${label}: its thread did not start within ${seconds(LOAD_MS)}`,
          });
        }
        const steps = cells[RENDER_CELL.steps];
        if (steps !== seen.steps) seen = { steps, at: now };
        else if (now - seen.at >= limits.callLimitMs) {
          return yield* fault(
            `it did not return within ${seconds(limits.callLimitMs)} (--call-limit changes it)`,
          );
        }
        continue;
      }
      if (h.type === "exit") {
        const why = h.oom
          ? `it ran out of memory (limit ${limits.memoryMb} MB; --memory changes it)`
          : h.why;
        if (running() === undefined) {
          return yield* new SearchFailed({ message: `plugin ${label}: ${why}` });
        }
        return yield* fault(why);
      }
      const m = h.message;
      switch (m.type) {
        case "done":
          return { svg: m.svg, what: m.what };
        case "refused":
          return yield* new UsageError({ message: m.message });
        case "crash":
          return yield* Effect.die(Object.assign(new Error(m.message), { stack: m.trace }));
      }
    }
  });
