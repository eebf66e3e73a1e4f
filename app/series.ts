/**
 * What `match`, `tournament` and `sprt` share: reading the players and the openings,
 * the output folder (the games as JSON lines, resumed by a rerun), the progress line,
 * and running the schedule with every finished game recorded at once.
 *
 * @module
 */
import type { OpenedGame } from "../core/plugin.ts";
import { Effect, Result } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { agentFromSpec } from "./players/agents.ts";
import { formatSpec, type PlayerSpec } from "./players/spec.ts";
import { DEFAULT_STRENGTHS } from "../core/plugin.ts";
import type { Strategy } from "../core/search/types.ts";
import { Terminal } from "./terminal.ts";
import { writeFileAtomic } from "./files.ts";
import { decodeTranscript } from "./transcript.ts";
import {
  bookOpenings,
  DEFAULT_OPENINGS,
  fixedOpenings,
  OPENING_CHECK_DEPTH,
  type Openings,
  type OpeningSource,
  randomOpenings,
  START,
} from "./tournament/openings.ts";
import { type Entrant, type GameRecord, type RunEnd, runFixtures } from "./tournament/runner.ts";
import type { Fixture } from "./tournament/schedule.ts";
import type { EloEstimate, Wdl } from "./tournament/stats.ts";
import { defaultWorkers } from "../core/parallel/pool.ts";
import {
  intFlag,
  type Parsed,
  playerSpec,
  reportFault,
  strategiesFor,
  ttFlag,
  UsageError,
  userPath,
} from "./cli.ts";

/** The flags every series program takes (besides its own). */
export const SERIES_FLAGS = [
  "openings",
  "book",
  "concurrency",
  "out",
  "seed",
  "max-plies",
  "tt-mb",
  "workers",
] as const;

/** The usage lines of the shared flags. */
export const SERIES_USAGE = `  --openings random:PLIES | none
                   openings: seeded random lines of PLIES plies, chance moves included,
                   not found lost by a ${OPENING_CHECK_DEPTH}-ply search (default random:4);
                   none: every game from the start
  --book FILE      openings from a file: one move list per line, in the game's notation
  --concurrency C  games at once (default: the cores)
  --out DIR        append every finished game to DIR/games.jsonl (a rerun with the same
                   DIR resumes), and write DIR/results.json (a tournament also
                   DIR/chart.svg)
  --seed S         the seed of the openings and of every game (default 1)
  --max-plies N    a game reaching N plies stops and counts as a draw (default 100000)
  --tt-mb N        transposition table size per player in MB (default 64)
  --workers N      engine workers (default: the cores)
  --json           one JSON object instead of text (and no progress line)
`;

/** Reads a list of player specs (each named in its error by `flag`). */
export const readPlayers = (
  loaded: OpenedGame,
  texts: readonly { readonly flag: string; readonly text: string }[],
): Effect.Effect<readonly PlayerSpec[], UsageError> =>
  Effect.gen(function* () {
    const strategies = strategiesFor(loaded.plugin);
    const strengths = loaded.plugin.strengths ?? DEFAULT_STRENGTHS;
    const specs: PlayerSpec[] = [];
    for (const { flag, text } of texts) {
      const spec = yield* playerSpec(flag, text, strategies, strengths);
      if (spec.kind === "human") {
        return yield* new UsageError({
          message: `--${flag}: a series is between AIs; use play for a human`,
        });
      }
      specs.push(spec);
    }
    return specs;
  });

/** The entrants of specs: a fresh player per game, on the table the runner lends. */
export const entrantsOf = (
  loaded: OpenedGame,
  specs: readonly PlayerSpec[],
): readonly Entrant<unknown, Terminal>[] => {
  const strategies: Readonly<Record<string, Strategy>> = strategiesFor(loaded.plugin);
  return specs.map((spec) => ({
    name: formatSpec(spec),
    agent: (tt) =>
      agentFromSpec<unknown>(spec, strategies, {
        source: loaded.source,
        ...(tt !== undefined ? { tt } : {}),
      }),
  }));
};

