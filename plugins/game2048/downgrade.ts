/**
 * Tile downgrading for the network's leaves (the expectimax of TDL2048+, moporgic, and of
 * Guei, Chen & Wu 2022): a trained network has seen few boards with a 16384 and fewer with
 * a 32768, but many of the same shape one rank lower. When a board's largest tile is at
 * least the threshold and some smaller rank is missing from it, every tile above the
 * largest missing rank is halved: a board of 16384, 8192, 4096, 2048, 1024, 512, 256 and
 * no 128 reads as 8192, 4096, ..., 128, the board of the phase the network played in most
 * of its games. Repeated while the largest tile is still at the threshold and a rank is
 * still missing. The tiles' order and every smaller tile stay as they were, so the
 * board's shape (what the tuples read) is kept; only its scale moves down.
 *
 * On the compact board of `board.ts` (two 32-bit words of eight 4-bit ranks): the ranks
 * present come from one table read per row (after a word-wide test for the threshold), and
 * the halving from one per row and missing rank (tables of 65,536 rows, made when first
 * needed). Nothing allocates per call.
 *
 * @module
 */

/** Bit `r` of `ROW_RANKS[row]` is set when the 16-bit row holds a tile of rank `r` (1-15). */
const ROW_RANKS: Uint16Array = (() => {
  const t = new Uint16Array(65536);
  for (let row = 0; row < 65536; row++) {
    let bits = 0;
    for (let i = 0; i < 16; i += 4) {
      const r = (row >>> i) & 15;
      if (r !== 0) bits |= 1 << r;
    }
    t[row] = bits;
  }
  return t;
})();

/** `HALVED[h][row]`: the row with every rank above `h` one lower (made when first needed). */
const HALVED: Uint16Array[] = [];

const halvedAbove = (h: number): Uint16Array => {
  let t = HALVED[h];
  if (t === undefined) {
    t = new Uint16Array(65536);
    for (let row = 0; row < 65536; row++) {
      let out = 0;
      for (let i = 0; i < 16; i += 4) {
        const r = (row >>> i) & 15;
        out |= (r > h ? r - 1 : r) << i;
      }
      t[row] = out;
    }
    HALVED[h] = t;
  }
  return t;
};

/**
 * Whether compact board `lo`, `hi` has a tile of rank `minRank` (1-15) or more: the 8
 * ranks of a word in two lanes of 4 bytes each, `16 - minRank` added to every byte, and
 * a carry into a byte's bit 4 marks a rank that reached it (no byte overflows).
 */
export const hasRank = (lo: number, hi: number, minRank: number): boolean => {
  const add = (16 - minRank) * 0x01010101;
  const lanes = ((lo & 0x0f0f0f0f) + add) | (((lo >>> 4) & 0x0f0f0f0f) + add) |
    ((hi & 0x0f0f0f0f) + add) | (((hi >>> 4) & 0x0f0f0f0f) + add);
  return (lanes & 0x10101010) !== 0;
};

/**
 * Writes into `out` the compact board `lo`, `hi` downgraded from rank `minRank` on: while
 * its largest rank is at least `minRank` and a rank between 1 and the largest is missing,
 * every rank above the largest missing one goes one down. Returns whether the board
 * changed; `out` is written only when it did (the caller reads `lo`, `hi` otherwise).
 */
export const downgrade = (lo: number, hi: number, minRank: number, out: Int32Array): boolean => {
  if (minRank > 15 || !hasRank(lo, hi, minRank)) return false;
  const lo0 = lo, hi0 = hi;
  for (;;) {
    const present = ROW_RANKS[lo & 0xffff] | ROW_RANKS[lo >>> 16] | ROW_RANKS[hi & 0xffff] |
      ROW_RANKS[hi >>> 16];
    const top = 31 - Math.clz32(present);
    if (top < minRank) break;
    const missing = ~present & ((1 << top) - 2);
    if (missing === 0) break;
    const t = halvedAbove(31 - Math.clz32(missing));
    lo = t[lo & 0xffff] | (t[lo >>> 16] << 16);
    hi = t[hi & 0xffff] | (t[hi >>> 16] << 16);
  }
  out[0] = lo;
  out[1] = hi;
  return lo !== lo0 || hi !== hi0;
};

/**
 * The same on a list of ranks (0 empty), read cell by cell: the reference the tests hold
 * `downgrade` to.
 */
export const downgradeRanks = (ranks: readonly number[], minRank: number): number[] => {
  let cells = [...ranks];
  for (;;) {
    const top = Math.max(0, ...cells);
    if (top < minRank) return cells;
    let hole = 0;
    for (let r = top - 1; r >= 1 && hole === 0; r--) if (!cells.includes(r)) hole = r;
    if (hole === 0) return cells;
    cells = cells.map((r) => (r > hole ? r - 1 : r));
  }
};

/** The rank threshold of a `downgrade=T` parameter: the ranks of tiles of at least `T`. */
export const downgradeRank = (tile: number | undefined): number =>
  tile === undefined || tile <= 0 ? Infinity : Math.max(1, Math.ceil(Math.log2(tile)));
