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
 * - **Move ordering.** Each move is scored by how it changes both players' moves and safe
 *   moves (taking the opponent's away, keeping and creating the mover's own), best first.
 *
 * **The bounds.** For a player X (the mover, or its opponent O), count in X's lines:
 * - `s` safe moves (greedy pairs of protected cells): O can never touch them;
 * - `b` *blocks*: free 2x2 squares whose two outer sides are blocked, so O can only play
 *   inside them. If X plays one of the two dominoes, the other becomes safe: 2 moves.
 * - `d1 + d2` other disjoint X dominoes, where one O domino can hit two of the `d2`
 *   (cells one above the other) but only one of the `d1`.
 * X plays blocks first, then `d2`, then `d1`, then its safe moves. With weights 1 for a
 * block, 1/2 for a `d1`, 1/3 for a `d2`, every round (X's move, O's reply) secures X at
 * least as many moves as the weight it removes (X's block secures 2 and O removes at most
 * weight 1; X's `d2` secures 1 against at most 1/3 + 2/3). So X is sure of
 * `G = s + ceil(b + d1/2 + d2/3)` moves when it moves first (one O move earlier when it
 * does not: subtract 1 if `b > 0`, else 2/3). O can make at most `M` moves: the sum of
 * `floor(run / 2)` over the runs of free cells in O's lines, minus 2 for every block X
 * takes (at least `ceil(b / 2)` of them). X to move wins if `G > M`. Counting cells gives a
 * second test: when X moving first is stuck after `p >= G` moves, both players have
 * covered `4p` cells, none of them among the `u` protected cells X does not use, so X
 * wins if `4G + u` exceeds the free cells. The opponent's tests are the same with the
 * tempo moved (`G >= M`, `4G + 2 + u > free`). The tests in `tests/` check every result
 * against a plain search to the end on random shapes.
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
  /** log2 of the number of transposition-table entries (default 22: 4M entries, ~54 MB). */
  readonly ttBits?: number;
  /** Merge mirror images in the table (default true). */
  readonly symmetry?: boolean;
  /** Use the guaranteed-moves bounds beyond plain safe moves (default true). */
  readonly vulnerableBounds?: boolean;
  /** Skip safe moves while other moves exist (default true). */
  readonly skipSafeMoves?: boolean;
  /** Order moves by their effect on both players' moves (default true). */
  readonly ordering?: boolean;
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
}

/** A reusable solver (its transposition table persists between calls). */
export interface Solver {
  /** Solves a position (see `SolveCallOptions`); throws `SolveStopped` when told to stop. */
  solve(input: SolveInput, options?: SolveCallOptions): Solution;
  /** Total nodes visited by this solver since it was made. */
  readonly totalNodes: () => number;
  /** Positions answered by the transposition table since the solver was made. */
  readonly hits: () => number;
  /** Empties the transposition table. */
  clear(): void;
}

