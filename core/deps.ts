/**
 * The one place the core names its `effect` version. Everything under `core/`,
 * `plugins/` and `scripts/` imports Effect from here, so `mod.ts` stays importable
 * from a URL (a remote module ignores the importer's import map).
 *
 * @module
 */
export {
  Cause,
  Clock,
  Context,
  Data,
  Deferred,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Option,
  Pull,
  Queue,
  Random,
  Result,
  Schema,
  SchemaAST,
  SchemaIssue,
  Scope,
  Stream,
} from "npm:effect@4.1.0";
