/**
 * What keeping `deno task serve`'s games across a restart costs, measured from outside
 * against 127.0.0.1 (a script, not a test; README carries the figures):
 *
 * - the time from starting the server to its listening, with N stored games and with none,
 *   and from a restart to a game back on its page: a stored game opens (wakes) when a
 *   browser asks for it, its thread started and its moves replayed;
 * - the memory of an open game (the server's `VmRSS` with N games open, less its own at
 *   the start, per game) and of a stored one (its record in the database, in bytes).
 *
 * Each game is Kalah (default), a person here against `random`, M moves in.
 *
 * `deno run -A bench/serve_restore.ts [--games 50] [--moves 10] [--game kalah]`
 *
 * @module
 */
import { parseArgs } from "jsr:@std/cli@^1.0.32/parse-args";
import { DatabaseSync } from "node:sqlite";
import { type Served, startServe } from "../testing/browser.ts";
import { programPid, rssMiB } from "../testing/process.ts";
import { connect, isPosition, post } from "../testing/ws_client.ts";

const args = parseArgs(Deno.args, {
  string: ["games", "moves", "game"],
  default: { games: "50", moves: "10", game: "kalah" },
});
const GAMES = Number(args.games), MOVES = Number(args.moves), GAME = String(args.game);

/** Starts a server on `db`; how long it took until it listened (ms). */
const timedStart = async (db: string): Promise<{ served: Served; ms: number }> => {
  const t0 = performance.now();
  const served = await startServe(["--db", db, "--games-per-minute", "100000"]);
  return { served, ms: performance.now() - t0 };
};

const dir = await Deno.makeTempDir();
const db = `${dir}/serve.db`;
const empty = await timedStart(`${dir}/empty.db`);
await empty.served.stop();

const { served: first } = await timedStart(db);
const rss0 = rssMiB(programPid(first.job.pid, "scripts/serve.ts"));
const played: { game: string; seat: string; nodes: number }[] = [];
for (let g = 0; g < GAMES; g++) {
  const made = await post(first.url, "/api/new", {
    game: GAME,
    options: {},
    players: [{ _tag: "Here" }, { _tag: "AI", spec: "random" }],
    seed: g + 1,
  });
  if (made._tag !== "Created") throw new Error(made.message);
  const c = await connect(first.url, made.game, made.seat);
  const game = { game: made.game, seat: made.seat, nodes: 0 };
  played.push(game);
  const mine = isPosition((p) => p.legal.length > 0 || p.result !== undefined);
  for (let k = 0; k < MOVES; k++) {
    const p = mine(c.position()) ? c.position() : await c.next(mine);
    if (p.result !== undefined) break;
    const at = c.received.length;
    c.send({ _tag: "Move", at: p.current, move: p.legal[(k * 5 + g) % p.legal.length].move });
    await c.next(
      isPosition((q) => q.current > p.current && (q.legal.length > 0 || q.result !== undefined)),
      at,
    );
  }
  game.nodes = c.position().nodeCount;
  await c.close();
}
const rss1 = rssMiB(programPid(first.job.pid, "scripts/serve.ts"));
await first.stop();

const d = new DatabaseSync(db, { readOnly: true });
const rows = d.prepare("SELECT count(*) AS n, sum(length(record)) AS bytes FROM ply_rooms")
  .get() as {
    n: number;
    bytes: number;
  };
d.close();

// The restart: the server listens at once; each game opens (wakes) when its page comes
// back: the time from asking to its position received.
const t0 = performance.now();
const again = await timedStart(db);
const wakes: number[] = [];
let firstBack = NaN;
for (const [i, g] of played.entries()) {
  const t = performance.now();
  const c = await connect(again.served.url, g.game, g.seat);
  wakes.push(performance.now() - t);
  if (i === 0) firstBack = performance.now() - t0;
  if (c.position().nodeCount !== g.nodes) throw new Error(`game ${g.game} came back elsewhere`);
  await c.close();
}
const rss2 = rssMiB(programPid(again.served.job.pid, "scripts/serve.ts"));
await again.served.stop();
await Deno.remove(dir, { recursive: true });

const f = (x: number) => x.toFixed(1);
const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))];
console.log(`${GAME}, ${GAMES} games of ${MOVES} moves (a person against random):`);
console.log(
  `  start to listening: ${f(empty.ms)} ms with no stored game, ${f(again.ms)} ms with ${GAMES}`,
);
console.log(
  `  restart to the first game back on its page: ${f(firstBack)} ms; each game's wake ` +
    `(socket opened to position received): median ${f(q(wakes, 0.5))} ms, p90 ${
      f(q(wakes, 0.9))
    } ms`,
);
console.log(
  `  memory: ${f(rss0)} MiB at the start, ${f(rss1)} MiB with ${GAMES} games open ` +
    `(${f((rss1 - rss0) / GAMES)} MiB per open game); ${f(rss2)} MiB with all woken again`,
);
console.log(`  stored: ${rows.n} records, ${Math.round(rows.bytes / rows.n)} bytes per game`);
