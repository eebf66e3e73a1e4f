/**
 * A series' output folder (`--out DIR`): its settings (`series.json`), its games one JSON
 * line each (`games.jsonl`, read back by a rerun, which resumes), and its lock.
 *
 * - One process at a time: the folder's `lock` file is locked (an advisory `flock`, which
 *   the system drops when its process ends, however it ends) and names the process that
 *   holds it. A second process on the same folder is refused with that name; a lock left
 *   by a process that crashed is taken over, which the program says in one line.
 * - A record whose id an earlier line already holds (two processes that wrote into the
 *   same folder before it had a lock, a file joined from two copies) is dropped when the
 *   folder is read, and the file rewritten without it: every count is per distinct game.
 * - A write that fails (a full disk, a folder made read-only) is not a crash: the store
 *   keeps the first failure in one line, and the series stops and reports it.
 *
 * @module
 */
import { Effect, Result, type Scope } from "../../core/deps.ts";
import { writeFileAtomic } from "../files.ts";
import { UsageError, userPath } from "../cli.ts";
import { decodeTranscript } from "../transcript.ts";
import type { GameRecord } from "./runner.ts";

/** What is kept of a game that failed once and passed on its retry: its place and why. */
export type RetriedRecord = Pick<GameRecord, "id" | "round" | "pairing" | "retried">;

/** A record's retry, kept without its moves. */
export const retriedOf = (r: GameRecord): RetriedRecord => ({
  id: r.id,
  round: r.round,
  pairing: r.pairing,
  retried: r.retried,
});

/**
 * The games a folder keeps, without holding them: their ids, the few that faulted or were
 * retried, and a way to read each again (the file streamed, one record at a time), so a
 * folder of any size is resumed in little memory.
 */
export interface KeptGames {
  /** The ids of the games kept. */
  readonly ids: ReadonlySet<string>;
  /** The faulted ones, in the file's order (few: a series stops past `--max-faults`). */
  readonly faulted: readonly GameRecord[];
  /** Those that passed on their retry, in the file's order. */
  readonly retried: readonly RetriedRecord[];
  /** Hands each kept game to `f`, in the file's order, read from the folder again. */
  readonly each: (f: (record: GameRecord) => void) => void;
}

/** No games kept (a series without a folder). */
export const NO_GAMES: KeptGames = { ids: new Set(), faulted: [], retried: [], each: () => {} };

/** The games of `kept` whose ids `keep` accepts (the series' own fixtures). */
export const keptOnly = (kept: KeptGames, keep: (id: string) => boolean): KeptGames => {
  const ids = new Set([...kept.ids].filter(keep));
  return {
    ids,
    faulted: kept.faulted.filter((r) => keep(r.id)),
    retried: kept.retried.filter((r) => keep(r.id)),
    each: (f) => kept.each((r) => ids.has(r.id) && f(r)),
  };
};

/** The output folder: the settings, the games so far, and how to add one. */
export interface Store {
  /** The folder as the user named it. */
  readonly dir: string;
  /** The games already played (read back from `games.jsonl`), one record per game id. */
  readonly done: KeptGames;
  /** Records dropped when reading because an earlier line held the same game id. */
  readonly duplicates: number;
  /**
   * Set when this process took the folder over from one that ended without releasing it
   * (a crash, a kill): the line to tell the user.
   */
  readonly tookOver?: string;
  /**
   * Appends a finished game (one JSON line, written at once); a faulted game's transcript
   * is also written alone, as `faultedFile` names it (to load or review). False when the
   * write failed (then `failure` says why).
   */
  readonly append: (record: GameRecord) => boolean;
  /** Where a faulted game's transcript is kept: `DIR/faulted/ID.json`. */
  readonly faultedFile: (id: string) => string;
  /** Writes a file into the folder atomically; false when it failed (`failure` says why). */
  readonly write: (name: string, text: string) => boolean;
  /** A file of the folder (`results.json`), or undefined when it cannot be read. */
  readonly read: (name: string) => string | undefined;
  /** The first write that failed, in one line (`--out: cannot write ...`), if any. */
  readonly failure: () => string | undefined;
}

/**
 * The lines of a file, as `text.split("\n")` gives them (the last one is what follows the
 * last newline: "" when the file ends with one), read `chunk` bytes (a megabyte) at a
 * time: a games file of any size is never one string. A missing file has one empty line.
 */
export function* fileLines(path: string, chunk = 1 << 20): Generator<string> {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      yield "";
      return;
    }
    throw e;
  }
  try {
    const buffer = new Uint8Array(chunk);
    const decoder = new TextDecoder();
    let rest = "";
    for (;;) {
      const n = file.readSync(buffer);
      if (n === null) break;
      const scanned = rest.length; // (no newline before: a long line is scanned once)
      rest += decoder.decode(buffer.subarray(0, n), { stream: true });
      let from = 0;
      for (let at = rest.indexOf("\n", scanned); at >= 0; at = rest.indexOf("\n", from)) {
        yield rest.slice(from, at);
        from = at + 1;
      }
      rest = rest.slice(from);
    }
    yield rest + decoder.decode();
  } finally {
    file.close();
  }
}

