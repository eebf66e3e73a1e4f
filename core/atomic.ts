/**
 * Writing a file atomically, for every file that holds a user's data (saved games,
 * suites, trained networks, endgame databases): a temporary file in the same folder,
 * synced to the disk, renamed over the target, so that a crash, a kill or a full disk
 * leaves the old file or the new one, never half of one. The one place in the kernel that
 * writes files; the application (`app/files.ts`) and the plugins' programs use it.
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

/**
 * Writes `data` (text, bytes, or pieces of bytes made as they are written, for a file too
 * big to hold at once) to `path` atomically: into a new temporary file in the same folder,
 * synced to the disk, then renamed over `path`. When any step fails (a full disk, a
 * folder removed, no permission) the temporary file is removed, `path` keeps its old
 * content, and the error is thrown. The folder must exist.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./atomic.ts";
 * const dir = Deno.makeTempDirSync();
 * writeFileAtomic(`${dir}/game.json`, "{}\n");
 * if (Deno.readTextFileSync(`${dir}/game.json`) !== "{}\n") throw new Error();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export const writeFileAtomic = (
  path: string,
  data: string | Uint8Array | Iterable<Uint8Array>,
  io: AtomicIo = realIo,
): void => {
  const name = path.replace(/^.*[\\/]/, "");
  const tmp = `${folderOf(path)}/.${name}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const file = Deno.openSync(tmp, { write: true, createNew: true });
  try {
    try {
      if (typeof data === "string") io.write(file, new TextEncoder().encode(data));
      else if (data instanceof Uint8Array) io.write(file, data);
      else for (const piece of data) io.write(file, piece);
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
