/**
 * An exact Domineering solver: who wins with perfect play, and a winning move.
 *
 * It is a boolean negamax ("does the player to move win?") on bitboards, with the
 * techniques of the Domineering-solving literature (Breuker, Uiterwijk and van den Herik,
 * "Solving 8x8 Domineering", 2000; Bullock, "Domineering: solving large combinatorial
 * search spaces", 2002):
 *
 * - **Two views of the board.** The free cells are kept as line masks twice: rows (H
 *   plays inside a row) and columns (V plays inside a column). The player to move always
 *   plays "along its lines", so one routine serves both players, and a move is three XORs.
 * - **Move bounds.** A cell the opponent can never cover is *protected*; a domino on two
 *   protected cells is a *safe move*. The player to move wins at once when the moves it
 *   is sure to make exceed every move the opponent can still make, and loses when the
 *   opponent is sure to make as many moves as it can (details below).
 * - **No safe moves while others exist.** Playing a safe move is never needed while the
 *   player has another move (Bullock's result), so safe moves are generated only when
 *   nothing else is left.
 * - **Transposition table with symmetry.** Positions are stored from the mover's point
 *   of view (so H to move on a board and V to move on its transpose are one entry), with
 *   dead cells removed, translated to the corner, and reduced to the least of their four
 *   mirror images. Keys are exact 64-bit packings up to 8x8 shapes, 64-bit hashes beyond.
 *   Two entries per bucket: one keeps the bigger subtree, one the newest.
 * - **Move ordering** after Bullock's Obsequi (2002; reimplemented from its description,
 *   not its code): each move's change in both players' moves and safe moves, equal
 *   weights, ties broken by positional values (`positional`).
 *
 * **Protective areas** (Bullock): a free 2x2 square whose two cells on one side (or both)
 * are blocked in X's lines. X plays the domino next to the open side and the other one is
 * then safe (2 moves); an O move inside kills the area (weight 1), an O move sticking out
 * of the open side leaves one domino only that one O move can destroy (weight 1/2 lost).
 * Areas are kept from touching each other across lines (as Obsequi does; the tests found
 * no case where this matters).
 *
 * **The bounds.** For a player X (the mover, or its opponent O), count in X's lines:
 * - `s` safe moves (pairs of protected cells; in a run of odd length the end cell left
 *   out is the one beside a free cell when only that end has one, `safeShift`): O can
 *   never touch them;
 * - `b` *blocks*: protective areas. If X plays one of the two dominoes, the other becomes
 *   safe: 2 moves;
 * - `d1 + d2` other disjoint X dominoes, where one O domino can hit two of the `d2`
 *   (cells one above the other) but only one of the `d1`.
 * X plays blocks first, then `d2`, then `d1`, then its safe moves. With weights 1/2 for a
 * `d1` and 1/3 for a `d2`, every round (X's move, O's reply) secures X at least the weight
 * it removes (X's `d2` secures 1 against at most 1/3 + 2/3). While areas are left X takes
 * one each turn (2 moves) and O at best destroys one (an O move on the dominoes instead
 * costs X at most one move, an area two), so moving first X takes `ceil(b / 2)` areas and
 * is sure of `G = s + b + ceil(D)` moves for even `b` (`D = d1/2 + d2/3`), `s + b + 1 +
 * ceil(D - 2/3)` for odd `b` (O's reply to the last area hits the dominoes); moving second,
 * the least over O's first move (`areaTempo`; without it, every area weighs 1 in one sum
 * `s + ceil(b + D)`). O can make at most `M` moves: the sum of `floor(run / 2)` over the
 * runs of free cells in O's lines, minus 2 for every block X takes. X to move wins if
 * `G > M`.
 *
 * **Counting cells** gives a second test: when X moving first is stuck after `p >= G`
 * moves, both players have covered `4p` cells, none of them among `u` cells X keeps empty,
 * so X wins if `4G + u` exceeds the free cells (each X move beyond its plan adds 4 and
 * covers at most 2 of them). The opponent's tests are the same with the tempo moved
 * (`G >= M`, `4G + 2 + u > free`). The cells X keeps empty:
 * - protected cells outside its safe moves (O never covers them), less those X's own
 *   structure moves cover: at most one per vulnerable domino, none for the areas' moves
 *   (`vulnerableProtected`); with `protectedLast`, X plays the dominoes holding a
 *   protected cell last within their kind (its clean moves counted over the opponent's
 *   choice between its areas and its dominoes), and a second count weighs each move as 4 cells
 *   less the protected cell it covers (block 4, `d2` 4/3 or 1 with a protected cell, `d1`
 *   2 or 3/2: every round X's move gains at least what it and O's reply remove);
 * - **safe moves with an option** (Bullock's Obsequi; `safeOptions`): a safe move `ab`
 *   beside a free cell `c` of the line that no structure uses (nor the cells across from
 *   it). X plays it as `ca`, leaving the protected `b` empty, unless O covered `c`; in a
 *   pair of them, when O covers one option X answers at once with the other (O's move
 *   touched none of X's structures and X's answer is a move it counts anyway, so the
 *   rounds above are unchanged). A dead end across from `c` (a free cell whose far side
 *   is blocked) is lost to O once `c` is covered, unless O covered it with `c`. A pair
 *   with `t1 >= t2` dead ends keeps `1 + t2 + max(t1 - 1, 0)` cells empty. A lone option
 *   is played as X's first free move when that costs fewer cells than it keeps empty (the
 *   structures then count one O move earlier; moving second, the least of O covering `c`
 *   first and of O moving twice before X's structures).
 *   With a spare tempo (`spareTempo`, Bullock's parity rule: see `spare`), one lone
 *   option counts in full: X plays it once its structures are gone, and O taking it
 *   away first costs O an attack, worth a move of X's (4 cells) against its 1 to 3.
 * The tests check every bound against exhaustive search: the sure moves against the moves
 * X can secure, and the cell test at its edge (X must win even when O may pass as often as
 * the test allows), on random, sparse and option-rich shapes.
 *
 * Everything here is plain synchronous code over typed arrays; the caller may poll a stop
 * flag (every 4096 nodes) to honour a time budget.
 *
 * @module
 */
