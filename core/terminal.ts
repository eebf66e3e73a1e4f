/**
 * The `Terminal` service: read a line, print text. The live layer reads standard input
 * as a stream of lines and ends cleanly on end of input or Ctrl-C; the scripted layer
 * feeds fixed lines and records the output, so a human player is tested without a
 * terminal.
 *
 * @module
 */
import { Context, Effect, Layer, Option, Pull, Stream } from "./deps.ts";

/** Line-based terminal input and output. */
export class Terminal extends Context.Service<Terminal, {
  /** Prints the prompt and reads one line; `None` at end of input or on Ctrl-C. */
  readonly readLine: (prompt: string) => Effect.Effect<Option.Option<string>>;
  /** Prints text as is (add the newline yourself). */
  readonly print: (text: string) => Effect.Effect<void>;
  /** True once the user pressed Ctrl-C (checked between moves by long runs). */
  readonly interrupted: Effect.Effect<boolean>;
}>()("ply/Terminal") {}

const encoder = new TextEncoder();

/** Writes to standard output, all of it. */
export const writeStdout = (text: string): void => {
  const bytes = encoder.encode(text);
  let off = 0;
  while (off < bytes.length) off += Deno.stdout.writeSync(bytes.subarray(off));
};

/**
 * The live terminal: standard input split into lines (one line per pull, so piped input
 * loses nothing), standard output, and a Ctrl-C listener for the layer's lifetime that
 * turns Ctrl-C into a clean end of input.
 */
export const liveTerminal: Layer.Layer<Terminal> = Layer.effect(
  Terminal,
  Effect.gen(function* () {
    let interrupted = false;
    let wake: (() => void) | undefined;
    const onSigint = () => {
      interrupted = true;
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
    });
  }),
);

/** A scripted terminal for tests: fixed input lines, recorded output. */
export interface ScriptedTerminal {
  /** The layer to provide. */
  readonly layer: Layer.Layer<Terminal>;
  /** Everything printed so far (prompts included). */
  readonly output: () => string;
}

/**
 * A terminal that answers prompts from `lines` and then reports end of input.
 *
 * @example
 * ```ts
 * import { scriptedTerminal, Terminal } from "./terminal.ts";
 * import { Effect, Option } from "./deps.ts";
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
  return {
    layer: Layer.succeed(
      Terminal,
      Terminal.of({
        readLine: (prompt) =>
          Effect.sync(() => {
            out += prompt;
            if (i >= lines.length) return Option.none();
            out += lines[i] + "\n";
            return Option.some(lines[i++]);
          }),
        print: (text) =>
          Effect.sync(() => {
            out += text;
          }),
        interrupted: Effect.succeed(false),
      }),
    ),
    output: () => out,
  };
};
