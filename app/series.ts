/**
 * What `match`, `tournament` and `sprt` share: reading the players and the openings,
 * the output folder (the games as JSON lines, resumed by a rerun), the progress line,
 * running the schedule with every finished game recorded at once, and the faulted games
 * (each failed twice: left out of the results, listed, and a series with more than
 * `--max-faults` of them stopped).
 *
 * @module
 */
import type { OpenedGame } from "../core/plugin.ts";
import { Effect, Result, type Scope } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import type { GameSource } from "../core/source.ts";
import { agentFromSpec } from "./players/agents.ts";
import { formatSpec, type PlayerSpec } from "./players/spec.ts";
import { DEFAULT_STRENGTHS } from "../core/plugin.ts";
import type { Strategy } from "../core/search/types.ts";
import { Terminal } from "./terminal.ts";
import {
  type KeptGames,
  keptOnly,
  NO_GAMES,
  openStore,
  retriedOf,
  type RetriedRecord,
  type Store,
} from "./tournament/folder.ts";
import {
  bookOpenings,
  DEFAULT_OPENINGS,
  fixedOpenings,
  OPENING_CHECK,
  type Openings,
  type OpeningSource,
  randomOpenings,
  START,
} from "./tournament/openings.ts";
import {
  type Entrant,
  type GameRecord,
  OPENING_AGENT,
  type RunEnd,
  runFixtures,
} from "./tournament/runner.ts";
import type { Fixture } from "./tournament/schedule.ts";
import type { EloEstimate, Wdl } from "./tournament/stats.ts";
import { defaultWorkers } from "../core/parallel/pool.ts";
import {
  ADJUDICATE_USAGE,
  type Adjudication,
  type Adjudicator,
  adjudicator,
  describeAdjudication,
  parseAdjudication,
} from "./tournament/adjudicate.ts";
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
  "max-faults",
  "adjudicate",
] as const;

/** `--max-faults` when not given. */
export const DEFAULT_MAX_FAULTS = 10;

