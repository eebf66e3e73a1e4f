/**
 * Endgame databases on disk: `deno task kalah-db` writes them under `out/kalah-db/`
 * (git-ignored, never committed) and the solver loads the largest one that fits its
 * board. A file is the raw values (`Int8Array`) of every level up to its size; a prefix
 * of a file is a smaller database.
 *
 * @module
 */
import { dbFromValues, dbSize, type EndgameDb } from "./db.ts";
import { writeFileAtomic } from "../../core/atomic.ts";

/** The directory the databases live in: `out/kalah-db/` at the repository's root. */
export const defaultDbDir = (): URL => new URL("../../out/kalah-db/", import.meta.url);

/** The file name of a database. */
export const dbFileName = (pits: number, captureAlways: boolean, maxStones: number): string =>
  `kalah-p${pits}-${captureAlways ? "always" : "nonempty"}-s${maxStones}.bin`;

/** Writes a database into `dir` (created if needed), atomically; returns the file's URL. */
export const saveDb = (db: EndgameDb, dir: URL = defaultDbDir()): URL => {
  Deno.mkdirSync(dir, { recursive: true });
  const file = new URL(dbFileName(db.pits, db.captureAlways, db.maxStones), dir);
  const bytes = new Uint8Array(db.values.buffer, db.values.byteOffset, db.values.length);
  writeFileAtomic(decodeURIComponent(file.pathname), bytes);
  return file;
};

/** The databases found in `dir` for a board and rule, largest first (none on any error). */
export const listDbs = (
  pits: number,
  captureAlways: boolean,
  dir: URL = defaultDbDir(),
): { readonly maxStones: number; readonly file: URL }[] => {
  if (dir.protocol !== "file:") return [];
  const prefix = `kalah-p${pits}-${captureAlways ? "always" : "nonempty"}-s`;
  const found: { maxStones: number; file: URL }[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      const m = e.isFile && e.name.startsWith(prefix)
        ? /^(\d+)\.bin$/.exec(e.name.slice(prefix.length))
        : null;
      if (m !== null) found.push({ maxStones: Number(m[1]), file: new URL(e.name, dir) });
    }
  } catch {
    return []; // no directory, or no permission to read it
  }
  return found.sort((a, b) => b.maxStones - a.maxStones);
};

/**
 * Loads the largest database for a board and rule from `dir`, cut to at most
 * `maxStones` stones; `undefined` when there is none (or it cannot be read).
 */
export const loadDb = (
  pits: number,
  captureAlways: boolean,
  maxStones = 127,
  dir: URL = defaultDbDir(),
): EndgameDb | undefined => {
  for (const { maxStones: size, file } of listDbs(pits, captureAlways, dir)) {
    const use = Math.min(size, maxStones);
    try {
      const bytes = Deno.readFileSync(file);
      if (bytes.length !== dbSize(pits, size)) continue; // truncated or foreign: skip it
      const values = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      return dbFromValues(pits, captureAlways, use, values);
    } catch {
      continue;
    }
  }
  return undefined;
};
