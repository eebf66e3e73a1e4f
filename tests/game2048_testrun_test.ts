/**
 * Seed 001's `testrun` end to end: the usage without arguments (exit code 2), a whole
 * seeded game printed move by move, the same game again from the same seed, and the
 * fast engines giving the tree's game.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";

const script = new URL("../plugins/game2048/scripts/testrun.ts", import.meta.url).pathname;

const testrun = async (...args: string[]) => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-import", script, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
};

Deno.test("testrun without arguments prints the usage and exits with 2", async () => {
  const r = await testrun();
  assertEquals(r.code, 2);
  assertStringIncludes(
    r.stderr,
    "Usage: deno task testrun (minimax|expectimax) WIDTH HEIGHT DEPTH",
  );
  const bad = await testrun("maximin", "4", "4", "2");
  assertEquals(bad.code, 2);
  assertStringIncludes(bad.stderr, "the algorithm is minimax or expectimax");
});

Deno.test("testrun plays a whole seeded game, printing every board; the seed replays it", async () => {
  const a = await testrun("minimax", "3", "2", "3", "--seed", "5");
  assertEquals(a.code, 0, a.stderr);
  const lines = a.stdout.split("\n");
  assertEquals(lines[0], "2048 3x2: the slider plays minimax at depth 3, seed 5");
  // The empty grid, then each move and the board after it, in the seed's format.
  assertEquals(lines.slice(2, 4), ["    -     -     -", "    -     -     -"]);
  assert(/^Move: NewTile \(\d,\d\) [24]$/.test(lines[5]), lines[5]);
  assert(/^Move: Slide [LRUD]$/.test(lines[9]), lines[9]);
  assert(/^Game over after \d+ slides \(\d+ moves in all\)\.$/m.test(a.stdout));
  assert(/^Score: \d+$/m.test(a.stdout) && /^Largest tile: \d+$/m.test(a.stdout));
  assertStringIncludes(a.stdout, "Replay: deno task testrun minimax 3 2 3 --seed 5");
  const b = await testrun("minimax", "3", "2", "3", "--seed", "5");
  assertEquals(b.stdout, a.stdout);
});

Deno.test("testrun --fast plays the tree's game", async () => {
  const tree = await testrun("expectimax", "3", "3", "3", "--seed", "2");
  const fast = await testrun("expectimax", "3", "3", "3", "--seed", "2", "--fast");
  assertEquals(tree.code, 0, tree.stderr);
  const body = (s: string) => s.split("\n").slice(1, -2).join("\n");
  assertEquals(body(fast.stdout), body(tree.stdout));
});
