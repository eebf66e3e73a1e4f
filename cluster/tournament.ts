/**
 * A tournament on Effect Cluster. The tournament is a workflow (`PlyTournament`) whose
 * chunks (`PlyTournamentChunk`, child workflows of `plan.chunk` games each, run one after
 * another) have its games as activities; each game is a message to a `PlyGame` entity, which a
 * runner plays with the same runner code as a local tournament. A finished game is
 * written once to the table `ply_games` (the activity's result is journalled by the
 * workflow engine, and the insert ignores a game already there), where the submitting
 * program (or `--status`) reads it.
 *
 * A game that fails is played once more by the runner (the entity's handler, through
 * `runFixtures`, as a local run does), and failing again is written as a faulted record
 * (`GameRecord.fault`, its moves so far). Once more than the plan's `maxFaults` games
 * have faulted, the games not yet started are skipped (each activity looks before it
 * plays, and its answer is journalled) and the workflow ends.
 *
 * @module
 */
import { codeDifference, type CodeId, codeId } from "../app/tournament/code.ts";
import { Effect, Exit, Result, Schema, Scope } from "../core/deps.ts";
import { openHostedGame } from "../app/games.ts";
import { Limits } from "../core/host/limits.ts";
import type { OpenedGame, OptionsError, PluginError } from "../core/plugin.ts";
import type { PluginLimits } from "../core/host/thread.ts";
import { agentFromSpec } from "../app/players/agents.ts";
import { parseSpec } from "../app/players/spec.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { fixedOpenings, type Opening } from "../app/tournament/openings.ts";
import { type GameRecord, runFixtures } from "../app/tournament/runner.ts";
import { fixtureAt, scheduleSize, type ScheduleSpec } from "../app/tournament/schedule.ts";
import type { Adjudication } from "../app/tournament/adjudicate.ts";
import { adjudicating } from "../app/series.ts";
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

/** Everything a runner needs to play the games of a tournament. */
export interface ClusterPlan {
  /** The submitting command's arguments that make the tournament (`--resume ID` reruns them). */
  readonly argv: readonly string[];
  /** The game as the user named it: a built-in id, a path or a URL (the records carry it). */
  readonly game: string;
  /**
   * A plugin's module as an absolute URL (a path resolved where the tournament was
   * submitted), which every runner loads; absent for a built-in game.
   */
  readonly module?: string;
  /** Its decoded options. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The players' specs. */
  readonly players: readonly string[];
  /**
   * The schedule: game i is `fixtureAt(schedule, i)`, made from its index where it is
   * played (a million games are a few numbers here, not a million rows of the plan).
   */
  readonly schedule: ScheduleSpec;
  /** The opening of each round (round r plays `openings[r]`). */
  readonly openings: readonly Opening[];
  /** The move limit. */
  readonly maxPlies: number;
  /** Table size per player in MB. */
  readonly ttMb: number;
  /** Games sent at once. */
  readonly concurrency: number;
  /**
   * Games per chunk of the tournament's workflow (`--chunk`; how it is run, not what
   * decides its games: not part of its id, as `concurrency`). Absent: `DEFAULT_CHUNK`.
   */
  readonly chunk?: number;
  /** More faulted games than this stop the tournament (`--max-faults`, in `argv` too). */
  readonly maxFaults: number;
  /** `--adjudicate`'s rules (in `argv` too), if given. */
  readonly adjudication?: Adjudication;
  /**
   * The code that decides its games (`app/tournament/code.ts`): a runner whose code
   * differs takes no work. Absent in plans stored before it was kept.
   */
  readonly code?: CodeId;
}

/** One game to play: the tournament and the fixture's index in its plan. */
const GameTask = Schema.Struct({ tournament: Schema.String, index: Schema.Number });

/** A game: played by whichever runner holds its shard; the reply is the record (JSON). */
export const GameEntity = Entity.make("PlyGame", [
  Rpc.make("Play", { payload: GameTask, success: Schema.String, error: Schema.String }),
]).annotateRpcs(ClusterSchema.Persisted, true);

