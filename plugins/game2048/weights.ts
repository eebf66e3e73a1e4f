/**
 * The n-tuple network's file: a header, then the weights.
 *
 * | bytes         | content                                                             |
 * | ------------- | ------------------------------------------------------------------- |
 * | 0-7           | magic `PLY2048N`                                                    |
 * | 8-11          | format version (u32, little-endian; this is version 3)              |
 * | 12-15         | number of tuples `m` (u32)                                          |
 * | 16-19         | byte length `L` of the metadata (u32)                               |
 * | 20-23         | checksum (u32) of every byte from 24 to the end of the weights      |
 * | 24 ..         | `m` tuples of 16 bytes: the cell count `n` (1-7), `n` cells (0-15), zeros |
 * | then          | `L` bytes of UTF-8 JSON metadata (`TrainMeta`), zeros to a multiple of 4 |
 * | then          | the weights: `stages * sum 16^n` float32, little-endian, stage      |
 * |               | after stage, tuple after tuple (`stages` in the metadata, default 1) |
 * | then          | only when the metadata says `"tc": true`: the coherence accumulators, |
 * |               | two float32 per weight (`E_i`, `A_i`), then their checksum (u32)    |
 *
 * The checksums are `checksumWords` over those bytes read as little-endian u32 words.
 * Version 1 is version 2 without a coherence section, version 2 is version 3 of one
 * stage; all three are read.
 *
 * Version 4 is a **packed** network, small enough to ship (`encodePacked`): the same
 * header, tuples and metadata, then instead of the weights
 *
 * | bytes | content                                                                   |
 * | ----- | ------------------------------------------------------------------------- |
 * | 0-3   | `K`, the number of weights stored (u32); every other weight is 0          |
 * | 4-7   | the unit (f32): a stored weight is a 16-bit integer times the unit        |
 * | 8-11  | `G`, the byte length of the index stream (u32)                            |
 * | 12-15 | `Z`, the byte length of the compressed data (u32)                         |
 * | 16-   | `Z` bytes of zlib (deflate): the index stream (each stored weight's gap   |
 * |       | from the one before, minus one, from -1, as LEB128), then the `K` low     |
 * |       | bytes of the integers, then their `K` high bytes; zeros to a multiple of 4 |
 *
 * and the checksum at 20 covers every byte from 24 to the end of the file. A packed file
 * has no coherence section. A
 * missing, truncated, foreign or damaged file is a `WeightsError` naming the file and
 * saying how to make one (`deno task train 2048 --out FILE`).
 *
 * @module
 */
import { deflateSync, inflateSync } from "node:zlib";
import { writeFileAtomic } from "../../core/atomic.ts";
import {
  createNetwork,
  MAX_STAGES,
  type NTupleNetwork,
  type NTupleShape,
  sharedFloats,
  stagesOf,
  weightCount,
} from "./ntuple.ts";

/** The file's first 8 bytes. */
export const MAGIC = "PLY2048N";
/**
 * The format version this module writes (3: version 1, a coherence section when the
 * metadata says `tc` (2), and the stages the metadata gives (3)); it reads 1 to 3.
 */
export const VERSION = 3;
/** The format version of a packed network (`encodePacked`). */
export const PACKED_VERSION = 4;
const FIXED = 24;
const PACKED_FIELDS = 16;
const TUPLE_BYTES = 16;

/** A point of the training curve: the last window's figures after `games` games. */
export interface CurvePoint {
  /** Games trained so far. */
  readonly games: number;
  /** Milliseconds of training so far. */
  readonly ms: number;
  /** Games in the window. */
  readonly window: number;
  /** The window's mean score. */
  readonly meanScore: number;
  /** Shares of the window's games reaching 2048, 4096, 8192, 16384, 32768. */
  readonly reached: readonly number[];
}

