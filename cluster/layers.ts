/**
 * The cluster's plumbing: PostgreSQL for the messages and the runners (Effect's own
 * `SqlMessageStorage`/`SqlRunnerStorage`), runners that talk HTTP to each other
 * (`HttpRunner`, served here by `Deno.serve`), and the workflow engine on top.
 *
 * @module
 */
import { postgresLayer } from "../app/store/postgres.ts";
import { Duration, Effect, Layer, Option } from "../core/deps.ts";
import {
  ClusterWorkflowEngine,
  Digest,
  FetchHttpClient,
  HttpEffect,
  HttpRunner,
  RpcSerialization,
  RunnerAddress,
  RunnerHealth,
  ShardingConfig,
  SqlMessageStorage,
  SqlRunnerStorage,
} from "./deps.ts";

/** Where a runner listens (`undefined` for a client that runs no entity: the coordinator). */
export interface Address {
  /** The host other runners reach it at (loopback in the tests). */
  readonly host: string;
  /** Its port. */
  readonly port: number;
}

/** The database every machine reaches (its password found as `postgresLayer` finds it). */
export const database = (url: string): ReturnType<typeof postgresLayer> => postgresLayer(url);

/**
 * How soon a runner that died (`kill -9`, a crash, its machine gone) is noticed and its
 * shards, with the games sent to them, are taken by the others. Effect's defaults (a shard
 * lock and a runner's heartbeat expire after 35 s, assignments refreshed every 3 s) made
 * every game of a dead runner's shards wait about 36 s; with these, under 5 s (README:
 * measured). A runner that stops gracefully (Ctrl-C, SIGTERM) gives its shards up at once.
 * The cost: each runner writes its heartbeat and locks about once a second.
 */
export const HAND_OVER = {
  shardLockExpiration: Duration.seconds(3),
  shardLockRefreshInterval: Duration.seconds(1),
  refreshAssignmentsInterval: Duration.seconds(1),
} as const;

/**
 * Sharding over the database: the runner at `address` (hosting entities and workflows),
 * or a client only. Messages to entities are stored in the database, so a message to a
 * runner that dies is delivered again to the runner that takes its shards.
 */
// deno-lint-ignore explicit-module-boundary-types -- the layer provides the cluster's services
export const shardingLayer = (url: string, address?: Address) =>
  HttpRunner.layerClient.pipe(
    // A runner that dies is noticed by its shard locks in the database expiring.
    Layer.provide(RunnerHealth.layerNoop),
    Layer.provideMerge(
      HttpRunner.layerClientProtocolHttp({ path: "/" }).pipe(
        Layer.provideMerge(FetchHttpClient.layer),
        Layer.provideMerge(RpcSerialization.layerNdjson),
      ),
    ),
    Layer.provideMerge(
      Layer.mergeAll(SqlMessageStorage.layer, SqlRunnerStorage.layer).pipe(
        Layer.provide(Digest.layerWebCrypto),
        Layer.provideMerge(ShardingConfig.layer({
          runnerAddress: address === undefined
            ? Option.none()
            : Option.some(RunnerAddress.make(address.host, address.port)),
          shardsPerGroup: 60,
          ...HAND_OVER,
        })),
        Layer.provideMerge(database(url)),
      ),
    ),
  );

/** The workflow engine of the cluster (workflows run as entities on the runners). */
export const workflowEngine = ClusterWorkflowEngine.layer;

/**
 * Serves the runner's end of the cluster protocol at `address` for the scope's life
 * (`Deno.serve`; other runners and clients post to it).
 */
// deno-lint-ignore explicit-module-boundary-types -- it needs the cluster's services
export const serveRunner = (address: Address) =>
  Effect.gen(function* () {
    const http = yield* HttpRunner.toHttpEffect;
    const handler = HttpEffect.toWebHandler(http);
    const server = yield* Effect.acquireRelease(
      Effect.sync(() =>
        Deno.serve(
          { hostname: address.host, port: address.port, onListen: () => {} },
          (request) => handler(request),
        )
      ),
      (s) => Effect.promise(() => s.shutdown()),
    );
    return server;
  });

/** The tags of an entity call's delivery failures (`deliveryDies`). */
const DELIVERY = new Set([
  "MailboxFull",
  "AlreadyProcessingMessage",
  "PersistenceError",
  "EntityNotAssignedToRunner",
]);

/** An entity call's delivery failure, by its tag. */
type Delivery = {
  readonly _tag:
    | "MailboxFull"
    | "AlreadyProcessingMessage"
    | "PersistenceError"
    | "EntityNotAssignedToRunner";
};

/**
 * An entity call whose delivery failed (a full mailbox, a message already in progress,
 * the message store, a shard not yet assigned) is a defect of the cluster, not the work's
 * failure: the activity dies, and the workflow engine runs it again.
 */
export const deliveryDies = <A, E, R>(
  call: Effect.Effect<A, E, R>,
): Effect.Effect<A, Exclude<E, Delivery>, R> =>
  Effect.catch(
    call,
    (e) =>
      DELIVERY.has((e as { readonly _tag?: string })?._tag ?? "")
        ? Effect.die(e)
        : Effect.fail(e as Exclude<E, Delivery>),
  );
