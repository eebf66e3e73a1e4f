/**
 * An n-tuple network for 4x4 2048 (Szubert & Jaśkowski 2014; Yeh et al. 2017): the value
 * of a board is the sum, over a few tuples of cells and the board's 8 symmetries, of a
 * weight looked up by the ranks in those cells. Each tuple has one table of `16^n`
 * weights shared by its 8 symmetric images (a rotated or mirrored board has the same
 * value), so a network of `m` tuples reads `8m` weights per board.
 *
 * The board is `board.ts`'s compact one (two 32-bit words of 4-bit ranks, cell
 * `y * 4 + x` at nibble `y * 4 + x`). The weights are a `Float32Array`, on a
 * `SharedArrayBuffer` when training workers share them (updated lock-free). The value of
 * an afterstate (the board just after a slide, before the computer's tile) estimates the
 * score still to be made from there: a finished game is worth 0. A network of several
 * stages (Yeh et al. 2017) has one set of tables per stage, and a board reads its stage's
 * (`stageOf`: a 16384 opens the second, a 16384 and an 8192 the third).
 *
 * Everything in the hot path (`evaluate`, `learn`, `bestSlide`) works on the board's 8
 * images (mirrors and transposes by bit operations) and reads each tuple's index as a few
 * shift-and-mask runs of consecutive cells, in code compiled for the network's shape
 * (`compileShape`); nothing is allocated per call.
 *
 * @module
 */
import { ROW_LEFT, ROW_RIGHT, slideBoard, transposeHi, transposeLo } from "./board.ts";

/** A network's tuples: each a list of cells (`y * 4 + x`, 0-15) of the 4x4 board. */
export interface NTupleShape {
  /** The shape's name (as `--net` takes it). */
  readonly name: string;
  /** The tuples, each 1-7 distinct cells. */
  readonly tuples: readonly (readonly number[])[];
  /**
   * Stages (1-3, default 1): each stage has tables of its own, and a board reads the
   * tables of its stage (`stageOf`): multi-stage weights, as Yeh et al. 2017's.
   */
  readonly stages?: number;
}

/** Matsuzaki 2016's 6-tuples after the first two (`8x6`): the first of them is in `4x6` too. */
const MATSUZAKI_REST: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5],
  [2, 3, 4, 5, 6, 9],
  [0, 1, 2, 5, 9, 10],
  [3, 4, 5, 6, 7, 8],
  [1, 3, 4, 5, 6, 7],
  [0, 1, 4, 8, 9, 10],
];

/**
 * The networks of the literature:
 *
 * - `4x6`: Yeh et al. 2017's (also Jaśkowski 2018's) four 6-tuples, two straight 2x3
 *   rectangles and two "L" shapes: `4 * 16^6` weights (268 MB as float32);
 * - `5x4`: Szubert & Jaśkowski 2014's, the outer and inner straight lines and the corner,
 *   edge and centre 2x2 squares: `5 * 16^4` weights (1.3 MB as float32);
 * - `8x6`: Matsuzaki 2016's eight 6-tuples (selected by how they add to each other's
 *   strength; Guei, Chen & Wu 2022's network): `8 * 16^6` weights (537 MB);
 * - `9x6`: `4x6`'s four tuples and the five of `8x6` that `4x6` lacks (604 MB), so that a
 *   trained `4x6` network grows into it keeping every value (`train.ts` `withTuples`).
 */
export const SHAPES: Readonly<Record<string, NTupleShape>> = {
  "4x6": {
    name: "4x6",
    tuples: [[0, 1, 2, 3, 4, 5], [4, 5, 6, 7, 8, 9], [0, 1, 2, 4, 5, 6], [4, 5, 6, 8, 9, 10]],
  },
  "5x4": {
    name: "5x4",
    tuples: [[0, 1, 2, 3], [4, 5, 6, 7], [0, 1, 4, 5], [1, 2, 5, 6], [5, 6, 9, 10]],
  },
  "8x6": { name: "8x6", tuples: [[0, 1, 2, 4, 5, 6], [4, 5, 6, 7, 8, 9], ...MATSUZAKI_REST] },
  "9x6": {
    name: "9x6",
    tuples: [
      [0, 1, 2, 3, 4, 5],
      [4, 5, 6, 7, 8, 9],
      [0, 1, 2, 4, 5, 6],
      [4, 5, 6, 8, 9, 10],
      ...MATSUZAKI_REST.slice(1),
    ],
  },
};

/**
 * The cell of 4x4 cell `cell` under symmetry `sym` (0-7): bit 2 transposes, bit 0
 * mirrors the columns, bit 1 the rows. The 8 together are the square's dihedral group.
 */
