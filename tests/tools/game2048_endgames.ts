/**
 * 2048 endgame positions and a plain reference solve, shared by the product's endgame
 * tests and the lab's.
 *
 * @module
 */
import { packCells } from "../../plugins/game2048/board.ts";
import type { Chain } from "../../plugins/game2048/endgame.ts";
import { P_FOUR, P_TWO, slideCells } from "../../plugins/game2048/rules.ts";

/** Tile values in reading order from rows of numbers. */
export const grid = (text: string): number[] => text.trim().split(/\s+/).map(Number);

/** macroxue's snake (analysis/README.md): eight tiles along the top rows, then a region. */
export const snake = (top: number, region: readonly number[]): number[] =>
  [8, 4, 2, 1, 16, 32, 64, 128].map((d) => top / d).concat(region);

/** The region macroxue's examples start from: 2 2 2 4 over 0 0 2 2. */
export const START = [2, 2, 2, 4, 0, 0, 2, 2];

export const words = (cells: readonly number[]): [number, number] => packCells(cells)!;

/** After a collapse: the 1024 merged away, 512 256 ... go on from the 2048. */
export const GAPPED = grid(`
     2    0    2    0
    32   16    2    4
    64  128  256  512
 16384 8192 4096 2048`);

/** Ten tiles along a snake from `top` (the top row leftwards, the next rightwards, ...), a region of six cells. */
export const tenTiles = (top: number): [number, number] => {
  const cells = new Array(16).fill(0);
  [3, 2, 1, 0, 4, 5, 6, 7, 11, 10].forEach((cell, k) => cells[cell] = top >> k);
  [8, 9, 12, 13, 14, 15].forEach((cell, k) => cells[cell] = [2, 4, 0, 2, 0, 2][k]);
  return words(cells);
};

/**
 * The probability of the goal, holding `chain`, from slider position `cells` (tile values,
 * reading order) after each slide (-1: no change). With `through` (`solve`'s), the tail
 * merged one rank up in place is no goal but the start of the whole chain's (stage 1:
 * the same cells, the tail one rank up), and a tile beside the tail is none before it.
 */
export const reference = (cells: readonly number[], chain: Chain, through = false): number[] => {
  const tail = chain.cells[chain.cells.length - 1];
  const memo = new Map<string, number>();
  const afterSlide = (after: readonly number[], stage: number): number => {
    const tailTile = 2 ** (chain.tailRank + stage);
    const frozen = chain.cells.map((c) => c === tail ? tailTile : cells[c]);
    const kept = chain.cells.every((c, i) => after[c] === frozen[i]);
    if (!kept) {
      const rest = chain.cells.every((c, i) => c === tail || after[c] === frozen[i]);
      if (!rest || after[tail] !== 2 * tailTile) return 0;
      return through && stage === 0 ? afterSlide(after, 1) : 1;
    }
    const goals = !through || stage === 1;
    if (goals && chain.goalCells.some((c) => after[c] === tailTile)) return 1;
    const key = `${stage}:${after.join()}`;
    let v = memo.get(key);
    if (v === undefined) {
      const empty = after.flatMap((t, i) => (t === 0 ? [i] : []));
      v = 0;
      for (const i of empty) {
        for (const [tile, p] of [[2, P_TWO], [4, P_FOUR]]) {
          const next = [...after];
          next[i] = tile;
          v += (p / empty.length) * Math.max(0, ...slides(next, stage));
        }
      }
      memo.set(key, v);
    }
    return v;
  };
  const slides = (b: readonly number[], stage: number): number[] =>
    [0, 1, 2, 3].map((d) => {
      const after = [...b];
      return slideCells(b, after, 4, 4, d) < 0 ? -1 : afterSlide(after, stage);
    });
  return slides(cells, 0);
};

/** A snake path over the board: row 0 left to right, row 1 right to left, and so on. */
export const SNAKE_PATH = [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12];

/** The 8 symmetries of the board as cell maps. */
export const SYMMETRIES: readonly ((i: number) => number)[] = [false, true].flatMap((t) =>
  [0, 1, 2, 3].map((turns) => (i: number) => {
    let x = i & 3, y = i >> 2;
    if (t) [x, y] = [y, x];
    for (let k = 0; k < turns; k++) [x, y] = [3 - y, x];
    return y * 4 + x;
  })
);

/** Twelve tiles along a snake from a 16384, the last (a 4) skipping the 8; `region` the last row's four cells, right to left. */
export const gapAtTail = (region: readonly number[]): number[] => {
  const cells = new Array(16).fill(0);
  for (let k = 0; k < 12; k++) cells[SNAKE_PATH[k]] = 2 ** (14 - k - (k === 11 ? 1 : 0));
  region.forEach((v, k) => cells[SNAKE_PATH[12 + k]] = v);
  return cells;
};
