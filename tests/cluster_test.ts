/**
 * Tournaments on Effect Cluster, for real: a throwaway PostgreSQL, two `deno task runner`
 * processes and the submitting `deno task tournament --cluster`, all on 127.0.0.1,
 * stopped at the end. Every wait is for an event (a line printed, a process's end).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { withPostgres } from "../testing/postgres.ts";
import { type Job, runTask, startTask } from "../testing/task.ts";
import { Effect } from "../core/deps.ts";
import { SqlClient } from "../app/store/deps.ts";
import { database } from "../cluster/layers.ts";

/** Runs `e` against the database at `url`. */
const query = <A>(url: string, e: Effect.Effect<A, unknown, SqlClient.SqlClient>): Promise<A> =>
  Effect.runPromise(Effect.provide(e, database(url)) as Effect.Effect<A>);

/** A tournament of 8 games of a second or two each, on the cluster at `url`, kept in `dir`. */
const slowTournament = (url: string, dir: string): string[] => [
  ...["tournament", "kalah", "--players", "alphabeta:7", "mcts:3000", "--rounds", "4"],
  ...["--cluster", url, "--out", dir],
];

/** The games of a folder by id: their moves in notation. */
const gamesOf = async (dir: string): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "").map(
      (l) => {
        const r = JSON.parse(l);
        return [r.id, r.transcript.moves.map((m: { notation: string }) => m.notation).join(" ")];
      },
    ),
  );

Deno.test("cluster: two runners play a tournament, in chunks; game for game what a local run plays", async () => {
  await withPostgres(async (pg) => {
    const runners = [0, 1].map(() =>
      startTask(["runner", "--cluster", pg.url, "--concurrency", "2"])
    );
    const dist = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    const local = await Deno.makeTempDir({ prefix: "ply-local-" });
    try {
      for (const r of runners) await r.waitFor("runner at 127.0.0.1:");
      const args = [
        "tictactoe",
        "--players",
        "alphabeta:9",
        "alphabeta:1",
        "random",
        "--rounds",
        "3",
      ];
      // In chunks of 5 games (18 games: four chunk workflows, the last of 3), one after
      // another: the same games as one run.
      const onCluster = await runTask("tournament", [
        ...args,
        ...["--cluster", pg.url, "--out", dist, "--chunk", "5"],
      ]);
      assertEquals(onCluster.code, 0, onCluster.stdout + onCluster.stderr);
      const id = /submitted to the cluster as (t[0-9a-f]+)/.exec(onCluster.stdout)?.[1];
      assert(id !== undefined, onCluster.stdout);
      assertStringIncludes(onCluster.stdout, "18 of 18 games");
      const here = await runTask("tournament", [...args, "--out", local]);
      assertEquals(here.code, 0, here.stderr);
      const [a, b] = [await gamesOf(dist), await gamesOf(local)];
      assertEquals(Object.keys(a).length, 18);
      assertEquals(a, b, "the same games, move for move");
      // The same results (times per move aside).
      const results = (dir: string) =>
        Deno.readTextFile(`${dir}/results.json`).then((t) => {
          const { pairings, ratings, score, seats, repeated } = JSON.parse(t).results;
          return { pairings, ratings, score, seats, repeated };
        });
      assertEquals(await results(dist), await results(local));

      // The same command again follows the same tournament (its chunks' size is how it
      // runs, not what it is): nothing is played twice.
      const again = await runTask("tournament", [...args, "--cluster", pg.url, "--out", dist]);
      assertEquals(again.code, 0, again.stderr);
      assertStringIncludes(again.stdout, `submitted to the cluster as ${id}`);
      assertStringIncludes(again.stdout, "18 of 18 games");
      assertEquals(Object.keys(await gamesOf(dist)).length, 18);
    } finally {
      for (const r of runners) await r.sigint();
      for (const r of runners) {
        const { code, out, err } = await r.done;
        assertEquals(code, 130, out + err);
        assertStringIncludes(out, "runner stopped");
      }
      await Deno.remove(dist, { recursive: true });
      await Deno.remove(local, { recursive: true });
    }
  });
});

