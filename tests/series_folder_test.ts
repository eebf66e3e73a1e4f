/**
 * A series' folder and figures a tester can trust (issue 65, its local points), through
 * `deno task match|tournament` in subprocesses as a user runs them: one process per
 * `--out` folder (the second refused while the first holds it, shown by a handshake on
 * its first line, a killed one's lock taken over), every game counted once however often
 * the file holds it, openings that are not already lost (perfect play loses nothing),
 * tiny samples that say what cannot be estimated yet, a rerun of a finished folder that
 * keeps its figures, and a read-only or full disk as one line.
 */
import { fillDisk, withDisk } from "../testing/disk.ts";
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { runTask, startTask } from "../testing/task.ts";

const noTrace = (text: string) => {
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);
  assert(!text.includes("internal error"), `an internal error:\n${text}`);
};

const withDir = async (f: (dir: string) => Promise<void>) => {
  const dir = await Deno.makeTempDir({ prefix: "ply-folder-" });
  try {
    await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
};

/** A match of tic-tac-toe between two perfect players (every game a draw). */
const PERFECT = ["tictactoe", "--p1", "alphabeta:9", "--p2", "alphabeta:9"];

Deno.test("--out: a second process on the folder is refused, naming the first; a killed one's lock is taken over", async () => {
  await withDir(async (dir) => {
    // Far more games than the test lasts: it holds the folder until it is killed.
    const first = startTask(["match", ...PERFECT, "--games", "1000000", "--out", dir]);
    try {
      // Its first line comes once the folder is open (and locked).
      await first.waitFor("Playing 1000000 games");
      const second = await runTask("match", [...PERFECT, "--games", "2", "--out", dir]);
      assertEquals(second.code, 2, second.stdout + second.stderr);
      assert(!second.stdout.includes("Playing"), "the second plays nothing");
      const named = /is in use by process (\d+) \(deno task match, since [^)]+\)/.exec(
        second.stderr,
      );
      assert(named !== null, second.stderr);
      noTrace(second.stderr);
      // The process named is the first match's program.
      const cmdline = await Deno.readTextFile(`/proc/${named[1]}/cmdline`);
      assertStringIncludes(cmdline, "scripts/match.ts");
      assertStringIncludes(cmdline, "1000000");
    } finally {
      await first.kill();
      await first.done;
    }
    // Killed: its lock is taken over, in one line, and the series resumes.
    const third = await runTask("match", [...PERFECT, "--games", "2", "--out", dir, "--json"]);
    assertEquals(third.code, 0, third.stderr);
    assertStringIncludes(third.stderr, `--out: took over ${dir} from process `);
    assertStringIncludes(third.stderr, "which ended without releasing it");
    assertEquals(JSON.parse(third.stdout).games, 2);
    // Ended cleanly: the next one finds the folder free, and says nothing about it.
    const fourth = await runTask("match", [...PERFECT, "--games", "2", "--out", dir, "--json"]);
    assertEquals(fourth.code, 0, fourth.stderr);
    assertEquals(fourth.stderr.includes("took over"), false, fourth.stderr);
  });
});

Deno.test("--out: a games file holding each game twice counts each once", async () => {
  await withDir(async (dir) => {
    const args = ["tictactoe", "--players", "alphabeta:2", "random", "--rounds", "3"];
    const once = await runTask("tournament", [...args, "--out", dir, "--json"]);
    assertEquals(once.code, 0, once.stderr);
    const j = JSON.parse(once.stdout);
    assertEquals([j.games, j.results.players[0].games], [6, 6]);
    // Two processes wrote every game twice (before folders had a lock).
    const file = `${dir}/games.jsonl`;
    const text = await Deno.readTextFile(file);
    await Deno.writeTextFile(file, text + text);
    const again = await runTask("tournament", [...args, "--out", dir, "--json"]);
    assertEquals(again.code, 0, again.stderr);
    assertStringIncludes(again.stderr, "6 records of");
    const k = JSON.parse(again.stdout);
    assertEquals([k.games, k.scheduled, k.results.players[0].games], [6, 6, 6]);
    assertEquals(k.results, j.results);
    // The file holds each game once again.
    assertEquals(text, await Deno.readTextFile(file));
  });
});

