/**
 * A transposition table with a fixed memory bound: one 32-byte record per slot (key,
 * value, checksum, move, depth, tag), so that a probe touches one cache line, indexed by
 * the low bits of a position key, replaced when the new entry is for another position
 * or searched at least as deep.
 *
 * The records can live in a `SharedArrayBuffer`, so that several workers share one table
 * (Lazy SMP). Each entry carries a checksum of all its fields: an entry torn by two
 * concurrent writes fails the check and reads as a miss, and a probe copies a verified
 * entry out (`hitValue`, ...), so a later overwrite cannot change what the caller sees.
 * Emptying the table only moves a generation number (kept in the buffer, after the
 * records): entries of older generations read as misses.
 *
 * @module
 */
import { laneA, laneB } from "../hash.ts";

/** The stored value is exact. */
export const EXACT = 1;
/** The stored value is a lower bound (the search failed high). */
export const LOWER = 2;
/** The stored value is an upper bound (the search failed low). */
export const UPPER = 3;
/**
 * A flag bit beside the bound type (`flag & 3`): the entry's subtree reached no depth
 * cut-off, so its value holds at every greater depth too (alpha-beta sets it).
 */
export const COMPLETE = 4;

/** Bytes per entry (key 8, value 8, check 4, move 4, depth 4, generation and flag 4). */
export const ENTRY_BYTES = 32;

/** The slots in a table of at most `megabytes` (a power of two, at least 1024). */
const slotsFor = (megabytes: number): number =>
  2 ** Math.floor(Math.log2(Math.max(1024, Math.floor((megabytes * 1024 * 1024) / ENTRY_BYTES))));

/** Generations wrap below 2^23, so that a tag (generation << 8 | flag) stays positive. */
const GENERATIONS = 1 << 23;

/** The default table size in megabytes, used when a player gives none. */
export const DEFAULT_TT_MB = 64;

const scratch = new Float64Array(1);
const scratchBits = new Int32Array(scratch.buffer);

/** A 32-bit checksum of an entry's fields. */
const checksum = (key: number, value: number, depth: number, tag: number, move: number) => {
  scratch[0] = value;
  let h = laneA((key % 4294967296) | 0, scratchBits[0]); // int32, never a boxed double
  h = laneB(h, scratchBits[1] ^ Math.floor(key / 4294967296));
  h = laneA(h, (depth << 8) ^ tag);
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
  /** Record i: `f64[4i]` key, `f64[4i + 1]` value. */
  private readonly f64: Float64Array;
  /** Record i: `i32[8i + 4]` check, `+ 5` move, `+ 6` depth, `+ 7` tag; then the generation. */
  private readonly i32: Int32Array;
  /** Where the generation is kept (`i32[head]`). */
  private readonly head: number;
  /** The value of the last successful `probe`. */
  hitValue: number = 0;
  /** The depth of the last successful `probe`. */
  hitDepth: number = 0;
  /** The flag of the last successful `probe` (`EXACT`, `LOWER` or `UPPER`, plus bits the caller set). */
  hitFlag: number = 0;
  /** The best move of the last successful `probe` (-1 for none). */
  hitMove: number = -1;

  /**
   * Creates a table that uses at most `megabytes` of memory (at least 1024 slots), or
   * views an existing buffer made by another table (`buffer`), for sharing.
   */
  constructor(megabytes: number, buffer?: ArrayBuffer | SharedArrayBuffer) {
    this.size = buffer === undefined
      ? slotsFor(megabytes)
      : 2 ** Math.floor(Math.log2(buffer.byteLength / ENTRY_BYTES - 1));
    this.mask = this.size - 1;
    this.buffer = buffer ?? new ArrayBuffer((this.size + 1) * ENTRY_BYTES);
    this.f64 = new Float64Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
    this.head = 8 * this.size;
    if (buffer === undefined) this.i32[this.head] = 1;
  }

  /** A table in shared memory, for several workers. */
  static shared(megabytes: number): TranspositionTable {
    const buffer = new SharedArrayBuffer((slotsFor(megabytes) + 1) * ENTRY_BYTES);
    new Int32Array(buffer)[8 * slotsFor(megabytes)] = 1;
    return new TranspositionTable(megabytes, buffer);
  }

  /** Looks up `key`; on a hit, copies the entry to `hitValue`, `hitDepth`, ... */
  probe(key: number): boolean {
    const i = (key % 4294967296) & this.mask;
    const f64 = this.f64, i32 = this.i32, r = 8 * i;
    const tag = i32[r + 7];
    if (tag >>> 8 !== i32[this.head] || f64[4 * i] !== key) return false;
    const value = f64[4 * i + 1], depth = i32[r + 6], move = i32[r + 5];
    if (i32[r + 4] !== checksum(key, value, depth, tag, move)) return false;
    this.hitValue = value;
    this.hitDepth = depth;
    this.hitFlag = tag & 0xff;
    this.hitMove = move;
    return true;
  }

  /** Stores an entry (replacing another position's, or a shallower one of the same). */
  store(key: number, depth: number, flag: number, value: number, move: number): void {
    const i = (key % 4294967296) & this.mask;
    const f64 = this.f64, i32 = this.i32, r = 8 * i;
    const gen = i32[this.head];
    if (i32[r + 7] >>> 8 === gen && f64[4 * i] === key && i32[r + 6] > depth) return;
    const tag = (gen << 8) | flag;
    f64[4 * i] = key;
    f64[4 * i + 1] = value;
    i32[r + 5] = move;
    i32[r + 6] = depth;
    i32[r + 7] = tag;
    i32[r + 4] = checksum(key, value, depth, tag, move);
  }

  /** Empties the table (by moving to a new generation; every few million times, for real). */
  clear(): void {
    const next = (this.i32[this.head] + 1) % GENERATIONS;
    if (next === 0) {
      this.i32.fill(0);
      this.i32[this.head] = 1;
    } else this.i32[this.head] = next;
  }

  /** The share of slots in use, in [0, 1] (sampled). */
  fill(): number {
    const n = Math.min(this.size, 4096), gen = this.i32[this.head];
    let used = 0;
    for (let i = 0; i < n; i++) if (this.i32[8 * i + 7] >>> 8 === gen) used++;
    return used / n;
  }
}
