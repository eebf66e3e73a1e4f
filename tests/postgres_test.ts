/**
 * The throwaway PostgreSQL of `testing/postgres.ts`, through the client the cluster feature
 * uses (`@effect/sql-pg`): it starts (as the `postgres` user when the tests run as root),
 * a client runs queries and keeps a table; `pause` makes queries fail with a retryable
 * connection error (no crash) and `restart` brings the same data back on the same port;
 * `stop` leaves no process of the cluster and no folder, also when the test throws.
 * Everything waits on handshakes (`pg_ctl -w`, answers to queries), never on a time.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
  fc,
} from "../testing/deps.ts";
import { PgClient } from "npm:@effect/sql-pg@4.0.5";
import { Redacted } from "npm:effect@4.1.0";
import { Effect, Result } from "../core/deps.ts";
import {
  findPostgresBin,
  type Postgres,
  postgresBinCandidates,
  runBounded,
  withPostgres,
} from "../testing/postgres.ts";

/** A client layer (a pool) for the cluster. */
const client = (pg: Postgres) => PgClient.layer({ url: Redacted.make(pg.url) });

/** Runs a program that needs a client against the cluster. */
const withClient = <A, E>(pg: Postgres, program: Effect.Effect<A, E, PgClient.PgClient>) =>
  Effect.runPromise(program.pipe(Effect.provide(client(pg))));

/** The live (not zombie) processes as `ps` lines `PID PPID STAT USER`. */
const processes = async (): Promise<string[][]> => {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,ppid=,stat=,user="] }).output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length === 4 && !f[2].startsWith("Z"));
};

/** The postmaster `pid` and its children, as `[pid, user]`, from `ps`. */
const clusterProcesses = async (pid: number): Promise<[number, string][]> =>
  (await processes())
    .filter(([p, pp]) => Number(p) === pid || Number(pp) === pid)
    .map(([p, , , user]) => [Number(p), user]);

/** Which of `pids` still run (zombies count as gone). */
const stillRunning = async (pids: readonly number[]): Promise<number[]> => {
  const live = new Set((await processes()).map(([p]) => Number(p)));
  return pids.filter((p) => live.has(p));
};

const exists = (path: string): boolean => {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
};

const uidOf = async (user: string): Promise<number> =>
  Number(
    new TextDecoder().decode(
      (await new Deno.Command("id", { args: ["-u", user] }).output()).stdout,
    ),
  );

Deno.test("postgres: a client connects, runs select 1 and keeps a table", async () => {
  await withPostgres(async (pg) => {
    assertEquals(pg.url, `postgres://ply@127.0.0.1:${pg.port}/ply`);
    const rows = await withClient(
      pg,
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient;
        const one = yield* sql`select 1 as one`;
        yield* sql`create table players (id int primary key, name text not null)`;
        yield* sql`insert into players ${
          sql.insert([{ id: 2, name: "kalah" }, { id: 1, name: "nim" }])
        }`;
        const who = yield* sql<{ user: string; db: string; listen: string; socket: string }>`
          select current_user as user, current_database() as db,
                 current_setting('listen_addresses') as listen,
                 current_setting('unix_socket_directories') as socket`;
        const players = yield* sql<
          { id: number; name: string }
        >`select id, name from players order by id`;
        return { one, who, players };
      }),
    );
    assertEquals(rows.one, [{ one: 1 }]);
    // Only the loopback, and the unix socket in the cluster's own folder.
    assertEquals(rows.who, [{ user: "ply", db: "ply", listen: "127.0.0.1", socket: pg.dir }]);
    assertEquals(rows.players, [{ id: 1, name: "nim" }, { id: 2, name: "kalah" }]);

    // PostgreSQL refuses root: as root the server runs as `postgres`, in a folder it owns.
    const pid = pg.pid();
    assert(pid !== undefined);
    const server = await clusterProcesses(pid);
    const serverUser = Deno.uid() === 0 ? "postgres" : undefined;
    assert(server.length > 1, "the postmaster and its helpers run");
    for (const [, user] of server) {
      if (serverUser !== undefined) assertEquals(user, serverUser);
      else assertEquals(await uidOf(user), Deno.uid());
    }
    const folder = Deno.statSync(pg.dir);
    assertEquals(folder.mode! & 0o777, 0o700);
    assertEquals(folder.uid, Deno.uid() === 0 ? await uidOf("postgres") : Deno.uid());
  });
});