import { fmix32, LANE_A_SEED, LANE_B_SEED, laneA, laneB, mix32 } from "../../core/hash.ts";

/** The widest line (bits) and most lines the solver handles. */
export const SOLVER_MAX_SIDE = 30;

const popcount = (v: number): number => {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
};

/** Greedy pairs from the low end of every run of set bits: the most dominoes in a line. */
const pairsWide = (m: number): number => {
  let n = 0;
  while (m !== 0) {
    const low = m & -m;
    const run = m & ~(m + low);
    m ^= run;
    n += popcount(run) >>> 1;
  }
  return n;
};

const PAIRS = new Uint8Array(1 << 16);
for (let m = 1; m < 1 << 16; m++) PAIRS[m] = pairsWide(m);

/** The number of disjoint dominoes a line mask holds: the sum of `floor(run / 2)`. */
export const pairsOf = (m: number): number => (m >>> 16 === 0 ? PAIRS[m] : pairsWide(m));

/** The cells of the greedy pairs of a line mask (each run's first `2 * floor(len / 2)` cells). */
const pairCells = (m: number): number => {
  let out = 0;
  while (m !== 0) {
    const low = m & -m;
    const run = m & ~(m + low);
    m ^= run;
    const k = popcount(run) & ~1;
    if (k > 0) out |= ((1 << k) - 1) * low;
  }
  return out;
};

/**
 * The cells of the safe moves in a line: pairs within each run of protected cells `p`. In a
 * run of odd length one end cell is left out for the vulnerable dominoes: the end whose
 * neighbouring stretch of free unprotected cells (in `avail`) is odd, so that the two make
 * whole dominoes; when both stretches are odd or both even, the low end's when only the
 * cell below the run is free, else the high end's.
 */
const safeCells = (p: number, avail: number): number => {
  const q = avail & ~p;
  let out = 0, rest = p;
  while (rest !== 0) {
    const low = rest & -rest;
    const run = rest & ~(rest + low);
    rest ^= run;
    if ((popcount(run) & 1) === 0) {
      out |= run;
      continue;
    }
    const high = run & ~(run >>> 1);
    let below = 0;
    for (let c = low >>> 1; c !== 0 && (q & c) !== 0; c >>>= 1) below++;
    const x = q >>> (32 - Math.clz32(high)); // lines hold at most 30 cells
    const above = popcount(x & ~(x + 1));
    const lowEnd = (below & 1) !== (above & 1) ? (below & 1) === 1 : below > 0 && above === 0;
    out |= lowEnd ? run ^ low : run & (run >>> 1);
  }
  return out;
};

const REV8 = new Uint8Array(256);
for (let i = 0; i < 256; i++) {
  let r = 0;
  for (let b = 0; b < 8; b++) if (i & (1 << b)) r |= 1 << (7 - b);
  REV8[i] = r;
}

const reverse32 = (v: number): number => {
  v = ((v >>> 1) & 0x55555555) | ((v & 0x55555555) << 1);
  v = ((v >>> 2) & 0x33333333) | ((v & 0x33333333) << 2);
  v = ((v >>> 4) & 0x0f0f0f0f) | ((v & 0x0f0f0f0f) << 4);
  v = ((v >>> 8) & 0x00ff00ff) | ((v & 0x00ff00ff) << 8);
  return ((v >>> 16) | (v << 16)) >>> 0;
};

/** Thrown inside the solver when its stop flag asks it to stop. */
export class SolveStopped extends Error {
  /** Creates the sentinel. */
  constructor() {
    super("solve stopped");
  }
}

/** Options of a solver. */
export interface SolverOptions {
  /** log2 of the number of transposition-table entries (default 22: 4M entries, 64 MB). */
  readonly ttBits?: number;
  /**
   * Memory for the table, at least `16 * 2^ttBits` bytes, which solvers in several workers
   * may share: each entry is four int32 words, `[keyLow ^ d, keyHigh ^ d, d, 0]` with
   * `d = work << 2 | result` (result 1: the mover loses, 2: the mover wins), so that an
   * entry torn by two writers at once fails its check and reads as a miss. Default: the
   * solver's own memory.
   */
  readonly table?: SharedArrayBuffer;
  /** Merge mirror images in the table (default true). */
  readonly symmetry?: boolean;
  /** Use the guaranteed-moves bounds beyond plain safe moves (default true). */
  readonly vulnerableBounds?: boolean;
  /** Skip safe moves while other moves exist (default true). */
  readonly skipSafeMoves?: boolean;
  /** Count 2x2 areas walled on one side only as protective areas (default true). */
  readonly oneWallAreas?: boolean;
  /**
   * Count a protected cell inside a vulnerable domino as lost to the opponent unless
   * the mover's guaranteed moves must play that domino (default true).
   */
  readonly vulnerableProtected?: boolean;
  /**
   * In a run of protected cells of odd length, leave out for the vulnerable dominoes the
   * end cell next to a free cell (default true; false: always the high end's).
   */
  readonly safeShift?: boolean;
  /**
   * Count the protective areas X takes first as two moves each, the odd one included
   * (default true); false: every area weighs one move in the shared weight sum.
   */
  readonly areaTempo?: boolean;
  /**
   * Play the vulnerable dominoes that hold a protected cell last within their kind, and
   * count the protected cells this leaves empty (default true).
   */
  readonly protectedLast?: boolean;
  /**
   * Count the cells left empty by safe moves with an option (a free cell beside the safe
   * move that the player may cover instead), in pairs (default true).
   */
  readonly safeOptions?: boolean;
  /**
   * With `safeOptions`: count a lone option's cells when the parity of the vulnerable
   * dominoes leaves X a spare tempo (Bullock's rule; default true).
   */
  readonly spareTempo?: boolean;
  /** Order moves by their effect on both players' moves (default true). */
  readonly ordering?: boolean;
  /**
   * With `ordering`: Bullock's score (equal weights) with positional values as the
   * tie-break (default true); false: the older weighted score, no positional values.
   */
  readonly positional?: boolean;
}

