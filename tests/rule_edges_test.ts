/**
 * Rule edges of the built-in games on hand-built positions, where an off-by-one or a
 * swapped comparison changes the answer; each test names the seed rule it checks
 * (`/work/shared/seeds/`, the specification of record).
 *
 * Mutants this file was proven against (each made by hand, seen failing, restored):
 * - Kalah `sowAt`: `pos === own` (extra turn) as `pos === skip`
 * - Kalah `sowAt`: the own-side test `pos < n` as `pos <= n`, or dropped (a capture on
 *   the opponent's side)
 * - Kalah `sowAt`: `captureAlways || b[opp] > 0` as `b[opp] >= 0` (seed 004's rule lost)
 * - Kalah `sowAt`: the capture `b[opp] + 1` as `b[opp]`
 * - Kalah `sowAt`: the sweep's `south === 0 || north === 0` as `&&`
 * - Nim: `winnerAtEnd` under misère swapped with normal play
 * - tic-tac-toe: a win on the last cell taken for a draw (`outcome` testing `full` first)
 */
import { assertEquals } from "../testing/deps.ts";
import { kalahGame } from "../plugins/kalah/mod.ts";
import nim from "../plugins/nim/mod.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";

/** Kalah with 3 houses a side: [s0, s1, s2, S, n0, n1, n2, N, mover]. */
const k3 = (capture: "nonempty" | "always") =>
  kalahGame({ pits: 3, stones: 1, capture, eval: "util" });

Deno.test("Kalah (seeds 000, 004): the last stone in one's own store gives another move", () => {
  const g = k3("nonempty");
  // South house 0 with 3 stones: houses 1, 2, then the store.
  const s = g.play([3, 0, 0, 0, 1, 1, 1, 0, 0], 0);
  assertEquals(s, [0, 1, 1, 1, 1, 1, 1, 0, 0]);
  // One stone fewer ends in house 2: the turn passes.
  assertEquals(g.play([2, 0, 1, 0, 1, 1, 1, 0, 0], 0), [0, 1, 2, 0, 1, 1, 1, 0, 1]);
});

Deno.test("Kalah (seed 004): an empty own house captures only a non-empty opposite house", () => {
  const g = k3("nonempty");
  // South house 0, 2 stones: lands in empty house 2 (the last pit), facing north's 4.
  assertEquals(g.play([2, 0, 0, 0, 3, 1, 1, 0, 0], 0), [0, 1, 0, 4, 0, 1, 1, 0, 1]);
  // The opposite house empty: no capture, the stone stays.
  assertEquals(g.play([2, 0, 0, 0, 0, 1, 1, 0, 0], 0), [0, 1, 1, 0, 0, 1, 1, 0, 1]);
});

Deno.test("Kalah (seed 000): an empty own house captures always, the opposite empty too", () => {
  const g = k3("always");
  assertEquals(g.play([2, 0, 0, 0, 0, 1, 1, 0, 0], 0), [0, 1, 0, 1, 0, 1, 1, 0, 1]);
});

Deno.test("Kalah: a last stone in the opponent's empty house captures nothing", () => {
  const g = k3("always");
  // South house 2, 2 stones: the store, then north's house 4 (empty).
  assertEquals(g.play([1, 0, 2, 0, 0, 1, 1, 0, 0], 2), [1, 0, 0, 1, 1, 1, 1, 0, 1]);
});

Deno.test("Kalah (seed 000's cleanupIfGameOver): a side emptied, each side's houses go to its store", () => {
  const g = k3("nonempty");
  // South's last stone goes to the store: south's side is empty, north sweeps its own.
  const s = g.play([0, 0, 1, 5, 2, 0, 3, 4, 0], 2);
  assertEquals(s.slice(0, 8), [0, 0, 0, 6, 0, 0, 0, 9]);
  assertEquals(g.outcome(s)?.winner, 1);
  // Neither side empty: no sweep.
  assertEquals(g.play([0, 1, 1, 5, 2, 0, 3, 4, 0], 2).slice(0, 8), [0, 1, 0, 6, 2, 0, 3, 4]);
});

Deno.test("Nim: misère with all heaps 1 — whoever takes the last stone loses", () => {
  for (const misere of [false, true]) {
    const g = nim.create({ heaps: [1, 1, 1], misere });
    let s = g.initial();
    for (let i = 0; i < 3; i++) s = g.play(s, g.moves(s)[0]);
    // The first player took the last stone (three moves).
    assertEquals(g.outcome(s)?.winner, misere ? 1 : 0, `misere ${misere}`);
    assertEquals(g.moves(s), []);
  }
});

Deno.test("tic-tac-toe: a win on the last cell is a win, not a draw; a full board otherwise a draw", () => {
  const g = tictactoe.create({});
  const play = (cells: number[]) => cells.reduce((s, c) => g.play(s, c), g.initial());
  // X: 0 2 3 7 8, O: 1 4 5 6: the ninth move fills the board with no line.
  const draw = play([0, 1, 2, 4, 3, 5, 7, 6, 8]);
  assertEquals(g.outcome(draw), { winner: null, margin: 0 });
  // X: 0 2 4 5 8 (the diagonal 0-4-8 completed by the ninth move), O: 1 3 6 7.
  const win = play([0, 1, 2, 3, 4, 6, 5, 7, 8]);
  assertEquals(g.outcome(win)?.winner, 0);
});