/** Reads `--openings`/`--book`. */
const openingSource = (flags: Parsed["flags"]): Effect.Effect<OpeningSource, UsageError> => {
  const o = flags.openings, book = flags.book;
  if (typeof book === "string") {
    if (o !== undefined) {
      return Effect.fail(new UsageError({ message: "--openings and --book: give one of them" }));
    }
    return Effect.succeed({ kind: "book", file: book });
  }
  if (o === undefined) return Effect.succeed(DEFAULT_OPENINGS);
  if (o === "none") return Effect.succeed({ kind: "none" });
  const m = typeof o === "string" ? /^random:(\d+)$/.exec(o.trim()) : null;
  const plies = m === null ? NaN : Number(m[1]);
  if (!(plies >= 0 && plies <= 40)) {
    return Effect.fail(
      new UsageError({
        message: `--openings must be random:PLIES (PLIES from 0 to 40) or none, got '${o}'`,
      }),
    );
  }
  return Effect.succeed({ kind: "random", plies });
};

/** How openings are described (in the output and the folder's settings). */
export const describeOpenings = (source: OpeningSource): string =>
  source.kind === "none"
    ? "none"
    : source.kind === "random"
    ? `random:${source.plies}`
    : `book:${source.file}`;

/** The openings of a series, made as its rounds need them. */
const makeOpenings = <S>(
  game: Game<S>,
  source: OpeningSource,
  seed: number,
): Effect.Effect<Openings, UsageError> =>
  Effect.gen(function* () {
    if (source.kind === "none") return fixedOpenings([START]);
    if (source.kind === "random") return randomOpenings(game, source.plies, seed);
    const path = userPath(source.file);
    const text = yield* Effect.try({
      try: () => Deno.readTextFileSync(path),
      catch: (e) => new UsageError({ message: `--book: cannot read ${source.file}: ${e}` }),
    });
    const book = bookOpenings(game, text, source.file);
    if (Result.isFailure(book)) {
      return yield* new UsageError({ message: `--book: ${book.failure}` });
    }
    return fixedOpenings(book.success);
  });

/** The settings every series reads from the shared flags. */
export interface SeriesSettings {
  /** `--seed`: game i has seed + i; the openings come from it too. */
  readonly seed: number;
  /** `--max-plies`. */
  readonly maxPlies: number;
  /** `--tt-mb`. */
  readonly ttMb: number;
  /** `--concurrency` (default: the cores). */
  readonly concurrency: number;
  /** `--openings`/`--book`. */
  readonly source: OpeningSource;
  /** `--json`. */
  readonly json: boolean;
}

/** Reads the shared flags; `openings: false` for a game played from its start (2048). */
const seriesSettings = (
  flags: Parsed["flags"],
  openings = true,
): Effect.Effect<SeriesSettings, UsageError> =>
  Effect.gen(function* () {
    const seed = yield* intFlag(flags, "seed", 1, 0, 2 ** 31 - 1);
    const maxPlies = yield* intFlag(flags, "max-plies", 100_000, 1, 10_000_000);
    const ttMb = yield* ttFlag(flags);
    const concurrency = yield* intFlag(flags, "concurrency", defaultWorkers(), 1, 256);
    const source = openings ? yield* openingSource(flags) : { kind: "none" as const };
    return { seed, maxPlies, ttMb, concurrency, source, json: flags.json === true };
  });

/**
 * With `--out DIR`, opens the series' folder (its settings checked against this run's)
 * and returns the games played before that belong to `fixtures`.
 */
const seriesStore = (
  flags: Parsed["flags"],
  series: string,
  loaded: OpenedGame,
  names: readonly string[],
  settings: SeriesSettings,
  fixtures: readonly Fixture[],
  extra: Readonly<Record<string, unknown>> = {},
): Effect.Effect<{ readonly store?: Store; readonly done: readonly GameRecord[] }, UsageError> =>
  Effect.gen(function* () {
    if (typeof flags.out !== "string") return { done: [] };
    const store = yield* openStore(flags.out, {
      series,
      game: loaded.specifier,
      options: loaded.options,
      players: names,
      ...extra,
      openings: describeOpenings(settings.source),
      seed: settings.seed,
      maxPlies: settings.maxPlies,
      ttMb: settings.ttMb,
    });
    const known = new Set(fixtures.map((f) => f.id));
    return { store, done: store.done.filter((r) => known.has(r.id)) };
  });

