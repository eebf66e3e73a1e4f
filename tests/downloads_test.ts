/**
 * What the programs download: only what they use. Deno installs every npm package of a
 * `deno.json` import map (of any workspace member's too) as soon as a program needs one
 * npm package, so an import map naming the test kit's packages (puppeteer-core, its
 * chromium-bidi and devtools-protocol, fast-check, ...) made a first `deno task play`
 * fetch about 35 MB it never runs. The test kit names its packages by full specifier in
 * `testing/` instead; these tests keep it so.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { readTasks, runCommand, testStateHome } from "../testing/run.ts";
import { root } from "../testing/task.ts";

/**
 * The npm packages the product uses: Effect, the cluster's PostgreSQL client, and `ws`
 * for the web server's WebSockets (`server/transport.ts`). A new one belongs here only if
 * a program really runs it.
 */
const PRODUCT_PACKAGES = new Set(["effect", "@effect/sql-pg", "ws"]);

/** What `deno info --json` says of a module graph (the fields read here). */
interface Info {
  readonly modules: readonly { readonly specifier: string }[];
  readonly npmPackages: Readonly<
    Record<string, { readonly name: string; readonly version: string; readonly localPath?: string }>
  >;
}

/** The module graph of `file` (relative to the repository), as Deno resolves it to run it. */
const graphOf = async (file: string): Promise<Info> => {
  const r = await runCommand(Deno.execPath(), ["info", "--json", file], {
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "",
  });
  assertEquals(r.code, 0, `deno info ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout);
};

/** The script a task runs (the last word of its `deno run` command). */
const scriptOf = (command: string): string => command.split(" ").at(-1)!;

/**
 * The modules the product starts as workers (`new Worker(new URL("./x.ts",
 * import.meta.url))`, or as plugin threads: `spawnPluginThread(new URL(...))`,
 * `webThread(new URL(...))`), which `deno info` does not follow from the programs: every such
 * call in the product's folders.
 */
const workerEntries = (): string[] => {
  const found: string[] = [];
  const walk = (dir: URL) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir));
      else if (e.name.endsWith(".ts")) {
        const file = new URL(e.name, dir);
        const text = Deno.readTextFileSync(file);
        // A worker's module is named where it starts, or as a module constant (`RULES_MODULE`).
        const starts =
          /(?:(?:new Worker|spawnPluginThread|webThread)\(\s*|export const [A-Z_]+: URL = )new URL\("([^"]+\.ts)", import\.meta\.url\)/g;
        for (const m of text.matchAll(starts)) {
          found.push(new URL(m[1], file).pathname.slice(root.pathname.length));
        }
      }
    }
  };
  for (const dir of ["core", "app", "plugins", "scripts", "server", "cluster", "web"]) {
    walk(new URL(`${dir}/`, root));
  }
  return found;
};

Deno.test("no program's module graph holds a test package: only the product's npm packages", async () => {
  const programs = Object.values(readTasks())
    .filter((t) => t.command.startsWith("deno run ") && !/ (tests|testing)\//.test(t.command))
    .map((t) => scriptOf(t.command));
  const workers = workerEntries();
  for (
    const entry of [
      "core/parallel/web_worker.ts",
      "core/parallel/node_worker.ts",
      "core/host/rules.ts",
      "app/conformance_thread.ts",
    ]
  ) {
    assert(workers.includes(entry), workers.join(" "));
  }
  // The page is bundled for the browser at the server's start.
  const entries = [...programs, ...workers, "web/page.ts"];
  assert(entries.includes("scripts/start/play.ts") && entries.length >= 18, entries.join(" "));
  const strays: string[] = [];
  for (const file of entries) {
    const { npmPackages } = await graphOf(file);
    for (const p of Object.values(npmPackages)) {
      if (!PRODUCT_PACKAGES.has(p.name)) strays.push(`${file}: ${p.name}@${p.version}`);
    }
  }
  assertEquals(strays, [], "npm packages no program uses");
});

Deno.test("a first deno task play on a fresh machine fetches nothing it does not run", async () => {
  // A fresh Deno cache holding only what play's graph needs, copied from this machine's;
  // the npm registry is a closed port on this machine, so that fetching anything else
  // (a test package, say) fails the run, and nothing goes beyond the loopback.
  const fresh = await Deno.makeTempDir({ prefix: "ply-deno-dir-" });
  const home = await Deno.makeTempDir({ prefix: "ply-home-" });
  try {
    const registry = "http://localhost:9/";
    const npm = `${fresh}/npm/localhost_9`; // Deno's folder for that registry
    const { modules, npmPackages } = await graphOf("scripts/start/play.ts");
    const copied: string[] = [];
    for (const p of Object.values(npmPackages)) {
      assert(p.localPath !== undefined, `${p.name} is not in this machine's cache`);
      const into = `${npm}/${p.name}`;
      await Deno.mkdir(into, { recursive: true });
      await Deno.copyFile(`${p.localPath}/../registry.json`, `${into}/registry.json`);
      const cp = await new Deno.Command("cp", { args: ["-R", p.localPath, `${into}/`] }).output();
      assert(cp.success, new TextDecoder().decode(cp.stderr));
      copied.push(p.name);
    }
    assertEquals(copied, ["effect"], "play runs on Effect alone");
    // Remote modules (JSR's, unless a local mirror serves them: JSR_URL) from the cache.
    if (modules.some((m) => /^https?:/.test(m.specifier))) {
      const info = await runCommand(Deno.execPath(), ["info", "--json"], {
        cwd: root,
        env: {},
        stdin: "",
      });
      const remote = JSON.parse(info.stdout).modulesCache as string;
      const cp = await new Deno.Command("cp", { args: ["-R", remote, `${fresh}/remote`] }).output();
      assert(cp.success, new TextDecoder().decode(cp.stderr));
    }
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: home, // no ~/.npmrc to name another registry
      NO_COLOR: "1",
      DENO_DIR: fresh,
      NPM_CONFIG_REGISTRY: registry,
      XDG_STATE_HOME: testStateHome,
    };
    const jsr = Deno.env.get("JSR_URL");
    if (jsr !== undefined) env.JSR_URL = jsr;
    const args = ["tictactoe", "--p1", "random", "--p2", "random", "--seed", "1"];
    const r = await runCommand(
      Deno.execPath(),
      ["task", "--config", new URL("deno.json", root).pathname, "play", ...args],
      { cwd: home, env, clearEnv: true, stdin: "" },
    );
    assertEquals(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assertStringIncludes(r.stdout, "Replay: deno task play tictactoe --p1 random --p2 random");
    assert(!r.stderr.includes("Download"), r.stderr);
    // Nothing else was put in the cache's npm folder (a failed fetch leaves no folder
    // either; the run's exit code is the real check).
    assertEquals([...Deno.readDirSync(npm)].map((e) => e.name), ["effect"]);
  } finally {
    await Deno.remove(fresh, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});
