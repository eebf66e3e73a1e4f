/**
 * Pentago's AI: the open-lines evaluation, duplicate removal (seed 002's `nub`) exactly
 * equal to a brute-force one and not changing search values, the shuffling option, the
 * random-playout evaluation, move ordering, and the searches finding wins and blocks.
 */
import { assert, assertEquals, assertNotEquals, fc } from "../testing/deps.ts";
import { Result } from "../core/deps.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { parseSpec } from "../app/players/spec.ts";
import { WIN } from "../core/game.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { mctsSearch } from "../core/search/mcts.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { LINE_WEIGHTS, linesValue, orderByLines, PLAYOUT_SCALE } from "../plugins/pentago/eval.ts";
import pentago, { pentagoGame } from "../plugins/pentago/mod.ts";
import {
  fromCells,
  legalMoves,
  makeState,
  NO_TWIST,
  type PentagoState,
  play,
  winningCells,
} from "../plugins/pentago/rules.ts";

const game = pentagoGame();

/** A random position after up to `maxPlies` random moves (the game may have ended). */
const randomPosition = (seed: number, maxPlies: number): PentagoState => {
  const rng = makeRng(seed);
  let s = game.initial();
  const plies = rng.int(maxPlies + 1);
  for (let i = 0; i < plies; i++) {
    const ms = game.moves(s);
    if (ms.length === 0) break;
    s = game.play(s, ms[rng.int(ms.length)]);
  }
  return s;
};

