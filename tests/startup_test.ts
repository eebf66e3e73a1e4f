/**
 * What the quick programs load at start (issue 66): `deno task analyze` and `deno task
 * play`, and the two threads they start (a game's plugin thread, a search worker), load
 * statically only what every run of them uses. Neither the cluster, the web server nor
 * the tournament modules, and of the plugins only the registry (whose games load on
 * demand, by dynamic `import()`). Counted on `deno info --json`'s graph, never timed.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { root } from "../testing/task.ts";
import { staticGraph } from "../testing/graph.ts";

/** The local modules a module imports statically, itself included, as paths from the root. */
const localGraph = async (file: string): Promise<string[]> =>
  [...await staticGraph(file)].filter((s) => s.startsWith(root.href))
    .map((s) => s.slice(root.href.length)).sort();

/**
 * Modules no quick program's start needs: the cluster, the server, tournaments, games (the
 * registry and each game's `about.ts`, plain data, aside).
 */
const UNNEEDED =
  /^(?:cluster\/|server\/|app\/tournament\/|scripts\/tournament|plugins\/(?!registry\.ts$|[^/]+\/about\.ts$))/;

/**
 * Each entry with the most local modules it may load statically (today's count and a
 * few to spare: a new import is fine, a new layer is not). Each `deps.ts` counts one more,
 * `core/no_async_context.ts`, which must run before Effect's modules and so is a module.
 */
const ENTRIES: readonly (readonly [file: string, most: number])[] = [
  ["scripts/analyze.ts", 43],
  ["scripts/play.ts", 49],
  // The threads every run starts: a built-in game's plugin thread, a search worker.
  ["core/host/rules.ts", 12],
  ["core/parallel/web_worker.ts", 20],
];

for (const [file, most] of ENTRIES) {
  Deno.test(`${file} loads at start only what every run uses`, async () => {
    const graph = await localGraph(file);
    assert(graph.includes(file), `${file} is its graph's root`);
    assertEquals(graph.filter((m) => UNNEEDED.test(m)), []);
    assert(
      graph.length <= most,
      `${file} loads ${graph.length} local modules statically (at most ${most}):\n` +
        graph.join("\n"),
    );
  });
}

Deno.test("the guard sees a program that loads the tournament modules", async () => {
  // match plays series with the tournament's runner: the test above would catch it.
  const graph = await localGraph("scripts/match.ts");
  assert(graph.some((m) => UNNEEDED.test(m)), graph.join("\n"));
});

for (const entry of ["scripts/start/play.ts", "scripts/start/analyze.ts"]) {
  Deno.test(`${entry} starts the game's thread before Effect loads: none in its static graph`, async () => {
    const graph = [...await staticGraph(entry)];
    assertEquals(graph.filter((s) => /^npm:|\/effect\//.test(s)), []);
    assert(graph.some((s) => s.endsWith("/core/host/thread.ts")), graph.join("\n"));
    assert(!graph.some((s) => s.endsWith("/core/deps.ts")), graph.join("\n"));
  });
}
