/**
 * Every game of `deno task play` with a person in it is durable, as a user runs it in a
 * subprocess: saved after every move (read back after each, once the next prompt is
 * shown), kept through SIGTERM (exit 143), SIGHUP (129) and `kill -9`, in a file of its
 * own when games start in the same second, shown on standard error when it cannot be
 * saved (a non-zero exit), and saved by `--save` and `save FILE` into folders made for
 * them. Waits are for output (handshakes), never for time.
 */
import { fillDisk, withDisk } from "../testing/disk.ts";
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { type Job, runTask, startTask } from "../testing/task.ts";
import { autosaveStem } from "../app/files.ts";

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

/** Two people at tic-tac-toe: each prompt names whose move it is. */
const people = ["tictactoe", "--p1", "human", "--p2", "human", "--seed", "3"];

/** Resolves once `text` has been printed `n` times (checked as output arrives). */
const waitForNth = async (job: Job, text: string, n: number): Promise<void> => {
  while (job.output().split(text).length - 1 < n) {
    // Not yet: look again once more output may have come (a wait for an event, not a time).
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The autosave file the game announced at its start. */
const autosaveOf = async (job: Job): Promise<string> => {
  await job.waitFor("Saved after every move to ");
  await job.waitFor(".json\n");
  const m = job.output().match(/Saved after every move to (\S+\.json)\n/);
  assert(m !== null, job.output());
  return m[1];
};

const movesIn = (path: string): string[] =>
  JSON.parse(Deno.readTextFileSync(path)).moves.map((m: { notation: string }) => m.notation);

/** Starts two people's game and plays b2 and a1, checking the file after each move. */
const twoMoves = async (job: Job): Promise<string> => {
  const file = await autosaveOf(job);
  await job.waitFor("X to move (or help): ");
  assertEquals(movesIn(file), [], "saved before the first move");
  await job.type("b2\n");
  await job.waitFor("O to move (or help): ");
  assertEquals(movesIn(file), ["b2"], "saved after the first move");
  await job.type("a1\n");
  await waitForNth(job, "X to move (or help): ", 2);
  assertEquals(movesIn(file), ["b2", "a1"], "saved after the second move");
  return file;
};

Deno.test("play: a game with a person in it is saved after every move", async () => {
  const job = startTask(["play", ...people]);
  const file = await twoMoves(job);
  await job.type("quit\n");
  const { code, out, err } = await job.done;
  assertEquals(code, 0, err);
  assertStringIncludes(out, `Saved to ${file}.`);
  assertEquals(JSON.parse(Deno.readTextFileSync(file)).result.reason, "quit");
  noTrace(out + err);
});

for (const [signal, exit] of [["TERM", 143], ["HUP", 129]] as const) {
  Deno.test(`play: SIG${signal} during a game saves it and exits ${exit}`, async () => {
    const job = startTask(["play", ...people]);
    const file = await twoMoves(job);
    await job.signal(signal);
    const { code, out, err } = await job.done;
    assertEquals(code, exit, out + err);
    assertStringIncludes(out, "Interrupted; the game stops here.");
    assertStringIncludes(out, `Saved to ${file}.`);
    const t = JSON.parse(Deno.readTextFileSync(file));
    assertEquals(t.moves.map((m: { notation: string }) => m.notation), ["b2", "a1"]);
    assertEquals(t.result.reason, "interrupted");
    noTrace(out + err);
  });
}

Deno.test("play: kill -9 after two moves: the autosave holds them, and --load resumes it", async () => {
  const job = startTask(["play", ...people]);
  const file = await twoMoves(job);
  await job.kill();
  await job.done;
  assertEquals(movesIn(file), ["b2", "a1"]);
  const resumed = await runTask("play", ["--load", file], { stdin: "quit\n" });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stdout, "X (human) vs O (human), seed 3");
  assertStringIncludes(resumed.stdout, "X gave up; O wins.");
});

Deno.test("play: three games started in the same second are saved in three files", async () => {
  const state = await Deno.makeTempDir();
  const folder = `${state}/ply/games`;
  await Deno.mkdir(folder, { recursive: true });
  // Every name the games could take in the next two minutes is taken already: each game
  // meets a name of its second in use, as a game of the same second would hold it.
  const now = Date.now();
  const taken = new Set<string>();
  for (let s = -1; s < 120; s++) {
    const name = `${autosaveStem("tictactoe", new Date(now + s * 1000))}.json`;
    taken.add(name);
    await Deno.writeTextFile(`${folder}/${name}`, "another game's\n");
  }
  const games = await Promise.all(
    [0, 1, 2].map(() =>
      runTask("play", ["tictactoe", "--p1", "human", "--p2", "human"], {
        stdin: "b2\nquit\n",
        env: { XDG_STATE_HOME: state },
      })
    ),
  );
  const files = games.map((g) => {
    assertEquals(g.code, 0, g.stderr);
    const m = g.stdout.match(/Saved to (\S+)\. Resume/);
    assert(m !== null, g.stdout);
    return m[1];
  });
  assertEquals(new Set(files).size, 3, files.join(" "));
  for (const f of files) {
    assert(!taken.has(f.replace(/^.*\//, "")), `${f} took another game's name`);
    assertEquals(movesIn(f), ["b2"]);
  }
  for (const name of taken) {
    assertEquals(await Deno.readTextFile(`${folder}/${name}`), "another game's\n");
  }
  await Deno.remove(state, { recursive: true });
});

Deno.test("play: a save that fails shows the game on standard error and exits non-zero", async () => {
  // A state folder under a regular file cannot be made, not even by root.
  const file = await Deno.makeTempFile();
  const r = await runTask("play", people, {
    stdin: "b2\na1\n",
    env: { XDG_STATE_HOME: file },
  });
  assertEquals(r.code, 1, r.stdout + r.stderr);
  const [line, ...json] = r.stderr.slice(r.stderr.indexOf("error: ")).split("\n");
  assertStringIncludes(line, `error: could not make a file in ${file}/ply/games: `);
  assertStringIncludes(line, "the game follows as JSON");
  const t = JSON.parse(json.join("\n"));
  assertEquals(t.moves.map((m: { notation: string }) => m.notation), ["b2", "a1"]);
  assert(!r.stdout.includes("Saved to"), r.stdout);
  noTrace(r.stdout + r.stderr);
  await Deno.remove(file);
});

Deno.test("play: --save FILE and save FILE make the folders they need; under a file, --save is refused", async () => {
  const dir = await Deno.makeTempDir();
  const r = await runTask("play", [...people, "--save", `${dir}/a/b/game.json`], {
    stdin: `b2\nsave ${dir}/c/d/early.json\n`,
  });
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, `Saved to ${dir}/c/d/early.json.`);
  assertEquals(movesIn(`${dir}/c/d/early.json`), ["b2"]);
  assertEquals(movesIn(`${dir}/a/b/game.json`), ["b2"]);
  await Deno.writeTextFile(`${dir}/plain`, "");
  const bad = await runTask("play", [...people, "--save", `${dir}/plain/game.json`]);
  assertEquals(bad.code, 2, bad.stderr);
  assertStringIncludes(bad.stderr, `--save ${dir}/plain/game.json: cannot make the folder`);
  noTrace(bad.stderr);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("play --load continues the random stream where the saved game left it; older files still load", async () => {
  const dir = await Deno.makeTempDir();
  const game = ["tictactoe", "--p1", "human", "--p2", "random", "--seed", "13"];
  const replies = (out: string) => [...out.matchAll(/O plays (\w+)/g)].map((m) => m[1]);
  // The game played in one go: O's replies to b2 and c1.
  const whole = await runTask("play", game, { stdin: "b2\nc1\n" });
  assertEquals(whole.code, 0, whole.stderr);
  const [first, second] = replies(whole.stdout);
  // The same game stopped after b2 and resumed: the same second reply.
  const file = `${dir}/game.json`;
  const part = await runTask("play", [...game, "--save", file], { stdin: "b2\n" });
  assertEquals(replies(part.stdout), [first]);
  const saved = JSON.parse(await Deno.readTextFile(file));
  assertEquals(saved.draws, 1, "the random player drew one number");
  const resumed = await runTask("play", ["--load", file], { stdin: "c1\n" });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertEquals(replies(resumed.stdout), [second]);
  // A file without the field (written before it) loads; its stream starts again.
  delete saved.draws;
  await Deno.writeTextFile(`${dir}/old.json`, JSON.stringify(saved));
  const old = await runTask("play", ["--load", `${dir}/old.json`], { stdin: "c1\n" });
  assertEquals(old.code, 0, old.stderr);
  const [again] = replies(old.stdout);
  assert(again !== undefined && again !== second, `seed 13 draws another reply from the start`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("play: on a full disk, saving over a game leaves the old save whole", async () => {
  // A small tmpfs, filled: CI runs as root, which may mount one (the test fails if not).
  await withDisk(async (disk) => {
    const file = `${disk}/game.json`;
    const first = await runTask("play", [...people, "--save", file], { stdin: "b2\n" });
    assertEquals(first.code, 0, first.stderr);
    const old = await Deno.readTextFile(file);
    assertEquals(movesIn(file), ["b2"]);
    await fillDisk(disk);
    const second = await runTask("play", [...people, "--save", file], { stdin: "a1\nc3\n" });
    assertEquals(second.code, 1, second.stdout + second.stderr);
    assertStringIncludes(second.stderr, "the game follows as JSON");
    noTrace(second.stdout + second.stderr);
    // The old save is as it was, and no temporary file is left beside it.
    assertEquals(await Deno.readTextFile(file), old);
    const names = [...Deno.readDirSync(disk)].map((e) => e.name).sort();
    assertEquals(names, ["filler", "game.json"]);
  });
});
