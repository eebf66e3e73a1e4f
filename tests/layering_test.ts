/**
 * The layout's rules, checked on the import graph (type-only imports included): no
 * import circle anywhere; the core imports no plugin or program; the sequential searches
 * (`core/search/`) import neither the parallel layer nor the engine; the parallel layer
 * does not import the engine.
 */
import { assertEquals } from "../testing/deps.ts";
import { root } from "../testing/task.ts";

/** Every module under `mod.ts`, `core/`, `plugins/`, `scripts/`, `server/`, `cluster/`, by path. */
const modules = async (): Promise<Map<string, string[]>> => {
  const graph = new Map<string, string[]>();
  const visit = async (dir: string) => {
    for await (const e of Deno.readDir(new URL(dir, root))) {
      const path = `${dir}${e.name}`;
      if (e.isDirectory) await visit(`${path}/`);
      else if (e.name.endsWith(".ts")) graph.set(path, []);
    }
  };
  for (const dir of ["core/", "plugins/", "scripts/", "server/", "cluster/"]) await visit(dir);
  graph.set("mod.ts", []);
  // Import and re-export statements at the start of a line (not examples in comments).
  const statement = /^(?:import|export)\b[\s\w{},*$]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gm;
  for (const path of graph.keys()) {
    const text = await Deno.readTextFile(new URL(path, root));
    const deps: string[] = [];
    for (const m of text.matchAll(statement)) {
      deps.push(new URL(m[1], new URL(path, root)).href.slice(root.href.length));
    }
    graph.set(path, deps);
  }
  return graph;
};

/** The import circles: each as the list of modules on it. */
const circles = (graph: Map<string, string[]>): string[][] => {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const walk = (v: string) => {
    state.set(v, "open");
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (state.get(w) === "open") found.push([...stack.slice(stack.indexOf(w)), w]);
      else if (state.get(w) === undefined && graph.has(w)) walk(w);
    }
    stack.pop();
    state.set(v, "done");
  };
  for (const v of graph.keys()) if (state.get(v) === undefined) walk(v);
  return found;
};

Deno.test("no import circle, type-only imports included", async () => {
  assertEquals(circles(await modules()).map((c) => c.join(" -> ")), []);
});

Deno.test("the circle check finds a circle", () => {
  const graph = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]]]);
  assertEquals(circles(graph), [["a.ts", "b.ts", "c.ts", "a.ts"]]);
});

Deno.test("each layer imports only the layers below it", async () => {
  const rules: [string, string[]][] = [
    ["core/", ["plugins/", "scripts/", "mod.ts", "cluster/", "server/"]],
    ["cluster/", ["scripts/", "server/"]],
    ["core/search/", [
      "core/parallel/",
      "core/engine/",
      "core/players/",
      "core/match.ts",
      "core/tournament/",
    ]],
    ["core/parallel/", ["core/engine/", "core/players/", "core/match.ts", "core/tournament/"]],
    ["core/engine/", ["core/tournament/"]],
    ["core/players/", ["core/tournament/"]],
    ["plugins/", ["scripts/"]],
  ];
  const broken: string[] = [];
  for (const [path, deps] of await modules()) {
    for (const [layer, forbidden] of rules) {
      if (!path.startsWith(layer)) continue;
      for (const d of deps) {
        if (forbidden.some((f) => d.startsWith(f))) broken.push(`${path} imports ${d}`);
      }
    }
  }
  assertEquals(broken, []);
});
