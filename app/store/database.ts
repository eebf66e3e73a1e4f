/**
 * The store: where state that must survive a restart lives. One SQL layer through
 * Effect's `SqlClient`, on SQLite (a file, embedded: the default) or on PostgreSQL (a
 * `postgres://` URL, the database the cluster uses, for several machines).
 *
 * @module
 */
import { Effect, Layer } from "../../core/deps.ts";
import { makeFolderFor, stateFolder } from "../files.ts";
import { type SqlClient, SqlError } from "./deps.ts";
import { describePostgres, isPostgres, postgresLayer } from "./postgres.ts";
import { sqliteLayer } from "./sqlite.ts";

export { isPostgres } from "./postgres.ts";

/** The default database file of a program: `$XDG_STATE_HOME/ply/NAME.db`. */
export const defaultDatabase = (name: string): string => `${stateFolder()}/${name}.db`;

/** A target as the user may see it: a file's path, or a URL without its password. */
export const describeDatabase = (target: string): string =>
  isPostgres(target) ? describePostgres(target) : target;

/**
 * Effect's `SqlClient` on a target: a PostgreSQL URL, or a SQLite file (its folder made
 * when missing).
 */
export const databaseLayer = (
  target: string,
): Layer.Layer<SqlClient.SqlClient, SqlError.SqlError> => {
  if (isPostgres(target)) {
    return postgresLayer(target);
  }
  return Layer.unwrap(Effect.try({
    try: () => {
      makeFolderFor(target);
      return sqliteLayer(target);
    },
    catch: (cause) =>
      new SqlError.SqlError({
        reason: SqlError.classifySqliteError(cause, {
          message: `cannot make the folder of ${target}: ${(cause as Error).message}`,
          operation: "open",
        }),
      }),
  }));
};
