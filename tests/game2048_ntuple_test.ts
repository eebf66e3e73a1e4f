/**
 * 2048's n-tuple network: symmetric weight sharing, the slide reward, TD learning (a tiny
 * network trained for a second beats random play and the untrained network), the
 * reproducibility of a training and of its resumption, the weights file, and the fast
 * expectimax with the network at its leaves against a plain recursion.
 */
import { assert, assertEquals, assertThrows, fc } from "../testing/deps.ts";
import { packCells, slideBoard, unpackCells } from "../plugins/game2048/board.ts";
import { autoSlides, compactFits, fastExpectimax } from "../plugins/game2048/expectimax.ts";
import {
  downgrade,
  downgradeRank,
  downgradeRanks,
  hasRank,
} from "../plugins/game2048/downgrade.ts";
import plugin from "../plugins/game2048/mod.ts";
import {
  bestSlide,
  createNetwork,
  evaluate,
  evaluateByCells,
  learn,
  newSlide,
  type NTupleNetwork,
  type NTupleShape,
  potential,
  SHAPES,
  stageOf,
  stageWeightCount,
  symmetricCell,
  withNetwork,
} from "../plugins/game2048/ntuple.ts";
import { COMPUTER_TURN, createGame, slideCells, SLIDER_TURN } from "../plugins/game2048/rules.ts";
import {
  Episode,
  greedyGames,
  growthProblem,
  playGame,
  POOL_SIZE,
  sharedNetwork,
  StartPool,
  summarize,
  trainGames,
  trainNetwork,
  withStages,
  withTuples,
} from "../plugins/game2048/train.ts";
import {
  checksumWords,
  decodeWeights,
  encodePacked,
  encodeWeights,
  loadWeights,
  PACK_UNIT,
  type TrainMeta,
  WeightsError,
} from "../plugins/game2048/weights.ts";

/** A board's ranks (16, reading order) as `[lo, hi]`. */
const fromRanks = (r: readonly number[]): [number, number] => {
  let lo = 0, hi = 0;
  for (let i = 0; i < 16; i++) {
    if (i < 8) lo |= r[i] << (4 * i);
    else hi |= r[i] << (4 * (i - 8));
  }
  return [lo, hi];
};

/** The ranks of the board's image under symmetry `sym`: cell c's rank goes to sym(c). */
const image = (r: readonly number[], sym: number): number[] => {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 16; c++) out[symmetricCell(c, sym)] = r[c];
  return out;
};

const ranksArb = fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 16, maxLength: 16 });

/** A 5x4 network with integer weights (sums exact in any order). */
const integerNet = (seed: number): NTupleNetwork => {
  const net = createNetwork(SHAPES["5x4"]);
  let s = seed;
  for (let i = 0; i < net.weights.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    net.weights[i] = (s >>> 16) % 2001 - 1000;
  }
  return net;
};

Deno.test("the 8 symmetries are the square's dihedral group (distinct permutations)", () => {
  const perms = new Set<string>();
  for (let s = 0; s < 8; s++) {
    const p = Array.from({ length: 16 }, (_, c) => symmetricCell(c, s));
    assertEquals(new Set(p).size, 16);
    perms.add(p.join(","));
    // A slide left of the image is a slide of the board in the image's direction: the
    // symmetries keep neighbours neighbours.
    for (let c = 0; c < 16; c++) {
      const x = c & 3, y = c >>> 2;
      if (x < 3) {
        const a = p[c], b = p[c + 1];
        const d = Math.abs((a & 3) - (b & 3)) + Math.abs((a >>> 2) - (b >>> 2));
        assertEquals(d, 1);
      }
      if (y < 3) {
        const a = p[c], b = p[c + 4];
        assertEquals(Math.abs((a & 3) - (b & 3)) + Math.abs((a >>> 2) - (b >>> 2)), 1);
      }
    }
  }
  assertEquals(perms.size, 8);
});

Deno.test("property: a board and its 8 images have one value, and a learning step moves all alike", () => {
  const net = integerNet(7);
  fc.assert(
    fc.property(ranksArb, fc.integer({ min: 1, max: 5 }), (r, delta) => {
      const values = [0, 1, 2, 3, 4, 5, 6, 7].map((s) => evaluate(net, ...fromRanks(image(r, s))));
      for (const v of values) assertEquals(v, values[0]);
      const [lo, hi] = fromRanks(r);
      const before = values[0];
      // Step 1 towards `before + delta`: every feature's weight moves by delta.
      const after = learn(net, lo, hi, before + delta, 1);
      assertEquals(after, evaluate(net, lo, hi));
      // Every feature's weight went up by delta, once per feature reading it: the value
      // by delta times the sum over features of how many features read the same weight.
      const read: string[] = [];
      SHAPES["5x4"].tuples.forEach((t, i) => {
        for (let s = 0; s < 8; s++) read.push(`${i}:${t.map((c) => r[symmetricCell(c, s)])}`);
      });
      const shared = read.reduce((n, k) => n + read.filter((x) => x === k).length, 0);
      assertEquals(after - before, delta * shared);
      for (let s = 0; s < 8; s++) assertEquals(evaluate(net, ...fromRanks(image(r, s))), after);
      learn(net, lo, hi, after - delta, 1);
      assertEquals(evaluate(net, lo, hi), after - delta * shared);
    }),
    { numRuns: 200 },
  );
});

