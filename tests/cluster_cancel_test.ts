/**
 * A cluster tournament's end: a finished one leaves no persisted messages behind (its games
 * are in `ply_games`) and is read, not submitted again; `--cancel ID` stops one for good,
 * keeps its finished games and removes its waiting ones. Against a test-started PostgreSQL
 * and real `deno task runner` processes; every wait is for an event (a line printed, a
 * process's end).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { SqlClient } from "../app/store/deps.ts";
import { withPostgres } from "../testing/postgres.ts";
import { runTask, startTask } from "../testing/task.ts";
import { database } from "../cluster/layers.ts";
import { gameCount, pendingGames, tournamentEnd } from "../cluster/tournament.ts";

/** Runs `e` against the database at `url`. */
const query = <A>(url: string, e: Effect.Effect<A, unknown, SqlClient.SqlClient>): Promise<A> =>
  Effect.runPromise(Effect.provide(e, database(url)) as Effect.Effect<A>);

/** Every persisted cluster message and reply, of any tournament. */
const messages = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient;
  const [m] = yield* sql<{ n: string }>`SELECT count(*) AS n FROM cluster_messages`;
  const [r] = yield* sql<{ n: string }>`SELECT count(*) AS n FROM cluster_replies`;
  return { messages: Number(m.n), replies: Number(r.n) };
});

const idOf = (out: string): string => {
  const id = /submitted to the cluster as (t[0-9a-f]+)/.exec(out)?.[1];
  assert(id !== undefined, out);
  return id;
};

const lines = async (dir: string): Promise<string[]> =>
  (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "");