Deno.test("openings: the perfect tic-tac-toe player loses no game from random openings", async () => {
  for (const seed of ["1", "2", "3"]) {
    const args = ["tictactoe", "--p1", "alphabeta:9", "--p2", "random", "--games", "20"];
    const r = await runTask("match", [...args, "--seed", seed, "--json"]);
    assertEquals(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assertEquals(j.games, 20);
    assertEquals(j.results.p1.losses, 0, `seed ${seed}: ${JSON.stringify(j.results.p1)}`);
    // The same seed, the same openings: a second run plays the same games.
    const again = JSON.parse((await runTask("match", [...args, "--seed", seed, "--json"])).stdout);
    assertEquals([again.pentanomial, again.bySeat], [j.pentanomial, j.bySeat]);
  }
});

Deno.test("tiny samples: what cannot be estimated yet is said, never +0 [+0, +0] or inf", async () => {
  const fake = /[+-]0 \[[+-]0, [+-]0\]|inf/;
  const runs = [
    ["match", ...PERFECT, "--games", "2"],
    ["match", "tictactoe", "--p1", "alphabeta:9", "--p2", "random", "--games", "1"],
    ["match", "tictactoe", "--p1", "alphabeta:9", "--p2", "random", "--games", "4"],
    ["tournament", "tictactoe", "--players", "alphabeta:9", "random", "alphabeta:2"],
  ];
  const texts: string[] = [];
  for (const [task, ...args] of runs) {
    const r = await runTask(
      task,
      [...args, "--rounds", "1"].filter((a, i, all) =>
        task === "tournament" || (a !== "--rounds" && all[i - 1] !== "--rounds")
      ),
    );
    assertEquals(r.code, 0, r.stderr);
    assert(!fake.test(r.stdout), `a sample too small printed as a measurement:\n${r.stdout}`);
    texts.push(r.stdout);
  }
  assertStringIncludes(texts[0], "Elo of --p1: cannot be estimated yet from 1 game pair");
  assertStringIncludes(texts[0], "(no interval yet)");
  assertStringIncludes(texts[1], "cannot be estimated yet from 1 game (scoring 100.0%)");
  assertStringIncludes(texts[3], "Elo cannot be estimated yet from 1 game pair");
});

Deno.test("rerun of a finished folder: its figures kept", async () => {
  await withDir(async (dir) => {
    const args = ["tictactoe", "--players", "alphabeta:3", "random", "--rounds", "3"];
    const first = await runTask("tournament", [...args, "--out", dir, "--json"]);
    assertEquals(first.code, 0, first.stderr);
    const j = JSON.parse(first.stdout);
    assertEquals(j.distinctOpenings, 3);
    const rerun = await runTask("tournament", [...args, "--out", dir, "--json"]);
    assertEquals(rerun.code, 0, rerun.stderr);
    const k = JSON.parse(rerun.stdout);
    for (const key of ["distinctOpenings", "wallSeconds", "gamesPerMinute", "overlap", "results"]) {
      assertEquals(k[key], j[key], key);
    }
    assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/results.json`)).distinctOpenings, 3);
    const text = await runTask("tournament", [...args, "--out", dir]);
    assertEquals(text.code, 0, text.stderr);
    assertStringIncludes(text.stdout, "6 of 6 games; this run played none");
    assert(!text.stdout.includes("games in progress"), text.stdout);
  });
});

/** The lines of standard error that say `error:`. */
const errorLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("error:"));

Deno.test("--out read-only: one line", async () => {
  await withDisk(async (disk) => {
    const out = `${disk}/series`;
    const args = ["tictactoe", "--p1", "alphabeta:2", "--p2", "random", "--out", out];
    const first = await runTask("match", [...args, "--games", "2"]);
    assertEquals(first.code, 0, first.stderr);
    const ro = await new Deno.Command("mount", { args: ["-o", "remount,ro", disk] }).output();
    assertEquals(ro.code, 0, new TextDecoder().decode(ro.stderr));
    const r = await runTask("match", [...args, "--games", "6"]);
    assert(r.code !== 0, r.stdout + r.stderr);
    noTrace(r.stdout + r.stderr);
    const errors = errorLines(r.stderr);
    assertEquals(errors.length, 1, r.stderr);
    assertStringIncludes(errors[0], `error: --out: cannot write in ${out}`);
    assertStringIncludes(errors[0], "Read-only file system");
  });
});

Deno.test("--out on a full disk: one line, and the folder resumes once there is room", async () => {
  await withDisk(async (disk) => {
    const out = `${disk}/series`;
    const args = ["tictactoe", "--p1", "alphabeta:2", "--p2", "random", "--out", out];
    const first = await runTask("match", [...args, "--games", "2"]);
    assertEquals(first.code, 0, first.stderr);
    await fillDisk(disk);
    const full = await runTask("match", [...args, "--games", "400"]);
    assertEquals(full.code, 1, full.stdout + full.stderr);
    noTrace(full.stdout + full.stderr);
    const errors = errorLines(full.stderr);
    assertEquals(errors.length, 1, full.stderr);
    assertStringIncludes(errors[0], `error: --out: cannot write ${out}/`);
    assertStringIncludes(errors[0], "No space left on device");
    // Room again: the folder reads back (a line cut short by the full disk dropped).
    await Deno.remove(`${disk}/filler`);
    const again = await runTask("match", [...args, "--games", "4", "--json"]);
    assertEquals(again.code, 0, again.stderr);
    assertEquals(JSON.parse(again.stdout).games, 4);
  });
});