/** The tournament: its chunks, one after another (a child workflow each). */
export const TournamentWorkflow = Workflow.make("PlyTournament", {
  payload: { id: Schema.String },
  idempotencyKey: (p) => p.id,
  success: Schema.Number,
  error: Schema.String,
});

/**
 * A chunk of a tournament: `plan.chunk` games from the chunk's first (chunk c holds games
 * c·chunk to (c+1)·chunk − 1), each an activity, a game's result written once. Chunks
 * keep every workflow's journal short: a tournament of a million games is a thousand
 * workflows of a thousand activities, not one of a million, so a workflow resumed on
 * another runner reads back at most a chunk, and the chunks live on many shards.
 */
export const ChunkWorkflow = Workflow.make("PlyTournamentChunk", {
  payload: { id: Schema.String, chunk: Schema.Number },
  idempotencyKey: (p) => `${p.id}/${p.chunk}`,
  success: Schema.Number,
  error: Schema.String,
});

/** Games per chunk when the plan says none (plans stored before chunks). */
export const DEFAULT_CHUNK = 1000;

/** How many chunks the plan's games make. */
export const chunksOf = (plan: ClusterPlan): number =>
  Math.ceil(scheduleSize(plan.schedule) / (plan.chunk ?? DEFAULT_CHUNK));

/**
 * Creates the tables (every program calls it; programs starting together take turns by
 * a transaction-scoped advisory lock, since two `CREATE TABLE IF NOT EXISTS` at once can
 * collide in PostgreSQL's catalog).
 */
export const migrate = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient;
  yield* sql.withTransaction(Effect.gen(function* () {
    yield* sql`SELECT pg_advisory_xact_lock(74107)`;
    yield* sql`CREATE TABLE IF NOT EXISTS ply_tournaments (
      id TEXT PRIMARY KEY, plan TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now())`;
    yield* sql`CREATE TABLE IF NOT EXISTS ply_games (
      tournament TEXT NOT NULL, id TEXT NOT NULL, record TEXT NOT NULL,
      PRIMARY KEY (tournament, id))`;
    // The order games were written in, for following a tournament page by page.
    yield* sql`ALTER TABLE ply_games ADD COLUMN IF NOT EXISTS seq BIGSERIAL`;
    yield* sql`CREATE INDEX IF NOT EXISTS ply_games_seq ON ply_games (tournament, seq)`;
    // How the tournament ended: null while it is open, then "finished" or "cancelled".
    yield* sql`ALTER TABLE ply_tournaments ADD COLUMN IF NOT EXISTS ended TEXT`;
    // The faulted games, counted before each game is played: an index of those alone
    // (the count read every record of the tournament, each game's look longer than the
    // one before).
    yield* sql`CREATE INDEX IF NOT EXISTS ply_games_faulted ON ply_games (tournament)
      WHERE (record::jsonb ->> 'fault') IS NOT NULL`;
  }));
});

/** How a tournament ended: its workflow finished, or an operator cancelled it. */
export type TournamentEnd = "finished" | "cancelled";

/** How tournament `id` ended; undefined while it is open (or unknown). */
export const tournamentEnd = (id: string): Sql<TournamentEnd | undefined> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ ended: string | null }>`
      SELECT ended FROM ply_tournaments WHERE id = ${id}`;
    const ended = rows[0]?.ended;
    return ended === "finished" || ended === "cancelled" ? ended : undefined;
  });

/** Records how tournament `id` ended (the first end recorded stays). */
export const markEnded = (id: string, end: TournamentEnd): Sql<void> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    yield* sql`UPDATE ply_tournaments SET ended = COALESCE(ended, ${end}) WHERE id = ${id}`;
  });

/** The entity type of a workflow's messages (Effect's `ClusterWorkflowEngine` names them). */
const WORKFLOW_ENTITY = `Workflow/${TournamentWorkflow._tag}`;

/** The entity type of the chunks' messages. */
const CHUNK_ENTITY = `Workflow/${ChunkWorkflow._tag}`;

