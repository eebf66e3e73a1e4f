/**
 * `deno task tournament GAME --players SPEC SPEC ... [--format round-robin|gauntlet]
 * [--rounds N] [--openings random:PLIES | none | --book FILE] [--concurrency C]
 * [--out DIR] [--seed S] [--anchor SPEC] [--json]`
 *
 * A tournament between AIs: every pairing plays each round's opening twice with the
 * sides swapped, several games at once. Prints W/D/L per pairing and per side, game-pair
 * counts, Elo differences with 95% intervals and likelihood of superiority, and ratings
 * fitted by maximum likelihood; with `--out`, keeps every finished game and writes the
 * results and a chart. A game that fails twice (the plugin throws, a search fails) is
 * listed as faulted and left out of the results; more than `--max-faults` of them stop
 * the tournament (exit 1).
 *
 * @module
 */
import { codeId } from "../app/tournament/code.ts";
import { openHostedGame } from "../app/games.ts";
import { builtins } from "../plugins/registry.ts";
import { Effect } from "../core/deps.ts";
import { formatSpec } from "../app/players/spec.ts";
import { Terminal } from "../app/terminal.ts";
import { chartSvg } from "../app/tournament/chart.ts";
import { resultsTally, type TournamentResults } from "../app/tournament/results.ts";
import type { GameRecord } from "../app/tournament/runner.ts";
import { type Format, FORMATS, pairings, schedule } from "../app/tournament/schedule.ts";
import {
  intFlag,
  parseCommandLine,
  printHelp,
  type ProgramServices,
  runMain,
  UsageError,
  type UserError,
} from "../app/cli.ts";
import type { SearchError } from "../core/errors.ts";
import * as series from "../app/series.ts";

const USAGE = `Usage: deno task tournament GAME [--OPTION VALUE ...] --players SPEC SPEC ... [flags]
A tournament between AIs. Each round, every pairing plays one opening twice, the sides
swapped; results per pairing, per side and per game pair, Elo with 95% intervals and
ratings fitted by maximum likelihood. Ctrl-C stops and reports the finished games.

  --players SPEC SPEC ...   the players (two or more; name the game first)
  --format F       round-robin (everyone meets everyone, default) or gauntlet (the first
                   player meets each other)
  --rounds N       openings per pairing (each played twice; default 10)
  --anchor SPEC    the player rated 0 (default the first)
  --cluster URL    play on the runners of a cluster (deno task runner --cluster URL) whose
                   PostgreSQL database is at URL; --concurrency is then games in flight
  --status ID      with --cluster: the games so far of tournament ID (from any machine)
  --resume ID      with --cluster: follow (or restart) tournament ID to its end (its own
                   arguments, --max-faults among them, come from the cluster)
  --cancel ID      with --cluster: stop tournament ID for good (its finished games are
                   kept; the games waiting for a runner are removed)
  --chunk N        with --cluster: games per chunk of the tournament's workflow (default
                   1000, 1 to 1000000); how it runs, not what it is
${series.SERIES_USAGE}`;

const FLAGS = {
  string: [
    "players",
    "format",
    "rounds",
    "chunk",
    "anchor",
    "cluster",
    "status",
    "resume",
    "cancel",
    ...series.SERIES_FLAGS,
  ],
  boolean: ["json"],
  positionals: Infinity,
} as const;

/** Percent with one decimal. */
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** True when the ratings are estimated (every player has played, all on one scale). */
const ratedYet = (r: TournamentResults): boolean =>
  r.ratings.error.every((e, i) => i === r.ratings.anchor || Number.isFinite(e));

