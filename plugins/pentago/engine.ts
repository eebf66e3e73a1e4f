/**
 * A dedicated Pentago engine: negamax with principal-variation search over compact
 * per-ply buffers, behind the same root driver, iterative deepening and result as the
 * generic alpha-beta (`core/search/control.ts`), as the strategy `pentago`.
 *
 * - **State**: a node is its four half-boards (mover and opponent, `board.ts`'s 18-bit
 *   halves) and both players' window count vectors (`windows.ts`) in a slot of typed
 *   arrays per ply. Making a move writes the next ply's slot; unmaking is returning (the
 *   parent's slot is untouched). A placement adds its cell's counts; a twist swaps one
 *   quadrant's table row for its turned one. Nothing is allocated per node.
 * - **Evaluation**: `linesValue`'s, exactly (the open windows weighted 1, 4, 16, 64 by
 *   their marbles, an open four of the mover a win one ply away), read from the count
 *   vectors by 16 lookups that also count fives and open fours: a five after a twist ends
 *   the game (the rules' `boardResult`), an open four wins at once by placement (the
 *   rules' winning placements). Tests tie each of these to `rules.ts` and `eval.ts`.
 * - **Moves**: every empty cell with every twist, except children already generated (a
 *   twist of an empty or symmetric quadrant: the eight turned boards are compared once
 *   per node, then a child is a code `(turned board, landing cell)`, as the rules'
 *   duplicate removal). Ordering: the table's move, four killers, then the children by
 *   their static value after the twist (wins first, moves that hand over a five or an
 *   open four last, double threats early), generated only when the early moves fail to
 *   cut; above the leaves the children are evaluated in place.
 * - **Table**: the core `TranspositionTable` (the player's, kept from move to move; with
 *   `tt: false`, "keep your own", a table the game keeps, emptied per search), keyed by
 *   the least of the eight symmetric orientations (`symmetry.ts`), its moves stored in
 *   that orientation and turned back on a hit.
 * - **Threat search** at the horizon: a leaf where the opponent has two or more open fours
 *   is only worth its static value if the mover has a move that leaves none (or wins at
 *   once by a twist); without one it is lost two plies on, and the leaf says so.
 * - **Time**: iterative deepening by the core's driver; a timed search completes depth
 *   `MIN_DEPTH` whatever its budget (`shouldStop` still stops it at once).
 *
 * Values are white's (player 0 maximizes), decisive ones `±WIN` adjusted by distance as
 * the core's searches do; without the threat search (`threats=0`) the value at a fixed
 * depth equals plain minimax over the game's `value` (tested).
 *
 * @module
 */
import { type Game, WIN, WIN_THRESHOLD } from "../../core/game.ts";
import { finish53, laneA, laneB } from "../../core/hash.ts";
import {
  type NodeSearch,
  POLL_MASK,
  searchRoot,
  SearchStopped,
  stopTest,
} from "../../core/search/control.ts";
import { COMPLETE, EXACT, LOWER, TranspositionTable, UPPER } from "../../core/search/tt.ts";
import { type Keep, keepOf, slot } from "../../core/search/keep.ts";
import type { SearchOptions, SearchResult, SequentialStrategy } from "../../core/search/types.ts";
import { CELL_BIT, CELL_HALF, CELLS, POPCOUNT, quadrantOf, ROT_CCW, ROT_CW } from "./board.ts";
import { NO_TWIST, type PentagoState, play, ROT_CELL, winningCells } from "./rules.ts";
import { SYM_INVERSE, SYM_MOVE, SYM_PACKED } from "./symmetry.ts";
import {
  CELL_COUNTS,
  EVAL_BIAS,
  FLAG_UNIT,
  localBit,
  pairSum,
  QUAD_COUNTS,
  recount,
} from "./windows.ts";

/** Plies a search can reach from its root (36 marbles, a root at ply 1, the threat scan). */
const MAX_PLY = 48;
/** Children per node at most (36 cells x 8 twists). */
const SLOTS = 288;
/** A line's entry meaning "the placement that makes five" (resolved when the line is read). */
const WIN_MARK = -2;
/** Killer moves kept per ply (refutations found at the same ply, tried early). */
const KILLER_COUNT = 4;
/** Moves searched at full depth before late ones are reduced (`lmr`). */
const LMR_AFTER = 3;
/** Moves scored at least this (threats, wins) are never reduced. */
const LMR_SCORE = 1000;
/** Ordering scores are clamped to this (decisive children beyond it). */
const DECISIVE = 20000;