/** What a checkpoint says about its training (the file's metadata). */
export interface TrainMeta {
  /** The shape's name. */
  readonly net: string;
  /** The training's seed (tiles of game `g` come from the seed and `g`). */
  readonly seed: number;
  /** The learning rate (per board; each of its features takes `alpha / features`). */
  readonly alpha: number;
  /** The optimistic initial value of every board (0 or absent: none). */
  readonly init?: number;
  /** True when the network learns by temporal coherence (the file has its accumulators). */
  readonly tc?: boolean;
  /** The network's stages (`ntuple.ts` `NTupleShape.stages`; absent: 1). */
  readonly stages?: number;
  /** The share of training games that start late, from a saved position (0 or absent: none). */
  readonly late?: number;
  /** Each worker's late-start positions (`train.ts` `StartPool` words). */
  readonly starts?: readonly (readonly number[])[];
  /** Games trained. */
  readonly games: number;
  /** Slides trained. */
  readonly moves: number;
  /** Milliseconds of training. */
  readonly ms: number;
  /** The training curve. */
  readonly history: readonly CurvePoint[];
  /**
   * Only in a packed network (`encodePacked`): the number of weights the packing set
   * to 0 (those that learned least); and, as read (from the packed section, where it is
   * stored), the unit its weights were rounded to.
   */
  readonly packed?: { readonly pruned: number; readonly unit?: number };
}

/** A weights file that cannot be read; the message names the file and what to run. */
export class WeightsError extends Error {
  /** The file. */
  readonly file: string;
  /** What is wrong with it. */
  readonly problem: string;
  /** The error of `file` (as the user named it), with what is wrong with it. */
  constructor(file: string, problem: string) {
    super(
      `${file}: ${problem}; make a network with: deno task train 2048 --out ${file}`,
    );
    this.name = "WeightsError";
    this.file = file;
    this.problem = problem;
  }
}

/** A hash of little-endian u32 words (xor-multiply, rotated; murmur3's finalizer). */
export const checksumWords = (bytes: Uint8Array): number => {
  const n = bytes.length >>> 2;
  const words = bytes.byteOffset % 4 === 0
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, n)
    : new Uint32Array(bytes.slice(0, 4 * n).buffer);
  let h = 0x2048 ^ bytes.length;
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ words[i], 0x9e3779b1);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/**
 * A file of `net`'s shape: the header (format `version`), tuples and `meta` written,
 * followed by `body` zero bytes for the caller to fill from `head`. The metadata says
 * `"tc": true` exactly when `tc`, and gives the network's stages when there are several.
 */
const fileWithHeader = (
  net: NTupleNetwork,
  meta: TrainMeta,
  version: number,
  tc: boolean,
  body: number,
): { bytes: Uint8Array; view: DataView; head: number } => {
  const m = net.shape.tuples.length;
  const { tc: _, stages: __, ...rest } = meta;
  const stages = stagesOf(net.shape);
  const metaBytes = new TextEncoder().encode(
    JSON.stringify({ ...rest, ...(tc ? { tc: true } : {}), ...(stages > 1 ? { stages } : {}) }),
  );
  const head = FIXED + TUPLE_BYTES * m + ((metaBytes.length + 3) & ~3);
  const bytes = new Uint8Array(head + body);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, version, true);
  view.setUint32(12, m, true);
  view.setUint32(16, metaBytes.length, true);
  net.shape.tuples.forEach((t, i) => {
    bytes[FIXED + TUPLE_BYTES * i] = t.length;
    t.forEach((c, k) => (bytes[FIXED + TUPLE_BYTES * i + 1 + k] = c));
  });
  bytes.set(metaBytes, FIXED + TUPLE_BYTES * m);
  return { bytes, view, head };
};

/** The bytes of a network's file (with its coherence section when the network has one). */
export const encodeWeights = (net: NTupleNetwork, meta: TrainMeta): Uint8Array => {
  const coherence = net.coherence;
  const weightBytes = 4 * net.weights.length;
  const { bytes, view, head } = fileWithHeader(
    net,
    meta,
    VERSION,
    coherence !== undefined,
    weightBytes + (coherence === undefined ? 0 : 4 * coherence.length + 4),
  );
  const end = head + weightBytes;
  new Float32Array(bytes.buffer, head, net.weights.length).set(net.weights);
  view.setUint32(20, checksumWords(bytes.subarray(FIXED, end)), true);
  if (coherence !== undefined) {
    new Float32Array(bytes.buffer, end, coherence.length).set(coherence);
    const last = bytes.length - 4;
    view.setUint32(last, checksumWords(bytes.subarray(end, last)), true);
  }
  return bytes;
};