/** Which cluster messages are tournament `id`'s games (their entity ids are `id/GAME`). */
const gameMessages = (sql: SqlClient.SqlClient, id: string) =>
  sql`entity_type = ${GameEntity.type} AND entity_id LIKE ${`${id}/%`}`;

/** How many of tournament `id`'s games wait in the cluster's messages, not yet played. */
export const pendingGames = (id: string): Sql<number> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ n: number | string }>`
      SELECT count(*) AS n FROM cluster_messages WHERE ${gameMessages(sql, id)}
      AND processed = FALSE`;
    return Number(rows[0]?.n ?? 0);
  });

/**
 * Removes the persisted messages of tournament `id`'s games, and with `execution` those of
 * its workflow and of its chunks' workflows too (their replies with them), in one transaction; the number of messages
 * removed. Only for a tournament that has ended: its games are in `ply_games`, and an
 * activity of an ended tournament plays nothing (it looks first), so no message is
 * needed again. The workflow's own messages are its journal: they go only once the
 * workflow has completed.
 */
export const pruneMessages = (
  id: string,
  execution?: { readonly id: string; readonly chunks: readonly string[] },
): Sql<number> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const which = execution === undefined
      ? gameMessages(sql, id)
      : sql`(${gameMessages(sql, id)}) OR (entity_type = ${WORKFLOW_ENTITY}
        AND entity_id = ${execution.id}) OR (entity_type = ${CHUNK_ENTITY}
        AND entity_id IN ${sql.in(execution.chunks.length > 0 ? execution.chunks : [""])})`;
    return yield* sql.withTransaction(Effect.gen(function* () {
      yield* sql`DELETE FROM cluster_replies WHERE request_id IN
        (SELECT request_id FROM cluster_messages WHERE ${which})`;
      const gone = yield* sql<{ n: number | string }>`
        WITH gone AS (DELETE FROM cluster_messages WHERE ${which} RETURNING 1)
        SELECT count(*) AS n FROM gone`;
      return Number(gone[0]?.n ?? 0);
    }));
  });

/** Stores a plan under `id` (a plan already there is kept: a resubmission changes nothing). */
export const storePlan = (id: string, plan: ClusterPlan): Sql<void> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    yield* sql`INSERT INTO ply_tournaments (id, plan) VALUES (${id}, ${JSON.stringify(plan)})
      ON CONFLICT (id) DO NOTHING`;
  });

/**
 * The plan stored under `id`, if any (one stored by a ply that listed every fixture, not
 * the schedule, counts as none: its code is another ply's, whose runners play it).
 */
export const readPlan = (id: string): Sql<ClusterPlan | undefined> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ plan: string }>`SELECT plan FROM ply_tournaments WHERE id = ${id}`;
    const plan = rows.length === 0 ? undefined : JSON.parse(rows[0].plan) as ClusterPlan;
    return plan?.schedule === undefined ? undefined : plan;
  });

/** How many games of tournament `id` are kept as faulted. */
const faultedCount = (id: string): Sql<number> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ n: number | string }>`
      SELECT count(*) AS n FROM ply_games
      WHERE tournament = ${id} AND (record::jsonb ->> 'fault') IS NOT NULL`;
    return Number(rows[0]?.n ?? 0);
  });

/** How many finished games tournament `id` has in the database. */
export const gameCount = (id: string): Sql<number> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ n: number | string }>`
      SELECT count(*) AS n FROM ply_games WHERE tournament = ${id}`;
    return Number(rows[0]?.n ?? 0);
  });

/** The most games read from the database at once while following a tournament. */
export const GAMES_PAGE = 1000;

/** A page of a tournament's finished games, in the order they were written. */
export interface GamesPage {
  /** The games written after the cursor, at most `GAMES_PAGE` of them. */
  readonly records: readonly GameRecord[];
  /** The cursor after them (the next page starts there). */
  readonly after: number;
}

