/**
 * PostgreSQL as ply's programs reach it (`serve --db`, the cluster's `runner` and
 * `tournament --cluster`): the password from the URL, else from `PGPASSWORD`, else from the
 * password file (`PGPASSFILE`, default `~/.pgpass`, libpq's format), so that it need not be
 * on a command line (`deno task` prints the command, and `ps` shows it); a URL as messages
 * show it, never with its password; and a database that is not reachable yet at start
 * waited for, with backoff and one status line, where one that refuses (a wrong password,
 * no such database) is said in one line at once.
 *
 * @module
 */
import { Effect, Layer } from "../../core/deps.ts";
import { PgClient, Redacted, SqlClient, type SqlError } from "./deps.ts";

/** True when a target names a PostgreSQL database (a URL) rather than a file. */
export const isPostgres = (target: string): boolean => /^postgres(ql)?:\/\//.test(target);

/** A PostgreSQL URL as messages show it: its password, if it has one, as `***`. */
export const describePostgres = (target: string): string => {
  try {
    const url = new URL(target);
    if (url.password !== "") url.password = "***";
    return url.href;
  } catch {
    return "a PostgreSQL URL";
  }
};

/**
 * Why a `--cluster` or `--db` text is refused when it is not a PostgreSQL URL, showing the
 * text without what comes before an `@` (a password, perhaps).
 */
export const notPostgres = (flag: string, text: string): string =>
  `${flag}: '${text.includes("@") ? `***@${text.split("@").pop()}` : text}' is not a ` +
  "PostgreSQL URL (postgres://USER@HOST:PORT/DB)";

/** Where the environment is read (`Deno.env`, or a test's). */
export interface Env {
  readonly get: (name: string) => string | undefined;
}

/** The process's environment, a variable the program may not read being unset. */
const processEnv: Env = {
  get: (name) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  },
};

/** One field of a password file's line: `\:` and `\\` are escapes, `*` matches anything. */
const matches = (field: string, value: string): boolean => field === "*" || field === value;

/** The fields of a password file's line (`host:port:database:user:password`). */
const fields = (line: string): string[] => {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && i + 1 < line.length) cur += line[++i];
    else if (c === ":") {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
};

/**
 * The password for a PostgreSQL URL: its own, else `PGPASSWORD`, else the first matching
 * line of the password file (`PGPASSFILE`, default `$HOME/.pgpass`); none when none says.
 *
 * @example
 * ```ts
 * import { passwordFor } from "./postgres.ts";
 * const env = { get: (k: string) => (k === "PGPASSWORD" ? "s3cret" : undefined) };
 * if (passwordFor("postgres://ply@db:5432/ply", env) !== "s3cret") throw new Error();
 * ```
 */
export const passwordFor = (target: string, env: Env = processEnv): string | undefined => {
  const url = new URL(target);
  if (url.password !== "") return decodeURIComponent(url.password);
  const given = env.get("PGPASSWORD");
  if (given !== undefined && given !== "") return given;
  const home = env.get("HOME");
  const file = env.get("PGPASSFILE") ?? (home !== undefined ? `${home}/.pgpass` : undefined);
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return undefined;
  }
  const host = url.hostname === "" ? "localhost" : url.hostname;
  const port = url.port === "" ? "5432" : url.port;
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || user;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const f = fields(line);
    if (f.length < 5) continue;
    if (
      matches(f[0], host) && matches(f[1], port) && matches(f[2], database) && matches(f[3], user)
    ) return f.slice(4).join(":");
  }
  return undefined;
};

/** The PostgreSQL client of a URL (its password found by `passwordFor`). */
export const postgresLayer = (
  target: string,
  env: Env = processEnv,
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError.SqlError> =>
  Layer.unwrap(Effect.sync(() => {
    const password = passwordFor(target, env);
    return PgClient.layer({
      url: Redacted.make(target),
      ...(password !== undefined ? { password: Redacted.make(password) } : {}),
    });
  }));

/** An SQL error in one line, without a stack (its reason's message, else its kind). */
export const sqlErrorLine = (e: SqlError.SqlError): string => {
  const cause = (e.cause as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? cause.message : "";
  const text = e.message !== "" ? e.message : e.cause._tag;
  return detail !== "" && !text.includes(detail) ? `${text} (${detail})` : text;
};

/** The longest wait between two tries to reach a database at start (ms). */
const MAX_WAIT_MS = 10_000;

/**
 * Reaches the database at `target` (one `SELECT 1`): while it cannot be reached (down,
 * starting, not yet listening: an error marked retryable) it is tried again after 0.5 s,
 * doubling to 10 s, and `say` hears one line the first time; one that refuses (a wrong
 * password, no such database, a malformed URL) fails at once with one line naming it.
 */
export const reachPostgres = (
  target: string,
  say: (line: string) => Effect.Effect<void>,
  env: Env = processEnv,
): Effect.Effect<void, string> =>
  Effect.gen(function* () {
    const shown = describePostgres(target);
    try {
      new URL(target);
    } catch {
      return yield* Effect.fail(`${target.split("@").pop()} is not a PostgreSQL URL`);
    }
    const once = Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient;
        yield* sql`SELECT 1`;
      }).pipe(Effect.provide(postgresLayer(target, env))),
    );
    let wait = 500;
    let said = false;
    while (true) {
      const r = yield* Effect.result(once);
      if (r._tag === "Success") return;
      const e = r.failure;
      if (!e.isRetryable) {
        return yield* Effect.fail(`the database at ${shown}: ${sqlErrorLine(e)}`);
      }
      if (!said) {
        said = true;
        yield* say(
          `waiting for the database at ${shown}: ${sqlErrorLine(e)} (trying again, ` +
            "every 10 s at most; Ctrl-C stops)",
        );
      }
      yield* Effect.sleep(wait);
      wait = Math.min(MAX_WAIT_MS, wait * 2);
    }
  });
