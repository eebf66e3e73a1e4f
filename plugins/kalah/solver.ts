/**
 * The exact Kalah solver: MTD(f) over a fail-soft null-window alpha-beta (negamax with
 * extra turns), a two-way transposition table of value bounds keyed by the houses
 * only, Kalah move ordering, futility bounds from the stones left, and an endgame
 * database (`db.ts`) for positions with few stones left.
 *
 * Values are the mover's *future* net gain (see `db.ts`): what the stores already hold
 * does not matter, so transpositions that differ only in the stores share one entry.
 * The final margin is the store difference plus that gain.
 *
 * @module
 */
import { laneA } from "../../core/hash.ts";
import {
  type EndgameDb,
  flipHalves,
  predictSow,
  rankFlipped,
  rankPosition,
  sowRelative,
} from "./db.ts";

/** How the solver is set up. */
export interface SolverOptions {
  /** Houses per side. */
  readonly pits: number;
  /** True for seed 000's capture rule. */
  readonly captureAlways: boolean;
  /** An endgame database for the same board and rule, if any. */
  readonly db?: EndgameDb;
  /** Transposition table memory in megabytes (default 256). */
  readonly ttMb?: number;
  /** Polled every 65536 nodes; true stops the solve (it then throws `SolveStopped`). */
  readonly shouldStop?: () => boolean;
}

/** Thrown out of a solve that was stopped. */
export class SolveStopped extends Error {
  /** Creates the sentinel. */
  constructor() {
    super("solve stopped");
  }
}

/** The outcome of solving one position. */
export interface Solved {
  /** The mover's future net gain under perfect play. */
  readonly value: number;
  /** An optimal move (house from the mover's left, from 0), or -1 at the end. */
  readonly move: number;
  /** Positions searched. */
  readonly nodes: number;
  /** Null-window passes MTD(f) made. */
  readonly passes: number;
}

/**
 * One null-window pass of MTD(f) done (`KalahSolver.solve`'s progress): the bounds the
 * passes so far proved, the next guess, and the work so far. Values are the mover's
 * future net gain, as `Solved.value`.
 */
export interface PassReport {
  /** The value is at least this. */
  readonly lower: number;
  /** The value is at most this. */
  readonly upper: number;
  /** The next pass's test value (the last pass's fail-soft result). */
  readonly guess: number;
  /** The best move proved so far (by the last fail-high), or -1. */
  readonly move: number;
  /** Passes made so far. */
  readonly passes: number;
  /** Positions searched so far by this solve. */
  readonly nodes: number;
}

/** Bytes per table entry (two 32-bit checks, two 16-bit bounds, move, work). */
const ENTRY_BYTES = 16;
const NONE = -32768;
/** A child value not known before searching it. */
const UNKNOWN = -1 << 30;

/**
 * A solver for one board width and capture rule; its table persists between solves
 * (every entry is a true bound, valid forever).
 */
export class KalahSolver {
  /** Houses per side. */
  readonly pits: number;
  /** Nodes searched so far (over all solves). */
  nodes = 0;
  /** Table probes that found their position, so far (over all solves). */
  hits = 0;
  /** True for seed 000's capture rule. */
  readonly captureAlways: boolean;
  private readonly k: number;
  private readonly db: EndgameDb | undefined;
  private readonly dbMax: number;
  private readonly mask: number;
  /**
   * The table: buckets of two entries of four 32-bit words (one cache line holds a
   * bucket): the two hash checks, the bounds (`lo << 16 | hi & 0xffff`) and
   * `work << 8 | move + 1` (work 0 marks an empty entry).
   */
  private readonly table: Int32Array;
  private readonly z1: Int32Array;
  private readonly z2: Int32Array;
  /** `z1`, `z2` with the halves swapped: house j's keys are those of house j + n. */
  private readonly y1: Int32Array;
  private readonly y2: Int32Array;
  private readonly zMax: number;
  private stack: Int32Array;
  /**
   * Per ply: the children's moves, gains, kinds, stones and known values, and the
   * boards of those the database settles (the others are sown only when searched).
   */
  private kids: Int32Array;
  private cMove: Int32Array;
  private cGain: Int32Array;
  private cFlag: Int32Array;
  private cLeft: Int32Array;
  private cVal: Int32Array;
  private order: Int32Array;
  private score: Int32Array;
  private readonly flag = new Int32Array(3);
  private shouldStop: (() => boolean) | undefined;
  private bounds = { lower: -Infinity, upper: Infinity, move: -1 };
  /** Per ply: the four keys of its houses (see `hashRoot`). */
  private hs: Int32Array;