/**
 * The finished games of tournament `id` written after cursor `after` (0: from the first),
 * a page at a time: following a tournament reads each game once, not every game at every
 * look (`WHERE seq > after`, on an index). A game whose insert committed after a later
 * one's can be passed by the cursor; `gameCount` shows it (more games than were read), and
 * the follower reads again from the start.
 */
export const newGames = (id: string, after: number): Sql<GamesPage> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const rows = yield* sql<{ seq: number | string; record: string }>`
      SELECT seq, record FROM ply_games WHERE tournament = ${id} AND seq > ${after}
      ORDER BY seq LIMIT ${GAMES_PAGE}`;
    return {
      records: rows.map((r) => JSON.parse(r.record) as GameRecord),
      after: rows.length === 0 ? after : Number(rows[rows.length - 1].seq),
    };
  });

/** A runner's plans, loaded once per tournament. */
const plans = new Map<string, ClusterPlan>();

/** How this runner's code differs from each tournament's (undefined: it does not). */
const differences = new Map<string, Promise<string | undefined>>();

/** How this runner's code differs from the plan's, in words; undefined when it does not. */
const differs = (tournament: string, plan: ClusterPlan): Promise<string | undefined> => {
  let known = differences.get(tournament);
  if (known === undefined) {
    const theirs = plan.code;
    known = theirs === undefined ? Promise.resolve(undefined) : codeId(plan.module).then(
      (mine) => codeDifference(mine, theirs),
      (e) => `its plugin's source cannot be read here (${e instanceof Error ? e.message : e})`,
    );
    differences.set(tournament, known);
  }
  return known;
};

/**
 * The entity's handler: plays fixture `index` of the tournament's plan, at most
 * `concurrency` games at once on this runner. A runner that cannot load the game's
 * plugin takes no work: it calls `refuse` with the reason (the runner then leaves the
 * cluster) and leaves the game unplayed, so that the runner which takes its shard plays
 * it. The entity's layer builds handlers for each entity (each game), so what the runner
 * shares, its game slots, is made here, once.
 */
// deno-lint-ignore explicit-module-boundary-types -- the handlers' type is the entity's own
export const gameHandlers = (
  concurrency: number,
  refuse: (reason: string) => Effect.Effect<void>,
) => {
  const slots = Semaphore.makeUnsafe(Math.max(1, concurrency));
  const games = openGames();
  return Effect.gen(function* () {
    // The runner's flags' limits, for each game's plugin thread.
    const limits = yield* Limits;
    return GameEntity.of({
      Play: (envelope) =>
        slots.withPermits(1)(Effect.scoped(Effect.gen(function* () {
          const { tournament, index } = envelope.payload;
          let plan = plans.get(tournament);
          if (plan === undefined) {
            plan = yield* Effect.orDie(readPlan(tournament));
            if (plan === undefined) return yield* Effect.fail(`no tournament ${tournament}`);
            plans.set(tournament, plan);
          }
          // The tournament's game in its plugin thread, opened once on this runner (as a
          // local series does): a plugin that hangs or runs out of memory fails its game
          // alone, its thread is replaced for the next one, and the runner goes on.
          const loaded = yield* Effect.result(games.use(tournament, plan, limits));
          if (Result.isFailure(loaded)) {
            yield* refuse(
              `this runner cannot load ${plan.game} (tournament ${tournament}): ` +
                `${loaded.failure.message}; it takes no work (a plugin file must exist at ` +
                `${plan.module ?? plan.game} on every runner)`,
            );
            return yield* Effect.never;
          }
          // A game of a cancelled tournament already handed to this runner is not played.
          if ((yield* Effect.orDie(tournamentEnd(tournament))) === "cancelled") {
            return yield* Effect.fail(`tournament ${tournament} was cancelled`);
          }
          // Games of code other than this runner's are not played here: they would differ.
          const difference = yield* Effect.promise(() => differs(tournament, plan!));
          if (difference !== undefined) {
            yield* refuse(
              `this runner's code differs from tournament ${tournament}'s: ${difference}; ` +
                "it takes no work (run the same ply and plugin on every runner)",
            );
            return yield* Effect.never;
          }
          // Two lines per game, for whoever watches the runner: its start and its end.
          const id = fixtureAt(plan.schedule, index).id;
          yield* Effect.sync(() => console.log(`playing ${id} of tournament ${tournament}`));
          const record = yield* playFixture(plan, loaded.success, index);
          yield* Effect.sync(() => console.log(`played ${id} of tournament ${tournament}`));
          return record;
        }))),
    });
  });
};

