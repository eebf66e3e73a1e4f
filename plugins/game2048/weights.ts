/**
 * The n-tuple network's file: a header, then the weights.
 *
 * | bytes         | content                                                             |
 * | ------------- | ------------------------------------------------------------------- |
 * | 0-7           | magic `PLY2048N`                                                    |
 * | 8-11          | format version (u32, little-endian; this is version 1)              |
 * | 12-15         | number of tuples `m` (u32)                                          |
 * | 16-19         | byte length `L` of the metadata (u32)                               |
 * | 20-23         | checksum (u32) of every byte from 24 to the end                     |
 * | 24 ..         | `m` tuples of 16 bytes: the cell count `n` (1-7), `n` cells (0-15), zeros |
 * | then          | `L` bytes of UTF-8 JSON metadata (`TrainMeta`), zeros to a multiple of 4 |
 * | then          | the weights: `sum 16^n` float32, little-endian, tuple after tuple   |
 *
 * The checksum is `checksumWords` over those bytes read as little-endian u32 words. A
 * missing, truncated, foreign or damaged file is a `WeightsError` naming the file and
 * saying how to make one (`deno task train 2048 --out FILE`).
 *
 * @module
 */
import { createNetwork, type NTupleNetwork, type NTupleShape, weightCount } from "./ntuple.ts";

/** The file's first 8 bytes. */
export const MAGIC = "PLY2048N";
/** The format version this module writes and reads. */
export const VERSION = 1;
const FIXED = 24;
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
  /** Games trained. */
  readonly games: number;
  /** Slides trained. */
  readonly moves: number;
  /** Milliseconds of training. */
  readonly ms: number;
  /** The training curve. */
  readonly history: readonly CurvePoint[];
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

/** The bytes of a network's file. */
export const encodeWeights = (net: NTupleNetwork, meta: TrainMeta): Uint8Array => {
  const m = net.shape.tuples.length;
  const metaBytes = new TextEncoder().encode(JSON.stringify(meta));
  const metaPadded = (metaBytes.length + 3) & ~3;
  const head = FIXED + TUPLE_BYTES * m + metaPadded;
  const bytes = new Uint8Array(head + 4 * net.weights.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, VERSION, true);
  view.setUint32(12, m, true);
  view.setUint32(16, metaBytes.length, true);
  net.shape.tuples.forEach((t, i) => {
    bytes[FIXED + TUPLE_BYTES * i] = t.length;
    t.forEach((c, k) => (bytes[FIXED + TUPLE_BYTES * i + 1 + k] = c));
  });
  bytes.set(metaBytes, FIXED + TUPLE_BYTES * m);
  new Float32Array(bytes.buffer, head, net.weights.length).set(net.weights);
  view.setUint32(20, checksumWords(bytes.subarray(FIXED)), true);
  return bytes;
};

/** A network read from a file, with its training metadata. */
export interface LoadedWeights {
  /** The network. */
  readonly net: NTupleNetwork;
  /** Its training. */
  readonly meta: TrainMeta;
}

/**
 * Decodes a network's file (`file` names it in errors); the weights go to `into` when
 * given (a shared array for training workers, of the right length) or a fresh array.
 */
export const decodeWeights = (
  bytes: Uint8Array,
  file: string,
  into?: (shape: NTupleShape) => Float32Array,
): LoadedWeights => {
  if (bytes.length < FIXED || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw new WeightsError(file, "not a 2048 n-tuple network (no PLY2048N header)");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== VERSION) {
    throw new WeightsError(file, `format version ${version}, this program reads ${VERSION}`);
  }
  const m = view.getUint32(12, true), metaLength = view.getUint32(16, true);
  const head = FIXED + TUPLE_BYTES * m + ((metaLength + 3) & ~3);
  if (m < 1 || m > 64 || bytes.length < head) throw new WeightsError(file, "truncated header");
  const tuples: number[][] = [];
  for (let i = 0; i < m; i++) {
    const at = FIXED + TUPLE_BYTES * i, n = bytes[at];
    if (n < 1 || n > 7) throw new WeightsError(file, `tuple ${i} has ${n} cells`);
    tuples.push([...bytes.subarray(at + 1, at + 1 + n)]);
  }
  let meta: TrainMeta;
  try {
    const text = new TextDecoder().decode(
      bytes.subarray(FIXED + TUPLE_BYTES * m, FIXED + TUPLE_BYTES * m + metaLength),
    );
    meta = JSON.parse(text);
  } catch {
    throw new WeightsError(file, "damaged metadata");
  }
  const shape: NTupleShape = { name: String(meta.net ?? "custom"), tuples };
  const count = weightCount(shape);
  if (bytes.length !== head + 4 * count) {
    throw new WeightsError(
      file,
      `${bytes.length} bytes, a ${shape.name} network has ${head + 4 * count} (truncated?)`,
    );
  }
  if (checksumWords(bytes.subarray(FIXED)) !== view.getUint32(20, true)) {
    throw new WeightsError(file, "checksum mismatch (the file is damaged)");
  }
  const aligned = (bytes.byteOffset + head) % 4 === 0;
  const stored = aligned
    ? new Float32Array(bytes.buffer, bytes.byteOffset + head, count)
    : new Float32Array(bytes.slice(head).buffer);
  // Without `into`, the weights stay where they were read (a 4x6 network is 268 MB: a
  // copy costs a quarter of a second more, where a search's first move waits for it).
  let weights = stored;
  if (into !== undefined) {
    weights = into(shape);
    weights.set(stored);
  }
  return { net: createNetwork(shape, weights), meta };
};

/**
 * Reads a network's file (errors as `decodeWeights`; a missing file is one too), named
 * `name` in errors (the path as the user typed it; default `file`).
 */
export const loadWeights = (
  file: string,
  into?: (shape: NTupleShape) => Float32Array,
  name: string = file,
): LoadedWeights => {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new WeightsError(name, "no such file");
    throw new WeightsError(name, e instanceof Error ? e.message : String(e));
  }
  return decodeWeights(bytes, name, into);
};

/** Writes a network's file whole: to a temporary file, then renamed over `file`. */
export const saveWeights = (file: string, net: NTupleNetwork, meta: TrainMeta): void => {
  const tmp = `${file}.tmp-${Deno.pid}`;
  Deno.writeFileSync(tmp, encodeWeights(net, meta));
  Deno.renameSync(tmp, file);
};
