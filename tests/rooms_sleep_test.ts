/**
 * Rooms nobody watches sleep in the store rather than close: `reap` (a clock the test
 * sets) puts an idle room to sleep (its thread ended, its last state stored), and
 * `find` opens it again at its position with its seats, once however many ask at once.
 * Without a store an idle room closes for good. Driven through `Rooms` directly, with a
 * SQLite store: every wait is a handshake on a message or on the store.
 */
import { assert, assertEquals, assertMatch } from "../testing/deps.ts";
import { Effect, Fiber, Layer, Result } from "../core/deps.ts";
import { catalog } from "../server/catalog.ts";
import { DEFAULT_LIMITS, type RoomRunner, Rooms } from "../server/rooms.ts";
import { type RoomStore, type SavedRoom, sqlRoomStore } from "../server/store.ts";
import { SqlError } from "../app/store/deps.ts";
import { databaseLayer } from "../app/store/database.ts";
import { browser } from "../testing/room_conn.ts";

/** Rooms' fibers, each run on its own and interrupted when stopped. */
const runner = (): RoomRunner & {
  readonly stopAll: () => Promise<void>;
  readonly onStop: (f: () => void) => void;
} => {
  const fibers = new Map<string, Fiber.Fiber<never>>();
  const last: (() => void)[] = [];
  return {
    onStop: (f) => void last.push(f),
    start: (id, effect) => fibers.set(id, Effect.runFork(effect)),
    stop: (id) => {
      const f = fibers.get(id);
      fibers.delete(id);
      if (f !== undefined) Effect.runFork(Fiber.interrupt(f));
    },
    stopAll: async () => {
      for (const id of [...fibers.keys()]) {
        const f = fibers.get(id)!;
        fibers.delete(id);
        await Effect.runPromise(Fiber.interrupt(f));
      }
      for (const f of last.splice(0)) f();
    },
  };
};

Deno.test("rooms: an idle room sleeps in the store and wakes where it was, once for all", async () => {
  const dir = await Deno.makeTempDir();
  const run = runner();
  try {
    await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
      const ctx = yield* Layer.build(databaseLayer(`${dir}/serve.db`));
      const store = yield* Effect.provide(sqlRoomStore, ctx);
      const games = yield* catalog([]);
      let now = 1_000_000;
      const rooms = new Rooms(games, { ...DEFAULT_LIMITS, idleMs: 1000 }, run, () => now, store);
      run.onStop(() => rooms.shutdown());
      const made = yield* rooms.create({
        game: "tictactoe",
        options: {},
        players: [{ _tag: "Here" }, { _tag: "Here" }],
        seed: 3,
      });
      assert(made._tag === "Created");
      const room = rooms.get(made.game)!;
      const a = browser(room.seat(made.seat));
      room.join(a.conn);
      const first = yield* Effect.promise(() => a.position((p) => p.legal.length > 0));
      room.handle(a.conn, { _tag: "Move", at: 0, move: first.legal[4].move });
      const moved = yield* Effect.promise(() => a.position((p) => p.current === 1));
      room.leave(a.conn);

      // Idle for less than idleMs: it stays; then it sleeps.
      now += 999;
      assertEquals(rooms.reap(), []);
      now += 1;
      assertEquals(rooms.reap(), [made.game]);
      assertEquals(rooms.get(made.game), undefined);
      yield* rooms.flush();
      const stored = yield* store.get(made.game);
      assert(stored !== undefined && Result.isSuccess(stored));
      assertEquals(stored.success.transcript.moves.map((m) => m.notation), [
        moved.nodes[1].notation,
      ]);

      // Two browsers come back at once: one room, at its position, with its seat.
      const [x, y] = yield* Effect.all([rooms.find(made.game), rooms.find(made.game)], {
        concurrency: 2,
      });
      assert(Result.isSuccess(x) && Result.isSuccess(y));
      assert(x.success === y.success, "one room for both");
      const again = x.success;
      assert(again !== room);
      const b = browser(again.seat(made.seat));
      assert(b.conn.seat !== undefined, "the seat's link still holds its seat");
      again.join(b.conn);
      const back = yield* Effect.promise(() => b.position((p) => p.legal.length > 0));
      assertEquals([back.current, back.nodeCount], [1, 2]);
      again.handle(b.conn, { _tag: "Move", at: 1, move: back.legal[0].move });
      yield* Effect.promise(() => b.position((p) => p.current === 2));
      again.leave(b.conn);

      // The transcript of a sleeping game comes from the store.
      now += 1000;
      rooms.reap();
      const t = yield* rooms.transcript(made.game);
      assertEquals(t?.moves.length, 2);

      const unknown = yield* rooms.find("0".repeat(32));
      assert(Result.isFailure(unknown));
      assertMatch(unknown.failure, /no such game/);
    })));
  } finally {
    await run.stopAll();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rooms: without a store an idle room closes for good", async () => {
  const run = runner();
  try {
    await Effect.runPromise(Effect.gen(function* () {
      const games = yield* catalog([]);
      let now = 0;
      const rooms = new Rooms(games, { ...DEFAULT_LIMITS, idleMs: 10 }, run, () => now);
      run.onStop(() => rooms.shutdown());
      const made = yield* rooms.create({
        game: "nim",
        options: {},
        players: [{ _tag: "Here" }, { _tag: "Here" }],
      });
      assert(made._tag === "Created");
      now = 10;
      assertEquals(rooms.reap(), [made.game]);
      const found = yield* rooms.find(made.game);
      assert(Result.isFailure(found));
      assertEquals(yield* rooms.transcript(made.game), undefined);
    }));
  } finally {
    await run.stopAll();
  }
});

