/**
 * Kalah's rules and pictures: seed 000's `showGame` examples to the character, seed
 * 000's QuickCheck properties ported to fast-check (on the seed's own layout, and the
 * mapping to the plugin's), seed 004's `util` and move tests, both capture rules, and
 * the sowing shortcut against stone-by-stone sowing.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { makeGame } from "../core/plugin.ts";
import kalah, { kalahGame } from "../plugins/kalah/mod.ts";
import { playBoard, scoreLine } from "../plugins/kalah/board.ts";
import {
  initialState,
  isOver,
  type KalahState,
  MoveKind,
  moveKind,
  movesFor,
  play,
  sowInPlace,
  sowNaive,
  util,
} from "../plugins/kalah/rules.ts";
import {
  alice,
  bob,
  fromSeed000,
  type Kalaha,
  moveFromSeed000,
  moveImpl,
  movesImpl,
  moveToSeed000,
  showGameImpl,
  startStateImpl,
  toSeed000,
  valueImpl,
} from "../plugins/kalah/seed000.ts";

const classic = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "util" });

// ---------------------------------------------------------------------------------------
// Seed 000's showGameImpl examples (section 6.1).

/** The seed's printed lines, as its listing shows them (runs of spaces collapsed there). */
const SEED_EXAMPLES: readonly {
  k: Kalaha;
  state?: number[];
  expected: string;
  printed: string[];
}[] = [
  {
    k: { pitCount: 5, stoneCount: 0 },
    expected: "  0 0 0 0 0\n0           0\n  0 0 0 0 0\n",
    printed: ["0 0 0 0 0", "0", "0 0 0 0 0"],
  },
  {
    k: { pitCount: 5, stoneCount: 1 },
    expected: "    1  1  1  1  1\n 0                 0\n    1  1  1  1  1\n",
    printed: ["1 1 1 1 1", "0", "1 1 1 1 1"],
  },
  {
    k: { pitCount: 5, stoneCount: 10 },
    expected: "     10  10  10  10  10\n  0                       0\n     10  10  10  10  10\n",
    printed: ["10 10 10 10 10", "0", "10 10 10 10 10"],
  },
  {
    k: { pitCount: 5, stoneCount: 100 },
    expected: "      100  100  100  100  100\n   0                             0\n" +
      "      100  100  100  100  100\n",
    printed: ["100 100 100 100 100", "0", "100 100 100 100 100"],
  },
  {
    k: { pitCount: 6, stoneCount: 6 },
    state: [3, 0, 1, 0, 0, 0, 27, 4, 1, 0, 0, 6, 10, 20],
    expected: "   10  6  0  0  1  4\n20                   27\n    3  0  1  0  0  0\n",
    printed: ["10 6 0 0 1 4", "20 27", "3 0 1 0 0 0"],
  },
];

Deno.test("seed 000 showGameImpl: every printed example, to the character", () => {
  for (const ex of SEED_EXAMPLES) {
    const text = showGameImpl(ex.k, ex.state ?? startStateImpl(ex.k));
    assertEquals(text, ex.expected, `Kalaha ${ex.k.pitCount} ${ex.k.stoneCount}`);
    // The seed's listing collapses runs of spaces (and its 5-pit examples lost the
    // right-hand store); with spaces collapsed every printed word is there, in order.
    const lines = text.split("\n").slice(0, 3).map((l) => l.trim().replace(/ +/g, " "));
    ex.printed.forEach((p, i) => assert(lines[i].startsWith(p), `${lines[i]} vs ${p}`));
  }
});

Deno.test("kalah --board plain renders seed 000's picture of the state", () => {
  const g = kalahGame({ pits: 6, stones: 6, capture: "always", eval: "store", board: "plain" });
  const s = [3, 0, 1, 0, 0, 0, 27, 4, 1, 0, 0, 6, 10, 20, 0];
  assertEquals(g.render(s), SEED_EXAMPLES[4].expected + "south to move\n");
});

