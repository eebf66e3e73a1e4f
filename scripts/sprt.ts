/**
 * `deno task sprt GAME --new SPEC --base SPEC [--elo0 0] [--elo1 5] [--alpha 0.05]
 * [--beta 0.05] [--max-games N] [tournament flags]`
 *
 * A sequential probability ratio test of `--new` against `--base` on game pairs (one
 * opening, sides swapped): the pentanomial GSPRT fishtest uses, with logistic Elo. It
 * stops as soon as the log-likelihood ratio crosses a bound: H1 (new is at least elo1
 * stronger) or H0 (at most elo0). A game that fails twice (the plugin throws, a search
 * fails) is faulted: its pair is left out of the test whole, and more than `--max-faults`
 * faulted games stop the test (exit 1).
 *
 * @module
 */
import { openHostedGame } from "../app/games.ts";
import { Effect } from "../core/deps.ts";
import { formatSpec } from "../app/players/spec.ts";
import { Terminal } from "../app/terminal.ts";
import { pairCounter, resultsTally } from "../app/tournament/results.ts";
import type { GameRecord } from "../app/tournament/runner.ts";
import { pairings, schedule } from "../app/tournament/schedule.ts";
import {
  eloFromPentanomial,
  llrPentanomial,
  sprtBounds,
  sprtVerdict,
} from "../app/tournament/stats.ts";
import {
  intFlag,
  numberFlag,
  parseCommandLine,
  printHelp,
  runMain,
  UsageError,
} from "../app/cli.ts";
import * as series from "../app/series.ts";

const USAGE = `Usage: deno task sprt GAME [--OPTION VALUE ...] --new SPEC --base SPEC [flags]
A sequential probability ratio test on game pairs (the pentanomial GSPRT of fishtest,
logistic Elo): plays pairs of games (one opening, sides swapped) until the log-likelihood
ratio (LLR) crosses a bound, accepting H1 (new is elo1 stronger) or H0 (elo0). A pair
with a faulted game (see --max-faults) is left out of the test whole.

  --new SPEC       the player tested
  --base SPEC      the player it is tested against
  --elo0 E         Elo of H0 (default 0)
  --elo1 E         Elo of H1 (default 5)
  --alpha A        the chance of accepting H1 when H0 holds (default 0.05)
  --beta B         the chance of accepting H0 when H1 holds (default 0.05)
  --max-games N    stop undecided after N games (default 100000)
${series.SERIES_USAGE}`;

const FLAGS = {
  string: ["new", "base", "elo0", "elo1", "alpha", "beta", "max-games", ...series.SERIES_FLAGS],
  boolean: ["json"],
} as const;

