/**
 * Games per minute of a fast tournament, locally and on the cluster with one or two
 * runners: `deno run -A --unstable-worker-options bench/cluster_throughput.ts [ROUNDS]
 * [GAME PLAYER PLAYER]` (default 50 rounds of `kalah alphabeta:5 alphabeta:4`, games of
 * about 0.1 s, at `--concurrency 2`).
 *
 * A throwaway PostgreSQL (as the tests start it). Each run is the whole `deno task
 * tournament` command, from its start to its end (the runners started and waiting
 * before); the local run plays the same tournament with `--out` alone. Prints one line
 * per setting: games, seconds, games per minute, and the ratio to the local run.
 *
 * @module
 */
import { withPostgres } from "../testing/postgres.ts";
import { runTask, startTask } from "../testing/task.ts";

const rounds = Deno.args[0] ?? "50";
const [game, ...players] = Deno.args.length >= 4
  ? Deno.args.slice(1, 4)
  : ["kalah", "alphabeta:5", "alphabeta:4"];
const tournament = [game, "--players", ...players, "--rounds", rounds, "--concurrency", "2"];

/** Runs the tournament; its games and seconds. */
const timed = async (extra: string[]): Promise<{ games: number; seconds: number }> => {
  const dir = await Deno.makeTempDir({ prefix: "ply-throughput-" });
  try {
    const t = performance.now();
    const r = await runTask("tournament", [...tournament, ...extra, "--out", dir]);
    const seconds = (performance.now() - t) / 1000;
    if (r.code !== 0) throw new Error(`tournament exited ${r.code}: ${r.stderr}`);
    const counted = /(\d+) of (\d+) games/.exec(r.stdout);
    const games = counted === null ? Number(rounds) * 2 : Number(counted[1]);
    return { games, seconds };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
};

const line = (
  what: string,
  { games, seconds }: { games: number; seconds: number },
  local?: number,
) => {
  const perMinute = games / seconds * 60;
  console.log(
    `${what}: ${games} games in ${seconds.toFixed(1)} s, ${perMinute.toFixed(0)} games/min` +
      (local === undefined ? "" : ` (${(perMinute / local).toFixed(2)}x local)`),
  );
  return perMinute;
};

const local = line("local", await timed([]));
for (const count of [1, 2]) {
  await withPostgres(async (pg) => {
    const runners = Array.from(
      { length: count },
      () => startTask(["runner", "--cluster", pg.url, "--concurrency", "2"]),
    );
    try {
      for (const r of runners) await r.waitFor("runner at 127.0.0.1:");
      line(`${count} runner${count > 1 ? "s" : ""}`, await timed(["--cluster", pg.url]), local);
    } finally {
      for (const r of runners) await r.kill();
      for (const r of runners) await r.done;
    }
  });
}
