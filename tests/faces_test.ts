/**
 * The public faces (`deno.json` `exports`): each an explicit list of named re-exports with
 * module documentation and examples, none growing silently (its public names, as `deno
 * doc --json` counts them, within a bound), and none exporting ply's internals.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { root } from "../testing/task.ts";

/**
 * The most public names each face may have: raise a bound only on purpose. (Raised twice:
 * the strategy as a tagged union, `SequentialStrategy | ParallelStrategy` over
 * `StrategyInfo` and `BudgetKind`, and a game's `GameSource` as explicit data with
 * `openGame`, `ParallelUnavailable` and `SearchError`; then `PluginFault`, the plugin's
 * exception that a played game's `fault` names; then a game's clock, `TimeControl` and
 * the `ClockView` an agent is shown; and in `plugin.ts`, `runsOf`, which finds the winning
 * lines a picture's `decisive` marks; and `FastGame`, the cursor of a game's optional fast
 * path, which a plugin author types `Game.fast` with, in `mod.ts` and `engine.ts` too,
 * whose `Game` names it.)
 */
const BOUNDS: Readonly<Record<string, number>> = {
  "mod.ts": 66,
  "plugin.ts": 52,
  "engine.ts": 32,
};

/** Internals that no face may export (hash lanes, table layout, guard slots, wire types). */
const INTERNALS = [
  "laneA",
  "laneB",
  "finish53",
  "fmix32",
  "mix32",
  "LANE_A_SEED",
  "ENTRY_BYTES",
  "EXACT",
  "sharedSlot",
  "runningFunction",
  "GuardSlot",
  "Task",
  "TaskResult",
  "WireOptions",
  "deepen",
  "SearchStopped",
  "userCwd",
  "rememberSource",
];

const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));

/** The TypeScript faces `deno.json` exports (its programs left out). */
const faces = (Object.values(config.exports) as string[])
  .filter((p) => !p.startsWith("./scripts/"))
  .map((p) => p.replace(/^\.\//, ""));

/** A face's public names, from `deno doc --json`. */
const publicNames = async (face: string): Promise<string[]> => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", face],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const json = JSON.parse(new TextDecoder().decode(out.stdout));
  const file = Object.values(json.nodes)[0] as { symbols: { name: string }[] };
  return file.symbols.map((s) => s.name).sort();
};

Deno.test("deno.json exports the three faces and the check-plugin program", () => {
  assertEquals(config.exports, {
    ".": "./mod.ts",
    "./plugin": "./plugin.ts",
    "./engine": "./engine.ts",
    "./check-plugin": "./scripts/check_plugin.ts",
  });
  assertEquals(Object.keys(BOUNDS).sort(), [...faces].sort());
});

for (const face of Object.keys(BOUNDS)) {
  Deno.test(`${face}: named re-exports only, documented with examples, within its bound`, async () => {
    const text = await Deno.readTextFile(new URL(face, root));
    assert(!/^export \*/m.test(text), `${face} must list its names (no export *)`);
    const code = text.replace(/\/\*\*[\s\S]*?\*\//g, "");
    for (const line of code.split("\n").filter((l) => /^export\b/.test(l))) {
      assert(/^export (type )?\{/.test(line), `${face}: only re-export lists, got: ${line}`);
    }
    const doc = /^\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? "";
    assert(doc.includes("@module"), `${face} needs a module doc`);
    assert((doc.match(/@example/g) ?? []).length >= 2, `${face} needs examples`);
    const names = await publicNames(face);
    console.log(`${face}: ${names.length} public names`);
    assert(
      names.length <= BOUNDS[face],
      `${face} has ${names.length} public names, more than its bound ${BOUNDS[face]}: ` +
        names.join(", "),
    );
    const leaked = names.filter((n) => INTERNALS.includes(n));
    assertEquals(leaked, [], `${face} exports internals`);
  });
}
