/**
 * Files that hold a user's data (saved games, autosaves, tactics suites, a series'
 * settings and reports): written atomically, so that a crash, a kill or a full disk
 * leaves either the old file or the new one, never a half-written one; and autosaves
 * named exclusively, so that two games started in the same second get two files.
 *
 * @module
 */

/** The operations `writeFileAtomic` uses: the real ones by default, a failing one in tests. */
export interface AtomicIo {
  /** Writes all of `bytes` to `file`. */
  readonly write: (file: Deno.FsFile, bytes: Uint8Array) => void;
  /** Moves `from` over `to` (one step: a reader sees the old file or the new). */
  readonly rename: (from: string, to: string) => void;
}

/** The real file system's operations. */
const realIo: AtomicIo = {
  write: (file, bytes) => {
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
  },
  rename: (from, to) => Deno.renameSync(from, to),
};

/** The folder of `path` (`.` for a bare file name). */
export const folderOf = (path: string): string => {
  const cut = path.replace(/[\\/][^\\/]*$/, "");
  return cut === path ? "." : cut === "" ? "/" : cut;
};

/** Makes the folder `path` will be written in, and its parents, when missing. */
export const makeFolderFor = (path: string): void => {
  Deno.mkdirSync(folderOf(path), { recursive: true });
};

/**
 * Writes `text` to `path` atomically: into a new temporary file in the same folder,
 * synced to the disk, then renamed over `path`. When any step fails (a full disk, a
 * folder removed, no permission) the temporary file is removed, `path` keeps its old
 * content, and the error is thrown. The folder must exist (see `makeFolderFor`).
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./files.ts";
 * const dir = Deno.makeTempDirSync();
 * writeFileAtomic(`${dir}/game.json`, "{}\n");
 * if (Deno.readTextFileSync(`${dir}/game.json`) !== "{}\n") throw new Error();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export const writeFileAtomic = (path: string, text: string, io: AtomicIo = realIo): void => {
  const name = path.replace(/^.*[\\/]/, "");
  const tmp = `${folderOf(path)}/.${name}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const file = Deno.openSync(tmp, { write: true, createNew: true });
  try {
    try {
      io.write(file, new TextEncoder().encode(text));
      file.syncSync();
    } finally {
      file.close();
    }
    io.rename(tmp, path);
  } catch (e) {
    try {
      Deno.removeSync(tmp);
    } catch { /* already gone (its folder was removed) */ }
    throw e;
  }
  syncFolder(folderOf(path));
};

/** Syncs a folder's entries (the rename) to the disk, where the platform allows it. */
const syncFolder = (dir: string): void => {
  try {
    const d = Deno.openSync(dir, { read: true });
    try {
      d.syncSync();
    } finally {
      d.close();
    }
  } catch { /* not possible here (Windows): the rename is still atomic */ }
};

/**
 * Creates a new empty file `STEM.json` in `dir` (making `dir`), or `STEM-2.json`,
 * `STEM-3.json`, ... when the name is taken: created exclusively, so that two programs
 * never get the same file. Returns its path.
 */
export const createUniqueFile = (dir: string, stem: string, ext = ".json"): string => {
  Deno.mkdirSync(dir, { recursive: true });
  for (let n = 1;; n++) {
    const path = `${dir}/${stem}${n === 1 ? "" : `-${n}`}${ext}`;
    try {
      Deno.openSync(path, { write: true, createNew: true }).close();
      return path;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
  }
};

/** The folder where `play` saves the games with a person in them. */
export const gamesFolder = (): string => {
  const state = Deno.env.get("XDG_STATE_HOME");
  const base = state !== undefined && state !== ""
    ? state
    : `${Deno.env.get("HOME") ?? "."}/.local/state`;
  return `${base}/ply/games`;
};

/** The name (without `.json`) of an autosave of a game of `id` started at `now`. */
export const autosaveStem = (id: string, now: Date): string => {
  const stamp = now.toISOString().replace(/[:.]/g, "-").replace(/-\d+Z$/, "");
  const safe = id.replace(/^.*[\\/]/, "").replace(/\.[a-z]+$/, "").replace(/[^\w-]/g, "_");
  return `${safe}-${stamp}`;
};

/**
 * Creates a new autosave file for a game of `id` in the games folder (`gamesFolder`):
 * `ID-TIME.json`, with a suffix `-2`, `-3`, ... when a game of the same second has it.
 */
export const createAutosave = (id: string, now: Date = new Date()): string =>
  createUniqueFile(gamesFolder(), autosaveStem(id, now));
