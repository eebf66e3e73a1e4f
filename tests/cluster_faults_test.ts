/**
 * Faulty games on the cluster are one result each, as in a local run: a throwaway
 * PostgreSQL, a `deno task runner` and the submitting `deno task tournament --cluster`,
 * all on 127.0.0.1, on the plugin `tests/fixtures/faulty.ts` (its games whose coin fell
 * tails fault, on their retry too; a book line "tails" or "heads" decides which). The
 * cluster's report is compared with the local run's, the `--max-faults` stop with the
 * local one's, and a tournament whose workflow fails for another reason ends its
 * submitter with the reason. Every wait is for an event (a line printed, a process's end).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { postgresBinCandidates, withPostgres } from "../testing/postgres.ts";
import { runTask, startTask } from "../testing/task.ts";

const FAULTY = "./tests/fixtures/faulty.ts";
const BOOM = `plugin ${FAULTY} failed in moves(): boom: tails, and 3 stones or fewer left`;

/** A faulted game as the report lists it. */
interface Faulted {
  readonly id: string;
  readonly reason: string;
  readonly transcript?: string;
}

/** The parts of a `--json` report that do not depend on where or how fast it ran. */
const comparable = (stdout: string, dir: string) => {
  const j = JSON.parse(stdout);
  const { pairings, ratings, score, seats, repeated, total } = j.results;
  return {
    games: j.games,
    scheduled: j.scheduled,
    results: { pairings, ratings, score, seats, repeated, total },
    faulted: (j.faulted as Faulted[]).map((f) => ({
      ...f,
      transcript: f.transcript?.replace(dir, "DIR"),
    })),
    retried: j.retried,
    error: j.error,
  };
};

/** The games of a folder by id: their moves in notation and their fault. */
const gamesOf = async (dir: string): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "").map(
      (l) => {
        const r = JSON.parse(l);
        const moves = r.transcript.moves.map((m: { notation: string }) => m.notation).join(" ");
        return [r.id, `${moves} / ${r.fault ?? "finished"}`];
      },
    ),
  );

