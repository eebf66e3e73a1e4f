/**
 * Seeded 2048 games with one player spec, for the tile-reaching figures:
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-import lab/game2048/games.ts \
 *   --p1 expectimax:7 --games 100 --seed 1 --eval monotone --out out/2048_d7.jsonl
 * deno run --allow-read --allow-import lab/game2048/games.ts --summary out/2048_d7.jsonl
 * ```
 *
 * Game i uses seed S+i through `app/match.ts` `runGame` (the tiles come from the seeded
 * `Random`, so a depth budget replays exactly). Each finished game is appended to the
 * `--out` file as one JSON line (seed, moves, seconds, statistics), so a long run can be
 * summarized while it goes (`--summary FILE`) and resumed (`--resume`: skips the seeds
 * already in the file). The summary gives the share of games reaching each tile, the
 * mean and median score and the mean's standard error, the time per move and the moves
 * per second; `--summary` also reads the `games.jsonl` of `deno task match 2048 --out DIR`.
 * On 4x4 it also says where 32768 is won or lost: of the games that made a 16384, how
 * many grew the chain from it (`endgame.ts` `chainOf`) long enough for the endgame solver
 * (`16 - ENDGAME_REGION` tiles), and how many of those went on to 32768; `byLength` splits
 * them by the longest chain held. `waits` counts the slides that took over 10 s (an
 * endgame solve over a large region: `,endgame=10`). `--compare A --compare B` pairs two
 * such files by seed (the same tiles for both players while their boards agree): for each
 * tile, the games that reached it in each, those where only one did, and the exact sign
 * test on these.
 *
 * @module
 */
import { parseArgs } from "../../app/deps.ts";
import { Effect, Result } from "../../core/deps.ts";
import { type Played, runGame, type RunOptions } from "../../app/match.ts";
import { randomAgent, searchAgent } from "../../app/players/agents.ts";
import { parseSpec, searchOptionsOf } from "../../app/players/spec.ts";
import { makeGame } from "../../core/plugin.ts";
import { builtinStrategies } from "../../core/search/strategies.ts";
import plugin from "../../plugins/game2048/mod.ts";
import type { GameRecord as SeriesGame } from "../../app/tournament/runner.ts";
import { signTest } from "../../app/tournament/stats.ts";
import type { Transcript } from "../../app/transcript.ts";
import { createGame, type Game2048, is2048, MILESTONES } from "../../plugins/game2048/rules.ts";
import { packCells } from "../../plugins/game2048/board.ts";
import { chainOf, ENDGAME_REGION } from "../../plugins/game2048/endgame.ts";
import { standardError } from "../../plugins/game2048/train.ts";

/** One finished game as the `--out` file stores it. */
export interface GameRecord {
  /** The game's seed. */
  readonly seed: number;
  /** The player spec. */
  readonly p1: string;
  /** The game's options. */
  readonly options: unknown;
  /** Slides played. */
  readonly moves: number;
  /** Time the player took over all its moves, in seconds. */
  readonly seconds: number;
  /** The game's statistics (score, maxTile, reached2048, ...). */
  readonly stats: Readonly<Record<string, number>>;
  /** How the game ended ("end", or "move limit"). */
  readonly reason: string;
  /** The longest chain the game held while its largest tile was 16384 (4x4; 0 if none). */
  readonly chain16384?: number;
  /** The seconds of each slide that took longer than `WAIT_MS` (an endgame solve, mostly). */
  readonly waits?: readonly number[];
}

/** A slide that takes longer than this (ms) is a wait: a player at the board notices it. */
export const WAIT_MS = 10_000;

/** The figures of a set of games. */
export interface Summary {
  /** Number of games. */
  readonly games: number;
  /** Share of games reaching each tile, by tile. */
  readonly reached: Readonly<Record<string, number>>;
  /** Mean score. */
  readonly meanScore: number;
  /** Median score. */
  readonly medianScore: number;
  /** Standard error of the mean score (the sample standard deviation over the root of n). */
  readonly scoreError: number;
  /** Mean number of slides per game. */
  readonly meanMoves: number;
  /** Milliseconds per slide over all games. */
  readonly msPerMove: number;
  /** Slides per second of thinking time. */
  readonly movesPerSecond: number;
  /** Largest tiles: how many games ended with each. */
  readonly maxTiles: Readonly<Record<string, number>>;
  /**
   * The slides longer than `WAIT_MS` (records with `waits`): how many, in how many games,
   * their seconds in all and the longest.
   */
  readonly waits: {
    readonly slides: number;
    readonly games: number;
    readonly seconds: number;
    readonly longest: number;
  };
  /**
   * The games that made a 16384, those of them whose chain from it reached the endgame
   * solver's length, and those of these that made 32768 (records with `chain16384`).
   */
  readonly chains: {
    readonly made16384: number;
    readonly held: number;
    readonly thenMade32768: number;
    /**
     * By the longest chain held while 16384 was the largest tile: the games that made a
     * 16384 and held that long a chain at most, and how many of them made 32768.
     */
    readonly byLength: Readonly<Record<string, { games: number; made32768: number }>>;
  };
}

