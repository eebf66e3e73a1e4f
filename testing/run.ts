/**
 * Running ply's programs as a user does: a script with its task's permissions, any command
 * with standard input typed in, and a fresh state folder for what they save.
 *
 * @module
 */
const root = new URL("../", import.meta.url);

/** What a program printed and how it exited. */
export interface Ran {
  /** The exit code. */
  readonly code: number;
  /** Standard output. */
  readonly stdout: string;
  /** Standard error. */
  readonly stderr: string;
}

/**
 * Where the programs run by tests keep their state (`XDG_STATE_HOME`: `play` saves
 * games there): a fresh folder per test process, removed at its end, so that tests
 * never write into the user's home.
 */
export const testStateHome: string = Deno.makeTempDirSync({ prefix: "ply-test-state-" });
globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(testStateHome, { recursive: true });
  } catch { /* already gone */ }
});

/** A task of `deno.json`: what `deno task` shows, and the command it runs. */
export interface TaskEntry {
  /** What the task does (`deno task` lists it). */
  readonly description?: string;
  /** The command line. */
  readonly command: string;
}

/**
 * The tasks of a `deno.json` (default the repository's), each as its description and
 * command; a task written as a bare command string has no description.
 */
export const readTasks = (config: URL = new URL("deno.json", root)): Record<string, TaskEntry> => {
  const tasks = JSON.parse(Deno.readTextFileSync(config)).tasks as Record<
    string,
    string | TaskEntry
  >;
  return Object.fromEntries(
    Object.entries(tasks).map(([name, t]) => [name, typeof t === "string" ? { command: t } : t]),
  );
};

/** The permission flags (and other `deno run` flags) of the `deno.json` task `name`. */
export const taskFlags = (name: string): string[] => {
  const task = readTasks()[name];
  if (task === undefined) throw new Error(`no task ${name}`);
  const words = task.command.split(" ");
  if (words[0] !== "deno" || words[1] !== "run") throw new Error(`task ${name} is no deno run`);
  return words.slice(2, -1);
};

/**
 * The `deno.json` task that runs `script`: its permission flags and the module it runs,
 * `script` itself or its entry in `scripts/start/` (which starts the game's thread first).
 */
const taskFor = (script: string): { flags: string[]; module: string } => {
  const entry = script.replace(/^scripts\//, "scripts/start/");
  for (const { command } of Object.values(readTasks())) {
    const words = command.split(" ");
    const module = words[words.length - 1];
    if (words[0] === "deno" && words[1] === "run" && (module === script || module === entry)) {
      return { flags: words.slice(2, -1), module };
    }
  }
  throw new Error(`no task runs ${script}`);
};

/**
 * Runs a script from the repository root with arguments and standard input, as the task
 * that runs it does: its permissions, and its entry.
 */
export const runScript = (script: string, args: string[], stdin = ""): Promise<Ran> => {
  const { flags, module } = taskFor(script);
  return runCommand(Deno.execPath(), ["run", ...flags, module, ...args], {
    cwd: root,
    env: { NO_COLOR: "1", XDG_STATE_HOME: testStateHome },
    stdin,
  });
};

/** Runs a command to its end with `stdin` typed in; what it printed and its exit code. */
export const runCommand = async (
  command: string,
  args: readonly string[],
  options: {
    readonly cwd: string | URL;
    readonly env: Record<string, string>;
    readonly clearEnv?: boolean;
    readonly stdin: string;
  },
): Promise<Ran> => {
  const child = new Deno.Command(command, {
    args: [...args],
    cwd: options.cwd,
    clearEnv: options.clearEnv ?? false,
    env: options.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(options.stdin));
  await w.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
};
