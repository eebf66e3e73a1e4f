/**
 * The layout's rules (core/README.md), checked on the import graph of every module in the
 * repository, type-only and dynamic imports (`import("...")`) included:
 *
 * - no import circle anywhere;
 * - the kernel (`core/`) imports nothing above it: no application, plugin, program, face
 *   or lab module; inside it, the sequential searches import neither the parallel layer
 *   nor the engine, and the parallel layer does not import the engine;
 * - the application layer (`app/`) imports no program (`scripts/`, `server/`,
 *   `cluster/`, a game's own `scripts/`), no face and no lab module, and of the plugins
 *   only the registry of the built-in games;
 * - a game (every module a plugin's `mod.ts` reaches) imports no application or program
 *   module: a game's own programs (`plugins/GAME/scripts/`) are shells like `scripts/`;
 * - the web server imports no command-line program; the runners none either;
 * - nothing imports the lab (`lab/`) but the lab itself;
 * - the benchmarks import no test; the product imports neither the tests nor the testing kit.
 */
import { assertEquals } from "../testing/deps.ts";
import { root } from "../testing/task.ts";

/** The folders whose modules the graph holds. */
const FOLDERS = [
  "core/",
  "app/",
  "plugins/",
  "scripts/",
  "server/",
  "cluster/",
  "web/",
  "bench/",
  "lab/",
  "tests/",
  "testing/",
];

/** The faces at the top level. */
const FACES = ["mod.ts", "plugin.ts", "engine.ts"];

/** Import and re-export statements at the start of a line, and dynamic imports of a path. */
const STATIC = /^(?:import|export)\b[\s\w{},*$]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gm;
const DYNAMIC = /\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

/** The relative imports of a module's text, as paths from the repository root. */
export const importsOf = (path: string, text: string): string[] => {
  // Examples in JSDoc comments are not imports of the module.
  const code = text.replace(/\/\*\*[\s\S]*?\*\//g, "");
  const base = new URL(path, root);
  return [...code.matchAll(STATIC), ...code.matchAll(DYNAMIC)].map((m) =>
    new URL(m[1], base).href.slice(root.href.length)
  );
};

/** Every module of `FOLDERS` and the faces, by path, with its imports. */
const modules = async (): Promise<Map<string, string[]>> => {
  const graph = new Map<string, string[]>();
  const visit = async (dir: string) => {
    for await (const e of Deno.readDir(new URL(dir, root))) {
      const path = `${dir}${e.name}`;
      if (e.isDirectory) await visit(`${path}/`);
      else if (e.name.endsWith(".ts")) graph.set(path, []);
    }
  };
  for (const dir of FOLDERS) await visit(dir);
  for (const face of FACES) {
    try {
      await Deno.stat(new URL(face, root));
      graph.set(face, []);
    } catch { /* not there */ }
  }
  for (const path of graph.keys()) {
    graph.set(path, importsOf(path, await Deno.readTextFile(new URL(path, root))));
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

/** The modules `from` reaches through its imports, itself included. */
const reach = (graph: Map<string, string[]>, from: readonly string[]): Set<string> => {
  const seen = new Set<string>();
  const todo = [...from];
  while (todo.length > 0) {
    const v = todo.pop()!;
    if (seen.has(v) || !graph.has(v)) continue;
    seen.add(v);
    todo.push(...graph.get(v)!);
  }
  return seen;
};

/** A game's own programs: `plugins/GAME/scripts/...`. */
const isGameProgram = (path: string) => /^plugins\/[^/]+\/scripts\//.test(path);

/** The product's modules: everything but the lab, the tests, the testing kit and the benches. */
const isProduct = (path: string) =>
  !["lab/", "tests/", "testing/", "bench/"].some((d) => path.startsWith(d));

/** Each rule: the modules it covers, and the imports it forbids them. */
const RULES: readonly {
  readonly what: string;
  readonly covers: (path: string) => boolean;
  readonly forbids: (dep: string) => boolean;
}[] = [
  {
    what: "the kernel imports nothing above it",
    covers: (p) => p.startsWith("core/"),
    forbids: (d) => !d.startsWith("core/"),
  },
  {
    what: "the sequential searches import neither the parallel layer nor the engine",
    covers: (p) => p.startsWith("core/search/"),
    forbids: (d) => d.startsWith("core/parallel/") || d.startsWith("core/engine/"),
  },
  {
    what: "the parallel layer does not import the engine",
    covers: (p) => p.startsWith("core/parallel/"),
    forbids: (d) => d.startsWith("core/engine/"),
  },
  {
    what: "the application layer imports no program, face or lab, and only the registry of games",
    covers: (p) => p.startsWith("app/"),
    forbids: (d) =>
      ["scripts/", "server/", "cluster/", "lab/", "web/", "tests/", "testing/", "bench/"]
        .some((f) => d.startsWith(f)) ||
      FACES.includes(d) ||
      (d.startsWith("plugins/") && d !== "plugins/registry.ts"),
  },
  {
    what: "the web server imports no command-line program",
    covers: (p) => p.startsWith("server/"),
    forbids: (d) => d.startsWith("scripts/") || isGameProgram(d) || d.startsWith("cluster/"),
  },
  {
    what: "the runners import no command-line program",
    covers: (p) => p.startsWith("cluster/"),
    forbids: (d) => d.startsWith("scripts/") || isGameProgram(d) || d.startsWith("server/"),
  },
  {
    what: "the benchmarks import no test",
    covers: (p) => p.startsWith("bench/"),
    forbids: (d) => d.startsWith("tests/") || d.startsWith("lab/"),
  },
  {
    what: "the product imports neither the lab, the tests, the testing kit nor the benches",
    covers: (p) => isProduct(p) && !p.startsWith("scripts/bench.ts"),
    forbids: (d) => !isProduct(d),
  },
];

/** What breaks the rules in `graph`, one line per import. */
const broken = (graph: Map<string, string[]>): string[] => {
  const found: string[] = [];
  for (const [path, deps] of graph) {
    for (const rule of RULES) {
      if (!rule.covers(path)) continue;
      for (const d of deps) {
        if (rule.forbids(d)) found.push(`${path} imports ${d} (${rule.what})`);
      }
    }
  }
  // A game: every module its plugin reaches (the registry reaches every built-in game).
  const games = [...graph.keys()].filter((p) => /^plugins\/[^/]+\/mod\.ts$/.test(p));
  for (const m of reach(graph, [...games, "plugins/registry.ts"])) {
    for (const d of graph.get(m) ?? []) {
      if (!d.startsWith("core/") && !d.startsWith("plugins/")) {
        found.push(`${m} imports ${d} (a game imports only the kernel and plugins)`);
      } else if (isGameProgram(d)) {
        found.push(`${m} imports ${d} (a game does not import its programs)`);
      }
    }
  }
  return found;
};

Deno.test("no import circle, type-only and dynamic imports included", async () => {
  assertEquals(circles(await modules()).map((c) => c.join(" -> ")), []);
});

Deno.test("the circle check finds a circle", () => {
  const graph = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]]]);
  assertEquals(circles(graph), [["a.ts", "b.ts", "c.ts", "a.ts"]]);
});

