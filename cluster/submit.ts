/**
 * A tournament submitted to the cluster (`deno task tournament ... --cluster URL`): the
 * plan stored under an id made from it (the same command again resumes the same
 * tournament), the workflow started, and its finished games read back as they are
 * written, with the same progress and results as a local run: faulted games among them,
 * and the same one line as a local run when more than `--max-faults` faulted. Following
 * ends when every game is in or the workflow has ended (a workflow that failed ends it
 * with the reason).
 *
 * @module
 */
import { Cause, Effect, Exit, Option } from "../core/deps.ts";
import { Terminal } from "../app/terminal.ts";
import type { GameRecord } from "../app/tournament/runner.ts";
import { database, shardingLayer, workflowEngine } from "./layers.ts";
import { operatorLogging } from "./log.ts";
import {
  chunkExecutions,
  type ClusterPlan,
  gameCount,
  GAMES_PAGE,
  markEnded,
  migrate,
  newGames,
  pendingGames,
  pruneMessages,
  readPlan,
  storePlan,
  tournamentEnd,
  TournamentWorkflow,
} from "./tournament.ts";
import { faultedGames, type SeriesEnd, type SoFar, tooManyFaults } from "../app/series.ts";
import { type KeptGames, retriedOf } from "../app/tournament/folder.ts";
import { codeDifference } from "../app/tournament/code.ts";
import { scheduleSize } from "../app/tournament/schedule.ts";

/**
 * The id of a plan: the same plan, the same tournament. Its games in flight
 * (`concurrency`, by default the submitting machine's cores, and not in `argv`) and its
 * chunks' size (`--chunk`) are left out, so that `--resume ID` from another machine finds the same tournament; everything
 * else of the plan, `maxFaults` with it, comes from `argv`.
 */
const planId = async (plan: ClusterPlan): Promise<string> => {
  const { concurrency: _, chunk: _chunk, ...what } = plan;
  const bytes = new TextEncoder().encode(JSON.stringify(what));
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
  readonly done: KeptGames;
  /**
   * Hears each new finished game, with the counts so far (the program tallies what it
   * reports: following keeps no records, only the games' ids).
   */
  readonly onGame: (record: GameRecord, soFar: SoFar) => void;
  /** False to show the games so far and stop (`--status`): nothing is submitted. */
  readonly follow: boolean;
  /** Hears the tournament's id once it is submitted. */
  readonly onSubmitted: (id: string) => Effect.Effect<void, never, Terminal>;
  /**
   * The tournament asked for (`--status`/`--resume ID`): a plan that is not its (made here
   * by other code) is refused, naming the difference, rather than taken for another.
   */
  readonly id?: string;
}

/** A failure's reason in one line. */
const why = (cause: Cause.Cause<unknown>): string => {
  const e = Cause.squash(cause);
  const text = typeof e === "string" ? e : e instanceof Error ? e.message : String(e);
  return text.split("\n")[0];
};

/**
 * The stop of a tournament past its `maxFaults` (the local run's line, its last reason
 * the last faulted game's in schedule order), or nothing.
 */
const faultStop = (
  records: readonly GameRecord[],
  maxFaults: number,
): SeriesEnd["fault"] => {
  const faulted = faultedGames(records);
  if (faulted.length <= maxFaults) return undefined;
  const last = faulted[faulted.length - 1];
  return { message: tooManyFaults(faulted.length, maxFaults, last.reason), id: last.id };
};

/** The line of a cancelled tournament. */
const cancelledLine = (id: string): string =>
  `tournament ${id} was cancelled (deno task tournament --cancel ${id}); its finished ` +
  "games are kept";

/**
 * Submits the plan (or finds it submitted) and follows it until its workflow has ended
 * (every game in, or stopped by its faults; or failed: then this fails with the reason),
 * it is cancelled, or the user presses Ctrl-C (the tournament goes on in the cluster).
 * With `follow` false, the games so far once (and the workflow's failure, if it failed).
 * A tournament whose workflow has completed has its persisted messages removed (the
 * games are in `ply_games`), and is not submitted again: the same command reads it.
 */
