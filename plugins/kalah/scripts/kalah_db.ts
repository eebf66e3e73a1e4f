/**
 * `deno task kalah-db [--pits N] [--capture nonempty|always] [--stones K] [--workers W]`
 *
 * Builds the Kalah endgame database of every position with at most K stones left in
 * the houses (default 20 for 6 houses a side) and writes it to `out/kalah-db/` (git-
 * ignored: generate it, never commit it). `deno task analyze kalah --solve` then loads
 * it. An existing smaller database is extended rather than rebuilt.
 *
 * @module
 */
import { Effect, Option } from "../../../core/deps.ts";
import { Terminal, untilInterrupted, writeStdout } from "../../../app/terminal.ts";
import { dbSize } from "../db.ts";
import { buildDbParallel, type BuildTick } from "../db_build.ts";
import { dbFileName, defaultDbDir, loadDb, saveDb } from "../db_file.ts";
import {
  intFlag,
  parseCommandLine,
  runMain,
  UsageError,
  workersFromArgs,
} from "../../../app/cli.ts";
import { num } from "../../../app/display.ts";
import { defaultWorkers } from "../../../core/parallel/pool.ts";
import { userCwd } from "../../../core/source.ts";

const USAGE =
  `Usage: deno task kalah-db [--pits N] [--capture nonempty|always] [--stones K] [--workers W]
                          [--dir DIR]
Builds the Kalah endgame database (every position with at most K stones in the houses)
into the repository's out/kalah-db/, where the exact solver (deno task analyze kalah
--solve, the perfect AI) finds it, wherever you run it from.

  --pits N       houses per side (default 6)
  --capture R    the capture rule, as the game's --capture: nonempty (a capture needs
                 stones in the opposite house; the default) or always
  --stones K     the largest number of stones left (default 20; memory: 1 byte a position)
  --workers W    threads building it (default: this machine's cores, ${defaultWorkers()})
  --dir DIR      write there instead, relative to your directory (the solver reads only
                 the repository's out/kalah-db/)
On a terminal, a line per level and a progress line every second; Ctrl-C stops the build
(nothing is written; exit code 130).
`;

/** Seconds as `12.3 s` or `4:05` (minutes). */
const elapsed = (ms: number): string => {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s - 60 * m)).padStart(2, "0")}`;
};

/**
 * The build's progress on a terminal: a line per level settled, and a status line
 * (rewritten in place) about every second within a level; nothing on a pipe.
 */
const progressDisplay = (pits: number, maxStones: number, live: boolean) => {
  let shown = false;
  const clear = () => {
    if (shown) writeStdout("\r\x1b[K");
    shown = false;
  };
  return {
    level: (level: number, positions: number, ms: number) => {
      if (!live) return;
      clear();
      writeStdout(
        `  level ${String(level).padStart(3)}: ${num(positions).padStart(13)} positions, ` +
          `${(ms / 1000).toFixed(1)} s\n`,
      );
    },
    tick: (t: BuildTick) => {
      if (!live) return;
      const before = t.level > 0 ? dbSize(pits, t.level - 1) : 0;
      const share = (100 * (before + t.settled)) / dbSize(pits, maxStones);
      writeStdout(
        `\r  level ${String(t.level).padStart(3)}: ${num(t.settled)} of ${num(t.positions)} ` +
          `positions (${share.toFixed(0)}% of all), ${elapsed(t.ms)}\x1b[K`,
      );
      shown = true;
    },
    clear,
  };
};

/** Why `dir` cannot take a database (it is created if missing, and a file tried in it). */
const unwritable = (dir: URL): string | undefined => {
  try {
    Deno.mkdirSync(dir, { recursive: true });
    const probe = new URL(`.kalah-db-probe-${Deno.pid}`, dir);
    Deno.writeFileSync(probe, new Uint8Array());
    Deno.removeSync(probe);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
};

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, {
    string: ["pits", "capture", "stones", "dir", "workers"],
    boolean: [],
    positionals: 0,
  });
  const term = yield* Terminal;
  if (flags.help === true) {
    yield* term.print(USAGE);
    return 0;
  }
  const extra = [...positional, ...Object.keys(gameOptions).map((k) => `--${k}`)];
  if (extra.length > 0) {
    return yield* new UsageError({ message: `unexpected ${extra.join(" ")}` });
  }
  const pits = yield* intFlag(flags, "pits", 6, 1, 16);
  const capture = typeof flags.capture === "string" ? flags.capture : "nonempty";
  if (capture !== "nonempty" && capture !== "always") {
    return yield* new UsageError({
      message: `--capture must be nonempty or always, got '${capture}'`,
    });
  }
  const stones = yield* intFlag(flags, "stones", 20, 0, 127);
  const workers = workersFromArgs(Deno.args);
  if (typeof workers === "string") return yield* new UsageError({ message: workers });
  const always = capture === "always";
  const size = dbSize(pits, stones);
  if (size > 2 ** 32) {
    return yield* new UsageError({
      message: `${num(size)} positions is too many; use fewer --stones`,
    });
  }
  const dir = typeof flags.dir === "string"
    ? new URL(flags.dir.replace(/\/?$/, "/"), `file://${userCwd().replace(/\/?$/, "/")}`)
    : defaultDbDir();
  const why = unwritable(dir);
  if (why !== undefined) {
    // Not a usage mistake: one line, without runMain's pointer to --help.
    const name = typeof flags.dir === "string" ? flags.dir : dir.pathname;
    yield* Effect.sync(() => console.error(`error: cannot write the database to ${name}: ${why}`));
    return 2;
  }
  const existing = loadDb(pits, always, stones, dir);
  yield* term.print(
    `Kalah endgame database: ${pits} houses a side, capture ${capture}, up to ${stones} ` +
      `stones: ${num(size)} positions (${(size / 2 ** 20).toFixed(0)} MB)\n` +
      (existing ? `extending the database of up to ${existing.maxStones} stones\n` : ""),
  );
  if (existing !== undefined && existing.maxStones >= stones) {
    yield* term.print(
      `already built: ${new URL(dbFileName(pits, always, existing.maxStones), dir).pathname}\n`,
    );
    return 0;
  }
  const start = performance.now();
  const display = progressDisplay(pits, stones, Deno.stdout.isTerminal());
  // The build runs on worker threads; Ctrl-C aborts it (the workers are terminated).
  const built = yield* untilInterrupted(
    Effect.promise((signal) =>
      buildDbParallel(pits, always, stones, workers, display.level, existing, {
        signal,
        onTick: display.tick,
      })
    ),
  );
  display.clear();
  if (Option.isNone(built)) {
    yield* term.print(
      `interrupted after ${elapsed(performance.now() - start)}: nothing written\n`,
    );
    return 0; // runMain exits with 130 after Ctrl-C
  }
  const db = built.value;
  const file = yield* Effect.sync(() => saveDb(db, dir));
  const secs = (performance.now() - start) / 1000;
  yield* term.print(
    `built in ${secs.toFixed(1)} s on ${workers} thread${workers === 1 ? "" : "s"} (${
      num((size - (existing ? dbSize(pits, existing.maxStones) : 0)) / secs)
    } positions/s); ` +
      `written to ${file.pathname}\n`,
  );
  return 0;
});

if (import.meta.main) runMain(main, "deno task kalah-db");
