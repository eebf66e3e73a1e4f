/**
 * Files that hold a user's data (saved games, autosaves, tactics suites, a series'
 * settings and reports): written atomically, so that a crash, a kill or a full disk
 * leaves either the old file or the new one, never a half-written one; and autosaves
 * named exclusively, so that two games started in the same second get two files.
 *
 * @module
 */

import { folderOf } from "../core/atomic.ts";

export { type AtomicIo, folderOf, writeFileAtomic } from "../core/atomic.ts";

/** Makes the folder `path` will be written in, and its parents, when missing. */
export const makeFolderFor = (path: string): void => {
  Deno.mkdirSync(folderOf(path), { recursive: true });
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

/** ply's folder of state: `$XDG_STATE_HOME/ply`, or `~/.local/state/ply` without it. */
export const stateFolder = (): string => {
  const state = Deno.env.get("XDG_STATE_HOME");
  const base = state !== undefined && state !== ""
    ? state
    : `${Deno.env.get("HOME") ?? "."}/.local/state`;
  return `${base}/ply`;
};

/** The folder where `play` saves the games with a person in them. */
export const gamesFolder = (): string => `${stateFolder()}/games`;

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