/** A series made ready to run: what `prepareSeries` returns. */
export interface PreparedSeries {
  /** The shared flags' settings. */
  readonly settings: SeriesSettings;
  /** The openings, made as rounds need them. */
  readonly openings: Openings;
  /** Every game of the series. */
  readonly fixtures: readonly Fixture[];
  /** The `--out` folder, if any. */
  readonly store?: Store;
  /** The games of `fixtures` already played (kept in the folder). */
  readonly done: readonly GameRecord[];
  /** The progress line (on a terminal, without `--json`). */
  readonly progress: ProgressLine;
  /**
   * Plays the games not yet played (of `fixtures`, or of `only`) with the series'
   * players and settings; `onGame` sees each finished game and says whether to stop.
   */
  readonly run: (
    onGame: SeriesRun["onGame"],
    only?: readonly Fixture[],
  ) => Effect.Effect<SeriesEnd, never, Terminal>;
  /**
   * Ends the series: a game's fault reported to the user and named in `report` as
   * `error`, the report written as `results.json` in the folder; returns the exit code
   * (1 after a fault) and the report.
   */
  readonly finish: (
    end: SeriesEnd,
    report: Record<string, unknown>,
  ) => Effect.Effect<{ readonly code: number; readonly report: Record<string, unknown> }>;
}

/**
 * The steps every series program takes after reading its own flags: the shared settings,
 * the openings, the games (`plan`, from the settings), the output folder with the games
 * already played, and the progress line. `openings: false` for a game played from its
 * start (2048); `extra` goes into the folder's settings (as the tournament's format).
 */
export const prepareSeries = (
  flags: Parsed["flags"],
  kind: string,
  loaded: OpenedGame,
  specs: readonly PlayerSpec[],
  plan: (settings: SeriesSettings) => readonly Fixture[],
  options: { readonly openings?: boolean; readonly extra?: Readonly<Record<string, unknown>> } = {},
): Effect.Effect<PreparedSeries, UsageError> =>
  Effect.gen(function* () {
    const settings = yield* seriesSettings(flags, options.openings ?? true);
    const openings = yield* makeOpenings(loaded.game, settings.source, settings.seed);
    const fixtures = plan(settings);
    const { store, done } = yield* seriesStore(
      flags,
      kind,
      loaded,
      specs.map(formatSpec),
      settings,
      fixtures,
      options.extra,
    );
    const progress = progressLine(!settings.json && Deno.stderr.isTerminal());
    const entrants = entrantsOf(loaded, specs);
    const { concurrency, maxPlies, ttMb } = settings;
    return {
      settings,
      openings,
      fixtures,
      ...(store ? { store } : {}),
      done,
      progress,
      run: (onGame, only = fixtures) =>
        runSeries({
          loaded,
          entrants,
          fixtures: only,
          openings,
          done,
          concurrency,
          maxPlies,
          ttMb,
          onGame,
        }),
      finish: (end, report) =>
        Effect.gen(function* () {
          progress.clear();
          const fault = end.fault;
          if (fault !== undefined) {
            yield* reportFault(`game ${fault.id}: ${fault.message}`, fault.trace);
          }
          const full = fault === undefined ? report : { ...report, error: fault.message };
          store?.write("results.json", JSON.stringify(full, null, 2) + "\n");
          return { code: fault === undefined ? 0 : 1, report: full };
        }),
    };
  });

// ---------------------------------------------------------------------------------
// The output folder

/** The output folder: the settings, the games so far, and how to add one. */
export interface Store {
  /** The folder as the user named it. */
  readonly dir: string;
  /** The games already played (read back from `games.jsonl`). */
  readonly done: readonly GameRecord[];
  /** Appends a finished game (one JSON line, written at once). */
  readonly append: (record: GameRecord) => void;
  /** Writes a file into the folder. */
  readonly write: (name: string, text: string) => void;
}