Deno.test("temporal coherence: each weight learns at |E|/A of its own errors", () => {
  const net = sharedNetwork(SHAPES["5x4"], { tc: true });
  const plain = createNetwork(SHAPES["5x4"]);
  // Ranks 0-15 all different: no two features read one weight, and all of them see the
  // same errors, so all share one rate.
  const [lo, hi] = fromRanks(Array.from({ length: 16 }, (_, i) => i));
  const step = 0.5 / net.features;
  let e = 0, a = 0, v = 0, tdValue = 0;
  for (const target of [100, -40, 70, 70, -10, 5]) {
    const error = target - v, rate = a > 0 ? Math.abs(e) / a : 1;
    const want = v + net.features * step * error * rate;
    v = learn(net, lo, hi, target, step);
    assert(Math.abs(v - want) < 1e-3, `${v} vs ${want}`);
    e += error;
    a += Math.abs(error);
    // Without the accumulators: plain TD, rate 1 throughout.
    tdValue = learn(plain, lo, hi, target, step);
  }
  assert(Math.abs(tdValue - v) > 1, "the rates changed something");
  // The accumulators of a weight the board reads: E and A of its errors.
  const at = SHAPES["5x4"].tuples[0].reduce((i, c, k) => i + (c << (4 * k)), 0);
  assert(Math.abs(net.coherence![2 * at] - e) < 1e-3);
  assert(Math.abs(net.coherence![2 * at + 1] - a) < 1e-3);
  assertEquals(net.coherence![2 * (at + 1) + 1], 0); // a weight it does not read
});

Deno.test("optimistic initialization: every board of a new network is worth the initial value", () => {
  const net = sharedNetwork(SHAPES["5x4"], { init: 320_000 });
  fc.assert(fc.property(ranksArb, (r) => assertEquals(evaluate(net, ...fromRanks(r)), 320_000)));
  // And it learns from there: greedy training lowers what it has seen.
  trainGames(net, 2, 0.1, 0, 20);
  assert(evaluate(net, ...fromRanks(new Array(16).fill(0).fill(1, 0, 2))) < 320_000);
});

Deno.test("property: the compiled evaluation (8 images, runs of cells) equals the cell-by-cell one", () => {
  const shapes = [
    SHAPES["5x4"],
    { name: "odd", tuples: [[6, 7, 8, 9], [0, 5, 10, 15], [3], [12, 13, 14, 15, 11], [9, 8, 1]] },
    { name: "rows", tuples: [[8, 9, 10, 11, 12], [0, 4, 8]] },
    { name: "across", tuples: [[5, 6, 7, 8, 9, 10], [15, 0], [2, 1, 0, 7, 6]] },
    { ...SHAPES["5x4"], stages: 3 },
    { name: "staged", tuples: [[9, 8, 1], [15, 0]], stages: 2 },
  ];
  for (const shape of shapes) {
    const net = createNetwork(shape);
    for (let i = 0; i < net.weights.length; i++) {
      net.weights[i] = (Math.imul(i, 2654435761) >>> 20) - 2048;
    }
    fc.assert(
      fc.property(ranksArb, (r) => {
        const [lo, hi] = fromRanks(r);
        assertEquals(evaluate(net, lo, hi), evaluateByCells(net, lo, hi));
        // A step of 0 re-reads the weights the features read (`slotsOf`): the same sum.
        assertEquals(learn(net, lo, hi, 1e6, 0), evaluate(net, lo, hi));
      }),
      { numRuns: 300 },
    );
  }
});

Deno.test("multi-stage weights: a board reads its stage's tables, 16384 opening the second, 16384 and 8192 the third", () => {
  const board = (...ranks: number[]) =>
    fromRanks([...ranks, ...new Array(16 - ranks.length).fill(0)]);
  const cases: [number[], number, number][] = [
    // ranks, the stage of 2 stages, of 3 (0-based)
    [[1, 2], 0, 0],
    [[13, 12, 11], 0, 0], // an 8192 alone is still the first stage
    [[15, 13], 0, 0], // 32768 and 8192: no 16384
    [[14, 1], 1, 1],
    [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14], 1, 1], // the last cell
    [[14, 12, 11], 1, 1],
    [[14, 13], 1, 2],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 15, 14], 1, 2],
  ];
  const net3 = createNetwork({ ...SHAPES["5x4"], stages: 3 });
  // Every weight of stage k is k + 1: a board's value is 40 (features) times its stage + 1.
  for (let k = 0; k < 3; k++) {
    net3.weights.fill(
      k + 1,
      k * stageWeightCount(net3.shape),
      (k + 1) * stageWeightCount(net3.shape),
    );
  }
  for (const [ranks, two, three] of cases) {
    const [lo, hi] = board(...ranks);
    assertEquals(stageOf(1, lo, hi), 0);
    assertEquals(stageOf(2, lo, hi), two, `${ranks}`);
    assertEquals(stageOf(3, lo, hi), three, `${ranks}`);
    assertEquals(evaluate(net3, lo, hi), 40 * (three + 1), `${ranks}`);
  }
  assertEquals(net3.weights.length, 3 * 5 * 16 ** 4);
  assertThrows(() => createNetwork({ ...SHAPES["5x4"], stages: 4 }), Error, "1 to 3 stages");
});