/** Summarizes game records. */
export const summarize = (records: readonly GameRecord[]): Summary => {
  const n = records.length;
  const reached: Record<string, number> = {};
  for (const t of MILESTONES) {
    reached[String(t)] = n === 0 ? 0 : records.filter((r) => r.stats.maxTile >= t).length / n;
  }
  const scores = records.map((r) => r.stats.score).sort((a, b) => a - b);
  const moves = records.reduce((a, r) => a + r.moves, 0);
  const seconds = records.reduce((a, r) => a + r.seconds, 0);
  const maxTiles: Record<string, number> = {};
  for (const r of records) maxTiles[r.stats.maxTile] = (maxTiles[r.stats.maxTile] ?? 0) + 1;
  const waits = records.flatMap((r) => r.waits ?? []);
  const made = records.filter((r) => r.chain16384 !== undefined && r.stats.maxTile >= 16384);
  const held = made.filter((r) => r.chain16384! >= 16 - ENDGAME_REGION);
  const byLength: Record<string, { games: number; made32768: number }> = {};
  for (const r of made) {
    const row = byLength[r.chain16384!] ??= { games: 0, made32768: 0 };
    row.games++;
    if (r.stats.maxTile >= 32768) row.made32768++;
  }
  return {
    games: n,
    reached,
    meanScore: n === 0 ? 0 : Math.round(scores.reduce((a, b) => a + b, 0) / n),
    medianScore: n === 0 ? 0 : scores[Math.floor(n / 2)],
    scoreError: Math.round(standardError(scores)),
    meanMoves: n === 0 ? 0 : Math.round(moves / n),
    msPerMove: moves === 0 ? 0 : Math.round((seconds * 1000 / moves) * 100) / 100,
    movesPerSecond: seconds === 0 ? 0 : Math.round((moves / seconds) * 10) / 10,
    maxTiles,
    waits: {
      slides: waits.length,
      games: records.filter((r) => (r.waits?.length ?? 0) > 0).length,
      seconds: Math.round(waits.reduce((a, b) => a + b, 0)),
      longest: Math.round(Math.max(0, ...waits)),
    },
    chains: {
      made16384: made.length,
      held: held.length,
      thenMade32768: held.filter((r) => r.stats.maxTile >= 32768).length,
      byLength,
    },
  };
};

/** Two series' games paired by seed, for one tile. */
export interface TileComparison {
  /** The tile. */
  readonly tile: number;
  /** Games of the first series that reached it, of the second. */
  readonly made: readonly [number, number];
  /** Seeds where only the first series reached it, where only the second did. */
  readonly alone: readonly [number, number];
  /** The two-sided sign test's p over the seeds where one series alone reached it. */
  readonly p: number;
}

/** Two series paired by seed: the tiles reached, and the mean scores over the pairs. */
export interface SeriesComparison {
  /** Seeds both series played. */
  readonly games: number;
  /** One row a tile (`MILESTONES`). */
  readonly tiles: readonly TileComparison[];
  /** Each series' mean score over the paired seeds. */
  readonly meanScores: readonly [number, number];
  /** The standard error of the mean of the paired differences (first minus second). */
  readonly differenceError: number;
}

/** Pairs two series' records by seed (seeds in one only are left out). */
export const compareSeries = (
  a: readonly GameRecord[],
  b: readonly GameRecord[],
): SeriesComparison => {
  const second = new Map(b.map((r) => [r.seed, r] as const));
  const pairs = a.flatMap((r) => {
    const other = second.get(r.seed);
    return other === undefined ? [] : [[r, other] as const];
  });
  const tiles = MILESTONES.map((tile) => {
    const reached = (r: GameRecord) => r.stats.maxTile >= tile;
    const count = (f: (p: readonly [GameRecord, GameRecord]) => boolean) => pairs.filter(f).length;
    const alone = [
      count(([x, y]) => reached(x) && !reached(y)),
      count(([x, y]) => reached(y) && !reached(x)),
    ] as const;
    return {
      tile,
      made: [count(([x]) => reached(x)), count(([, y]) => reached(y))] as const,
      alone,
      p: signTest(alone[0], alone[1]),
    };
  });
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  return {
    games: pairs.length,
    tiles,
    meanScores: [
      Math.round(mean(pairs.map(([x]) => x.stats.score))),
      Math.round(mean(pairs.map(([, y]) => y.stats.score))),
    ],
    differenceError: Math.round(
      standardError(pairs.map(([x, y]) => x.stats.score - y.stats.score)),
    ),
  };
};

