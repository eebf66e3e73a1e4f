/**
 * `deno task match GAME [--OPTION VALUE ...] --p1 SPEC --p2 SPEC --games N --seed S [--json]`
 *
 * An AI-vs-AI series. Game i (from 0) uses seed S+i, and the sides alternate: in odd
 * games --p2 moves first. Prints wins, draws and losses per player with a 95% confidence
 * interval on the score, mean game length, time per move, and the game's own statistics
 * (such as 2048's tiles reached); `--json` prints one JSON object instead.
 *
 * @module
 */
import { loadGame } from "../mod.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE } from "../core/game.ts";
import { runGame, type Transcript } from "../core/match.ts";
import { agentFromSpec } from "../core/players/agents.ts";
import { formatSpec } from "../core/players/spec.ts";
import { DEFAULT_STRENGTHS } from "../core/plugin.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { Terminal } from "../core/terminal.ts";
import {
  intFlag,
  num,
  parseCommandLine,
  playerSpec,
  printHelp,
  reportFault,
  runMain,
  strategiesFor,
  ttFlag,
  UsageError,
} from "./cli.ts";

const USAGE = `Usage: deno task match GAME [--OPTION VALUE ...] --p1 SPEC --p2 SPEC
                        [--games N] [--seed S] [--json]
Plays an AI-vs-AI series. Game i (from 0) uses seed S+i; in odd games --p2 moves first.
A one-player game against chance (2048) takes only --p1 and reports its statistics.

  --p1 SPEC        the first competitor (default alphabeta:4)
  --p2 SPEC        the second competitor (default random)
  --games N        number of games (default 10)
  --seed S         seed of game 0 (default 1)
  --max-plies N    stop a game after N plies as unfinished (default 100000)
  --json           one JSON object instead of text
  --tt-mb N        transposition table size per player in MB (default 64)
A replay of game i: deno task play GAME --p1 <who moved first> --p2 <other> --seed S+i
(depth budgets replay exactly; time budgets depend on the machine's speed).
`;

const FLAGS = {
  string: ["p1", "p2", "games", "seed", "max-plies", "tt-mb", "workers"],
  boolean: ["json"],
} as const;

/** The 95% Wilson score interval of a proportion. */
export const wilson = (p: number, n: number): [number, number] => {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
};

interface Tally {
  wins: number;
  draws: number;
  losses: number;
  unfinished: number;
  moves: number;
  ms: number;
}

const tally = (): Tally => ({ wins: 0, draws: 0, losses: 0, unfinished: 0, moves: 0, ms: 0 });