/** The usage lines of the shared flags. */
export const SERIES_USAGE = `  --openings random:PLIES | none
                   openings: seeded random lines of PLIES plies (default random:4),
                   chance moves included, kept when not already decided (searched to
                   the end where the game is small enough, else to ${OPENING_CHECK.nodes} nodes);
                   none: every game from the start
  --book FILE      openings from a file: one move list per line, in the game's notation
  --concurrency C  games at once (default: the cores)
  --out DIR        append every finished game to DIR/games.jsonl (a rerun with the same
                   DIR resumes), and write DIR/results.json (a tournament also
                   DIR/chart.svg); one process at a time uses DIR
  --seed S         the seed of the openings and of every game (default 1)
  --max-plies N    a game reaching N plies stops and counts as a draw (default 100000)
  --tt-mb N        transposition table size per player in MB (default 64)
  --workers N      engine workers (default: the cores)
  --max-faults N   a game that fails (the plugin throws, a search fails) is played once
                   more; failing again, it is faulted: listed, left out of the results,
                   and the series goes on, unless more than N games faulted: then it
                   stops with exit code 1, the results so far reported (default
                   ${DEFAULT_MAX_FAULTS}; 0 stops at the first)
${ADJUDICATE_USAGE}  --json           one JSON object instead of text (and no progress line)
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
  gameSource: GameSource,
): Effect.Effect<Openings, UsageError> =>
  Effect.gen(function* () {
    if (source.kind === "none") return fixedOpenings([START]);
    if (source.kind === "random") return randomOpenings(game, source.plies, seed, gameSource);
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
  /** `--max-faults`: more faulted games than this stop the series. */
  readonly maxFaults: number;
  /** `--adjudicate`: the rules that end a settled game early (none without it). */
  readonly adjudication?: Adjudication;
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
    const maxFaults = yield* intFlag(flags, "max-faults", DEFAULT_MAX_FAULTS, 0, 1_000_000);
    const rules = typeof flags.adjudicate === "string"
      ? parseAdjudication(flags.adjudicate)
      : flags.adjudicate === undefined
      ? undefined
      : "--adjudicate needs its rules (proof, proof:NODES, score:V:N)";
    if (typeof rules === "string") return yield* new UsageError({ message: rules });
    return {
      seed,
      maxPlies,
      ttMb,
      concurrency,
      source,
      maxFaults,
      ...(rules !== undefined ? { adjudication: rules } : {}),
      json: flags.json === true,
    };
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
): Effect.Effect<
  { readonly store?: Store; readonly done: KeptGames },
  UsageError,
  Scope.Scope
> =>
  Effect.gen(function* () {
    if (typeof flags.out !== "string") return { done: NO_GAMES };
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
      // (Only when given: the folders of series without it keep their settings.)
      ...(settings.adjudication !== undefined
        ? { adjudicate: describeAdjudication(settings.adjudication) }
        : {}),
    });
    if (store.tookOver !== undefined) console.error(store.tookOver);
    if (store.duplicates > 0) {
      console.error(
        `--out: ${store.duplicates} record${store.duplicates === 1 ? "" : "s"} of ` +
          `${flags.out}/games.jsonl repeated a game an earlier line holds: dropped ` +
          "(each game counts once)",
      );
    }
    const known = new Set(fixtures.map((f) => f.id));
    return { store, done: keptOnly(store.done, (id) => known.has(id)) };
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
  /** The games of `fixtures` already played (kept in the folder, read again by `each`). */
  readonly done: KeptGames;
  /** The progress line (on a terminal, without `--json`). */
  readonly progress: ProgressLine;
  /**
   * Plays the games not yet played (of `fixtures`, or of `only`) with the series'
   * players and settings, each finished or faulted game appended to the folder at once;
   * `onGame` sees each and says whether to stop (more than `--max-faults` faulted games
   * stop the series anyway, and so does a game the folder could not take).
   */
  readonly run: (
    onGame: SeriesRun["onGame"],
    only?: readonly Fixture[],
  ) => Effect.Effect<SeriesEnd, never, Terminal>;
  /**
   * Ends the series: the faulted games and those that passed on their retry added to
   * `report` (`faulted`, `retried`); a series stopped by its faults, or by a write the
   * folder refused (a full disk, a read-only folder), reported to the user in one line
   * and named in `report` as `error`; the report written as `results.json` in the
   * folder, and `files` beside it (a tournament's chart). Returns the exit code (1 when
   * the faults or the folder stopped the series) and the report.
   */
  readonly finish: (
    end: SeriesEnd,
    report: Record<string, unknown>,
    files?: Readonly<Record<string, string>>,
  ) => Effect.Effect<{
    readonly code: number;
    readonly report: Record<string, unknown>;
    /** The faulted and retried games as text lines for the text report ("" if none). */
    readonly faults: string;
  }>;
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
): Effect.Effect<PreparedSeries, UsageError, Scope.Scope> =>
  Effect.gen(function* () {
    const settings = yield* seriesSettings(flags, options.openings ?? true);
    const openings = yield* makeOpenings(
      loaded.game,
      settings.source,
      settings.seed,
      loaded.source,
    );
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
    const { concurrency, maxPlies, ttMb, maxFaults, adjudication } = settings;
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
          maxFaults,
          ...(adjudication !== undefined ? { adjudication } : {}),
          // Kept at once; a game the folder cannot take stops the series.
          onGame: (record, soFar) => {
            const kept = store === undefined || store.append(record);
            return onGame(record, soFar) || !kept;
          },
        }),
      finish: (end, report, files = {}) =>
        Effect.gen(function* () {
          progress.clear();
          const fault = end.fault;
          if (fault !== undefined) yield* reportFault(fault.message, fault.trace);
          const faulted = faultedGames(end.faulted, store);
          const retried = retriedGames(end.retried);
          const failed = () => store?.failure();
          const error = fault?.message ?? failed();
          const full = {
            ...report,
            faulted,
            retried,
            ...(error === undefined ? {} : { error }),
          };
          // A run that played nothing (a rerun of a finished folder) keeps the speed the
          // folder's report gave: its own would be of no game.
          if (end.played === 0) Object.assign(full, keptSpeed(store));
          store?.write("results.json", JSON.stringify(full, null, 2) + "\n");
          for (const [name, text] of Object.entries(files)) store?.write(name, text);
          // The folder's failure (the first), once, in one line.
          const lost = failed();
          if (lost !== undefined) yield* reportFault(lost);
          const { game } = loaded;
          const sides = game.solo === true ? [game.players[0]] : game.players;
          return {
            code: fault === undefined && lost === undefined ? 0 : 1,
            report: full,
            faults: faultsText(faulted, retried, sides),
          };
        }),
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
  readonly done: KeptGames;
  /** Games at once. */
  readonly concurrency: number;
  /** The move limit. */
  readonly maxPlies: number;
  /** Table size per player in MB. */
  readonly ttMb: number;
  /** More faulted games than this (those already played included) stop the series. */
  readonly maxFaults: number;
  /** `--adjudicate`'s rules, if given. */
  readonly adjudication?: Adjudication;
  /**
   * Hears each new finished or faulted game (`record.fault`), with the counts so far
   * (the program keeps what it reports of it: the series keeps no records); true stops
   * the series.
   */
  readonly onGame: (record: GameRecord, soFar: SoFar) => boolean;
}

/** A series' counts so far, earlier runs' games included. */
export interface SoFar {
  /** Games finished or faulted. */
  readonly games: number;
  /** Of them, faulted. */
  readonly faulted: number;
}

/**
 * How a series run ended; `fault` is set when more than `maxFaults` games faulted (its
 * message the one line the user reads).
 */
export interface SeriesEnd extends RunEnd {
  /** Games finished or faulted, the earlier runs' included. */
  readonly games: number;
  /** The faulted games (their records: few), the earlier runs' first. */
  readonly faulted: readonly GameRecord[];
  /** The games that passed on their retry, the earlier runs' first. */
  readonly retried: readonly RetriedRecord[];
  /** True when the user pressed Ctrl-C. */
  readonly interrupted: boolean;
  /** Games this run finished or faulted. */
  readonly played: number;
  /** Wall time of this run, in milliseconds. */
  readonly wallMs: number;
  /** The sum of this run's games' own times, in milliseconds. */
  readonly gameMs: number;
}

/** A run plan's `adjudicate` for `rules` (nothing without them): searches in the engine. */
export const adjudicating = (
  loaded: OpenedGame,
  rules: Adjudication | undefined,
): { adjudicate?: () => Adjudicator<unknown> } =>
  rules === undefined ? {} : { adjudicate: () => adjudicator(loaded.game, rules, loaded.source) };

/** The message of a series stopped by its faults: how many, the limit, the last reason. */
export const tooManyFaults = (faults: number, maxFaults: number, last: string): string =>
  `${faults} game${faults === 1 ? "" : "s"} faulted (more than --max-faults ${maxFaults}); ` +
  `the last: ${last}`;

/**
 * Plays the games not yet played, `concurrency` at once, until all are played, the user
 * presses Ctrl-C, `onGame` says stop, or more than `maxFaults` games have faulted (the
 * earlier runs' included: a resumed series already past the limit plays nothing).
 */
export const runSeries = (run: SeriesRun): Effect.Effect<SeriesEnd, never, Terminal> =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    // Counts and the few faulted and retried games, never every record: a series of any
    // length runs in the same memory (the program tallies what it reports).
    const played = run.done.ids;
    const faulted = [...run.done.faulted];
    const retried = [...run.done.retried];
    let games = played.size;
    const over = () => faulted.length > run.maxFaults;
    let gameMs = 0;
    const t0 = performance.now();
    const before = over() ? faulted[faulted.length - 1] : undefined;
    const end: RunEnd = before !== undefined
      ? {
        halted: true,
        fault: { message: before.fault ?? "", id: before.id },
      }
      : yield* runFixtures({
        game: run.loaded.game,
        gameId: run.loaded.specifier,
        options: run.loaded.options,
        entrants: run.entrants,
        fixtures: run.fixtures.filter((f) => !played.has(f.id)),
        openings: run.openings,
        maxPlies: run.maxPlies,
        ttMb: run.ttMb,
        ...adjudicating(run.loaded, run.adjudication),
      }, {
        concurrency: run.concurrency,
        halt: term.interruption,
        onGame: (record) =>
          Effect.sync(() => {
            games++;
            gameMs += record.ms;
            if (record.fault !== undefined) faulted.push(record);
            if (record.retried !== undefined) retried.push(retriedOf(record));
            // The program hears every game, the one past the limit included.
            const enough = run.onGame(record, { games, faulted: faulted.length });
            return over() || enough;
          }),
      });
    const fault = over() && end.fault !== undefined
      ? {
        ...end.fault,
        message: tooManyFaults(faulted.length, run.maxFaults, end.fault.message),
      }
      : undefined;
    const { fault: _, ...rest } = end;
    return {
      ...rest,
      ...(fault !== undefined ? { fault } : {}),
      games,
      faulted,
      retried,
      played: games - played.size,
      interrupted: yield* term.interrupted,
      wallMs: performance.now() - t0,
      gameMs,
    };
  });

// ---------------------------------------------------------------------------------
// Faulted games

/** A faulted game as the report lists it. */
export interface FaultedGame {
  /** The fixture's id (`r3-p1-b`). */
  readonly id: string;
  /** Its round (the opening's number, from 0). */
  readonly round: number;
  /** The opening's moves in the game's notation ("" for the start). */
  readonly opening: string;
  /** The players, by side: the one who moved first, then the other. */
  readonly players: readonly [string, string];
  /** The plies played before the fault, the opening's included. */
  readonly plies: number;
  /** Why it failed, in one line. */
  readonly reason: string;
  /** Where its transcript so far is kept (with `--out`). */
  readonly transcript?: string;
}

/** A game that failed once and passed on its retry. */
export interface RetriedGame {
  /** The fixture's id. */
  readonly id: string;
  /** Why its first attempt failed. */
  readonly reason: string;
}

/** In schedule order. */
const bySchedule = (x: RetriedRecord, y: RetriedRecord) =>
  x.round - y.round || x.pairing - y.pairing || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/** The faulted games among `records`, in schedule order (with the folder's files). */
export const faultedGames = (
  records: readonly GameRecord[],
  store?: Pick<Store, "faultedFile">,
): readonly FaultedGame[] =>
  records.filter((r) => r.fault !== undefined).sort(bySchedule).map((r) => {
    const t = r.transcript;
    return {
      id: r.id,
      round: r.round,
      opening: t.moves.filter((m) => m.agent === OPENING_AGENT).map((m) => m.notation).join(" "),
      players: [t.players[0], t.players[1]],
      plies: t.moves.length,
      reason: r.fault ?? "",
      ...(store !== undefined ? { transcript: store.faultedFile(r.id) } : {}),
    };
  });

/** The games among `records` that passed on their retry, in schedule order. */
export const retriedGames = (records: readonly RetriedRecord[]): readonly RetriedGame[] =>
  records.filter((r) => r.retried !== undefined).sort(bySchedule).map((r) => ({
    id: r.id,
    reason: r.retried ?? "",
  }));

/** The faulted games so far for a progress line: `, 3 faulted`, or nothing. */
export const faultedSoFar = (soFar: SoFar): string =>
  soFar.faulted === 0 ? "" : `, ${soFar.faulted} faulted`;

/** The longest list of faulted games printed as text (the JSON report has them all). */
const SHOWN_FAULTS = 20;

/**
 * The faulted games and the retried ones as text lines (nothing when there are none);
 * `sides` are the game's names for its players (one for a game against chance).
 */
export const faultsText = (
  faulted: readonly FaultedGame[],
  retried: readonly RetriedGame[],
  sides: readonly string[],
): string => {
  const lines: string[] = [];
  if (faulted.length > 0) {
    lines.push(
      `  faulted games (failed twice, left out of the results): ${faulted.length}` +
        (faulted.some((f) => f.transcript !== undefined) ? "" : " (--out DIR keeps their moves)"),
    );
    for (const f of faulted.slice(0, SHOWN_FAULTS)) {
      const who = sides.length === 1
        ? f.players[0]
        : `${f.players[0]} as ${sides[0]}, ${f.players[1]} as ${sides[1]}`;
      lines.push(
        `    ${f.id}: ${
          f.opening === "" ? "no opening moves" : `opening '${f.opening}'`
        }, ${who}, ` +
          `after ${f.plies} plies: ${f.reason}` +
          (f.transcript !== undefined ? ` (moves in ${f.transcript})` : ""),
      );
    }
    if (faulted.length > SHOWN_FAULTS) {
      lines.push(`    and ${faulted.length - SHOWN_FAULTS} more (all of them with --json)`);
    }
  }
  if (retried.length > 0) {
    lines.push(
      `  failed once and passed on the retry: ${retried.length} game${
        retried.length === 1 ? "" : "s"
      } (${retried.slice(0, 3).map((r) => r.id).join(", ")}${
        retried.length > 3 ? ", ..." : ""
      }; the first: ${retried[0].reason})`,
    );
  }
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
};

// ---------------------------------------------------------------------------------
// Text

/** An Elo value as text: signed, whole. */
export const eloText = (x: number): string =>
  !Number.isFinite(x)
    ? (x > 0 ? "+inf" : "-inf")
    : `${x >= 0 ? "+" : "-"}${Math.abs(x).toFixed(0)}`;

/**
 * True when an estimate measures something: a sample whose results differ. With none, or
 * when every game (pair) scored the same, its interval is a point or unbounded
 * (`+0 [+0, +0]`, `+inf`) and says nothing yet.
 */
export const measurable = (e: EloEstimate): boolean => e.n > 0 && e.low < e.high;

/**
 * An estimate in words: `+52 [+20, +85], LOS 99.9%`, an end beyond reach written as
 * `no upper bound yet`; or what cannot be estimated yet (no sample, or every one of the
 * `unit`s, "game pair" or "game", scoring the same).
 */
export const estimateText = (e: EloEstimate, unit: string): string => {
  const many = (n: number) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (e.n === 0) return `cannot be estimated yet (no ${unit})`;
  if (!measurable(e)) {
    const each = `${(e.score * 100).toFixed(1)}%`;
    return `cannot be estimated yet from ${many(e.n)}` +
      (e.n === 1 ? ` (scoring ${each})` : `, all scoring ${each}`);
  }
  const end = (x: number, which: string) =>
    Number.isFinite(x) ? eloText(x) : `no ${which} bound yet`;
  return `${eloText(e.elo)} [${end(e.low, "lower")}, ${end(e.high, "upper")}], LOS ${
    (e.los * 100).toFixed(1)
  }%`;
};

/** The unit of a pairing's estimate: game pairs when it has complete ones, else games. */
export const estimateUnit = (pentanomial: readonly number[]): string =>
  pentanomial.some((x) => x > 0) ? "game pair" : "game";

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

/** The speed figures a folder's `results.json` holds (none when it has no report). */
const keptSpeed = (store: Store | undefined): Partial<Throughput> => {
  if (store === undefined) return {};
  try {
    const old = JSON.parse(store.read("results.json") ?? "{}");
    const keys = ["wallSeconds", "gamesPerMinute", "concurrency", "overlap"] as const;
    return Object.fromEntries(
      keys.filter((k) => typeof old[k] === "number").map((k) => [k, old[k]]),
    );
  } catch {
    return {};
  }
};

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
