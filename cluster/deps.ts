/**
 * The one place the cluster names its dependencies: Effect's cluster, workflow, RPC and
 * SQL modules (marked unstable by Effect: the version is pinned here and in
 * `core/deps.ts` alike, one copy of Effect) and the PostgreSQL client `@effect/sql-pg`.
 *
 * @module
 */
// First, before Effect loads (see the module).
import "../core/no_async_context.ts";
export {
  ClusterSchema,
  ClusterWorkflowEngine,
  Entity,
  HttpRunner,
  RunnerAddress,
  RunnerHealth,
  ShardingConfig,
  SqlMessageStorage,
  SqlRunnerStorage,
} from "npm:effect@4.1.0/cluster";
export { Activity, Workflow } from "npm:effect@4.1.0/workflow";
export { Rpc, RpcSerialization } from "npm:effect@4.1.0/rpc";
export { FetchHttpClient, HttpEffect } from "npm:effect@4.1.0/http";
export { Digest } from "npm:effect@4.1.0/crypto";
export { SqlClient, SqlError } from "npm:effect@4.1.0/sql";
export { PgClient } from "npm:@effect/sql-pg@4.0.5";
export * as Logger from "npm:effect@4.1.0/Logger";
export * as Redacted from "npm:effect@4.1.0/Redacted";
export * as References from "npm:effect@4.1.0/References";
export * as Semaphore from "npm:effect@4.1.0/Semaphore";