/** Options of one call of `Solver.solve`. */
export interface SolveCallOptions {
  /** Search every root move and list the winning ones (safe moves included). */
  readonly allWinning?: boolean;
  /** Polled every 4096 nodes: returning true stops the search with `SolveStopped`. */
  readonly shouldStop?: () => boolean;
  /** Called after each root move is settled (the solve's progress). */
  readonly onRootMove?: (p: RootProgress) => void;
}

/** A solve's progress after a root move is settled. */
export interface RootProgress {
  /** Root moves settled so far. */
  readonly done: number;
  /** Root moves to try (the solve stops at the first win unless `allWinning`). */
  readonly total: number;
  /** True once a winning move is found (the mover wins). */
  readonly moverWins: boolean;
  /** The best move so far, as `Solution.move` (-1 before any). */
  readonly move: number;
  /** Positions visited so far by this solve. */
  readonly nodes: number;
  /** The root move just settled (as `Solution.move`), and whether it wins. */
  readonly settled: number;
  /** True when `settled` wins. */
  readonly settledWins: boolean;
}

/** The answer for one position. */
export interface Solution {
  /** True when the player to move wins with perfect play. */
  readonly moverWins: boolean;
  /**
   * A best move as a cell index `row * width + column` (the domino's lower-left cell):
   * a winning move, or when every move loses the one whose refutation took the most
   * nodes; -1 when the mover has no move.
   */
  readonly move: number;
  /** Every winning move (only with `allWinning`), in index order. */
  readonly winning?: readonly number[];
  /** Positions visited (the root included). */
  readonly nodes: number;
  /** Wall time in milliseconds. */
  readonly timeMs: number;
}

/** A board to solve: its bounding box, its free cells as row masks, the player to move. */
export interface SolveInput {
  /** Width of the box (at most `SOLVER_MAX_SIDE`). */
  readonly width: number;
  /** Height of the box (at most `SOLVER_MAX_SIDE`). */
  readonly height: number;
  /** Row `r`'s free cells, bit `c` for column `c`. */
  readonly rows: readonly number[];
  /** The player to move: `"H"` plays inside rows, `"V"` inside columns. */
  readonly mover: "H" | "V";
  /**
   * The board's cells (as `rows`), from which the positional values are taken, so that
   * every position of one game is searched in the order of a search from its start
   * (default: `rows`, the free cells).
   */
  readonly board?: readonly number[];
}

/** The move bounds of a position (see `Solver.bounds`). */
export interface MoveBounds {
  /** Moves the player to move is sure to make (moving first). */
  readonly moverSure: number;
  /** Moves the opponent is sure to make (moving second). */
  readonly opponentSure: number;
  /** Disjoint moves the player to move has (at most this many moves). */
  readonly moverMax: number;
  /** Disjoint moves the opponent has. */
  readonly opponentMax: number;
  /**
   * Free cells the player to move can keep empty to the end while making `moverSure`
   * moves (moving first; the opponent may even pass).
   */
  readonly moverUnused: number;
  /** The same for the opponent (moving second). */
  readonly opponentUnused: number;
  /** "win" / "loss" when the bounds decide for the player to move. */
  readonly verdict: "win" | "loss" | undefined;
}

/** A reusable solver (its transposition table persists between calls). */
export interface Solver {
  /** Solves a position (see `SolveCallOptions`); throws `SolveStopped` when told to stop. */
  solve(input: SolveInput, options?: SolveCallOptions): Solution;
  /**
   * The mover's moves (as `Solution.move` indices) in the order `solve` searches them,
   * safe moves left out while others exist (no search): a long solve split into parts
   * (the bench's `--attempt`) takes them in this order.
   */
  orderedMoves(input: SolveInput): number[];
  /**
   * The move bounds of a position (no search; for tests): how many moves each player is
   * sure of (the mover moving first, the opponent second), how many each can make at
   * most, and the verdict they give, if any.
   */
  bounds(input: SolveInput): MoveBounds;
  /** Total nodes visited by this solver since it was made. */
  readonly totalNodes: () => number;
  /** Positions answered by the transposition table since the solver was made. */
  readonly hits: () => number;
  /** Empties the transposition table. */
  clear(): void;
}

const PAD = SOLVER_MAX_SIDE + 3;

/** The largest subtree size a table entry records (it has 29 bits beside the result). */
const WORK_MAX = (1 << 29) - 1;

/**
 * Positional values for move ordering (after Bullock's Obsequi, 2002), computed once per
 * solve from the root position: a domino's distance `di` to the nearest blocked cell
 * across its lines (1 on an edge line) and `dk` along its line (1 at a line's end). On a
 * rectangle these are the distances to the box's sides; around holes they follow the
 * holes. Best first: `di` even with `dk` odd, then `di` even, then `di` odd from 3 (odd
 * `dk` first), the edge lines last; nearer the edges first within each tier.
 */
const positional = (pos: Int32Array, base: number, lines: Int32Array, n: number): void => {
  pos.fill(0, base, base + PAD * 32);
  const keys: number[] = [], at: number[] = [];
  const across = (i: number, j: number): number => {
    let up = 1, dn = 1;
    while (i + up <= n && (lines[i + up] >>> j) & 1) up++;
    while (i - dn >= 1 && (lines[i - dn] >>> j) & 1) dn++;
    return Math.min(up, dn);
  };
  for (let i = 1; i <= n; i++) {
    const l = lines[i];
    let m = l & (l >>> 1);
    while (m !== 0) {
      const j = 31 - Math.clz32(m & -m);
      m &= m - 1;
      const di = Math.min(across(i, j), across(i, j + 1));
      let left = 1, right = 1;
      while (j - left >= 0 && (l >>> (j - left)) & 1) left++;
      while (j + 1 + right < 32 && (l >>> (j + 1 + right)) & 1) right++;
      const dk = Math.min(left, right, 63);
      const tier = di === 1 ? 4 : di % 2 === 0 ? (dk % 2 === 1 ? 0 : 1) : (dk % 2 === 1 ? 2 : 3);
      keys.push((tier << 16) | (Math.min(di, 255) << 8) | dk);
      at.push(base + (i << 5) + j);
    }
  }
  const distinct = [...new Set(keys)].sort((a, b) => a - b);
  for (let t = 0; t < keys.length; t++) {
    pos[at[t]] = Math.max(0, 127 - distinct.indexOf(keys[t]));
  }
};