/** The results as text tables. */
export const resultsText = (
  names: readonly string[],
  r: TournamentResults,
  seatNames: readonly string[],
): string => {
  const width = Math.max(8, ...names.map((n) => n.length));
  const order = names.map((_, i) => i).sort((a, b) => r.ratings.elo[b] - r.ratings.elo[a]);
  const lines = [
    `  ${"rank".padStart(4)}  ${"player".padEnd(width)}  ${"Elo".padStart(6)}  ${
      "95%".padStart(6)
    }  ${"games".padStart(6)}  ${"score".padStart(6)}  W-D-L            ms/move`,
  ];
  const rated = ratedYet(r);
  for (const [rank, i] of order.entries()) {
    const p = r.players[i];
    const err = r.ratings.error[i];
    lines.push(
      `  ${String(rank + 1).padStart(4)}  ${p.name.padEnd(width)}  ${
        (rated ? series.eloText(r.ratings.elo[i]) : "?").padStart(6)
      }  ${(i === r.ratings.anchor ? "anchor" : rated ? `±${err.toFixed(0)}` : "?").padStart(6)}  ${
        String(p.games).padStart(6)
      }  ${pct(p.games === 0 ? 0 : p.points / p.games).padStart(6)}  ${
        series.wdlText(p.wdl).padEnd(15)
      }  ${p.msPerMove.toFixed(2)}`,
    );
  }
  if (!rated) {
    lines.push(
      "  (ratings cannot be estimated yet: every player needs a finished game, and the " +
        "players must be linked by the games they played)",
    );
  } else if (r.ratings.prior) {
    lines.push(
      "  (a player won or lost every game: ratings use a prior of one draw per pairing)",
    );
  }
  lines.push("", "  pairings (the first player's view; game pairs by its points 0, ½, 1, 1½, 2):");
  for (const p of r.pairings) {
    const [a, b] = p.players;
    lines.push(
      `  ${names[a]} vs ${names[b]}: ${p.games} games ${series.wdlText(p.wdl)}, as ${
        seatNames[0]
      } ${series.wdlText(p.bySide[0])}, as ${seatNames[1]} ${series.wdlText(p.bySide[1])}; pairs ${
        p.pentanomial.join(" ")
      }${
        p.faultedPairs > 0 ? ` (${p.faultedPairs} left out: a game of theirs faulted)` : ""
      }; Elo ${series.estimateText(p.elo, series.estimateUnit(p.pentanomial))}`,
    );
  }
  lines.push(
    "",
    `  by seat: first player ${r.seats.first} wins, ${r.seats.draws} draws, second player ${r.seats.second} wins`,
  );
  if (r.moveLimit > 0) lines.push(`  stopped at the move limit (draws): ${r.moveLimit}`);
  if (r.adjudicated > 0) lines.push(`  adjudicated (--adjudicate): ${r.adjudicated}`);
  lines.push(
    r.repeated.length === 0
      ? "  repeated games: none"
      : `  repeated games: ${r.repeated.length} (e.g. ${
        r.repeated.slice(0, 3).map((x) => `${x.id} = ${x.sameAs}`).join(", ")
      }): more openings or plies make them distinct`,
  );
  return lines.join("\n") + "\n";
};

/**
 * The flags that say where a tournament runs and what is shown, not what it is
 * (`--max-faults` is not among them: it is the tournament's rule, kept with its plan, so
 * that `--resume ID` from any machine applies it and finds the same tournament).
 */
const WHERE = [
  "cluster",
  "out",
  "status",
  "resume",
  "json",
  "concurrency",
  "workers",
  "chunk",
  // The submitting program's own: the runners use theirs.
  "debug",
  "call-limit",
  "memory",
  "plugin-allow",
];

/** Those of `WHERE` that take no value. */
const WHERE_SWITCHES = ["json", "debug"];

/** The arguments that make a tournament what it is (kept with a cluster plan). */
const planArgs = (args: readonly string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = /^--([^=]+)/.exec(args[i])?.[1];
    if (name !== undefined && WHERE.includes(name)) {
      if (!args[i].includes("=") && !WHERE_SWITCHES.includes(name)) i++;
      continue;
    }
    out.push(args[i]);
  }
  return out;
};

