/**
 * The `Terminal` service: read a line, print text. The live layer reads standard input
 * as a stream of lines and ends cleanly on end of input, Ctrl-C, SIGTERM or SIGHUP; the
 * scripted layer
 * feeds fixed lines and records the output, so a human player is tested without a
 * terminal.
 *
 * @module
 */
import { Context, Deferred, Effect, Layer, Option, Pull, Stream } from "../core/deps.ts";

/** The terminal's operations (the service's shape). */
export interface TerminalShape {
  /** Prints the prompt and reads one line; `None` at end of input or on a stop signal. */
  readonly readLine: (prompt: string) => Effect.Effect<Option.Option<string>>;
  /** Prints text as is (add the newline yourself). */
  readonly print: (text: string) => Effect.Effect<void>;
  /** True once the user pressed Ctrl-C (checked between moves by long runs). */
  readonly interrupted: Effect.Effect<boolean>;
  /**
   * Completes when the user presses Ctrl-C: race a long effect (an AI's search, a match)
   * against it to stop that effect and keep what it has.
   */
  readonly interruption: Effect.Effect<void>;
  /** The first stop signal received (Ctrl-C is `SIGINT`); `undefined` before any. */
  readonly stoppedBy: Effect.Effect<StopSignal | undefined>;
}

/**
 * The signals that stop a program as Ctrl-C does (its search stopped, what it has kept,
 * a game saved), each with the exit code it ends the program with: 128 + its number,
 * as shells report a program killed by it.
 */
export const STOP_SIGNALS = { SIGINT: 130, SIGHUP: 129, SIGTERM: 143 } as const;

/** A signal that stops a program as Ctrl-C does. */
export type StopSignal = keyof typeof STOP_SIGNALS;

// The superclass as a variable of an explicit type: JSR's fast check reads no call there.
const TerminalKey: Context.ServiceClass<Terminal, "ply/Terminal", TerminalShape> = Context.Service<
  Terminal,
  TerminalShape
>()("ply/Terminal");

/** Line-based terminal input and output. */
export class Terminal extends TerminalKey {}

/**
 * Runs `effect` until the user presses Ctrl-C: `Some` of its result, or `None` when
 * Ctrl-C came first (the effect is then interrupted, which stops its search).
 */
export const untilInterrupted = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
): Effect.Effect<Option.Option<A>, E, R | Terminal> =>
  Effect.flatMap(Effect.service(Terminal), (term) =>
    Effect.raceFirst(
      Effect.map(effect, Option.some),
      Effect.as(term.interruption, Option.none<A>()),
    ));

const encoder = new TextEncoder();

/** Writes to standard output, all of it. */
export const writeStdout = (text: string): void => {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += Deno.stdout.writeSync(bytes.subarray(off));
};

/**
 * The live terminal: standard input split into lines (one line per pull, so piped input
 * loses nothing), standard output, and listeners for the stop signals (`STOP_SIGNALS`:
 * Ctrl-C, SIGTERM, SIGHUP) for the layer's lifetime. A stop signal ends reading (a clean
 * end of input) and completes `interruption`, so the program stops its search and keeps
 * what it has; the first one received is `stoppedBy`. (`deno task` forwards a signal to
 * the program, which may so receive one twice: every one after the first changes
 * nothing.) After one, output that cannot be written (a terminal hung up) is dropped.
 */
export const liveTerminal: Layer.Layer<Terminal> = Layer.effect(
  Terminal,
  Effect.gen(function* () {
    let stoppedBy: StopSignal | undefined;
    let wake: (() => void) | undefined;
    const interruption = Deferred.makeUnsafe<void>();
    const listeners = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((signal) => ({
      signal,
      listener: () => {
        stoppedBy ??= signal;
        Deferred.doneUnsafe(interruption, Effect.void);
        wake?.();
      },
    }));
    yield* Effect.acquireRelease(
      Effect.sync(() =>
        listeners.filter(({ signal, listener }) => {
          try {
            Deno.addSignalListener(signal, listener);
            return true;
          } catch {
            return false; // not on this platform (Windows has SIGINT only): its default stays
          }
        })
      ),
      (added) =>
        Effect.sync(() => {
          for (const { signal, listener } of added) Deno.removeSignalListener(signal, listener);
        }),
    );
    const write = (text: string) => {
      try {
        writeStdout(text);
      } catch (e) {
        if (stoppedBy === undefined) throw e;
      }
    };
    const pull = yield* Stream.fromReadableStream({
      evaluate: () => Deno.stdin.readable,
      onError: (e) => e,
    }).pipe(Stream.decodeText(), Stream.splitLines, Stream.rechunk(1), Stream.toPull);
    const nextLine: Effect.Effect<Option.Option<string>> = pull.pipe(
      Effect.map((chunk) => Option.some(chunk[0])),
      Pull.catchDone(() => Effect.succeed(Option.none<string>())),
      Effect.catch(() => Effect.succeed(Option.none<string>())),
    );
    const sigint = Effect.callback<Option.Option<string>>((resume) => {
      wake = () => resume(Effect.succeed(Option.none()));
      if (stoppedBy !== undefined) wake();
      return Effect.sync(() => {
        wake = undefined;
      });
    });
    return Terminal.of({
      readLine: (prompt) =>
        Effect.suspend(() => {
          if (stoppedBy !== undefined) return Effect.succeed(Option.none());
          write(prompt);
          return Effect.raceFirst(nextLine, sigint);
        }),
      print: (text) => Effect.sync(() => write(text)),
      interrupted: Effect.sync(() => stoppedBy !== undefined),
      interruption: Deferred.await(interruption),
      stoppedBy: Effect.sync(() => stoppedBy),
    });
  }),
);

/** A scripted terminal for tests: fixed input lines, recorded output. */
export interface ScriptedTerminal {
  /** The layer to provide. */
  readonly layer: Layer.Layer<Terminal>;
  /** Everything printed so far (prompts included). */
  readonly output: () => string;
  /** Presses Ctrl-C. */
  readonly interrupt: () => void;
}

/**
 * A terminal that answers prompts from `lines` and then reports end of input.
 *
 * @example
 * ```ts
 * import { scriptedTerminal, Terminal } from "./terminal.ts";
 * import { Effect, Option } from "../core/deps.ts";
 * const t = scriptedTerminal(["hello"]);
 * const read = Effect.gen(function* () {
 *   const term = yield* Terminal;
 *   return yield* term.readLine("> ");
 * });
 * const line = Effect.runSync(read.pipe(Effect.provide(t.layer)));
 * if (Option.getOrUndefined(line) !== "hello" || t.output() !== "> hello\n") throw new Error();
 * ```
 */
export const scriptedTerminal = (lines: readonly string[]): ScriptedTerminal => {
  let out = "";
  let i = 0;
  let interrupted = false;
  const interruption = Deferred.makeUnsafe<void>();
  return {
    layer: Layer.succeed(
      Terminal,
      Terminal.of({
        readLine: (prompt) =>
          Effect.sync(() => {
            out += prompt;
            if (interrupted || i >= lines.length) return Option.none();
            out += lines[i] + "\n";
            return Option.some(lines[i++]);
          }),
        print: (text) =>
          Effect.sync(() => {
            out += text;
          }),
        interrupted: Effect.sync(() => interrupted),
        interruption: Deferred.await(interruption),
        stoppedBy: Effect.sync((): StopSignal | undefined => interrupted ? "SIGINT" : undefined),
      }),
    ),
    output: () => out,
    interrupt: () => {
      interrupted = true;
      Deferred.doneUnsafe(interruption, Effect.void);
    },
  };
};
