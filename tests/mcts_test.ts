/**
 * Monte Carlo tree search, generically: wins and blocks in tic-tac-toe, the same search
 * for the same seed, budgets, chance nodes (proofs equal expectimax), extra turns
 * (proofs equal alpha-beta), margins without a winner, and `mcts` as a player spec.
 */
import { assert, assertEquals, assertNotEquals } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { type Game, playAll, type Player, WIN } from "../core/game.ts";
import { runGame } from "../app/match.ts";
import { agentFromSpec, randomAgent } from "../app/players/agents.ts";
import { parseSpec } from "../app/players/spec.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { MCTS_SCALE, mctsSearch } from "../core/search/mcts.ts";
import { builtinStrategies } from "../core/search/strategies.ts";
import type { SearchResult } from "../core/search/types.ts";
import { scriptedTerminal } from "../app/terminal.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { raceGame } from "./fixtures/race.ts";

const ttt = ticTacToeGame();
/** Cells in reading order: a3 b3 c3 / a2 b2 c2 / a1 b1 c1 = 0..8. */
const at = (moves: number[]) => playAll(ttt, ttt.initial(), moves);
const untimed = ({ timeMs: _t, ...r }: SearchResult) => r;

Deno.test("mcts: takes an immediate win in tic-tac-toe", () => {
  const cases: number[][] = [
    [0, 3, 1, 4], // X a3 b3 (O a2 b2): c3 wins
    [4, 0, 2, 1], // X b2 c3 (O a3 b3): a1 wins
    [0, 1, 4, 2, 3, 5], // X a3 b2 a2 (O b3 c3 c2): a1 or c1 wins
  ];
  for (const moves of cases) {
    for (const seed of [1, 2, 3]) {
      const s = at(moves);
      const r = mctsSearch(ttt, s, { iterations: 500, rng: makeRng(seed) });
      assertEquals(ttt.outcome(ttt.play(s, r.move!))?.winner, ttt.toMove(s), `${moves} ${seed}`);
      assertEquals(r.value, WIN);
      assert(r.exact, "a win in one is proven");
    }
  }
});

Deno.test("mcts: blocks a threat in tic-tac-toe", () => {
  // X a3 b3, O c1: O must take c3.
  for (const seed of [1, 2, 3, 4]) {
    const r = mctsSearch(ttt, at([0, 8, 1]), { iterations: 2000, rng: makeRng(seed) });
    assertEquals(r.move, 2, `seed ${seed}`);
  }
  // X a3 c1, O b2 a2: O threatens c2; X must block there.
  for (const seed of [1, 2, 3]) {
    const r = mctsSearch(ttt, at([0, 4, 8, 3]), { iterations: 2000, rng: makeRng(seed) });
    assertEquals(r.move, 5, `seed ${seed}`);
  }
});

Deno.test("mcts: the same seed and iterations give the same search; another seed differs", () => {
  const a = mctsSearch(ttt, ttt.initial(), { iterations: 400, rng: makeRng(7) });
  const b = mctsSearch(ttt, ttt.initial(), { iterations: 400, rng: makeRng(7) });
  assertEquals(untimed(a), untimed(b));
  const c = mctsSearch(ttt, ttt.initial(), { iterations: 400, rng: makeRng(8) });
  assertNotEquals([c.value, c.pv], [a.value, a.pv]);
  // Without an rng, a fixed seed: still repeatable.
  assertEquals(
    untimed(mctsSearch(ttt, ttt.initial(), { iterations: 100 })),
    untimed(mctsSearch(ttt, ttt.initial(), { iterations: 100 })),
  );
});

Deno.test("mcts: budgets (iterations, time, stop flag) and the result's fields", () => {
  const r = mctsSearch(ttt, ttt.initial(), { iterations: 300, rng: makeRng(1) });
  assertEquals(r.nodes, 300, "nodes = iterations");
  assert(r.depth >= 2 && r.depth <= 9);
  assert(Math.abs(r.value) <= MCTS_SCALE);
  assertEquals(r.pv[0], r.move);
  assertEquals(playAll(ttt, ttt.initial(), r.pv) !== undefined, true, "the line is legal");
  const t0 = performance.now();
  const timed = mctsSearch(ttt, ttt.initial(), { timeMs: 40, rng: makeRng(1) });
  const took = performance.now() - t0;
  assert(timed.nodes > 0 && took < 40 + 1000, `took ${took} ms`);
  let calls = 0;
  const stopped = mctsSearch(ttt, ttt.initial(), { timeMs: 10_000, shouldStop: () => ++calls > 3 });
  assert(stopped.nodes <= 16 * 4, `stopped after ${stopped.nodes}`);
  assert(stopped.move !== undefined);
  // A finished position: no move.
  const over = at([0, 3, 1, 4, 2]);
  assertEquals(mctsSearch(ttt, over, { iterations: 10 }).move, undefined);
  // Default budget: 1000 iterations.
  assertEquals(mctsSearch(ttt, at([4]), {}).nodes, 1000);
});