/** The longest chain a 4x4 game held while its largest tile was 16384 (by replaying it). */
const chain16384Of = (t: Transcript): number | undefined => {
  const options = t.options as { width?: number; height?: number };
  if ((options.width ?? 4) !== 4 || (options.height ?? 4) !== 4) return undefined;
  const game = createGame(4, 4, "monotone");
  let s = game.initial(), longest = 0;
  for (const m of t.moves) {
    if (m.by === 0) {
      const words = packCells(s);
      const chain = words === undefined ? undefined : chainOf(words[0], words[1]);
      if (chain?.topRank === 14) longest = Math.max(longest, chain.cells.length);
    }
    s = game.play(s, m.move);
  }
  return longest;
};

/** A finished game's transcript as a record of this script. */
export const recordOf = (seed: number, t: Transcript): GameRecord => {
  const slides = t.moves.filter((m) => m.by === 0);
  return {
    seed,
    p1: t.players[0],
    options: t.options,
    moves: slides.length,
    seconds: Math.round(slides.reduce((a, m) => a + m.ms, 0)) / 1000,
    stats: t.stats ?? {},
    reason: t.result.reason,
    chain16384: chain16384Of(t),
    waits: slides.filter((m) => m.ms > WAIT_MS).map((m) => Math.round(m.ms) / 1000),
  };
};

/**
 * Reads the records of a JSON-lines file (missing file: none): this script's `--out`, or
 * the `games.jsonl` of `deno task match 2048 ... --out DIR` (its faulted games left out).
 */
export const readRecords = (path: string): GameRecord[] =>
  readTextOr(path).split("\n").filter((l) => l.trim() !== "").flatMap((l) => {
    const r: GameRecord | SeriesGame = JSON.parse(l);
    // A series' faulted game (its plugin failed twice) is no result.
    if ("transcript" in r) return r.fault !== undefined ? [] : [recordOf(r.seed, r.transcript)];
    return [r];
  });

/** A file's text, or "" when it does not exist (a run not begun: nothing kept yet). */
export const readTextOr = (path: string): string => {
  try {
    return Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "";
    throw e;
  }
};

/** A 2048 game opened from raw options, with its decoded options. */
export interface Opened2048 {
  /** The game (its `keep` holds the endgame solver, kept from one played game to the next). */
  readonly game: Game2048;
  /** The decoded options. */
  readonly options: unknown;
}

/** Opens the 2048 game for raw options (`--width`, `--eval`, ...). */
export const open2048 = (options: Readonly<Record<string, unknown>>): Opened2048 => {
  const { game, options: decoded } = Effect.runSync(makeGame(plugin, options));
  if (!is2048(game)) throw new Error("not a 2048 game");
  return { game, options: decoded };
};

/**
 * Plays one seeded game with `spec` (a search spec of the 2048 plugin) through
 * `app/match.ts` `runGame`, the tiles from the seeded `Random`, as `deno task match`
 * does; `run` adds `runGame`'s options (`onEvent`, `interrupted`: to stop it early).
 * It plays on `opened` (default: the game opened from `options`), so games played on one
 * opened game share what its searches keep (the endgame solver's tables).
 */
export const playSeeded = (
  spec: string,
  options: Readonly<Record<string, unknown>>,
  seed: number,
  run: Pick<RunOptions<readonly number[], never>, "onEvent" | "interrupted"> = {},
  opened: Opened2048 = open2048(options),
): {
  readonly played: Played<readonly number[]>;
  readonly game: Game2048;
  readonly options: unknown;
} => {
  const strategies = { ...builtinStrategies, ...plugin.strategies };
  const parsed = parseSpec(spec, strategies);
  if (Result.isFailure(parsed)) throw new Error(parsed.failure);
  const p = parsed.success;
  if (p.kind !== "search" || p.strategy === "randombest") {
    throw new Error(`expected a search spec such as expectimax:7, got ${spec}`);
  }
  const { game, options: decoded } = opened;
  const agent = searchAgent<readonly number[]>(strategies[p.strategy], searchOptionsOf(p), {
    ttMb: 1,
  });
  const played = Effect.runSync(
    runGame(game, [agent, randomAgent()], { seed, options: decoded, gameId: "2048", ...run }),
  );
  return { played, game, options: decoded };
};

