/**
 * A tournament submitted to the cluster (`deno task tournament ... --cluster URL`): the
 * plan stored under an id made from it (the same command again resumes the same
 * tournament), the workflow started, and its finished games read back as they are
 * written, with the same progress and results as a local run.
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { Terminal } from "../app/terminal.ts";
import type { GameRecord } from "../app/tournament/runner.ts";
import { database, shardingLayer, workflowEngine } from "./layers.ts";
import { operatorLogging } from "./log.ts";
import {
  type ClusterPlan,
  migrate,
  newGames,
  readPlan,
  storePlan,
  TournamentWorkflow,
} from "./tournament.ts";
import type { SeriesEnd } from "../app/series.ts";

/** The id of a plan: the same plan, the same tournament. */
const planId = async (plan: ClusterPlan): Promise<string> => {
  const bytes = new TextEncoder().encode(JSON.stringify(plan));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return "t" + [...digest.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
};

/** The arguments tournament `id` was submitted with (`--status`/`--resume ID`). */
export const storedArgs = (url: string, id: string): Effect.Effect<readonly string[], string> =>
  Effect.gen(function* () {
    yield* migrate;
    const plan = yield* readPlan(id);
    if (plan === undefined) {
      return yield* Effect.fail(`the cluster at ${url} has no tournament ${id}`);
    }
    return plan.argv;
  }).pipe(
    Effect.provide(database(url)),
    Effect.catchTag("SqlError", (e) => Effect.fail(`the cluster at ${url}: ${e.message}`)),
  );

/** What `runOnCluster` needs. */
export interface ClusterRun {
  /** The database URL. */
  readonly url: string;
  /** The plan. */
  readonly plan: ClusterPlan;
  /** The games already kept locally (not handed to `onGame` again). */
  readonly done: readonly GameRecord[];
  /** Hears each new finished game, with all games so far. */
  readonly onGame: (record: GameRecord, all: readonly GameRecord[]) => void;
  /** False to show the games so far and stop (`--status`): nothing is submitted. */
  readonly follow: boolean;
  /** Hears the tournament's id once it is submitted. */
  readonly onSubmitted: (id: string) => Effect.Effect<void, never, Terminal>;
}

/**
 * Submits the plan (or finds it submitted) and follows it until every game is in, or
 * the user presses Ctrl-C (the tournament goes on in the cluster).
 */
export const runOnCluster = (run: ClusterRun): Effect.Effect<SeriesEnd, string, Terminal> =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const id = yield* Effect.promise(() => planId(run.plan));
    const t0 = performance.now();
    const records = [...run.done];
    const seen = new Set(run.done.map((r) => r.id));
    let gameMs = 0;
    yield* Effect.scoped(
      Effect.gen(function* () {
        yield* migrate;
        if (run.follow) {
          yield* storePlan(id, run.plan);
          yield* TournamentWorkflow.execute({ id }, { discard: true });
          yield* run.onSubmitted(id);
        }
        let once = !run.follow;
        while (seen.size < run.plan.fixtures.length && !(yield* term.interrupted)) {
          const fresh = yield* newGames(id, seen);
          for (const r of fresh) {
            seen.add(r.id);
            records.push(r);
            gameMs += r.ms;
            run.onGame(r, records);
          }
          if (once) break;
          once = false;
          if (fresh.length === 0) yield* Effect.sleep("200 millis");
        }
      }).pipe(
        Effect.provide(workflowEngine),
        Effect.provide(shardingLayer(run.url)),
        Effect.provide(operatorLogging),
      ),
    ).pipe(Effect.mapError((e) => `the cluster at ${run.url}: ${String(e)}`));
    return {
      records,
      played: records.length - run.done.length,
      interrupted: yield* term.interrupted,
      wallMs: performance.now() - t0,
      gameMs,
      halted: records.length < run.plan.fixtures.length,
    };
  });