const PAD = SOLVER_MAX_SIDE + 3;

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
  let shouldStop: (() => boolean) | undefined;

  // Transposition table: 2-way buckets (slot 0 keeps the bigger subtree, slot 1 the newest).
  const size = 1 << ttBits;
  // One array, four ints per entry (key low, key high, result, work) so that a bucket
  // is 32 bytes: one cache line. Result: 0 empty, 1 the mover loses, 2 the mover wins.
  const tt = new Int32Array(size * 4);
  const shift = 32 - ttBits;

  let nodes = 0, total = 0, hits = 0;

  // The two views: rows (H's lines) and columns (V's lines), padded with a zero line on each side.
  const rowsView = new Int32Array(PAD), colsView = new Int32Array(PAD);

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
  let gBlocks = 0;
  const guaranteed = (lines: Int32Array, n: number, toMove: boolean): void => {
    let blocks = 0;
    bCells.fill(0, 0, n + 2);
    for (let i = 1; i < n; i++) {
      const c = lines[i] & lines[i + 1] & ~lines[i - 1] & ~lines[i + 2] & ~bCells[i];
      if ((c & (c >>> 1)) === 0) continue;
      const bc = pairCells(c);
      blocks += popcount(bc) >>> 1;
      bCells[i] |= bc;
      bCells[i + 1] |= bc;
    }
    let safe = 0, prot = 0, protInD = 0;
    for (let i = 1; i <= n; i++) {
      const l = lines[i];
      if (l === 0) {
        dCells[i] = 0;
        continue;
      }
      const p = l & ~lines[i - 1] & ~lines[i + 1];
      const sc = pairCells(p);
      safe += popcount(sc) >>> 1;
      prot += popcount(p);
      const dc = pairCells(l & ~sc & ~bCells[i]);
      dCells[i] = dc;
      protInD += popcount(dc & p);
    }
    dCells[n + 1] = 0;
    let d1 = 0, d2 = 0;
    for (let i = 1; i <= n; i++) {
      let dc = dCells[i];
      const adj = dCells[i - 1] | dCells[i + 1];
      while (dc !== 0) {
        const b = dc & -dc;
        const pair = b | (b << 1);
        if ((adj & pair) !== 0) d2++;
        else d1++;
        dc &= ~pair;
      }
    }
    // Weights 1 (block), 1/2 (d1), 1/3 (d2): see the module notes.
    const phi = 6 * blocks + 3 * d1 + 2 * d2;
    const first = blocks > 0 ? 6 : 4;
    const k = toMove ? Math.ceil(phi / 6) : Math.max(0, Math.ceil((phi - first) / 6));
    gMoves = safe + k;
    gUnused = prot - 2 * safe - protInD;
    gBlocks = toMove ? (blocks + 1) >>> 1 : blocks >>> 1;
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
            const dTheirSafe = pairsOf(t0 & ~tm & ~t1n) - pairsOf(t0 & ~tm & ~t1) +
              pairsOf(t1n & ~t0 & ~t2n) - pairsOf(t1 & ~t0 & ~t2) +
              pairsOf(t2n & ~t1n & ~t3) - pairsOf(t2 & ~t1 & ~t3) +
              pairsOf(t3 & ~t2n & ~t4) - pairsOf(t3 & ~t2 & ~t4);
            s = 4 * dMineSafe - 4 * dTheirs - 4 * dTheirSafe + 3 * dMine;
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
    if (tt[e + 2] !== 0 && tt[e] === k0 && tt[e + 1] === k1) {
      hits++;
      return tt[e + 2] === 2;
    }
    if (tt[e + 6] !== 0 && tt[e + 4] === k0 && tt[e + 5] === k1) {
      hits++;
      return tt[e + 6] === 2;
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
    const work = Math.min(nodes - start, 0x7fffffff);
    let f = e;
    if (!(tt[e + 2] !== 0 && tt[e] === k0 && tt[e + 1] === k1) && tt[e + 3] > work) f = e + 4;
    tt[f] = k0;
    tt[f + 1] = k1;
    tt[f + 2] = result ? 2 : 1;
    tt[f + 3] = work;
    return result;
  };

  const solve = (input: SolveInput, call: SolveCallOptions = {}): Solution => {
    const t0 = performance.now();
    const allWinning = call.allWinning === true;
    shouldStop = call.shouldStop;
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
    const horizontal = input.mover === "H";
    const mine = horizontal ? rowsView : colsView, theirs = horizontal ? colsView : rowsView;
    const nm = horizontal ? h : w, nt = horizontal ? w : h;
    const totalBefore = total;
    nodes = 1;
    const n = generate(mine, theirs, nm, 0, allWinning);
    let best = -1, bestWork = -1, wins = false;
    const winning: number[] = [];
    const toIndex = (m: number) => {
      const i = (m >>> 5) - 1, j = m & 31;
      return horizontal ? i * w + j : j * w + i;
    };
    try {
      for (let a = 0; a < n; a++) {
        const m = mv[a], i = m >>> 5, j = m & 31;
        const bi = 1 << (i - 1);
        const before = nodes;
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
        call.onRootMove?.({ done: a + 1, total: n, moverWins: wins, move: best, nodes });
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
    totalNodes: () => total + nodes,
    hits: () => hits,
    clear: () => {
      tt.fill(0);
    },
  };
};
