/**
 * The first 16384s of a seeded 2048 series, kept: plays each seed's game from the empty
 * board, as `deno task match 2048 --eval ntuple --p1 SPEC` would, only up to its first
 * slider position with a chain of `--tiles N` tiles from a 16384 (default 1: the first
 * 16384), and appends one short JSON line a seed to `--out`: the position (`ChainStart`
 * without `made32768`, the series stopping there), or the whole game's record when it
 * ended without one. `lab/game2048/chains.ts --series FILE` reads such a file in place
 * of a match's `games.jsonl` (it plays on, `--splice`s, `--compare`s), so a campaign that
 * spans sessions, and machines, needs only these lines, not the full transcripts: the
 * files under `lab/game2048/data/` are committed as they grow.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-import lab/game2048/starts.ts \
 *   --p1 expectimax:5,endgame=10 --first 1 --last 100 --out lab/game2048/data/2048-e10-starts.jsonl
 * ```
 *
 * A rerun with the same `--out` skips the seeds already in it (so two runs over disjoint
 * `--first`/`--last` ranges may share one file).
 *
 * @module
 */
import { parseArgs } from "../../app/deps.ts";
import { Effect } from "../../core/deps.ts";
import { CHANCE } from "../../core/game.ts";
import { packCells } from "../../plugins/game2048/board.ts";
import { chainOf } from "../../plugins/game2048/endgame.ts";
import {
  type ChainStart,
  type GameRecord,
  open2048,
  type Opened2048,
  playSeeded,
  readTextOr,
  recordOf,
} from "./games.ts";

/** One seed's line of a starts file. */
export interface StartLine {
  /** The game's seed. */
  readonly seed: number;
  /** The spec that played up to the position. */
  readonly p1: string;
  /** The chain's tiles the position holds (from a 16384). */
  readonly tiles: number;
  /** The game's options. */
  readonly options: unknown;
  /** The position, where the game held the chain. */
  readonly start?: Omit<ChainStart, "made32768">;
  /** The whole game, where it ended without holding the chain. */
  readonly record?: GameRecord;
}

/** Whether the chain from a 16384 (the largest tile) has at least `tiles` tiles. */
export const holdsChain = (tiles: number): (lo: number, hi: number) => boolean => (lo, hi) => {
  const chain = chainOf(lo, hi, tiles);
  return chain?.topRank === 14 && chain.cells.length === tiles;
};

/** Whether a line of a series file is a starts file's (not a match's `games.jsonl`). */
export const isStartLine = (line: unknown): line is StartLine =>
  typeof line === "object" && line !== null && "tiles" in line && "seed" in line;

/**
 * Plays seed `seed`'s game with `spec` (a search spec of the 2048 plugin) up to its first
 * slider position that `holds` (default: a chain of `tiles` tiles from a 16384), with the
 * tiles of `app/match.ts` `runGame` (the seeded `Random`): the match's own game up to
 * there (`lab/game2048/games.ts` `playSeeded`, on `opened`).
 */
export const playToStart = (
  spec: string,
  options: Readonly<Record<string, unknown>>,
  seed: number,
  tiles: number,
  holds: (lo: number, hi: number) => boolean = holdsChain(tiles),
  opened: Opened2048 = open2048(options),
): StartLine => {
  let reached = false;
  const { played: { transcript, final }, game, options: decoded } = playSeeded(
    spec,
    options,
    seed,
    {
      onEvent: (e) =>
        Effect.sync(() => {
          if (e._tag !== "Moved" || e.by !== CHANCE) return;
          const words = packCells(e.state);
          reached = words !== undefined && holds(words[0], words[1]);
        }),
      interrupted: Effect.sync(() => reached),
    },
    opened,
  );
  if (!reached) {
    return { seed, p1: spec, tiles, options: decoded, record: recordOf(seed, transcript) };
  }
  const slides = transcript.moves.filter((m) => m.by === 0);
  const [lo, hi] = packCells(final)!;
  return {
    seed,
    p1: spec,
    tiles,
    options: decoded,
    start: {
      seed,
      lo,
      hi,
      slides: slides.length,
      seconds: Math.round(slides.reduce((a, m) => a + m.ms, 0)) / 1000,
      score: game.stats!(final).score,
    },
  };
};

/** The seeds a starts file already holds (none when it does not exist). */
const seedsIn = (path: string): Set<number> =>
  new Set(
    readTextOr(path).split("\n").filter((l) => l.trim() !== "").map((l) =>
      (JSON.parse(l) as StartLine).seed
    ),
  );

if (import.meta.main) {
  const a = parseArgs(Deno.args, {
    string: ["p1", "first", "last", "tiles", "weights", "out"],
  });
  if (typeof a.p1 !== "string" || typeof a.out !== "string") {
    console.error(
      "usage: lab/game2048/starts.ts --p1 SPEC --out FILE [--first A] [--last B] " +
        "[--tiles N] [--weights FILE]",
    );
    Deno.exit(2);
  }
  const first = Number(a.first ?? 1), last = Number(a.last ?? first + 99);
  const tiles = Number(a.tiles ?? 1);
  const options = {
    width: 4,
    height: 4,
    eval: "ntuple",
    ...(typeof a.weights === "string" ? { weights: a.weights } : {}),
  };
  // One game for every seed: its endgame solver keeps its tables from game to game.
  const opened = open2048(options);
  for (let seed = first; seed <= last; seed++) {
    if (seedsIn(a.out).has(seed)) continue;
    const line = playToStart(a.p1, options, seed, tiles, holdsChain(tiles), opened);
    Deno.writeTextFileSync(a.out, JSON.stringify(line) + "\n", { append: true });
    const s = line.start;
    console.error(
      s === undefined
        ? `seed ${seed}: ended without the chain, max tile ${line.record!.stats.maxTile}`
        : `seed ${seed}: the chain after ${s.slides} slides (${s.seconds} s), score ${s.score}`,
    );
  }
}
