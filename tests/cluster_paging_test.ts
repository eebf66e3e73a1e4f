/**
 * Following a cluster tournament reads its games a page at a time, in the order they were
 * written (`newGames`' cursor over `ply_games.seq`), each once: a page holds at most
 * `GAMES_PAGE` games and the next starts after it; a game whose insert committed after a
 * later one's is behind the cursor, and `gameCount` shows it (the follower then reads from
 * the start). Against a test-started PostgreSQL.
 */
import { assertEquals } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { SqlClient } from "../app/store/deps.ts";
import { withPostgres } from "../testing/postgres.ts";
import { database } from "../cluster/layers.ts";
import { gameCount, GAMES_PAGE, migrate, newGames } from "../cluster/tournament.ts";

Deno.test("cluster: following reads the games page by page, each once; a late commit is counted", async () => {
  await withPostgres(async (pg) => {
    const run = <A>(e: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
      Effect.runPromise(Effect.provide(e, database(pg.url)) as Effect.Effect<A>);
    await run(migrate);
    const insert = (ids: readonly string[], seq?: number) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient;
        for (const id of ids) {
          const record = JSON.stringify({ id });
          if (seq === undefined) {
            yield* sql`INSERT INTO ply_games (tournament, id, record) VALUES ('t1', ${id}, ${record})`;
          } else {
            yield* sql`INSERT INTO ply_games (tournament, id, record, seq)
              VALUES ('t1', ${id}, ${record}, ${seq})`;
          }
        }
        // Another tournament's games are never read.
        yield* sql`INSERT INTO ply_games (tournament, id, record) VALUES ('t2', ${ids[0]}, '{}')
          ON CONFLICT DO NOTHING`;
      });
    const ids = Array.from({ length: GAMES_PAGE + 5 }, (_, i) => `g${String(i).padStart(5, "0")}`);
    await run(insert(ids));
    const first = await run(newGames("t1", 0));
    assertEquals(first.records.length, GAMES_PAGE);
    const second = await run(newGames("t1", first.after));
    assertEquals(second.records.map((r) => r.id), ids.slice(GAMES_PAGE));
    const read = [...first.records, ...second.records].map((r) => r.id);
    assertEquals(read, ids, "each game once, in the order written");
    const quiet = await run(newGames("t1", second.after));
    assertEquals(quiet, { records: [], after: second.after });
    assertEquals(await run(gameCount("t1")), ids.length);
    // A game whose insert committed late, with a number the cursor has passed.
    await run(insert(["late"], 3));
    assertEquals((await run(newGames("t1", second.after))).records, []);
    assertEquals(await run(gameCount("t1")), ids.length + 1, "the count shows it");
    const again = await run(newGames("t1", 0));
    assertEquals(again.records.slice(0, 4).map((r) => r.id), [ids[0], ids[1], ids[2], "late"]);
  });
});
