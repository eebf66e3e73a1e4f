/**
 * Fast exact node counts of seed 003's trees on small boards (at most 31 cells): the
 * full game tree (`size (gametree b)`) and the left-to-right alpha-beta tree
 * (`alphaprune (alphabeta score (gametree b))`).
 *
 * Cells are bits in the order of the board's cell list, so moves come in seed 003's
 * `legalMoves` order. The full count memoizes subtree sizes by position (a subtree's size
 * depends only on its position), so the 2,103,584,601 nodes of the 5x5 tree are counted
 * without visiting them. On a full-depth tree every leaf is a decided game and the
 * alpha-beta of `lab.ts` stops a node at its first child that wins for the player to
 * move, so its tree is counted by that boolean search, node by node.
 *
 * @example The 3x3 trees
 * ```ts
 * import { countAlphaBetaTree, countGameTree } from "./count.ts";
 * import { board } from "./seed003.ts";
 * if (countGameTree(board(3, 3)) !== 75 || countAlphaBetaTree(board(3, 3)) !== 10) {
 *   throw new Error("wrong counts");
 * }
 * ```
 *
 * @module
 */
import { mix32 } from "../../core/hash.ts";
import { adjCell, type Board, cellKey, type Player } from "./seed003.ts";

/** The moves of both players as pairs of bits, in the board's order. */
interface Compiled {
  readonly free: number;
  readonly h: Int32Array;
  readonly v: Int32Array;
}

const compile = (b: Board): Compiled => {
  if (b.free.length > 31) throw new RangeError("the counters take boards of at most 31 cells");
  const index = new Map<number, number>();
  b.free.forEach((c, i) => index.set(cellKey(c), i));
  const movesOf = (p: Player): Int32Array => {
    const out: number[] = [];
    b.free.forEach((c, i) => {
      const j = index.get(cellKey(adjCell(c, p)));
      if (j !== undefined) out.push((1 << i) | (1 << j));
    });
    return Int32Array.from(out);
  };
  return {
    free: b.free.length === 31 ? 0x7fffffff : (1 << b.free.length) - 1,
    h: movesOf("H"),
    v: movesOf("V"),
  };
};

/** A growable open-addressing map from non-negative integers below 2^32 to counts. */
class CountTable {
  private keys: Float64Array;
  private vals: Float64Array;
  private mask: number;
  private used = 0;
  constructor(bits = 16) {
    this.keys = new Float64Array(1 << bits).fill(-1);
    this.vals = new Float64Array(1 << bits);
    this.mask = (1 << bits) - 1;
  }
  private slot(k: number): number {
    let i = mix32(k | 0, Math.floor(k / 4294967296)) & this.mask;
    while (this.keys[i] !== -1 && this.keys[i] !== k) i = (i + 1) & this.mask;
    return i;
  }
  get(k: number): number {
    const i = this.slot(k);
    return this.keys[i] === k ? this.vals[i] : -1;
  }
  set(k: number, v: number): void {
    if (2 * (this.used + 1) > this.keys.length) this.grow();
    const i = this.slot(k);
    if (this.keys[i] !== k) this.used++;
    this.keys[i] = k;
    this.vals[i] = v;
  }
  private grow(): void {
    const ok = this.keys, ov = this.vals;
    this.keys = new Float64Array(ok.length * 2).fill(-1);
    this.vals = new Float64Array(ok.length * 2);
    this.mask = this.keys.length - 1;
    this.used = 0;
    for (let i = 0; i < ok.length; i++) if (ok[i] !== -1) this.set(ok[i], ov[i]);
  }
  /** Entries stored. */
  get size(): number {
    return this.used;
  }
}

/**
 * The number of nodes of the full game tree of a board (seed 003's
 * `size (gametree b)`), by memoized subtree sizes.
 */
export const countGameTree = (b: Board): number => {
  const { free, h, v } = compile(b);
  const memo = new CountTable();
  const count = (mask: number, hToMove: boolean): number => {
    const key = mask * 2 + (hToMove ? 1 : 0);
    const got = memo.get(key);
    if (got >= 0) return got;
    const ms = hToMove ? h : v;
    let n = 1;
    for (let i = 0; i < ms.length; i++) {
      const m = ms[i];
      if ((mask & m) === m) n += count(mask & ~m, !hToMove);
    }
    memo.set(key, n);
    return n;
  };
  return count(free, b.turn === "H");
};

/**
 * The number of nodes of the left-to-right alpha-beta tree of a board's full game tree
 * (seed 003's `alphaprune (alphabeta score (gametree b))`): every node visited by a
 * search that stops at a node's first winning child.
 */
export const countAlphaBetaTree = (b: Board): number => {
  const { free, h, v } = compile(b);
  let nodes = 0;
  const wins = (mask: number, hToMove: boolean): boolean => {
    nodes++;
    const ms = hToMove ? h : v;
    for (let i = 0; i < ms.length; i++) {
      const m = ms[i];
      if ((mask & m) === m && !wins(mask & ~m, !hToMove)) return true;
    }
    return false;
  };
  wins(free, b.turn === "H");
  return nodes;
};