Deno.test("rooms: what the store could not take is stored when it can again, the latest state", async () => {
  const run = runner();
  try {
    await Effect.runPromise(Effect.gen(function* () {
      const games = yield* catalog([]);
      const kept = new Map<string, SavedRoom>();
      let broken = true;
      const store: RoomStore = {
        save: (rooms) =>
          broken
            ? Effect.fail(
              new SqlError.SqlError({
                reason: SqlError.classifySqliteError(new Error("disk full"), {
                  message: "disk full",
                  operation: "execute",
                }),
              }),
            )
            : Effect.sync(() => rooms.forEach((r) => kept.set(r.id, r))),
        get: (id) => Effect.succeed(kept.has(id) ? Result.succeed(kept.get(id)!) : undefined),
        counts: Effect.succeed(new Map()),
        purge: () => Effect.succeed(0),
      };
      const rooms = new Rooms(games, DEFAULT_LIMITS, run, Date.now, store);
      run.onStop(() => rooms.shutdown());
      const made = yield* rooms.create({
        game: "nim",
        options: {},
        players: [{ _tag: "Here" }, { _tag: "Here" }],
      });
      assert(made._tag === "Created");
      const failed = yield* Effect.result(rooms.flush());
      assert(Result.isFailure(failed));
      assertMatch(failed.failure, /disk full/);
      assertEquals(kept.size, 0);
      // Nothing changed since: what failed is stored once the store takes it.
      broken = false;
      yield* rooms.flush();
      assertEquals(kept.get(made.game)?.transcript.moves.length, 0);
      broken = true;
      // A move while the store is down; then the store takes the room as it is now.
      const room = rooms.get(made.game)!;
      const a = browser(room.seat(made.seat));
      room.join(a.conn);
      const p = yield* Effect.promise(() => a.position((p) => p.legal.length > 0));
      room.handle(a.conn, { _tag: "Move", at: 0, move: p.legal[0].move });
      yield* Effect.promise(() => a.position((p) => p.current === 1));
      assert(Result.isFailure(yield* Effect.result(rooms.flush())));
      broken = false;
      yield* rooms.flush();
      assertEquals(kept.get(made.game)?.transcript.moves.length, 1);
      room.leave(a.conn);
    }));
  } finally {
    await run.stopAll();
  }
});
