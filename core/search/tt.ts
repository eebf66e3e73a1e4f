/**
 * A transposition table with a fixed memory bound: parallel typed arrays indexed by
 * the low bits of a position key, one entry per slot, replaced when the new entry is
 * for another position or searched at least as deep.
 *
 * The arrays can live in a `SharedArrayBuffer`, so that several workers share one table
 * (Lazy SMP). Each entry carries a checksum of all its fields: an entry torn by two
 * concurrent writes fails the check and reads as a miss, and a probe copies a verified
 * entry out (`hitValue`, ...), so a later overwrite cannot change what the caller sees.
 *
 * @module
 */

/** The stored value is exact. */
export const EXACT = 1;
/** The stored value is a lower bound (the search failed high). */
export const LOWER = 2;
/** The stored value is an upper bound (the search failed low). */
export const UPPER = 3;

/** Bytes per entry (key 8, value 8, check 4, move 4, depth 2, flag 1). */
export const ENTRY_BYTES = 27;

/** The default table size in megabytes, used when a player gives none. */
export const DEFAULT_TT_MB = 64;

const scratch = new Float64Array(1);
const scratchBits = new Int32Array(scratch.buffer);

/** A 32-bit checksum of an entry's fields. */
const checksum = (key: number, value: number, depth: number, flag: number, move: number) => {
  scratch[0] = value;
  let h = Math.imul((key % 4294967296) ^ scratchBits[0], 0x9e3779b1);
  h = Math.imul(h ^ scratchBits[1] ^ Math.floor(key / 4294967296), 0x85ebca6b);
  h = Math.imul(h ^ (depth << 8) ^ flag, 0xc2b2ae35);
  return (h ^ move ^ (h >>> 15)) | 0;
};

/**
 * A bounded transposition table. One table serves one game with one set of search
 * settings (chance mode, `distance`, `minProbability`); a player keeps its own.
 */
export class TranspositionTable {
  /** Number of slots (a power of two). */
  readonly size: number;
  /** The memory behind the table (shared when built over a `SharedArrayBuffer`). */
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  private readonly mask: number;
  private readonly keys: Float64Array;
  private readonly values: Float64Array;
  private readonly checks: Int32Array;
  private readonly moves: Int32Array;
  private readonly depths: Int16Array;
  private readonly flags: Uint8Array;
  /** The value of the last successful `probe`. */
  hitValue: number = 0;
  /** The depth of the last successful `probe`. */
  hitDepth: number = 0;
  /** The flag (kind and bits) of the last successful `probe`. */
  hitFlag: number = 0;
  /** The best move of the last successful `probe` (-1 for none). */
  hitMove: number = -1;

  /**
   * Creates a table that uses at most `megabytes` of memory (at least 1024 slots), or
   * views an existing buffer made by another table (`buffer`), for sharing.
   */
  constructor(megabytes: number, buffer?: ArrayBuffer | SharedArrayBuffer) {
    const want = Math.max(1024, Math.floor((megabytes * 1024 * 1024) / ENTRY_BYTES));
    this.size = buffer === undefined
      ? 2 ** Math.floor(Math.log2(want))
      : 2 ** Math.floor(Math.log2(buffer.byteLength / ENTRY_BYTES));
    this.mask = this.size - 1;
    const n = this.size;
    this.buffer = buffer ?? new ArrayBuffer(n * ENTRY_BYTES);
    let off = 0;
    const take = <T>(
      make: (b: ArrayBuffer | SharedArrayBuffer, o: number, l: number) => T,
      bytes: number,
    ) => {
      const view = make(this.buffer, off, n);
      off += bytes * n;
      return view;
    };
    this.keys = take((b, o, l) => new Float64Array(b, o, l), 8);
    this.values = take((b, o, l) => new Float64Array(b, o, l), 8);
    this.checks = take((b, o, l) => new Int32Array(b, o, l), 4);
    this.moves = take((b, o, l) => new Int32Array(b, o, l), 4);
    this.depths = take((b, o, l) => new Int16Array(b, o, l), 2);
    this.flags = take((b, o, l) => new Uint8Array(b, o, l), 1);
  }

  /** A table in shared memory, for several workers. */
  static shared(megabytes: number): TranspositionTable {
    const probe = new TranspositionTable(megabytes);
    return new TranspositionTable(megabytes, new SharedArrayBuffer(probe.size * ENTRY_BYTES));
  }

  /** Looks up `key`; on a hit, copies the entry to `hitValue`, `hitDepth`, ... */
  probe(key: number): boolean {
    const i = (key % 4294967296) & this.mask;
    const flag = this.flags[i];
    if (flag === 0 || this.keys[i] !== key) return false;
    const value = this.values[i], depth = this.depths[i], move = this.moves[i];
    if (this.checks[i] !== checksum(key, value, depth, flag, move)) return false;
    this.hitValue = value;
    this.hitDepth = depth;
    this.hitFlag = flag;
    this.hitMove = move;
    return true;
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
    this.checks[i] = checksum(key, value, depth, flag, move);
  }

  /** Empties the table. */
  clear(): void {
    this.flags.fill(0);
  }

  /** The share of slots in use, in [0, 1] (sampled). */
  fill(): number {
    const n = Math.min(this.size, 4096);
    let used = 0;
    for (let i = 0; i < n; i++) if (this.flags[i] !== 0) used++;
    return used / n;
  }
}