/**
 * The lines of a games file to keep, each with its newline: all but those `dropped` (by
 * their number) and, when `cutLast`, the last (a record cut short).
 */
function* keptLines(path: string, dropped: ReadonlySet<number>, cutLast: boolean) {
  const encoder = new TextEncoder();
  let previous: string | undefined;
  let i = -1;
  for (const line of fileLines(path)) {
    if (previous !== undefined && !dropped.has(i) && previous.trim() !== "") {
      yield encoder.encode(previous + "\n");
    }
    previous = line;
    i++;
  }
  if (!cutLast && previous !== undefined && !dropped.has(i) && previous.trim() !== "") {
    yield encoder.encode(previous + "\n");
  }
}

const isRecord = (x: unknown): x is GameRecord => {
  if (typeof x !== "object" || x === null) return false;
  const r = x as Record<string, unknown>;
  return typeof r.id === "string" && typeof r.round === "number" &&
    typeof r.pairing === "number" && Array.isArray(r.seats) && r.seats.length === 2 &&
    typeof r.seed === "number" && typeof r.ms === "number" &&
    Result.isSuccess(decodeTranscript(r.transcript));
};

/** An error's message, its first line. */
const why = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split("\n")[0];

/** What the lock file says about its holder. */
interface Holder {
  readonly pid: number;
  readonly program: string;
  readonly since: string;
}

const readHolder = (file: Deno.FsFile): Holder | undefined => {
  try {
    file.seekSync(0, Deno.SeekMode.Start);
    const bytes = new Uint8Array(4096);
    const n = file.readSync(bytes) ?? 0;
    const h = JSON.parse(new TextDecoder().decode(bytes.subarray(0, n)));
    return typeof h?.pid === "number" ? h : undefined;
  } catch {
    return undefined; // empty, or not ours
  }
};

/**
 * Writes the lock file's text in place, always `LOCK_BYTES` long: once the file has its
 * room, rewriting it needs none (a full disk still lets a process lock and release).
 */
const LOCK_BYTES = 256;
const writeHolder = (file: Deno.FsFile, h: Holder | { readonly released: true }) => {
  const text = JSON.stringify(h);
  const bytes = new TextEncoder().encode(text.padEnd(LOCK_BYTES - 1) + "\n");
  file.seekSync(0, Deno.SeekMode.Start);
  let off = 0;
  while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
};

const holderText = (h: Holder | undefined): string =>
  h === undefined
    ? "another process"
    : `process ${h.pid} (deno task ${h.program}, since ${h.since})`;

/**
 * Locks the folder's `lock` file for this process until the scope closes: refused (naming
 * the holder) while another process holds it. Returns the line to say when the file named
 * a process that ended without releasing it.
 */
const lockFolder = (
  root: string,
  dir: string,
  program: string,
): Effect.Effect<string | undefined, UsageError, Scope.Scope> =>
  Effect.gen(function* () {
    const path = `${root}/lock`;
    const fail = (message: string) => Effect.fail(new UsageError({ message: `--out: ${message}` }));
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(path, { read: true, write: true, create: true });
    } catch (e) {
      return yield* fail(`cannot write in ${dir}: ${why(e)}`);
    }
    // The lock is the system's (flock): held by the open file, dropped when the process
    // ends. The file's text only names the holder for the message.
    if (!file.tryLockSync(true)) {
      const holder = readHolder(file);
      file.close();
      return yield* fail(
        `${dir} is in use by ${holderText(holder)}: wait for it to end, or name another folder`,
      );
    }
    const before = readHolder(file);
    const me: Holder = {
      pid: Deno.pid,
      program,
      since: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    };
    try {
      writeHolder(file, me);
    } catch (e) {
      file.close();
      return yield* fail(`cannot write in ${dir}: ${why(e)}`);
    }
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        // Released: the file says so (a lock that names no one was released), then it is
        // unlocked. It stays: removing it would let two processes lock two files.
        try {
          writeHolder(file, { released: true });
        } catch { /* the disk failed: the holder is named, but the lock is gone */ }
        try {
          file.close();
        } catch { /* already closed */ }
      })
    );
    return before !== undefined && before.pid !== Deno.pid
      ? `--out: took over ${dir} from ${holderText(before)}, which ended without releasing it`
      : undefined;
  });

/**
 * Opens (or creates) the output folder for a series with `settings`, locked for this
 * process (`program` names it to a second one) until the scope closes. A folder another
 * process holds, or holding a different series (the setting that differs named), is
 * refused. The games file is read back: a last line cut short (the program was killed
 * while writing it) is dropped, and so is a record of a game an earlier line holds (the
 * file is then rewritten without them).
 */