Deno.test("weight promotion: added stages start as copies (every value kept), then learn apart", () => {
  const net = sharedNetwork(SHAPES["5x4"], { tc: true });
  trainGames(net, 9, 1, 0, 40);
  const staged = withStages(net, 3);
  assertEquals(staged.shape.stages, 3);
  for (let k = 0; k < 3; k++) {
    const at = k * stageWeightCount(staged.shape);
    assertEquals(staged.weights.subarray(at, at + stageWeightCount(staged.shape)), net.weights);
    assertEquals(
      staged.coherence!.subarray(2 * at, 2 * (at + stageWeightCount(staged.shape))),
      net.coherence,
    );
  }
  fc.assert(
    fc.property(ranksArb, (r) => {
      const [lo, hi] = fromRanks(r);
      assertEquals(evaluate(staged, lo, hi), evaluate(net, lo, hi));
    }),
    { numRuns: 200 },
  );
  // A step on a third-stage board moves the third stage's weights only.
  const late = fromRanks([14, 13, 12, 11, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const early = fromRanks([12, 13, 12, 11, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const second = fromRanks([14, 12, 12, 11, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const before = [early, second].map((b) => evaluate(staged, ...b));
  // (as a copy of the one-stage network learns it: the same weights, the same rates).
  const single = withStages(net, 1);
  const target = evaluate(net, ...late) + 5000;
  learn(staged, ...late, target, 1 / staged.features);
  learn(single, ...late, target, 1 / single.features);
  assert(evaluate(staged, ...late) > evaluate(net, ...late));
  assertEquals(evaluate(staged, ...late), evaluate(single, ...late));
  assertEquals([early, second].map((b) => evaluate(staged, ...b)), before);
  assertEquals(
    staged.weights.subarray(0, 2 * stageWeightCount(staged.shape)),
    withStages(net, 2).weights,
  );
  assertThrows(() => withStages(staged, 2), Error, "cannot lose stages");
  // From two stages to three, the new one copies the last.
  const two = withStages(net, 2), size = stageWeightCount(two.shape);
  learn(two, ...second, evaluate(two, ...second) + 900, 1 / two.features);
  const three = withStages(two, 3);
  assertEquals(three.weights.subarray(0, 2 * size), two.weights);
  assertEquals(three.weights.subarray(2 * size), two.weights.subarray(size));
  assertEquals(evaluate(three, ...late), evaluate(two, ...late));
});

Deno.test("tuple promotion: a network grows into more tuples, every value kept, the new ones learning", () => {
  const net = withStages(sharedNetwork(SHAPES["5x4"], { tc: true }), 2);
  trainGames(net, 4, 1, 0, 40);
  // The 5x4 tuples in another order, and two columns more.
  const column = (x: number) => [x, x + 4, x + 8, x + 12];
  const [a, b, c, d, e] = SHAPES["5x4"].tuples;
  const shape = { name: "5x4+2", tuples: [e, column(0), a, b, c, d, column(1)] };
  const grown = withTuples(net, shape);
  assertEquals(grown.shape.stages, 2);
  assertEquals(grown.features, 56);
  const size = stageWeightCount(net.shape), t = 16 ** 4;
  for (let k = 0; k < 2; k++) {
    const old = (i: number) => net.weights.subarray(k * size + i * t, k * size + (i + 1) * t);
    const now = (i: number) => grown.weights.subarray(k * 7 * t + i * t, k * 7 * t + (i + 1) * t);
    [4, 0, 1, 2, 3].forEach((from, i) => assertEquals(now([0, 2, 3, 4, 5][i]), old(from)));
    assertEquals(now(1).some((w) => w !== 0), false);
    assertEquals(now(6).some((w) => w !== 0), false);
    const acc = (a: Float32Array, at: number) => a.subarray(2 * at, 2 * (at + t));
    assertEquals(acc(grown.coherence!, k * 7 * t + 2 * t), acc(net.coherence!, k * size));
    assertEquals(acc(grown.coherence!, k * 7 * t + 6 * t).some((x) => x !== 0), false);
  }
  assert(net.weights.some((w) => w !== 0));
  fc.assert(
    fc.property(ranksArb, (r) => {
      const [lo, hi] = fromRanks(r);
      assertEquals(evaluate(grown, lo, hi), evaluate(net, lo, hi));
      assertEquals(evaluateByCells(grown, lo, hi), evaluate(grown, lo, hi));
    }),
    { numRuns: 200 },
  );
  // Training moves the new tuples' weights too.
  trainGames(grown, 4, 1, 40, 10);
  assert(grown.weights.subarray(t, 2 * t).some((w) => w !== 0));
  // Never fewer tuples; the literature's shapes: 9x6 is 4x6 and 8x6 together.
  assertThrows(
    () => withTuples(grown, SHAPES["5x4"]),
    Error,
    "5x4 lacks the tuple 0,4,8,12 of 5x4+2",
  );
  assertEquals(growthProblem(SHAPES["4x6"], SHAPES["9x6"]), undefined);
  assertEquals(growthProblem(SHAPES["8x6"], SHAPES["9x6"]), undefined);
  assertEquals(
    growthProblem(SHAPES["4x6"], SHAPES["8x6"]),
    "8x6 lacks the tuple 4,5,6,8,9,10 of 4x6",
  );
  const hex = (s: NTupleShape) => s.tuples.map((t) => t.map((c) => c.toString(16)).join(""));
  assertEquals(
    hex(SHAPES["8x6"]),
    "012456 456789 012345 234569 01259a 345678 134567 01489a".split(" "),
  );
  assertEquals(
    new Set([...hex(SHAPES["4x6"]), ...hex(SHAPES["8x6"])]),
    new Set(hex(SHAPES["9x6"])),
  );
  assertEquals(hex(SHAPES["9x6"]).length, 9);
});

Deno.test("a feature reads its tuple's cells: a weight changed shows in exactly the boards that read it", () => {
  const net = createNetwork(SHAPES["5x4"]);
  // Tuple 0 (the outer row) reads cells 0-3 with ranks 1, 2, 3, 4: index 0x4321.
  net.weights[0x4321] = 1;
  const r = [1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  assertEquals(evaluate(net, ...fromRanks(r)), 1);
  // The reversed row is another index (its mirror image reads 0x4321 too: 2 in all).
  const mirrored = [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  assertEquals(evaluate(net, ...fromRanks(mirrored)), 1);
  const both = [1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 4, 3, 2, 1];
  assertEquals(evaluate(net, ...fromRanks(both)), 2);
  // The inner row does not read tuple 0's table at that index.
  const inner = [0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0];
  assertEquals(evaluate(net, ...fromRanks(inner)), 0);
});

Deno.test("property: a slide's reward is the protocol's merge score", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 14 }), { minLength: 16, maxLength: 16 }),
      fc.integer({ min: 0, max: 3 }),
      (r, d) => {
        const [lo, hi] = fromRanks(r);
        const out = new Int32Array(2);
        slideBoard(lo, hi, d, out);
        const cells = unpackCells(lo, hi), scratch = cells.slice();
        const gained = slideCells(cells, scratch, 4, 4, d);
        assertEquals(potential(out[0], out[1]) - potential(lo, hi), Math.max(0, gained));
      },
    ),
    { numRuns: 500 },
  );
});

/** Random play on the same tiles' rules: a seeded slider picking a legal slide at random. */
const randomPlayMean = (games: number, seed: number): number => {
  let s = seed, total = 0;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) | 0;
    return (s >>> 0) / 4294967296;
  };
  const out = new Int32Array(2);
  for (let g = 0; g < games; g++) {
    const cells = new Array(16).fill(0);
    cells[Math.floor(rnd() * 16)] = 2;
    let [lo, hi] = packCells(cells)!;
    for (;;) {
      const legal: [number, number][] = [];
      for (let d = 0; d < 4; d++) {
        slideBoard(lo, hi, d, out);
        if (out[0] !== lo || out[1] !== hi) legal.push([out[0], out[1]]);
      }
      if (legal.length === 0) break;
      const [a, b] = legal[Math.floor(rnd() * legal.length)];
      total += potential(a, b) - potential(lo, hi);
      const c = unpackCells(a, b);
      const empty = c.flatMap((v, i) => (v === 0 ? [i] : []));
      c[empty[Math.floor(rnd() * empty.length)]] = rnd() < 0.9 ? 2 : 4;
      [lo, hi] = packCells(c)!;
    }
  }
  return total / games;
};

