/**
 * Effect's SQL client on SQLite, through Deno's built-in `node:sqlite`: one connection,
 * shared one statement at a time (Effect's SQLite acquirers), in WAL mode with
 * `synchronous = FULL`, so that a statement that returned is on disk (a server killed
 * with `kill -9` loses nothing it stored).
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { Effect, Layer, type Scope, Stream } from "../../core/deps.ts";
import {
  Reactivity,
  Semaphore,
  SqlClient,
  type SqlConnection,
  SqlError,
  Statement,
} from "./deps.ts";

type Row = Record<string, unknown>;
type Transform = <A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>;

/** A SQLite failure as Effect's `SqlError`. */
const failure = (cause: unknown, message: string, operation: string) =>
  new SqlError.SqlError({ reason: SqlError.classifySqliteError(cause, { message, operation }) });

/** Opens the database file and makes Effect's SQL client on it, closed with the scope. */
const make = (filename: string): Effect.Effect<
  SqlClient.SqlClient,
  SqlError.SqlError,
  Scope.Scope | Reactivity.Reactivity
> =>
  Effect.gen(function* () {
    const db = yield* Effect.acquireRelease(
      Effect.try({
        try: () => {
          const db = new DatabaseSync(filename);
          db.exec(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000",
          );
          return db;
        },
        catch: (cause) => failure(cause, `cannot open the database ${filename}`, "open"),
      }),
      (db) => Effect.sync(() => db.close()),
    );
    const prepared = new Map<string, StatementSync>();
    const prepare = (sql: string): StatementSync => {
      let s = prepared.get(sql);
      if (s === undefined) {
        s = db.prepare(sql);
        prepared.set(sql, s);
      }
      return s;
    };
    const run = (sql: string, params: ReadonlyArray<unknown>, raw = false) =>
      Effect.try({
        try: () => {
          const s = prepare(sql);
          // deno-lint-ignore no-explicit-any -- node:sqlite takes its own parameter types
          const args = params as any[];
          if (s.columns().length > 0) return s.all(...args) as ReadonlyArray<Row>;
          const r = s.run(...args);
          return (raw ? { changes: r.changes, lastInsertRowid: r.lastInsertRowid } : []) as never;
        },
        catch: (cause) => failure(cause, "a statement failed", "execute"),
      });
    const rows = (sql: string, params: ReadonlyArray<unknown>, transform?: Transform) =>
      Effect.map(run(sql, params), (rows) => transform ? transform(rows) : rows);
    const values = (sql: string, params: ReadonlyArray<unknown>) =>
      Effect.map(run(sql, params), (rows) => rows.map((r) => Object.values(r)));
    const connection: SqlConnection.Connection = {
      execute: rows,
      executeRaw: (sql, params) => run(sql, params, true),
      executeValues: values,
      executeValuesUnprepared: values,
      executeUnprepared: rows,
      executeStream: () => Stream.die("streams are not offered on SQLite"),
    };
    const semaphore = yield* Semaphore.make(1);
    const acquirers = SqlClient.makeSqliteAcquirers({
      connection: Effect.succeed(connection),
      semaphore,
      isTransaction: () => db.isTransaction,
    });
    return yield* SqlClient.make({
      ...acquirers,
      compiler: Statement.makeCompilerSqlite(),
      driver: "sqlite",
      spanAttributes: [["db.system.name", "sqlite"]],
    });
  });

/** Effect's `SqlClient` on the SQLite database in `filename` (made when missing). */
export const sqliteLayer = (
  filename: string,
): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> =>
  Layer.effect(SqlClient.SqlClient, make(filename)).pipe(Layer.provide(Reactivity.layer));
