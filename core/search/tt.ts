/**
 * A transposition table with a fixed memory bound: parallel typed arrays indexed by
 * the low bits of a position key, one entry per slot, replaced when the new entry is
 * for another position or searched at least as deep.
 *
 * @module
 */

/** The stored value is exact. */
export const EXACT = 1;
/** The stored value is a lower bound (the search failed high). */
export const LOWER = 2;
/** The stored value is an upper bound (the search failed low). */
export const UPPER = 3;

/** Bytes per entry (key 8, value 8, move 4, depth 2, flag 1, generation 1). */
export const ENTRY_BYTES = 24;

/** A bounded transposition table. */
export class TranspositionTable {
  /** Number of slots (a power of two). */
  readonly size: number;
  private readonly mask: number;
  private readonly keys: Float64Array;
  /** Stored values, read after a successful `probe`. */
  readonly values: Float64Array;
  /** Stored best moves (-1 for none). */
  readonly moves: Int32Array;
  /** Stored depths. */
  readonly depths: Int16Array;
  /** Stored bound kinds (0 = empty). */
  readonly flags: Uint8Array;

  /** Creates a table that uses at most `megabytes` of memory (at least 1024 slots). */
  constructor(megabytes: number) {
    const want = Math.max(1024, Math.floor((megabytes * 1024 * 1024) / ENTRY_BYTES));
    this.size = 2 ** Math.floor(Math.log2(want));
    this.mask = this.size - 1;
    this.keys = new Float64Array(this.size);
    this.values = new Float64Array(this.size);
    this.moves = new Int32Array(this.size).fill(-1);
    this.depths = new Int16Array(this.size);
    this.flags = new Uint8Array(this.size);
  }

  /** The slot for a key. */
  slot(key: number): number {
    return (key % 4294967296) & this.mask;
  }

  /** The slot holding `key`, or -1. */
  probe(key: number): number {
    const i = (key % 4294967296) & this.mask;
    return this.flags[i] !== 0 && this.keys[i] === key ? i : -1;
  }

  /** Stores an entry (replacing another position's, or a shallower one of the same). */
  store(key: number, depth: number, flag: number, value: number, move: number): void {
    const i = (key % 4294967296) & this.mask;
    if (this.flags[i] !== 0 && this.keys[i] === key && this.depths[i] > depth) return;
    this.keys[i] = key;
    this.depths[i] = depth;
    this.flags[i] = flag;
    this.values[i] = value;
    this.moves[i] = move;
  }

  /** Empties the table. */
  clear(): void {
    this.flags.fill(0);
    this.moves.fill(-1);
  }

  /** The share of slots in use, in [0, 1] (sampled). */
  fill(): number {
    const n = Math.min(this.size, 4096);
    let used = 0;
    for (let i = 0; i < n; i++) if (this.flags[i] !== 0) used++;
    return used / n;
  }
}

/** The default table size in megabytes, used when a player gives none. */
export const DEFAULT_TT_MB = 64;