Deno.test("learning works: 1,000 training games beat the untrained network and random play", () => {
  const net = createNetwork(SHAPES["5x4"]);
  const evalSeed = 99, evalGames = 200;
  const untrained = summarize(greedyGames(net, evalSeed, evalGames)).meanScore;
  trainGames(net, 1, 0.1, 0, 1000);
  const trained = summarize(greedyGames(net, evalSeed, evalGames)).meanScore;
  const random = randomPlayMean(evalGames, 5);
  // Deterministic (seeded, one thread): measured 1,090 (random), 3,184 (untrained) and
  // about 7,000 (trained); the margins hold far beyond any noise between seeds.
  assert(untrained > random, `untrained ${untrained} vs random ${random}`);
  assert(trained > 2 * untrained, `trained ${trained} vs untrained ${untrained}`);
  // By temporal coherence, and from an optimistic start, it learns too (400 games).
  for (const start of [{ tc: true }, { init: 50_000 }]) {
    const other = sharedNetwork(SHAPES["5x4"], start);
    trainGames(other, 1, start.tc ? 1 : 0.1, 0, 400);
    const score = summarize(greedyGames(other, evalSeed, evalGames)).meanScore;
    // Measured: 6,017 from the optimistic start (which first unlearns its optimism).
    assert(score > 1.5 * untrained, `${JSON.stringify(start)}: ${score} vs untrained ${untrained}`);
  }
});

Deno.test("a training is reproducible, and resumed after g games it goes on identically", () => {
  const a = createNetwork(SHAPES["5x4"]), b = createNetwork(SHAPES["5x4"]);
  const ra = trainGames(a, 3, 0.1, 0, 120);
  const rb = [...trainGames(b, 3, 0.1, 0, 50), ...trainGames(b, 3, 0.1, 50, 70)];
  assertEquals(rb, ra);
  assertEquals(b.weights, a.weights);
  // Another seed, other games.
  const c = createNetwork(SHAPES["5x4"]);
  assert(trainGames(c, 4, 0.1, 0, 20).some((r, i) => r.score !== ra[i].score));
});