const main = Effect.gen(function* () {
  // Every program of scripts/ opens with these lines (flags, --help, the game); each then
  // checks its own positionals and flags, so no shorter shared step fits them all.
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length !== 1) return yield* new UsageError({ message: "name one game" });
  const loaded = yield* openHostedGame(positional[0], gameOptions);
  const { game, plugin } = loaded;
  if (game.solo === true) {
    return yield* new UsageError({
      message: `${plugin.id} has one player (its opponent is chance): an SPRT needs two`,
    });
  }
  for (const f of ["new", "base"]) {
    if (typeof flags[f] !== "string") {
      return yield* new UsageError({ message: `--${f} SPEC is needed` });
    }
  }
  const specs = yield* series.readPlayers(loaded, [
    { flag: "new", text: flags.new as string },
    { flag: "base", text: flags.base as string },
  ]);
  const names = specs.map(formatSpec);
  const elo0 = yield* numberFlag(flags, "elo0", 0, -1000, 1000);
  const elo1 = yield* numberFlag(flags, "elo1", 5, -1000, 1000);
  if (!(elo1 > elo0)) {
    return yield* new UsageError({ message: `--elo1 must be above --elo0 (${elo0}), got ${elo1}` });
  }
  const alpha = yield* numberFlag(flags, "alpha", 0.05, 1e-6, 0.5);
  const beta = yield* numberFlag(flags, "beta", 0.05, 1e-6, 0.5);
  const maxGames = yield* intFlag(flags, "max-games", 100_000, 2, 10_000_000);
  const prepared = yield* series.prepareSeries(
    flags,
    "sprt",
    loaded,
    specs,
    ({ seed }) => schedule(2, "round-robin", Math.ceil(maxGames / 2), seed),
  );
  const { settings, fixtures, store, done, progress } = prepared;
  const { seed, concurrency, source, json } = settings;
  const bounds = sprtBounds(alpha, beta);
  // The new player is entrant 0; its pairs are counted as the games come in.
  const pairs = pairCounter(0);
  const tally = resultsTally(names, pairings(2, "round-robin"), 1);
  const keep = (r: GameRecord) => (pairs.add(r), tally.add(r));
  done.each(keep);
  const test = () => {
    const pent = pairs.counts();
    const llr = llrPentanomial(pent, elo0, elo1);
    return { pent, llr, verdict: sprtVerdict(llr, bounds) };
  };
  const boundsText = `[${bounds.lower.toFixed(2)}, ${bounds.upper.toFixed(2)}]`;
  if (!json) {
    yield* term.print(
      `${plugin.name}: SPRT of ${names[0]} (new) against ${names[1]} (base), ` +
        `H0 elo ${elo0}, H1 elo ${elo1}, alpha ${alpha}, beta ${beta}, LLR bounds ${boundsText}; ` +
        `openings ${series.describeOpenings(source)}, seed ${seed}, ` +
        `${concurrency} at once` +
        (done.ids.size > 0 ? `; resuming: ${done.ids.size} games already played` : "") + "\n",
    );
  }
  // A test decided by the games already played stops at once.
  const before = test();
  const end = yield* prepared.run((record, soFar) => {
    keep(record);
    const t = test();
    progress.show(() =>
      `${soFar.games} games (${t.pent.reduce((a, b) => a + b, 0)} pairs): LLR ${
        t.llr.toFixed(2)
      } ${boundsText}, Elo ${series.estimateText(eloFromPentanomial(t.pent), "game pair")}${
        series.faultedSoFar(soFar)
      }`
    );
    return t.verdict !== undefined;
  }, before.verdict === undefined ? fixtures : []);
  const { pent, llr, verdict } = test();
  const results = tally.results();
  const elo = results.pairings[0]?.elo;
  const pairCount = pent.reduce((a, b) => a + b, 0);
  const finished = results.total;
  const faulted = end.games - finished;
  const leftOut = pairs.faulted();
  const report = {
    game: loaded.specifier,
    options: loaded.options,
    new: names[0],
    base: names[1],
    elo0,
    elo1,
    alpha,
    beta,
    bounds,
    llr,
    verdict: verdict ?? null,
    games: finished,
    pairs: pairCount,
    faultedPairs: leftOut,
    pentanomial: pent,
    elo: elo ?? null,
    openings: series.describeOpenings(source),
    seed,
    interrupted: end.interrupted,
    ...series.throughput(end, concurrency),
  };
  const { code, report: full, faults } = yield* prepared.finish(end, report);
  if (json) {
    yield* term.print(JSON.stringify(full) + "\n");
    return code;
  }
  const said = verdict === "H1"
    ? `H1 accepted: ${names[0]} is stronger than ${names[1]} by about ${elo1} Elo or more`
    : verdict === "H0"
    ? `H0 accepted: ${names[0]} is not ${elo1} Elo stronger than ${names[1]} (${elo0} or less)`
    : end.interrupted
    ? "undecided (interrupted)"
    : end.fault !== undefined
    ? "undecided (stopped: too many faulted games)"
    : `undecided after ${end.games} games (--max-games)`;
  yield* term.print(
    `${said}\n  LLR ${llr.toFixed(3)} ${boundsText} after ${finished} games ` +
      `(${pairCount} pairs scoring 0, ½, 1, 1½, 2: ${pent.join(" ")})\n` +
      (faulted > 0
        ? `  left out: ${faulted} faulted game${faulted === 1 ? "" : "s"} and their pairs, ` +
          `${leftOut} pair${leftOut === 1 ? "" : "s"} in all (a pair counts only with both ` +
          "games played)\n"
        : "") +
      (elo === undefined ? "" : `  Elo of ${names[0]}: ${
        series.estimateText(
          elo,
          series.estimateUnit(results.pairings[0]?.pentanomial ?? []),
        )
      }\n`) +
      faults +
      (store === undefined ? "" : `  kept in ${store.dir}: games.jsonl, results.json\n`),
  );
  return code;
});

if (import.meta.main) runMain(main, "deno task sprt");