Deno.test("postgres: rows round-trip through the client (property)", async () => {
  await withPostgres(async (pg) => {
    await withClient(
      pg,
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient;
        yield* sql`create table rows (id int primary key, name text not null)`;
      }),
    );
    const name = fc.string({ unit: "grapheme", maxLength: 12 }).filter((s) => !s.includes("\0"));
    const rows = fc.uniqueArray(
      fc.record({ id: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), name }),
      { selector: (r) => r.id, minLength: 1, maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(rows, async (written) => {
        const read = await withClient(
          pg,
          Effect.gen(function* () {
            const sql = yield* PgClient.PgClient;
            yield* sql`delete from rows`;
            const [first, ...rest] = written;
            yield* sql`insert into rows ${sql.insert([first, ...rest])}`;
            return yield* sql<{ id: number; name: string }>`select id, name from rows order by id`;
          }),
        );
        assertEquals(read, [...written].sort((a, b) => a.id - b.id));
      }),
      { numRuns: 25, seed: 16 },
    );
  });
});

Deno.test("postgres: pause fails queries with a retryable connection error; restart brings the data back", async () => {
  await withPostgres(async (pg) => {
    const { down, back, port } = await withClient(
      pg,
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient;
        yield* sql`create table kept (id int primary key, name text not null)`;
        yield* sql`insert into kept ${sql.insert({ id: 1, name: "before" })}`;
        yield* Effect.promise(() => pg.pause());
        // The same pool, its server gone: an error as a value, not a crash.
        const down = yield* Effect.result(sql`select name from kept`);
        yield* Effect.promise(() => pg.restart());
        // The same pool again, once the server is back.
        const back = yield* sql<{ id: number; name: string }>`select id, name from kept`;
        return { down, back, port: pg.port };
      }),
    );
    assert(Result.isFailure(down), "a query while paused fails");
    assertEquals(down.failure._tag, "SqlError");
    assertEquals(down.failure.reason._tag, "ConnectionError");
    assert(down.failure.reason.isRetryable, "a lost server is worth retrying");
    assertEquals(back, [{ id: 1, name: "before" }]);
    assertEquals(port, pg.port);

    // A new client while paused fails to connect, saying so; after restart it reads the data.
    await pg.pause();
    assertEquals(pg.pid(), undefined);
    const fresh = await Effect.runPromise(
      Effect.result(
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient;
          return yield* sql`select 1 as one`;
        }).pipe(Effect.provide(client(pg))),
      ),
    );
    assert(Result.isFailure(fresh), "connecting while paused fails");
    assertEquals(fresh.failure.reason._tag, "ConnectionError");
    assertMatch(String(fresh.failure), /connect/i);
    assertMatch(String(fresh.failure.reason.cause), /ECONNREFUSED/);
    await pg.restart();
    const again = await withClient(
      pg,
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient;
        return yield* sql<{ name: string }>`select name from kept`;
      }),
    );
    assertEquals(again, [{ name: "before" }]);
  });
});

Deno.test("postgres: stop leaves no process of the cluster and no folder, also when f throws", async () => {
  // A normal end: stop (twice: idempotent).
  let seen: { pids: number[]; dir: string; pg: Postgres } | undefined;
  await withPostgres(async (pg) => {
    const pid = pg.pid();
    assert(pid !== undefined);
    // A connection open at the end: its backend must go too.
    await withClient(
      pg,
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient;
        const backend = yield* sql<{ pid: number }>`select pg_backend_pid() as pid`;
        const pids = (yield* Effect.promise(() => clusterProcesses(pid))).map(([p]) => p);
        assert(pids.includes(backend[0].pid), "the client's backend is the postmaster's child");
        seen = { pids, dir: pg.dir, pg };
        yield* Effect.promise(() => pg.stop());
      }),
    );
  });
  assert(seen !== undefined);
  assert(seen.pids.length > 2, "the postmaster, its helpers and a backend ran");
  assertEquals(await stillRunning(seen.pids), []);
  assert(!exists(seen.dir), `${seen.dir} was removed`);
  await seen.pg.stop();
  assertEquals(seen.pg.pid(), undefined);

  // f throws: withPostgres still stops, and passes the error on.
  let thrown: { pids: number[]; dir: string } | undefined;
  await assertRejects(
    () =>
      withPostgres(async (pg) => {
        thrown = { pids: (await clusterProcesses(pg.pid()!)).map(([p]) => p), dir: pg.dir };
        throw new Error("the test failed");
      }),
    Error,
    "the test failed",
  );
  assert(thrown !== undefined && thrown.pids.length > 1);
  assertEquals(await stillRunning(thrown.pids), []);
  assert(!exists(thrown.dir), `${thrown.dir} was removed`);

  // A paused cluster stops too.
  let paused: { dir: string } | undefined;
  await withPostgres(async (pg) => {
    await pg.pause();
    paused = { dir: pg.dir };
  });
  assert(paused !== undefined && !exists(paused.dir), "a paused cluster's folder was removed");
});