/** The tournament program; `mode` "status" shows a cluster tournament's games so far. */
const tournament = (
  args: readonly string[],
  mode: "run" | "status" = "run",
  /** The id of the tournament asked for (`--status`/`--resume ID`): the plan made must be its. */
  asked?: string,
): Effect.Effect<number, UserError | SearchError, ProgramServices> =>
  Effect.gen(function* (): Generator<
    Effect.Effect<unknown, UserError | SearchError, ProgramServices>,
    number,
    unknown
  > {
    const { flags, gameOptions, positional } = yield* parseCommandLine(args, FLAGS);
    const term = yield* Terminal;
    if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
    if (typeof flags.cluster === "string") {
      // A database not up yet is waited for (Ctrl-C stops); one that refuses is one line.
      // (The cluster's modules load only when asked for.)
      const { reachCluster } = yield* Effect.promise(() => import("../cluster/reach.ts"));
      if (!(yield* reachCluster(flags.cluster))) return 0;
    }
    if (typeof flags.cancel === "string") {
      if (typeof flags.cluster !== "string") {
        return yield* new UsageError({ message: "--cancel needs --cluster URL" });
      }
      const cluster = yield* Effect.promise(() => import("../cluster/submit.ts"));
      const id = flags.cancel;
      const done = yield* cluster.cancelTournament(flags.cluster, id).pipe(
        Effect.mapError((message) => new UsageError({ message })),
      );
      yield* term.print(
        `tournament ${id} cancelled: ${done.kept} of ${done.scheduled} games were played ` +
          `and are kept; ${done.removed} waiting game${done.removed === 1 ? " was" : "s were"} ` +
          "removed\n",
      );
      return 0;
    }
    const byId = typeof flags.status === "string" ? flags.status : flags.resume;
    if (typeof byId === "string") {
      // A tournament on the cluster by its id: its own arguments, from the database.
      if (typeof flags.cluster !== "string") {
        return yield* new UsageError({ message: "--status and --resume need --cluster URL" });
      }
      const cluster = yield* Effect.promise(() => import("../cluster/submit.ts"));
      const stored = yield* cluster.storedArgs(flags.cluster, byId).pipe(
        Effect.mapError((message) => new UsageError({ message })),
      );
      const rest = args.filter((a, i) =>
        !/^--(status|resume)(=|$)/.test(a) && !/^--(status|resume)$/.test(args[i - 1] ?? "")
      );
      // The tournament's own arguments are the stored ones: one given here would make
      // another plan (another tournament), not change this one.
      const own = planArgs(rest);
      if (own.length > 0) {
        return yield* new UsageError({
          message: `--${flags.status !== undefined ? "status" : "resume"} ${byId}: ` +
            `${own.join(" ")} cannot change tournament ${byId} (its arguments are kept on ` +
            "the cluster); give only --cluster, --out, --json, --concurrency, --workers or --chunk here",
        });
      }
      return yield* tournament(
        [...stored, ...rest],
        flags.status !== undefined ? "status" : "run",
        byId,
      );
    }
    if (positional.length === 0) return yield* new UsageError({ message: "name one game" });
    const loaded = yield* openHostedGame(positional[0], gameOptions);
    const { game, plugin } = loaded;
    if (game.solo === true) {
      return yield* new UsageError({
        message: `${plugin.id} has one player (its opponent is chance): compare players with ` +
          `deno task match ${plugin.id} --p1 SPEC`,
      });
    }
    const texts = typeof flags.players === "string" ? [flags.players, ...positional.slice(1)] : [];
    if (texts.length < 2) {
      return yield* new UsageError({
        message: "--players takes two or more specs (name the game first: GAME --players A B ...)",
      });
    }
    const specs = yield* series.readPlayers(
      loaded,
      texts.map((text, i) => ({ flag: `players (player ${i + 1})`, text })),
    );
    const names = specs.map(formatSpec);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined) {
      return yield* new UsageError({ message: `--players names ${twice} twice` });
    }
    const format = (flags.format ?? "round-robin") as Format;
    if (!FORMATS.includes(format)) {
      return yield* new UsageError({
        message: `--format must be one of ${FORMATS.join(", ")}, got '${flags.format}'`,
      });
    }
    const anchorName = typeof flags.anchor === "string" ? flags.anchor : names[0];
    const anchor = names.indexOf(anchorName);
    if (anchor < 0) {
      return yield* new UsageError({
        message: `--anchor must be one of the players (${names.join(", ")}), got '${anchorName}'`,
      });
    }
    const rounds = yield* intFlag(flags, "rounds", 10, 1, 1_000_000);
    const ps = pairings(names.length, format);
    const prepared = yield* series.prepareSeries(
      flags,
      "tournament",
      loaded,
      specs,
      ({ seed }) => schedule(names.length, format, rounds, seed),
      { extra: { format } },
    );
    const { settings, openings, fixtures, store, done, progress } = prepared;
    const { seed, maxPlies, ttMb, concurrency, source, json } = settings;
    if (!json) {
      yield* term.print(
        `${plugin.name}: ${format} of ${names.length} players, ${rounds} round${
          rounds === 1 ? "" : "s"
        } (${fixtures.length} games), openings ${series.describeOpenings(source)}, ` +
          `seed ${seed}, ${concurrency} at once` +
          (done.ids.size > 0 ? `; resuming: ${done.ids.size} games already played` : "") +
          ` (Ctrl-C stops and keeps the finished games)\n`,
      );
    }
    // The results, kept as the games come in (the folder's first): never the records.
    const tally = resultsTally(names, ps, anchor);
    done.each(tally.add);
    const started = performance.now();
    let fresh = 0;
    const onGame = (record: GameRecord, soFar: series.SoFar) => {
      tally.add(record);
      fresh++;
      const secs = (performance.now() - started) / 1000;
      const rate = fresh / Math.max(secs, 1e-3);
      const left = fixtures.length - soFar.games;
      progress.show(() => {
        const r = tally.results();
        const best = r.ratings.elo.indexOf(Math.max(...r.ratings.elo));
        return `${soFar.games}/${fixtures.length} games${series.faultedSoFar(soFar)}, ` +
          `${(rate * 60).toFixed(1)}/min, ` +
          `${left > 0 ? `about ${Math.ceil(left / rate / 60)} min left, ` : ""}` +
          (!ratedYet(r)
            ? "no ratings yet"
            : `leading: ${names[best]} ${series.eloText(r.ratings.elo[best])}` +
              (best === anchor ? "" : ` ±${r.ratings.error[best].toFixed(0)}`));
      });
      return false;
    };
    const end = typeof flags.cluster === "string"
      // The cluster's modules load only when asked for (they read the environment).
      ? yield* (yield* Effect.promise(() => import("../cluster/submit.ts"))).runOnCluster({
        url: flags.cluster,
        follow: mode === "run",
        ...(asked !== undefined ? { id: asked } : {}),
        plan: {
          argv: planArgs(args),
          game: loaded.specifier,
          ...(Object.hasOwn(builtins, loaded.specifier) ? {} : { module: loaded.source.url }),
          options: loaded.options as Record<string, unknown>,
          players: names,
          schedule: { players: names.length, format, rounds, seed },
          openings: yield* Effect.forEach(Array.from({ length: rounds }, (_, r) => r), openings.at),
          maxPlies,
          ttMb,
          concurrency,
          // (Absent, the cluster's default: 1000.)
          ...(flags.chunk !== undefined
            ? { chunk: yield* intFlag(flags, "chunk", 1, 1, 1_000_000) }
            : {}),
          maxFaults: settings.maxFaults,
          ...(settings.adjudication !== undefined ? { adjudication: settings.adjudication } : {}),
          code: yield* Effect.tryPromise({
            try: () =>
              codeId(Object.hasOwn(builtins, loaded.specifier) ? undefined : loaded.source.url),
            catch: (e) =>
              new UsageError({
                message: `the plugin's source cannot be read: ${
                  e instanceof Error ? e.message : e
                }`,
              }),
          }),
        },
        done,
        // The local run's series keeps each game itself; here the folder is written too.
        onGame: (record, soFar) => {
          store?.append(record);
          onGame(record, soFar);
        },
        onSubmitted: (id) =>
          json ? Effect.void : term.print(
            `submitted to the cluster as ${id} (the same command follows it again; ` +
              "Ctrl-C stops following, not the tournament)\n",
          ),
      }).pipe(Effect.mapError((message) => new UsageError({ message })))
      : yield* prepared.run(onGame);
    progress.clear();
    const results = tally.results();
    const faulted = end.games - results.total;
    const speed = series.throughput(end, concurrency);
    const report = {
      game: loaded.specifier,
      options: loaded.options,
      format,
      rounds,
      openings: series.describeOpenings(source),
      distinctOpenings: results.distinctOpenings,
      seed,
      players: names,
      games: results.total,
      scheduled: fixtures.length,
      interrupted: end.interrupted,
      ...speed,
      results,
    };
    const chart = chartSvg({
      title: `${plugin.name}: ${format}, ${results.total} games`,
      players: names,
      elo: results.ratings.elo,
      error: results.ratings.error,
      anchor,
      score: results.score,
      games: results.games,
    });
    const { code, report: full, faults } = yield* prepared.finish(end, report, {
      "chart.svg": chart,
    });
    if (json) {
      yield* term.print(JSON.stringify(full) + "\n");
      return code;
    }
    yield* term.print(
      `${results.total} of ${fixtures.length} games${
        faulted > 0 ? ` (and ${faulted} faulted)` : ""
      }${end.interrupted ? " (interrupted)" : ""}` +
        (end.played > 0
          ? `; this run: ${speed.wallSeconds} s, ${speed.gamesPerMinute} games/min with up ` +
            `to ${concurrency} at once (on average ${speed.overlap} games in progress)\n`
          : mode === "status"
          ? " so far on the cluster\n"
          : typeof flags.cluster === "string"
          ? "; this run played none (every game was played before it looked)\n"
          : "; this run played none (every game was already kept)\n") +
        resultsText(names, results, game.players) + faults +
        (store === undefined
          ? ""
          : `  kept in ${store.dir}: games.jsonl, results.json, chart.svg (rerun to resume)\n`),
    );
    return code;
  });

const main = tournament(Deno.args);

if (import.meta.main) runMain(main, "deno task tournament");