const isRecord = (x: unknown): x is GameRecord => {
  if (typeof x !== "object" || x === null) return false;
  const r = x as Record<string, unknown>;
  return typeof r.id === "string" && typeof r.round === "number" &&
    typeof r.pairing === "number" && Array.isArray(r.seats) && r.seats.length === 2 &&
    typeof r.seed === "number" && typeof r.ms === "number" &&
    Result.isSuccess(decodeTranscript(r.transcript));
};

/**
 * Opens (or creates) the output folder for a series with `settings`. A folder holding a
 * different series is refused, naming the setting that differs. The games file is read
 * back; a last line cut short (the program was killed while writing it) is dropped.
 */
export const openStore = (
  dir: string,
  settings: Readonly<Record<string, unknown>>,
): Effect.Effect<Store, UsageError> =>
  Effect.gen(function* () {
    const fail = (message: string) => Effect.fail(new UsageError({ message: `--out: ${message}` }));
    const root = userPath(dir).replace(/[\\/]+$/, "");
    const file = (name: string) => `${root}/${name}`;
    try {
      Deno.mkdirSync(root, { recursive: true });
    } catch (e) {
      return yield* fail(`cannot create ${dir}: ${(e as Error).message}`);
    }
    let kept: Record<string, unknown> | undefined;
    try {
      kept = JSON.parse(Deno.readTextFileSync(file("series.json")));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        return yield* fail(`${dir}/series.json cannot be read: ${(e as Error).message}`);
      }
    }
    if (kept !== undefined) {
      for (const [k, v] of Object.entries(settings)) {
        if (JSON.stringify(kept[k]) !== JSON.stringify(v)) {
          return yield* fail(
            `${dir} holds another series (${k} ${JSON.stringify(kept[k])} there, ` +
              `${JSON.stringify(v)} now): rerun with its settings to resume it, or name ` +
              "another folder",
          );
        }
      }
    } else {
      writeFileAtomic(file("series.json"), JSON.stringify(settings, null, 2) + "\n");
    }
    const games = file("games.jsonl");
    let text = "";
    try {
      text = Deno.readTextFileSync(games);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        return yield* fail(`${dir}/games.jsonl cannot be read: ${(e as Error).message}`);
      }
    }
    const done: GameRecord[] = [];
    const lines = text.split("\n");
    let good = 0; // bytes of whole records
    for (const [i, line] of lines.entries()) {
      const last = i === lines.length - 1;
      if (line.trim() === "") {
        if (!last) good += line.length + 1;
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      if (!isRecord(parsed)) {
        if (last) break; // cut short by a kill: dropped, and the file mended below
        return yield* fail(`${dir}/games.jsonl line ${i + 1} is not a game record`);
      }
      done.push(parsed);
      if (!last) good += new TextEncoder().encode(line).length + 1;
    }
    if (good < new TextEncoder().encode(text).length) Deno.truncateSync(games, good);
    return {
      dir,
      done,
      append: (record) =>
        Deno.writeTextFileSync(games, JSON.stringify(record) + "\n", { append: true }),
      write: (name, body) => writeFileAtomic(file(name), body),
    };
  });

// ---------------------------------------------------------------------------------
// Running

/** A line of progress rewritten in place. */
export interface ProgressLine {
  /** Shows the text `text()` makes (made only when the line is redrawn). */
  readonly show: (text: () => string) => void;
  /** Clears the line. */
  readonly clear: () => void;
}

/** A progress line on standard error, rewritten in place (only when `enabled`). */
const progressLine = (enabled: boolean): ProgressLine => {
  let shown = false;
  let last = -Infinity;
  const encoder = new TextEncoder();
  return {
    show: (text: () => string): void => {
      // At most ten redraws a second: a fast series must not spend its time printing.
      const now = performance.now();
      if (!enabled || now - last < 100) return;
      last = now;
      let columns = 0;
      try {
        columns = Deno.consoleSize().columns;
      } catch {
        // not a console after all
      }
      const width = columns >= 40 ? columns - 1 : 120;
      Deno.stderr.writeSync(encoder.encode(`\r\x1b[K${text().slice(0, width)}`));
      shown = true;
    },
    clear: (): void => {
      if (shown) Deno.stderr.writeSync(encoder.encode("\r\x1b[K"));
      shown = false;
    },
  };
};