/** Seed 002's `nub` on the children, keeping the first move of each position. */
const bruteNub = (s: PentagoState): number[] => {
  const seen = new Set<string>();
  return legalMoves(s, { dedupe: false }).filter((m) => {
    const c = play(s, m);
    const k = `${c.white0},${c.white1},${c.black0},${c.black1}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

const board = (rows: string): PentagoState =>
  fromCells(
    rows.replace(/\s+/g, "").split("").map((ch) => (ch === "o" ? 1 : ch === "x" ? 2 : 0)),
  );

Deno.test("pentago dedupe: exactly seed 002's nub (first move of each child), on random positions", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      const s = randomPosition(seed, 30);
      assertEquals(legalMoves(s, { dedupe: true }), bruteNub(s));
    }),
    { numRuns: 150 },
  );
  // The empty board: every child is one white marble somewhere (a twist only moves it).
  assertEquals(legalMoves(game.initial(), { dedupe: true }).length, 36);
});

Deno.test("pentago dedupe: a twist that rebuilds a winning placement's board is dropped", () => {
  // Found by search: white to move; c4 makes five, and placing c6 then turning NW
  // clockwise (or a4 then NW anticlockwise) leaves the same board.
  const s = fromCells("000010000102000200011002120000200000".split("").map(Number));
  const all = legalMoves(s, { dedupe: false });
  const byName = (text: string) => all.find((m) => game.formatMove(s, m) === text)!;
  const [c4, c6, a4] = [byName("c4"), byName("c6 nw cw"), byName("a4 nw ccw")];
  assertEquals(c4, NO_TWIST + 14);
  assertEquals(all[0], c4, "winning placements come first");
  assertEquals(play(s, c6), play(s, c4));
  assertEquals(play(s, a4), play(s, c4));
  const nub = legalMoves(s, { dedupe: true });
  assertEquals(nub, bruteNub(s));
  assert(nub.includes(c4) && !nub.includes(c6) && !nub.includes(a4));
  // Typed anyway, a dropped move reads as the listed move reaching the same position.
  const d = pentagoGame({ dedupe: true });
  assertEquals(d.parseMove(s, "c6 nw cw"), Result.succeed(c4));
});

Deno.test("pentago dedupe: alpha-beta values and best moves' values are unchanged", () => {
  const plain = pentagoGame(), nub = pentagoGame({ dedupe: true });
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const s = randomPosition(seed, 10);
    for (const depth of [1, 2]) {
      const a = alphabetaSearch(plain, s, { depth });
      const b = alphabetaSearch(nub, s, { depth });
      assertEquals(b.value, a.value, `seed ${seed} depth ${depth}`);
      if (nub.moves(s).length > 0) assert(nub.moves(s).includes(b.move!));
    }
  }
  // From the empty board the tree shrinks (288 -> 36 children at the root).
  const a = alphabetaSearch(plain, plain.initial(), { depth: 2, tt: false });
  const b = alphabetaSearch(nub, nub.initial(), { depth: 2, tt: false });
  assertEquals(a.value, b.value);
  assert(b.nodes < a.nodes, `${b.nodes} < ${a.nodes}`);
});

Deno.test("pentago shuffle: the same moves in a seeded order, values unchanged", () => {
  const s = randomPosition(11, 6);
  const base = game.moves(s);
  const sh = pentagoGame({ shuffle: true, aiSeed: 5 });
  const sh2 = pentagoGame({ shuffle: true, aiSeed: 6 });
  const order = sh.moves(s);
  assertEquals([...order].sort((a, b) => a - b), [...base].sort((a, b) => a - b));
  assertNotEquals(order, base);
  assertEquals(sh.moves(s), order, "the same position and seed give the same order");
  assertNotEquals(sh2.moves(s), order, "another seed, another order");
  // Dedupe and shuffle together: the nub's moves, shuffled.
  const both = pentagoGame({ shuffle: true, dedupe: true }).moves(game.initial());
  assertEquals([...both].sort((a, b) => a - b), legalMoves(game.initial(), { dedupe: true }));
  for (const depth of [1, 2]) {
    assertEquals(
      alphabetaSearch(sh, s, { depth }).value,
      alphabetaSearch(game, s, { depth }).value,
    );
  }
});

Deno.test("pentago playouts evaluation: pure, bounded, and alpha-beta agrees with minimax", () => {
  const g = pentagoGame({ eval: "playouts", playouts: 4 });
  for (const seed of [1, 2, 3, 4]) {
    const s = randomPosition(seed, 12);
    const v = g.value(s);
    assertEquals(g.value(s), v, "the same position, the same value");
    assert(
      s.result !== -1 ? Math.abs(v) === WIN || v === 0 : Math.abs(v) <= PLAYOUT_SCALE ||
        Math.abs(v) === WIN - 1,
    );
    assertEquals(v % (PLAYOUT_SCALE / 4), 0, "a multiple of scale / playouts");
  }
  const s = randomPosition(8, 6);
  assertEquals(alphabetaSearch(g, s, { depth: 1 }).value, minimaxSearch(g, s, { depth: 1 }).value);
  // Another seed gives other playouts (so another value somewhere).
  const g2 = pentagoGame({ eval: "playouts", playouts: 4, aiSeed: 99 });
  const vals = [1, 2, 3, 4, 5, 6].map((k) => randomPosition(k, 8));
  assertNotEquals(vals.map((x) => g.value(x)), vals.map((x) => g2.value(x)));
  // More playouts tell a won race apart: white with an open three and black scattered.
  const gm = pentagoGame({ eval: "playouts", playouts: 200 });
  const strong = board(`
    . . . . . .
    . o o o . .
    . . . . . .
    x . . . . .
    . . . . . x
    . . x . . .`);
  assert(gm.value(strong) > 0, `white is better: ${gm.value(strong)}`);
});

Deno.test("pentago lines evaluation: open lines counted, colours symmetric", () => {
  assertEquals(linesValue(game.initial()), 0);
  // One white marble on b5 (NW's centre) lies on 6 lines of five: rows a5-e5 and
  // b5-f5, columns b6-b2 and b5-b1, diagonals a6-e2 and b5-f1.
  const one = board(`
    . . . . . .
    . o . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .`);
  assertEquals(linesValue(one), 6 * LINE_WEIGHTS[1]);
  // A black marble on e5 closes both rows for both; each keeps 4 open lines.
  const two = board(`
    . . . . . .
    . o . . x .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .`);
  assertEquals(linesValue(two), 0);
  // Three white marbles in a row on an open row: the lines hold 3, 3 (b5-f5 holds
  // b5 c5 d5, a5-e5 too), weighted as threes.
  const three = board(`
    . . . . . .
    . o o o . .
    . . . x . .
    . . . . x .
    . . . . . .
    . . x . . .`);
  assert(linesValue(three) >= 2 * LINE_WEIGHTS[3] - 20 * LINE_WEIGHTS[1]);
  // Swapping the colours and the mover negates the value.
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      const s = randomPosition(seed, 20);
      const swapped = makeState(
        s.black0,
        s.black1,
        s.white0,
        s.white1,
        s.turn === 0 ? 1 : 0,
        s.result === -1 || s.result === 2 ? s.result : 1 - s.result,
      );
      assertEquals(linesValue(swapped), -linesValue(s) || 0);
    }),
    { numRuns: 100 },
  );
});

Deno.test("pentago ordering: a permutation, winning and strong moves first", () => {
  const s = board(`
    o o o o . .
    x x . . . .
    . . . . . .
    . . . . x x
    . . . . . .
    . . . . . .`);
  const ms = game.moves(s);
  const ordered = orderByLines(s, ms);
  assertEquals([...ordered].sort((a, b) => a - b), [...ms].sort((a, b) => a - b));
  assertEquals(ordered[0], NO_TWIST + 4, "e6 wins at once");
});

Deno.test("pentago search: alpha-beta and MCTS take an immediate win", () => {
  const s = board(`
    o o o o . .
    x x . . . .
    . . . . . .
    . . . . x x
    . . . . . .
    . . . . . .`);
  const ab = alphabetaSearch(game, s, { depth: 2 });
  assertEquals(game.formatMove(s, ab.move!), "e6");
  assert(ab.value >= WIN - 2);
  const mc = mctsSearch(game, s, { iterations: 300, rng: makeRng(1) });
  assertEquals(game.formatMove(s, mc.move!), "e6");
  assertEquals(mc.value, WIN);
  assert(mc.exact);
});

Deno.test("pentago search: alpha-beta stops an open four that the opponent would finish", () => {
  // Black to move; white threatens a6-e6 (e6 empty) and b6-f6 is blocked... black must
  // block e6 or break the line with a twist; depth 2 sees every refutation.
  const s = board(`
    o o o o . x
    x x . . . .
    . . . . . .
    . . . . . .
    . . . . x .
    . . . . . o`);
  assertEquals(s.turn, 1);
  const r = alphabetaSearch(game, s, { depth: 2 });
  const after = game.play(s, r.move!);
  assert(after.result === -1, "the game goes on");
  assertEquals(winningCells(after), 0, "white has no placement that makes five");
  assert(r.value > -WIN / 2, "black is not lost");
  // The same for MCTS with a fixed seed.
  const m = mctsSearch(game, s, { iterations: 3000, rng: makeRng(2) });
  assertEquals(winningCells(game.play(s, m.move!)), 0);
});

Deno.test("pentago search: alpha-beta equals minimax at depth 2 on midgame positions", () => {
  const g = pentagoGame({ dedupe: true });
  for (const seed of [21, 22]) {
    const s = randomPosition(seed, 24);
    if (g.moves(s).length === 0) continue;
    const a = alphabetaSearch(g, s, { depth: 2 });
    const b = minimaxSearch(g, s, { depth: 2 });
    assertEquals(a.value, b.value);
  }
});

Deno.test("pentago default AI: holds every position that alpha-beta at depth 3 shows it could hold", () => {
  const strategies = { ...allStrategies, ...pentago.strategies };
  const spec = parseSpec(pentago.defaultOpponent!, strategies);
  assert(Result.isSuccess(spec) && spec.success.kind === "search");
  const { strategy: name, params } = spec.success;
  const strategy = strategies[name];
  assert(strategy._tag === "Sequential", `${name} searches on the calling thread`);
  const tt = new TranspositionTable(4);
  const mover = (s: PentagoState, v: number) => (s.turn === 0 ? v : -v);
  // Positions where the opponent threatens a five (so a careless move loses), not lost
  // within alpha-beta's three plies.
  let held = 0;
  for (let seed = 1; held < 20 && seed < 2000; seed++) {
    const s = randomPosition(seed, 26);
    if (s.result !== -1 || winningCells({ ...s, turn: s.turn === 0 ? 1 : 0 }) === 0) continue;
    if (mover(s, alphabetaSearch(game, s, { depth: 3, distance: true }).value) <= -WIN / 2) {
      continue;
    }
    // The default AI with its time already spent: it still completes its minimum depth.
    tt.clear();
    const r = strategy.search(game, s, {
      timeMs: 0,
      distance: true,
      tt,
      ...(params ? { params } : {}),
    });
    const reply = alphabetaSearch(game, game.play(s, r.move!), { depth: 2, distance: true });
    assert(mover(s, reply.value) > -WIN / 2, `seed ${seed}: ${game.formatMove(s, r.move!)} loses`);
    held++;
  }
  assertEquals(held, 20, "enough positions with a threat to meet");
});
