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
    // Its plugin thread starts from a URL too; without the unstable worker options it
    // cannot be sandboxed, and says so; with them it is.
    assertStringIncludes(
      r.stderr,
      "note: without --unstable-worker-options a user's plugin cannot",
    );
    const sandboxed = await runCommand(Deno.execPath(), [
      "run",
      "-A",
      "--unstable-worker-options",
      `${base}/scripts/check_plugin.ts`,
      "./connect4.ts",
      "--playouts",
      "3",
    ], { cwd: dir, clearEnv: true, env: { ...withoutInitCwd(), NO_COLOR: "1" }, stdin: "" });
    assertEquals(sandboxed.code, 0, sandboxed.stdout + sandboxed.stderr);
    assertStringIncludes(sandboxed.stdout, "./connect4.ts: all 5 checks passed");
    assert(!sandboxed.stderr.includes("note:"), sandboxed.stderr);
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});

// The suite runs in the plugin's thread (`app/conformance_host.ts`), watched as every
// program's games are: the hostile plugins (`tests/fixtures/hostile/`, Nim 3,4,5 whose one
// function loops, allocates without end or reads a file once 10 or fewer stones are left)
// fail the check that met them, named with the function, and the report ends with its
// summary. A hostile call never returns: the limit is the proof of a hang, not a window.

const hostile = (fn: string) => `./tests/fixtures/hostile/${fn}.ts`;

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

Deno.test("check-plugin: a plugin that loops fails the check it hung, naming the function", async () => {
  // How many checks fail: the rules (none stated), the check that hung, and each later
  // check that meets the looping function again (render and parseMove: none).
  const failed: Record<string, number> = { moves: 5, play: 5, render: 2, parseMove: 2 };
  for (const fn of ["moves", "play", "render", "parseMove"]) {
    const r = await runTask("check-plugin", [hostile(fn), "--call-limit", "1"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertStringIncludes(
      r.stdout,
      "FAIL  20 random playouts keep the protocol's invariants\n" +
        `        ${hostile(fn)}: ${fn}: it did not return within 1 s (--call-limit changes it) ` +
        "in playout 1 after ",
    );
    // The looping thread is stopped: the checks after it run in a fresh thread.
    assert(!r.stdout.includes("skip  "), r.stdout);
    assertStringIncludes(r.stdout, `${hostile(fn)}: ${failed[fn]} of 6 checks failed\n`);
    noTrace(r.stdout + r.stderr);
  }
  const json = await runTask("check-plugin", [hostile("moves"), "--call-limit", "1", "--json"]);
  assertEquals(json.code, 1, json.stderr);
  const report = JSON.parse(json.stdout);
  assertEquals(report.checks[2].problems[0].fn, "moves");
  assertEquals(report.checks[5].problems[0].fn, "moves");
  assertEquals(report.checks.map((c: { skipped?: string }) => c.skipped !== undefined), [
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
});

Deno.test("check-plugin: a plugin that allocates without end fails at its memory limit", async () => {
  // No call limit to race: only the heap's end stops these threads.
  const limits = ["--memory", "64", "--call-limit", "600"];
  const r = await runTask("check-plugin", [hostile("moves"), "--mode", "oom", ...limits]);
  assertEquals(r.code, 1, r.stdout + r.stderr);
  assertStringIncludes(
    r.stdout,
    "FAIL  20 random playouts keep the protocol's invariants\n" +
      `        ${
        hostile("moves")
      }: moves: it ran out of memory (limit 64 MB; --memory changes it) ` +
      "in playout 1 after ",
  );
  // A thread out of memory is dead: the next checks run in a fresh one (and fail again).
  assertStringIncludes(
    r.stdout,
    `${
      hostile("moves")
    }: moves: it ran out of memory (limit 64 MB; --memory changes it) in game 1\n`,
  );
  assertStringIncludes(r.stdout, `${hostile("moves")}: 5 of 6 checks failed\n`);
  noTrace(r.stdout + r.stderr);
  // From its 5001st call in a thread on: the playouts run out, the fresh thread passes.
  const late = await runTask("check-plugin", [
    hostile("late_oom"),
    "--playouts",
    "2000",
    ...limits,
  ]);
  assertEquals(late.code, 1, late.stdout + late.stderr);
  assertStringIncludes(
    late.stdout,
    "FAIL  2000 random playouts keep the protocol's invariants\n" +
      `        ${
        hostile("late_oom")
      }: moves: it ran out of memory (limit 64 MB; --memory changes it) ` +
      "in playout ",
  );
  assertStringIncludes(late.stdout, "ok    transcripts replay and seeds repeat\n");
  assertStringIncludes(late.stdout, "ok    alpha-beta agrees with minimax at depth 3\n");
});

Deno.test("check-plugin: a user's plugin reads no file unless --plugin-allow read grants it", async () => {
  const refused = await runTask("check-plugin", [hostile("moves"), "--mode", "read"]);
  assertEquals(refused.code, 1, refused.stdout + refused.stderr);
  assertStringIncludes(
    refused.stdout,
    `        ${hostile("moves")}: moves: threw: Requires read access to "/etc/hostname"`,
  );
  const granted = await runTask("check-plugin", [
    hostile("moves"),
    "--mode",
    "read",
    "--plugin-allow",
    "read",
  ]);
  assertEquals(granted.code, 1, granted.stdout + granted.stderr);
  assertStringIncludes(granted.stdout, `        ${hostile("moves")}: moves: threw: read a file`);
  assert(!granted.stdout.includes("Requires read access"), granted.stdout);
});

Deno.test("check-plugin: a built-in game passes in its thread; --help names the limits", async () => {
  const r = await runTask("check-plugin", ["nim", "--playouts", "5"]);
  assertEquals(r.code, 0, r.stdout + r.stderr);
  assertStringIncludes(r.stdout, "ok    5 random playouts keep the protocol's invariants\n");
  assertStringIncludes(r.stdout, "nim: all 6 checks passed\n");
  const help = await runTask("check-plugin", ["--help"]);
  assertEquals(help.code, 0, help.stderr);
  for (const flag of ["--call-limit S", "--memory MB", "--plugin-allow L"]) {
    assertStringIncludes(help.stdout, flag);
  }
});