/** Runs one SQL statement on the database at `url` (with psql, found as the server's programs). */
const psql = async (url: string, statement: string): Promise<void> => {
  const dir = postgresBinCandidates().find((d) => {
    try {
      return Deno.statSync(`${d}/psql`).isFile;
    } catch {
      return false;
    }
  });
  assert(dir !== undefined, "no psql found");
  const ran = await new Deno.Command(`${dir}/psql`, {
    args: [url, "-v", "ON_ERROR_STOP=1", "-c", statement],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(ran.stderr);
  assertEquals(ran.code, 0, text);
};

Deno.test("cluster: faulted games are listed, kept once and left out of the ratings as locally; more than --max-faults stop it with the local line; a failed workflow ends the submitter", async () => {
  await withPostgres(async (pg) => {
    let runner = startTask(["runner", "--cluster", pg.url, "--concurrency", "2"]);
    const dir = await Deno.makeTempDir({ prefix: "ply-cluster-faults-" });
    try {
      await Deno.writeTextFile(`${dir}/book.txt`, "tails\nheads\n");
      await runner.waitFor("runner at 127.0.0.1:");
      // Round 0 opens with tails (its two games fault), round 1 with heads.
      const base = [
        ...[FAULTY, "--players", "alphabeta:1", "random", "--book", `${dir}/book.txt`],
        ...["--rounds", "2", "--concurrency", "1"],
      ];
      const args = [...base, "--json"];
      const cluster = (out: string, more: string[] = []) =>
        runTask("tournament", [...args, ...more, "--cluster", pg.url, "--out", out]);
      const local = (out: string, more: string[] = []) =>
        runTask("tournament", [...args, ...more, "--out", out]);

      // Under the limit: the same report as the local run, the faulted games listed.
      const [c, l] = [await cluster(`${dir}/c`), await local(`${dir}/l`)];
      assertEquals(c.code, 0, c.stdout + c.stderr);
      assertEquals(l.code, 0, l.stdout + l.stderr);
      const report = comparable(c.stdout, `${dir}/c`);
      assertEquals(report, comparable(l.stdout, `${dir}/l`));
      assertEquals([report.games, report.scheduled, report.results.total], [2, 4, 2]);
      assertEquals(report.faulted.map((f) => f.id), ["r0-p0-a", "r0-p0-b"]);
      for (const f of report.faulted) {
        assertEquals([f.reason, f.transcript], [BOOM, `DIR/faulted/${f.id}.json`]);
      }
      assertEquals(await gamesOf(`${dir}/c`), await gamesOf(`${dir}/l`), "move for move");
      const lines = (await Deno.readTextFile(`${dir}/c/games.jsonl`)).split("\n");
      assertEquals(lines.filter((l) => l !== "").length, 4, "every game, faulted or not, once");

      // More than --max-faults 0: stopped at the first faulted game, the local run's line.
      const [cs, ls] = [
        await cluster(`${dir}/cs`, ["--max-faults", "0"]),
        await local(`${dir}/ls`, ["--max-faults", "0"]),
      ];
      const line = `error: 1 game faulted (more than --max-faults 0); the last: ${BOOM}`;
      for (const r of [cs, ls]) {
        assertEquals(r.code, 1, r.stdout + r.stderr);
        assertEquals(r.stderr.split("\n").filter((x) => x.startsWith("error:")), [line]);
      }
      const stopped = comparable(cs.stdout, `${dir}/cs`);
      assertEquals(stopped, comparable(ls.stdout, `${dir}/ls`));
      assertEquals([stopped.games, stopped.faulted.length], [0, 1]);

      // --status and --resume of the stopped tournament, by its id alone: the same stop
      // (its --max-faults came with its stored arguments) and the same tournament.
      // The same command again (as text) follows the same stopped tournament.
      const again = await runTask("tournament", [
        ...base,
        "--max-faults",
        "0",
        "--cluster",
        pg.url,
      ]);
      assertEquals(again.code, 1, again.stdout + again.stderr);
      assertStringIncludes(again.stdout, "0 of 4 games (and 1 faulted)");
      assertStringIncludes(
        again.stdout,
        "faulted games (failed twice, left out of the results): 1",
      );
      assertStringIncludes(again.stderr, line);
      const id = /submitted to the cluster as (t[0-9a-f]+)/.exec(again.stdout)?.[1];
      assert(id !== undefined, again.stdout);
      const status = await runTask("tournament", ["--cluster", pg.url, "--status", id, "--json"]);
      assertEquals(status.code, 1, status.stdout + status.stderr);
      assertStringIncludes(status.stderr, line);
      assertEquals(JSON.parse(status.stdout).faulted.length, 1, "the other games were skipped");
      const resumed = await runTask("tournament", ["--cluster", pg.url, "--resume", id]);
      assertEquals(resumed.code, 1, resumed.stdout + resumed.stderr);
      assertStringIncludes(resumed.stdout, `submitted to the cluster as ${id}`);
      assertStringIncludes(resumed.stdout, "0 of 4 games (and 1 faulted)");
      assertStringIncludes(resumed.stderr, line);
      const changed = await runTask("tournament", [
        ...["--cluster", pg.url, "--resume", id, "--max-faults", "5"],
      ]);
      assertEquals(changed.code, 2, changed.stdout + changed.stderr);
      assertStringIncludes(changed.stderr, `--max-faults 5 cannot change tournament ${id}`);

      // A workflow that fails for another reason (its plan gone from the database before
      // any runner took it): the submitter ends with the reason.
      await runner.sigint();
      await runner.done;
      const doomed = startTask([
        ...["tournament", "tictactoe", "--players", "random", "alphabeta:1", "--rounds", "1"],
        ...["--cluster", pg.url],
      ]);
      await doomed.waitFor("submitted to the cluster as");
      const lost = /submitted to the cluster as (t[0-9a-f]+)/.exec(doomed.output())![1];
      await psql(pg.url, `DELETE FROM ply_tournaments WHERE id = '${lost}'`);
      runner = startTask(["runner", "--cluster", pg.url, "--concurrency", "2"]);
      const { code, out, err } = await doomed.done;
      assertEquals(code, 2, out + err);
      assertStringIncludes(err, `tournament ${lost} failed: no tournament ${lost}`);
      assert(!/\n\s+at .*:\d+:\d+/.test(out + err), `a stack trace:\n${out}${err}`);
    } finally {
      await runner.sigint();
      await runner.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
});