export const symmetricCell = (cell: number, sym: number): number => {
  let x = cell & 3, y = cell >>> 2;
  if (sym & 4) [x, y] = [y, x];
  if (sym & 1) x = 3 - x;
  if (sym & 2) y = 3 - y;
  return y * 4 + x;
};

/**
 * The ranks that open each stage after the first (Yeh et al. 2017's three stages): a
 * board is in stage 2 when it has a 16384 (rank 14), in stage 3 when it has a 16384 and
 * an 8192 (rank 13), in stage 1 otherwise. A network of 2 stages splits at the 16384 only.
 */
export const STAGE_RANKS: readonly (readonly number[])[] = [[14], [14, 13]];

/** The largest number of stages (`STAGE_RANKS`' length plus one). */
export const MAX_STAGES = STAGE_RANKS.length + 1;

/** A shape's number of stages. */
export const stagesOf = (shape: NTupleShape): number => shape.stages ?? 1;

/** The number of weights of one stage of a shape (`16^n` per tuple of `n` cells). */
export const stageWeightCount = (shape: NTupleShape): number =>
  shape.tuples.reduce((s, t) => s + 16 ** t.length, 0);

/** The number of weights of a shape: every stage's tables. */
export const weightCount = (shape: NTupleShape): number =>
  stagesOf(shape) * stageWeightCount(shape);

/**
 * The stage (0-based) of compact board `lo`, `hi` in a network of `stages` stages: the
 * last stage whose `STAGE_RANKS` are all on the board. Read cell by cell (the reference
 * for the compiled test of `compileShape`).
 */
export const stageOf = (stages: number, lo: number, hi: number): number => {
  let stage = 0;
  for (let k = 1; k < stages; k++) {
    const present = STAGE_RANKS[k - 1].every((r) => {
      for (let i = 0; i < 32; i += 4) {
        if (((lo >>> i) & 15) === r || ((hi >>> i) & 15) === r) return true;
      }
      return false;
    });
    if (present) stage = k;
  }
  return stage;
};

/** Checks a shape: 1-64 tuples of 1-7 distinct cells 0-15; an error message or undefined. */
export const shapeProblem = (shape: NTupleShape): string | undefined => {
  const stages = stagesOf(shape);
  if (!Number.isInteger(stages) || stages < 1 || stages > MAX_STAGES) {
    return `1 to ${MAX_STAGES} stages`;
  }
  if (shape.tuples.length < 1 || shape.tuples.length > 64) return "1 to 64 tuples";
  for (const t of shape.tuples) {
    if (t.length < 1 || t.length > 7) return "tuples of 1 to 7 cells";
    if (t.some((c) => !Number.isInteger(c) || c < 0 || c > 15)) return "cells 0 to 15";
    if (new Set(t).size !== t.length) return "distinct cells in a tuple";
  }
  return undefined;
};

/** A network: its shape, its weights and the precomputed feature cells. */
export interface NTupleNetwork {
  /** The tuples. */
  readonly shape: NTupleShape;
  /**
   * The weights: stage after stage, each tuple after tuple (`16^n` each, index
   * `sum rank_k << 4k`).
   */
  readonly weights: Float32Array;
  /** The number of features (`8` symmetries times the tuples). */
  readonly features: number;
  /** Each feature's first weight (its tuple's table in the first stage). */
  readonly base: Int32Array;
  /** Each feature's number of cells. */
  readonly length: Uint8Array;
  /** The features' cells, one after the other (the tuple's cells under the symmetry). */
  readonly cells: Uint8Array;
  /**
   * The network's value of compact board `lo`, `hi`: the hot path of `evaluate`,
   * compiled for the shape (see `compileShape`).
   */
  readonly value: (lo: number, hi: number) => number;
  /** Writes to `out` the weight each feature of board `lo`, `hi` reads (compiled too). */
  readonly slotsOf: (out: Int32Array, lo: number, hi: number) => void;
  /**
   * Temporal coherence's accumulators (Beal & Smith 1999; Jaśkowski 2018), when the
   * network learns by it: per weight `i`, `E_i` (the sum of its errors) at `2i` and
   * `A_i` (the sum of their absolute values) at `2i + 1`; weight `i` learns at the rate
   * `|E_i| / A_i` (1 before its first update). Absent: plain TD, one rate for all.
   */
  readonly coherence?: Float32Array;
}

/**
 * A network of `shape` over `weights` (a fresh zeroed array by default; a shared one for
 * workers), learning by temporal coherence when `coherence` (two words per weight, see
 * `NTupleNetwork.coherence`) is given. Throws when the shape is not valid or an array
 * has the wrong length.
 */