export const runOnCluster = (run: ClusterRun): Effect.Effect<SeriesEnd, string, Terminal> =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const id = yield* Effect.promise(() => planId(run.plan));
    if (run.id !== undefined && run.id !== id) {
      const asked = run.id;
      const stored = yield* readPlan(asked).pipe(
        Effect.provide(database(run.url)),
        Effect.catchTag("SqlError", (e) => Effect.fail(`the cluster at ${run.url}: ${e.message}`)),
      );
      const theirs = stored?.code, mine = run.plan.code;
      const difference = theirs !== undefined && mine !== undefined
        ? codeDifference(mine, theirs)
        : undefined;
      return yield* Effect.fail(
        difference !== undefined
          ? `tournament ${asked} was planned with other code than this machine's: ` +
            `${difference}; follow it from a machine with the same ply and plugin`
          : `tournament ${asked}'s plan differs from the one this machine makes of its ` +
            "arguments; follow it from the machine that submitted it",
      );
    }
    const t0 = performance.now();
    const seen = new Set(run.done.ids);
    const faulted = [...run.done.faulted];
    const retried = [...run.done.retried];
    // Where following has read to in the tournament's games (`newGames`' cursor).
    let cursor = 0;
    let gameMs = 0;
    // The games the first look finds were played before this program looked (a resumed
    // follow, a --status): not this run's, in its counts and its speed.
    let before = -1;
    let cancelled = false;
    yield* Effect.scoped(
      Effect.gen(function* () {
        yield* migrate;
        // An ended tournament is read, not submitted again (its messages are gone).
        const ended = yield* tournamentEnd(id);
        const live = run.follow && ended === undefined;
        let execution: string;
        if (live) {
          yield* storePlan(id, run.plan);
          execution = yield* TournamentWorkflow.execute({ id }, { discard: true });
        } else {
          execution = yield* TournamentWorkflow.executionId({ id });
        }
        // (An ended tournament was submitted before: the same command finds it.)
        if (run.follow) yield* run.onSubmitted(id);
        while (!(yield* term.interrupted)) {
          // The workflow's state first, then the games: a workflow that has ended wrote
          // every game it played before it ended.
          const polled = yield* Effect.exit(TournamentWorkflow.poll(execution));
          const page = yield* newGames(id, cursor);
          cursor = page.after;
          const fresh = page.records.filter((r) => !seen.has(r.id));
          for (const r of fresh) {
            seen.add(r.id);
            if (r.fault !== undefined) faulted.push(r);
            if (r.retried !== undefined) retried.push(retriedOf(r));
            if (before >= 0) gameMs += r.ms;
            run.onGame(r, { games: seen.size, faulted: faulted.length });
          }
          // (The first look is every page of them: the catch-up ends at a page not full.)
          if (before < 0 && page.records.length < GAMES_PAGE) before = seen.size;
          const failed = Exit.isFailure(polled)
            ? polled.cause
            : Option.isSome(polled.value) && polled.value.value._tag === "Complete" &&
                Exit.isFailure(polled.value.value.exit)
            ? polled.value.value.exit.cause
            : undefined;
          // A cancelled tournament's workflow was interrupted: that is its end, not a failure.
          cancelled = (yield* tournamentEnd(id)) === "cancelled";
          if (failed !== undefined && !cancelled) {
            return yield* Effect.fail(`tournament ${id} failed: ${why(failed)}`);
          }
          const complete = Exit.isSuccess(polled) && Option.isSome(polled.value) &&
            polled.value.value._tag === "Complete";
          // A full page: more games wait to be read, whatever the workflow's state.
          if (page.records.length === GAMES_PAGE) continue;
          if (complete && !cancelled) {
            // Its games are all in: the tournament's messages are no longer needed.
            yield* markEnded(id, "finished");
            const stored = (yield* readPlan(id)) ?? run.plan;
            yield* pruneMessages(id, { id: execution, chunks: yield* chunkExecutions(id, stored) });
          }
          const done = complete || !live || cancelled;
          if (fresh.length === 0 || done) {
            // A game passed by the cursor (its insert committed after a later one's): the
            // count says so, and the next look reads from the start again.
            if ((yield* gameCount(id)) > seen.size) {
              cursor = 0;
              continue;
            }
            if (done) break;
            yield* Effect.sleep("200 millis");
          }
        }
      }).pipe(
        Effect.provide(workflowEngine),
        Effect.provide(shardingLayer(run.url)),
        Effect.provide(operatorLogging),
      ),
    ).pipe(Effect.mapError((e) => `the cluster at ${run.url}: ${String(e)}`));
    const fault = cancelled
      ? { message: cancelledLine(id), id: "" }
      : faultStop(faulted, run.plan.maxFaults);
    return {
      games: seen.size,
      faulted,
      retried,
      played: seen.size - Math.max(before, run.done.ids.size),
      interrupted: yield* term.interrupted,
      wallMs: performance.now() - t0,
      gameMs,
      halted: seen.size < scheduleSize(run.plan.schedule),
      ...(fault !== undefined ? { fault } : {}),
    };
  });

/** What `--cancel ID` did. */
export interface Cancelled {
  /** The games the tournament has. */
  readonly scheduled: number;
  /** Its finished games, kept. */
  readonly kept: number;
  /** Its games that were waiting for a runner, removed. */
  readonly removed: number;
}

/**
 * Cancels tournament `id` (`--cancel ID`): marks it cancelled (every activity and runner
 * looks before it plays: nothing more is played), interrupts its workflow, and removes
 * its games' pending messages; its finished games stay. The workflow's own messages go
 * once it has stopped (here, or at the next `--status ID`).
 */
export const cancelTournament = (url: string, id: string): Effect.Effect<Cancelled, string> =>
  Effect.scoped(Effect.gen(function* () {
    yield* migrate;
    const plan = yield* readPlan(id);
    if (plan === undefined) {
      return yield* Effect.fail(`the cluster at ${url} has no tournament ${id}`);
    }
    if ((yield* tournamentEnd(id)) === "finished") {
      return yield* Effect.fail(`tournament ${id} has finished: there is nothing to cancel`);
    }
    yield* markEnded(id, "cancelled");
    const removed = yield* pendingGames(id);
    const execution = yield* TournamentWorkflow.executionId({ id });
    yield* TournamentWorkflow.interrupt(execution);
    yield* pruneMessages(id);
    const polled = yield* TournamentWorkflow.poll(execution);
    if (Option.isSome(polled) && polled.value._tag === "Complete") {
      yield* pruneMessages(id, { id: execution, chunks: yield* chunkExecutions(id, plan) });
    }
    return { scheduled: scheduleSize(plan.schedule), kept: yield* gameCount(id), removed };
  })).pipe(
    Effect.provide(workflowEngine),
    Effect.provide(shardingLayer(url)),
    Effect.provide(operatorLogging),
    Effect.catchTag("SqlError", (e) => Effect.fail(`the cluster at ${url}: ${e.message}`)),
    Effect.mapError((e) => typeof e === "string" ? e : `the cluster at ${url}: ${String(e)}`),
  );