export const openStore = (
  dir: string,
  settings: Readonly<Record<string, unknown>>,
  program = String(settings.series ?? "series"),
): Effect.Effect<Store, UsageError, Scope.Scope> =>
  Effect.gen(function* () {
    const fail = (message: string) => Effect.fail(new UsageError({ message: `--out: ${message}` }));
    const root = userPath(dir).replace(/[\\/]+$/, "");
    const file = (name: string) => `${root}/${name}`;
    try {
      Deno.mkdirSync(root, { recursive: true });
    } catch (e) {
      return yield* fail(`cannot create ${dir}: ${why(e)}`);
    }
    const tookOver = yield* lockFolder(root, dir, program);
    let kept: Record<string, unknown> | undefined;
    try {
      kept = JSON.parse(Deno.readTextFileSync(file("series.json")));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        return yield* fail(`${dir}/series.json cannot be read: ${why(e)}`);
      }
    }
    if (kept !== undefined) {
      for (const [k, v] of Object.entries(settings)) {
        if (JSON.stringify(kept[k]) !== JSON.stringify(v)) {
          return yield* fail(
            `${dir} holds another series (${k} ${JSON.stringify(kept[k])} there, ` +
              `${JSON.stringify(v)} now): rerun with its settings to resume it, or name ` +
              "another folder",
          );
        }
      }
    } else {
      try {
        writeFileAtomic(file("series.json"), JSON.stringify(settings, null, 2) + "\n");
      } catch (e) {
        return yield* fail(`cannot write ${dir}/series.json: ${why(e)}`);
      }
    }
    const games = file("games.jsonl");
    const ids = new Set<string>();
    const faulted: GameRecord[] = [];
    const retried: RetriedRecord[] = [];
    const dropped = new Set<number>(); // the lines of records an earlier line holds
    let cut: string | undefined; // a last line cut short by a kill (dropped, the file mended)
    let unended = false; // the last line is a whole record that lacks its newline
    let count = 0;
    let previous: string | undefined; // the line before the one read (the last is known late)
    const check = (line: string, i: number, last: boolean): string | undefined => {
      if (line.trim() === "") return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      if (!isRecord(parsed)) {
        if (last) {
          cut = line;
          return undefined;
        }
        return `${dir}/games.jsonl line ${i + 1} is not a game record`;
      }
      if (last) unended = true;
      if (ids.has(parsed.id)) {
        dropped.add(i);
        return undefined;
      }
      ids.add(parsed.id);
      if (parsed.fault !== undefined) faulted.push(parsed);
      if (parsed.retried !== undefined) retried.push(retriedOf(parsed));
      return undefined;
    };
    try {
      for (const line of fileLines(games)) {
        if (previous !== undefined) {
          const problem = check(previous, count - 1, false);
          if (problem !== undefined) return yield* fail(problem);
        }
        previous = line;
        count++;
      }
      check(previous ?? "", count - 1, true);
    } catch (e) {
      return yield* fail(`${dir}/games.jsonl cannot be read: ${why(e)}`);
    }
    try {
      if (dropped.size > 0) {
        // Rewritten without them, streamed from the file as it is.
        writeFileAtomic(games, keptLines(games, dropped, cut !== undefined));
      } else if (cut !== undefined) {
        Deno.truncateSync(games, Deno.statSync(games).size - new TextEncoder().encode(cut).length);
      } else if (unended) Deno.writeTextFileSync(games, "\n", { append: true });
    } catch (e) {
      return yield* fail(`cannot write ${dir}/games.jsonl: ${why(e)}`);
    }
    const done: KeptGames = {
      ids,
      faulted,
      retried,
      each: (f) => {
        // The file holds each id once now; lines appended since are other games.
        for (const line of fileLines(games)) {
          if (line.trim() === "") continue;
          const r = JSON.parse(line) as GameRecord;
          if (ids.has(r.id)) f(r);
        }
      },
    };
    const shown = dir.replace(/[\\/]+$/, "");
    let failure: string | undefined;
    /** Runs a write; a failure is kept (the first one) and reported as false. */
    const attempt = (what: string, write: () => void): boolean => {
      // After a failure nothing more is written (an append cut short would be glued to
      // the next one).
      if (failure !== undefined) return false;
      try {
        write();
        return true;
      } catch (e) {
        failure ??= `--out: cannot write ${shown}/${what}: ${why(e)}`;
        return false;
      }
    };
    return {
      dir,
      done,
      duplicates: dropped.size,
      ...(tookOver !== undefined ? { tookOver } : {}),
      append: (record) =>
        attempt(
          "games.jsonl",
          () => Deno.writeTextFileSync(games, JSON.stringify(record) + "\n", { append: true }),
        ) &&
        (record.fault === undefined ||
          attempt(`faulted/${record.id}.json`, () => {
            Deno.mkdirSync(file("faulted"), { recursive: true });
            writeFileAtomic(
              file(`faulted/${record.id}.json`),
              JSON.stringify(record.transcript, null, 2) + "\n",
            );
          })),
      faultedFile: (id) => `${shown}/faulted/${id}.json`,
      write: (name, body) => attempt(name, () => writeFileAtomic(file(name), body)),
      read: (name) => {
        try {
          return Deno.readTextFileSync(file(name));
        } catch {
          return undefined;
        }
      },
      failure: () => failure,
    };
  });