/** A position one slide from 8192: two 4096s side by side, and a few small tiles. */
const NEAR_8192 = fromRanks([12, 12, 3, 1, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);

/** A pool (not shared) holding `boards`. */
const poolOf = (...boards: [number, number][]): StartPool => {
  const pool = new StartPool(new ArrayBuffer(4 * (2 + 2 * POOL_SIZE)));
  for (const [lo, hi] of boards) pool.add(lo, hi);
  return pool;
};

Deno.test("late starts: a game starts from a saved position, and one that makes 8192 is saved", () => {
  const net = createNetwork(SHAPES["5x4"]); // all zero: the greedy slide scores most
  const episode = new Episode(), result = { score: 0, maxRank: 0, moves: 0, late: false };
  const pool = poolOf(NEAR_8192);
  playGame(net, 8, 0, 0, episode, result, { share: 0.9, pool });
  assert(result.late);
  // Its first afterstate is a slide of the saved position: left, which makes the 8192.
  const out = new Int32Array(2);
  slideBoard(NEAR_8192[0], NEAR_8192[1], 0, out);
  assertEquals([episode.lo[0], episode.hi[0]], [out[0], out[1]]);
  // The board after that slide and the computer's tile joined the pool.
  assertEquals(pool.size, 2);
  const saved = unpackCells(pool.words[4], pool.words[5]);
  assertEquals(saved.slice(0, 4), [8192, 8, 2, 0]);
  assertEquals(saved.filter((v) => v !== 0).length, 5 + 1);
  // A share of 0 draws nothing: the game is the one without late starts, from the empty board.
  const plain = playGame(net, 8, 1, 0, episode, { ...result });
  const none = playGame(net, 8, 1, 0, episode, { ...result }, { share: 0, pool });
  assertEquals(none, plain);
  assert(!none.late);
  // The pool keeps the last POOL_SIZE positions.
  const full = poolOf();
  for (let i = 0; i < POOL_SIZE + 3; i++) full.add(i, -i);
  assertEquals(full.size, POOL_SIZE);
  assertEquals([full.words[2], full.words[3]], [POOL_SIZE, -POOL_SIZE]);
  assertEquals(full.saved().length, 2 + 2 * POOL_SIZE);
});

Deno.test("late starts: a training is reproducible, and resumed with its saved pool it goes on identically", async () => {
  const start = () =>
    poolOf(NEAR_8192, fromRanks([13, 12, 12, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
  const a = createNetwork(SHAPES["5x4"]), b = createNetwork(SHAPES["5x4"]);
  const pa = start(), pb = start();
  const ra = trainGames(a, 3, 0.1, 0, 150, { share: 0.5, pool: pa });
  const first = trainGames(b, 3, 0.1, 0, 60, { share: 0.5, pool: pb });
  const resumed = new StartPool(new ArrayBuffer(4 * (2 + 2 * POOL_SIZE)), pb.saved());
  const rb = [...first, ...trainGames(b, 3, 0.1, 60, 90, { share: 0.5, pool: resumed })];
  assertEquals(rb, ra);
  assertEquals(b.weights, a.weights);
  assertEquals(resumed.saved(), pa.saved());
  // About half the games started late (the seeded draws), and some made a new 8192 or 16384.
  const lateGames = ra.filter((r) => r.late).length;
  assert(lateGames > 50 && lateGames < 100, `${lateGames} late games of 150`);
  assert(pa.size > 2, `${pa.size} positions`);
  // The same training on a worker thread (`trainNetwork`): the checkpoint's pool handed
  // to the worker, the same weights, and the worker's pool back in the checkpoint.
  const c = sharedNetwork(SHAPES["5x4"]);
  const saves: TrainMeta[] = [];
  const final = await trainNetwork({
    net: c,
    meta: { ...meta(0), seed: 3, late: 0.5, starts: [start().saved()], moves: 0, history: [] },
    workers: 1,
    games: 150,
    window: 50,
    checkpointMs: 3_600_000,
    save: (m) => saves.push(m),
  });
  assertEquals(c.weights, a.weights);
  assertEquals(final.starts, [pa.saved()]);
  assertEquals(final.games, 150);
  // The figures count the games from the empty board only.
  assertEquals(final.history.at(-1)!.window, 50);
  assertEquals(final.history.length, Math.floor((150 - lateGames) / 50));
});

const meta = (games: number): TrainMeta => ({
  net: "5x4",
  seed: 3,
  alpha: 0.1,
  games,
  moves: 1234,
  ms: 56,
  history: [{ games, ms: 56, window: 10, meanScore: 1000, reached: [0.5, 0, 0, 0, 0] }],
});

Deno.test("the weights file: round trip, and clear errors for missing, truncated, foreign, damaged", () => {
  const net = integerNet(11);
  net.weights[5] = 0.125;
  const bytes = encodeWeights(net, meta(42));
  const back = decodeWeights(bytes, "x.weights");
  assertEquals(back.net.shape.tuples, SHAPES["5x4"].tuples);
  assertEquals(back.net.weights, net.weights);
  assertEquals(back.meta, meta(42));
  const fails = (b: Uint8Array, what: RegExp) => {
    const e = assertThrows(() => decodeWeights(b, "my.weights"), WeightsError);
    assert(what.test(e.message), e.message);
    assert(e.message.startsWith("my.weights: "), e.message);
    assert(e.message.includes("deno task train 2048 --out my.weights"), e.message);
  };
  fails(bytes.subarray(0, bytes.length - 4), /truncated/);
  fails(bytes.subarray(0, 30), /truncated/);
  fails(bytes.subarray(0, 5), /not a 2048 n-tuple network/);
  fails(new TextEncoder().encode("P3\n4 4\n255\n" + "0 ".repeat(64)), /not a 2048/);
  const damaged = bytes.slice();
  damaged[damaged.length - 3] ^= 1;
  fails(damaged, /checksum/);
  const newer = bytes.slice();
  newer[8] = 5;
  fails(newer, /version 5, this program reads 1 to 4/);
  // Versions 1 (no coherence section) and 2 (one stage) still read.
  for (const version of [1, 2]) {
    const older = bytes.slice();
    older[8] = version;
    assertEquals(decodeWeights(older, "old.weights").net.weights, net.weights);
  }
  const dir = Deno.makeTempDirSync();
  try {
    const e = assertThrows(() => loadWeights(`${dir}/none.weights`), WeightsError);
    assert(e.message.includes("no such file"), e.message);
    assert(e.message.includes(`deno task train 2048 --out ${dir}/none.weights`), e.message);
    // The plugin's option names the file and what to run.
    const opened = () =>
      plugin.create({
        width: 4,
        height: 4,
        eval: "ntuple",
        weights: `${dir}/none.weights`,
      });
    const err = assertThrows(opened, WeightsError);
    assert(err.message.includes("deno task train 2048"), err.message);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a packed network: its weights rounded to the unit, zeros kept, and read for a training", () => {
  const net = sharedNetwork(SHAPES["5x4"], { tc: true });
  trainGames(net, 7, 1, 0, 200);
  const m: TrainMeta = { ...meta(200), tc: true };
  const bytes = encodePacked(net, m);
  const back = decodeWeights(bytes, "p.weights");
  assertEquals(back.meta.packed, { pruned: 0, unit: PACK_UNIT });
  const { packed: _, ...rest } = back.meta;
  assertEquals(rest, m);
  let nonzero = 0;
  for (let i = 0; i < net.weights.length; i++) {
    const w = net.weights[i];
    if (w !== 0) nonzero++;
    assertEquals(back.net.weights[i], Math.round(w / PACK_UNIT) * PACK_UNIT, `weight ${i}`);
  }
  assert(nonzero > 1000, `${nonzero}`);
  // Deflated: far smaller than the float32 weights (1.3 MB), a fraction of them trained.
  assert(bytes.length < nonzero * 3, `${bytes.length} bytes for ${nonzero} weights`);
  // Read for a training: shared weights, no accumulators (the file has none).
  const training = decodeWeights(bytes, "p.weights", true).net;
  assert(training.weights.buffer instanceof SharedArrayBuffer);
  assertEquals(training.coherence, undefined);
  assertEquals(training.weights, back.net.weights);
  // A weight too large for 16 bits of the unit raises the unit.
  const big = createNetwork(SHAPES["5x4"]);
  big.weights[3] = 1e6;
  big.weights[9] = -5;
  const wide = decodeWeights(encodePacked(big, meta(1)), "w");
  assert(wide.meta.packed!.unit! > PACK_UNIT);
  assert(Math.abs(wide.net.weights[3] - 1e6) <= wide.meta.packed!.unit! / 2);
  assertEquals(wide.net.weights[9], 0);
});

Deno.test("a packed network keeps the weights that learned most; damaged files are named", () => {
  const net = sharedNetwork(SHAPES["5x4"], { tc: true });
  trainGames(net, 9, 1, 0, 100);
  const { weights, coherence } = net;
  // Whole nonzero weights, so that a unit of 1 keeps every weight it keeps exactly.
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] !== 0) {
      weights[i] = Math.sign(weights[i]) * Math.max(1, Math.round(Math.abs(weights[i])));
    }
  }
  const keep = 500;
  const bytes = encodePacked(net, meta(100), { keep, unit: 1 });
  const back = decodeWeights(bytes, "p.weights");
  let nonzero = 0, kept = 0, leastKept = Infinity, mostDropped = -Infinity;
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] === 0) continue;
    nonzero++;
    const a = coherence![2 * i + 1];
    if (back.net.weights[i] !== 0) {
      kept++;
      leastKept = Math.min(leastKept, a);
      assertEquals(back.net.weights[i], weights[i]);
    } else mostDropped = Math.max(mostDropped, a);
  }
  assertEquals(back.meta.packed!.unit, 1);
  assert(kept <= keep && kept > keep - 5, `${kept} kept`);
  assert(leastKept > mostDropped, `${leastKept} against ${mostDropped}`);
  assertEquals(back.meta.packed!.pruned, nonzero - kept);
  // Keeping more than there are keeps them all; a network without accumulators cannot rank.
  assertEquals(
    decodeWeights(encodePacked(net, meta(1), { keep: 1e8 }), "x").meta.packed!.pruned,
    0,
  );
  const td = integerNet(3);
  assertThrows(() => encodePacked(td, meta(1), { keep: 10 }), Error, "coherence accumulators");
  const fails = (b: Uint8Array, what: RegExp) => {
    const e = assertThrows(() => decodeWeights(b, "p.weights"), WeightsError);
    assert(what.test(e.message), e.message);
    assert(e.message.startsWith("p.weights: "), e.message);
  };
  fails(bytes.subarray(0, bytes.length - 4), /truncated/);
  const damaged = bytes.slice();
  damaged[damaged.length - 40] ^= 16;
  fails(damaged, /checksum mismatch/);
  // A damaged stream behind a right checksum (as a faulty writer would leave it).
  const view = new DataView(damaged.buffer);
  view.setUint32(20, checksumWords(damaged.subarray(24)), true);
  fails(damaged, /damaged packed weights/);
});

