/**
 * `deno task runner --cluster postgres://... [--host 127.0.0.1] [--port P] [--concurrency C]`
 *
 * Lends this machine's cores to tournaments and solves on the cluster: a runner of Effect
 * Cluster that plays the games (`PlyGame`) and runs the tournaments (`PlyTournament`),
 * and solves the units (`PlySolveUnit`) and runs the solves (`PlySolve`), whose shards it
 * holds, at most C games (or units) at once. Ctrl-C stops it; its shards move to the
 * other runners, and a game it was playing is played again there.
 *
 * @module
 */
import { reachCluster } from "../cluster/reach.ts";
import { Deferred, Effect, Layer } from "../core/deps.ts";
import { References } from "../cluster/deps.ts";
import { defaultWorkers } from "../core/parallel/pool.ts";
import { Terminal } from "../app/terminal.ts";
import { serveRunner, shardingLayer, workflowEngine } from "../cluster/layers.ts";
import { operatorLogging } from "../cluster/log.ts";
import {
  chunkBody,
  ChunkWorkflow,
  GameEntity,
  gameHandlers,
  migrate,
  tournamentBody,
  TournamentWorkflow,
} from "../cluster/tournament.ts";
import {
  migrateSolves,
  solveBody,
  solveHandlers,
  SolveUnitEntity,
  SolveWorkflow,
} from "../cluster/solve.ts";
import { intFlag, parseCommandLine, printHelp, runMain, UsageError } from "../app/cli.ts";

const USAGE = `Usage: deno task runner --cluster postgres://USER@HOST:PORT/DB [flags]
Lends this machine to tournaments and solves on the cluster (deno task tournament ...
--cluster URL, deno task solve ... --cluster URL): plays the games and solves the units of
the shards it holds. Ctrl-C stops it; its work moves to other runners.

  --cluster URL    the PostgreSQL database every machine reaches
  --host H         the address other runners reach this one at (default 127.0.0.1)
  --port P         its port (default: a free one)
  --concurrency C  games (or units) at once (default: the cores)
  --workers N      engine workers (default: the cores)
  --debug          the cluster's debug log on standard error (shards, runners, messages)
`;

const FLAGS = {
  string: ["cluster", "host", "port", "concurrency", "workers"],
  boolean: [],
  positionals: 0,
} as const;

/** A free TCP port on `host`. */
const freePort = (host: string): number => {
  const l = Deno.listen({ hostname: host, port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
};

const main = Effect.gen(function* () {
  const { flags } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, undefined);
  if (typeof flags.cluster !== "string") {
    return yield* new UsageError({ message: "--cluster postgres://... is needed" });
  }
  const url = flags.cluster;
  // A database not up yet is waited for (Ctrl-C stops); one that refuses is one line.
  if (!(yield* reachCluster(url))) return 0;
  const host = typeof flags.host === "string" ? flags.host : "127.0.0.1";
  const port = flags.port === undefined
    ? freePort(host)
    : yield* intFlag(flags, "port", 0, 1, 65535);
  const concurrency = yield* intFlag(flags, "concurrency", defaultWorkers(), 1, 256);
  const address = { host, port };
  // A game this runner cannot load makes it leave the cluster (its shards, and the
  // game, go to the others) with the reason.
  const refused = yield* Deferred.make<string>();
  const refuse = (reason: string) => Deferred.succeed(refused, reason).pipe(Effect.asVoid);
  const cluster = Layer.mergeAll(
    GameEntity.toLayer(gameHandlers(concurrency, refuse)),
    TournamentWorkflow.toLayer(tournamentBody).pipe(Layer.provide(workflowEngine)),
    ChunkWorkflow.toLayer(chunkBody).pipe(Layer.provide(workflowEngine)),
    SolveUnitEntity.toLayer(solveHandlers(concurrency, refuse)),
    SolveWorkflow.toLayer(solveBody).pipe(Layer.provide(workflowEngine)),
  ).pipe(Layer.provideMerge(shardingLayer(url, address)));
  const reason = yield* Effect.scoped(
    Effect.gen(function* () {
      yield* migrate;
      yield* migrateSolves;
      yield* serveRunner(address);
      yield* term.print(
        `runner at ${host}:${port}, ${concurrency} games at once (Ctrl-C stops it)\n`,
      );
      return yield* Effect.raceFirst(
        Effect.as(term.interruption, undefined),
        Deferred.await(refused),
      );
    }).pipe(
      Effect.provide(cluster),
      Effect.provide(operatorLogging),
      // --debug: the cluster's own debug log too (shard assignments, runners joining).
      Effect.provideService(References.MinimumLogLevel, flags.debug === true ? "Debug" : "Info"),
    ),
  ).pipe(
    Effect.catch((e) => Effect.fail(new UsageError({ message: `the cluster: ${String(e)}` }))),
  );
  if (reason !== undefined) {
    yield* term.print(`runner stopped: ${reason}\n`);
    return 1;
  }
  yield* term.print("runner stopped\n");
});

if (import.meta.main) runMain(main, "deno task runner");
