/**
 * The module graph as `deno info --json` reports it: what a module imports statically, for
 * tests that check which code a program or a thread loads at start.
 *
 * @module
 */
import { assertEquals } from "./deps.ts";
import { runCommand } from "./run.ts";
import { root } from "./task.ts";

/**
 * The modules `file` (a path from the repository's root) imports statically, itself
 * included, by specifier (`file:///...`, `npm:...`); dynamic `import()`s are left out.
 */
export const staticGraph = async (file: string): Promise<Set<string>> => {
  const r = await runCommand(Deno.execPath(), ["info", "--json", file], {
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "",
  });
  assertEquals(r.code, 0, r.stderr);
  const info = JSON.parse(r.stdout) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const walk = (s: string): void => {
    if (seen.has(s)) return;
    seen.add(s);
    for (const d of bySpecifier.get(s)?.dependencies ?? []) {
      if (d.code !== undefined && d.isDynamic !== true) walk(d.code.specifier);
    }
  };
  walk(info.roots[0]);
  return seen;
};