const QUAD_OF = Int8Array.from({ length: CELLS }, (_, c) => quadrantOf(c));
const LOCAL = Int16Array.from({ length: CELLS }, (_, c) => localBit(c));
/** The key's lanes start apart from `rules.ts`'s `keyOf` (a table shared with alpha-beta). */
const SALT_A = 0x5e7a60d1, SALT_B = 0x2f6b1c39;

/** The size of a table made for one search when none is given. */
const DEFAULT_MB = 4;
/** The size of the engine's own table (`tt: false`: "keep your own", as `analyze` asks). */
const PRIVATE_MB = 32;
/** The engine's own table, which a game keeps between searches. */
const OWN_TABLE = slot<TranspositionTable>("pentago engine's own table");

/**
 * The engine's own table, emptied for the search: the one `keep` holds (a game's: one per
 * worker, since each worker opens its own game), else a new one.
 */
const privateTable = (keep: Keep | undefined): TranspositionTable => {
  const make = () => new TranspositionTable(PRIVATE_MB);
  const own = keep === undefined ? make() : keep.get(OWN_TABLE, make);
  own.clear();
  return own;
};

/** What the engine counted (for tests and the bench). */
export interface EngineStats {
  /** Table probes (nodes with a depth of at least 1). */
  ttProbes: number;
  /** Probes that found the position (in any orientation). */
  ttHits: number;
  /** Leaves that the threat search examined (the opponent had two open fours or more). */
  threatScans: number;
}

/** The engine's per-ply boards, opened for tests: make a move, read what it keeps. */
export interface EngineBoards {
  /** Loads a position into ply p (the counts recounted from scratch). */
  readonly load: (s: PentagoState, p: number) => void;
  /** Makes placement-and-twist `move` at ply p: the child is written to ply p + 1. */
  readonly make: (p: number, move: number) => void;
  /** Ply p's boards: mover top, mover bottom, opponent top, opponent bottom. */
  readonly halves: (p: number) => number[];
  /** Ply p's count vectors as kept: the mover's `WORDS` words, then the opponent's. */
  readonly counts: (p: number) => number[];
  /** Ply p's evaluation sum (`windows.ts`'s `pairSum`, the mover's view). */
  readonly sum: (p: number) => number;
  /** Ply p's empty cells as kept. */
  readonly empties: (p: number) => number;
}

/** The engine's node search (the root driver's `NodeSearch`) and its counters. */
export interface PentagoEngine extends NodeSearch<PentagoState> {
  /** Counters since the engine was made. */
  readonly stats: EngineStats;
  /** The table in use, if any. */
  readonly tt: TranspositionTable | undefined;
  /** The per-ply boards (for tests). */
  readonly boards: EngineBoards;
}

/** Engine settings beyond `SearchOptions`. */
export interface EngineSettings {
  /** Examine leaves where the opponent has two open fours or more (default true). */
  readonly threats?: boolean;
  /** Key the table by the least symmetric orientation (default true). */
  readonly symmetry?: boolean;
  /** Search late quiet moves a ply shallower first (default false). */
  readonly lmr?: boolean;
  /** The stop test polled every few thousand nodes (default: the options' time and flag). */
  readonly stop?: () => boolean;
  /** Where the engine's own table (`tt: false`) is kept between searches (default: nowhere). */
  readonly keep?: Keep;
}

/**
 * Builds the engine for one search (or several from related roots, sharing the table);
 * `start` is the clock origin of the time budget.
 *
 * @example Depth 2 from the empty board: no one is winning yet
 * ```ts
 * import { pentagoEngine } from "./engine.ts";
 * import { initialState } from "./rules.ts";
 * const e = pentagoEngine({ tt: false });
 * const v = e.search(initialState(), 2, -Infinity, Infinity, 0);
 * if (Math.abs(v) > 100) throw new Error(`unexpected value ${v}`);
 * ```
 */