const summary = (t: Tally) => {
  const n = t.wins + t.draws + t.losses;
  const score = n === 0 ? 0 : (t.wins + t.draws / 2) / n;
  const [lo, hi] = wilson(score, n);
  return {
    wins: t.wins,
    draws: t.draws,
    losses: t.losses,
    unfinished: t.unfinished,
    score: Math.round(score * 10000) / 10000,
    score95: [Math.round(lo * 10000) / 10000, Math.round(hi * 10000) / 10000],
    moves: t.moves,
    msPerMove: t.moves === 0 ? 0 : Math.round((t.ms / t.moves) * 100) / 100,
  };
};

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length !== 1) return yield* new UsageError({ message: "name one game" });
  const opened = yield* loadGame(positional[0], gameOptions);
  const { game, plugin } = opened;
  const strategies = strategiesFor(plugin);
  const strengths = plugin.strengths ?? DEFAULT_STRENGTHS;
  const specA = yield* playerSpec(
    "p1",
    typeof flags.p1 === "string" ? flags.p1 : "alphabeta:4",
    strategies,
    strengths,
  );
  // A solo game (2048: only player 0 moves, against chance) has one player: --p1.
  const solo = game.solo === true;
  if (solo && flags.p2 !== undefined) {
    return yield* new UsageError({
      message: `${plugin.id} has one player (its opponent is chance): give only --p1`,
    });
  }
  const specB = solo ? specA : yield* playerSpec(
    "p2",
    typeof flags.p2 === "string" ? flags.p2 : "random",
    strategies,
    strengths,
  );
  if (specA.kind === "human" || specB.kind === "human") {
    return yield* new UsageError({ message: "a match is between AIs; use play for a human" });
  }
  const games = yield* intFlag(flags, "games", 10, 1, 1_000_000);
  const seed = yield* intFlag(flags, "seed", 1, 0, 2 ** 31 - 1);
  const maxPlies = yield* intFlag(flags, "max-plies", 100_000, 1, 10_000_000);
  const ttMb = yield* ttFlag(flags);
  const json = flags.json === true;
  const names = [formatSpec(specA), formatSpec(specB)] as const;
  const tables = game.key === undefined
    ? [undefined, undefined]
    : [new TranspositionTable(ttMb), new TranspositionTable(ttMb)];
  const tallies = [tally(), tally()];
  const seats = [
    { wins: 0, draws: 0, losses: 0 },
    { wins: 0, draws: 0, losses: 0 },
  ];
  const stats: Record<string, number> = {};
  let plies = 0, chanceMoves = 0, finished = 0, totalMs = 0, played = 0;
  const progress = !json && Deno.stderr.isTerminal();
  const started = performance.now();
  let interrupted = false;
  let failed: string | undefined, trace: string | undefined;
  const transcripts: Transcript[] = [];
  if (!json) {
    yield* term.print(
      `Playing ${games} game${games === 1 ? "" : "s"} of ${plugin.name}: ${names[0]}` +
        (solo ? "" : ` vs ${names[1]}, sides alternating`) +
        ` (Ctrl-C stops and reports the finished games)\n`,
    );
  }

  for (let i = 0; i < games; i++) {
    if (yield* term.interrupted) {
      interrupted = true;
      break;
    }
    const swap = !solo && i % 2 === 1; // competitor A plays player 1 in odd games
    const seat = (c: 0 | 1) => (swap ? 1 - c : c) as 0 | 1;
    tables[0]?.clear();
    tables[1]?.clear();
    const agentA = agentFromSpec<unknown>(specA, strategies, { ttMb, tt: tables[0] });
    const agentB = agentFromSpec<unknown>(specB, strategies, { ttMb, tt: tables[1] });
    const ran = yield* runGame(game, swap ? [agentB, agentA] : [agentA, agentB], {
      gameId: opened.specifier,
      options: opened.options,
      seed: seed + i,
      maxPlies,
      interrupted: term.interrupted,
      interruption: term.interruption,
    });
    const { transcript } = ran;
    played++;
    transcripts.push(transcript);
    const r = transcript.result;
    if (r.reason === "interrupted") interrupted = true;
    if (r.reason === "error") {
      failed = r.error ?? "a search failed";
      trace = ran.trace;
    }
    for (const c of [0, 1] as const) {
      const t = tallies[c];
      const p = seat(c);
      for (const m of transcript.moves) {
        if (m.by === p) {
          t.moves++;
          t.ms += m.ms;
        }
      }
      if (r.reason === "end" || r.reason === "illegal move" || r.reason === "gave up") {
        if (r.winner === null) t.draws++;
        else if (r.winner === p) t.wins++;
        else t.losses++;
      } else t.unfinished++;
    }
    if (r.reason === "end") {
      finished++;
      const s0 = seats[0], s1 = seats[1];
      if (r.winner === null) (s0.draws++, s1.draws++);
      else if (r.winner === 0) (s0.wins++, s1.losses++);
      else (s1.wins++, s0.losses++);
    }
    for (const m of transcript.moves) {
      if (m.by === CHANCE) chanceMoves++;
      else {
        plies++;
        totalMs += m.ms;
      }
    }
    for (const [k, v] of Object.entries(transcript.stats ?? {})) stats[k] = (stats[k] ?? 0) + v;
    if (progress && performance.now() - started > 2000) {
      const a = tallies[0];
      yield* Effect.sync(() =>
        Deno.stderr.writeSync(
          new TextEncoder().encode(
            `\rgame ${i + 1}/${games}: ${names[0]} ${a.wins}-${a.draws}-${a.losses} ` +
              `${names[1]}   `,
          ),
        )
      );
    }
    if (interrupted || failed !== undefined) break;
  }
  if (progress && performance.now() - started > 2000) {
    yield* Effect.sync(() => Deno.stderr.writeSync(new TextEncoder().encode("\r\x1b[K")));
  }
  const meanStats = Object.fromEntries(
    Object.entries(stats).map(([k, v]) => [k, Math.round((v / played) * 10000) / 10000]),
  );
  const wall = performance.now() - started;
  const report = {
    game: opened.specifier,
    options: opened.options,
    seed,
    games: played,
    interrupted,
    players: { p1: names[0], p2: solo ? null : names[1] },
    // Wins and losses mean nothing against chance: a solo game reports its statistics.
    ...(solo ? {} : {
      results: { p1: summary(tallies[0]), p2: summary(tallies[1]) },
      bySeat: { [game.players[0]]: seats[0], [game.players[1]]: seats[1] },
    }),
    finished,
    meanPlies: played === 0 ? 0 : Math.round((plies / played) * 100) / 100,
    chanceMoves,
    msPerMove: plies === 0 ? 0 : Math.round((totalMs / plies) * 100) / 100,
    movesPerSecond: totalMs === 0 ? 0 : Math.round((plies / totalMs) * 1000 * 100) / 100,
    wallSeconds: Math.round(wall / 10) / 100,
    ...(Object.keys(meanStats).length > 0 ? { stats: meanStats } : {}),
  };
  // A plugin failed (or a search could not run): the games before are reported, exit 1.
  const code = failed === undefined ? 0 : 1;
  if (failed !== undefined) yield* reportFault(failed, trace);
  if (json) {
    yield* term.print(
      JSON.stringify(failed === undefined ? report : { ...report, error: failed }) + "\n",
    );
    return code;
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (name: string, s: ReturnType<typeof summary>) =>
    `  ${name.padEnd(22)} ${String(s.wins).padStart(5)} ${String(s.draws).padStart(5)} ${
      String(s.losses).padStart(5)
    }   ${pct(s.score).padStart(6)} [${pct(s.score95[0])}, ${pct(s.score95[1])}]   ${
      s.msPerMove.toFixed(2)
    } ms/move`;
  const statsLine = Object.keys(meanStats).length > 0
    ? `  mean of the game's statistics: ${
      Object.entries(meanStats).map(([k, v]) => `${k} ${v}`).join(", ")
    }\n`
    : "";
  const lengths =
    `  mean length ${report.meanPlies} moves${
      chanceMoves > 0 ? ` (+${num(chanceMoves / Math.max(1, played))} chance)` : ""
    }, ${report.msPerMove} ms per move, ${report.movesPerSecond} moves/s, ` +
    `${report.wallSeconds} s in all\n`;
  const range = `${played} games${interrupted ? " (interrupted)" : ""}, seeds ${seed}-${
    seed + played - 1
  }`;
  if (solo) {
    yield* term.print(
      `${plugin.name}: ${game.players[0]} ${names[0]} against chance, ${range}\n` + lengths +
        statsLine,
    );
    return code;
  }
  yield* term.print(
    `${plugin.name}: ${range}, sides alternating\n` +
      `  ${"player".padEnd(22)}  wins draws losses   score  95% interval\n` +
      line(`--p1 ${names[0]}`, summary(tallies[0])) + "\n" +
      line(`--p2 ${names[1]}`, summary(tallies[1])) + "\n" +
      `  by seat: ${game.players[0]} ${seats[0].wins}-${seats[0].draws}-${seats[0].losses}, ` +
      `${game.players[1]} ${seats[1].wins}-${seats[1].draws}-${
        seats[1].losses
      } (wins-draws-losses)\n` +
      (finished < played ? `  unfinished games: ${played - finished}\n` : "") + lengths + statsLine,
  );
  return code;
});

if (import.meta.main) runMain(main, "deno task match");
