/**
 * An exact solve on Effect Cluster (`deno task solve GAME --cluster URL`). The solve is a
 * workflow (`PlySolve`) whose activities are its units not yet settled; each unit is a
 * message to a `PlySolveUnit` entity, which the runner holding its shard solves with the
 * same code as a local solve (`app/solve/open.ts`), on its engine's workers. A settled
 * unit is written once to `ply_solve_units` (the table a local solve keeps), where the
 * submitting program reads it; a runner that dies has its units' messages delivered again
 * to the runner that takes its shards, so a killed runner's units are solved elsewhere.
 *
 * @module
 */
import { codeDifference, type CodeId, codeId } from "../app/tournament/code.ts";
import { Effect, Exit, Result, Schema, Scope } from "../core/deps.ts";
import { Limits } from "../core/host/limits.ts";
import { type OpenedSolve, openSolve } from "../app/solve/open.ts";
import { type Settled, solveStore, solveTable } from "../app/solve/store.ts";
import {
  Activity,
  ClusterSchema,
  Entity,
  Rpc,
  Semaphore,
  SqlClient,
  type SqlError,
  Workflow,
} from "./deps.ts";
import { deliveryDies } from "./layers.ts";

/** What the table functions need and may fail with. */
type Sql<A> = Effect.Effect<A, SqlError.SqlError, SqlClient.SqlClient>;

/** Everything a runner needs to solve a solve's units. */
export interface SolvePlan {
  /** The solve's id, under which its units are stored (`ply_solve_units`). */
  readonly solve: string;
  /** The game as the user named it. */
  readonly game: string;
  /** A plugin's module as an absolute URL, which every runner loads; absent for a built-in. */
  readonly module?: string;
  /** Its options as the plugin read them. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Plies from the start to the units. */
  readonly split: number;
  /** The units' names, in order (what the workflow sends). */
  readonly units: readonly string[];
  /** Units sent at once. */
  readonly concurrency: number;
  /** The code that decides the result: a runner whose code differs takes no work. */
  readonly code: CodeId;
}

/** One unit to solve: the solve and the unit's name. */
const UnitTask = Schema.Struct({ solve: Schema.String, unit: Schema.String });

/** A unit: solved by whichever runner holds its shard; the reply is its `Settled` (JSON). */
export const SolveUnitEntity = Entity.make("PlySolveUnit", [
  Rpc.make("Solve", { payload: UnitTask, success: Schema.String, error: Schema.String }),
]).annotateRpcs(ClusterSchema.Persisted, true);

/** The solve, split as its plan says (its id: the solve's and the split's): its units not yet settled, each an activity. */
export const SolveWorkflow = Workflow.make("PlySolve", {
  payload: { id: Schema.String },
  idempotencyKey: (p) => p.id,
  success: Schema.Number,
  error: Schema.String,
});

/** Creates the solves' tables (programs starting together take turns by an advisory lock). */
export const migrateSolves: Sql<void> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient;
  yield* sql.withTransaction(Effect.gen(function* () {
    yield* sql`SELECT pg_advisory_xact_lock(74108)`;
    yield* sql`CREATE TABLE IF NOT EXISTS ply_solve_plans (
      id TEXT PRIMARY KEY, plan TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now())`;
    yield* solveTable;
  }));
});

/** Stores a plan under `id` (one already there is kept: a resubmission changes nothing). */
export const storeSolvePlan = (id: string, plan: SolvePlan): Sql<void> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    yield* sql`INSERT INTO ply_solve_plans (id, plan) VALUES (${id}, ${JSON.stringify(plan)})
      ON CONFLICT (id) DO NOTHING`;
  });

/** The plan stored under `id`, if any. */
export const readSolvePlan = (id: string): Sql<SolvePlan | undefined> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ plan: string }>`SELECT plan FROM ply_solve_plans WHERE id = ${id}`;
    return rows.length === 0 ? undefined : JSON.parse(rows[0].plan) as SolvePlan;
  });

/** A runner's open solves: each solve's game, units and code check, made once. */
interface Open {
  readonly solve: Effect.Effect<OpenedSolve, string>;
  readonly difference: Promise<string | undefined>;
}

/**
 * The entity's handler: solves unit `unit` of solve `solve`, at most `concurrency` units
 * at once on this runner. A runner that cannot open the game, or whose code differs from
 * the plan's, takes no work: it calls `refuse` with the reason (the runner then leaves the
 * cluster) and leaves the unit unsolved for the runner that takes its shard.
 */
