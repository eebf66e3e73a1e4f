/**
 * A run's games as a whole (`lab/game2048/chains.ts --summary`, `--compare`, `--splice`):
 * its figures, two runs paired by position, and a series with a run's games spliced in.
 *
 * @module
 */
import { signTest } from "../../app/tournament/stats.ts";
import { MILESTONES } from "../../plugins/game2048/rules.ts";
import { standardError } from "../../plugins/game2048/train.ts";
import type { GameRecord } from "./games.ts";
import { holdsChain } from "./starts.ts";
import { type ChainGame, noteProbability, runGames, seriesStarts } from "./positions.ts";

/** Two runs' games, position by position (the JSON lines this script prints). */
export interface Comparison {
  /** Positions both runs played. */
  readonly positions: number;
  /** 32768 made by the first run, by the second. */
  readonly made: readonly [number, number];
  /** Positions where only the first run made 32768, where only the second did. */
  readonly alone: readonly [number, number];
  /** The two-sided sign test's p over the positions made by one run alone. */
  readonly p: number;
  /** Each run's mean score made from the positions, with its standard error. */
  readonly scores: readonly [RunScore, RunScore];
  /**
   * Each run's mean of the endgame solver's first probability (from its note), over the
   * positions where it took one, and how many those were.
   */
  readonly solver: readonly [SolverMean, SolverMean];
  /**
   * Each run's milliseconds a slide over the paired positions whose lines give the time
   * (`ChainGame.ms`); 0 where none do.
   */
  readonly msPerSlide: readonly [number, number];
}

/** A run's mean score over the paired positions. */
export interface RunScore {
  /** The mean score. */
  readonly mean: number;
  /** Its standard error. */
  readonly error: number;
}

/** A run's mean solver probability at the first move. */
export interface SolverMean {
  /** The mean probability (0 when the solver took no position). */
  readonly mean: number;
  /** Positions where the solver took the game. */
  readonly positions: number;
}

/** Milliseconds a slide over the games whose lines give the time (`ChainGame.ms`); 0 if none. */
const msPerSlide = (run: readonly ChainGame[]): number => {
  const timed = run.filter((g) => g.ms !== undefined);
  const slides = timed.reduce((a, g) => a + g.slides, 0);
  return slides === 0 ? 0 : timed.reduce((a, g) => a + g.ms!, 0) / slides;
};

/** What a run's lines say of it (`summarizeRun`, `--summary`). */
export interface RunSummary {
  /** Positions played. */
  readonly positions: number;
  /** Of them, the games that made 32768. */
  readonly made: number;
  /** Milliseconds a slide from the positions (over the lines that give the time). */
  readonly msPerSlide: number;
  /** Minutes a position on average (over the lines that give the time). */
  readonly minutes: number;
  /** The longest wait for a slide, in milliseconds. */
  readonly longestMs: number;
  /** Slides a game on average. */
  readonly slides: number;
}

/** Sums up a run's lines (`ChainGame`s, other lines skipped). */
export const summarizeRun = (text: string): RunSummary => {
  const run = [...runGames(text).values()], n = Math.max(1, run.length);
  const timed = run.flatMap((g) => g.ms ?? []);
  return {
    positions: run.length,
    made: run.filter((g) => g.maxTile >= 32768).length,
    msPerSlide: msPerSlide(run),
    minutes: timed.reduce((a, ms) => a + ms, 0) / Math.max(1, timed.length) / 60000,
    longestMs: run.reduce((a, g) => Math.max(a, g.longestMs), 0),
    slides: run.reduce((a, g) => a + g.slides, 0) / n,
  };
};

/** Pairs two runs' lines (`ChainGame`s, other lines skipped) by position. */
export const compareRuns = (a: string, b: string): Comparison => {
  const first = runGames(a), second = runGames(b);
  let positions = 0, madeA = 0, madeB = 0, onlyA = 0, onlyB = 0;
  const paired: [ChainGame[], ChainGame[]] = [[], []];
  for (const [index, ga] of first) {
    const gb = second.get(index);
    if (gb === undefined) continue;
    positions++;
    paired[0].push(ga);
    paired[1].push(gb);
    const x = ga.maxTile >= 32768, y = gb.maxTile >= 32768;
    if (x) madeA++;
    if (y) madeB++;
    if (x && !y) onlyA++;
    if (y && !x) onlyB++;
  }
  const score = (run: readonly ChainGame[]): RunScore => {
    const xs = run.map((g) => g.score);
    return {
      mean: xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length),
      error: standardError(xs),
    };
  };
  const solver = (run: readonly ChainGame[]): SolverMean => {
    const ps = run.flatMap((g) => noteProbability(g.solver) ?? []);
    return { mean: ps.reduce((s, x) => s + x, 0) / Math.max(1, ps.length), positions: ps.length };
  };
  return {
    positions,
    made: [madeA, madeB],
    alone: [onlyA, onlyB],
    p: signTest(onlyA, onlyB),
    scores: [score(paired[0]), score(paired[1])],
    solver: [solver(paired[0]), solver(paired[1])],
    msPerSlide: [msPerSlide(paired[0]), msPerSlide(paired[1])],
  };
};

/** A series whose games a run played on from their starts (`splice`). */
export interface Spliced {
  /** The games: those without a start as the series played them, the others spliced. */
  readonly records: GameRecord[];
  /** Positions the run played without the time (lines of older runs): left out. */
  readonly untimed: readonly number[];
  /** Positions the run did not play: left out. */
  readonly unplayed: number;
}

/**
 * The series of `games.jsonl` text `series` as it would have gone had the run `run` (this
 * script's lines, from the same `tiles`) played each game on from its position: a game's
 * slides and time before the position are the series', the rest the run's (its search
 * time), the score the sum. A player whose play differs from the series' only from that
 * position on (`,gaps` behind a 16384: `GAP_TOP_RANK`) would have played the same games up
 * to it, so the result is a series of that player, the tiles after the position drawn
 * from the run's stream instead of the seed's. Games that never held the chain stay as
 * the series played them; positions the run did not play, or played without the time,
 * are left out (and counted). The records are `lab/game2048/games.ts`'s, under the spec
 * `p1`, for its `--summary` and `--compare`.
 */
export const splice = (series: string, run: string, tiles: number, p1: string): Spliced => {
  const played = runGames(run), records: GameRecord[] = [], untimed: number[] = [];
  let index = 0, unplayed = 0;
  for (const { seed, options, start, whole } of seriesStarts(series, holdsChain(tiles), tiles)) {
    if (start === undefined) {
      records.push({ ...whole!, p1 });
      continue;
    }
    const g = played.get(index);
    if (g !== undefined && g.seed !== start.seed) {
      throw new Error(
        `position ${index} is seed ${g.seed} in the run but seed ${start.seed} in the series ` +
          `at --tiles ${tiles}: give the series and --tiles the run was played from`,
      );
    }
    index++;
    if (g === undefined) unplayed++;
    else if (g.ms === undefined) untimed.push(g.index);
    else {
      const stats: Record<string, number> = { score: start.score + g.score, maxTile: g.maxTile };
      for (const t of MILESTONES) stats[`reached${t}`] = g.maxTile >= t ? 1 : 0;
      records.push({
        seed,
        p1,
        options,
        moves: start.slides + g.slides,
        seconds: start.seconds + g.ms / 1000,
        stats,
        reason: "end",
      });
    }
  }
  return { records, untimed, unplayed };
};
