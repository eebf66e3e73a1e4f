/**
 * Running a `deno task` as a user does: from a directory of their choice, with the task's
 * own permissions from `deno.json`.
 *
 * @module
 */
import type { Ran } from "./helpers.ts";

/** The repository root. */
export const root: URL = new URL("../../", import.meta.url);

/** Where and how to run a task. */
export interface TaskOptions {
  /** The directory the user is in (default the repository root). */
  readonly cwd?: string | URL;
  /** Standard input (default empty). */
  readonly stdin?: string;
  /** Name the repository's `deno.json` explicitly (for a `cwd` outside the repository). */
  readonly config?: boolean;
}

/**
 * Runs `deno task NAME ARGS...`. `INIT_CWD` is left out of the environment, so that
 * `deno task` sets it to `cwd` as it does for a user (a test run by `deno task test`
 * would otherwise pass on its own).
 */
export const runTask = async (
  name: string,
  args: readonly string[],
  options: TaskOptions = {},
): Promise<Ran> => {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  const config = options.config === true ? ["--config", new URL("deno.json", root).pathname] : [];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", ...config, name, ...args],
    cwd: options.cwd ?? root,
    clearEnv: true,
    env: { ...env, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(options.stdin ?? ""));
  await w.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
};
