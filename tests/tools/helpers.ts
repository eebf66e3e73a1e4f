/**
 * Helpers shared by the tests: running a program as a user does, and reaching random
 * positions of any game.
 *
 * @module
 */
import { CHANCE, type Game } from "../../core/game.ts";
import { makeRng } from "../../core/rng.ts";

const root = new URL("../../", import.meta.url);

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

/** The permission flags of the `deno.json` task that runs `script`. */
const taskPermissions = (script: string): string[] => {
  const config = JSON.parse(Deno.readTextFileSync(new URL("deno.json", root)));
  for (const command of Object.values(config.tasks as Record<string, string>)) {
    const words = command.split(" ");
    if (words[0] === "deno" && words[1] === "run" && words[words.length - 1] === script) {
      return words.slice(2, -1);
    }
  }
  throw new Error(`no task runs ${script}`);
};

/**
 * Runs a script from the repository root with arguments and standard input, with the
 * permissions of the task that runs it.
 */
export const runScript = (script: string, args: string[], stdin = ""): Promise<Ran> =>
  runCommand(Deno.execPath(), ["run", ...taskPermissions(script), script, ...args], {
    cwd: root,
    env: { NO_COLOR: "1", XDG_STATE_HOME: testStateHome },
    stdin,
  });

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

/** A random reachable position: up to `plies` random moves (chance included) from the start. */
export const randomPosition = <S>(game: Game<S>, seed: number, plies: number): S => {
  const rng = makeRng(seed);
  let s = game.initial();
  for (let i = 0; i < plies; i++) {
    const ms = game.toMove(s) === CHANCE ? game.chances(s).map((c) => c.move) : game.moves(s);
    if (ms.length === 0) break;
    s = game.play(s, ms[rng.int(ms.length)]);
  }
  return s;
};

/**
 * A reference: plain memoized minimax to the end (small chance-free games only). A
 * finished position is worth `leaf(s)`; a child's value passes through `step` on its
 * way up (to move decisive values one ply further, say).
 */
export const solveToEnd = <S>(
  game: Game<S>,
  leaf: (s: S) => number,
  step: (v: number) => number = (v) => v,
): (s: S) => number => {
  const memo = new Map<string, number>();
  const solve = (s: S): number => {
    const k = JSON.stringify(s);
    const known = memo.get(k);
    if (known !== undefined) return known;
    const ms = game.moves(s);
    let v: number;
    if (ms.length === 0) v = leaf(s);
    else {
      const vs = ms.map((m) => step(solve(game.play(s, m))));
      v = game.toMove(s) === 0 ? Math.max(...vs) : Math.min(...vs);
    }
    memo.set(k, v);
    return v;
  };
  return solve;
};

/** The exact final margin of a position for player 0 under perfect play (`solveToEnd`). */
export const exactMargin = <S>(game: Game<S>): (s: S) => number =>
  solveToEnd(game, (s) => game.outcome(s)!.margin);
