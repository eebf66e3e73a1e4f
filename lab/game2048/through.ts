/**
 * What solving through the whole chain's goal is worth (`EndgameSolver.solve`'s
 * `through`, `,through=1`), from real games: at the first position of each game of a
 * series that holds a chain of six from a 16384 with its gap just before the tail (16384
 * 8192 4096 2048 1024 256: the 512 missing, ten cells free), the chance of the whole
 * chain's goal (a 512 beside the 512, which collapses it into 32768)
 *
 * - with the solve through it (`through`: exact, the best play for the second goal);
 * - with the solve for the chain's own goal alone, then the whole chain's (`plainJoint`):
 *   walks of the solve's own slides over seeded tiles, each valued where it reaches its goal
 *   by the exact chance of the second from there (where the solve stops at a tile beside
 *   the tail, made by a slide or placed, or beside a branch's: the best play on from there,
 *   an upper bound for the plain player, which leaves those slides to the network);
 *   `error` is their standard error.
 *
 * ```sh
 * deno run --allow-read --allow-import --v8-flags=--stack-size=4000 \
 *   lab/game2048/through.ts --series out/e10/games.jsonl --walks 100 --first 1 --last 4
 * ```
 *
 * A position's solves take up to 6 GB (`THROUGH_BUDGET`) and several minutes, and a
 * deeper stack than V8's default (`--stack-size`, in KB: a solve through from position 4
 * ran out of the default one). Each
 * position prints a JSON line, then a summary line (the means and the mean paired
 * difference with its standard error).
 *
 * @module
 */
import { parseArgs } from "../../app/deps.ts";
import { makeRng } from "../../core/rng.ts";
import { packCells, unpackCells } from "../../plugins/game2048/board.ts";
import {
  chainsOf,
  EndgameSolver,
  GAP_TOP_RANK,
  gapBeforeTail,
} from "../../plugins/game2048/endgame.ts";
import { P_TWO, slideCells } from "../../plugins/game2048/rules.ts";
import { type ChainStart, positionsWhere } from "./positions.ts";
import { standardError } from "../../plugins/game2048/train.ts";

/** The region (free cells) of the chains measured: ten, a chain of six. */
const REGION = 10;

/** The chain of six from a 16384 or more whose gap is just before its tail, if the board holds one and no chain of six without a gap. */
const gappedAtTail = (lo: number, hi: number) =>
  chainsOf(lo, hi, 16 - REGION).length > 0 ? undefined : chainsOf(lo, hi, 16 - REGION, 1)
    .find((c) => c.topRank >= GAP_TOP_RANK && gapBeforeTail(c));

/** The first position of each game of a series' `games.jsonl` holding such a chain. */
export const throughStarts = (text: string): ChainStart[] =>
  positionsWhere(text, (lo, hi) => gappedAtTail(lo, hi) !== undefined);

/** One position's figures (see the module notes). */
export interface ThroughGain {
  /** The chance of the whole chain's goal, solved through it. */
  readonly through: number;
  /** The chance of the chain's own goal, solved for it alone. */
  readonly plain: number;
  /** The chance of the whole chain's goal after the plain solve's play (the walks' mean). */
  readonly plainJoint: number;
  /** The standard error of `plainJoint`. */
  readonly error: number;
  /** Walks that reached the chain's own goal. */
  readonly reached: number;
  /** Positions the solver stored at the end. */
  readonly positions: number;
}

/**
 * The figures of the module notes from the 4x4 board `cells` (tile values), with `walks`
 * walks whose tiles come from `core/rng.ts` seeded `seed + n`, on `solver`. `region` is the
 * held chain's free cells (ten in the bench).
 */
