/**
 * The built-in games as a program's main thread knows them: described by one thread of
 * their own (`catalog_thread.ts`), which loads every built-in plugin, sends back each one's
 * declaration and its default game's players, and then checks options on request. So a
 * menu or a form lists the built-in games, and checks each answer as it is given, while no
 * built-in plugin's module loads on the main thread (`refusePluginsOnThisThread`).
 *
 * @module
 */
import { Effect, type Scope } from "../core/deps.ts";
import {
  type OptionProblem,
  OptionsError,
  type PluginDeclaration,
  PluginError,
} from "../core/plugin.ts";
import { spawnPluginThread, THREAD_START_MS } from "../core/host/thread.ts";
import { Limits } from "../core/host/limits.ts";

/** Each built-in game by id: its declaration, and its players and solo flag at its defaults. */
export type BuiltinGames = Readonly<
  Record<string, {
    readonly plugin: PluginDeclaration;
    readonly players: readonly string[];
    readonly solo: boolean;
  }>
>;

/** The catalog thread's first message: the games, or why it has none. */
export interface CatalogAnswer {
  readonly games?: BuiltinGames;
  readonly failed?: string;
}

/** A request to the catalog thread: check the options of built-in `id`. */
export interface CatalogCheck {
  /** The request's number, which its answer repeats. */
  readonly check: number;
  readonly id: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** The catalog thread's answer to a check: nothing wrong, the problems, or a failure. */
export interface CatalogChecked {
  readonly check: number;
  readonly problems?: readonly OptionProblem[];
  readonly known?: readonly string[];
  readonly message?: string;
  readonly failed?: string;
}

/** The built-in games, described by their thread, which lives as long as the scope. */
export interface BuiltinCatalog {
  /** Each built-in game by id. */
  readonly games: BuiltinGames;
  /**
   * Checks options for built-in `id` as opening its game would (`decodeOptions`, in the
   * thread): an `OptionsError` naming every problem, or a `PluginError` when the thread
   * did not answer within the call limit or died.
   */
  readonly check: (
    id: string,
    options: Readonly<Record<string, unknown>>,
  ) => Effect.Effect<void, OptionsError | PluginError>;
}

/**
 * Starts the catalog thread for the scope's lifetime and waits for its description of the
 * built-in games (within a thread's start and the call limit).
 */
export const builtinCatalog: Effect.Effect<BuiltinCatalog, PluginError, Scope.Scope> = Effect.gen(
  function* () {
    const limits = yield* Limits;
    const pending = new Map<number, (answer: CatalogChecked) => void>();
    let first: ((answer: CatalogAnswer) => void) | undefined;
    let ended: string | undefined;
    const thread = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawnPluginThread(
          new URL("./catalog_thread.ts", import.meta.url),
          {},
          {
            plugin: new URL("../plugins/registry.ts", import.meta.url).href,
            trusted: true,
            limits,
          },
          {
            message: (m) => {
              const checked = m as CatalogChecked;
              if (typeof checked.check === "number") pending.get(checked.check)?.(checked);
              else first?.(m as CatalogAnswer);
            },
            exit: (end) => {
              ended = end.oom ? `it ran out of memory (limit ${limits.memoryMb} MB)` : end.message;
              first?.({ failed: ended });
              for (const answer of pending.values()) answer({ check: -1, failed: ended });
            },
          },
        )
      ),
      (t) => Effect.sync(() => t.terminate()),
    );
    const answer = yield* Effect.callback<CatalogAnswer>((resume) => {
      first = (a) => resume(Effect.succeed(a));
    }).pipe(
      Effect.timeoutOrElse({
        duration: THREAD_START_MS + limits.callLimitMs,
        orElse: () =>
          Effect.succeed<CatalogAnswer>({
            failed: `it did not answer within ${(THREAD_START_MS + limits.callLimitMs) / 1000} s`,
          }),
      }),
    );
    if (answer.games === undefined) {
      return yield* new PluginError({
        message: `the built-in games could not be described: ${answer.failed}`,
      });
    }
    let next = 0;
    const check = (id: string, options: Readonly<Record<string, unknown>>) =>
      Effect.gen(function* () {
        const n = next++;
        const r = yield* Effect.callback<CatalogChecked>((resume) => {
          if (ended !== undefined) return resume(Effect.succeed({ check: n, failed: ended }));
          pending.set(n, (a) => resume(Effect.succeed(a)));
          thread.post({ check: n, id, options } satisfies CatalogCheck);
          return Effect.sync(() => pending.delete(n));
        }).pipe(
          Effect.timeoutOrElse({
            duration: limits.callLimitMs,
            orElse: () =>
              Effect.succeed<CatalogChecked>({
                check: n,
                failed: `it did not answer within ${
                  limits.callLimitMs / 1000
                } s (--call-limit changes it)`,
              }),
          }),
          Effect.ensuring(Effect.sync(() => pending.delete(n))),
        );
        if (r.failed !== undefined) {
          return yield* new PluginError({
            message: `plugin ${id} could not check its options: ${r.failed}`,
          });
        }
        if (r.problems !== undefined) {
          return yield* new OptionsError({
            message: r.message ?? "",
            plugin: id,
            problems: r.problems,
            known: r.known ?? [],
          });
        }
      });
    return { games: answer.games, check };
  },
);