Deno.test("mcts: on a chance game, proofs equal expectimax and chance nodes are sampled", () => {
  for (const goal of [4, 5, 6]) {
    const race = raceGame(goal);
    const exact = alphabetaSearch(race, race.initial(), { depth: 100 }, "expect");
    assert(exact.exact);
    // Wide exploration (c = 30) proves the small races (the race to 6 at least its best
    // move, whose proven value is then reported).
    const r = mctsSearch(race, race.initial(), { iterations: 50_000, rng: makeRng(3) }, {
      exploration: 30,
    });
    // Expectimax: WIN * (2p - 1); MCTS: 1000 * (2p - 1) for the same p (or WIN when p = 1).
    const p = (exact.value / WIN + 1) / 2;
    const expected = p === 1 ? WIN : MCTS_SCALE * (2 * p - 1);
    assertEquals(r.move, exact.move);
    assert(Math.abs(r.value - expected) < 1e-9, `goal ${goal}: ${r.value} vs p = ${p}`);
    if (goal < 6) assert(r.exact, `race to ${goal} is solved`);
  }
  // A small budget at a chance root: no move, and a value in range.
  const race = raceGame(5);
  const atChance = race.play(race.initial(), 2);
  const c = mctsSearch(race, atChance, { iterations: 200, rng: makeRng(1) });
  assertEquals(c.move, undefined);
  assert(Math.abs(c.value) <= MCTS_SCALE);
});

/**
 * A test game with extra turns: a heap of n stones; take 1, 2 or 3; taking exactly 2
 * gives the same player another turn; whoever takes the last stone wins.
 */
const bonusNim = (n: number): Game<readonly number[]> => ({
  id: "bonus-nim",
  players: ["A", "B"],
  initial: () => [n, 0],
  toMove: (s) => s[1] as Player,
  moves: (s) => [1, 2, 3].filter((k) => k <= s[0]),
  chances: () => [],
  play: (s, m) => [s[0] - m, s[0] - m > 0 && m === 2 ? s[1] : 1 - s[1]],
  outcome: (s) => {
    if (s[0] > 0) return undefined;
    const w = (1 - s[1]) as Player; // the player who took the last stone moved before
    return { winner: w, margin: w === 0 ? 1 : -1 };
  },
  value: (s) => (s[0] > 0 ? 0 : s[1] === 1 ? WIN : -WIN),
  render: (s) => `${s[0]}\n`,
  formatMove: (_s, m) => String(m),
  parseMove: (_s, t) => Result.succeed(Number(t)),
});

Deno.test("mcts: extra turns (toMove) are handled; proofs equal alpha-beta", () => {
  for (let n = 1; n <= 9; n++) {
    const g = bonusNim(n);
    const ab = alphabetaSearch(g, g.initial(), { depth: 20 });
    const r = mctsSearch(g, g.initial(), { iterations: 20_000, rng: makeRng(n) });
    assert(r.exact, `heap ${n} is solved`);
    assertEquals(Math.sign(r.value), Math.sign(ab.value), `heap ${n}`);
    if (ab.value > 0) {
      // The move MCTS plays wins too.
      const after = g.play(g.initial(), r.move!);
      const v = alphabetaSearch(g, after, { depth: 20 }).value;
      assert(v > 0, `heap ${n}: ${r.move} keeps the win`);
    }
  }
});

/** One player scores points over three moves (0, 1 or 2 each); no winner, a margin. */
const collect: Game<readonly number[]> = {
  id: "collect",
  players: ["P", "-"],
  initial: () => [0, 3],
  toMove: () => 0,
  moves: (s) => (s[1] > 0 ? [0, 1, 2] : []),
  chances: () => [],
  play: (s, m) => [s[0] + m, s[1] - 1],
  outcome: (s) => (s[1] > 0 ? undefined : { winner: null, margin: s[0] }),
  value: (s) => s[0],
  render: (s) => `${s[0]}\n`,
  formatMove: (_s, m) => String(m),
  parseMove: (_s, t) => Result.succeed(Number(t)),
};

Deno.test("mcts: a margin without a winner steers the search (2048-like scores)", () => {
  const r = mctsSearch(collect, collect.initial(), { iterations: 2000, rng: makeRng(1) });
  assertEquals(r.move, 2);
  assertEquals(r.pv, [2, 2, 2]);
  assert(r.value > 0);
});

Deno.test("mcts: a player spec in every script (mcts:N iterations, mcts:1s)", () => {
  const spec = parseSpec("mcts:2000", builtinStrategies);
  assert(Result.isSuccess(spec));
  assertEquals(spec.success, { kind: "search", strategy: "mcts", iterations: 2000 });
  const timed = parseSpec("mcts:1s", builtinStrategies);
  assert(Result.isSuccess(timed) && timed.success.kind === "search");
  assertEquals(timed.success.timeMs, 1000);
  assert(Result.isFailure(parseSpec("alphabeta:2000", builtinStrategies)));
  const play = (seed: number) =>
    Effect.runSync(
      runGame(ttt, [agentFromSpec(spec.success, builtinStrategies), randomAgent()], { seed })
        .pipe(Effect.provide(scriptedTerminal([]).layer)),
    );
  for (const seed of [1, 2]) {
    const a = play(seed), b = play(seed);
    assertEquals(a.transcript.moves.map((m) => m.move), b.transcript.moves.map((m) => m.move));
    assertNotEquals(ttt.outcome(a.final)?.winner, 1, "mcts X never loses");
  }
});
