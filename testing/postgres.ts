/**
 * A throwaway PostgreSQL for tests: Debian's `postgresql` package (which `.ci/run` installs
 * when missing), a fresh cluster made by `initdb` in a temporary folder and served by
 * `pg_ctl` on a free loopback port, removed at the end.
 *
 * PostgreSQL refuses to run as root: a root test process runs `initdb` and `pg_ctl` as the
 * `postgres` user that the package creates, in a folder (mode 0700) owned by that user.
 * The cluster trusts every local and loopback connection (user `ply`, database `ply`),
 * listens on 127.0.0.1 only, and keeps its unix socket in its folder.
 *
 * Nothing waits by sleeping: `pg_ctl -w` waits for the server itself. Every command has a
 * watchdog, so a hang fails the test instead of hanging the suite.
 *
 * @module
 */

/** A running throwaway PostgreSQL cluster. */
export interface Postgres {
  /** Where to connect: `postgres://ply@127.0.0.1:PORT/ply`. */
  readonly url: string;
  /** Its loopback port (the same after `pause` and `restart`). */
  readonly port: number;
  /**
   * Kills the server (`pg_ctl stop -m immediate`; the postmaster's process group is killed
   * if it outlives that), checks that its postmaster is gone and removes the folder.
   * Idempotent; also works on a paused cluster.
   */
  readonly stop: () => Promise<void>;
  /** Starts the paused server again, on the same port with the same data. */
  readonly restart: () => Promise<void>;
  /**
   * Stops the server but keeps its data (`pg_ctl stop -m immediate`, as a crash would), so
   * that `restart` brings it back: a database that goes away and comes back.
   */
  readonly pause: () => Promise<void>;
  /** The postmaster's process id while it runs, `undefined` while paused or stopped. */
  readonly pid: () => number | undefined;
  /** The temporary folder (data, log, unix socket). */
  readonly dir: string;
}

/** How a throwaway cluster is made. */
export interface PostgresOptions {
  /**
   * The password of user `ply` for connections over TCP (SCRAM); without it every
   * connection is trusted. The URL never carries it.
   */
  readonly password?: string;
}

/** The longest one command (`initdb`, `pg_ctl`, `createdb`) may take before it is killed. */
export const COMMAND_TIMEOUT_MS = 60_000;

/** The database and user name of every throwaway cluster. */
export const DB_NAME = "ply";

/** What to do when PostgreSQL is missing. */
export const INSTALL_HINT =
  "install Debian's postgresql package (`apt-get install -y postgresql`; .ci/run does it)";

const isFile = (path: string): boolean => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
};

const dirname = (path: string): string => path.slice(0, path.lastIndexOf("/")) || "/";

