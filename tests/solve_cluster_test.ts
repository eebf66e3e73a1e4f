/**
 * `deno task solve GAME --cluster URL` for real: a throwaway PostgreSQL, `deno task
 * runner`s, and the solve submitted and followed as a user does. Two runners solve the
 * units and the value is the local solve's; the same command again finds every unit
 * settled; a runner killed (`kill -9`) while it holds a unit (in a search held by a gate
 * the test never opens for it) has that unit solved by another runner (delivery is at
 * least once: a unit may be solved twice, its value is kept once).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { withPostgres } from "../testing/postgres.ts";
import { type Job, runTask, startTask } from "../testing/task.ts";

/** Stops runners with Ctrl-C, as an operator does. */
const stop = async (runners: readonly Job[]) => {
  for (const r of runners) await r.sigint();
  for (const r of runners) await r.done;
};

Deno.test("solve on the cluster: two runners solve the units; the value is the local solve's", async () => {
  await withPostgres(async (pg) => {
    const runners = [0, 1].map(() =>
      startTask(["runner", "--cluster", pg.url, "--concurrency", "1"])
    );
    const dir = await Deno.makeTempDir({ prefix: "ply-solve-" });
    try {
      for (const r of runners) await r.waitFor("runner at 127.0.0.1:");
      const game = ["kalah", "--pits", "3", "--stones", "3", "--split", "2"];
      const onCluster = await runTask("solve", [
        ...game,
        ...["--cluster", pg.url, "--out", `${dir}/cluster.json`],
      ]);
      assertEquals(onCluster.code, 0, onCluster.stdout + onCluster.stderr);
      assertStringIncludes(
        onCluster.stdout,
        "8 units at 2 plies; solving with solve on the cluster's runners",
      );
      assertStringIncludes(onCluster.stdout, "value: south: +2");
      assertStringIncludes(onCluster.stdout, "8 units (8 this run)");
      const here = await runTask("solve", [
        ...game,
        ...["--db", `${dir}/local.db`, "--out", `${dir}/local.json`],
      ]);
      assertEquals(here.code, 0, here.stderr);
      const read = async (f: string) => {
        const c = JSON.parse(await Deno.readTextFile(`${dir}/${f}`));
        return [
          c.value,
          c.firstMoves,
          c.units.map((u: { unit: string; value: number }) => [u.unit, u.value]),
        ];
      };
      assertEquals(await read("cluster.json"), await read("local.json"));
      // Both runners took units (each solves one at a time, and says so).
      const took = runners.map((r) => (r.output().match(/solved unit /g) ?? []).length);
      assertEquals(took[0] + took[1], 8, took.join(" "));

      // The same command again: every unit settled before, none solved again.
      const again = await runTask("solve", [
        ...game,
        ...["--cluster", pg.url, "--out", `${dir}/cluster.json`],
      ]);
      assertEquals(again.code, 0, again.stderr);
      assertStringIncludes(again.stdout, "8 units (0 this run)");
      const verified = await runTask("solve", ["--verify", `${dir}/cluster.json`, "--sample", "8"]);
      assertEquals(verified.code, 0, verified.stdout + verified.stderr);
    } finally {
      await stop(runners);
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("solve on the cluster: a runner killed while it holds a unit has that unit solved elsewhere", async () => {
  await withPostgres(async (pg) => {
    const gate = await Deno.makeTempDir({ prefix: "ply-gate-" });
    const allow = ["--plugin-allow", "read,env", "--call-limit", "600"];
    // The first runner's searches wait at the gate, which is never opened.
    const held = startTask(
      ["runner", "--cluster", pg.url, "--concurrency", "1", ...allow],
      false,
      { PLY_GATE: gate },
    );
    const dir = await Deno.makeTempDir({ prefix: "ply-solve-" });
    let other: Job | undefined;
    try {
      await held.waitFor("runner at 127.0.0.1:");
      const follower = startTask([
        ...["solve", "./tests/fixtures/gated.ts", "--split", "2", "--cluster", pg.url],
        ...["--out", `${dir}/gated.json`, ...allow],
      ]);
      await follower.waitFor("submitted to the cluster as");
      await held.waitFor("solving unit "); // it holds a unit, in its search
      other = startTask(["runner", "--cluster", pg.url, "--concurrency", "1", ...allow]);
      await other.waitFor("runner at 127.0.0.1:");
      await held.kill();
      const { code, out, err } = await follower.done;
      assertEquals(code, 0, out + err);
      assertStringIncludes(out, "5 units (5 this run)");
      assert(!held.output().includes("solved unit "), "the held runner settled nothing");
      // Every unit, the held one with them (a unit's message may come twice: delivery is at
      // least once, and its value is kept once).
      const solved = new Set([...other.output().matchAll(/solved unit (\S+) /g)].map((m) => m[1]));
      assertEquals(solved.size, 5, other.output());
    } finally {
      if (other !== undefined) await stop([other]);
      await held.kill();
      await held.done;
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(gate, { recursive: true });
    }
  });
});