export const createNetwork = (
  shape: NTupleShape,
  weights?: Float32Array,
  coherence?: Float32Array,
): NTupleNetwork => {
  const problem = shapeProblem(shape);
  if (problem !== undefined) throw new Error(`n-tuple shape: expected ${problem}`);
  const n = weightCount(shape);
  const w = weights ?? new Float32Array(n);
  if (w.length !== n) throw new Error(`n-tuple shape ${shape.name}: ${w.length} weights, not ${n}`);
  if (coherence !== undefined && coherence.length !== 2 * n) {
    throw new Error(`n-tuple shape ${shape.name}: ${coherence.length} accumulators, not ${2 * n}`);
  }
  const m = shape.tuples.length, features = 8 * m;
  const base = new Int32Array(features), length = new Uint8Array(features), cells: number[] = [];
  let offset = 0, f = 0;
  for (const t of shape.tuples) {
    for (let sym = 0; sym < 8; sym++, f++) {
      base[f] = offset;
      length[f] = t.length;
      for (const c of t) cells.push(symmetricCell(c, sym));
    }
    offset += 16 ** t.length;
  }
  const { value, slotsOf } = compileShape(shape, w);
  return {
    shape,
    weights: w,
    features,
    base,
    length,
    cells: Uint8Array.from(cells),
    value,
    slotsOf,
    coherence,
  };
};

/** `n` float32 words on a `SharedArrayBuffer` (zero), for weights that workers share. */
export const sharedFloats = (n: number): Float32Array =>
  new Float32Array(new SharedArrayBuffer(4 * n));

/**
 * The source of a tuple's index on image `i` (words `a{i}`, `b{i}`): the tuple's cells
 * in runs of consecutive cells within one word, each read by one shift and mask and put
 * at its place in the index (cells 0-5 are simply `a & 0xffffff`).
 */
const indexSource = (tuple: readonly number[], i: number): string => {
  const parts: string[] = [];
  for (let k = 0; k < tuple.length;) {
    let len = 1;
    while (
      k + len < tuple.length && tuple[k + len] === tuple[k] + len &&
      (tuple[k] >> 3) === (tuple[k + len] >> 3)
    ) len++;
    const word = `${tuple[k] >> 3 ? "b" : "a"}${i}`, shift = 4 * (tuple[k] & 7);
    let run = shift === 0 ? word : `(${word} >>> ${shift})`;
    if (shift + 4 * len < 32) run = `(${run} & ${(2 ** (4 * len) - 1) >>> 0})`;
    parts.push(k === 0 ? run : `(${run} << ${4 * k})`);
    k += len;
  }
  return parts.join(" | ");
};

/**
 * The source that puts the board's 8 images under the square's symmetries in `a0`-`a7`
 * (low words) and `b0`-`b7` (high words): the board, its column mirror (each row's
 * nibbles reversed), its row mirror (the rows in reverse order) and both, then the same
 * four of the transposed board.
 */
const IMAGES_SOURCE = [0, 4].map((o) => {
  const [lo, hi] = o === 0 ? ["lo", "hi"] : ["tLo(lo, hi)", "tHi(lo, hi)"];
  // A row's 4 nibbles reversed: the nibbles of each byte swapped (into `p`, `q`), then the
  // two bytes of each row.
  const nibbles = (x: string) => `((${x} & 0x0f0f0f0f) << 4) | ((${x} >>> 4) & 0x0f0f0f0f)`;
  const bytes = (x: string) => `((${x} & 0x00ff00ff) << 8) | ((${x} >>> 8) & 0x00ff00ff)`;
  const swap = (x: string) => `(${x} >>> 16) | (${x} << 16)`;
  return [
    `const a${o} = ${lo}, b${o} = ${hi};`,
    `const p${o} = ${nibbles(`a${o}`)}, q${o} = ${nibbles(`b${o}`)};`,
    `const a${o + 1} = ${bytes(`p${o}`)}, b${o + 1} = ${bytes(`q${o}`)};`,
    `const a${o + 2} = ${swap(`b${o}`)}, b${o + 2} = ${swap(`a${o}`)};`,
    `const a${o + 3} = ${swap(`b${o + 1}`)}, b${o + 3} = ${swap(`a${o + 1}`)};`,
  ].join("\n");
}).join("\n");

/**
 * The source of a test that rank `r` is on board `lo`, `hi`: a word xor `r` in every
 * nibble has a zero nibble exactly where the rank is, and `(v - 0x1111...) & ~v &
 * 0x8888...` is not zero exactly when `v` has a zero nibble (the lowest zero nibble
 * borrows and sets its top bit; no other nibble sets one without a zero nibble below).
 */