/** How `encodePacked` packs a network. */
export interface PackOptions {
  /**
   * Keep at most this many weights, those that learned most (the largest sums of error
   * sizes in the coherence accumulators, which the network must then have), and set the
   * others to 0. Default: every weight that is not 0.
   */
  readonly keep?: number;
  /** Round every weight to a multiple of this (default 8, or more if 16 bits need it). */
  readonly unit?: number;
}

/** The default unit of a packed network's weights (score points). */
export const PACK_UNIT = 8;

/**
 * The largest `A` (coherence accumulator: the sum of a weight's error sizes) among the
 * nonzero weights of `net` that are not the `keep` with the largest: a weight is kept
 * when its `A` is above it (ties with the largest left out are left out too, so at most
 * `keep` are kept). `-Infinity` when there are `keep` nonzero weights or fewer.
 */
const keepThreshold = (net: NTupleNetwork, keep: number): number => {
  const { weights, coherence } = net;
  let nonzero = 0;
  for (let i = 0; i < weights.length; i++) if (weights[i] !== 0) nonzero++;
  if (nonzero <= keep) return -Infinity;
  if (coherence === undefined) {
    throw new Error(
      "only a network with coherence accumulators (trained with --tc) can be pruned",
    );
  }
  const sizes = new Float32Array(nonzero);
  for (let i = 0, k = 0; i < weights.length; i++) {
    if (weights[i] !== 0) sizes[k++] = coherence[2 * i + 1];
  }
  sizes.sort();
  return sizes[nonzero - keep - 1];
};

/**
 * The bytes of `net` as a packed network (format version 4, see the module notes): its
 * weights rounded to multiples of a unit, only the nonzero ones stored, deflated; with
 * `keep`, only the weights that learned most. The coherence accumulators are not kept;
 * the metadata records how many weights were dropped.
 */
export const encodePacked = (
  net: NTupleNetwork,
  meta: TrainMeta,
  options: PackOptions = {},
): Uint8Array => {
  const { weights, coherence } = net;
  const threshold = options.keep === undefined ? -Infinity : keepThreshold(net, options.keep);
  let largest = 0;
  for (let i = 0; i < weights.length; i++) largest = Math.max(largest, Math.abs(weights[i]));
  // A unit a float32 holds exactly, large enough for every weight to fit 16 bits.
  const unit = Math.fround(Math.max(options.unit ?? PACK_UNIT, largest / 32000));
  const gaps: number[] = [], values: number[] = [];
  let last = -1, pruned = 0;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] === 0) continue;
    if (threshold > -Infinity && !(coherence![2 * i + 1] > threshold)) {
      pruned++;
      continue;
    }
    const q = Math.round(weights[i] / unit);
    if (q === 0) continue;
    for (let gap = i - last - 1;; gap = Math.floor(gap / 128)) {
      if (gap < 128) {
        gaps.push(gap);
        break;
      }
      gaps.push((gap & 127) | 128);
    }
    last = i;
    values.push(q);
  }
  const k = values.length, raw = new Uint8Array(gaps.length + 2 * k);
  raw.set(gaps);
  for (let j = 0; j < k; j++) {
    raw[gaps.length + j] = values[j] & 255;
    raw[gaps.length + k + j] = (values[j] >> 8) & 255;
  }
  const data = deflateSync(raw, { level: 9 });
  const { bytes, view, head } = fileWithHeader(
    net,
    { ...meta, packed: { pruned } },
    PACKED_VERSION,
    meta.tc === true,
    PACKED_FIELDS + ((data.length + 3) & ~3),
  );
  view.setUint32(head, k, true);
  view.setFloat32(head + 4, unit, true);
  view.setUint32(head + 8, gaps.length, true);
  view.setUint32(head + 12, data.length, true);
  bytes.set(data, head + PACKED_FIELDS);
  view.setUint32(20, checksumWords(bytes.subarray(FIXED)), true);
  return bytes;
};

/** A network read from a file, with its training metadata. */
export interface LoadedWeights {
  /** The network (with its coherence accumulators only when read for training). */
  readonly net: NTupleNetwork;
  /** Its training. */
  readonly meta: TrainMeta;
}

/** Where a file's bytes come from: its size, and a read of `length` bytes at `at`. */
interface Source {
  readonly size: number;
  readonly read: (at: number, length: number) => Uint8Array;
}

