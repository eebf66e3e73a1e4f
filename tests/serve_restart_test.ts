/**
 * `deno task serve` keeps its games across a restart: every room is stored as it
 * changes (SQLite by default), and a server started again on the same database opens
 * each one where it was. Killed with `kill -9` after its last move was stored (a
 * handshake: the test reads the database until it holds that move), the server's games
 * go on exactly as they would have without the restart, chance and random players
 * included (the random stream's place is stored); stopped with SIGTERM, it stores what
 * changed before it ends. A stored game the server no longer offers is named, kept, and
 * opens again once it is offered. The same on PostgreSQL (`--db postgres://...`).
 */
import { assert, assertEquals, assertMatch } from "../testing/deps.ts";
import { type Served, startServe } from "../testing/browser.ts";
import { storedMoves, waitStored } from "../testing/stored.ts";
import { withPostgres } from "../testing/postgres.ts";
import { runTask } from "../testing/task.ts";
import { connect, type GameClient, isPosition, type Position, post } from "../testing/ws_client.ts";

const here = { _tag: "Here" } as const;
const randomAi = { _tag: "AI", spec: "random" } as const;

/** True when a person here is to move (or the game is over) at a node after `after`. */
const myTurn = (after: number) =>
  isPosition((p: Position) =>
    p.current > after && p.thinking === null && (p.legal.length > 0 || p.result !== undefined)
  );

/** Plays `n` moves for the person (the `k`-th legal move, k from `from` on). */
const playMoves = async (c: GameClient, from: number, n: number): Promise<void> => {
  const ready = isPosition((p) =>
    p.thinking === null && (p.legal.length > 0 || p.result !== undefined)
  );
  for (let k = from; k < from + n; k++) {
    // The latest position, or (chance or the AI to move first) the next one that is ours.
    const p = ready(c.position()) ? c.position() : await c.next(ready);
    if (p.result !== undefined) return;
    const at = c.received.length;
    c.send({ _tag: "Move", at: p.current, move: p.legal[(k * 7) % p.legal.length].move });
    await c.next(myTurn(p.current), at);
  }
};

/** The main line a server gives of a game, as `by:notation` words. */
const line = async (served: Served, id: string): Promise<string> => {
  const t = await (await fetch(new URL(`/api/games/${id}/transcript`, served.url))).json();
  return t.moves.map((m: { by: unknown; notation: string }) => `${m.by}:${m.notation}`).join(" ");
};

/** A new game's id and seat. */
const start = async (served: Served, body: Record<string, unknown>) => {
  const created = await post(served.url, "/api/new", { options: {}, ...body });
  assert(created._tag === "Created", JSON.stringify(created));
  return created;
};

const GAMES = [
  { game: "2048", players: [here, here], seed: 5 },
  { game: "kalah", players: [here, randomAi], seed: 9 },
];

