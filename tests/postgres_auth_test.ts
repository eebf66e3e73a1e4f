/**
 * Reaching PostgreSQL as an operator does (`app/store/postgres.ts`), through `deno task
 * runner` against a test-started PostgreSQL that asks for a password: the password from
 * `PGPASSWORD` or a password file, never on the command line; a wrong or missing password
 * and a missing database said in one line (no stack trace, no wait), the password never
 * printed; a database that is down at start waited for with one status line, and the
 * runner up once it is back (proved by what it prints, never by a time). And the password
 * file's rules: escapes, `*`, the first matching line, the URL's and `PGPASSWORD` first.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { withPostgres } from "../testing/postgres.ts";
import { runTask, startTask } from "../testing/task.ts";
import { notPostgres, passwordFor } from "../app/store/postgres.ts";

const PASSWORD = "s3cret-Ply";

/** Standard output and error of a program, without `deno task`'s echo of its command line. */
const said = (out: string, err: string): string =>
  (out + err).split("\n").filter((l) => !l.startsWith("Task ")).join("\n");

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

Deno.test("postgres: the runner's password comes from PGPASSWORD or a password file; refusals in one line", async () => {
  await withPostgres(async (pg) => {
    const url = pg.url; // postgres://ply@127.0.0.1:PORT/ply: no password in it
    // No password anywhere: refused at once, in one line.
    const none = await runTask("runner", ["--cluster", url], {
      env: { PGPASSFILE: "/nonexistent" },
    });
    assertEquals(none.code, 2, none.stdout + none.stderr);
    assertStringIncludes(none.stderr, `error: the database at ${url}: `);
    noTrace(none.stdout + none.stderr);
    // A wrong password in the URL: one line, and the password never shown by ply.
    const wrongUrl = url.replace("ply@", "ply:wrong-pw@");
    const wrong = await runTask("runner", ["--cluster", wrongUrl]);
    assertEquals(wrong.code, 2, wrong.stdout + wrong.stderr);
    assertStringIncludes(wrong.stderr, `the database at ${url.replace("ply@", "ply:***@")}: `);
    assert(!said(wrong.stdout, wrong.stderr).includes("wrong-pw"), wrong.stderr);
    noTrace(wrong.stdout + wrong.stderr);
    // A database that does not exist: one line.
    const nodb = await runTask("runner", ["--cluster", url.replace(/\/ply$/, "/nodb")], {
      env: { PGPASSWORD: PASSWORD },
    });
    assertEquals(nodb.code, 2, nodb.stdout + nodb.stderr);
    assertStringIncludes(nodb.stderr, "nodb");
    noTrace(nodb.stdout + nodb.stderr);
    // PGPASSWORD: the runner starts.
    const byEnv = startTask(["runner", "--cluster", url, "--concurrency", "1"], false, {
      PGPASSWORD: PASSWORD,
    });
    await byEnv.waitFor("runner at 127.0.0.1:");
    await byEnv.sigint();
    assertEquals((await byEnv.done).code, 130);
    // A password file (PGPASSFILE): the runner starts.
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        `${dir}/pgpass`,
        `# ply's test\nother:*:*:*:nope\n127.0.0.1:${pg.port}:ply:ply:${PASSWORD}\n`,
        { mode: 0o600 },
      );
      const byFile = startTask(["runner", "--cluster", url, "--concurrency", "1"], false, {
        PGPASSFILE: `${dir}/pgpass`,
      });
      await byFile.waitFor("runner at 127.0.0.1:");
      await byFile.sigint();
      assertEquals((await byFile.done).code, 130);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    // Down at start: the runner waits, saying so once, and is up when the database is.
    await pg.pause();
    const early = startTask(["runner", "--cluster", url, "--concurrency", "1"], false, {
      PGPASSWORD: PASSWORD,
    });
    await early.waitFor(`waiting for the database at ${url}: `);
    await pg.restart();
    await early.waitFor("runner at 127.0.0.1:");
    await early.sigint();
    const { code, out, err } = await early.done;
    assertEquals(code, 130);
    assertEquals(said(out, err).split("waiting for the database").length, 2, "one status line");
    noTrace(out + err);
  }, { password: PASSWORD });
});

Deno.test("postgres: a runner waiting for its database stops at Ctrl-C", async () => {
  // A port nothing listens on: the runner waits until Ctrl-C.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const job = startTask(["runner", "--cluster", `postgres://ply@127.0.0.1:${port}/ply`]);
  await job.waitFor("waiting for the database at ");
  await job.sigint();
  const { code, out, err } = await job.done;
  assertEquals(code, 130, out + err);
  noTrace(out + err);
});

Deno.test("postgres: the password file's rules, and URLs that are not PostgreSQL's", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = `${dir}/pgpass`;
    Deno.writeTextFileSync(
      file,
      [
        "# comment",
        "db.example:5432:ply:ann:first",
        "db.example:5432:ply:ann:second",
        "*:*:*:bob:wild",
        "db.example:5432:ply:dan:pa\\:ss\\\\",
        "localhost:5432:cat:cat:local",
      ].join("\n"),
    );
    const env = (extra: Record<string, string> = {}) => ({
      get: (k: string) => ({ PGPASSFILE: file, ...extra })[k],
    });
    assertEquals(passwordFor("postgres://ann@db.example/ply", env()), "first");
    assertEquals(passwordFor("postgres://bob@anywhere:6000/x", env()), "wild");
    assertEquals(passwordFor("postgres://dan@db.example/ply", env()), "pa:ss\\", "escapes");
    assertEquals(passwordFor("postgres://cat@localhost", env()), "local", "database = user");
    assertEquals(passwordFor("postgres://ann@db.example:5433/ply", env()), undefined);
    assertEquals(passwordFor("postgres://ann:mine@db.example/ply", env()), "mine");
    assertEquals(passwordFor("postgres://ann@db.example/ply", env({ PGPASSWORD: "envs" })), "envs");
    assertEquals(passwordFor("postgres://ann@db.example/ply", { get: () => undefined }), undefined);
    assertEquals(
      notPostgres("--cluster", "ann:pw@db/ply"),
      "--cluster: '***@db/ply' is not a PostgreSQL URL (postgres://USER@HOST:PORT/DB)",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