Deno.test("the play board numbers the houses as each player types them", () => {
  assertEquals(
    playBoard(initialState(6, 4), 6),
    [
      "     6  5  4  3  2  1    north",
      "  +-------------------+",
      "  |  4  4  4  4  4  4 |",
      "0 |                   | 0",
      "  |  4  4  4  4  4  4 |",
      "  +-------------------+",
      "     1  2  3  4  5  6    south (to move)",
      "",
    ].join("\n"),
  );
  // North's house 1 (from north's left) is the top right; its store is on the left.
  const s = play(play(initialState(6, 4), 6, 0, false), 6, 0, false); // south 1, north 1
  const lines = playBoard(s, 6).split("\n");
  assertEquals(lines[2], "  |  4  5  5  5  5  0 |");
  assertStringIncludes(lines[0], "north");
  const over = [0, 0, 0, 0, 0, 0, 30, 0, 0, 0, 0, 0, 0, 18, 1];
  assertStringIncludes(playBoard(over, 6), "game over: south 30, north 18 (south wins by 12)");
  assertEquals(scoreLine(over, 6), "game over: south 30, north 18 (south wins by 12)");
});

// ---------------------------------------------------------------------------------------
// Seed 000's QuickCheck properties (KalahaTest.hs), on the seed's own functions.

const kalahaArb = fc.record({
  pitCount: fc.integer({ min: 1, max: 9 }),
  stoneCount: fc.integer({ min: 0, max: 12 }),
});

/** The two halves of a seed 000 state swapped (alice's and bob's sides exchanged). */
const swap = (k: Kalaha, s: readonly number[]) => [
  ...s.slice(k.pitCount + 1),
  ...s.slice(0, k.pitCount + 1),
];

/** A game played from the start by random legal moves: [kalaha, player to move, state]. */
const gameArb = fc
  .tuple(kalahaArb, fc.array(fc.nat(), { maxLength: 60 }), fc.boolean())
  .map(([k, picks, first]) => {
    let player = first, state = startStateImpl(k);
    for (const p of picks) {
      const ms = movesImpl(k, player, state);
      if (ms.length === 0) break;
      [player, state] = moveImpl(k, player, state, ms[p % ms.length]);
    }
    return { k, player, state };
  });

Deno.test("seed 000 prop_startStateLen, prop_startStateSum, prop_startStateValue", () => {
  fc.assert(fc.property(kalahaArb, (k) => {
    const s = startStateImpl(k);
    assertEquals(s.length, 2 * k.pitCount + 2);
    assertEquals(s.reduce((a, b) => a + b, 0), 2 * k.pitCount * k.stoneCount);
    assertEquals(valueImpl(k, s), 0);
  }));
});

Deno.test("seed 000 prop_startStateSymmetric", () => {
  fc.assert(fc.property(kalahaArb, (k) => {
    const s = startStateImpl(k);
    assertEquals(s.slice(0, k.pitCount + 1), s.slice(k.pitCount + 1));
  }));
});

Deno.test("seed 000 prop_valueSymmetric: swapping the sides negates the value", () => {
  fc.assert(fc.property(gameArb, ({ k, state }) => {
    assertEquals(valueImpl(k, swap(k, state)), -valueImpl(k, state));
  }));
});

Deno.test("seed 000 prop_movesSymmetric: alice's moves are bob's on the swapped board", () => {
  fc.assert(fc.property(gameArb, ({ k, state }) => {
    assertEquals(
      movesImpl(k, alice, state),
      movesImpl(k, bob, swap(k, state)).map((i) => i - k.pitCount - 1),
    );
  }));
});

Deno.test("seed 000 prop_moveSymmetric: a move and its mirror give mirrored results", () => {
  fc.assert(fc.property(gameArb, fc.nat(), ({ k, player, state }, pick) => {
    const ms = movesImpl(k, player, state);
    fc.pre(ms.length > 0);
    const i = ms[pick % ms.length];
    const mirror = i > k.pitCount ? i - k.pitCount - 1 : i + k.pitCount + 1;
    const [p1, s1] = moveImpl(k, player, state, i);
    const [p2, s2] = moveImpl(k, !player, swap(k, state), mirror);
    assertEquals(p2, !p1);
    assertEquals(s2, swap(k, s1));
  }));
});