  /** Creates a solver (allocates the table). */
  constructor(options: SolverOptions) {
    this.pits = options.pits;
    this.k = 2 * options.pits;
    this.captureAlways = options.captureAlways;
    if (options.db !== undefined) {
      if (options.db.pits !== options.pits || options.db.captureAlways !== options.captureAlways) {
        throw new RangeError("the endgame database is for another board or capture rule");
      }
    }
    this.db = options.db;
    this.dbMax = options.db?.maxStones ?? -1;
    const mb = options.ttMb ?? 256;
    const buckets = 2 ** Math.max(9, Math.floor(Math.log2((mb * 1024 * 1024) / (2 * ENTRY_BYTES))));
    this.mask = buckets - 1;
    this.table = new Int32Array(buckets * 8);
    this.zMax = 128;
    this.z1 = new Int32Array(this.k * this.zMax);
    this.z2 = new Int32Array(this.k * this.zMax);
    let seed = 0x2545f491;
    const rnd = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed | 0;
    };
    for (let i = 0; i < this.z1.length; i++) {
      this.z1[i] = rnd();
      this.z2[i] = rnd();
    }
    const half = this.pits * this.zMax;
    this.y1 = new Int32Array(this.z1.length);
    this.y2 = new Int32Array(this.z2.length);
    this.y1.set(this.z1.subarray(half));
    this.y1.set(this.z1.subarray(0, half), half);
    this.y2.set(this.z2.subarray(half));
    this.y2.set(this.z2.subarray(0, half), half);
    const plies = 64, n = this.pits;
    this.stack = new Int32Array(plies * this.k);
    this.hs = new Int32Array(plies * 4);
    this.kids = new Int32Array(plies * n * this.k);
    this.cMove = new Int32Array(plies * n);
    this.cGain = new Int32Array(plies * n);
    this.cFlag = new Int32Array(plies * n);
    this.cLeft = new Int32Array(plies * n);
    this.cVal = new Int32Array(plies * n);
    this.order = new Int32Array(plies * n);
    this.score = new Int32Array(plies * n);
    this.shouldStop = options.shouldStop;
  }

  /** Sets (or clears) the stop test polled during searches. */
  setStop(test: (() => boolean) | undefined): void {
    this.shouldStop = test;
  }

  /** The bounds the last (possibly interrupted) `solve` had proved, and its best move. */
  lastBounds(): { readonly lower: number; readonly upper: number; readonly move: number } {
    return { ...this.bounds };
  }

  /** The table's memory in bytes. */
  get tableBytes(): number {
    return (this.mask + 1) * 2 * ENTRY_BYTES;
  }

  /** The share of table slots in use (sampled). */
  tableFill(): number {
    const n = Math.min(2 * (this.mask + 1), 65536);
    let used = 0;
    for (let i = 0; i < n; i++) if (this.table[4 * i + 3] !== 0) used++;
    return used / n;
  }

  /** Grows the per-ply arrays to hold `ply` and its children. */
  private ensure(ply: number): void {
    if ((ply + 2) * this.k <= this.stack.length) return;
    const plies = Math.max(2 * (this.stack.length / this.k), ply + 2);
    const n = this.pits;
    const grow32 = (a: Int32Array, size: number) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.stack = grow32(this.stack, plies * this.k);
    this.hs = grow32(this.hs, plies * 4);
    this.kids = grow32(this.kids, plies * n * this.k);
    this.cMove = grow32(this.cMove, plies * n);
    this.cGain = grow32(this.cGain, plies * n);
    this.cFlag = grow32(this.cFlag, plies * n);
    this.cLeft = grow32(this.cLeft, plies * n);
    this.cVal = grow32(this.cVal, plies * n);
    this.order = grow32(this.order, plies * n);
    this.score = grow32(this.score, plies * n);
  }

  /** One house's share of a Zobrist key: `z` keys house `j`'s counts below `zMax`. */
  private zKey(z: Int32Array, j: number, v: number): number {
    const zMax = this.zMax;
    return v < zMax ? z[j * zMax + v] : laneA(z[j * zMax], v);
  }

  /**
   * Sets the root's keys `hs[0 .. 3]` from its houses `stack[0 ..]`: two 32-bit Zobrist
   * keys as they stand, then two of the halves swapped (the opponent's view), so that
   * a child's keys follow from its parent's whichever side moves next (`hashChild`).
   */
  private hashRoot(): void {
    const h = this.stack, hs = this.hs;
    let a1 = 0, a2 = 0, b1 = 0, b2 = 0;
    const z1 = this.z1, z2 = this.z2, y1 = this.y1, y2 = this.y2;
    for (let j = 0; j < this.k; j++) {
      const v = h[j];
      a1 ^= this.zKey(z1, j, v);
      a2 ^= this.zKey(z2, j, v);
      b1 ^= this.zKey(y1, j, v);
      b2 ^= this.zKey(y2, j, v);
    }
    hs[0] = a1;
    hs[1] = a2;
    hs[2] = b1;
    hs[3] = b2;
  }

  /**
   * Sets the keys of ply `ply + 1` (`hs[4 * ply + 4 ..]`) from those of ply `ply`: its
   * houses `h[off + 2n ..]` were just sown from `h[off ..]` and not yet flipped; only the
   * houses that changed count, and `flip` swaps the two views.
   */
  private hashChild(h: Int32Array, off: number, ply: number, flip: boolean): void {
    const hs = this.hs, at = 4 * ply, coff = off + this.k;
    let a1 = hs[at], a2 = hs[at + 1], b1 = hs[at + 2], b2 = hs[at + 3];
    const z1 = this.z1, z2 = this.z2, y1 = this.y1, y2 = this.y2;
    for (let j = 0; j < this.k; j++) {
      const v = h[off + j], w = h[coff + j];
      if (v !== w) {
        a1 ^= this.zKey(z1, j, v) ^ this.zKey(z1, j, w);
        a2 ^= this.zKey(z2, j, v) ^ this.zKey(z2, j, w);
        b1 ^= this.zKey(y1, j, v) ^ this.zKey(y1, j, w);
        b2 ^= this.zKey(y2, j, v) ^ this.zKey(y2, j, w);
      }
    }
    const to = at + 4;
    if (flip) {
      hs[to] = b1;
      hs[to + 1] = b2;
      hs[to + 2] = a1;
      hs[to + 3] = a2;
    } else {
      hs[to] = a1;
      hs[to + 1] = a2;
      hs[to + 2] = b1;
      hs[to + 3] = b2;
    }
  }

  /** The table offset of the entry for the keys `h1`, `h2`, or -1. */
  private probe(h1: number, h2: number): number {
    const t = this.table;
    const i = (h1 & this.mask) << 3;
    if (t[i] === h1 && t[i + 1] === h2 && t[i + 3] !== 0) return i;
    if (t[i + 4] === h1 && t[i + 5] === h2 && t[i + 7] !== 0) return i + 4;
    return -1;
  }

  /**
   * The slot to record the keys `h1`, `h2` in, chosen when probing (the bucket is then
   * in cache): the probed entry `slot` if found, else the one that cost less to compute.
   */
  private victim(h1: number, slot: number): number {
    if (slot >= 0) return slot;
    const t = this.table, b = (h1 & this.mask) << 3;
    return ((t[b + 7] >>> 8) & 0xff) < ((t[b + 3] >>> 8) & 0xff) ? b + 4 : b;
  }

  /**
   * Records bounds, best move and work (log2 nodes) for the keys `h1`, `h2` in the
   * slot `victim` chose, without reading it again (the subtree searched since has
   * likely pushed it out of the cache). `prior` and `priorMeta` are the bounds and
   * move word found there when probing (`prior` is 0 when nothing was): bounds are
   * true forever, so the new ones are intersected with them.
   */
  private put(
    at: number,
    h1: number,
    h2: number,
    lo: number,
    hi: number,
    move: number,
    work: number,
    prior: number,
    priorMeta: number,
  ): void {
    const t = this.table;
    let w = work < 1 ? 1 : work > 255 ? 255 : work;
    let mv = move + 1;
    if (priorMeta !== 0) {
      const olo = prior >> 16, ohi = (prior << 16) >> 16;
      if (olo > lo) lo = olo;
      if (ohi < hi) hi = ohi;
      const ow = (priorMeta >>> 8) & 0xff;
      if (ow > w) w = ow;
      if (move < 0) mv = priorMeta & 0xff;
    }
    t[at] = h1;
    t[at + 1] = h2;
    t[at + 2] = (lo << 16) | (hi & 0xffff);
    t[at + 3] = (w << 8) | mv;
  }

  /**
   * The null-window (or any-window) fail-soft search of the position at `ply`; its
   * houses are `stack[ply * 2n ..]`, holding `stones` stones.
   *
   * Every move is first foretold (`predictSow`): games it ends and database positions
   * it reaches are exact at once and come first; the others are ordered and sown only
   * when searched.
   */
  private search(ply: number, alpha: number, beta: number, stones: number): number {
    const nodes = ++this.nodes;
    if ((nodes & 0xffff) === 0 && this.shouldStop !== undefined && this.shouldStop()) {
      throw new SolveStopped();
    }
    const n = this.pits, k = this.k;
    const off = ply * k;
    const h = this.stack;
    if (stones <= this.dbMax && ply > 0) {
      return this.db!.values[rankPosition(this.db!, h, off, stones)];
    }
    // Futility: the future gain lies within +-stones (not at the root, which must name
    // a move even when the bound alone settles the test).
    if (ply > 0) {
      if (stones <= alpha) return stones;
      if (-stones >= beta) return -stones;
    }
    let ttMove = -1;
    const hs = this.hs, hat = 4 * ply;
    const h1 = hs[hat], h2 = hs[hat + 1];
    const slot = this.probe(h1, h2);
    const dst = this.victim(h1, slot);
    let prior = 0, priorMeta = 0;
    if (slot >= 0) {
      this.hits++;
      const t = this.table;
      prior = t[slot + 2];
      priorMeta = t[slot + 3];
      ttMove = (t[slot + 3] & 0xff) - 1;
      if (ply > 0) {
        const bounds = t[slot + 2];
        const lo = bounds >> 16, hi = (bounds << 16) >> 16;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo === hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
      }
    }
    this.ensure(ply + 1);
    const kids = this.kids, info = ply * n, kb = info * k;
    const cMove = this.cMove, cGain = this.cGain, cFlag = this.cFlag, cLeft = this.cLeft;
    const cVal = this.cVal, order = this.order, score = this.score;
    const flag = this.flag, db = this.db, dbMax = this.dbMax, always = this.captureAlways;
    let mine = 0;
    for (let j = off; j < off + n; j++) mine += h[j];
    const theirs = stones - mine;
    let count = 0;
    for (let i = n - 1; i >= 0; i--) {
      if (h[off + i] === 0) continue;
      const x = info + count;
      const gain = predictSow(h, off, n, i, always, flag, mine, theirs);
      const f = flag[0], left = flag[1] + flag[2];
      cMove[x] = i;
      cGain[x] = gain;
      cFlag[x] = f;
      cLeft[x] = left;
      // An exact value when it is free: the end of the game, or the database (whose
      // children are sown here; the others only when searched).
      let v = UNKNOWN;
      if (f === 2) v = gain;
      else if (left <= dbMax) {
        const cb = kb + count * k;
        for (let j = 0; j < k; j++) kids[cb + j] = h[off + j];
        sowRelative(kids, cb, n, i, always, flag, mine, theirs);
        const cv = f === 1
          ? db!.values[rankPosition(db!, kids, cb, left)]
          : db!.values[rankFlipped(db!, kids, cb, left)];
        v = f === 1 ? gain + cv : gain - cv;
      }
      if (v !== UNKNOWN && v >= beta) {
        this.put(dst, h1, h2, v, stones, i, 1, prior, priorMeta);
        if (ply === 0) this.rootMove = i;
        return v;
      }
      cVal[x] = v;
      // Order: known values first (they cost nothing and raise alpha), the table's
      // move, extra turns (nearest the store first), then by immediate gain.
      let sc: number;
      if (v !== UNKNOWN) sc = (1 << 22) + v;
      else if (i === ttMove) sc = 1 << 21;
      else if (f === 1) sc = (1 << 16) + i;
      else sc = (gain << 8) + i;
      let p = count++;
      while (p > 0 && score[info + p - 1] < sc) {
        score[info + p] = score[info + p - 1];
        order[info + p] = order[info + p - 1];
        p--;
      }
      score[info + p] = sc;
      order[info + p] = x - info;
    }
    const a0 = alpha;
    let best = -32767, bestMove = -1;
    const coff = off + k;
    const before = nodes;
    for (let y = 0; y < count; y++) {
      // Re-read the arrays: a deeper search may have grown them.
      const c = this.order[info + y], x = info + c;
      let v = this.cVal[x];
      if (v === UNKNOWN) {
        // Sow the child into the next ply's place, with its keys.
        const st = this.stack, extra = this.cFlag[x] === 1;
        for (let j = 0; j < k; j++) st[coff + j] = st[off + j];
        sowRelative(st, coff, n, this.cMove[x], always, flag, mine, theirs);
        this.hashChild(st, off, ply, !extra);
        if (!extra) flipHalves(st, coff, n);
        const gain = this.cGain[x], left = this.cLeft[x];
        v = extra
          ? gain + this.search(ply + 1, alpha - gain, beta - gain, left)
          : gain - this.search(ply + 1, gain - beta, gain - alpha, left);
      }
      if (v > best) {
        best = v;
        bestMove = this.cMove[x];
        if (v > alpha) {
          alpha = v;
          if (alpha >= beta) break;
        }
      }
    }
    if (ply === 0) this.rootMove = bestMove;
    const spent = this.nodes - before;
    const lo = best >= beta ? best : best > a0 ? best : NONE;
    const hi = best <= a0 ? best : best < beta ? best : -NONE;
    this.put(
      dst,
      h1,
      h2,
      lo === NONE ? -stones : lo,
      hi === -NONE ? stones : hi,
      best >= beta ? bestMove : -1,
      32 - Math.clz32(spent + 1),
      prior,
      priorMeta,
    );
    return best;
  }

  private rootMove = -1;

  /** The best move the table holds for mover-relative houses, or -1. */
  tableMove(houses: ArrayLike<number>): number {
    this.setRoot(houses);
    const slot = this.probe(this.hs[0], this.hs[1]);
    return slot < 0 ? -1 : (this.table[slot + 3] & 0xff) - 1;
  }

  /**
   * The bounds the table holds for mover-relative houses (the mover's future gain), or
   * `undefined` when it holds none: every entry is a proved bound, `lower <= value <= upper`.
   */
  entry(houses: ArrayLike<number>): { readonly lower: number; readonly upper: number } | undefined {
    this.setRoot(houses);
    const slot = this.probe(this.hs[0], this.hs[1]);
    if (slot < 0) return undefined;
    const b = this.table[slot + 2];
    return { lower: b >> 16, upper: (b << 16) >> 16 };
  }

  /** Loads mover-relative houses as the root. */
  private setRoot(houses: ArrayLike<number>): number {
    let stones = 0;
    for (let j = 0; j < this.k; j++) {
      this.stack[j] = houses[j];
      stones += houses[j];
    }
    this.hashRoot();
    return stones;
  }

  /**
   * Tests the root against a window: the fail-soft value (below `beta` means the true
   * value is at most that; at or above means at least) and the move behind it.
   */
  probeRoot(
    houses: ArrayLike<number>,
    alpha: number,
    beta: number,
  ): { value: number; move: number } {
    const stones = this.setRoot(houses);
    this.rootMove = -1;
    const value = this.search(0, alpha, beta, stones);
    return { value, move: this.rootMove };
  }

  /**
   * Solves mover-relative houses exactly with MTD(f), starting from `guess` (any guess
   * gives the same value; a close one saves passes). `onPass` hears of every pass.
   *
   * @example Kalah(2, 1): the mover's house 2 reaches the store, then house 1 ends it
   * ```ts
   * import { KalahSolver } from "./solver.ts";
   * const solver = new KalahSolver({ pits: 2, captureAlways: false, ttMb: 1 });
   * const r = solver.solve([1, 1, 1, 1]);
   * if (r.value !== 2 || r.move !== 1) throw new Error(JSON.stringify(r));
   * ```
   */
  solve(houses: ArrayLike<number>, guess = 0, onPass?: (p: PassReport) => void): Solved {
    const start = this.nodes;
    let stones = 0;
    for (let j = 0; j < this.k; j++) stones += houses[j];
    let mover = 0, other = 0;
    for (let j = 0; j < this.pits; j++) mover += houses[j];
    for (let j = this.pits; j < this.k; j++) other += houses[j];
    if (mover === 0 || other === 0) {
      return { value: mover - other, move: -1, nodes: 0, passes: 0 };
    }
    let lower = -stones, upper = stones;
    let f = Math.max(lower, Math.min(upper, Number.isFinite(guess) ? Math.round(guess) : 0));
    let move = -1, passes = 0;
    this.bounds = { lower: -Infinity, upper: Infinity, move: -1 };
    while (lower < upper) {
      const beta = f === lower ? f + 1 : f;
      const r = this.probeRoot(houses, beta - 1, beta);
      passes++;
      f = r.value;
      if (f < beta) upper = f;
      else {
        lower = f;
        move = r.move;
      }
      this.bounds = { lower, upper, move };
      onPass?.({ lower, upper, guess: f, move, passes, nodes: this.nodes - start });
    }
    if (move < 0) {
      // Only fail-lows happened: the value is the lower bound we started from; find a
      // move that reaches it.
      move = this.probeRoot(houses, lower - 1, lower).move;
      passes++;
    }
    return { value: lower, move, nodes: this.nodes - start, passes };
  }
}
