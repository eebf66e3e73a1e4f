/**
 * The cluster's database as the runner and the submitting program reach it at start: a
 * `--cluster` that is not a PostgreSQL URL refused in one line, a database not up yet waited
 * for (one status line, until Ctrl-C), one that refuses said in one line
 * (`reachPostgres`, `app/store/postgres.ts`).
 *
 * @module
 */
import { Effect, Option } from "../core/deps.ts";
import { UsageError } from "../app/cli.ts";
import { Terminal, untilInterrupted } from "../app/terminal.ts";
import { isPostgres, notPostgres, reachPostgres } from "../app/store/postgres.ts";

/**
 * Reaches the cluster's database at `url` (`--cluster`): true once it answers, false when
 * the user pressed Ctrl-C while it was waited for.
 */
export const reachCluster = (url: string): Effect.Effect<boolean, UsageError, Terminal> =>
  Effect.gen(function* () {
    if (!isPostgres(url)) return yield* new UsageError({ message: notPostgres("--cluster", url) });
    const term = yield* Terminal;
    const reached = yield* untilInterrupted(
      reachPostgres(url, (line) => term.print(`${line}\n`)),
    ).pipe(Effect.mapError((message) => new UsageError({ message })));
    return Option.isSome(reached);
  });
