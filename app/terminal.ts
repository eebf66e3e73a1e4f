/**
 * The `Terminal` service: read a line, print text. The live layer reads standard input
 * as a stream of lines and ends cleanly on end of input or Ctrl-C; the scripted layer
 * feeds fixed lines and records the output, so a human player is tested without a
 * terminal.
 *
 * @module
 */
import { Context, Deferred, Effect, Layer, Option, Pull, Stream } from "../core/deps.ts";

/** The terminal's operations (the service's shape). */
export interface TerminalShape {
  /** Prints the prompt and reads one line; `None` at end of input or on Ctrl-C. */
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
}

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

/** The exit code of a program ended by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT = 130;

/**
 * The live terminal: standard input split into lines (one line per pull, so piped input
 * loses nothing), standard output, and a Ctrl-C listener for the layer's lifetime. Ctrl-C
 * ends reading (a clean end of input) and completes `interruption`, so the program stops
 * its search and keeps what it has. (`deno task` forwards the signal to the program,
 * which may so receive one Ctrl-C twice: every one after the first changes nothing.)
 */
export const liveTerminal: Layer.Layer<Terminal> = Layer.effect(
  Terminal,
  Effect.gen(function* () {
    let interrupted = false;
    let wake: (() => void) | undefined;
    const interruption = Deferred.makeUnsafe<void>();
    const onSigint = () => {
      interrupted = true;
      Deferred.doneUnsafe(interruption, Effect.void);
      wake?.();
    };
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        try {
          Deno.addSignalListener("SIGINT", onSigint);
          return true;
        } catch {
          return false; // no signals on this platform: Ctrl-C keeps its default
        }
      }),
      (added) =>
        Effect.sync(() => {
          if (added) Deno.removeSignalListener("SIGINT", onSigint);
        }),
    );
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
      if (interrupted) wake();
      return Effect.sync(() => {
        wake = undefined;
      });
    });
    return Terminal.of({
      readLine: (prompt) =>
        Effect.suspend(() => {
          if (interrupted) return Effect.succeed(Option.none());
          writeStdout(prompt);
          return Effect.raceFirst(nextLine, sigint);
        }),
      print: (text) => Effect.sync(() => writeStdout(text)),
      interrupted: Effect.sync(() => interrupted),
      interruption: Deferred.await(interruption),
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
      }),
    ),
    output: () => out,
    interrupt: () => {
      interrupted = true;
      Deferred.doneUnsafe(interruption, Effect.void);
    },
  };
};