Deno.test("findPostgresBin: PATH first, then the highest version under lib; a clear error when none", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "ply-pgbin-" });
  try {
    const tool = (dir: string, names: readonly string[]) => {
      Deno.mkdirSync(dir, { recursive: true });
      for (const n of names) Deno.writeTextFileSync(`${dir}/${n}`, "");
    };
    await fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 8, max: 20 }), fc.option(fc.nat(9))), {
          selector: ([a, b]) => `${a}.${b ?? 0}`,
          minLength: 1,
          maxLength: 5,
        }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        (versions, complete) => {
          const lib = Deno.makeTempDirSync({ dir: tmp });
          const names = versions.map(([a, b]) => (b === null ? `${a}` : `${a}.${b}`));
          names.forEach((v, i) =>
            tool(`${lib}/${v}/bin`, complete[i] ? ["initdb", "pg_ctl"] : ["initdb"])
          );
          // The reference: the numerically highest version with both tools.
          const expected = versions
            .map(([a, b], i) => ({ n: a + (b ?? 0) / 100, v: names[i], ok: complete[i] }))
            .filter((x) => x.ok)
            .sort((x, y) => y.n - x.n)[0];
          const candidates = postgresBinCandidates("", lib);
          if (expected === undefined) {
            let message = "";
            try {
              findPostgresBin(candidates);
            } catch (e) {
              message = (e as Error).message;
            }
            assertStringIncludes(message, "apt-get install -y postgresql");
          } else {
            assertEquals(findPostgresBin(candidates), `${lib}/${expected.v}/bin`);
          }
        },
      ),
      { numRuns: 60, seed: 16 },
    );
    // A folder of PATH that holds both tools comes before any installed version.
    const onPath = `${tmp}/path-bin`;
    tool(onPath, ["initdb", "pg_ctl"]);
    const lib = `${tmp}/lib`;
    tool(`${lib}/16/bin`, ["initdb", "pg_ctl"]);
    assertEquals(findPostgresBin(postgresBinCandidates(`/nonexistent:${onPath}/`, lib)), onPath);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("runBounded: a command that hangs is killed with everything it started, and named", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "ply-pgrun-" });
  let sleepPid = 0;
  try {
    const ran = await runBounded(["sh", "-c", "echo hi; exit 3"], tmp);
    assertEquals(ran, { code: 3, out: "hi\n" });
    // `sh` starts a `sleep` (its pid written first; its output elsewhere, so that a sleep
    // left behind would not hold the pipes open), then waits for it forever.
    const pidFile = `${tmp}/sleep.pid`;
    await assertRejects(
      () =>
        runBounded(
          ["sh", "-c", `sleep 600 >/dev/null 2>&1 & echo $! > ${pidFile}; wait`],
          tmp,
          3_000,
        ),
      Error,
      "was killed",
    );
    sleepPid = Number(Deno.readTextFileSync(pidFile).trim());
    assert(sleepPid > 0);
    assertEquals(await stillRunning([sleepPid]), [], `the sleep ${sleepPid} was killed too`);
  } finally {
    if (sleepPid > 0 && (await stillRunning([sleepPid])).length > 0) Deno.kill(sleepPid);
    await Deno.remove(tmp, { recursive: true });
  }
});