const hasRankSource = (r: number): string => {
  const x = `(lo ^ ${(r * 0x11111111) | 0})`, y = `(hi ^ ${(r * 0x11111111) | 0})`;
  const zero = (v: string) => `((${v} - 0x11111111) & ~${v})`;
  return `((${zero(x)} | ${zero(y)}) & 0x88888888) !== 0`;
};

/**
 * The source of the board's stage (`stageOf`) as `pick(k)` for stage `k`: nested tests,
 * the last stage first (one stage: `pick(0)`, no test at all).
 */
const stageSource = (shape: NTupleShape, pick: (k: number) => string): string => {
  let source = pick(0);
  for (let k = 1; k < stagesOf(shape); k++) {
    const test = STAGE_RANKS[k - 1].map(hasRankSource).join(" && ");
    source = `(${test} ? ${pick(k)} : ${source})`;
  }
  return source;
};

/**
 * The hot functions of a network of `shape` over `weights`, compiled (`new Function`) so
 * that every feature's index is a few constant shifts and masks of one image's words and
 * the 8 images are plain locals: `value` (the board's value; the sum image after image,
 * tuple after tuple) and `slotsOf` (the weight each feature reads, in the same order),
 * both in the tables of the board's stage. `value` reads one stage's view of the weights
 * (`w0`, `w1`, ...: no addition per read; a network of one stage reads `w0` directly);
 * `slotsOf` adds the stage's first weight. About twice as fast as reading the tuples from
 * tables at run time; nothing allocates.
 */
const compileShape = (
  shape: NTupleShape,
  weights: Float32Array,
): Pick<NTupleNetwork, "value" | "slotsOf"> => {
  const reads: string[] = [];
  for (let i = 0; i < 8; i++) {
    let offset = 0;
    for (const t of shape.tuples) {
      reads.push(`${offset} + (${indexSource(t, i)})`);
      offset += 16 ** t.length;
    }
  }
  const stages = stagesOf(shape), size = stageWeightCount(shape);
  const views = Array.from({ length: stages }, (_, k) => `const w${k} = W[${k}];`).join("\n");
  const value = `(lo, hi) => {\nconst w = ${
    stageSource(shape, (k) => `w${k}`)
  };\n${IMAGES_SOURCE}\nreturn ${reads.map((r) => `w[${r}]`).join(" +\n")};\n}`;
  const first = stages === 1 ? "" : "st + ";
  const slotsOf = `(out, lo, hi) => {\nconst st = ${
    stageSource(shape, (k) => `${k * size}`)
  };\n${IMAGES_SOURCE}\n${reads.map((r, f) => `out[${f}] = ${first}${r};`).join("\n")}\n}`;
  const stageViews = Array.from(
    { length: stages },
    (_, k) => weights.subarray(k * size, (k + 1) * size),
  );
  const make = (source: string) =>
    new Function("W", "tLo", "tHi", `"use strict";\n${views}\nreturn ${source};`)(
      stageViews,
      transposeLo,
      transposeHi,
    );
  return { value: make(value), slotsOf: make(slotsOf) };
};

/** The network's value of compact board `lo`, `hi` (an afterstate: the score to come). */
export const evaluate = (net: NTupleNetwork, lo: number, hi: number): number => net.value(lo, hi);

/** The weights a board reads, by feature (written by `net.slotsOf`). */
let slots = new Int32Array(64);

/**
 * One learning step on a board: with `error = target - value(board)`, every weight the
 * board reads moves by `step * error` (once per feature: a weight two features read
 * moves twice), scaled by the weight's coherence `|E_i| / A_i` when the network learns by
 * temporal coherence (which then adds `error` to `E_i` and `|error|` to `A_i`). Returns
 * the board's new value. A TD step is `alpha / features` (see `train.ts`).
 */
export const learn = (
  net: NTupleNetwork,
  lo: number,
  hi: number,
  target: number,
  step: number,
): number => {
  const { weights, features, coherence } = net;
  if (slots.length < features) slots = new Int32Array(features);
  net.slotsOf(slots, lo, hi);
  let v = 0;
  for (let k = 0; k < features; k++) v += weights[slots[k]];
  const error = target - v, delta = step * error;
  if (coherence === undefined) {
    for (let k = 0; k < features; k++) weights[slots[k]] += delta;
  } else {
    const size = Math.abs(error);
    for (let k = 0; k < features; k++) {
      const at = slots[k], e = coherence[2 * at], a = coherence[2 * at + 1];
      weights[at] += a > 0 ? delta * Math.abs(e) / a : delta;
      coherence[2 * at] = e + error;
      coherence[2 * at + 1] = a + size;
    }
  }
  v = 0;
  for (let k = 0; k < features; k++) v += weights[slots[k]];
  return v;
};

