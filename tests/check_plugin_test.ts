/**
 * `deno task check-plugin` as a plugin author runs it: from a folder of their own outside
 * the repository, on a plugin file there that imports only ply's `plugin.ts` (by path, or
 * by URL from a server of the repository), and the same program run from its URL without
 * a clone. One line per check and a summary; exit 0 when all pass, 1 when one fails or
 * the module does not load, 2 on a usage mistake.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { root, runTask } from "../testing/task.ts";
import { runCommand } from "../testing/run.ts";
import { serveRepository } from "../testing/serve.ts";

const connect4 = await Deno.readTextFile(new URL("tests/fixtures/connect4.ts", root));

/** A folder outside the repository with `connect4.ts` importing ply's kit from `kit`. */
const userFolder = async (kit: string, files: Record<string, string> = {}) => {
  const dir = await Deno.makeTempDir({ prefix: "ply-author-" });
  assert(!dir.startsWith(new URL(".", root).pathname), "the folder is outside the repository");
  await Deno.writeTextFile(`${dir}/connect4.ts`, connect4.replace('"../../plugin.ts"', `"${kit}"`));
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
};

const kitPath = new URL("plugin.ts", root).pathname;

/** The environment without `INIT_CWD`. */
const withoutInitCwd = () => {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  return env;
};

/** The task from `dir` (with `--config` naming ply's deno.json, as from any folder). */
const check = (dir: string, ...args: string[]) =>
  runTask("check-plugin", args, { cwd: dir, config: true });

Deno.test("check-plugin: a plugin in the user's folder passes, one line per check", async () => {
  const dir = await userFolder(kitPath);
  try {
    const r = await check(dir, "./connect4.ts");
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trim().split("\n");
    assertEquals(lines.map((l) => l.split(" ")[0]), [
      "ok",
      "ok",
      "ok",
      "skip",
      "ok",
      "ok",
      "./connect4.ts:",
    ]);
    assertEquals(lines.at(-1), "./connect4.ts: all 5 checks passed");
    // Game options are flags, as in the other programs.
    const small = await check(dir, "connect4.ts", "--columns", "4", "--rows", "4", "--depth", "4");
    assertEquals(small.code, 0, small.stdout + small.stderr);
    assertStringIncludes(small.stdout, "alpha-beta agrees with minimax at depth 4");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check-plugin: a broken plugin fails, named with its function; exit 1", async () => {
  const broken = connect4.replace('"../../plugin.ts"', `"${kitPath}"`)
    .replace("? Result.succeed(c)", "? Result.succeed(c === 2 ? 3 : c)");
  const dir = await userFolder(kitPath, {
    "broken.ts": broken,
    "nothing.ts": "export const x = 1;\n",
  });
  try {
    const r = await check(dir, "./broken.ts");
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertStringIncludes(r.stdout, "FAIL  20 random playouts keep the protocol's invariants\n");
    assertStringIncludes(
      r.stdout,
      "        ./broken.ts: parseMove: move 2 written 'c' parses back as move 3 in playout 1",
    );
    assertStringIncludes(r.stdout, "./broken.ts: 1 of 6 checks failed");
    const json = await check(dir, "./broken.ts", "--json");
    assertEquals(json.code, 1);
    const report = JSON.parse(json.stdout);
    assertEquals(report.ok, false);
    assertEquals(report.checks[2].problems[0].fn, "parseMove");
    const nothing = await check(dir, "./nothing.ts");
    assertEquals(nothing.code, 1);
    assertStringIncludes(
      nothing.stdout,
      "./nothing.ts: the module is not a ply plugin: it has no default export",
    );
    const missing = await check(dir, "./missing.ts");
    assertEquals(missing.code, 1);
    assertStringIncludes(missing.stdout, "FAIL  the module loads\n        ./missing.ts: ");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check-plugin: usage mistakes exit 2 with one line", async () => {
  const dir = await userFolder(kitPath);
  try {
    const none = await check(dir);
    assertEquals(none.code, 2);
    assertStringIncludes(none.stderr, "error: name the plugin to check: its path or URL");
    const bad = await check(dir, "./connect4.ts", "--playouts", "0");
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "--playouts must be an integer from 1 to 100000, got '0'");
    assert(!bad.stderr.includes("    at "), "no stack trace");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check-plugin from its URL, without a clone: a plugin importing plugin.ts by URL", async () => {
  const { base, close } = serveRepository();
  const dir = await userFolder(`${base}/plugin.ts`);
  try {
    const run = (...args: string[]) =>
      runCommand(Deno.execPath(), ["run", "-A", `${base}/scripts/check_plugin.ts`, ...args], {
        cwd: dir,
        // A user's shell: no INIT_CWD (paths are the working directory's).
        clearEnv: true,
        env: { ...withoutInitCwd(), NO_COLOR: "1" },
        stdin: "",
      });
    const r = await run("./connect4.ts", "--playouts", "5");
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertStringIncludes(r.stdout, "./connect4.ts: all 5 checks passed");
    // A plugin given by its URL.
    const byUrl = await run(`${base}/tests/fixtures/connect4.ts`, "--playouts", "3");
    assertEquals(byUrl.code, 0, byUrl.stdout + byUrl.stderr);
    assertStringIncludes(byUrl.stdout, `${base}/tests/fixtures/connect4.ts: all 5 checks passed`);
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});