// deno-lint-ignore explicit-module-boundary-types -- the handlers' type is the entity's own
export const solveHandlers = (
  concurrency: number,
  refuse: (reason: string) => Effect.Effect<void>,
) => {
  const slots = Semaphore.makeUnsafe(Math.max(1, concurrency));
  const open = new Map<string, Open>();
  return Effect.gen(function* () {
    const limits = yield* Limits;
    /** A solve's game and units, opened once on this runner (its plugin thread kept). */
    const opened = (id: string, plan: SolvePlan): Open => {
      const known = open.get(id);
      if (known !== undefined) return known;
      const scope = Scope.makeUnsafe();
      const made: Open = {
        solve: Effect.runSync(Effect.cached(
          Scope.provide(scope)(
            Effect.provideService(
              openSolve(plan.module ?? plan.game, { ...plan.options }, plan.split),
              Limits,
              limits,
            ),
          ).pipe(Effect.mapError((e) => e.message)),
        )),
        difference: codeId(plan.module).then(
          (mine) => codeDifference(mine, plan.code),
          (e) => `its plugin's source cannot be read here (${e instanceof Error ? e.message : e})`,
        ),
      };
      open.set(id, made);
      return made;
    };
    return SolveUnitEntity.of({
      Solve: (envelope) =>
        slots.withPermits(1)(Effect.gen(function* () {
          const { solve: id, unit } = envelope.payload;
          const plan = yield* Effect.orDie(readSolvePlan(id));
          if (plan === undefined) return yield* Effect.fail(`no solve ${id}`);
          const o = opened(id, plan);
          const difference = yield* Effect.promise(() => o.difference);
          if (difference !== undefined) {
            yield* refuse(
              `this runner's code differs from solve ${id}'s: ${difference}; it takes no ` +
                "work (run the same ply and plugin on every runner)",
            );
            return yield* Effect.never;
          }
          const s = yield* Effect.result(o.solve);
          if (Result.isFailure(s)) {
            yield* refuse(`this runner cannot open ${plan.game} (solve ${id}): ${s.failure}`);
            return yield* Effect.never;
          }
          const u = s.success.tree.units.find((x) => x.unit === unit);
          if (u === undefined) return yield* Effect.fail(`solve ${id} has no unit ${unit}`);
          yield* Effect.sync(() => console.log(`solving unit ${unit} of solve ${id}`));
          const settled = yield* s.success.solveUnit(u, false).pipe(
            Effect.mapError((e) => e.message),
          );
          yield* Effect.sync(() => console.log(`solved unit ${unit} of solve ${id}`));
          return JSON.stringify(settled);
        })),
    });
  });
};

/**
 * The solve's workflow: each unit not yet settled an activity (a message to its unit's
 * entity, then its value written once), `concurrency` at once. Returns the number of units
 * it settled.
 */
// deno-lint-ignore explicit-module-boundary-types -- the services are the cluster's own
export const solveBody = (payload: { readonly id: string }) =>
  Effect.gen(function* () {
    const client = yield* SolveUnitEntity.client;
    const plan = yield* Effect.orDie(readSolvePlan(payload.id));
    if (plan === undefined) return yield* Effect.fail(`no solve ${payload.id}`);
    const store = yield* Effect.orDie(solveStore(plan.solve));
    const settled = yield* Effect.orDie(store.settled);
    let solved = 0;
    yield* Effect.forEach(
      plan.units.filter((u) => !settled.has(u)),
      (unit) =>
        Activity.make({
          name: `unit/${unit}`,
          success: Schema.Boolean,
          error: Schema.String,
          execute: Effect.gen(function* () {
            const reply = yield* client(`${payload.id}/${unit}`).Solve({
              solve: payload.id,
              unit,
            }).pipe(deliveryDies);
            yield* Effect.orDie(store.put(unit, JSON.parse(reply) as Settled));
            return true;
          }),
        }).pipe(Effect.tap(() => Effect.sync(() => void solved++))),
      { concurrency: plan.concurrency, discard: true },
    );
    return solved;
  });

/** The exit of a finished solve workflow's execution, if it has finished. */
// deno-lint-ignore explicit-module-boundary-types -- the services are the workflow engine's
export const solveExit = (execution: string) =>
  Effect.map(
    Effect.exit(SolveWorkflow.poll(execution)),
    (polled): Exit.Exit<number, string> | undefined =>
      Exit.isSuccess(polled) && polled.value._tag === "Some" &&
        polled.value.value._tag === "Complete"
        ? polled.value.value.exit
        : undefined,
  );
