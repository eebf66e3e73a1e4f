/**
 * A small disk for tests of full and read-only disks: a tmpfs mounted in a temporary folder
 * (CI runs as root, which may mount one; the test fails, saying why, if it cannot).
 *
 * @module
 */
import { assert, assertEquals } from "./deps.ts";

/** Mounts a 256 KB tmpfs, runs `f` with its folder, then unmounts and removes it. */
export const withDisk = async (f: (disk: string) => Promise<void>): Promise<void> => {
  const disk = await Deno.makeTempDir();
  const mount = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk],
  }).output();
  assertEquals(
    mount.code,
    0,
    `mounting a tmpfs needs root: ${new TextDecoder().decode(mount.stderr)}`,
  );
  try {
    await f(disk);
  } finally {
    await new Deno.Command("umount", { args: [disk] }).output();
    await Deno.remove(disk, { recursive: true });
  }
};

/** Fills what is left of the disk under `dir`, to the last byte, with a file `filler`. */
export const fillDisk = async (dir: string): Promise<void> => {
  const filler = await Deno.open(`${dir}/filler`, { write: true, create: true });
  try {
    for (const size of [4096, 1]) {
      const block = new Uint8Array(size);
      try {
        while (true) await filler.write(block);
      } catch (e) {
        assert(e instanceof Error && /space/i.test(e.message), String(e));
      }
    }
  } finally {
    filler.close();
  }
};