/**
 * Makes a solver.
 *
 * @example 5x5 is a second-player win; 4x4 a first-player win
 * ```ts
 * import { createSolver } from "./solver.ts";
 * const s = createSolver({ ttBits: 16 });
 * const full = (w: number, h: number) => Array.from({ length: h }, () => (1 << w) - 1);
 * if (s.solve({ width: 5, height: 5, rows: full(5, 5), mover: "H" }).moverWins) throw new Error();
 * if (!s.solve({ width: 4, height: 4, rows: full(4, 4), mover: "H" }).moverWins) throw new Error();
 * ```
 */
export const createSolver = (options: SolverOptions = {}): Solver => {
  const ttBits = Math.max(10, Math.min(28, options.ttBits ?? 22));
  const symmetry = options.symmetry !== false;
  const useVuln = options.vulnerableBounds !== false;
  const skipSafe = options.skipSafeMoves !== false;
  const ordering = options.ordering !== false;
  const oneWall = options.oneWallAreas !== false;
  const usePos = options.positional !== false;
  const vulnProt = options.vulnerableProtected !== false;
  const safeOpts = options.safeOptions !== false;
  const spareTempo = options.spareTempo !== false;
  const protLast = options.protectedLast !== false;
  const areaTempo = options.areaTempo !== false;
  const safeShift = options.safeShift !== false;
  let shouldStop: (() => boolean) | undefined;

  // Transposition table: 2-way buckets (slot 0 keeps the bigger subtree, slot 1 the newest).
  const size = 1 << ttBits;
  // One array, four ints per entry (`SolverOptions.table`: the key's halves xor d, then
  // d = work << 2 | result, result 1 the mover loses, 2 the mover wins; 0 empty) so that
  // a bucket is 32 bytes, one cache line, and a torn entry fails its check.
  if (options.table !== undefined && options.table.byteLength < size * 16) {
    throw new RangeError(`a table of 2^${ttBits} entries takes ${size * 16} bytes`);
  }
  const tt = options.table === undefined
    ? new Int32Array(size * 4)
    : new Int32Array(options.table, 0, size * 4);
  const shift = 32 - ttBits;

  let nodes = 0, total = 0, hits = 0;

  // The two views: rows (H's lines) and columns (V's lines), padded with a zero line on each side.
  const rowsView = new Int32Array(PAD), colsView = new Int32Array(PAD);
  const pos = new Int32Array(2 * PAD * 32);

  // Canonical key of the mover's view.
  const norm = new Int32Array(PAD);
  let keyLo = 0, keyHi = 0;
  const variant = (
    first: number,
    count: number,
    lo: number,
    span: number,
    revLines: boolean,
    revBits: boolean,
    packed: boolean,
  ) => {
    let a = 0, b = 0;
    if (packed) {
      for (let t = 0; t < count; t++) {
        let v = norm[revLines ? first + count - 1 - t : first + t] >>> lo;
        if (revBits) v = REV8[v] >>> (8 - span);
        if (t < 4) a |= v << (8 * t);
        else b |= v << (8 * (t - 4));
      }
    } else {
      a = LANE_A_SEED ^ count ^ (span << 8);
      b = LANE_B_SEED ^ span ^ (count << 8);
      for (let t = 0; t < count; t++) {
        let v = norm[revLines ? first + count - 1 - t : first + t] >>> lo;
        if (revBits) v = reverse32(v) >>> (32 - span);
        // As int32 (`>>>` may give a double): a double would be boxed for the call.
        a = laneA(a, v | 0);
        b = laneB(b, v | 0);
      }
      a = fmix32(a);
      b = fmix32(b ^ a);
    }
    if ((b >>> 0) < (keyHi >>> 0) || (b === keyHi && (a >>> 0) < (keyLo >>> 0))) {
      keyLo = a;
      keyHi = b;
    }
  };
  const canon = (mine: Int32Array, nm: number): void => {
    let or = 0, first = -1, last = -1;
    for (let i = 1; i <= nm; i++) {
      const l = mine[i];
      // Dead cells (no free neighbour at all) change nothing: leave them out.
      const n = l & ((l << 1) | (l >>> 1) | mine[i - 1] | mine[i + 1]);
      norm[i] = n;
      if (n !== 0) {
        or |= n;
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0) {
      keyLo = keyHi = 0;
      return;
    }
    const lo = 31 - Math.clz32(or & -or);
    const span = 32 - Math.clz32(or) - lo;
    const count = last - first + 1;
    const packed = span <= 8 && count <= 8;
    keyLo = -1;
    keyHi = -1;
    variant(first, count, lo, span, false, false, packed);
    if (symmetry) {
      variant(first, count, lo, span, false, true, packed);
      variant(first, count, lo, span, true, false, packed);
      variant(first, count, lo, span, true, true, packed);
    }
  };
  const slotOf = (
    lo: number,
    hi: number,
  ): number => ((mix32(lo, hi) >>> shift) & ~1);

  // Bounds: guaranteed moves of a player and the cells nobody will use.
  let gMoves = 0, gUnused = 0;
  const dCells = new Int32Array(PAD);
  const bCells = new Int32Array(PAD);
  const sCells = new Int32Array(PAD);
  const pCells = new Int32Array(PAD);
  const oCells = new Int32Array(PAD);
  let gBlocks = 0;
  const guaranteed = (lines: Int32Array, n: number, toMove: boolean): void => {
    let blocks = 0;
    bCells.fill(0, 0, n + 3);
    if (oneWall) {
      for (let i = 1; i < n; i++) {
        const ok = lines[i] & lines[i + 1] & ~bCells[i - 1] & ~bCells[i] & ~bCells[i + 2];
        const wa = ~lines[i - 1], wb = ~lines[i + 2];
        let v = ok & (ok >>> 1) & ((wa & (wa >>> 1)) | (wb & (wb >>> 1)));
        while (v !== 0) {
          const low = v & -v;
          const pair = low | (low << 1);
          v &= ~pair;
          blocks++;
          bCells[i] |= pair;
          bCells[i + 1] |= pair;
        }
      }
    } else {
      for (let i = 1; i < n; i++) {
        const c = lines[i] & lines[i + 1] & ~lines[i - 1] & ~lines[i + 2] & ~bCells[i];
        if ((c & (c >>> 1)) === 0) continue;
        const bc = pairCells(c);
        blocks += popcount(bc) >>> 1;
        bCells[i] |= bc;
        bCells[i + 1] |= bc;
      }
    }
    let safe = 0, prot = 0, protInD = 0;
    for (let i = 1; i <= n; i++) {
      const l = lines[i];
      if (l === 0) {
        dCells[i] = 0;
        sCells[i] = 0;
        pCells[i] = 0;
        continue;
      }
      const p = l & ~lines[i - 1] & ~lines[i + 1];
      pCells[i] = p;
      const sc = safeShift ? safeCells(p, l & ~bCells[i]) : pairCells(p);
      sCells[i] = sc;
      safe += popcount(sc) >>> 1;
      prot += popcount(p);
      const dc = pairCells(l & ~sc & ~bCells[i]);
      dCells[i] = dc;
      protInD += popcount(dc & p);
    }
    dCells[n + 1] = 0;
    let d1 = 0, d2 = 0, p1 = 0, p2 = 0;
    for (let i = 1; i <= n; i++) {
      let dc = dCells[i];
      const adj = dCells[i - 1] | dCells[i + 1], p = pCells[i];
      while (dc !== 0) {
        const b = dc & -dc;
        const pair = b | (b << 1);
        const hasProt = (p & pair) !== 0 ? 1 : 0;
        if ((adj & pair) !== 0) {
          d2++;
          p2 += hasProt;
        } else {
          d1++;
          p1 += hasProt;
        }
        dc &= ~pair;
      }
    }
    // Weights 1 (block), 1/2 (d1), 1/3 (d2): see the module notes.
    const dw = 3 * d1 + 2 * d2;
    const k = sureMoves(blocks, dw, toMove ? 0 : 1);
    gMoves = safe + k;
    gBlocks = toMove ? (blocks + 1) >>> 1 : blocks >>> 1;
    // Cell weights (x6) for `protectedLast`: each X move is worth 4 cells less the
    // protected cell it covers; see the module notes.
    const psi = protLast && protInD > 0
      ? 24 * blocks + 12 * (d1 - p1) + 9 * p1 + 8 * (d2 - p2) + 6 * p2
      : 0;
    unprot2 = d2 > 0 ? d2 - p2 : -1;
    unprot1 = d1 - p1;
    const base = structureCells(dw, psi, blocks, protInD, toMove ? 0 : 1);
    gUnused = prot - 2 * safe + base - 4 * k;
    if (safeOpts && safe > 0) {
      countOptions(lines, n);
      const paired = pairOptions(opt2, opt1, opt0);
      gUnused += paired;
      let extra = 0;
      if (loneT >= 0) {
        // The lone option: X spends a tempo on it.
        const t = loneT;
        const trick = toMove ? structureCells(dw, psi, blocks, protInD, 1) + 1 + t : Math.min(
          structureCells(dw, psi, blocks, protInD, 0) + Math.max(t - 1, 0),
          structureCells(dw, psi, blocks, protInD, 2) + 1 + t,
        );
        extra = trick - base;
      }
      if (spareTempo && opt0 + opt1 + opt2 > 0 && spare(blocks, d1, d2, toMove)) {
        // A spare tempo: one option of the best kind counts alone, the others in pairs.
        const t = opt2 > 0 ? 2 : opt1 > 0 ? 1 : 0;
        const alone = 1 + t +
          pairOptions(opt2 - (t === 2 ? 1 : 0), opt1 - (t === 1 ? 1 : 0), opt0 - (t === 0 ? 1 : 0));
        if (alone - paired > extra) extra = alone - paired;
      }
      if (extra > 0) gUnused += extra;
    }
  };

  /**
   * Does the parity of X's structures leave X a spare tempo (Bullock's rule)? Moving
   * first, X takes an odd area, else a `d2` when their number is not a multiple of 3,
   * else a `d1` when their number is odd (no spare tempo if none of these applies); with
   * the opponent to move, an odd area counts as two `d2`, and the tempo is spare when
   * exactly one of `d2 mod 3` and `d1 mod 2` is not zero: the opponent must then spend a
   * move to finish off X's structures, or let X take one more, and X plays a lone option
   * when its structures are gone. The tests check the rule (and find each variant of it
   * wrong) against exhaustive search.
   */
  const spare = (b: number, d1: number, d2: number, toMove: boolean): boolean => {
    if (toMove) {
      if (b & 1) b--;
      else if (d2 % 3) d2--;
      else if (d1 & 1) d1--;
      else return false;
    }
    if (b & 1) d2 += 2;
    return (d2 % 3 !== 0) !== (d1 % 2 !== 0);
  };
  /**
   * The structure moves X is sure of (areas first, then vulnerable dominoes of weight
   * `dw` in sixths: 3 for a `d1`, 2 for a `d2`) when the opponent moves `m` times first
   * (each O move destroys one area or at most 4 sixths of the dominoes): the least, over
   * how many of those moves destroy areas, of `areasFirst`.
   */
  const sureMoves = (blocks: number, dw: number, m: number): number => {
    if (!areaTempo) return Math.max(0, Math.ceil((6 * blocks + dw - m * (blocks > 0 ? 6 : 4)) / 6));
    let best = areasFirst(blocks, Math.max(0, dw - 4 * m));
    for (let j = 1; j <= m && j <= blocks; j++) {
      const v = areasFirst(blocks - j, Math.max(0, dw - 4 * (m - j)));
      if (v < best) best = v;
    }
    return best;
  };

  /**
   * X to move with `b` areas and dominoes of weight `dw`: X takes an area (2 moves) each
   * turn while any is left, O at best destroys one each turn (reducing the dominoes
   * instead costs X at most one move per O move, an area two), so X takes `ceil(b / 2)`
   * areas, and when `b` is odd O's reply to the last one hits the dominoes.
   */
  const areasFirst = (b: number, dw: number): number =>
    (b & 1) === 0 ? b + Math.ceil(dw / 6) : b + 1 + Math.ceil(Math.max(0, dw - 4) / 6);

  /** `areasFirst` in cells (`pd`: the dominoes' cell weights x6, see `protectedLast`). */
  const areaCells = (b: number, pd: number): number =>
    (b & 1) === 0 ? 4 * b + Math.ceil(pd / 6) : 4 * b + 4 + Math.ceil(Math.max(0, pd - 16) / 6);

  /**
   * What X's structures (areas, vulnerable dominoes) are sure to be worth in cells when
   * the opponent moves `m` times first: 4 per move X makes, less the protected cells
   * those moves cover (at most one per vulnerable domino; the areas' moves cover none).
   * With `protectedLast`, the moves that surely cover no protected cell are counted over
   * the opponent's choices: `j` of its `m` first moves destroy areas, the others hit
   * dominoes; of the `b - j` areas left X takes `ceil((b - j) / 2)` (2 clean moves each)
   * while the opponent's replies destroy the others, and when `b - j` is odd its reply to
   * the last one hits the dominoes (a reply spent on the dominoes earlier lets X take one
   * more area, 2 clean moves against at most 2 of the dominoes' clean ones lost, so the
   * least is there). Then X's first vulnerable dominoes hold no protected cell while
   * unprotected ones of the kind X is playing are left: before X's `i`-th, X took `i - 1`
   * and the opponent's moves so far on the dominoes (and one reply to each of X's)
   * destroyed at most 2 each (1 each among the `d1`). The least over `j` counts. With
   * `psi` (the cell weights x6 of `protectedLast`), the larger of both counts.
   */
  let unprot2 = -1, unprot1 = 0;
  const structureCells = (
    dw: number,
    psi: number,
    blocks: number,
    protInD: number,
    m: number,
  ): number => {
    const kk = sureMoves(blocks, dw, m);
    let clean = 2 * Math.max(0, (blocks - m + 1) >> 1);
    if (protLast) {
      clean = kk;
      for (let j = 0; j <= m && j <= blocks; j++) {
        const left = blocks - j, mt = m - j + (left & 1);
        let free: number;
        if (unprot2 >= 0) free = unprot2 > 2 * mt ? Math.floor((unprot2 - 1 - 2 * mt) / 3) + 1 : 0;
        else free = unprot1 > mt ? ((unprot1 - 1 - mt) >> 1) + 1 : 0;
        const f = 2 * ((left + 1) >> 1) + free;
        if (f < clean) clean = f;
      }
    }
    let c = 4 * kk -
      (vulnProt ? Math.min(Math.max(0, kk - clean), protInD) : protInD);
    if (psi > 0) {
      let v: number;
      if (!areaTempo) v = Math.max(0, Math.ceil((psi - m * (blocks > 0 ? 24 : 16)) / 6));
      else {
        // As `sureMoves`, in cells: an area X takes is worth 8, O's move on the dominoes
        // removes at most 16 sixths.
        const pd = psi - 24 * blocks;
        v = areaCells(blocks, Math.max(0, pd - 16 * m));
        for (let j = 1; j <= m && j <= blocks; j++) {
          const w = areaCells(blocks - j, Math.max(0, pd - 16 * (m - j)));
          if (w < v) v = w;
        }
      }
      if (v > c) c = v;
    }
    return c;
  };

  /**
   * Safe moves with an option (after `guaranteed`'s packing), counted by the dead ends
   * across from the option into `opt0`, `opt1`, `opt2`: a safe move `ab` with a free cell `c` beside it in the line, `c` and the cells across
   * from it outside every packed structure. X plays such a safe move as `ca` (leaving the
   * protected `b` empty) unless O covered `c`; in a pair of them, when O covers one option
   * X answers at once with the other (O's move touched none of X's structures, X's answer
   * is a move it counts anyway). A dead end across from `c` (a free cell whose other
   * neighbour across is blocked) is lost to O once `c` is covered, unless O's move covering
   * `c` took it. A pair with `t1 >= t2` dead ends leaves at least `1 + t2 + max(t1 - 1, 0)`.
   */
  let opt0 = 0, opt1 = 0, opt2 = 0;
  const countOptions = (lines: Int32Array, n: number): void => {
    let n0 = 0, n1 = 0, n2 = 0;
    oCells.fill(0, 0, n + 2);
    for (let i = 1; i <= n; i++) {
      let s = sCells[i];
      if (s === 0) continue;
      const l = lines[i], up = lines[i + 1], dn = lines[i - 1];
      const near = bCells[i - 1] | dCells[i - 1] | oCells[i - 1] | bCells[i + 1] | dCells[i + 1];
      // Free, not protected, outside every structure, nothing packed across from it.
      const ok = l & (up | dn) & ~sCells[i] & ~bCells[i] & ~dCells[i] & ~near;
      const up2 = lines[i + 2], dn2 = i >= 2 ? lines[i - 2] : 0;
      while (s !== 0) {
        const b = s & -s;
        s &= ~(b | (b << 1));
        let c = (b >>> 1) & ok & ~oCells[i];
        if (c === 0) c = (b << 2) & ok & ~oCells[i];
        if (c === 0) continue;
        oCells[i] |= c;
        const t = ((dn & c) !== 0 && (dn2 & c) === 0 ? 1 : 0) +
          ((up & c) !== 0 && (up2 & c) === 0 ? 1 : 0);
        if (t === 2) n2++;
        else if (t === 1) n1++;
        else n0++;
      }
    }
    opt0 = n0;
    opt1 = n1;
    opt2 = n2;
  };

  /**
   * The cells kept empty by options in pairs, best with best: (2, 2) leaves 4, (1, 1) 2,
   * (0, 0) 1; a lone one with the next kind: (2, 1) 3, (2, 0) 2, (1, 0) 1. Sets `loneT` to
   * the dead ends of the option left alone (-1: none).
   */
  let loneT = -1;
  const pairOptions = (n2: number, n1: number, n0: number): number => {
    loneT = -1;
    let gain = (n2 >>> 1) * 4;
    if (n2 & 1) {
      if (n1 > 0) {
        gain += 3;
        n1--;
      } else if (n0 > 0) {
        gain += 2;
        n0--;
      } else loneT = 2;
    }
    gain += (n1 >>> 1) * 2;
    if (n1 & 1) {
      if (n0 > 0) {
        gain += 1;
        n0--;
      } else loneT = 1;
    }
    if (n0 & 1) loneT = 0;
    return gain + (n0 >>> 1);
  };

  // Move lists live on one stack; scores beside them.
  let stackSize = 1 << 14;
  let mv = new Int32Array(stackSize), sc = new Int32Array(stackSize);
  const ensure = (n: number) => {
    if (n <= stackSize) return;
    while (stackSize < n) stackSize *= 2;
    const m2 = new Int32Array(stackSize), s2 = new Int32Array(stackSize);
    m2.set(mv);
    s2.set(sc);
    mv = m2;
    sc = s2;
  };

  /** Generates the mover's moves at `base`, ordered best first; returns how many. */
  const generate = (
    mine: Int32Array,
    theirs: Int32Array,
    nm: number,
    base: number,
    safeToo: boolean,
  ): number => {
    const posBase = mine === rowsView ? 0 : PAD << 5;
    ensure(base + nm * SOLVER_MAX_SIDE + 1);
    let n = 0;
    for (let pass = 0; pass < 2 && n === 0; pass++) {
      const withSafe = safeToo || !skipSafe || pass === 1;
      for (let i = 1; i <= nm; i++) {
        const l = mine[i];
        const up = mine[i + 1], dn = mine[i - 1];
        let m = l & (l >>> 1);
        if (!withSafe) {
          const pr = ~up & ~dn;
          m &= ~(pr & (pr >>> 1));
        }
        while (m !== 0) {
          const b = m & -m;
          m ^= b;
          const j = 31 - Math.clz32(b);
          let s = 0;
          if (ordering) {
            const bi = 1 << (i - 1);
            const l2 = l ^ (3 << j);
            const dn2 = i >= 2 ? mine[i - 2] : 0, up2 = mine[i + 2];
            const dMine = pairsOf(l2) - pairsOf(l);
            const dMineSafe = pairsOf(l2 & ~dn & ~up) - pairsOf(l & ~dn & ~up) +
              pairsOf(dn & ~dn2 & ~l2) - pairsOf(dn & ~dn2 & ~l) +
              pairsOf(up & ~up2 & ~l2) - pairsOf(up & ~up2 & ~l);
            const t0 = theirs[j], t1 = theirs[j + 1], t2 = theirs[j + 2], t3 = theirs[j + 3];
            const tm = j > 0 ? theirs[j - 1] : 0, t4 = theirs[j + 4];
            const t1n = t1 ^ bi, t2n = t2 ^ bi;
            const dTheirs = pairsOf(t1n) - pairsOf(t1) + pairsOf(t2n) - pairsOf(t2);
            // The opponent's safe moves gained beside the move (lines j and j + 3).
            const adj = pairsOf(t0 & ~tm & ~t1n) - pairsOf(t0 & ~tm & ~t1) +
              pairsOf(t3 & ~t2n & ~t4) - pairsOf(t3 & ~t2 & ~t4);
            if (usePos) {
              // Bullock's score: the change in both players' moves and safe moves, then
              // the domino's positional value as the tie-break.
              s = (dMine + dMineSafe - dTheirs - adj) * 128 + pos[posBase + (i << 5) + j];
            } else {
              const dTheirSafe = adj + pairsOf(t1n & ~t0 & ~t2n) - pairsOf(t1 & ~t0 & ~t2) +
                pairsOf(t2n & ~t1n & ~t3) - pairsOf(t2 & ~t1 & ~t3);
              s = 4 * dMineSafe - 4 * dTheirs - 4 * dTheirSafe + 3 * dMine;
            }
          }
          mv[base + n] = (i << 5) | j;
          sc[base + n] = s;
          n++;
        }
      }
    }
    if (ordering) {
      for (let a = 1; a < n; a++) {
        const m = mv[base + a], s = sc[base + a];
        let c = a - 1;
        while (c >= 0 && sc[base + c] < s) {
          mv[base + c + 1] = mv[base + c];
          sc[base + c + 1] = sc[base + c];
          c--;
        }
        mv[base + c + 1] = m;
        sc[base + c + 1] = s;
      }
    }
    return n;
  };

  /** True when the player to move (playing along `mine`'s lines) wins. */
  const win = (
    mine: Int32Array,
    theirs: Int32Array,
    nm: number,
    nt: number,
    base: number,
  ): boolean => {
    if ((++nodes & 4095) === 0 && shouldStop !== undefined && shouldStop()) {
      throw new SolveStopped();
    }
    let myMax = 0, mySafe = 0, cells = 0;
    for (let i = 1; i <= nm; i++) {
      const l = mine[i];
      if (l === 0) continue;
      myMax += pairsOf(l);
      mySafe += pairsOf(l & ~mine[i - 1] & ~mine[i + 1]);
      cells += popcount(l);
    }
    if (myMax === 0) return false;
    let thMax = 0, thSafe = 0;
    for (let k = 1; k <= nt; k++) {
      const t = theirs[k];
      if (t === 0) continue;
      thMax += pairsOf(t);
      thSafe += pairsOf(t & ~theirs[k - 1] & ~theirs[k + 1]);
    }
    if (mySafe > thMax) return true;
    if (thSafe >= myMax) return false;

    canon(mine, nm);
    const k0 = keyLo, k1 = keyHi;
    const slot = slotOf(k0, k1);
    const e = slot << 2;
    const d0 = tt[e + 2];
    if (d0 !== 0 && (tt[e] ^ d0) === k0 && (tt[e + 1] ^ d0) === k1) {
      hits++;
      return (d0 & 3) === 2;
    }
    const d1 = tt[e + 6];
    if (d1 !== 0 && (tt[e + 4] ^ d1) === k0 && (tt[e + 5] ^ d1) === k1) {
      hits++;
      return (d1 & 3) === 2;
    }

    if (useVuln) {
      guaranteed(mine, nm, true);
      if (gMoves > thMax - 2 * gBlocks || 4 * gMoves + gUnused > cells) return true;
      guaranteed(theirs, nt, false);
      if (gMoves >= myMax - 2 * gBlocks || 4 * gMoves + 2 + gUnused > cells) return false;
    }

    const start = nodes;
    const n = generate(mine, theirs, nm, base, false);
    let result = false;
    for (let a = 0; a < n; a++) {
      const m = mv[base + a], i = m >>> 5, j = m & 31;
      const bi = 1 << (i - 1);
      mine[i] ^= 3 << j;
      theirs[j + 1] ^= bi;
      theirs[j + 2] ^= bi;
      const r = win(theirs, mine, nt, nm, base + n);
      mine[i] ^= 3 << j;
      theirs[j + 1] ^= bi;
      theirs[j + 2] ^= bi;
      if (!r) {
        result = true;
        break;
      }
    }
    const work = Math.min(nodes - start, WORK_MAX);
    const held = tt[e + 2];
    const same = held !== 0 && (tt[e] ^ held) === k0 && (tt[e + 1] ^ held) === k1;
    const f = !same && held >>> 2 > work ? e + 4 : e;
    const d = (work << 2) | (result ? 2 : 1);
    tt[f] = k0 ^ d;
    tt[f + 1] = k1 ^ d;
    tt[f + 2] = d;
    return result;
  };

  const load = (input: SolveInput): void => {
    const { width: w, height: h } = input;
    if (w < 1 || h < 1 || w > SOLVER_MAX_SIDE || h > SOLVER_MAX_SIDE) {
      throw new RangeError(`the solver takes boards up to ${SOLVER_MAX_SIDE}x${SOLVER_MAX_SIDE}`);
    }
    rowsView.fill(0);
    colsView.fill(0);
    for (let r = 0; r < h; r++) {
      const row = input.rows[r] & ((1 << w) - 1);
      rowsView[r + 1] = row;
      for (let c = 0; c < w; c++) if ((row >>> c) & 1) colsView[c + 1] |= 1 << r;
    }
  };

  const bounds = (input: SolveInput): MoveBounds => {
    load(input);
    const horizontal = input.mover === "H";
    const mine = horizontal ? rowsView : colsView, theirs = horizontal ? colsView : rowsView;
    const nm = horizontal ? input.height : input.width,
      nt = horizontal ? input.width : input.height;
    let moverMax = 0, opponentMax = 0, cells = 0;
    for (let i = 1; i <= nm; i++) {
      moverMax += pairsOf(mine[i]);
      cells += popcount(mine[i]);
    }
    for (let k = 1; k <= nt; k++) opponentMax += pairsOf(theirs[k]);
    guaranteed(mine, nm, true);
    const moverSure = gMoves, moverUnused = gUnused;
    const wins = gMoves > opponentMax - 2 * gBlocks || 4 * gMoves + gUnused > cells;
    guaranteed(theirs, nt, false);
    const opponentSure = gMoves, opponentUnused = gUnused;
    const loses = gMoves >= moverMax - 2 * gBlocks || 4 * gMoves + 2 + gUnused > cells;
    return {
      moverSure,
      opponentSure,
      moverMax,
      opponentMax,
      moverUnused,
      opponentUnused,
      verdict: wins ? "win" : loses ? "loss" : undefined,
    };
  };

  /**
   * Loads a position, sets the positional values from its board and generates the mover's moves
   * (safe moves too with `safeToo`) at the stack's base, in the order they are searched.
   */
  const rootMoves = (input: SolveInput, safeToo: boolean) => {
    const { width: w, height: h } = input;
    load(input.board === undefined ? input : { ...input, rows: input.board });
    positional(pos, 0, rowsView, h);
    positional(pos, PAD << 5, colsView, w);
    if (input.board !== undefined) load(input);
    const horizontal = input.mover === "H";
    const mine = horizontal ? rowsView : colsView, theirs = horizontal ? colsView : rowsView;
    const nm = horizontal ? h : w, nt = horizontal ? w : h;
    const n = generate(mine, theirs, nm, 0, safeToo);
    const toIndex = (m: number) => {
      const i = (m >>> 5) - 1, j = m & 31;
      return horizontal ? i * w + j : j * w + i;
    };
    return { mine, theirs, nm, nt, n, toIndex };
  };

  const solve = (input: SolveInput, call: SolveCallOptions = {}): Solution => {
    const t0 = performance.now();
    const allWinning = call.allWinning === true;
    shouldStop = call.shouldStop;
    const { mine, theirs, nm, nt, n, toIndex } = rootMoves(input, allWinning);
    const totalBefore = total;
    nodes = 1;
    let best = -1, bestWork = -1, wins = false;
    const winning: number[] = [];
    try {
      for (let a = 0; a < n; a++) {
        const m = mv[a], i = m >>> 5, j = m & 31;
        const bi = 1 << (i - 1);
        const before = nodes;
        // A stop request is honoured between root moves too (a fast root move may settle
        // between two polls).
        if (a > 0 && shouldStop !== undefined && shouldStop()) throw new SolveStopped();
        const settled = (settledWins: boolean) =>
          call.onRootMove?.({
            done: a + 1,
            total: n,
            moverWins: wins,
            move: best,
            nodes,
            settled: toIndex(m),
            settledWins,
          });
        mine[i] ^= 3 << j;
        theirs[j + 1] ^= bi;
        theirs[j + 2] ^= bi;
        let r: boolean;
        try {
          r = win(theirs, mine, nt, nm, n);
        } finally {
          mine[i] ^= 3 << j;
          theirs[j + 1] ^= bi;
          theirs[j + 2] ^= bi;
        }
        if (!r) {
          if (!wins) best = toIndex(m);
          wins = true;
          winning.push(toIndex(m));
        } else if (!wins && nodes - before > bestWork) {
          bestWork = nodes - before;
          best = toIndex(m);
        }
        settled(!r);
        if (wins && !allWinning) break;
      }
    } finally {
      total += nodes;
      nodes = 0;
    }
    winning.sort((a, b) => a - b);
    return {
      moverWins: wins,
      move: best,
      ...(allWinning ? { winning } : {}),
      nodes: total - totalBefore,
      timeMs: performance.now() - t0,
    };
  };

  return {
    solve,
    orderedMoves: (input) => {
      const { n, toIndex } = rootMoves(input, false);
      return Array.from({ length: n }, (_, a) => toIndex(mv[a]));
    },
    bounds,
    totalNodes: () => total + nodes,
    hits: () => hits,
    clear: () => {
      tt.fill(0);
    },
  };
};
