/**
 * `app/files.ts`: an atomic write leaves the old file intact when writing fails (a full
 * disk: the write function injected to fail half-way), when the rename fails, and when
 * the folder is removed mid-way; autosaves of the same second get files of their own.
 */
import { assert, assertEquals, assertThrows } from "../testing/deps.ts";
import {
  type AtomicIo,
  autosaveStem,
  createAutosave,
  createUniqueFile,
  folderOf,
  writeFileAtomic,
} from "../app/files.ts";

const realWrite: AtomicIo["write"] = (file, bytes) => {
  let off = 0;
  while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
};

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("writeFileAtomic writes a new file and replaces an old one, leaving no temporary file", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/game.json`;
  writeFileAtomic(path, "one\n");
  assertEquals(Deno.readTextFileSync(path), "one\n");
  writeFileAtomic(path, "two\n");
  assertEquals(Deno.readTextFileSync(path), "two\n");
  assertEquals(names(dir), ["game.json"]);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("writeFileAtomic: a disk that fills up half-way leaves the old file intact", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/game.json`;
  writeFileAtomic(path, "the old game\n");
  const full: AtomicIo = {
    write: (file, bytes) => {
      realWrite(file, bytes.subarray(0, bytes.length >> 1));
      throw new Error("No space left on device (os error 28)");
    },
    rename: (from, to) => Deno.renameSync(from, to),
  };
  assertThrows(() => writeFileAtomic(path, "the new game, longer\n", full), Error, "No space");
  assertEquals(Deno.readTextFileSync(path), "the old game\n");
  assertEquals(names(dir), ["game.json"], "the temporary file is removed");
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("writeFileAtomic: a file written in pieces is whole, or not written at all", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/games.jsonl`;
  const lines = ["a\n", "bé\n", "c\n"];
  const pieces = function* (failAt = -1) {
    for (const [i, l] of lines.entries()) {
      if (i === failAt) throw new Error("the source went away");
      yield new TextEncoder().encode(l);
    }
  };
  writeFileAtomic(path, pieces());
  assertEquals(Deno.readTextFileSync(path), lines.join(""));
  // Pieces made as they are written: one that fails half-way leaves the old file.
  assertThrows(() => writeFileAtomic(path, pieces(2)), Error, "went away");
  assertEquals(Deno.readTextFileSync(path), lines.join(""));
  assertEquals(names(dir), ["games.jsonl"], "the temporary file is removed");
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("writeFileAtomic: a failed rename, or the folder removed mid-way, leaves the old file", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/game.json`;
  writeFileAtomic(path, "old\n");
  const noRename: AtomicIo = {
    write: realWrite,
    rename: () => {
      throw new Error("rename refused");
    },
  };
  assertThrows(() => writeFileAtomic(path, "new\n", noRename), Error, "rename refused");
  assertEquals(Deno.readTextFileSync(path), "old\n");
  assertEquals(names(dir), ["game.json"]);
  // The folder removed while the temporary file is written: the write fails, nothing is
  // left anywhere (and an old file elsewhere by that name is untouched).
  const sub = `${dir}/sub`;
  Deno.mkdirSync(sub);
  const vanishing: AtomicIo = {
    write: (file, bytes) => {
      realWrite(file, bytes);
      Deno.removeSync(sub, { recursive: true });
    },
    rename: (from, to) => Deno.renameSync(from, to),
  };
  assertThrows(() => writeFileAtomic(`${sub}/game.json`, "new\n", vanishing));
  assertEquals(names(dir), ["game.json"]);
  assertEquals(Deno.readTextFileSync(path), "old\n");
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("createUniqueFile: three files asked for by one name are three files", () => {
  const dir = Deno.makeTempDirSync();
  const made = [0, 1, 2].map(() => createUniqueFile(`${dir}/games`, "nim-2026-01-01T00-00-00"));
  assertEquals(made, [
    `${dir}/games/nim-2026-01-01T00-00-00.json`,
    `${dir}/games/nim-2026-01-01T00-00-00-2.json`,
    `${dir}/games/nim-2026-01-01T00-00-00-3.json`,
  ]);
  for (const p of made) assert(Deno.statSync(p).isFile);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("createAutosave: three games started in the same second get three files", () => {
  const dir = Deno.makeTempDirSync();
  const before = Deno.env.get("XDG_STATE_HOME");
  Deno.env.set("XDG_STATE_HOME", dir);
  try {
    const now = new Date("2026-12-02T10:20:30.456Z");
    const made = [0, 1, 2].map(() => createAutosave("./plugins/nim/mod.ts", now));
    assertEquals(new Set(made).size, 3);
    assertEquals(autosaveStem("./plugins/nim/mod.ts", now), "mod-2026-12-02T10-20-30");
    assertEquals(folderOf(made[0]), `${dir}/ply/games`);
    assertEquals(names(`${dir}/ply/games`), [
      "mod-2026-12-02T10-20-30-2.json",
      "mod-2026-12-02T10-20-30-3.json",
      "mod-2026-12-02T10-20-30.json",
    ]);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_STATE_HOME");
    else Deno.env.set("XDG_STATE_HOME", before);
    Deno.removeSync(dir, { recursive: true });
  }
});
