/**
 * The server's store of rooms (`server/store.ts`) on both databases it runs on: SQLite
 * through `app/store/sqlite.ts` (Deno's `node:sqlite`), and a throwaway PostgreSQL
 * started on 127.0.0.1. A room stored is read back equal, storing again replaces it,
 * forgetting removes it, the rows survive the database being closed and opened again,
 * and a row that cannot be read is named by its id without hiding the others.
 */
import { assert, assertEquals, assertMatch } from "../testing/deps.ts";
import { Effect, Layer, Result } from "../core/deps.ts";
import { SqlClient } from "../app/store/deps.ts";
import { databaseLayer, describeDatabase, isPostgres } from "../app/store/database.ts";
import { decodeSavedRoom, type RoomStore, type SavedRoom, sqlRoomStore } from "../server/store.ts";
import { withPostgres } from "../testing/postgres.ts";

const room = (id: string, moves: number): SavedRoom => ({
  id,
  game: "nim",
  transcript: {
    version: 2,
    game: "nim",
    options: { heaps: [1, 2] },
    seed: 7,
    players: ["human", "alphabeta:3"],
    moves: Array.from({ length: moves }, (_, i) => ({
      by: (i % 2) as 0 | 1,
      move: i,
      notation: `m${i}`,
      ms: 0,
    })),
    result: { winner: null, margin: 0, reason: "unfinished" },
    draws: moves * 3,
  },
  seats: [{ token: "a".repeat(32), sides: [true, false] }],
  createdAt: 1_700_000_000_000,
  opened: true,
  ended: false,
  stopped: false,
  paused: moves % 2 === 1,
  speed: 250,
  annotations: [[1, { best: "m0", loss: 0, mistake: false, text: "best" }]],
});

/** Runs `program` with the store's client on `target`; the database closes at the end. */
const withDb = <A, E>(target: string, program: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.runPromise(Effect.scoped(
    Effect.flatMap(Layer.build(databaseLayer(target)), (ctx) => Effect.provide(program, ctx)),
  ) as Effect.Effect<A, E | unknown>);

/** The rooms of ids, read one by one (each must be readable). */
const getAll = (store: RoomStore, ids: readonly string[]) =>
  Effect.forEach(
    ids,
    (id) => Effect.map(store.get(id), (r) => r === undefined ? undefined : Result.getOrThrow(r)),
  );

/** The checks, on one database. */
const exercise = async (target: string) => {
  // Stored, read back, replaced; counted by game; forgotten when not changed for long.
  await withDb(
    target,
    Effect.gen(function* () {
      const store = yield* sqlRoomStore;
      assertEquals(yield* store.get("r1"), undefined);
      assertEquals([...(yield* store.counts)], []);
      yield* store.save([room("r1", 1), room("r2", 2), { ...room("r3", 0), game: "kalah" }]);
      yield* store.save([room("r1", 3)]);
      assertEquals(yield* getAll(store, ["r1", "r2", "r9"]), [
        room("r1", 3),
        room("r2", 2),
        undefined,
      ]);
      assertEquals(new Map(yield* store.counts), new Map([["nim", 2], ["kalah", 1]]));
      assertEquals(yield* store.purge(Date.now() - 60_000), 0);
      assertEquals(yield* store.purge(Date.now() + 60_000), 3);
      assertEquals([...(yield* store.counts)], []);
      yield* store.save([room("r1", 4)]);
    }),
  );
  // The rows outlive the connection; a broken row is named, the rest still read.
  await withDb(
    target,
    Effect.gen(function* () {
      const store = yield* sqlRoomStore;
      assertEquals(yield* getAll(store, ["r1"]), [room("r1", 4)]);
      const sql = yield* SqlClient.SqlClient;
      yield* sql`INSERT INTO ply_rooms (id, game, record, updated_at)
        VALUES (${"bad"}, ${"nim"}, ${"{no"}, ${1})`;
      yield* sql`INSERT INTO ply_rooms (id, game, record, updated_at)
        VALUES (${"odd"}, ${"nim"}, ${JSON.stringify({ ...room("odd", 0), seats: 3 })}, ${2})`;
      const bad = yield* store.get("bad");
      assert(bad !== undefined && Result.isFailure(bad));
      assertMatch(bad.failure, /^its record is not JSON/);
      const odd = yield* store.get("odd");
      assert(odd !== undefined && Result.isFailure(odd));
      assertMatch(odd.failure, /^not a stored room: .*seats/s);
      assertEquals(yield* getAll(store, ["r1"]), [room("r1", 4)]);
    }),
  );
};

Deno.test("room store: SQLite keeps, replaces and forgets rooms across reopening", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // The folder is made when missing.
    await exercise(`${dir}/state/ply/serve.db`);
    assert((await Deno.stat(`${dir}/state/ply/serve.db`)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("room store: PostgreSQL keeps, replaces and forgets rooms across reconnecting", async () => {
  await withPostgres((pg) => exercise(pg.url));
});

Deno.test("room store: a stored room's transcript is checked as a saved game is", () => {
  const good = decodeSavedRoom(JSON.parse(JSON.stringify(room("x", 2))));
  assert(Result.isSuccess(good));
  assertEquals(good.success, room("x", 2));
  const badMove = decodeSavedRoom({
    ...room("x", 1),
    transcript: { ...room("x", 1).transcript, moves: [{ by: 3, move: 0, notation: "", ms: 0 }] },
  });
  assert(Result.isFailure(badMove));
  const noSpeed = decodeSavedRoom({ ...room("x", 1), speed: "fast" });
  assert(Result.isFailure(noSpeed));
  assertMatch(noSpeed.failure, /^not a stored room: .*speed/s);
  // A lobby's seat, taken or not, is kept (a restarted server lists the game only while free).
  for (const taken of [false, true]) {
    const lobby = { ...room("x", 1), lobby: { seat: "t1", taken } };
    const back = decodeSavedRoom(JSON.parse(JSON.stringify(lobby)));
    assert(Result.isSuccess(back));
    assertEquals(back.success, lobby);
  }
  assert(Result.isFailure(decodeSavedRoom({ ...room("x", 1), lobby: { seat: "t1" } })));
});

Deno.test("room store: targets: files and PostgreSQL URLs, passwords never shown", () => {
  assert(isPostgres("postgres://u:p@h/db"));
  assert(isPostgres("postgresql://h/db"));
  assert(!isPostgres("./postgres.db"));
  assertEquals(
    describeDatabase("postgres://ply:secret@127.0.0.1:5/ply"),
    "postgres://ply:***@127.0.0.1:5/ply",
  );
  assertEquals(describeDatabase("/tmp/x.db"), "/tmp/x.db");
});