Deno.test("seed 000 prop_moveDoesntChangeSum", () => {
  fc.assert(fc.property(gameArb, fc.nat(), ({ k, player, state }, pick) => {
    const ms = movesImpl(k, player, state);
    fc.pre(ms.length > 0);
    const [, next] = moveImpl(k, player, state, ms[pick % ms.length]);
    assertEquals(next.reduce((a, b) => a + b, 0), state.reduce((a, b) => a + b, 0));
  }));
});

Deno.test("seed 000 prop_specificMoves: hand-checked moves", () => {
  const k = { pitCount: 6, stoneCount: 6 };
  const start = startStateImpl(k);
  // Alice's first house: six stones reach her store exactly: she moves again.
  assertEquals(moveImpl(k, alice, start, 0), [alice, [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]]);
  // Bob's last house: one stone in his store, five in alice's houses.
  assertEquals(moveImpl(k, bob, start, 12), [alice, [7, 7, 7, 7, 7, 6, 0, 6, 6, 6, 6, 6, 0, 1]]);
  // A capture: alice's last stone lands in her empty house 1, opposite bob's 5 stones.
  const k3 = { pitCount: 3, stoneCount: 3 };
  assertEquals(moveImpl(k3, alice, [1, 0, 2, 3, 2, 5, 1, 4], 0), [bob, [0, 0, 2, 9, 2, 0, 1, 4]]);
  // Seed 000 captures an empty opposite house too: the last stone goes to the store.
  assertEquals(moveImpl(k3, alice, [1, 0, 2, 3, 2, 0, 6, 4], 0), [bob, [0, 0, 2, 4, 2, 0, 6, 4]]);
  // Full laps at once: 2n + 1 = 7 places per lap; 15 stones = 2 laps and 1.
  assertEquals(
    moveImpl(k3, alice, [15, 1, 1, 0, 1, 0, 0, 0], 0),
    [bob, [2, 4, 3, 2, 3, 2, 2, 0]],
  );
  // The game ends when a side is empty: each side keeps its stones (bob's = 2nm - alice's).
  assertEquals(moveImpl(k3, alice, [0, 0, 1, 8, 1, 0, 8, 0], 2), [alice, [0, 0, 0, 9, 0, 0, 0, 9]]);
});

// ---------------------------------------------------------------------------------------
// Seed 000 and the plugin: bob is south (player 0); the layouts map by swapping halves.

Deno.test("seed 000's moveImpl is the plugin's play with capture 'always' (bob = south)", () => {
  fc.assert(fc.property(gameArb, fc.nat(), ({ k, player, state }, pick) => {
    const g = kalahGame({
      pits: k.pitCount,
      stones: k.stoneCount,
      capture: "always",
      eval: "store",
    });
    const s = fromSeed000(k, state, player);
    assertEquals(toSeed000(k, s), [player, state]);
    assertEquals(g.value(s), isOver(s, k.pitCount) ? util(s, k.pitCount) : valueImpl(k, state));
    const seedMoves = movesImpl(k, player, state);
    const moves = g.moves(s);
    if (isOver(s, k.pitCount)) return assertEquals(moves, []);
    assertEquals([...moves], seedMoves.map((i) => moveFromSeed000(k, i)));
    fc.pre(seedMoves.length > 0);
    const i = seedMoves[pick % seedMoves.length];
    const m = moveFromSeed000(k, i);
    assertEquals(moveToSeed000(k, player, m), i);
    const [p2, s2] = moveImpl(k, player, state, i);
    assertEquals(g.play(s, m), fromSeed000(k, s2, p2));
  }));
});

// ---------------------------------------------------------------------------------------
// Seed 004 (test/Spec.hs): util, makeMove, isTerm, on the plugin (seed 004's layout).

