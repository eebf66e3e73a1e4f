/**
 * A solve's settled units in the store (SQLite by default, PostgreSQL across machines):
 * one row per unit of a solve, written as it settles, so that a stopped solve (Ctrl-C,
 * SIGTERM, a crash) loses at most the units in progress and the same command resumes.
 * A unit's row is its position's value, which no split depth changes: solves of the same
 * game with other splits share the units they have in common.
 *
 * @module
 */
import { Effect } from "../../core/deps.ts";
import { SqlClient, type SqlError } from "../store/deps.ts";

/** A unit's settled value and what it cost. */
export interface Settled {
  /** The value (player 0 maximizes). */
  readonly value: number;
  /** The best move at the unit (undefined at its end, or at a chance node). */
  readonly move: number | undefined;
  /** The nodes its solve visited. */
  readonly nodes: number;
  /** The milliseconds its solve took. */
  readonly ms: number;
}

/** The units of one solve in the store. */
export interface SolveStore {
  /** Every unit of the solve settled so far, by name. */
  readonly settled: Effect.Effect<Map<string, Settled>, SqlError.SqlError>;
  /** Keeps a unit's value (a unit settled twice keeps its first value). */
  readonly put: (unit: string, s: Settled) => Effect.Effect<void, SqlError.SqlError>;
}

/** Makes the table of the settled units when it is missing. */
export const solveTable: Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient> = Effect
  .gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    yield* sql`CREATE TABLE IF NOT EXISTS ply_solve_units (
      solve TEXT NOT NULL,
      unit TEXT NOT NULL,
      value DOUBLE PRECISION NOT NULL,
      move INTEGER,
      nodes BIGINT NOT NULL,
      ms DOUBLE PRECISION NOT NULL,
      PRIMARY KEY (solve, unit)
    )`;
  });

/** The store of solve `id` in the database of the `SqlClient` (its table made when missing). */
export const solveStore = (
  id: string,
): Effect.Effect<SolveStore, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    yield* solveTable;
    return {
      settled: Effect.map(
        sql<{ unit: string; value: number; move: number | null; nodes: number; ms: number }>`
          SELECT unit, value, move, nodes, ms FROM ply_solve_units WHERE solve = ${id}`,
        (rows) =>
          new Map(rows.map((r) => [r.unit, {
            value: Number(r.value),
            move: r.move === null ? undefined : Number(r.move),
            nodes: Number(r.nodes),
            ms: Number(r.ms),
          }])),
      ),
      put: (unit, s) =>
        Effect.asVoid(
          sql`INSERT INTO ply_solve_units (solve, unit, value, move, nodes, ms)
            VALUES (${id}, ${unit}, ${s.value}, ${s.move ?? null}, ${s.nodes}, ${s.ms})
            ON CONFLICT (solve, unit) DO NOTHING`,
        ),
    };
  });
