/**
 * The late game alone: 2048 networks play greedily (one ply) from the positions where a
 * training game first made 16384 (the late-start pools a training keeps in its
 * checkpoint, `train.ts` `StartPool`), every network from the same positions on the same
 * tiles, and the figures say how far each gets from there: the mean score made from the
 * position (with its standard error), the share of games reaching 32768, the mean
 * slides. A game from the empty board reaches 16384 in a minority of games after about
 * ten thousand slides; this plays only the part that decides 32768, about a hundred
 * games a second.
 *
 * ```sh
 * deno run --allow-read lab/game2048/late.ts --positions out/base.weights \
 *   --weights out/2048-4x6-tc.weights,out/2048-4x6-ms3.weights --games 2000
 * ```
 *
 * `--rank R` takes the positions of another first tile (13: 8192); `--seed S` the tiles
 * (game g of the series draws from S and 2^31 + g, tiles no training game had);
 * `--depth D` (above 1) plays the fast expectimax of D plies with the network at its
 * leaves instead of the greedy player (`expectimax:D`; 3 plies: about 100 times the
 * greedy player's time), its positions and tiles drawn from `core/rng.ts` seeded S + g,
 * with `--downgrade T` its tile-downgrading threshold (`expectimax:D,downgrade=T`; 0 off,
 * default the engine's, 16384) and `--endgame K` its endgame solver's largest region
 * (`expectimax:D,endgame=K`; 0 off, default the engine's, 9), `--gaps G` the ranks its
 * chains may skip (`,gaps=G`, default 0). Without `--positions` the positions are the first network's
 * (a packed network keeps its training's).
 *
 * @module
 */
import { parseArgs } from "../../app/deps.ts";
import { Effect } from "../../core/deps.ts";
import { CHANCE, pickChance } from "../../core/game.ts";
import { makeGame } from "../../core/plugin.ts";
import { makeRng } from "../../core/rng.ts";
import { unpackCells } from "../../plugins/game2048/board.ts";
import { DEFAULT_DOWNGRADE, fastExpectimax } from "../../plugins/game2048/expectimax.ts";
import { ENDGAME_REGION } from "../../plugins/game2048/endgame.ts";
import plugin from "../../plugins/game2048/mod.ts";
import { type Game2048, is2048, SLIDER_TURN } from "../../plugins/game2048/rules.ts";
import {
  Episode,
  type GameResult,
  maxRankOf,
  playGame,
  POOL_SIZE,
  StartPool,
} from "../../plugins/game2048/train.ts";
import { loadWeights } from "../../plugins/game2048/weights.ts";

/** One network's figures over the series. */
export interface LateRow {
  /** The weights file. */
  readonly file: string;
  /** Games played. */
  readonly games: number;
  /** Mean score made from the position. */
  readonly meanScore: number;
  /** The mean score's standard error. */
  readonly stdError: number;
  /** Share of games reaching 32768. */
  readonly reached32768: number;
  /** Mean slides a game. */
  readonly slides: number;
}

/** The positions of largest rank `rank` in a checkpoint's late-start pools (at most a pool). */
export const poolOf = (file: string, rank: number): StartPool => {
  const pool = new StartPool();
  for (const words of loadWeights(file).meta.starts ?? []) {
    for (let k = 2; k + 1 < words.length && pool.size < POOL_SIZE; k += 2) {
      if (maxRankOf(words[k], words[k + 1]) === rank) pool.add(words[k], words[k + 1]);
    }
  }
  return pool;
};

/**
 * `games` games of the network in `file` from `pool`'s positions: greedy (`depth` 1; game
 * g's position and tiles drawn from `seed` and `2^31 + g` as a training's are; the pool
 * does not change: a game from a position of largest rank 14 adds none), or the fast
 * expectimax of `depth` plies (position and tiles from `core/rng.ts` seeded `seed + g`)
 * with its `downgrade` and `endgame` parameters and `gaps` (`,gaps=G`: 0 none).
 */