const bytesSource = (bytes: Uint8Array): Source => ({
  size: bytes.length,
  read: (at, length) => bytes.subarray(at, at + length),
});

const damagedPack = (file: string) => new WeightsError(file, "damaged packed weights");

/**
 * The `count` weights of a packed file (`source`, named `file` in errors, checksum `sum`)
 * whose packed section starts at `head` (on a `SharedArrayBuffer` for `training`), and
 * their unit.
 */
const unpack = (
  source: Source,
  file: string,
  head: number,
  count: number,
  training: boolean,
  sum: number,
): { weights: Float32Array; unit: number } => {
  if (source.size < head + PACKED_FIELDS) throw new WeightsError(file, "truncated");
  const all = source.read(FIXED, source.size - FIXED);
  const view = new DataView(all.buffer, all.byteOffset + head - FIXED, PACKED_FIELDS);
  const k = view.getUint32(0, true), unit = view.getFloat32(4, true);
  const g = view.getUint32(8, true), z = view.getUint32(12, true);
  const size = head + PACKED_FIELDS + ((z + 3) & ~3);
  if (source.size !== size) {
    throw new WeightsError(
      file,
      `${source.size} bytes, its packed weights need ${size} (truncated?)`,
    );
  }
  if (checksumWords(all) !== sum) {
    throw new WeightsError(file, "checksum mismatch (the file is damaged)");
  }
  let raw: Uint8Array;
  try {
    const at = head - FIXED + PACKED_FIELDS;
    raw = inflateSync(all.subarray(at, at + z));
  } catch {
    raw = new Uint8Array(0);
  }
  if (raw.length !== g + 2 * k) throw damagedPack(file);
  const weights = training ? sharedFloats(count) : new Float32Array(count);
  let i = -1, at = 0;
  for (let j = 0; j < k; j++) {
    let gap = 0, scale = 1, byte;
    do {
      if (at >= g) throw damagedPack(file);
      byte = raw[at++];
      gap += (byte & 127) * scale;
      scale *= 128;
    } while (byte >= 128);
    i += gap + 1;
    if (i >= count) throw damagedPack(file);
    weights[i] = (((raw[g + k + j] << 24) >> 16) | raw[g + j]) * unit;
  }
  if (at !== g) throw damagedPack(file);
  return { weights, unit };
};

/**
 * Decodes a network from `source` (`file` names it in errors). For `training`, the
 * weights and the coherence accumulators (if the file has them) go to `SharedArrayBuffer`s
 * for the workers; otherwise the weights stay where they were read, and a coherence
 * section is neither read nor checked (a player does not need it).
 */