Deno.test("the weights file keeps the coherence accumulators for training; a player skips them", () => {
  const net = sharedNetwork(SHAPES["5x4"], { tc: true });
  trainGames(net, 5, 1, 0, 30);
  const bytes = encodeWeights(net, meta(30));
  const trained = decodeWeights(bytes, "tc.weights", true);
  const saved = decodeWeights(bytes, "tc.weights", true).net;
  assertEquals(trained.meta.tc, true);
  assertEquals(trained.net.weights, net.weights);
  assertEquals(trained.net.coherence, net.coherence);
  assert(trained.net.coherence!.buffer instanceof SharedArrayBuffer);
  // Resumed from the file, a training goes on exactly as the one that did not stop.
  trainGames(net, 5, 1, 30, 20);
  trainGames(trained.net, 5, 1, 30, 20);
  assertEquals(trained.net.weights, net.weights);
  const played = decodeWeights(bytes, "tc.weights");
  assertEquals(played.net.coherence, undefined);
  // A damaged accumulator stops a training, not a player; a cut one stops both.
  const damaged = bytes.slice();
  damaged[damaged.length - 9] ^= 4;
  assertEquals(
    decodeWeights(damaged, "tc.weights").net.weights,
    decodeWeights(bytes, "x").net.weights,
  );
  const e = assertThrows(() => decodeWeights(damaged, "tc.weights", true), WeightsError);
  assert(/checksum mismatch in the coherence/.test(e.message), e.message);
  const cut = assertThrows(
    () => decodeWeights(bytes.subarray(0, bytes.length - 8), "t"),
    WeightsError,
  );
  assert(/coherence accumulators has \d+ \(truncated/.test(cut.message), cut.message);
  // loadWeights reads the same from a file.
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeFileSync(`${dir}/tc.weights`, bytes);
    const read = loadWeights(`${dir}/tc.weights`, true).net;
    assert(read.coherence!.every((x, i) => x === saved.coherence![i]));
    assert(loadWeights(`${dir}/tc.weights`).net.weights.every((x, i) => x === saved.weights[i]));
    Deno.writeFileSync(`${dir}/tc.weights`, damaged);
    assertThrows(() => loadWeights(`${dir}/tc.weights`, true), WeightsError);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the weights file keeps a network's stages; a file of unknown stages is refused", () => {
  const net = withStages(sharedNetwork(SHAPES["5x4"], { tc: true }), 2);
  trainGames(net, 3, 1, 0, 10);
  const bytes = encodeWeights(net, meta(10));
  const back = decodeWeights(bytes, "ms.weights", true);
  assertEquals(back.meta.stages, 2);
  assertEquals(back.net.shape.stages, 2);
  assertEquals(back.net.weights, net.weights);
  assertEquals(back.net.coherence, net.coherence);
  const e = assertThrows(
    () => decodeWeights(bytes.subarray(0, 50_000), "ms.weights"),
    WeightsError,
  );
  assert(e.message.includes("a 5x4 network of 2 stages with its coherence"), e.message);
  // The metadata names the stages; 4 is not a network this program makes.
  const text = new TextDecoder().decode(bytes.subarray(24 + 16 * 5, 24 + 16 * 5 + 400));
  assert(text.includes('"stages":2'), text);
  const four = bytes.slice();
  four.set(new TextEncoder().encode('"stages":4'), 24 + 16 * 5 + text.indexOf('"stages":2'));
  const f = assertThrows(() => decodeWeights(four, "ms.weights"), WeightsError);
  assert(f.message.includes("4 stages, this program reads 1 to 3"), f.message);
});

/**
 * A plain expectimax over compact boards with the network's leaves (no cut-off, no cache);
 * `leaf` turns a leaf's board into the one the network reads (tile downgrading).
 */
const reference = (
  net: NTupleNetwork,
  lo: number,
  hi: number,
  depth: number,
  slider: boolean,
  leaf: (lo: number, hi: number) => [number, number] = (lo, hi) => [lo, hi],
) => {
  const out = new Int32Array(2);
  const value = (lo: number, hi: number) => evaluate(net, ...leaf(lo, hi));
  const node = (lo: number, hi: number, depth: number, slider: boolean): number => {
    if (slider) {
      let best = -Infinity;
      for (let d = 0; d < 4; d++) {
        slideBoard(lo, hi, d, out);
        const a = out[0], b = out[1];
        if (a === lo && b === hi) continue;
        const r = potential(a, b) - potential(lo, hi);
        best = Math.max(
          best,
          r + (depth <= 0 ? value(a, b) : node(a, b, depth - 1, false)),
        );
      }
      return best === -Infinity ? 0 : best;
    }
    if (depth <= 0) return value(lo, hi);
    const cells = unpackCells(lo, hi), empty = cells.flatMap((v, i) => (v === 0 ? [i] : []));
    let v = 0;
    for (const i of empty) {
      for (const [tile, p] of [[2, 0.9], [4, 0.1]]) {
        const c = cells.slice();
        c[i] = tile;
        v += (p / empty.length) * node(...packCells(c)!, depth - 1, true);
      }
    }
    return v;
  };
  return node(lo, hi, depth, slider);
};

Deno.test("the fast expectimax with network leaves equals a plain recursion; at one ply it is greedy", () => {
  const net = createNetwork(SHAPES["5x4"]);
  trainGames(net, 8, 0.1, 0, 200);
  const game = withNetwork(createGame(4, 4, "monotone"), net);
  const slide = newSlide();
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7), { minLength: 16, maxLength: 16 }),
      (r) => {
        const [lo, hi] = fromRanks(r);
        const state = [...unpackCells(lo, hi), SLIDER_TURN, 0];
        const greedy = bestSlide(net, lo, hi, slide);
        const one = fastExpectimax(game, state, { depth: 1, minProbability: 0 });
        if (greedy.dir < 0) {
          assertEquals(one.move, undefined);
          return;
        }
        assertEquals(one.move, greedy.dir);
        assertEquals(one.value, greedy.reward + greedy.value);
        const three = fastExpectimax(game, state, { depth: 3, minProbability: 0 });
        const want = reference(net, lo, hi, 3, true);
        assert(Math.abs(three.value - want) <= 1e-6 * Math.max(1, Math.abs(want)));
      },
    ),
    { numRuns: 25 },
  );
  // A finished game is worth 0.
  const full = [1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1];
  const state = [...unpackCells(...fromRanks(full)), SLIDER_TURN, 0];
  assertEquals(fastExpectimax(game, state, { depth: 3 }).value, 0);
  // Inside the search too: a computer node whose every tile ends the game is worth 0.
  const last = [3, 4, 3, 4, 4, 3, 4, 3, 3, 4, 3, 4, 4, 3, 4, 0];
  const chance = [...unpackCells(...fromRanks(last)), COMPUTER_TURN, 0];
  assertEquals(reference(net, ...fromRanks(last), 2, false), 0);
  assertEquals(fastExpectimax(game, chance, { depth: 2, minProbability: 0 }).value, 0);
});

