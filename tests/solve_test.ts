/**
 * `deno task solve`, as a user runs it: a split solve agrees with the whole solve
 * (`analyze --solve`) on games of every kind (a margin, a draw, wins with and without a
 * distance); a paused solve resumes from its store and solves only the rest; a
 * certificate verifies, and a tampered one names what is wrong; SIGTERM while a unit is
 * in progress ends it cleanly, losing only that unit (the unit is held by a gate the test
 * opens: a handshake, not a delay).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../testing/deps.ts";
import { runTask, startTask } from "../testing/task.ts";

/** A fresh folder for a test's store and certificates. */
const withDir = async (f: (dir: string) => Promise<void>) => {
  const dir = await Deno.makeTempDir({ prefix: "ply-solve-" });
  try {
    await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
};

/** A solve's JSON summary (and the run, for messages). */
const solveJson = async (args: readonly string[], dir: string) => {
  const r = await runTask("solve", [...args, "--db", `${dir}/solve.db`, "--json"]);
  assertEquals(r.code, 0, r.stdout + r.stderr);
  // Standard output holds the JSON alone (the words go to standard error).
  assertEquals(r.stdout.trim().split("\n").length, 1, r.stdout);
  assertStringIncludes(r.stderr, "units at");
  return JSON.parse(r.stdout) as {
    value: number;
    bestMove: string | null;
    firstMoves: { move: string; value: number }[];
    units: number;
    out: string;
  };
};

Deno.test("solve: a split solve's value is the whole solve's (a margin, a draw, wins with and without distance)", async () => {
  await withDir(async (dir) => {
    const games: (readonly string[])[] = [
      ["kalah", "--pits", "3", "--stones", "3"],
      ["tictactoe"],
      ["nim", "--heaps", "2,3,4"],
      ["domineering", "--board", "4x5"],
    ];
    for (const [i, game] of games.entries()) {
      for (const split of ["1", "3"]) {
        const out = `${dir}/${i}-${split}.json`;
        const split_ = await solveJson([...game, "--split", split, "--out", out], dir);
        const whole = await runTask("analyze", [...game, "--solve", "--json"]);
        assertEquals(whole.code, 0, whole.stderr);
        const w = JSON.parse(whole.stdout) as { value: number };
        assertEquals(split_.value, w.value, `${game.join(" ")} at split ${split}`);
        // The best move is one of the moves whose value is the value.
        const best = split_.firstMoves.filter((m) => m.value === split_.value).map((m) => m.move);
        assert(best.includes(split_.bestMove!), JSON.stringify(split_));
        assertEquals(split_.out, out);
        assert(split_.units > 1);
      }
    }
  });
});

Deno.test("solve: --max-units pauses, the same command solves only the rest; a certificate verifies, a tampered one does not", async () => {
  await withDir(async (dir) => {
    const game = ["kalah", "--pits", "3", "--stones", "3", "--split", "2"];
    const db = ["--db", `${dir}/solve.db`];
    const out = `${dir}/k33.json`;
    const paused = await runTask("solve", [...game, ...db, "--max-units", "3", "--out", out]);
    assertEquals(paused.code, 0, paused.stderr);
    assertStringIncludes(paused.stdout, "paused: 3 of 8 units settled");
    assertStringIncludes(paused.stdout, "the same command goes on");
    let missing = false;
    try {
      await Deno.stat(out);
    } catch {
      missing = true;
    }
    assert(missing, "no certificate for an unfinished solve");
    const rest = await runTask("solve", [...game, ...db, "--out", out]);
    assertEquals(rest.code, 0, rest.stderr);
    assertMatch(
      rest.stdout,
      /8 units at 2 plies, 3 settled before \(resuming solve [0-9a-f]{16}\)/,
    );
    assertStringIncludes(rest.stdout, "8 units (5 this run)");
    assertStringIncludes(rest.stdout, "value: south: +2");
    // Once more: nothing left to solve, the same value.
    const again = await runTask("solve", [...game, ...db, "--out", out]);
    assertStringIncludes(again.stdout, "8 units (0 this run)");

    const verified = await runTask("solve", ["--verify", out, "--sample", "8"]);
    assertEquals(verified.code, 0, verified.stdout + verified.stderr);
    assertMatch(
      verified.stdout,
      /verified .*: south: \+2; the tree above its 8 units gives its value and first moves; 8 units solved again \(seed 1\)/,
    );
    const sampled = await runTask("solve", ["--verify", out, "--sample", "2", "--seed", "5"]);
    assertStringIncludes(sampled.stdout, "2 units solved again (seed 5)");

    const cert = JSON.parse(await Deno.readTextFile(out));
    // A unit's value changed: found when it is solved again.
    const unit = {
      ...cert,
      units: cert.units.map((u: { value: number }, i: number) =>
        i === 4 ? { ...u, value: u.value + 1 } : u
      ),
    };
    await Deno.writeTextFile(`${dir}/unit.json`, JSON.stringify(unit));
    // (The tree check comes first: the changed unit may change the value above it; either
    // way, the file is refused and the reason named.)
    const badUnit = await runTask("solve", ["--verify", `${dir}/unit.json`, "--sample", "8"]);
    assertEquals(badUnit.code, 1, badUnit.stdout);
    assertMatch(
      badUnit.stderr,
      /unit .*: the certificate says .*, the solver finds|its units' values give|first moves' values/,
    );
    // The value changed: the tree above the units says so without solving anything.
    await Deno.writeTextFile(
      `${dir}/value.json`,
      JSON.stringify({ ...cert, value: cert.value + 2 }),
    );
    const badValue = await runTask("solve", ["--verify", `${dir}/value.json`]);
    assertEquals(badValue.code, 1);
    assertStringIncludes(badValue.stderr, "its units' values give south: +2, not");
    // A unit left out.
    await Deno.writeTextFile(
      `${dir}/short.json`,
      JSON.stringify({ ...cert, units: cert.units.slice(1) }),
    );
    const short = await runTask("solve", ["--verify", `${dir}/short.json`]);
    assertEquals(short.code, 1);
    assertStringIncludes(
      short.stderr,
      "its 7 units do not decide the value (of the 8 positions 2 plies from the start, more are needed)",
    );
  });
});

Deno.test("solve: SIGTERM while a unit is in progress ends it cleanly; the units settled are kept", async () => {
  await withDir(async (dir) => {
    // Every unit of the gated game waits in its search until the gate opens. (Its nine
    // lines of two moves reach five positions: five units.)
    const gate = `${dir}/gate`;
    await Deno.mkdir(gate);
    const args = [
      ...["solve", "./tests/fixtures/gated.ts", "--split", "2", "--workers", "1"],
      ...["--db", `${dir}/solve.db`, "--out", `${dir}/gated.json`],
      ...["--plugin-allow", "read,env", "--call-limit", "600"],
    ];
    const held = startTask(args, false, { PLY_GATE: gate });
    await held.waitFor("units at 2 plies");
    await held.signal("TERM");
    const stopped = await held.done;
    assertEquals(stopped.code, 143, stopped.out + stopped.err);
    assertStringIncludes(stopped.out, "stopped: 0 of 5 units settled");
    assert(!stopped.err.includes("    at "), stopped.err);

    // The gate open: three units settle, then the rest in a run of its own.
    await Deno.writeTextFile(`${gate}/open`, "");
    const three = startTask([...args, "--max-units", "3"], false, { PLY_GATE: gate });
    assertStringIncludes((await three.done).out, "paused: 3 of 5 units settled");
    const rest = startTask(args, false, { PLY_GATE: gate });
    const done = await rest.done;
    assertEquals(done.code, 0, done.out + done.err);
    assertStringIncludes(done.out, "3 settled before");
    assertStringIncludes(done.out, "5 units (2 this run)");
  });
});