/** Plays one seeded game (`playSeeded`, on `opened`) and returns its record. */
export const playOne = (
  spec: string,
  options: Readonly<Record<string, unknown>>,
  seed: number,
  opened: Opened2048 = open2048(options),
): GameRecord => {
  const { played, options: decoded } = playSeeded(spec, options, seed, {}, opened);
  return { ...recordOf(seed, played.transcript), p1: spec, options: decoded };
};

const USAGE = `Usage: deno run --allow-read --allow-write --allow-import lab/game2048/games.ts
         --p1 SPEC [--games N] [--seed S] [--width W] [--height H] [--eval E]
         [--weights FILE] [--out FILE [--resume]]
       deno run --allow-read --allow-import lab/game2048/games.ts --summary FILE
       deno run --allow-read --allow-import lab/game2048/games.ts --compare A --compare B
`;

const main = (): number => {
  const a = parseArgs(Deno.args, {
    string: ["p1", "games", "seed", "width", "height", "eval", "weights", "out", "summary"],
    boolean: ["resume", "help"],
    collect: ["compare"],
  });
  if (a.help) {
    console.log(USAGE);
    return 0;
  }
  if (typeof a.summary === "string") {
    console.log(JSON.stringify(summarize(readRecords(a.summary)), null, 2));
    return 0;
  }
  const compare = (a.compare ?? []) as string[];
  if (compare.length > 0) {
    if (compare.length !== 2) {
      console.error(`--compare takes two files, got ${compare.length}\n${USAGE}`);
      return 2;
    }
    const [first, second] = compare.map(readRecords);
    const empty = compare.find((_, i) => [first, second][i].length === 0);
    if (empty !== undefined) {
      console.error(`${empty}: no games (a series' games.jsonl, or this script's --out file)`);
      return 1;
    }
    const c = compareSeries(first, second);
    const fmt = (x: number) => x.toLocaleString("en-US");
    console.log(`${c.games} seeds in both: ${compare[0]} against ${compare[1]}`);
    for (const t of c.tiles) {
      console.log(
        `${t.tile}: ${t.made[0]} and ${t.made[1]}; by one alone ${t.alone[0]} and ` +
          `${t.alone[1]} (sign test p = ${t.p.toFixed(4)})`,
      );
    }
    console.log(
      `mean score ${fmt(c.meanScores[0])} and ${fmt(c.meanScores[1])}; the difference ` +
        `${fmt(c.meanScores[0] - c.meanScores[1])} (± ${fmt(c.differenceError)})`,
    );
    return 0;
  }
  if (typeof a.p1 !== "string") {
    console.error(USAGE);
    return 2;
  }
  const games = Number(typeof a.games === "string" ? a.games : 10);
  const seed = Number(typeof a.seed === "string" ? a.seed : 1);
  const options: Record<string, unknown> = {};
  if (typeof a.width === "string") options.width = Number(a.width);
  if (typeof a.height === "string") options.height = Number(a.height);
  if (typeof a.eval === "string") options.eval = a.eval;
  if (typeof a.weights === "string") options.weights = a.weights;
  const out = typeof a.out === "string" ? a.out : undefined;
  const done = new Set(out && a.resume ? readRecords(out).map((r) => r.seed) : []);
  const records: GameRecord[] = [];
  // One game for every seed: its endgame solver keeps its tables from game to game.
  const opened = open2048(options);
  for (let i = 0; i < games; i++) {
    if (done.has(seed + i)) continue;
    const r = playOne(a.p1, options, seed + i, opened);
    records.push(r);
    if (out) Deno.writeTextFileSync(out, JSON.stringify(r) + "\n", { append: true });
    console.error(
      `seed ${r.seed}: ${r.moves} moves, max tile ${r.stats.maxTile}, score ${r.stats.score}, ` +
        `${(r.seconds * 1000 / Math.max(1, r.moves)).toFixed(2)} ms/move`,
    );
  }
  console.log(JSON.stringify(summarize(out ? readRecords(out) : records), null, 2));
  return 0;
};

if (import.meta.main) Deno.exit(main());

/** A position where a series' game first held the chain, and what the game made from it. */
export interface ChainStart {
  /** The series game's seed. */
  readonly seed: number;
  /** The board (compact words of `board.ts`), the slider to move. */
  readonly lo: number;
  /** The board's second word. */
  readonly hi: number;
  /**
   * Whether the series' game went on to 32768; undefined where the series stopped at the
   * position (a starts file of `lab/game2048/starts.ts`).
   */
  readonly made32768?: boolean;
  /** Slides the series' game played before the position. */
  readonly slides: number;
  /** The series' time over those slides, in seconds (the match's per-move time). */
  readonly seconds: number;
  /** The score at the position. */
  readonly score: number;
}