const decode = (source: Source, file: string, training: boolean): LoadedWeights => {
  const fixed = source.read(0, FIXED);
  if (fixed.length < FIXED || new TextDecoder().decode(fixed.subarray(0, 8)) !== MAGIC) {
    throw new WeightsError(file, "not a 2048 n-tuple network (no PLY2048N header)");
  }
  const view = new DataView(fixed.buffer, fixed.byteOffset, FIXED);
  const version = view.getUint32(8, true);
  if (version < 1 || version > PACKED_VERSION) {
    throw new WeightsError(
      file,
      `format version ${version}, this program reads 1 to ${PACKED_VERSION}`,
    );
  }
  const m = view.getUint32(12, true), metaLength = view.getUint32(16, true);
  if (m < 1 || m > 64 || metaLength > 1 << 26) throw new WeightsError(file, "damaged header");
  const head = FIXED + TUPLE_BYTES * m + ((metaLength + 3) & ~3);
  if (source.size < head) throw new WeightsError(file, "truncated header");
  const header = source.read(FIXED, head - FIXED);
  const tuples: number[][] = [];
  for (let i = 0; i < m; i++) {
    const at = TUPLE_BYTES * i, n = header[at];
    if (n < 1 || n > 7) throw new WeightsError(file, `tuple ${i} has ${n} cells`);
    tuples.push([...header.subarray(at + 1, at + 1 + n)]);
  }
  let meta: TrainMeta;
  try {
    const at = TUPLE_BYTES * m;
    meta = JSON.parse(new TextDecoder().decode(header.subarray(at, at + metaLength)));
  } catch {
    throw new WeightsError(file, "damaged metadata");
  }
  const stages = version >= 3 ? meta.stages ?? 1 : 1;
  if (!Number.isInteger(stages) || stages < 1 || stages > MAX_STAGES) {
    throw new WeightsError(file, `${stages} stages, this program reads 1 to ${MAX_STAGES}`);
  }
  const shape: NTupleShape = { name: String(meta.net ?? "custom"), tuples, stages };
  const count = weightCount(shape);
  if (version === PACKED_VERSION) {
    const { weights, unit } = unpack(
      source,
      file,
      head,
      count,
      training,
      view.getUint32(20, true),
    );
    return {
      net: createNetwork(shape, weights),
      meta: { ...meta, packed: { pruned: meta.packed?.pruned ?? 0, unit } },
    };
  }
  const tc = version >= 2 && meta.tc === true;
  const end = head + 4 * count, size = end + (tc ? 8 * count + 4 : 0);
  if (source.size !== size) {
    throw new WeightsError(
      file,
      `${source.size} bytes, a ${shape.name} network${stages > 1 ? ` of ${stages} stages` : ""}${
        tc ? " with its coherence accumulators" : ""
      } has ${size} (truncated?)`,
    );
  }
  // One read from byte 24 to the end of the weights: the checksummed part.
  const body = source.read(FIXED, end - FIXED);
  if (checksumWords(body) !== view.getUint32(20, true)) {
    throw new WeightsError(file, "checksum mismatch (the file is damaged)");
  }
  const stored = (body.byteOffset + head - FIXED) % 4 === 0
    ? new Float32Array(body.buffer, body.byteOffset + head - FIXED, count)
    : new Float32Array(body.slice(head - FIXED).buffer);
  if (!training) {
    // The weights stay where they were read (a 4x6 network is 268 MB: a copy costs a
    // quarter of a second more, where a search's first move waits for it).
    return { net: createNetwork(shape, stored), meta };
  }
  const weights = sharedFloats(count);
  weights.set(stored);
  let coherence: Float32Array | undefined;
  if (tc) {
    const section = source.read(end, 8 * count + 4);
    const sum = new DataView(section.buffer, section.byteOffset + 8 * count, 4).getUint32(0, true);
    if (checksumWords(section.subarray(0, 8 * count)) !== sum) {
      throw new WeightsError(file, "checksum mismatch in the coherence accumulators");
    }
    coherence = sharedFloats(2 * count);
    coherence.set(new Float32Array(section.slice(0, 8 * count).buffer));
  }
  return { net: createNetwork(shape, weights, coherence), meta };
};

/**
 * Decodes a network's file (`file` names it in errors); `training` as `loadWeights`.
 */
export const decodeWeights = (bytes: Uint8Array, file: string, training = false): LoadedWeights =>
  decode(bytesSource(bytes), file, training);

/**
 * Reads a network's file, named `name` in errors (the path as the user typed it; default
 * `file`). For `training`, the weights and coherence accumulators are read into shared
 * memory for the workers; to play, only the header and the weights are read (a missing
 * file is an error too).
 */
export const loadWeights = (file: string, training = false, name: string = file): LoadedWeights => {
  let handle: Deno.FsFile;
  try {
    handle = Deno.openSync(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new WeightsError(name, "no such file");
    throw new WeightsError(name, e instanceof Error ? e.message : String(e));
  }
  try {
    const source: Source = {
      size: handle.statSync().size,
      read: (at, length) => {
        const buffer = new Uint8Array(length);
        handle.seekSync(at, Deno.SeekMode.Start);
        let done = 0;
        while (done < length) {
          const n = handle.readSync(buffer.subarray(done));
          if (n === null) break;
          done += n;
        }
        return buffer.subarray(0, done);
      },
    };
    return decode(source, name, training);
  } finally {
    handle.close();
  }
};

/**
 * Writes a network's file whole, atomically (`writeFileAtomic`); packed (`encodePacked`)
 * when `pack` is given. Returns the file's size.
 */
export const saveWeights = (
  file: string,
  net: NTupleNetwork,
  meta: TrainMeta,
  pack?: PackOptions,
): number => {
  const bytes = pack === undefined ? encodeWeights(net, meta) : encodePacked(net, meta, pack);
  writeFileAtomic(file, bytes);
  return bytes.length;
};