Deno.test("tile downgrading: every tile above the largest missing rank halves, from the threshold on", () => {
  const out = new Int32Array(2);
  // The board the network reads: `out` when `downgrade` says it changed, else the board.
  const down = (r: readonly number[], minRank: number) => {
    const [lo, hi] = fromRanks(r);
    const changed = downgrade(lo, hi, minRank, out);
    const cells = changed ? unpackCells(out[0], out[1]) : unpackCells(lo, hi);
    return cells.map((t) => (t === 0 ? 0 : Math.log2(t)));
  };
  // The module's example: 16384 8192 4096 2048 1024 512 256 and no 128 reads one rank lower.
  const chain = [14, 13, 12, 11, 0, 8, 9, 10, 6, 5, 4, 3, 0, 1, 2, 0];
  assertEquals(downgradeRanks(chain, 14), [13, 12, 11, 10, 0, 7, 8, 9, 6, 5, 4, 3, 0, 1, 2, 0]);
  // Below the threshold, or with no rank missing, a board stays as it is.
  assertEquals(downgradeRanks(chain, 15), chain);
  const full = [14, 13, 12, 11, 7, 8, 9, 10, 6, 5, 4, 3, 0, 1, 2, 0];
  assertEquals(downgradeRanks(full, 14), full);
  // 32768 and 16384, no 8192 and no 1024: twice (8192's hole, then 1024's), to 8192.
  const two = [15, 14, 12, 11, 7, 8, 9, 0, 6, 5, 4, 3, 0, 1, 2, 0];
  assertEquals(downgradeRanks(two, 14), [13, 12, 11, 10, 7, 8, 9, 0, 6, 5, 4, 3, 0, 1, 2, 0]);
  assertEquals(downgradeRanks(two, 15), [14, 13, 12, 11, 7, 8, 9, 0, 6, 5, 4, 3, 0, 1, 2, 0]);
  // The compact board's tables agree with the cell-by-cell reference, and so does the
  // word-wide test for a rank at the threshold, and whether the board changed.
  fc.assert(
    fc.property(ranksArb, fc.integer({ min: 1, max: 15 }), (r, minRank) => {
      const want = downgradeRanks(r, minRank);
      assertEquals(down(r, minRank), want);
      assertEquals(hasRank(...fromRanks(r), minRank), Math.max(...r) >= minRank);
      assertEquals(downgrade(...fromRanks(r), minRank, out), want.join() !== r.join());
    }),
    { numRuns: 2000 },
  );
  assertEquals(downgradeRank(undefined), Infinity);
  assertEquals(downgradeRank(0), Infinity);
  assertEquals(downgradeRank(16384), 14);
  assertEquals(downgradeRank(10000), 14);
});

