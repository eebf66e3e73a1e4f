/**
 * Running a `deno task` as a user does: from a directory of their choice, with the task's
 * own permissions from `deno.json`.
 *
 * @module
 */
import { type Ran, runCommand, testStateHome } from "./run.ts";

/** The repository root. */
export const root: URL = new URL("../", import.meta.url);

/**
 * The environment of a user's shell: without `INIT_CWD`, so that `deno task` sets it to
 * the directory the task is run from (a test run by `deno task test` would otherwise
 * pass on its own), without colours, and with its state in `testStateHome`.
 */
const userEnv = (extra: Record<string, string> = {}): Record<string, string> => {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  return { ...env, NO_COLOR: "1", XDG_STATE_HOME: testStateHome, ...extra };
};

/** Where and how to run a task. */
export interface TaskOptions {
  /** The directory the user is in (default the repository root). */
  readonly cwd?: string | URL;
  /** Standard input (default empty). */
  readonly stdin?: string;
  /** Name the repository's `deno.json` explicitly (for a `cwd` outside the repository). */
  readonly config?: boolean;
  /** Variables to set in the environment (e.g. another `XDG_STATE_HOME`). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Runs `deno task NAME ARGS...`. `INIT_CWD` is left out of the environment, so that
 * `deno task` sets it to `cwd` as it does for a user (a test run by `deno task test`
 * would otherwise pass on its own).
 */
export const runTask = (
  name: string,
  args: readonly string[],
  options: TaskOptions = {},
): Promise<Ran> => {
  const config = options.config === true ? ["--config", new URL("deno.json", root).pathname] : [];
  return runCommand(Deno.execPath(), ["task", ...config, name, ...args], {
    cwd: options.cwd ?? root,
    clearEnv: true,
    env: userEnv(options.env),
    stdin: options.stdin ?? "",
  });
};

/** A program started in its own process group (as a terminal's foreground job). */
export interface Job {
  /** The process id of `deno task` (the group's leader). */
  readonly pid: number;
  /** Resolves once the output contains `text`. */
  readonly waitFor: (text: string) => Promise<void>;
  /** Sends SIGINT to the whole group, as a terminal's Ctrl-C does. */
  readonly sigint: () => Promise<void>;
  /** Sends SIGKILL to the whole group (`kill -9`: no chance to clean up). */
  readonly kill: () => Promise<void>;
  /** Sends `signal` (such as `"TERM"` or `"HUP"`) to the whole group. */
  readonly signal: (signal: string) => Promise<void>;
  /** Types into the program's standard input. */
  readonly type: (text: string) => Promise<void>;
  /** The exit code and everything printed. */
  readonly done: Promise<{ code: number; out: string; err: string }>;
  /** True when no process of the group is left. */
  readonly groupGone: () => Promise<boolean>;
  /** Everything printed so far (standard output, then standard error). */
  readonly output: () => string;
}

/**
 * Starts `deno task ARGS` with `setsid` (its own process group); with `pty`, inside
 * `script`, which gives it a pseudo-terminal (Ctrl-C is then the byte 0x03 typed); `env`
 * adds variables to its environment.
 */
export const startTask = (
  args: readonly string[],
  pty = false,
  env: Readonly<Record<string, string>> = {},
): Job => {
  const task = [Deno.execPath(), "task", ...args];
  const quoted = task.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const argv = pty ? ["script", "-qfec", quoted, "/dev/null"] : task;
  const child = new Deno.Command("setsid", {
    args: argv,
    cwd: root,
    clearEnv: true,
    env: userEnv(env),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let out = "", err = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  const pump = async (stream: ReadableStream<Uint8Array>, into: (s: string) => void) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      into(chunk);
      for (const w of waiters.splice(0)) {
        if ((out + err).includes(w.text)) w.resolve();
        else waiters.push(w);
      }
    }
  };
  const reading = Promise.all([
    pump(child.stdout, (s) => (out += s)),
    pump(child.stderr, (s) => (err += s)),
  ]);
  // A watchdog: a program that hangs fails the test instead of hanging the suite.
  const watchdog = setTimeout(() => kill("KILL"), 120_000);
  const kill = async (signal: string) => {
    await new Deno.Command("kill", { args: [`-${signal}`, "--", `-${child.pid}`] }).output();
  };
  const done = (async () => {
    const status = await child.status;
    await reading;
    clearTimeout(watchdog);
    await writer.close().catch(() => {});
    return { code: status.code, out, err };
  })();
  return {
    pid: child.pid,
    waitFor: (text) =>
      (out + err).includes(text) ? Promise.resolve() : Promise.race([
        new Promise<void>((resolve) => waiters.push({ text, resolve })),
        done.then(() => {
          throw new Error(`the program ended before printing '${text}':\n${out}\n${err}`);
        }),
      ]),
    sigint: () => kill("INT"),
    kill: () => kill("KILL"),
    signal: (signal) => kill(signal),
    type: (text) => writer.write(new TextEncoder().encode(text)),
    done,
    output: () => out + err,
    groupGone: async () =>
      !(await new Deno.Command("kill", { args: ["-0", "--", `-${child.pid}`], stderr: "null" })
        .output()).success,
  };
};
