/**
 * The programs behave as a user expects of command-line tools, run as users run them
 * (`deno task NAME ...` in a subprocess, from a directory of their own): `deno task`
 * describes every task, every program answers `--help` with its usage before it reads,
 * writes or starts anything, and every file a program writes (`--out`, `--dir`,
 * `--chart`, `--save`, `save FILE`, the bench suites' files) lands where the user is,
 * not in the repository.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../testing/deps.ts";
import { readTasks, runCommand, testStateHome } from "../testing/run.ts";
import { root, runTask } from "../testing/task.ts";

/**
 * The tasks that run a program (`deno run ... SCRIPT`), by name; not the checks that run
 * a tool of the tests (`doc-lint`: `tests/tools/`).
 */
const programs = Object.entries(readTasks())
  .filter(([, t]) => t.command.startsWith("deno run ") && !/ tests\//.test(t.command))
  .map(([name]) => name);

/** A reference to a seed (a spec document), which a player's text never makes. */
const SEED_REFERENCE = /seed ?\d{3}/i;

/**
 * Every file under `dir` (the repository without `.git`, or the state folder) with its
 * size and modification time: what a program changed shows as a difference.
 */
const snapshot = (dir: URL | string): Map<string, string> => {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const e of Deno.readDirSync(at)) {
      const path = `${at}/${e.name}`;
      if (e.name === ".git" && at === base) continue;
      if (e.isDirectory) walk(path);
      else {
        const info = Deno.lstatSync(path);
        files.set(path.slice(base.length), `${info.size} ${info.mtime?.getTime()}`);
      }
    }
  };
  const base = (dir instanceof URL ? dir.pathname : dir).replace(/\/$/, "");
  walk(base);
  return files;
};

/** What changed between two snapshots: paths added, removed or rewritten. */
const changes = (before: Map<string, string>, after: Map<string, string>): string[] => [
  ...[...after].filter(([p, v]) => before.get(p) !== v).map(([p]) => p),
  ...[...before.keys()].filter((p) => !after.has(p)),
];

/** Runs `body` in a fresh directory of the user's, removed afterwards. */
const inTempDir = async (body: (dir: string) => Promise<void>): Promise<void> => {
  const dir = await Deno.makeTempDir({ prefix: "ply-user-" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
};

Deno.test("every task says what it does: deno task lists a description for each", async () => {
  for (const config of ["deno.json", "lab/deno.json"]) {
    const tasks = readTasks(new URL(config, root));
    assert(Object.keys(tasks).length > 0, config);
    for (const [name, task] of Object.entries(tasks)) {
      const d = task.description ?? "";
      assert(d.trim().length >= 10, `${config}: task ${name} has no description`);
      assert(!SEED_REFERENCE.test(d), `${config}: task ${name}: ${d}`);
    }
  }
  // And deno task shows them (its list, from a directory outside the repository).
  await inTempDir(async (dir) => {
    const config = new URL("deno.json", root).pathname;
    const listed = await runCommand(Deno.execPath(), ["task", "--config", config], {
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdin: "",
    });
    const text = listed.stdout + listed.stderr;
    for (const [name, task] of Object.entries(readTasks())) {
      assertStringIncludes(text, `- ${name}`);
      assertStringIncludes(text, task.description!);
    }
  });
});

Deno.test("every program prints its usage on --help and -h, exit 0, having done nothing else", async () => {
  const cases: string[][] = programs.map((name) => [name, "--help"]);
  // A program that names a game or a suite first, and the short form.
  cases.push(
    ["play", "kalah", "--help"],
    ["analyze", "pentago", "-h"],
    ["train", "2048", "--help"],
    ["render", "domineering", "--out", "x.svg", "--help"],
    ["kalah-db", "--dir", "db", "--help"],
    ["bench", "kalah", "--help"],
    ["bench", "-h"],
    ["kalah", "--runs", "0", "-h"],
    ["screenshots", "kalah", "--help"],
    ["tactics", "tictactoe", "--out", "t.jsonl", "--help"],
  );
  assert(programs.length >= 16, programs.join(" "));
  const repository = snapshot(root);
  const state = snapshot(testStateHome);
  await inTempDir(async (dir) => {
    for (const args of cases) {
      const what = `deno task ${args.join(" ")}`;
      const r = await runTask(args[0], args.slice(1), { cwd: dir, config: true });
      assertEquals(r.code, 0, `${what}: ${r.stdout}${r.stderr}`);
      assertStringIncludes(r.stdout, "Usage: deno task", what);
      assert(!r.stderr.includes("error"), `${what}: ${r.stderr}`);
      const said = SEED_REFERENCE.exec(r.stdout);
      assert(said === null, `${what} names a seed: ...${said?.input.slice(said.index - 60)}`);
      assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), [], `${what} wrote here`);
    }
  });
  // Nothing written in the repository (docs/img/web-*.png, out/) nor in the state folder.
  assertEquals(changes(repository, snapshot(root)), [], "files changed in the repository");
  assertEquals(changes(state, snapshot(testStateHome)), [], "files changed in the state folder");
});