Deno.test("with downgrade=T (16384 by default) the expectimax values its leaves downgraded: a plain recursion on them", () => {
  // Integer weights on every rank, so a downgraded leaf reads other weights.
  const net = integerNet(3);
  const game = withNetwork(createGame(4, 4, "monotone"), net);
  const out = new Int32Array(2);
  const plainGame = createGame(4, 4, "monotone");
  const downgraded = (lo: number, hi: number): [number, number] =>
    downgrade(lo, hi, 14, out) ? [out[0], out[1]] : [lo, hi];
  let differ = 0;
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(0, 0, 0, 1, 1, 2, 3, 5, 7, 9, 11, 13), {
        minLength: 15,
        maxLength: 15,
      }),
      fc.integer({ min: 0, max: 15 }),
      (rest, at) => {
        const r: number[] = [...rest];
        r.splice(at, 0, 14);
        const [lo, hi] = fromRanks(r);
        const state = [...unpackCells(lo, hi), SLIDER_TURN, 0];
        const options = { depth: 3, minProbability: 0, params: { downgrade: 16384 } };
        const got = fastExpectimax(game, state, options).value;
        if (compactFits(state) === undefined) {
          // Tiles summing to nearly 65536: the general path, which values its leaves by the
          // game's own evaluation (the README's "fall back"), the network unread.
          assertEquals(got, fastExpectimax(plainGame, state, options).value);
          return;
        }
        const want = reference(net, lo, hi, 3, true, downgraded);
        assert(Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want)), `${got} ${want}`);
        // 16384 is the default; downgrade=0 values the leaves as they are.
        assertEquals(fastExpectimax(game, state, { depth: 3, minProbability: 0 }).value, got);
        const off = { depth: 3, minProbability: 0, params: { downgrade: 0 } };
        const plain = reference(net, lo, hi, 3, true);
        const value = fastExpectimax(game, state, off).value;
        assert(Math.abs(value - plain) <= 1e-6 * Math.max(1, Math.abs(plain)), `${value} ${plain}`);
        if (Math.abs(want - plain) > 1e-6) differ++;
      },
    ),
    { numRuns: 15 },
  );
  // The boards with a 16384 and a missing rank are valued otherwise than without it.
  assert(differ > 0);
  // A board the property rarely draws (fast-check drew it on a CI run): 16384 and six 8192s.
  const [lo, hi] = fromRanks([14, 13, 13, 0, 13, 13, 0, 13, 0, 0, 13, 0, 0, 0, 0, 0]);
  const state = [...unpackCells(lo, hi), SLIDER_TURN, 0];
  assertEquals(compactFits(state), undefined);
  const options = { depth: 3, minProbability: 0 };
  assertEquals(
    fastExpectimax(game, state, options).value,
    fastExpectimax(plainGame, state, options).value,
  );
});

Deno.test("with network leaves a time budget alone chooses the depth; slides=K and the hand-made evaluation keep a cap", () => {
  const net = createNetwork(SHAPES["5x4"]);
  trainGames(net, 8, 0.1, 0, 50);
  // An opening board: the board's cap is 2 slides (3 plies).
  const cells = [2, 4, 0, 0, 0, 8, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0];
  assertEquals(autoSlides(16, 12, 3), 2);
  const state = [...cells, SLIDER_TURN, 0];
  // Deepen with an unbounded budget until the third iteration has reported, then stop:
  // a handshake on the iterations, not a clock.
  const depths = (network: boolean, params?: Record<string, number>): number[] => {
    const game = createGame(4, 4, "monotone");
    const seen: number[] = [];
    fastExpectimax(network ? withNetwork(game, net) : game, state, {
      timeMs: 1e9,
      params,
      onIteration: (it) => seen.push(it.depth),
      shouldStop: () => seen.length >= 3,
    });
    return seen;
  };
  assertEquals(depths(true), [1, 3, 5]);
  assertEquals(depths(false), [1, 3]);
  assertEquals(depths(true, { slides: 2 }), [1, 3]);
  assertEquals(depths(false, { slides: 3 }), [1, 3, 5]);
});
