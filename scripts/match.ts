/**
 * `deno task match GAME [--OPTION VALUE ...] --p1 SPEC --p2 SPEC --games N --seed S [--json]`
 *
 * An AI-vs-AI series: the two-player case of `deno task tournament`. Games go in pairs:
 * pair k plays opening k twice with the sides swapped (--p2 moves first in the second
 * game); game i has seed S+i. Prints wins, draws and losses per player and per seat, the
 * game pairs, Elo with its 95% interval, mean game length, time per move, and the game's
 * own statistics (such as 2048's tiles reached); `--json` prints one JSON object instead.
 * A one-player game against chance (2048) plays game i with seed S+i. A game that fails
 * twice (the plugin throws, a search fails) is listed as faulted and left out of the
 * results; more than `--max-faults` of them stop the match (exit 1).
 *
 * @module
 */
import { openHostedGame } from "../app/games.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE } from "../core/game.ts";
import { formatSpec } from "../app/players/spec.ts";
import { Terminal } from "../app/terminal.ts";
import { resultsTally } from "../app/tournament/results.ts";
import { type GameRecord, OPENING_AGENT } from "../app/tournament/runner.ts";
import { pairings, schedule, soloSchedule } from "../app/tournament/schedule.ts";
import { scoreFromElo } from "../app/tournament/stats.ts";
import { intFlag, parseCommandLine, printHelp, runMain, UsageError } from "../app/cli.ts";
import { num } from "../app/display.ts";
import * as series from "../app/series.ts";

const USAGE = `Usage: deno task match GAME [--OPTION VALUE ...] --p1 SPEC --p2 SPEC
                        [--games N] [flags]
Plays an AI-vs-AI series in pairs of games: pair k plays opening k twice, the sides
swapped (--p2 moves first in the second game); game i has seed S+i. A one-player game against
chance (2048) takes only --p1, plays game i with seed S+i and reports its statistics.
More than two players: deno task tournament.

  --p1 SPEC        the first competitor (default alphabeta:4)
  --p2 SPEC        the second competitor (default random)
  --games N        number of games (default 10)
${series.SERIES_USAGE}A replay of a game: its transcript is in DIR/games.jsonl with --out.
`;

const FLAGS = {
  string: ["p1", "p2", "games", ...series.SERIES_FLAGS],
  boolean: ["json"],
} as const;

const round4 = (x: number) => Math.round(x * 10000) / 10000;
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Plies, chance moves, the time of the players' moves and the sums of the games' own
 * statistics (2048's score and tiles), kept as the finished games come in (faulted games
 * are left out).
 */
const gameFigures = () => {
  let games = 0, plies = 0, chanceMoves = 0, ms = 0;
  const sums: Record<string, number> = {};
  return {
    add: (r: GameRecord) => {
      if (r.fault !== undefined) return;
      games++;
      for (const m of r.transcript.moves) {
        if (m.agent === OPENING_AGENT) continue;
        if (m.by === CHANCE) chanceMoves++;
        else (plies++, ms += m.ms);
      }
      for (const [k, v] of Object.entries(r.transcript.stats ?? {})) sums[k] = (sums[k] ?? 0) + v;
    },
    /** Finished games counted. */
    games: () => games,
    lengths: () => ({
      meanPlies: round2(plies / Math.max(1, games)),
      chanceMoves,
      msPerMove: plies === 0 ? 0 : round2(ms / plies),
      movesPerSecond: ms === 0 ? 0 : round2((plies / ms) * 1000),
    }),
    /** The mean of each of the games' own statistics. */
    stats: (): Record<string, number> =>
      Object.fromEntries(
        Object.entries(sums).map(([k, v]) => [k, round4(v / Math.max(1, games))]),
      ),
  };
};