export const lateSeries = (
  file: string,
  pool: StartPool,
  seed: number,
  games: number,
  depth = 1,
  downgrade: number = DEFAULT_DOWNGRADE,
  endgame: number = ENDGAME_REGION,
  gaps = 0,
): LateRow => {
  let sum = 0, squares = 0, top = 0, slides = 0;
  const add = (score: number, rank: number, moves: number) => {
    sum += score;
    squares += score * score;
    slides += moves;
    if (rank >= 15) top++;
  };
  if (depth <= 1) {
    const net = loadWeights(file).net, episode = new Episode();
    const result: GameResult = { score: 0, maxRank: 0, moves: 0, late: false };
    for (let g = 0; g < games; g++) {
      playGame(net, seed, 2 ** 31 + g, 0, episode, result, { share: 1, pool });
      add(result.score, result.maxRank, result.moves);
    }
  } else {
    const options = { width: 4, height: 4, eval: "ntuple", weights: file };
    const made = Effect.runSync(makeGame(plugin, options)).game;
    if (!is2048(made)) throw new Error("not a 2048 game");
    const game: Game2048 = made;
    for (let g = 0; g < games; g++) {
      const rng = makeRng(seed + g);
      const k = 2 + 2 * Math.floor(rng.next() * pool.size);
      let s: readonly number[] = [
        ...unpackCells(pool.words[k], pool.words[k + 1]),
        SLIDER_TURN,
        0,
      ];
      let moves = 0;
      for (;;) {
        if (game.toMove(s) === CHANCE) {
          s = game.play(s, pickChance(game.chances(s), rng.next()));
        } else {
          if (game.moves(s).length === 0) break;
          s = game.play(
            s,
            fastExpectimax(game, s, { depth, params: { downgrade, endgame, gaps } }).move!,
          );
          moves++;
        }
      }
      const stats = game.stats!(s);
      add(stats.score, Math.log2(stats.maxTile), moves);
    }
  }
  const mean = sum / games, variance = Math.max(0, squares / games - mean * mean);
  return {
    file,
    games,
    meanScore: mean,
    stdError: Math.sqrt(variance / Math.max(1, games - 1)),
    reached32768: top / games,
    slides: slides / games,
  };
};

if (import.meta.main) {
  const args = parseArgs(Deno.args, {
    string: [
      "positions",
      "weights",
      "games",
      "seed",
      "rank",
      "depth",
      "downgrade",
      "endgame",
      "gaps",
    ],
  });
  const files = String(args.weights ?? "").split(",").filter((f) => f !== "");
  const positions = typeof args.positions === "string" ? args.positions : files[0];
  if (positions === undefined) {
    console.error(
      "usage: lab/game2048/late.ts --weights A[,B...] [--positions FILE] [--games N] " +
        "[--seed S] [--rank R] [--depth D] [--downgrade T] [--endgame K] [--gaps G]",
    );
    Deno.exit(2);
  }
  const games = Number(args.games ?? 1000), seed = Number(args.seed ?? 1);
  const rank = Number(args.rank ?? 14), depth = Number(args.depth ?? 1);
  const downgrade = Number(args.downgrade ?? DEFAULT_DOWNGRADE);
  const endgame = Number(args.endgame ?? ENDGAME_REGION), gaps = Number(args.gaps ?? 0);
  const pool = poolOf(positions, rank);
  if (pool.size === 0) {
    console.error(`${positions}: no saved position of largest tile ${2 ** rank}`);
    Deno.exit(2);
  }
  console.log(
    `${pool.size} positions of largest tile ${2 ** rank} from ${positions}; ` +
      `${games} games each, ${depth > 1 ? `expectimax:${depth}` : "greedy"}` +
      `${depth > 1 ? `,downgrade=${downgrade},endgame=${endgame},gaps=${gaps}` : ""}, seed ${seed}`,
  );
  const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
  for (const file of files) {
    const t0 = performance.now();
    const r = lateSeries(file, pool, seed, games, depth, downgrade, endgame, gaps);
    console.log(
      `${file}: mean score from there ${fmt(r.meanScore)} (± ${fmt(r.stdError)}), ` +
        `32768 ${(100 * r.reached32768).toFixed(1)}%, ${fmt(r.slides)} slides a game ` +
        `(${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }
}
