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
export const faultTrace = (e: PluginFault | SearchFailed): string | undefined =>
  e instanceof PluginFault ? (e.cause instanceof Error ? e.cause.stack : String(e.cause)) : e.trace;