/** The board's 16 ranks, written by `loadRanks`. */
const ranks = new Int32Array(16);

const loadRanks = (lo: number, hi: number): void => {
  for (let i = 0; i < 8; i++) {
    ranks[i] = (lo >>> (4 * i)) & 15;
    ranks[i + 8] = (hi >>> (4 * i)) & 15;
  }
};

/**
 * `evaluate` the plain way, for the tests: the stage by `stageOf`, each feature's cells
 * (the tuple's cells under `symmetricCell`) read one by one from the board's ranks.
 */
export const evaluateByCells = (net: NTupleNetwork, lo: number, hi: number): number => {
  loadRanks(lo, hi);
  const { weights, base, length, cells, features } = net;
  const st = stageOf(stagesOf(net.shape), lo, hi) * stageWeightCount(net.shape);
  let v = 0, j = 0;
  for (let f = 0; f < features; f++) {
    const len = length[f];
    let idx = 0;
    for (let k = 0; k < len; k++) idx |= ranks[cells[j++]] << (4 * k);
    v += weights[st + base[f] + idx];
  }
  return v;
};

/**
 * The score a slide makes, from the board before and after: with `F(2^r) = (r - 1) 2^r`
 * summed over the tiles, a merge of two `2^r` into `2^(r+1)` adds exactly `2^(r+1)`.
 */
export const ROW_POTENTIAL: Float64Array = (() => {
  const t = new Float64Array(65536);
  for (let row = 0; row < 65536; row++) {
    let s = 0;
    for (let c = 0; c < 4; c++) {
      const r = (row >>> (4 * c)) & 15;
      if (r > 1) s += (r - 1) * 2 ** r;
    }
    t[row] = s;
  }
  return t;
})();

/** `ROW_POTENTIAL` of a whole compact board. */
export const potential = (lo: number, hi: number): number =>
  ROW_POTENTIAL[lo & 0xffff] + ROW_POTENTIAL[lo >>> 16] + ROW_POTENTIAL[hi & 0xffff] +
  ROW_POTENTIAL[hi >>> 16];

/** The slide `bestSlide` chose: its afterstate and the score it made. */
export interface Slide {
  /** The direction (0-3: left, right, up, down), -1 when no slide changes the board. */
  dir: number;
  /** The afterstate's low word. */
  lo: number;
  /** The afterstate's high word. */
  hi: number;
  /** The score the slide made. */
  reward: number;
  /** The afterstate's value by the network. */
  value: number;
}

const scratch = new Int32Array(2);

/**
 * The greedy slide: the one that maximizes `reward + value(afterstate)` (ties: the first
 * in the order L, R, U, D), written to `out`. `out.dir` is -1 when the game is over.
 */
export const bestSlide = (net: NTupleNetwork, lo: number, hi: number, out: Slide): Slide => {
  const before = potential(lo, hi);
  let best = -Infinity;
  out.dir = -1;
  for (let d = 0; d < 4; d++) {
    let a: number, b: number;
    if (d < 2) {
      const t = d === 0 ? ROW_LEFT : ROW_RIGHT;
      a = t[lo & 0xffff] | (t[lo >>> 16] << 16);
      b = t[hi & 0xffff] | (t[hi >>> 16] << 16);
    } else {
      slideBoard(lo, hi, d, scratch);
      a = scratch[0];
      b = scratch[1];
    }
    if (a === lo && b === hi) continue;
    const reward = potential(a, b) - before;
    const value = evaluate(net, a, b);
    if (reward + value > best) {
      best = reward + value;
      out.dir = d;
      out.lo = a;
      out.hi = b;
      out.reward = reward;
      out.value = value;
    }
  }
  return out;
};

/** A fresh `Slide` for `bestSlide` to write. */
export const newSlide = (): Slide => ({ dir: -1, lo: 0, hi: 0, reward: 0, value: 0 });

/** The key under which a game carries its network (read through prototypes and copies). */
export const NETWORK_KEY: unique symbol = Symbol.for("ply.game2048.ntuple");

/** The game with `net` as its leaf evaluation (the fast expectimax's; see `networkOf`). */
export const withNetwork = <G extends object>(game: G, net: NTupleNetwork): G =>
  Object.assign(game, { [NETWORK_KEY]: net });

/** The network a game carries (`withNetwork`), if any. */
export const networkOf = (game: object): NTupleNetwork | undefined =>
  (game as { [NETWORK_KEY]?: NTupleNetwork })[NETWORK_KEY];