/** What `runSeries` needs besides the schedule. */
export interface SeriesRun {
  /** The loaded game. */
  readonly loaded: OpenedGame;
  /** The competitors. */
  readonly entrants: readonly Entrant<unknown, Terminal>[];
  /** Every game of the series, in order. */
  readonly fixtures: readonly Fixture[];
  /** The openings (round r plays `openings.at(r)`). */
  readonly openings: Openings;
  /** The games already played (their ids are skipped). */
  readonly done: readonly GameRecord[];
  /** Games at once. */
  readonly concurrency: number;
  /** The move limit. */
  readonly maxPlies: number;
  /** Table size per player in MB. */
  readonly ttMb: number;
  /** Hears each new finished game, with all games so far; true stops the series. */
  readonly onGame: (record: GameRecord, all: readonly GameRecord[]) => boolean;
}

/** How a series run ended. */
export interface SeriesEnd extends RunEnd {
  /** Every finished game, the earlier runs' first. */
  readonly records: readonly GameRecord[];
  /** True when the user pressed Ctrl-C. */
  readonly interrupted: boolean;
  /** Games this run finished. */
  readonly played: number;
  /** Wall time of this run, in milliseconds. */
  readonly wallMs: number;
  /** The sum of this run's games' own times, in milliseconds. */
  readonly gameMs: number;
}

/**
 * Plays the games not yet played, `concurrency` at once, until all are played, the user
 * presses Ctrl-C, or `onGame` says stop.
 */
export const runSeries = (run: SeriesRun): Effect.Effect<SeriesEnd, never, Terminal> =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const records = [...run.done];
    const played = new Set(run.done.map((r) => r.id));
    let gameMs = 0;
    const t0 = performance.now();
    const end = yield* runFixtures({
      game: run.loaded.game,
      gameId: run.loaded.specifier,
      options: run.loaded.options,
      entrants: run.entrants,
      fixtures: run.fixtures.filter((f) => !played.has(f.id)),
      openings: run.openings,
      maxPlies: run.maxPlies,
      ttMb: run.ttMb,
    }, {
      concurrency: run.concurrency,
      halt: term.interruption,
      onGame: (record) =>
        Effect.sync(() => {
          records.push(record);
          gameMs += record.ms;
          return run.onGame(record, records);
        }),
    });
    return {
      ...end,
      records,
      played: records.length - run.done.length,
      interrupted: yield* term.interrupted,
      wallMs: performance.now() - t0,
      gameMs,
    };
  });

// ---------------------------------------------------------------------------------
// Text

/** An Elo value as text: signed, whole. */
export const eloText = (x: number): string =>
  !Number.isFinite(x)
    ? (x > 0 ? "+inf" : "-inf")
    : `${x >= 0 ? "+" : "-"}${Math.abs(x).toFixed(0)}`;

/** An estimate as `+52 [+20, +85]`. */
export const estimateText = (e: EloEstimate): string =>
  `${eloText(e.elo)} [${eloText(e.low)}, ${eloText(e.high)}]`;

/** W-D-L as text. */
export const wdlText = (w: Wdl): string => `${w.wins}-${w.draws}-${w.losses}`;

/** How fast a run played. */
export interface Throughput {
  /** Wall time of this run in seconds. */
  readonly wallSeconds: number;
  /** Games this run finished per minute. */
  readonly gamesPerMinute: number;
  /** Games at once at most (`--concurrency`). */
  readonly concurrency: number;
  /** The games' own times summed over the wall time: games in progress on average. */
  readonly overlap: number;
}

/** The throughput of a run. */
export const throughput = (end: SeriesEnd, concurrency: number): Throughput => {
  const wall = end.wallMs / 1000;
  const round2 = (x: number) => Math.round(x * 100) / 100;
  return {
    wallSeconds: round2(wall),
    gamesPerMinute: wall > 0 ? round2((end.played / wall) * 60) : 0,
    concurrency,
    overlap: end.wallMs > 0 ? round2(end.gameMs / end.wallMs) : 0,
  };
};
