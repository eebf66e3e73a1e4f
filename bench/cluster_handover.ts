/**
 * How long the games of a runner that stops wait before another runner plays them:
 * `deno run -A --unstable-worker-options bench/cluster_handover.ts [KILL|TERM] [ROUNDS]`.
 *
 * A throwaway PostgreSQL (as the tests start it), two runners one game at a time, and a
 * tournament of 80 fast tic-tac-toe games played one at a time; after 10 games the runner
 * that played first gets the signal (`KILL`: `kill -9`, it dies; `TERM`: it stops
 * gracefully), and the longest wait between the survivor's games from then on is the
 * hand-over (the games are milliseconds, so the wait is the cluster's). Every game must
 * still be kept once (80 of 80). Prints one line per round.
 *
 * @module
 */
import { withPostgres } from "../testing/postgres.ts";
import { startTask } from "../testing/task.ts";

const how = Deno.args[0] ?? "KILL";
const rounds = Number(Deno.args[1] ?? 1);
const tick = () => new Promise((s) => setTimeout(s, 10));

for (let round = 0; round < rounds; round++) {
  await withPostgres(async (pg) => {
    const runners = [0, 1].map(() =>
      startTask(["runner", "--cluster", pg.url, "--concurrency", "1"])
    );
    const dir = await Deno.makeTempDir({ prefix: "ply-handover-" });
    try {
      for (const r of runners) await r.waitFor("runner at 127.0.0.1:");
      const submitter = startTask([
        ...["tournament", "tictactoe", "--players", "alphabeta:1", "random", "--rounds", "40"],
        ...["--concurrency", "1", "--cluster", pg.url, "--out", dir],
      ]);
      await submitter.waitFor("submitted to the cluster as");
      const played = () => runners.map((r) => (r.output().match(/played /g) ?? []).length);
      while (played()[0] + played()[1] < 10) await tick();
      const victim = played()[0] > 0 ? 0 : 1, survivor = 1 - victim;
      let last = performance.now(), longest = 0, seen = played()[survivor], over = false;
      await runners[victim].signal(how);
      const done = submitter.done.finally(() => (over = true));
      while (!over) {
        const now = played()[survivor];
        if (now > seen) {
          const t = performance.now();
          longest = Math.max(longest, t - last);
          [last, seen] = [t, now];
        }
        await tick();
      }
      const { code, out } = await done;
      const games = /\d+ of \d+ games/.exec(out)?.[0] ?? "no count";
      console.log(
        `${how}: the survivor's longest wait ${
          (longest / 1000).toFixed(2)
        } s; ${games}, exit ${code}`,
      );
    } finally {
      for (const r of runners) await r.kill();
      for (const r of runners) await r.done;
      await Deno.remove(dir, { recursive: true });
    }
  });
}
