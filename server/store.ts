/**
 * The rooms a server keeps across a restart: each room's game (its transcript: moves,
 * variations, current position, the random stream's place), seats, and settings, stored
 * as it changes in one table of the store (`app/store/`: SQLite by default, PostgreSQL by
 * URL), and read back when the server starts.
 *
 * @module
 */
import { Effect, Result, Schema } from "../core/deps.ts";
import type { SqlClient, SqlError } from "../app/store/deps.ts";
import { SqlClient as Sql } from "../app/store/deps.ts";
import { decodeTranscript, type Transcript } from "../app/transcript.ts";
import type { NodeView } from "./protocol.ts";

/** A seat as stored: the token in a player's link, and the sides it plays. */
export interface StoredSeat {
  /** The secret in the browser's link. */
  readonly token: string;
  /** The sides it plays. */
  readonly sides: readonly [boolean, boolean];
}

/** Review's verdict on a move, as stored. */
type Annotation = NonNullable<NodeView["review"]>;

/** What a room stores of itself: enough to open it again where it was. */
export interface SavedRoom {
  /** The room's id (in links). */
  readonly id: string;
  /** The game offered (its entry id on the form). */
  readonly game: string;
  /** The game: moves, variations, current node, players, seed and the stream's place. */
  readonly transcript: Transcript;
  /** The seats (the tokens in the players' links) and the sides each plays. */
  readonly seats: readonly StoredSeat[];
  /** When the room was made (ms since the epoch). */
  readonly createdAt: number;
  /** True once a browser opened it. */
  readonly opened: boolean;
  /** True once a game between people ended (everything opened for good). */
  readonly ended: boolean;
  /** True when the game stopped for good at the current node (its end, or a fault). */
  readonly stopped: boolean;
  /** True after `Stop`: the AIs wait for `Resume`. */
  readonly paused: boolean;
  /** The pause between AI moves (ms). */
  readonly speed: number;
  /** Review's verdicts, by the node's number in the transcript. */
  readonly annotations: readonly (readonly [number, Annotation])[];
  /** A game offered in the lobby: the seat offered there, and whether someone took it. */
  readonly lobby?: LobbySeat;
  /** True for a saved game loaded for review (absent: false). */
  readonly loaded?: boolean;
}

/** The seat of a game offered in the lobby, and whether someone took it. */
export interface LobbySeat {
  /** The seat's token. */
  readonly seat: string;
  /** True once someone joined with it (from the lobby or by the link). */
  readonly taken: boolean;
}

const Sides = Schema.Tuple([Schema.Boolean, Schema.Boolean]);
const SavedShape = Schema.Struct({
  id: Schema.String,
  game: Schema.String,
  transcript: Schema.Unknown,
  seats: Schema.Array(Schema.Struct({ token: Schema.String, sides: Sides })),
  createdAt: Schema.Number,
  opened: Schema.Boolean,
  ended: Schema.Boolean,
  stopped: Schema.Boolean,
  paused: Schema.Boolean,
  speed: Schema.Number,
  annotations: Schema.Array(Schema.Tuple([
    Schema.Number,
    Schema.Struct({
      best: Schema.String,
      loss: Schema.Number,
      mistake: Schema.Boolean,
      text: Schema.String,
      severity: Schema.optionalKey(Schema.Literals(["inaccuracy", "mistake", "blunder"])),
      exact: Schema.optionalKey(Schema.Boolean),
      bestText: Schema.optionalKey(Schema.String),
      playedText: Schema.optionalKey(Schema.String),
      bars: Schema.optionalKey(Schema.Tuple([Schema.Number, Schema.Number])),
    }),
  ])),
  lobby: Schema.optional(Schema.Struct({ seat: Schema.String, taken: Schema.Boolean })),
  loaded: Schema.optionalKey(Schema.Boolean),
});
const decodeShape = Schema.decodeUnknownResult(SavedShape);

/** A stored room's JSON, checked: the room, or why it cannot be read. */
export const decodeSavedRoom = (json: unknown): Result.Result<SavedRoom, string> => {
  const shape = decodeShape(json);
  if (Result.isFailure(shape)) return Result.fail(`not a stored room: ${shape.failure.message}`);
  const transcript = decodeTranscript(shape.success.transcript);
  if (Result.isFailure(transcript)) return Result.fail(transcript.failure);
  return Result.succeed({ ...shape.success, transcript: transcript.success });
};

/** Where rooms are kept. */
export interface RoomStore {
  /** Stores these rooms as they are now (each replaces its earlier record), at once. */
  readonly save: (rooms: readonly SavedRoom[]) => Effect.Effect<void, SqlError.SqlError>;
  /** The stored room of an id: none, the room, or why its record cannot be read. */
  readonly get: (
    id: string,
  ) => Effect.Effect<Result.Result<SavedRoom, string> | undefined, SqlError.SqlError>;
  /** How many rooms are stored, by game. */
  readonly counts: Effect.Effect<ReadonlyMap<string, number>, SqlError.SqlError>;
  /** Forgets the rooms that have not changed since `before` (ms since the epoch); how many. */
  readonly purge: (before: number) => Effect.Effect<number, SqlError.SqlError>;
}

/** A stored record's text, read: the room, or why it cannot be. */
const readRecord = (text: string): Result.Result<SavedRoom, string> => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return Result.fail(`its record is not JSON (${(e as Error).message})`);
  }
  return decodeSavedRoom(json);
};

/** The store's rooms in the database of the `SqlClient` (its table made when missing). */
export const sqlRoomStore: Effect.Effect<RoomStore, SqlError.SqlError, SqlClient.SqlClient> = Effect
  .gen(function* () {
    const sql = yield* Sql.SqlClient;
    yield* sql`CREATE TABLE IF NOT EXISTS ply_rooms (
      id TEXT PRIMARY KEY,
      game TEXT NOT NULL,
      record TEXT NOT NULL,
      updated_at BIGINT NOT NULL
    )`;
    yield* sql`CREATE INDEX IF NOT EXISTS ply_rooms_updated ON ply_rooms (updated_at)`;
    const upsert = (room: SavedRoom, at: number) =>
      sql`INSERT INTO ply_rooms (id, game, record, updated_at)
        VALUES (${room.id}, ${room.game}, ${JSON.stringify(room)}, ${at})
        ON CONFLICT (id) DO UPDATE SET
          game = excluded.game, record = excluded.record, updated_at = excluded.updated_at`;
    return {
      save: (rooms) =>
        rooms.length === 0 ? Effect.void : sql.withTransaction(
          Effect.forEach(rooms, (r) => upsert(r, Date.now()), { discard: true }),
        ),
      get: (id) =>
        Effect.map(
          sql<{ record: string }>`SELECT record FROM ply_rooms WHERE id = ${id}`,
          (rows) => rows.length === 0 ? undefined : readRecord(rows[0].record),
        ),
      counts: Effect.map(
        sql<{ game: string; n: number | string }>`SELECT game, count(*) AS n FROM ply_rooms
          GROUP BY game`,
        (rows) => new Map(rows.map((r) => [r.game, Number(r.n)])),
      ),
      purge: (before) =>
        Effect.map(
          sql<{ id: string }>`DELETE FROM ply_rooms WHERE updated_at < ${before} RETURNING id`,
          (rows) => rows.length,
        ),
    };
  });