/** Compares version folder names numerically, part by part ("9.6" < "15" < "16"). */
const compareVersions = (a: string, b: string): number => {
  const pa = a.split(".").map(Number), pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

/**
 * The folders that may hold `initdb` and `pg_ctl`, in order: each folder of `PATH`, then
 * `LIB/VERSION/bin` for each installed version under `lib` (Debian's
 * `/usr/lib/postgresql`), highest version first.
 */
export const postgresBinCandidates = (
  path: string = Deno.env.get("PATH") ?? "",
  lib = "/usr/lib/postgresql",
): string[] => {
  let versions: string[] = [];
  try {
    versions = [...Deno.readDirSync(lib)]
      .filter((e) => e.isDirectory && /^\d+(\.\d+)*$/.test(e.name))
      .map((e) => e.name)
      .sort((a, b) => compareVersions(b, a));
  } catch {
    // no such folder: only PATH
  }
  return [
    ...path.split(":").filter((d) => d !== "").map((d) => d.replace(/\/$/, "")),
    ...versions.map((v) => `${lib}/${v}/bin`),
  ];
};

/**
 * The first folder of `candidates` that holds both `initdb` and `pg_ctl`. Throws a message
 * that says what to install when there is none.
 */
export const findPostgresBin = (
  candidates: readonly string[] = postgresBinCandidates(),
): string => {
  const found = candidates.find((d) => isFile(`${d}/initdb`) && isFile(`${d}/pg_ctl`));
  if (found !== undefined) return found;
  throw new Error(
    "no PostgreSQL found (looked for initdb and pg_ctl in PATH and " +
      `/usr/lib/postgresql/*/bin): ${INSTALL_HINT}`,
  );
};

/** Everything a command printed (standard output, then standard error), and its exit code. */
export interface Ran {
  /** The exit code. */
  readonly code: number;
  /** Standard output, then standard error. */
  readonly out: string;
}

/**
 * Runs a command to its end in its own process group (`setsid`), with `LC_ALL=C`. A
 * watchdog kills the whole group after `timeoutMs` (what the command started goes too),
 * and the call then fails, naming the command.
 */
export const runBounded = async (
  argv: readonly string[],
  cwd: string,
  timeoutMs: number = COMMAND_TIMEOUT_MS,
): Promise<Ran> => {
  const child = new Deno.Command("setsid", {
    args: [...argv],
    cwd,
    env: { LC_ALL: "C", LANG: "C" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    new Deno.Command("kill", { args: ["-KILL", "--", `-${child.pid}`], stderr: "null" })
      .output().catch(() => {});
  }, timeoutMs);
  try {
    const out = await child.output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    if (timedOut) {
      throw new Error(
        `${argv.join(" ")} did not finish in ${timeoutMs / 1000} s and was killed\n${text}`,
      );
    }
    return { code: out.code, out: text };
  } finally {
    clearTimeout(watchdog);
  }
};

/** A user's numeric ids from `id`, or undefined when there is no such user. */
const userIds = async (user: string): Promise<{ uid: number; gid: number } | undefined> => {
  const id = async (flag: string) => {
    const out = await new Deno.Command("id", {
      args: [flag, user],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return out.success ? Number(new TextDecoder().decode(out.stdout).trim()) : undefined;
  };
  const uid = await id("-u"), gid = await id("-g");
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
};

/** How to run a server command: as ourselves, or (as root) as the `postgres` user. */
type AsUser = (argv: readonly string[]) => string[];

const shellQuote = (a: string): string => `'${a.replaceAll("'", `'\\''`)}'`;

/**
 * The wrapper that runs server commands as an unprivileged user, and that user's ids to
 * own the folder: `runuser -u postgres --` (or `su postgres -c`) when this process is root,
 * nothing otherwise.
 */
const serverUser = async (): Promise<
  { asUser: AsUser; owner?: { uid: number; gid: number } }
> => {
  if (Deno.uid() !== 0) return { asUser: (argv) => [...argv] };
  const owner = await userIds("postgres");
  if (owner === undefined) {
    throw new Error(
      "this process runs as root, which PostgreSQL refuses, and there is no 'postgres' user " +
        `to run it as: ${INSTALL_HINT}, which creates that user`,
    );
  }
  const runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find(isFile);
  const asUser: AsUser = runuser !== undefined
    ? (argv) => [runuser, "-u", "postgres", "--", ...argv]
    : (argv) => ["su", "postgres", "-s", "/bin/sh", "-c", argv.map(shellQuote).join(" ")];
  return { asUser, owner };
};

/** A free TCP port on 127.0.0.1, as the system gives one to a listener on port 0. */
const freePort = (): number => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
};

/** The last lines of the server's log, for an error message. */
const logTail = (dir: string): string => {
  try {
    return Deno.readTextFileSync(`${dir}/log`).split("\n").slice(-15).join("\n");
  } catch {
    return "(no log)";
  }
};

/** True while a process with this id exists and is not a zombie (Linux `/proc`). */
export const processAlive = (pid: number): boolean => {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

/**
 * A postmaster's process id and its children's (Linux `/proc`). The children are not in
 * the postmaster's process group: PostgreSQL gives each its own.
 */
export const clusterPids = (postmaster: number): number[] => {
  const children: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === postmaster) children.push(Number(entry.name));
    } catch { /* gone meanwhile */ }
  }
  return [postmaster, ...children];
};

/** The clusters running in this process, killed if the process exits without stopping them. */
const live = new Map<number, string>();
let unloadHooked = false;
const hookUnload = () => {
  if (unloadHooked) return;
  unloadHooked = true;
  globalThis.addEventListener("unload", () => {
    for (const [pid, dir] of live) {
      for (const p of clusterPids(pid)) {
        try {
          Deno.kill(p, "SIGKILL");
        } catch { /* gone */ }
      }
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* gone */ }
    }
  });
};

/**
 * Starts a throwaway PostgreSQL: finds `initdb` and `pg_ctl`, makes a cluster in a new
 * temporary folder (trust authentication, user and database `ply`), starts it on a free
 * port of 127.0.0.1 and waits until it accepts connections. A missing PostgreSQL or a
 * server that does not start fails with a message that says why (and the log's end).
 */
export const startPostgres = async (options: PostgresOptions = {}): Promise<Postgres> => {
  const bin = findPostgresBin();
  const { asUser, owner } = await serverUser();
  const dir = await Deno.makeTempDir({
    dir: owner !== undefined ? "/tmp" : undefined,
    prefix: "ply-pg-",
  });
  const data = `${dir}/data`;
  let pid: number | undefined;
  let port = 0;
  let stopped: Promise<void> | undefined;

  const check = async (what: string, argv: readonly string[], asServer = true) => {
    const ran = await runBounded(asServer ? asUser(argv) : argv, dir);
    if (ran.code !== 0) {
      throw new Error(
        `${what} failed (exit ${ran.code}): ${argv.join(" ")}\n${ran.out}\n` +
          `server log:\n${logTail(dir)}`,
      );
    }
  };
  const readPid = (): number => {
    const pidFile = Deno.readTextFileSync(`${data}/postmaster.pid`);
    const n = Number(pidFile.split("\n")[0]);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`bad postmaster.pid: ${pidFile}`);
    return n;
  };
  const serve = async () => {
    await check("pg_ctl start", [
      `${bin}/pg_ctl`,
      "start",
      "-w",
      "-t",
      "50",
      "-D",
      data,
      "-l",
      `${dir}/log`,
      "-o",
      `-h 127.0.0.1 -p ${port} -k ${dir} -F`,
    ]);
    pid = readPid();
    live.set(pid, dir);
  };
  /**
   * Immediate stop; if the postmaster outlives it (or `pg_ctl` hangs), SIGKILL to it and its
   * children; then checks that it is gone.
   */
  const halt = async () => {
    if (pid === undefined) return;
    const ran = await runBounded(
      asUser([`${bin}/pg_ctl`, "stop", "-m", "immediate", "-w", "-t", "50", "-D", data]),
      dir,
    ).catch((e: Error): Ran => ({ code: -1, out: e.message }));
    if (processAlive(pid)) {
      // SIGKILL to the postmaster and its children (each in its own process group, so not
      // the group); `tail --pid` returns once the postmaster is gone.
      await runBounded(["kill", "-KILL", ...clusterPids(pid).map(String)], dir);
      await runBounded(["timeout", "30", "tail", `--pid=${pid}`, "-f", "/dev/null"], dir);
    }
    if (processAlive(pid)) {
      throw new Error(`the postmaster ${pid} outlived pg_ctl stop and SIGKILL:\n${ran.out}`);
    }
    live.delete(pid);
    pid = undefined;
  };

  try {
    hookUnload();
    if (owner !== undefined) await Deno.chown(dir, owner.uid, owner.gid);
    await Deno.chmod(dir, 0o700);
    // With a password: TCP connections must give it (SCRAM); the unix socket trusts.
    const auth = options.password === undefined
      ? ["--auth=trust"]
      : ["--auth-local=trust", "--auth-host=scram-sha-256", `--pwfile=${dir}/pw`];
    if (options.password !== undefined) {
      await Deno.writeTextFile(`${dir}/pw`, `${options.password}\n`);
      if (owner !== undefined) await Deno.chown(`${dir}/pw`, owner.uid, owner.gid);
    }
    await check("initdb", [
      `${bin}/initdb`,
      "-D",
      data,
      ...auth,
      "-U",
      DB_NAME,
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    // Another process may take the free port before the server binds it: try a few.
    for (let attempt = 1;; attempt++) {
      port = freePort();
      try {
        await serve();
        break;
      } catch (e) {
        if (attempt >= 3 || !/could not bind|already in use/i.test(logTail(dir))) throw e;
      }
    }
    // `createdb` beside `initdb`, or beside the file it links to (PATH may hold links to
    // Debian's /usr/lib/postgresql/N/bin), or on PATH.
    const createdb = [bin, dirname(Deno.realPathSync(`${bin}/initdb`))]
      .map((d) => `${d}/createdb`).find(isFile) ?? "createdb";
    await check(
      "createdb",
      // Through the unix socket (trusted), as the server's user, when a password is set.
      options.password === undefined
        ? [createdb, "-h", "127.0.0.1", "-p", `${port}`, "-U", DB_NAME, DB_NAME]
        : [createdb, "-h", dir, "-p", `${port}`, "-U", DB_NAME, DB_NAME],
      options.password !== undefined,
    );
  } catch (e) {
    await halt().catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw e;
  }

  return {
    url: `postgres://${DB_NAME}@127.0.0.1:${port}/${DB_NAME}`,
    port,
    dir,
    pid: () => pid,
    stop: () =>
      stopped ??= (async () => {
        try {
          await halt();
        } finally {
          await Deno.remove(dir, { recursive: true }).catch(() => {});
        }
      })(),
    pause: async () => {
      if (stopped !== undefined) throw new Error("this PostgreSQL was stopped");
      await halt();
    },
    restart: async () => {
      if (stopped !== undefined) throw new Error("this PostgreSQL was stopped");
      if (pid !== undefined) return;
      await serve();
    },
  };
};

/** Runs `f` with a fresh throwaway PostgreSQL and stops it afterwards, also when `f` throws. */
export const withPostgres = async <T>(
  f: (pg: Postgres) => Promise<T>,
  options: PostgresOptions = {},
): Promise<T> => {
  const pg = await startPostgres(options);
  try {
    return await f(pg);
  } finally {
    await pg.stop();
  }
};
