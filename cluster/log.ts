/**
 * What a runner tells its operator: one line per event of the cluster (a database that
 * cannot be reached, shard locks lost and recovered), the root cause's message instead
 * of a stack trace, and a line repeated only when it changes (the cluster retries on its
 * own, every few seconds).
 *
 * @module
 */
import { Cause } from "../core/deps.ts";
import { Logger } from "./deps.ts";

/** The innermost message of an error and its causes (`connect ECONNREFUSED ...`). */
const rootMessage = (e: unknown): string => {
  let message = e instanceof Error ? e.message : String(e);
  for (let c = e instanceof Error ? e.cause : undefined, n = 0; c !== undefined && n < 20; n++) {
    if (c instanceof Error && c.message !== "") message = c.message;
    c = c instanceof Error ? c.cause : undefined;
  }
  return message;
};

/** A log line: the time, the level, the message and the root cause of a failure. */
const logLine = (options: {
  readonly message: unknown;
  readonly logLevel: string;
  readonly cause: Cause.Cause<unknown>;
  readonly date: Date;
}): string => {
  const parts = (Array.isArray(options.message) ? options.message : [options.message]).map((m) =>
    typeof m === "string" ? m : rootMessage(m)
  );
  const failure = Cause.hasFails(options.cause) || Cause.hasDies(options.cause)
    ? `: ${rootMessage(Cause.squash(options.cause))}`
    : "";
  return `${options.date.toISOString().slice(11, 19)} ${options.logLevel.toLowerCase()}: ${
    parts.join(" ")
  }${failure}`;
};

/** The runner's logger: `logLine`s on standard error, a repeated line shown once. */
const operatorLogger: Logger.Logger<unknown, void> = (() => {
  let last = "";
  return Logger.make((options) => {
    const line = logLine(options);
    const same = line.slice(9); // without the time
    if (same === last) return;
    last = same;
    console.error(line);
  });
})();

/** The layer that puts `operatorLogger` in place of Effect's default logger. */
export const operatorLogging = Logger.layer([operatorLogger]);
