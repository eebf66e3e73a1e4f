/**
 * The store's dependencies: Effect's SQL client (one SQL layer for every database, at the
 * same version as `core/deps.ts`: one copy of Effect) and the PostgreSQL client
 * `@effect/sql-pg`. SQLite needs no package: Deno has `node:sqlite` built in, and
 * `sqlite.ts` puts Effect's client on it (no `@effect/sql-sqlite-node` exists for Effect 4.1).
 *
 * @module
 */
// First, before Effect loads (see the module).
import "../../core/no_async_context.ts";
export { SqlClient, SqlConnection, SqlError, Statement } from "npm:effect@4.1.0/sql";
export * as Redacted from "npm:effect@4.1.0/Redacted";
export * as Semaphore from "npm:effect@4.1.0/Semaphore";
export { Reactivity } from "npm:effect@4.1.0/reactivity";
export { PgClient } from "npm:@effect/sql-pg@4.0.5";