Deno.test("cluster: a finished tournament's messages are removed, its chunks' too; the same command reads it, plays nothing", async () => {
  await withPostgres(async (pg) => {
    const runner = startTask(["runner", "--cluster", pg.url, "--concurrency", "2"]);
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    const args = [
      ...["tournament", "tictactoe", "--players", "alphabeta:9", "random", "--rounds", "3"],
      ...["--cluster", pg.url, "--out", dir],
    ];
    // Two chunks (4 games and 2): their workflows' messages go too.
    const chunked = [...args, "--chunk", "4"];
    try {
      await runner.waitFor("runner at 127.0.0.1:");
      const first = await runTask(chunked[0], chunked.slice(1));
      assertEquals(first.code, 0, first.stdout + first.stderr);
      assertStringIncludes(first.stdout, "6 of 6 games");
      const id = idOf(first.stdout);
      assertEquals(await query(pg.url, tournamentEnd(id)), "finished");
      assertEquals(await query(pg.url, messages), { messages: 0, replies: 0 }, "none kept");
      assertEquals(await query(pg.url, gameCount(id)), 6, "the games stay");

      const again = await runTask(args[0], args.slice(1));
      assertEquals(again.code, 0, again.stdout + again.stderr);
      assertEquals(idOf(again.stdout), id);
      assertStringIncludes(again.stdout, "6 of 6 games");
      assertEquals(await query(pg.url, messages), { messages: 0, replies: 0 }, "not resubmitted");
      assertEquals((await lines(dir)).length, 6);

      // A finished tournament has nothing to cancel.
      const late = await runTask("tournament", ["--cluster", pg.url, "--cancel", id]);
      assertEquals(late.code, 2, late.stdout + late.stderr);
      assertStringIncludes(
        late.stderr,
        `tournament ${id} has finished: there is nothing to cancel`,
      );
    } finally {
      await runner.sigint();
      await runner.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("cluster: --cancel ID stops a tournament for good, keeps its games, removes its waiting ones", async () => {
  await withPostgres(async (pg) => {
    // The runner's games wait at their first move until the test opens the gate
    // (tests/fixtures/gated.ts; only the runner is given PLY_GATE): the tournament is
    // cancelled while its first game is in progress, whatever the machine's speed.
    const gate = await Deno.makeTempDir({ prefix: "ply-gate-" });
    const runner = startTask(
      [
        ...["runner", "--cluster", pg.url, "--concurrency", "1"],
        ...["--plugin-allow", "read,env", "--call-limit", "600"],
      ],
      false,
      { PLY_GATE: gate },
    );
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-" });
    try {
      await runner.waitFor("runner at 127.0.0.1:");
      // 8 games, one at a time on the runner: the first is held, the others wait.
      const follower = startTask([
        ...["tournament", "./tests/fixtures/gated.ts", "--players", "alphabeta:3", "random"],
        ...["--rounds", "4", "--cluster", pg.url, "--out", dir],
      ]);
      await follower.waitFor("submitted to the cluster as");
      const id = idOf(follower.output());
      await runner.waitFor("playing "); // under way, and held at its first move
      const cancel = await runTask("tournament", ["--cluster", pg.url, "--cancel", id]);
      assertEquals(cancel.code, 0, cancel.stdout + cancel.stderr);
      const said = new RegExp(
        `^tournament ${id} cancelled: 0 of 8 games were played and are kept; (\\d) waiting ` +
          "games? (was|were) removed\n$",
      ).exec(cancel.stdout);
      assert(said !== null, cancel.stdout);
      assert(Number(said[1]) <= 7, cancel.stdout);
      assertEquals(await query(pg.url, pendingGames(id)), 0, "no game waits");
      assertEquals(await query(pg.url, tournamentEnd(id)), "cancelled");
      await Deno.writeTextFile(`${gate}/open`, "");

      // The follower hears it and ends with it, the games so far kept.
      const followed = await follower.done;
      assertEquals(followed.code, 1, followed.out + followed.err);
      assertStringIncludes(followed.err, `tournament ${id} was cancelled`);

      // Nothing more is played: another tournament on the same runner (one game at a time)
      // finishes, and the cancelled one has the game that was in progress, no other.
      const other = await Deno.makeTempDir({ prefix: "ply-cluster-" });
      try {
        const next = await runTask("tournament", [
          ...["tictactoe", "--players", "alphabeta:9", "random", "--rounds", "1"],
          ...["--cluster", pg.url, "--out", other],
        ]);
        assertEquals(next.code, 0, next.stdout + next.stderr);
        assertStringIncludes(next.stdout, "2 of 2 games");
      } finally {
        await Deno.remove(other, { recursive: true });
      }
      const stored = await query(pg.url, gameCount(id));
      assertEquals(stored, 1, "the game in progress is kept, and no other is played");
      assertEquals(await query(pg.url, pendingGames(id)), 0);

      // --status says how it ended; the same command again does not start it again.
      const status = await runTask("tournament", ["--cluster", pg.url, "--status", id]);
      assertEquals(status.code, 1, status.stdout + status.stderr);
      assertStringIncludes(status.stderr, `tournament ${id} was cancelled`);
      assertStringIncludes(status.stdout, "1 of 8 games");
      assertEquals(await query(pg.url, gameCount(id)), 1);

      const unknown = await runTask("tournament", ["--cluster", pg.url, "--cancel", "t0"]);
      assertEquals(unknown.code, 2, unknown.stdout + unknown.stderr);
      assertStringIncludes(unknown.stderr, "has no tournament t0");
      const alone = await runTask("tournament", ["--cancel", id]);
      assertEquals(alone.code, 2, alone.stdout + alone.stderr);
      assertStringIncludes(alone.stderr, "--cancel needs --cluster URL");

      // The runner played one game at a time (--concurrency 1), though the tournaments
      // sent it two at once (theirs is the cores): each start follows the end before it.
      const log = runner.output().split("\n").filter((l) => /^(playing|played) /.test(l));
      assert(log.length >= 4, log.join("\n"));
      log.forEach((l, i) =>
        assert(l.startsWith(i % 2 === 0 ? "playing " : "played "), `line ${i}:\n${log.join("\n")}`)
      );
    } finally {
      await runner.sigint();
      await runner.done;
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(gate, { recursive: true });
    }
  });
});

/** The games of a folder by id: their moves and results (times left out). */
const gamesOf = async (dir: string): Promise<Record<string, { reason: string }>> =>
  Object.fromEntries(
    (await lines(dir)).map((l) => {
      const { id, transcript } = JSON.parse(l);
      const moves = transcript.moves.map((m: { notation: string }) => m.notation).join(" ");
      return [id, { moves, ...transcript.result }];
    }),
  );

Deno.test("cluster: --adjudicate is the tournament's rule: the runners end the same games as a local run", async () => {
  await withPostgres(async (pg) => {
    const runner = startTask(["runner", "--cluster", pg.url, "--concurrency", "2"]);
    const [dist, local] = await Promise.all(
      [0, 1].map(() => Deno.makeTempDir({ prefix: "ply-cluster-" })),
    );
    const args = [
      ...["kalah", "--players", "alphabeta:4", "alphabeta:2", "--rounds", "2"],
      ...["--adjudicate", "score:6:4"],
    ];
    try {
      await runner.waitFor("runner at 127.0.0.1:");
      const there = await runTask("tournament", [...args, "--cluster", pg.url, "--out", dist]);
      assertEquals(there.code, 0, there.stdout + there.stderr);
      const here = await runTask("tournament", [...args, "--out", local]);
      assertEquals(here.code, 0, here.stdout + here.stderr);
      const games = await gamesOf(dist);
      assertEquals(Object.keys(games).length, 4);
      assertEquals(games, await gamesOf(local), "the same games, ended alike");
      const settled = Object.values(games).filter((g) => g.reason === "adjudicated").length;
      assert(settled > 0, "some game was adjudicated");
      assertStringIncludes(there.stdout, `adjudicated (--adjudicate): ${settled}`);
    } finally {
      await runner.sigint();
      await runner.done;
      for (const d of [dist, local]) await Deno.remove(d, { recursive: true });
    }
  });
});