export const throughGain = (
  cells: readonly number[],
  walks: number,
  seed: number,
  solver: EndgameSolver,
  region = REGION,
): ThroughGain => {
  const [lo, hi] = packCells(cells)!;
  const chain = chainsOf(lo, hi, 16 - region, 1).find(gapBeforeTail);
  if (chain === undefined) throw new Error("no chain with its gap before the tail");
  const solved = solver.solve(lo, hi, region, undefined, 1, true);
  if (solved !== undefined && solved.through !== true) {
    throw new Error("the solve through the whole chain's goal was given up (budget or stack)");
  }
  const through = solved?.probability ?? 0;
  const plain = solver.solve(lo, hi, region, undefined, 1)?.probability ?? 0;
  const tail = chain.cells.at(-1)!, tailTile = 2 ** chain.tailRank;
  const frozen = chain.cells.map((c) => cells[c]);
  // An afterstate's value: the mean over the placements of the solver's chance (through
  // its gap, or for the whole chain) from the slider position.
  const afterValue = (after: readonly number[], through: boolean): number => {
    const empty = after.flatMap((t, i) => (t === 0 ? [i] : []));
    let v = 0;
    for (const i of empty) {
      for (const [tile, p] of [[2, P_TWO], [4, 1 - P_TWO]]) {
        const next = [...after];
        next[i] = tile;
        const w = packCells(next)!;
        v += (p / empty.length) * (solver.solve(w[0], w[1], region, undefined, 1, through)
          ?.probability ?? 0);
      }
    }
    return v;
  };
  const values: number[] = [];
  let reached = 0;
  for (let n = 0; n < walks; n++) {
    const rng = makeRng(seed + n);
    let s = [...cells], value = 0;
    for (;;) {
      const w = packCells(s)!;
      const answer = solver.solve(w[0], w[1], region, undefined, 1);
      if (answer === undefined) {
        // The plain solve stops (a goal on the board: a tile placed beside the tail, or
        // beside a branch's): the best play on from here.
        value = solver.solve(w[0], w[1], region, undefined, 1, true)?.probability ?? 0;
        if (value > 0) reached++;
        break;
      }
      const after = [...s];
      slideCells(s, after, 4, 4, answer.move);
      if (!chain.cells.every((c, k) => after[c] === frozen[k])) {
        // The tile merged into the tail in place (else the chain broke: lost).
        if (after[tail] === 2 * tailTile) {
          reached++;
          const goal = chain.goalCells.some((c) => after[c] === 2 * tailTile);
          value = goal ? 1 : afterValue(after, false);
        }
        break;
      }
      if (chain.goalCells.some((c) => after[c] === tailTile)) {
        reached++;
        value = afterValue(after, true);
        break;
      }
      const empty = after.flatMap((t, i) => (t === 0 ? [i] : []));
      after[empty[Math.floor(rng.next() * empty.length)]] = rng.next() < P_TWO ? 2 : 4;
      s = after;
    }
    values.push(value);
  }
  const plainJoint = values.reduce((a, b) => a + b, 0) / walks;
  return {
    through,
    plain,
    plainJoint,
    error: standardError(values),
    reached,
    positions: solver.stored,
  };
};

if (import.meta.main) {
  const args = parseArgs(Deno.args, { string: ["series", "walks", "first", "last", "seed"] });
  if (typeof args.series !== "string") {
    console.error(
      "usage: lab/game2048/through.ts --series DIR/games.jsonl [--walks N] [--first A] " +
        "[--last B] [--seed S]",
    );
    Deno.exit(2);
  }
  const starts = throughStarts(Deno.readTextFileSync(args.series));
  const walks = Number(args.walks ?? 100), seed = Number(args.seed ?? 1);
  const first = Number(args.first ?? 0);
  const last = Math.min(Number(args.last ?? Infinity), starts.length - 1);
  const diffs: number[] = [], sums = [0, 0];
  for (let i = first; i <= last; i++) {
    const start = starts[i], t0 = performance.now();
    const g = throughGain(
      unpackCells(start.lo, start.hi),
      walks,
      1_000_000 * seed + 1000 * i,
      new EndgameSolver(),
    );
    console.log(JSON.stringify({
      index: i,
      seed: start.seed,
      seriesMade32768: start.made32768,
      ...g,
      seconds: Math.round((performance.now() - t0) / 1000),
    }));
    diffs.push(g.through - g.plainJoint);
    sums[0] += g.through;
    sums[1] += g.plainJoint;
  }
  const n = diffs.length, mean = (x: number) => (x / n).toFixed(3);
  console.log(
    `${n} of ${starts.length} positions (${first} to ${last}): through ${mean(sums[0])}, ` +
      `plain then whole ${mean(sums[1])}; difference ${mean(diffs.reduce((a, b) => a + b, 0))} (± ${
        standardError(diffs).toFixed(3)
      })`,
  );
}