const main = Effect.gen(function* () {
  // Every program of scripts/ opens with these lines (flags, --help, the game); each then
  // checks its own positionals and flags, so no shorter shared step fits them all.
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length !== 1) return yield* new UsageError({ message: "name one game" });
  const loaded = yield* openHostedGame(positional[0], gameOptions);
  const { game, plugin } = loaded;
  // A solo game (2048: only player 0 moves, against chance) has one player: --p1.
  const solo = game.solo === true;
  if (solo && flags.p2 !== undefined) {
    return yield* new UsageError({
      message: `${plugin.id} has one player (its opponent is chance): give only --p1`,
    });
  }
  const specs = yield* series.readPlayers(loaded, [
    { flag: "p1", text: typeof flags.p1 === "string" ? flags.p1 : "alphabeta:4" },
    ...(solo ? [] : [{ flag: "p2", text: typeof flags.p2 === "string" ? flags.p2 : "random" }]),
  ]);
  const names = specs.map(formatSpec);
  const games = yield* intFlag(flags, "games", 10, 1, 1_000_000);
  if (solo && (flags.openings !== undefined || flags.book !== undefined)) {
    return yield* new UsageError({
      message: `${plugin.id} is played against chance from the start: no openings`,
    });
  }
  const prepared = yield* series.prepareSeries(
    flags,
    "match",
    loaded,
    specs,
    ({ seed }) =>
      solo
        ? soloSchedule(games, seed)
        : schedule(2, "round-robin", Math.ceil(games / 2), seed).slice(0, games),
    { openings: !solo },
  );
  const { settings, progress } = prepared;
  const { seed, concurrency, source, json } = settings;
  if (!json) {
    yield* term.print(
      `Playing ${games} game${games === 1 ? "" : "s"} of ${plugin.name}: ${names[0]}` +
        (solo
          ? `, seeds ${seed}-${seed + games - 1}`
          : ` vs ${names[1]} in pairs, sides swapped; openings ${
            series.describeOpenings(source)
          } ` +
            `seed ${seed}`) +
        `, ${concurrency} at once (Ctrl-C stops and reports the finished games)\n`,
    );
  }
  // What the report says, kept as the games come in (the folder's first).
  const tally = resultsTally(names, pairings(2, "round-robin"), 1);
  const figures = gameFigures();
  const keep = (r: GameRecord) => {
    figures.add(r);
    if (!solo) tally.add(r);
  };
  prepared.done.each(keep);
  const end = yield* prepared.run((record, soFar) => {
    keep(record);
    progress.show(() => {
      const faults = series.faultedSoFar(soFar);
      if (solo) return `game ${soFar.games}/${games}${faults}`;
      // No pairing yet while every game so far faulted.
      const p = tally.results().pairings[0];
      return `game ${soFar.games}/${games}: ${names[0]} ${
        series.wdlText(p?.wdl ?? { wins: 0, draws: 0, losses: 0 })
      } ${names[1]}${faults}`;
    });
    return false;
  });
  // Faulted games count nowhere but in their own list (and as pairs left out).
  const finished = figures.games();
  const faulted = end.games - finished;
  const stats = figures.stats();
  const common = {
    game: loaded.specifier,
    options: loaded.options,
    seed,
    games: finished,
    interrupted: end.interrupted,
    players: { p1: names[0], p2: solo ? null : names[1] },
  };
  const tail = {
    ...figures.lengths(),
    ...series.throughput(end, concurrency),
    ...(Object.keys(stats).length > 0 ? { stats } : {}),
  };
  let text: string;
  let report: Record<string, unknown>;
  const statsLine = Object.keys(stats).length > 0
    ? `  mean of the game's statistics: ${
      Object.entries(stats).map(([k, v]) => `${k} ${v}`).join(", ")
    }\n`
    : "";
  const lengthLine = (l: ReturnType<typeof figures.lengths>) =>
    `  mean length ${l.meanPlies} moves${
      l.chanceMoves > 0 ? ` (+${num(l.chanceMoves / Math.max(1, finished))} chance)` : ""
    }, ${l.msPerMove} ms per move, ${l.movesPerSecond} moves/s, ` +
    `${round2(end.wallMs / 1000)} s in all\n`;
  if (solo) {
    report = { ...common, finished, ...tail };
    text = `${plugin.name}: ${game.players[0]} ${names[0]} against chance, ${finished} games` +
      `${faulted > 0 ? ` (and ${faulted} faulted)` : ""}` +
      `${end.interrupted ? " (interrupted)" : ""}, seeds ${seed}-${seed + games - 1}\n` +
      lengthLine(figures.lengths()) + statsLine;
  } else {
    const r = tally.results();
    const pair = r.pairings[0];
    const one = (p: 0 | 1) => {
      const pl = r.players[p];
      const e = pair?.elo;
      // The score and its 95% interval, from the Elo estimate over game pairs.
      const [score, lo, hi] = e === undefined
        ? [0, 0, 1]
        : p === 0
        ? [e.score, scoreFromElo(e.low), scoreFromElo(e.high)]
        : [1 - e.score, 1 - scoreFromElo(e.high), 1 - scoreFromElo(e.low)];
      return {
        wins: pl.wdl.wins,
        draws: pl.wdl.draws,
        losses: pl.wdl.losses,
        score: round4(score),
        score95: [round4(lo), round4(hi)],
        msPerMove: pl.msPerMove,
      };
    };
    report = {
      ...common,
      openings: series.describeOpenings(source),
      distinctOpenings: r.distinctOpenings,
      results: { p1: one(0), p2: one(1) },
      bySeat: {
        [game.players[0]]: { wins: r.seats.first, draws: r.seats.draws, losses: r.seats.second },
        [game.players[1]]: { wins: r.seats.second, draws: r.seats.draws, losses: r.seats.first },
      },
      pentanomial: pair?.pentanomial ?? [0, 0, 0, 0, 0],
      faultedPairs: pair?.faultedPairs ?? 0,
      elo: pair?.elo ?? null,
      moveLimit: r.moveLimit,
      adjudicated: r.adjudicated,
      repeated: r.repeated,
      ...tail,
    };
    const line = (flag: string, name: string, s: ReturnType<typeof one>) =>
      `  ${`${flag} ${name}`.padEnd(24)} ${String(s.wins).padStart(5)} ${
        String(s.draws).padStart(5)
      } ${String(s.losses).padStart(5)}   ${(s.score * 100).toFixed(1).padStart(5)}% ${
        // Every pair scoring the same: no spread, no interval to give yet.
        pair !== undefined && series.measurable(pair.elo)
          ? `[${(s.score95[0] * 100).toFixed(1)}%, ${(s.score95[1] * 100).toFixed(1)}%]`
          : "(no interval yet)"}   ${s.msPerMove.toFixed(2)} ms/move`;
    const res = report.results as { p1: ReturnType<typeof one>; p2: ReturnType<typeof one> };
    const left = pair?.faultedPairs ?? 0;
    text =
      `${plugin.name}: ${finished} games${faulted > 0 ? ` (and ${faulted} faulted)` : ""}${
        end.interrupted ? " (interrupted)" : ""
      }, ` +
      `${pair === undefined ? 0 : pair.pentanomial.reduce((a, b) => a + b, 0)} pairs${
        left > 0 ? ` (${left} left out: a game of theirs faulted)` : ""
      }, seed ${seed}\n` +
      `  ${"player".padEnd(24)}  wins draws losses   score  95% interval (from the pairs)\n` +
      line("--p1", names[0], res.p1) + "\n" + line("--p2", names[1], res.p2) + "\n" +
      (pair === undefined
        ? ""
        : `  Elo of --p1: ${
          series.estimateText(pair.elo, series.estimateUnit(pair.pentanomial))
        }; game pairs scoring 0, ½, 1, 1½, 2: ${pair.pentanomial.join(" ")}\n`) +
      `  by seat: ${game.players[0]} ${r.seats.first}-${r.seats.draws}-${r.seats.second}, ` +
      `${
        game.players[1]
      } ${r.seats.second}-${r.seats.draws}-${r.seats.first} (wins-draws-losses)\n` +
      (r.moveLimit > 0 ? `  stopped at the move limit (draws): ${r.moveLimit}\n` : "") +
      (r.adjudicated > 0 ? `  adjudicated (--adjudicate): ${r.adjudicated}\n` : "") +
      (r.repeated.length > 0
        ? `  repeated games: ${r.repeated.length} (the same moves as an earlier game)\n`
        : "") +
      lengthLine(figures.lengths()) + statsLine;
  }
  const { code, report: full, faults } = yield* prepared.finish(end, report);
  yield* term.print(json ? JSON.stringify(full) + "\n" : text + faults);
  return code;
});

if (import.meta.main) runMain(main, "deno task match");