Deno.test("seed 004 testUtil1/2, testIsTerm1/2, testMakeMove1/2", () => {
  const init = classic.initial();
  assertEquals(util(init, 6), 0); // testUtil1
  // testUtil2: 2 stones in house index 2 (south), 20 in index 8 (north): util -18.
  const s = new Array(15).fill(0);
  s[2] = 2;
  s[8] = 20;
  assertEquals(util(s, 6), -18);
  assertEquals(classic.value(s), -18);
  assert(!isOver(init, 6)); // testIsTerm1
  const lone = new Array(15).fill(0);
  lone[0] = 4;
  assert(isOver(lone, 6)); // testIsTerm2: one side empty
  assertEquals(classic.moves(lone), []);
  assertEquals(classic.outcome(lone), { winner: 0, margin: 4 });
  // testMakeMove1: house 0 does not reach the store: north moves next.
  assertEquals(classic.toMove(classic.play(init, 0)), 1);
  // testMakeMove2: house 2 (four stones) ends in the store: south moves again.
  assertEquals(classic.toMove(classic.play(init, 2)), 0);
});

Deno.test("both capture rules: only 'always' captures an empty opposite house", () => {
  // South's house 1 (index 0) holds 1 stone; it lands in empty house 2 (index 1), whose
  // opposite (index 11) is empty. North keeps stones elsewhere.
  const s = [1, 0, 0, 0, 0, 3, 0, 2, 0, 0, 0, 0, 0, 0, 0];
  assertEquals(play(s, 6, 0, false), [0, 1, 0, 0, 0, 3, 0, 2, 0, 0, 0, 0, 0, 0, 1]);
  assertEquals(play(s, 6, 0, true), [0, 0, 0, 0, 0, 3, 1, 2, 0, 0, 0, 0, 0, 0, 1]);
  assertEquals(moveKind(s, 6, 0, false), MoveKind.Plain);
  assertEquals(moveKind(s, 6, 0, true), MoveKind.Capture);
  // With stones opposite both rules capture them with the last stone.
  const t = [1, 0, 0, 0, 0, 3, 0, 2, 0, 0, 0, 5, 0, 0, 0];
  const captured = [0, 0, 0, 0, 0, 3, 6, 2, 0, 0, 0, 0, 0, 0, 1];
  assertEquals(play(t, 6, 0, false), captured);
  assertEquals(play(t, 6, 0, true), captured);
  assertEquals(moveKind(t, 6, 0, false), MoveKind.Capture);
  // North captures into its own store, from south's houses.
  const u = [0, 0, 0, 0, 4, 1, 0, 1, 0, 0, 0, 0, 2, 0, 1];
  assertEquals(play(u, 6, 0, false), [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 5, 0]);
});

Deno.test("the end of the game: either side empty, each side keeps its stones", () => {
  // South empties its last house into the store: north's 7 stones go to north's store.
  const s = [0, 0, 0, 0, 0, 1, 10, 3, 4, 0, 0, 0, 0, 5, 0];
  const after = classic.play(s, 5);
  assertEquals(after, [0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 12, 0]);
  assertEquals(classic.moves(after), []);
  assertEquals(classic.outcome(after), { winner: 1, margin: -1 });
  assertEquals(classic.value(after), -1);
  // The store evaluation agrees at the end.
  const store = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "store" });
  assertEquals(store.value(after), -1);
  assertEquals(store.value(s), 5);
});

// ---------------------------------------------------------------------------------------
// The sowing shortcut, moves, notation.

/** A random position: any small counts in houses and stores, either player to move. */
const positionArb = fc
  .record({
    pits: fc.integer({ min: 1, max: 8 }),
    big: fc.boolean(),
    seed: fc.array(fc.nat({ max: 60 }), { minLength: 19, maxLength: 19 }),
    mover: fc.integer({ min: 0, max: 1 }),
  })
  .map(({ pits, big, seed, mover }) => {
    const s: number[] = [];
    for (let i = 0; i < 2 * pits + 2; i++) s.push(big ? seed[i % 19] * 37 : seed[i % 19] % 7);
    s.push(mover);
    return { pits, s };
  });