Deno.test("every file a program writes lands where the user is (deno task from their directory)", async () => {
  const repository = snapshot(root);
  await inTempDir(async (dir) => {
    /** Runs a task from the user's directory; it must succeed. */
    const run = async (args: string[], stdin = "") => {
      const r = await runTask(args[0], args.slice(1), { cwd: dir, config: true, stdin });
      assertEquals(r.code, 0, `deno task ${args.join(" ")}: ${r.stdout}${r.stderr}`);
      return r;
    };
    const ttt = ["tictactoe", "--p1", "random", "--p2", "random"];
    await run(["render", "domineering", "--out", "board.svg"]);
    await run(["render", "domineering", "--board", "2x2", "--tree", "1"]); // the default name
    await run(["kalah-db", "--pits", "2", "--stones", "2", "--workers", "1", "--dir", "db"]);
    await run([
      "train",
      "2048",
      "--net",
      "5x4",
      "--games",
      "20",
      "--workers",
      "1",
      "--seed",
      "1",
      "--out",
      "net.w",
      "--chart",
      "curve.svg",
    ]);
    await run(["match", ...ttt, "--games", "2", "--out", "match"]);
    await run(["tournament", "tictactoe", "--players", "random", "alphabeta:1", "--rounds", "1"]
      .concat(["--out", "tournament"]));
    await run(["sprt", "tictactoe", "--new", "alphabeta:1", "--base", "random", "--max-games", "2"]
      .concat(["--out", "sprt"]));
    await run(["tactics", "tictactoe", "--count", "1", "--kinds", "win1", "--out", "t.jsonl"]);
    await run(["play", ...ttt, "--seed", "1", "--save", "game.json"]);
    // In a game, `save FILE`; then the saved game resumes from the same relative name.
    const saved = await run(["play", "nim", "--p1", "human", "--p2", "random"], "save mine.json\n");
    assertStringIncludes(saved.stdout, "Saved to mine.json.");
    await run(["review", "mine.json", "--json"]);
    await run(["bench", "pentago", "--quick", "--json", "bench/pentago.json"]);
    await run(
      ["bench", "domineering", "--attempt", "2x2", "--budget", "10s", "--state", "attempt.json"],
    );
    await run(["solve", "nim", "--heaps", "1,2", "--db", "solve.db", "--out", "nim.json"]);
    await run(["solve", "--verify", "nim.json"]);
    await run(["solve", "tictactoe", "--split", "1", "--db", "solve.db"]); // the default name
    const all = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    const named = all.filter((n) => n.startsWith("solve-"));
    assertEquals(named.length, 1, all.join(" "));
    assertMatch(named[0], /^solve-tic-tac-toe-[0-9a-f]{16}\.json$/);
    const made = all.filter((n) => !n.startsWith("solve-"));
    assertEquals(made, [
      "attempt.json",
      "bench",
      "board.svg",
      "curve.svg",
      "db",
      "domineering.svg",
      "game.json",
      "match",
      "mine.json",
      "net.w",
      "nim.json",
      "solve.db",
      "sprt",
      "t.jsonl",
      "tournament",
    ]);
    const inside = (sub: string) => [...Deno.readDirSync(`${dir}/${sub}`)].map((e) => e.name);
    assertEquals(inside("db"), ["kalah-p2-nonempty-s2.bin"]);
    assertEquals(inside("bench"), ["pentago.json"]);
    for (const series of ["match", "tournament", "sprt"]) {
      assert(inside(series).includes("games.jsonl"), `${series}: ${inside(series)}`);
    }
    assert(inside("tournament").includes("chart.svg"));
  });
  assertEquals(changes(repository, snapshot(root)), [], "files changed in the repository");
});