Deno.test("cluster: a runner killed mid-game (kill -9) loses no game and counts none twice", async () => {
  await withPostgres(async (pg) => {
    const start = () => startTask(["runner", "--cluster", pg.url, "--concurrency", "1"]);
    const [first, second] = [start(), start()];
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    try {
      for (const r of [first, second]) await r.waitFor("runner at 127.0.0.1:");
      // Games of a second or two each, so that one is in progress when its runner dies.
      const coordinator = startTask(slowTournament(pg.url, dir));
      await coordinator.waitFor("submitted to the cluster as");
      // Whichever runner plays a game first is killed in the middle of its next one.
      const victim = await Promise.race(
        [first, second].map((r) => r.waitFor("played ").then(() => r)),
      );
      await victim.kill();
      const { code, out, err } = await coordinator.done;
      assertEquals(code, 0, out + err);
      assertStringIncludes(out, "8 of 8 games");
      const lines = (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) =>
        l !== ""
      );
      assertEquals(lines.length, 8, "no game lost, none written twice");
      assertEquals(Object.keys(await gamesOf(dir)).length, 8);
    } finally {
      for (const r of [first, second]) await r.kill();
      for (const r of [first, second]) await r.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("cluster: SIGTERM stops a runner as Ctrl-C does: it leaves the cluster, the other plays on", async () => {
  await withPostgres(async (pg) => {
    const start = () => startTask(["runner", "--cluster", pg.url, "--concurrency", "1"]);
    const [first, second] = [start(), start()];
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    const runners = Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient;
      const [row] = yield* sql<{ n: string }>`SELECT count(*) AS n FROM cluster_runners`;
      return Number(row.n);
    });
    try {
      for (const r of [first, second]) await r.waitFor("runner at 127.0.0.1:");
      assertEquals(await query(pg.url, runners), 2);
      const coordinator = startTask(slowTournament(pg.url, dir));
      await coordinator.waitFor("submitted to the cluster as");
      const victim = await Promise.race(
        [first, second].map((r) => r.waitFor("played ").then(() => r)),
      );
      const survivor = victim === first ? second : first;
      await victim.signal("TERM");
      const stopped = await victim.done;
      assertEquals(stopped.code, 143, stopped.out + stopped.err);
      assertStringIncludes(stopped.out, "runner stopped\n");
      // It deregistered on its way out: one runner is left in the database at once (a
      // runner that dies is dropped only when its heartbeat expires).
      assertEquals(await query(pg.url, runners), 1, "the stopped runner is gone");
      const { code, out, err } = await coordinator.done;
      assertEquals(code, 0, out + err);
      assertStringIncludes(out, "8 of 8 games");
      const played = (job: Job) => (job.output().match(/played /g) ?? []).length;
      assertEquals(played(victim) + played(survivor) >= 8, true, "every game played by one");
      assert(played(survivor) >= 8 - played(victim), "the survivor played the rest");
      assertEquals((await gameLines(dir)).length, 8, "no game lost, none written twice");
    } finally {
      for (const r of [first, second]) await r.kill();
      for (const r of [first, second]) await r.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("cluster: the submitting program killed mid-tournament; --resume ID finishes it, --status ID shows it", async () => {
  await withPostgres(async (pg) => {
    const runner = startTask(["runner", "--cluster", pg.url, "--concurrency", "2"]);
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    const args = slowTournament(pg.url, dir);
    try {
      await runner.waitFor("runner at 127.0.0.1:");
      const first = startTask(args);
      await first.waitFor("submitted to the cluster as");
      await runner.waitFor("played "); // the tournament is under way
      await first.kill();
      await first.done;
      const id = /submitted to the cluster as (t[0-9a-f]+)/.exec(first.output())![1];
      // The tournament went on without it; --resume ID follows it to the end, from its id alone.
      const again = await runTask("tournament", [
        "--cluster",
        pg.url,
        "--resume",
        id,
        "--out",
        dir,
      ]);
      assertEquals(again.code, 0, again.stdout + again.stderr);
      assertStringIncludes(again.stdout, `submitted to the cluster as ${id}`);
      assertStringIncludes(again.stdout, "8 of 8 games");
      const status = await runTask("tournament", ["--cluster", pg.url, "--status", id, "--json"]);
      assertEquals(status.code, 0, status.stderr);
      const shown = JSON.parse(status.stdout);
      assertEquals(shown.games, 8);
      // Games played before it looked are not its own: no speed, none "in progress".
      assert(shown.overlap <= shown.concurrency, `overlap ${shown.overlap}`);
      assertEquals([shown.gamesPerMinute, shown.overlap], [0, 0]);
      const text = await runTask("tournament", ["--cluster", pg.url, "--status", id]);
      assertEquals(text.code, 0, text.stderr);
      assertStringIncludes(text.stdout, "8 of 8 games so far on the cluster\n");
      assert(!text.stdout.includes("in progress"), text.stdout);
      const unknown = await runTask("tournament", ["--cluster", pg.url, "--status", "t0"]);
      assertEquals(unknown.code, 2);
      assertStringIncludes(unknown.stderr, "has no tournament t0");
      const lines = (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) =>
        l !== ""
      );
      assertEquals(lines.length, 8, "every game once in the folder");
      assertEquals(Object.keys(await gamesOf(dir)).length, 8);
    } finally {
      await runner.sigint();
      await runner.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("cluster: a database that goes away makes a runner wait and say so, not crash; it works again after", async () => {
  await withPostgres(async (pg) => {
    const runner = startTask(["runner", "--cluster", pg.url, "--concurrency", "2"]);
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    try {
      await runner.waitFor("runner at 127.0.0.1:");
      await pg.pause();
      await runner.waitFor("ECONNREFUSED"); // one line saying what is wrong...
      assert(!(await runner.groupGone()), "...and the runner waits");
      await pg.restart();
      const r = await runTask("tournament", [
        "tictactoe",
        "--players",
        "random",
        "alphabeta:1",
        "--rounds",
        "2",
        "--cluster",
        pg.url,
        "--out",
        dir,
      ]);
      assertEquals(r.code, 0, r.stdout + r.stderr);
      assertStringIncludes(r.stdout, "4 of 4 games");
      assert(!/\n\s+at .*:\d+:\d+/.test(runner.output()), `a stack trace:\n${runner.output()}`);
    } finally {
      await runner.sigint();
      await runner.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
});

/** The lines of a folder's games.jsonl. */
const gameLines = async (dir: string): Promise<string[]> =>
  (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "");

Deno.test("cluster: a runner started late takes work; every game is kept once", async () => {
  await withPostgres(async (pg) => {
    const start = () => startTask(["runner", "--cluster", pg.url, "--concurrency", "1"]);
    const first = start();
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    let late: ReturnType<typeof start> | undefined;
    try {
      await first.waitFor("runner at 127.0.0.1:");
      // 40 games of about half a second each: the tournament is well under way, on one
      // runner, when the second starts, and far from its end.
      const coordinator = startTask([
        ...["tournament", "kalah", "--players", "alphabeta:7", "mcts:3000", "--rounds", "20"],
        ...["--cluster", pg.url, "--out", dir, "--concurrency", "2"],
      ]);
      await coordinator.waitFor("submitted to the cluster as");
      await first.waitFor("played ");
      late = start();
      await late.waitFor("played "); // shards moved to it, and games with them
      const { code, out, err } = await coordinator.done;
      assertEquals(code, 0, out + err);
      assertStringIncludes(out, "40 of 40 games");
      assertEquals((await gameLines(dir)).length, 40, "no game lost, none written twice");
      assertEquals(Object.keys(await gamesOf(dir)).length, 40);
    } finally {
      for (const r of [first, late]) await r?.sigint();
      for (const r of [first, late]) await r?.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
});

/** A tournament of a user's plugin, outside the project, submitted to the cluster. */
interface OutsideTournament {
  /** The plugin's file and its source as written. */
  readonly plugin: string;
  readonly source: string;
  /** The submitting program (following it). */
  readonly coordinator: Job;
  /** Its tournament's id. */
  readonly id: string;
  /** Starts a runner (stopped at the end). */
  readonly runner: (concurrency: number) => Job;
  /** Starts a runner that plays every game, and checks that each is kept once. */
  readonly playsAll: () => Promise<void>;
}

/**
 * Submits a tournament of `tests/fixtures/subtraction.ts` copied outside the project (its
 * import of ply made absolute), 2 rounds, and gives it to `f`; every runner `f` starts and
 * the folders are gone at the end.
 */
const outsideTournament = async (
  pg: { readonly url: string },
  f: (t: OutsideTournament) => Promise<void>,
): Promise<void> => {
  const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
  const plugins = await Deno.makeTempDir({ prefix: "ply-plugin-" });
  const plugin = `${plugins}/subtraction.ts`;
  const source = (await Deno.readTextFile(new URL("./fixtures/subtraction.ts", import.meta.url)))
    .replace("../../plugin.ts", new URL("../plugin.ts", import.meta.url).href);
  await Deno.writeTextFile(plugin, source);
  const runners: Job[] = [];
  const runner = (concurrency: number) => {
    const job = startTask(["runner", "--cluster", pg.url, "--concurrency", String(concurrency)]);
    runners.push(job);
    return job;
  };
  try {
    const coordinator = startTask([
      ...["tournament", plugin, "--players", "alphabeta:4", "random", "--rounds", "2"],
      ...["--cluster", pg.url, "--out", dir],
    ]);
    await coordinator.waitFor("submitted to the cluster as");
    const id = coordinator.output().match(/submitted to the cluster as (t[0-9a-f]+)/)![1];
    const playsAll = async () => {
      runner(2);
      const { code, out, err } = await coordinator.done;
      assertEquals(code, 0, out + err);
      assertStringIncludes(out, "4 of 4 games");
      assertEquals((await gameLines(dir)).length, 4);
    };
    await f({ plugin, source, coordinator, id, runner, playsAll });
  } finally {
    for (const r of runners) await r.sigint();
    for (const r of runners) await r.done;
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(plugins, { recursive: true });
  }
};

Deno.test("cluster: a runner that cannot load the tournament's plugin says so and takes no work", async () => {
  await withPostgres((pg) =>
    outsideTournament(pg, async ({ plugin, runner, playsAll }) => {
      // The file is not there for the first runner...
      await Deno.rename(plugin, `${plugin}.away`);
      const refused = await runner(1).done;
      assertEquals(refused.code, 1, refused.out + refused.err);
      assertStringIncludes(refused.out, `runner stopped: this runner cannot load ${plugin}`);
      assertStringIncludes(refused.out, "it takes no work");
      assert(!refused.out.includes("played "), refused.out);
      assert(!/\n\s+at .*:\d+:\d+/.test(refused.out + refused.err), refused.err);
      // ...and is for the second, which plays every game.
      await Deno.rename(`${plugin}.away`, plugin);
      await playsAll();
    })
  );
});

Deno.test("cluster: a runner whose plugin's code differs says so and takes no work", async () => {
  await withPostgres((pg) =>
    outsideTournament(pg, async ({ plugin, source, id, runner, playsAll }) => {
      // The plugin changes (one comment) on this runner's machine: its games could differ.
      await Deno.writeTextFile(plugin, source + "// changed\n");
      const refused = await runner(1).done;
      assertEquals(refused.code, 1, refused.out + refused.err);
      assertStringIncludes(
        refused.out,
        `runner stopped: this runner's code differs from tournament ${id}'s: the plugin's code (`,
      );
      assertStringIncludes(refused.out, "it takes no work");
      assert(!refused.out.includes("played "), refused.out);
      // Following it from here is refused too, naming the difference (not another tournament).
      const status = await runTask("tournament", ["--status", id, "--cluster", pg.url]);
      assertEquals(status.code, 2, status.stdout + status.stderr);
      assertStringIncludes(
        status.stderr,
        `tournament ${id} was planned with other code than this machine's: the plugin's code (`,
      );
      // With the tournament's code again, a runner plays every game.
      await Deno.writeTextFile(plugin, source);
      await playsAll();
    })
  );
});