/** How many tournaments' games a runner keeps open (their plugin threads) when idle. */
const KEEP_OPEN = 2;

/**
 * The games a runner has open, one per tournament, each in its plugin thread for as long
 * as the runner keeps it: all of a tournament's games on this runner use it (its calls
 * are synchronous, so games at once share it, as a local series's do), and no thread
 * starts before each game. Past `KEEP_OPEN` tournaments, the oldest idle one's ends.
 */
const openGames = () => {
  interface Open {
    readonly game: Effect.Effect<OpenedGame, PluginError | OptionsError>;
    readonly scope: Scope.Closeable;
    users: number;
  }
  const open = new Map<string, Open>();
  // Made at once (no fiber can come between the look and the entry): games that start
  // together for a new tournament share one opening of its game.
  const entry = (tournament: string, plan: ClusterPlan, limits: PluginLimits): Open => {
    const known = open.get(tournament);
    if (known !== undefined) return known;
    const scope = Scope.makeUnsafe();
    const game = Effect.runSync(Effect.cached(
      Scope.provide(scope)(
        Effect.provideService(
          openHostedGame(plan.module ?? plan.game, plan.options),
          Limits,
          limits,
        ),
      ),
    ));
    const made: Open = { game, scope, users: 0 };
    open.set(tournament, made);
    return made;
  };
  /** Ends the threads of the oldest idle tournaments past `KEEP_OPEN`. */
  const trim = Effect.suspend(() => {
    const ending: Scope.Closeable[] = [];
    for (const [id, o] of open) {
      if (open.size <= KEEP_OPEN) break;
      if (o.users > 0) continue;
      open.delete(id);
      ending.push(o.scope);
    }
    return Effect.forEach(ending, (scope) => Scope.close(scope, Exit.void), { discard: true });
  });
  return {
    /** The tournament's game, in use until the calling scope closes. */
    use: (tournament: string, plan: ClusterPlan, limits: PluginLimits) =>
      Effect.gen(function* () {
        const o = yield* Effect.sync(() => {
          const o = entry(tournament, plan, limits);
          o.users++;
          return o;
        });
        yield* Effect.addFinalizer(() => Effect.sync(() => void o.users--));
        yield* trim;
        return yield* o.game;
      }),
  };
};

/** Plays one fixture of a plan here; the record as JSON, or why it could not be played. */
const playFixture = (plan: ClusterPlan, loaded: OpenedGame, index: number) =>
  Effect.gen(function* () {
    const strategies = { ...allStrategies, ...loaded.plugin.strategies };
    const entrants = [];
    for (const text of plan.players) {
      const spec = parseSpec(text, strategies);
      if (Result.isFailure(spec)) return yield* Effect.fail(`player ${text}: ${spec.failure}`);
      entrants.push({
        name: text,
        agent: () => agentFromSpec<unknown>(spec.success, strategies, { source: loaded.source }),
      });
    }
    const fixture = fixtureAt(plan.schedule, index);
    let record: GameRecord | undefined;
    const end = yield* runFixtures({
      game: loaded.game,
      gameId: plan.game,
      options: loaded.options,
      entrants,
      fixtures: [fixture],
      // (One opening, whatever the round asks: the fixture's own.)
      openings: fixedOpenings([plan.openings[fixture.round]]),
      maxPlies: plan.maxPlies,
      ttMb: plan.ttMb,
      ...adjudicating(loaded, plan.adjudication),
    }, {
      concurrency: 1,
      halt: Effect.never,
      onGame: (r) => Effect.sync(() => (record = r, false)),
    });
    if (record === undefined) {
      return yield* Effect.fail(end.fault?.message ?? `game ${fixture.id} was not played`);
    }
    return JSON.stringify(record);
  });