Deno.test("sowing by quotient and remainder equals stone-by-stone sowing (property)", () => {
  fc.assert(
    fc.property(positionArb, fc.nat(), fc.boolean(), ({ pits, s }, pick, always) => {
      const mover = s[2 * pits + 2];
      const base = mover === 0 ? 0 : pits + 1;
      const houses = [...Array(pits).keys()].filter((m) => s[base + m] > 0);
      fc.pre(houses.length > 0);
      const m = houses[pick % houses.length];
      const a = s.slice(), b = s.slice();
      const ea = sowInPlace(a, pits, mover, m, always);
      const eb = sowNaive(b, pits, mover, m, always);
      assertEquals(a, b);
      assertEquals(ea, eb);
      assertEquals(a.reduce((x, y) => x + y, 0), s.reduce((x, y) => x + y, 0));
      // The move classification agrees with what the move did.
      const kind = moveKind(s, pits, m, always);
      assertEquals(kind === MoveKind.Extra, ea);
    }),
    { numRuns: 300 },
  );
});

Deno.test("Kalah(6, 1000000): a move costs what a Kalah(6, 4) move costs", () => {
  const big = kalahGame({ pits: 6, stones: 1_000_000, capture: "nonempty", eval: "util" });
  let s: KalahState = big.initial();
  const t0 = performance.now();
  for (let i = 0; i < 2000 && big.moves(s).length > 0; i++) s = big.play(s, big.moves(s)[0]);
  const ms = performance.now() - t0;
  assertEquals(s.reduce((a, b) => a + b, 0) - s[14], 12_000_000);
  assert(ms < 500, `2000 moves with a million stones a house took ${ms} ms`);
  // One move from the start: 1,000,000 stones = 76,923 laps of 13 places, and 1 more.
  const first = big.play(big.initial(), 0);
  const lapped = 1_076_923;
  assertEquals(first.slice(0, 7), [76_923, lapped + 1, lapped, lapped, lapped, lapped, 76_923]);
  assertEquals(first.slice(7), [lapped, lapped, lapped, lapped, lapped, lapped, 0, 1]);
});

Deno.test("moves: the mover's non-empty houses; none when either side is empty", () => {
  const moves = movesFor(6);
  assertEquals([...moves(initialState(6, 4))], [0, 1, 2, 3, 4, 5]);
  const s = [0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 1];
  assertEquals([...moves(s)], [2]);
  assertEquals([...moves(initialState(6, 0))], []);
  const wide = movesFor(20);
  assertEquals(wide(initialState(20, 1)).length, 20);
});

Deno.test("notation: houses 1..n from the mover's left; parse errors say what was expected", () => {
  const s = classic.play(classic.initial(), 0); // north to move
  assertEquals(classic.formatMove(s, 0), "1");
  assertEquals(classic.parseMove(s, " 6 "), Result.succeed(5));
  const bad = (text: string) => {
    const r = classic.parseMove(s, text);
    assert(Result.isFailure(r));
    return r.failure;
  };
  assertStringIncludes(bad("x"), "expected a house number 1-6");
  assertStringIncludes(bad("7"), "there is no house 7");
  const t = [0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0];
  assertEquals(classic.parseMove(t, "1"), Result.fail("house 1 is empty"));
});

Deno.test("options: defaults, ranges and choices are checked with clear messages", () => {
  const ok = Effect.runSync(makeGame(kalah, {}));
  assertEquals(ok.options, {
    pits: 6,
    stones: 4,
    capture: "nonempty",
    eval: "util",
    board: "play",
  });
  const bad = Effect.runSync(Effect.flip(makeGame(kalah, { pits: 0, capture: "sometimes" })));
  assertStringIncludes(bad.message, "--pits");
  assertStringIncludes(bad.message, "--capture");
  const extra = Effect.runSync(Effect.flip(makeGame(kalah, { houses: 3 })));
  assertStringIncludes(extra.message, "--houses: unknown option");
});