export const pentagoEngine = (
  options: SearchOptions = {},
  start: number = performance.now(),
  settings: EngineSettings = {},
): PentagoEngine => {
  const stop = settings.stop ?? stopTest(options, start);
  const counter = { nodes: 0 };
  const distance = options.distance === true;
  const ordering = options.ordering !== false;
  const threats = settings.threats !== false;
  const symmetry = settings.symmetry !== false;
  const lmr = settings.lmr === true;
  const tt = options.tt === false
    ? privateTable(settings.keep)
    : (options.tt ?? new TranspositionTable(DEFAULT_MB));
  const stats: EngineStats = { ttProbes: 0, ttHits: 0, threatScans: 0 };

  // Per-ply slots.
  const BB = new Int32Array(MAX_PLY * 4); // mover top, mover bottom, opponent top, bottom
  const VEC = new Int32Array(MAX_PLY * 8); // mover's count vector, then the opponent's
  const EMPTY = new Int32Array(MAX_PLY); // empty cells
  const TW = new Int32Array(MAX_PLY * 32); // the 8 turned boards (as BB)
  const DM = new Int32Array(MAX_PLY * 32); // the mover's vector change per twist
  const DO = new Int32Array(MAX_PLY * 32); // the opponent's
  const CLS = new Int8Array(MAX_PLY * 8); // the first twist giving the same turned board
  const SEEN = new Int32Array(MAX_PLY * SLOTS); // children generated (by stamp)
  const MOVES = new Int32Array(MAX_PLY * SLOTS);
  const ORDER = new Int32Array(MAX_PLY * SLOTS);
  const PVT = new Int32Array(MAX_PLY * MAX_PLY);
  const PVN = new Int32Array(MAX_PLY);
  const KILLERS = new Int32Array(MAX_PLY * KILLER_COUNT).fill(-1);
  const EARLY = new Int32Array(MAX_PLY * (KILLER_COUNT + 1)); // the table's move, the killers
  let stamp = 0;
  let cut = false;
  let rootPly = 0;
  let rootPrefer = -1;
  let canonSym = 0;

  const winIn = (ply: number) => (distance ? WIN - ply : WIN);
  const toTable = (v: number, ply: number) =>
    !distance ? v : v >= WIN_THRESHOLD ? v + ply : v <= -WIN_THRESHOLD ? v - ply : v;
  const fromTable = (v: number, ply: number) =>
    !distance ? v : v >= WIN_THRESHOLD ? v - ply : v <= -WIN_THRESHOLD ? v + ply : v;

  /** Fills ply p's twist tables: the turned boards, vector changes and classes. */
  const prepare = (p: number): void => {
    const b = p * 4;
    const m0 = BB[b], m1 = BB[b + 1], o0 = BB[b + 2], o1 = BB[b + 3];
    for (let k = 0; k < 8; k++) {
      const q = k >> 1, sh = (q & 1) * 9, top = q < 2, rot = k & 1 ? ROT_CCW : ROT_CW;
      const mh = top ? m0 : m1, oh = top ? o0 : o1;
      const mq = (mh >>> sh) & 511, oq = (oh >>> sh) & 511;
      const mr = rot[mq], or = rot[oq];
      const nm = (mh & ~(511 << sh)) | (mr << sh), no = (oh & ~(511 << sh)) | (or << sh);
      const t = p * 32 + k * 4;
      TW[t] = top ? nm : m0;
      TW[t + 1] = top ? m1 : nm;
      TW[t + 2] = top ? no : o0;
      TW[t + 3] = top ? o1 : no;
      const qm = q * 512, a = (qm + mq) * 4, c = (qm + mr) * 4;
      const d = (qm + oq) * 4, e = (qm + or) * 4;
      for (let j = 0; j < 4; j++) {
        DM[t + j] = QUAD_COUNTS[c + j] - QUAD_COUNTS[a + j];
        DO[t + j] = QUAD_COUNTS[e + j] - QUAD_COUNTS[d + j];
      }
      let cls = k;
      for (let k2 = 0; k2 < k; k2++) {
        const u = p * 32 + k2 * 4;
        if (
          CLS[p * 8 + k2] === k2 && TW[u] === TW[t] && TW[u + 1] === TW[t + 1] &&
          TW[u + 2] === TW[t + 2] && TW[u + 3] === TW[t + 3]
        ) {
          cls = k2;
          break;
        }
      }
      CLS[p * 8 + k] = cls;
    }
  };

  /** Writes into ply p + 1 the child of ply p where the mover places on x and twists k. */
  const makeChild = (p: number, x: number, k: number): void => {
    const b = p * 4, c = b + 4, t = p * 32 + k * 4, v = p * 8, w = v + 8;
    const q = k >> 1;
    BB[c] = TW[t + 2];
    BB[c + 1] = TW[t + 3];
    if (QUAD_OF[x] === q) {
      // The marble turns with its quadrant: the quadrant's row before and after.
      const sh = (q & 1) * 9, top = q < 2, mh = top ? BB[b] : BB[b + 1];
      const before = (mh >>> sh) & 511;
      const after = (k & 1 ? ROT_CCW : ROT_CW)[before | LOCAL[x]];
      const nh = (mh & ~(511 << sh)) | (after << sh);
      BB[c + 2] = top ? nh : BB[b];
      BB[c + 3] = top ? BB[b + 1] : nh;
      const qa = (q * 512 + before) * 4, qb = (q * 512 + after) * 4;
      for (let j = 0; j < 4; j++) {
        VEC[w + 4 + j] = VEC[v + j] - QUAD_COUNTS[qa + j] + QUAD_COUNTS[qb + j];
      }
    } else {
      const bit = CELL_BIT[x];
      if (CELL_HALF[x] === 0) {
        BB[c + 2] = TW[t] | bit;
        BB[c + 3] = TW[t + 1];
      } else {
        BB[c + 2] = TW[t];
        BB[c + 3] = TW[t + 1] | bit;
      }
      const xc = x * 4;
      for (let j = 0; j < 4; j++) VEC[w + 4 + j] = VEC[v + j] + CELL_COUNTS[xc + j] + DM[t + j];
    }
    for (let j = 0; j < 4; j++) VEC[w + j] = VEC[v + 4 + j] + DO[t + j];
    EMPTY[p + 1] = EMPTY[p] - 1;
  };

  /** True when the child (x, k) of ply p was generated before in this node (and marks it). */
  const seen = (p: number, x: number, k: number, now: number): boolean => {
    const i = p * SLOTS + CLS[p * 8 + k] * CELLS + ROT_CELL[k * CELLS + x];
    if (SEEN[i] === now) return true;
    SEEN[i] = now;
    return false;
  };

  /** True when cell x is empty at ply p. */
  const isEmpty = (p: number, x: number): boolean => {
    const b = p * 4, bit = CELL_BIT[x];
    return CELL_HALF[x] === 0
      ? ((BB[b] | BB[b + 2]) & bit) === 0
      : ((BB[b + 1] | BB[b + 3]) & bit) === 0;
  };

  /**
   * The value of ply p as a leaf (mover's view) from its evaluation sum `k`: the end of
   * the game, an open four of the mover (a win one ply away) or the open-lines value.
   * Marks the search cut off unless the game is over there.
   */
  const leafOf = (p: number, k: number): number => {
    if (k < FLAG_UNIT) {
      if (EMPTY[p] === 0) return 0;
      cut = true;
      return k - EVAL_BIAS;
    }
    const hi = Math.floor(k / FLAG_UNIT);
    const mf = hi & 63, of = (hi >>> 6) & 63;
    if (mf !== 0) return of !== 0 ? 0 : winIn(p);
    if (of !== 0) return -winIn(p);
    if (EMPTY[p] === 0) return 0;
    cut = true;
    if (((hi >>> 12) & 63) !== 0) return distance ? WIN - 1 - p : WIN - 1;
    const value = k - hi * FLAG_UNIT - EVAL_BIAS;
    if (threats && ((hi >>> 18) & 63) >= 2) return threatScan(p, value);
    return value;
  };

  /**
   * The threat search: the opponent of ply p has two open fours or more. The static
   * value stands if some move leaves the opponent no open four (and no five); a move
   * that makes the mover's five alone wins; without either the mover loses two plies on
   * (or draws, when a twist gives both fives).
   */
  const threatScan = (p: number, value: number): number => {
    stats.threatScans++;
    prepare(p);
    const now = ++stamp, w = (p + 1) * 8;
    let best = -winIn(p + 2);
    for (let x = 0; x < CELLS; x++) {
      if (!isEmpty(p, x)) continue;
      for (let k = 0; k < 8; k++) {
        if (seen(p, x, k, now)) continue;
        makeChild(p, x, k);
        if ((++counter.nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
        const kc = pairSum(VEC, w, w + 4);
        if (kc < FLAG_UNIT) return value;
        const hi = Math.floor(kc / FLAG_UNIT);
        const cf = hi & 63, mf = (hi >>> 6) & 63; // the child's mover's (our opponent's)
        if (mf !== 0) {
          if (cf === 0) return winIn(p + 1);
          if (best < 0) best = 0;
          continue;
        }
        if (cf !== 0 || ((hi >>> 12) & 63) !== 0) continue; // the opponent wins next
        return value;
      }
    }
    return best;
  };

  /** The table key of ply p: the least orientation's hash; sets `canonSym`. */
  const canonical = (p: number): number => {
    const b = p * 4;
    const m0 = BB[b], m1 = BB[b + 1], o0 = BB[b + 2], o1 = BB[b + 3];
    let ma = m0 * 262144 + m1, oa = o0 * 262144 + o1, sym = 0;
    if (symmetry) {
      const mq0 = m0 & 511, mq1 = m0 >>> 9, mq2 = m1 & 511, mq3 = m1 >>> 9;
      const oq0 = o0 & 511, oq1 = o0 >>> 9, oq2 = o1 & 511, oq3 = o1 >>> 9;
      for (let s = 1; s < 8; s++) {
        const base = s * 2048;
        const m = SYM_PACKED[base + mq0] + SYM_PACKED[base + 512 + mq1] +
          SYM_PACKED[base + 1024 + mq2] + SYM_PACKED[base + 1536 + mq3];
        if (m > ma) continue;
        const o = SYM_PACKED[base + oq0] + SYM_PACKED[base + 512 + oq1] +
          SYM_PACKED[base + 1024 + oq2] + SYM_PACKED[base + 1536 + oq3];
        if (m < ma || o < oa) {
          ma = m;
          oa = o;
          sym = s;
        }
      }
    }
    canonSym = sym;
    const mh = Math.floor(ma / 262144), oh = Math.floor(oa / 262144);
    const ml = ma - mh * 262144, ol = oa - oh * 262144;
    return finish53(
      laneA(laneA(laneA(laneA(SALT_A, mh), ml), oh), ol),
      laneB(laneB(laneB(laneB(SALT_B, mh), ml), oh), ol),
    );
  };

  /** Records `m` then the child's line as ply p's line. */
  const setPv = (p: number, m: number, childLine: boolean): void => {
    const at = p * MAX_PLY;
    PVT[at] = m;
    let n = 1;
    if (childLine) {
      const from = (p + 1) * MAX_PLY, len = PVN[p + 1];
      for (let i = 0; i < len; i++) PVT[at + 1 + i] = PVT[from + i];
      n += len;
    }
    PVN[p] = n;
  };

  /**
   * Lists ply p's children not generated yet in `MOVES[base ..]`, each scored by its
   * static value (`orderScore`) into `ORDER`, sorted ascending (best last); the count.
   */
  const generate = (p: number, now: number, base: number, w: number): number => {
    let n = 0;
    for (let x = 0; x < CELLS; x++) {
      if (!isEmpty(p, x)) continue;
      for (let k = 0; k < 8; k++) {
        if (seen(p, x, k, now)) continue;
        MOVES[base + n] = x * 8 + k;
        if (ordering) {
          makeChild(p, x, k);
          ORDER[base + n] = ((orderScore(pairSum(VEC, w, w + 4)) + 32768) << 9) | (511 - n);
        }
        n++;
      }
    }
    if (ordering) ORDER.subarray(base, base + n).sort();
    return n;
  };

  /** Negamax with principal-variation search: ply p's value, mover's view, fail-soft. */
  const node = (p: number, depth: number, alpha: number, beta: number): number => {
    if ((++counter.nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
    PVN[p] = 0;
    const v = p * 8;
    const k0 = pairSum(VEC, v, v + 4);
    if (k0 >= FLAG_UNIT) {
      const hi = Math.floor(k0 / FLAG_UNIT);
      const mf = hi & 63, of = (hi >>> 6) & 63;
      if (mf !== 0) return of !== 0 ? 0 : winIn(p);
      if (of !== 0) return -winIn(p);
      if (((hi >>> 12) & 63) !== 0 && depth > 0) {
        // An open four: the placement wins at once (exact at any depth).
        PVT[p * MAX_PLY] = WIN_MARK;
        PVN[p] = 1;
        return winIn(p + 1);
      }
    }
    if (EMPTY[p] === 0) return 0;
    if (depth <= 0) return leafOf(p, k0);

    let key = 0, ttMove = -1;
    if (tt !== undefined) {
      key = canonical(p);
      stats.ttProbes++;
      if (tt.probe(key)) {
        stats.ttHits++;
        const f = tt.hitFlag;
        if (tt.hitMove >= 0) ttMove = SYM_MOVE[SYM_INVERSE[canonSym] * 324 + tt.hitMove];
        if (p !== rootPly && (tt.hitDepth >= depth || (f & COMPLETE) !== 0)) {
          const tv = fromTable(tt.hitValue, p), kind = f & 3;
          if (
            kind === EXACT || (kind === LOWER && tv >= beta) || (kind === UPPER && tv <= alpha)
          ) {
            if ((f & COMPLETE) === 0) cut = true;
            return tv;
          }
        }
      }
    }
    if (p === rootPly && ttMove < 0) ttMove = rootPrefer;
    const symAtProbe = canonSym;

    prepare(p);
    const now = ++stamp;
    // The early moves: the table's, then the killers (each once, on an empty cell).
    const e = p * (KILLER_COUNT + 1);
    let early = 0;
    if (ordering) {
      for (let i = 0; i <= KILLER_COUNT; i++) {
        const m = i === 0 ? ttMove : KILLERS[p * KILLER_COUNT + i - 1];
        if (m < 0 || m >= NO_TWIST || !isEmpty(p, m >> 3) || seen(p, m >> 3, m & 7, now)) continue;
        EARLY[e + early++] = m;
      }
    }
    const cutBefore = cut;
    cut = false;
    const a0 = alpha;
    let best = -Infinity, bestMove = -1;
    const w = (p + 1) * 8;

    if (depth === 1) {
      // The children are leaves: evaluate them in place, the early moves first.
      for (let i = 0; i < early && alpha < beta; i++) {
        const m = EARLY[e + i];
        makeChild(p, m >> 3, m & 7);
        counter.nodes++;
        const val = -leafOf(p + 1, pairSum(VEC, w, w + 4));
        if (val > best) {
          best = val;
          bestMove = m;
          if (val > alpha) alpha = val;
        }
      }
      scan: for (let x = 0; x < CELLS && alpha < beta; x++) {
        if (!isEmpty(p, x)) continue;
        for (let k = 0; k < 8; k++) {
          if (seen(p, x, k, now)) continue;
          makeChild(p, x, k);
          if ((++counter.nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
          const val = -leafOf(p + 1, pairSum(VEC, w, w + 4));
          if (val > best) {
            best = val;
            bestMove = x * 8 + k;
            if (val > alpha) {
              alpha = val;
              if (alpha >= beta) break scan;
            }
          }
        }
      }
      if (bestMove >= 0) setPv(p, bestMove, false);
    } else {
      // The early moves, then the rest generated, scored and sorted (only if needed).
      const base = p * SLOTS;
      const pvs = beta - alpha > 1;
      let n = -1, searched = 0;
      for (let i = 0;; i++) {
        let m: number;
        if (i < early) m = EARLY[e + i];
        else {
          if (n < 0) n = generate(p, now, base, w);
          const j = i - early;
          if (j >= n) break;
          m = ordering ? MOVES[base + 511 - (ORDER[base + n - 1 - j] & 511)] : MOVES[base + j];
        }
        makeChild(p, m >> 3, m & 7);
        let val = -Infinity;
        // A late quiet move is first searched a ply shallower (a null window; kept if it
        // fails low).
        const late = lmr && depth >= 3 && searched >= LMR_AFTER && i >= early && ordering &&
          (ORDER[base + n - 1 - (i - early)] >> 9) - 32768 < LMR_SCORE;
        if (late) val = -node(p + 1, depth - 2, pvs ? -alpha - 1 : -beta, -alpha);
        if (!late || val > alpha) {
          if (searched === 0 || !pvs) val = -node(p + 1, depth - 1, -beta, -alpha);
          else {
            val = -node(p + 1, depth - 1, -alpha - 1, -alpha);
            if (val > alpha && val < beta) val = -node(p + 1, depth - 1, -beta, -alpha);
          }
        }
        searched++;
        if (val > best) {
          best = val;
          bestMove = m;
          setPv(p, m, true);
          if (val > alpha) {
            alpha = val;
            if (alpha >= beta) break;
          }
        }
      }
    }
    if (alpha >= beta && bestMove >= 0) {
      // The refutation goes first among the killers (the others move down).
      const kb = p * KILLER_COUNT;
      let j = 0;
      while (j < KILLER_COUNT - 1 && KILLERS[kb + j] !== bestMove) j++;
      for (; j > 0; j--) KILLERS[kb + j] = KILLERS[kb + j - 1];
      KILLERS[kb] = bestMove;
    }
    const complete = !cut;
    cut = cutBefore || cut;
    if (tt !== undefined) {
      const kind = best <= a0 ? UPPER : best >= beta ? LOWER : EXACT;
      const stored = bestMove >= 0 ? SYM_MOVE[symAtProbe * 324 + bestMove] : -1;
      tt.store(key, depth, kind | (complete ? COMPLETE : 0), toTable(best, p), stored);
    }
    return best;
  };

  /** The ordering score, the parent's view, of a child's evaluation sum. */
  const orderScore = (k: number): number => {
    if (k < FLAG_UNIT) return EVAL_BIAS - k;
    const hi = Math.floor(k / FLAG_UNIT);
    const cf = hi & 63, mf = (hi >>> 6) & 63; // the child's mover's, ours
    if (mf !== 0) return cf !== 0 ? 0 : DECISIVE;
    if (cf !== 0 || ((hi >>> 12) & 63) !== 0) return -DECISIVE;
    // Our open fours in the child are threats: more than one is worth trying early.
    const fours = (hi >>> 18) & 63;
    return Math.min(DECISIVE - 1, EVAL_BIAS - (k - hi * FLAG_UNIT) + (fours >= 2 ? 2000 : 0));
  };

  /** Loads a state into ply p. */
  const load = (s: PentagoState, p: number): void => {
    const white = s.turn === 0, b = p * 4;
    BB[b] = white ? s.white0 : s.black0;
    BB[b + 1] = white ? s.white1 : s.black1;
    BB[b + 2] = white ? s.black0 : s.white0;
    BB[b + 3] = white ? s.black1 : s.white1;
    recount(BB[b], BB[b + 1], VEC, p * 8);
    recount(BB[b + 2], BB[b + 3], VEC, p * 8 + 4);
    EMPTY[p] = CELLS - POPCOUNT[BB[b] | BB[b + 2]] - POPCOUNT[BB[b + 1] | BB[b + 3]];
  };

  /** A move of the line, resolved in the game's codes (the winning placement's cell). */
  const resolve = (s: PentagoState, m: number): number => {
    if (m !== WIN_MARK) return m;
    const w = winningCells(s), w0 = w % 262144, w1 = Math.floor(w / 262144);
    for (let cell = 0; cell < CELLS; cell++) {
      if (((CELL_HALF[cell] === 0 ? w0 : w1) & CELL_BIT[cell]) !== 0) return NO_TWIST + cell;
    }
    return -1;
  };

  /** The last search's line from `from`, continued from the table up to `depth` moves. */
  const line = (from: PentagoState, depth: number): number[] => {
    const out: number[] = [];
    let s = from;
    const at = rootPly * MAX_PLY;
    for (let i = 0; i < PVN[rootPly]; i++) {
      const m = resolve(s, PVT[at + i]);
      if (m < 0 || s.result !== -1) break;
      out.push(m);
      s = play(s, m);
    }
    const scratch = MAX_PLY - 1;
    while (tt !== undefined && out.length < depth && s.result === -1) {
      load(s, scratch);
      if (!tt.probe(canonical(scratch)) || tt.hitMove < 0) break;
      const m = SYM_MOVE[SYM_INVERSE[canonSym] * 324 + tt.hitMove];
      if (!isEmpty(scratch, m >> 3)) break;
      out.push(m);
      s = play(s, m);
    }
    return out;
  };

  return {
    search: (s, depth, alpha, beta, ply) => {
      cut = false;
      rootPly = ply;
      load(s, ply);
      const v = s.turn === 0 ? node(ply, depth, alpha, beta) : -node(ply, depth, -beta, -alpha);
      return v + 0; // no -0
    },
    counter,
    pv: line,
    exact: () => !cut,
    preferAtRoot: (m) => {
      rootPrefer = m < NO_TWIST ? m : -1;
    },
    stats,
    tt,
    boards: {
      load,
      make: (p, m) => {
        prepare(p);
        makeChild(p, m >> 3, m & 7);
      },
      halves: (p) => Array.from(BB.subarray(p * 4, p * 4 + 4)),
      counts: (p) => Array.from(VEC.subarray(p * 8, p * 8 + 8)),
      sum: (p) => pairSum(VEC, p * 8, p * 8 + 4),
      empties: (p) => EMPTY[p],
    },
  };
};

/**
 * The depth a timed search completes whatever its budget (a few milliseconds' work; an
 * interruption still stops it): at least what alpha-beta sees at depth 3.
 */
export const MIN_DEPTH = 3;

/**
 * The root search: iterative deepening (or one depth) with the engine. With a time
 * budget, the deadline is ignored until depth `MIN_DEPTH` is complete.
 */
export const pentagoSearch = (
  game: Game<PentagoState>,
  state: PentagoState,
  options: SearchOptions = {},
  settings: EngineSettings = {},
): SearchResult => {
  const start = performance.now();
  let done = 0;
  const deadline = options.timeMs === undefined ? Infinity : start + options.timeMs;
  const flag = options.shouldStop;
  const timed: SearchOptions = {
    ...options,
    onIteration: (r) => {
      done = r.depth;
      options.onIteration?.(r);
    },
  };
  const stop = () =>
    (flag !== undefined && flag()) || (done >= MIN_DEPTH && performance.now() >= deadline);
  const engine = pentagoEngine(options, start, { keep: keepOf(game), ...settings, stop });
  return searchRoot(game, state, timed, engine, start, 1);
};

/** The engine's settings from a player spec's parameters (`pentago:1s,threats=0`). */
const settingsOf = (params: Readonly<Record<string, number>> | undefined): EngineSettings => ({
  threats: params?.threats !== 0,
  symmetry: params?.symmetry !== 0,
  lmr: params?.lmr === 1,
});

/**
 * The `pentago` strategy: the dedicated engine, for Pentago games only (any options:
 * the engine evaluates by open lines whatever `--eval` says).
 */
export const pentagoStrategy: SequentialStrategy = {
  _tag: "Sequential",
  budget: "depth",
  name: "pentago",
  description: "Pentago engine: PVS, window counts, symmetric table, threat search",
  allBest: true,
  params: {
    threats: {
      min: 0,
      max: 1,
      integer: true,
      description: "1 (default): leaves facing two open fours are searched for a defence",
    },
    lmr: {
      min: 0,
      max: 1,
      integer: true,
      description: "0 (default): 1 searches late quiet moves a ply shallower first",
    },
    symmetry: {
      min: 0,
      max: 1,
      integer: true,
      description: "1 (default): the table keys a position by its least symmetric orientation",
    },
  },
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult => {
    if (game.id !== "pentago") throw new TypeError("the pentago strategy plays Pentago only");
    return pentagoSearch(
      game as unknown as Game<PentagoState>,
      state as unknown as PentagoState,
      options,
      settingsOf(options.params),
    );
  },
};