Deno.test("imports: static, type-only and dynamic, not those of examples in comments", () => {
  const text = `/**\n * import { x } from "./example.ts";\n */\n` +
    `import { a } from "./a.ts";\nimport type { B } from "../core/b.ts";\n` +
    `export * from "./c.ts";\nconst d = () => import("./d.ts");\n`;
  assertEquals(importsOf("app/x.ts", text).sort(), [
    "app/a.ts",
    "app/c.ts",
    "app/d.ts",
    "core/b.ts",
  ]);
});

Deno.test("each layer imports only the layers below it", async () => {
  assertEquals(broken(await modules()), []);
});

Deno.test("the rules catch each kind of wrong import", () => {
  const graph = new Map<string, string[]>([
    ["core/game.ts", ["app/session.ts"]],
    ["core/search/alphabeta.ts", ["core/engine/engine.ts"]],
    ["app/session.ts", ["scripts/play.ts"]],
    ["app/review.ts", ["plugins/kalah/mod.ts"]],
    ["server/room.ts", ["scripts/review.ts"]],
    ["bench/web_load.ts", ["tests/tools/helpers.ts"]],
    ["scripts/play.ts", ["lab/game2048/games.ts"]],
    ["plugins/kalah/mod.ts", ["plugins/kalah/rules.ts"]],
    ["plugins/kalah/rules.ts", ["app/terminal.ts"]],
    ["plugins/kalah/scripts/kalah.ts", ["app/terminal.ts"]],
  ]);
  const found = broken(graph).map((line) => line.split(" (")[0]);
  assertEquals(found.sort(), [
    "app/review.ts imports plugins/kalah/mod.ts",
    "app/session.ts imports scripts/play.ts",
    "bench/web_load.ts imports tests/tools/helpers.ts",
    "core/game.ts imports app/session.ts",
    "core/search/alphabeta.ts imports core/engine/engine.ts",
    "plugins/kalah/rules.ts imports app/terminal.ts",
    "scripts/play.ts imports lab/game2048/games.ts",
    "server/room.ts imports scripts/review.ts",
  ]);
});