/** What a game's activity did: played it, played it and it faulted, or skipped it. */
const GameOutcome = Schema.Literals(["played", "faulted", "skipped"]);

/**
 * The tournament's workflow: its chunks, one after another, each a child workflow (one
 * interrupted with it: a cancelled tournament stops its chunk). Returns the number of
 * games played (faulted ones included).
 */
// deno-lint-ignore explicit-module-boundary-types -- the services are the cluster's own
export const tournamentBody = (payload: { readonly id: string }) =>
  Effect.gen(function* () {
    const plan = yield* Effect.orDie(readPlan(payload.id));
    if (plan === undefined) return yield* Effect.fail(`no tournament ${payload.id}`);
    let played = 0;
    for (let chunk = 0; chunk < chunksOf(plan); chunk++) {
      played += yield* ChunkWorkflow.execute({ id: payload.id, chunk });
    }
    return played;
  });

/** The execution ids of tournament `id`'s chunks (`plan` its plan). */
export const chunkExecutions = (id: string, plan: ClusterPlan): Effect.Effect<string[]> =>
  Effect.forEach(
    Array.from({ length: chunksOf(plan) }, (_, chunk) => chunk),
    (chunk) => ChunkWorkflow.executionId({ id, chunk }),
  );

/**
 * A chunk's workflow: each of its fixtures an activity (a message to its game entity,
 * then the record written once), `concurrency` at once. An activity that starts
 * when more than `maxFaults` games have faulted skips its game (the tournament is
 * stopped; the submitter says so). Returns the number of games played (faulted ones
 * included).
 *
 * Why the retry of a failed game is the entity's, not the activity's: the game's message
 * is persisted under its id, so a second `Play` of the same game would only read back the
 * first reply; and the entity's handler is `runFixtures`, which retries with the same
 * seed exactly as a local run does, so both report the same games.
 */
// deno-lint-ignore explicit-module-boundary-types -- the services are the cluster's own
export const chunkBody = (payload: { readonly id: string; readonly chunk: number }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient;
    const client = yield* GameEntity.client;
    const plan = yield* Effect.orDie(readPlan(payload.id));
    if (plan === undefined) return yield* Effect.fail(`no tournament ${payload.id}`);
    // The chunk's games' indices, one at a time (no array of fixtures is made).
    const size = plan.chunk ?? DEFAULT_CHUNK;
    const indices = function* () {
      const end = Math.min(scheduleSize(plan.schedule), (payload.chunk + 1) * size);
      for (let i = payload.chunk * size; i < end; i++) yield i;
    };
    let played = 0;
    yield* Effect.forEach(
      indices(),
      (index) => {
        const f = fixtureAt(plan.schedule, index);
        return Activity.make({
          name: `game/${f.id}`,
          success: GameOutcome,
          error: Schema.String,
          execute: Effect.gen(function* () {
            // A cancelled tournament, or too many faulted games: this one is not played
            // (the answer is journalled).
            if ((yield* Effect.orDie(tournamentEnd(payload.id))) === "cancelled") {
              return "skipped" as const;
            }
            const faults = yield* Effect.orDie(faultedCount(payload.id));
            if (faults > plan.maxFaults) return "skipped" as const;
            const record = yield* client(`${payload.id}/${f.id}`).Play({
              tournament: payload.id,
              index,
            }).pipe(deliveryDies);
            yield* Effect.orDie(sql`INSERT INTO ply_games (tournament, id, record)
              VALUES (${payload.id}, ${f.id}, ${record}) ON CONFLICT DO NOTHING`);
            return (JSON.parse(record) as GameRecord).fault !== undefined
              ? "faulted" as const
              : "played" as const;
          }),
        }).pipe(Effect.tap((o) => Effect.sync(() => void (o !== "skipped" && played++))));
      },
      { concurrency: plan.concurrency, discard: true },
    );
    return played;
  });
