/**
 * The errors the engine reports, in one module that the searches, the worker pool, the
 * engine service and the plugin loader all import (so that none imports another for them).
 *
 * @module
 */
import { type Cause, Schema } from "./deps.ts";

/** The fields of `SearchFailed`. */
const searchFailedFields: {
  readonly message: Schema.String;
  readonly trace: Schema.optional<Schema.String>;
} = {
  message: Schema.String,
  /** Where it happened (a plugin's stack), for `--debug`. */
  trace: Schema.optional(Schema.String),
};

// The superclass as a variable of an explicit type: JSR's fast check reads no call there.
const SearchFailedBase: Schema.Class<
  SearchFailed,
  Schema.TaggedStruct<"SearchFailed", typeof searchFailedFields>,
  Cause.YieldableError
> = Schema.TaggedError<SearchFailed>()("SearchFailed", searchFailedFields);

/**
 * A search could not complete: a worker failed, a plugin threw or did not stop, or the
 * game cannot be sent to a worker. The message is written for the user.
 */
export class SearchFailed extends SearchFailedBase {}

/** The fields of `ParallelUnavailable`. */
const parallelUnavailableFields: {
  readonly strategy: Schema.String;
  readonly message: Schema.String;
} = {
  /** The parallel strategy's name. */
  strategy: Schema.String,
  /** Why it cannot run, written for the user. */
  message: Schema.String,
};

// The superclass as a variable of an explicit type, as `SearchFailedBase`.
const ParallelUnavailableBase: Schema.Class<
  ParallelUnavailable,
  Schema.TaggedStruct<"ParallelUnavailable", typeof parallelUnavailableFields>,
  Cause.YieldableError
> = Schema.TaggedError<ParallelUnavailable>()("ParallelUnavailable", parallelUnavailableFields);

/**
 * A parallel strategy was asked to run where it cannot: no game source to rebuild the game
 * in workers (a game made by `plugin.create` or `makeGame` rather than opened), or inside
 * a search worker, which has no pool of its own. It never runs another search instead.
 *
 * @example
 * ```ts
 * import { ParallelUnavailable } from "./errors.ts";
 * const e = new ParallelUnavailable({ strategy: "young_bros", message: "no source" });
 * if (e._tag !== "ParallelUnavailable" || e.strategy !== "young_bros") throw new Error();
 * ```
 */
export class ParallelUnavailable extends ParallelUnavailableBase {}

/** Why a search did not give a result: it failed, or a parallel one could not run. */
export type SearchError = SearchFailed | ParallelUnavailable;

/**
 * A plugin's function threw: the plugin's fault, not the engine's. Thrown by a guarded
 * game (see `guardGame`) in place of the plugin's own exception, which it keeps as
 * `cause`.
 *
 * @example
 * ```ts
 * import { PluginFault } from "./errors.ts";
 * const f = new PluginFault("./my.ts", "moves", new Error("boom"));
 * if (f.message !== "plugin ./my.ts failed in moves(): boom") throw new Error(f.message);
 * ```
 */
export class PluginFault extends Error {
  /** Wraps the plugin's exception `cause`, thrown by its function `fn`. */
  constructor(
    /** The plugin (its id or module specifier). */
    readonly plugin: string,
    /** The game function that threw (`moves`, `play`, ...). */
    readonly fn: string,
    /** What the plugin threw. */
    override readonly cause: unknown,
  ) {
    super(
      `plugin ${plugin} failed in ${fn}(): ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
    );
    this.name = "PluginFault";
  }
}

/** The stack of a plugin's exception (or of a failed search), for `--debug`. */
export const faultTrace = (e: PluginFault | SearchError): string | undefined =>
  e instanceof PluginFault
    ? (e.cause instanceof Error ? e.cause.stack : String(e.cause))
    : e instanceof SearchFailed
    ? e.trace
    : undefined;
