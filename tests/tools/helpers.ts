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

/** Runs a script from the repository root with arguments and standard input. */
export const runScript = async (script: string, args: string[], stdin = ""): Promise<Ran> => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-import", "--allow-write", script, ...args],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
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