Deno.test("serve restart: after kill -9, every game goes on exactly as without the restart", async () => {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/serve.db`;
  try {
    // The reference: the same games, moves and seeds, on a server that is not restarted.
    const reference = await startServe();
    const expected: string[] = [];
    try {
      for (const g of GAMES) {
        const made = await start(reference, g);
        const c = await connect(reference.url, made.game, made.seat);
        await playMoves(c, 0, 8);
        await c.close();
        expected.push(await line(reference, made.game));
      }
    } finally {
      await reference.stop();
    }

    const first = await startServe(["--db", db]);
    const made: { game: string; seat: string; nodes: number; current: number }[] = [];
    try {
      for (const g of GAMES) {
        const m = await start(first, g);
        const c = await connect(first.url, m.game, m.seat);
        await playMoves(c, 0, 4);
        const p = c.position();
        made.push({ game: m.game, seat: m.seat, nodes: p.nodeCount, current: p.current });
        await waitStored(db, m.game, p.nodeCount - 1);
      }
      await first.job.kill();
    } finally {
      await first.stop();
    }

    const second = await startServe(["--db", db]);
    try {
      assertMatch(second.output(), /; 2 stored games \(each opens where it was\)/);
      for (const [i, m] of made.entries()) {
        const c = await connect(second.url, m.game, m.seat);
        const p = c.position();
        assertEquals([p.nodeCount, p.current], [m.nodes, m.current], GAMES[i].game);
        assertEquals(p.mine[0], true, "the seat's link still plays its side");
        await playMoves(c, 4, 4);
        await c.close();
        assertEquals(await line(second, m.game), expected[i], GAMES[i].game);
      }
    } finally {
      await second.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve restart: SIGTERM stores the last changes; a game not offered is kept for later", async () => {
  const dir = await Deno.makeTempDir();
  const db = `${dir}/serve.db`;
  const plugin = "./tests/fixtures/connect4.ts";
  try {
    let id: string, seat: string, nodes: number;
    const first = await startServe(["--db", db, plugin]);
    try {
      const games = await (await fetch(new URL("/api/games", first.url))).json();
      const entry = games.find((g: { id: string }) => g.id !== "nim" && /connect/i.test(g.id));
      assert(entry !== undefined, JSON.stringify(games.map((g: { id: string }) => g.id)));
      const m = await start(first, { game: entry.id, players: [here, here], seed: 3 });
      ({ game: id, seat } = m);
      const c = await connect(first.url, id, seat);
      await playMoves(c, 0, 3);
      nodes = c.position().nodeCount;
      await c.close();
    } finally {
      const end = await first.stop("TERM");
      assertEquals(end.code, 143, end.err);
    }
    // No wait for the writer: the server stored the moves before it ended.
    assertEquals(storedMoves(db, id), nodes - 1);

    const without = await startServe(["--db", db]);
    try {
      assertMatch(without.output(), /note: 1 stored games of .*connect4.* open only on a server/);
      const gone = await connect(without.url, id, seat).then(() => "open", (e) => String(e));
      assertMatch(gone, /is not offered by this server; start serve with its plugin/);
    } finally {
      await without.stop();
    }
    assertEquals(storedMoves(db, id), nodes - 1, "kept for a server that offers it");

    const again = await startServe(["--db", db, plugin]);
    try {
      const c = await connect(again.url, id, seat);
      assertEquals(c.position().nodeCount, nodes);
      await c.close();
    } finally {
      await again.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve restart: on PostgreSQL (--db postgres://...), a game goes on after SIGTERM and a restart", async () => {
  await withPostgres(async (pg) => {
    const first = await startServe(["--db", pg.url]);
    let made: { game: string; seat: string }, nodes: number;
    try {
      made = await start(first, { game: "kalah", players: [here, randomAi], seed: 2 });
      const c = await connect(first.url, made.game, made.seat);
      await playMoves(c, 0, 3);
      nodes = c.position().nodeCount;
      await c.close();
    } finally {
      // The writer's handshake: the server stores the moves before SIGTERM ends it.
      const end = await first.stop("TERM");
      assertEquals(end.code, 143, end.err);
    }
    const second = await startServe(["--db", pg.url]);
    try {
      assertMatch(second.output(), /; 1 stored games/);
      const c = await connect(second.url, made.game, made.seat);
      assertEquals(c.position().nodeCount, nodes);
      await playMoves(c, 3, 2);
      assert(c.position().nodeCount > nodes);
      await c.close();
    } finally {
      await second.stop();
    }
  });
});

Deno.test("serve restart: a database that cannot be opened is named, with no stack trace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A file where the database's folder would be.
    await Deno.writeTextFile(`${dir}/file`, "");
    const bad = await runTask("serve", ["--port", "0", "--db", `${dir}/file/serve.db`]);
    assertEquals(bad.code, 2, bad.stderr);
    assertMatch(bad.stderr, /error: cannot open the games' database .*file\/serve\.db \(--db\)/);
    assert(!/^\s+at /m.test(bad.stderr), bad.stderr);
    const pg = await runTask("serve", [
      "--port",
      "0",
      "--db",
      "postgres://ply:secret@127.0.0.1:1/x",
    ]);
    assertEquals(pg.code, 2, pg.stderr);
    assertMatch(
      pg.stderr,
      /cannot open the games' database postgres:\/\/ply:\*\*\*@127\.0\.0\.1:1\/x/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
