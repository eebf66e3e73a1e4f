/**
 * 2048's exact endgame solver (`endgame.ts`): the chain of large tiles, the solver against
 * a plain recursion on cell arrays over random endgames, macroxue's published snake
 * figures, its table kept from move to move and across interruptions, its budget, and the
 * fast expectimax playing the solver's slide.
 */
import { assert, assertAlmostEquals, assertEquals, assertThrows, fc } from "../testing/deps.ts";
import { slideBoard, unpackCells } from "../plugins/game2048/board.ts";
import {
  type Chain,
  chainOf,
  chainsOf,
  collapseSlide,
  ENDGAME_BUDGET,
  ENDGAME_REGION,
  endgameBudget,
  EndgameSolver,
  GAP_TOP_RANK,
  LARGE_TAIL_RANK,
} from "../plugins/game2048/endgame.ts";
import { searchInfo } from "../app/session.ts";
import { fastExpectimax } from "../plugins/game2048/expectimax.ts";
import { createNetwork, SHAPES, withNetwork } from "../plugins/game2048/ntuple.ts";
import {
  createGame,
  DOWN,
  LEFT,
  RIGHT,
  slideCells,
  SLIDER_TURN,
} from "../plugins/game2048/rules.ts";
import {
  gapAtTail,
  GAPPED,
  grid,
  reference,
  snake,
  SNAKE_PATH,
  START,
  SYMMETRIES,
  tenTiles,
  words,
} from "./tools/game2048_endgames.ts";

Deno.test("the chain runs from the largest tile through each next smaller neighbour", () => {
  const chain = chainOf(...words(snake(16384, START)))!;
  assertEquals(chain.cells, [3, 2, 1, 0, 4, 5, 6, 7]);
  assertEquals([chain.topRank, chain.tailRank, chain.region], [14, 7, 8]);
  assertEquals(chain.goalCells, [11]);
  // A gap ends it: no 1024 beside the 2048.
  const broken = chainOf(...words(grid(`
    2048 4096 8192 16384
       2  512 1024   128
       0    0    0     0
       0    0    0     0`)))!;
  assertEquals(broken.cells, [3, 2, 1, 0]);
  assertEquals(broken.goalCells, [4]);
  assertEquals(chainOf(0, 0), undefined);
});

Deno.test("macroxue's snake figures: a new 64, 128 and 256 beside the tail", () => {
  // analysis/README.md of macroxue/2048-ai: "right, 0.976849" (64), "0.782384" (128),
  // "0.124619" (256). Its goal is a pair of half tiles by the goal cell, one merge before
  // ours, and it never lets the region hold a tile as large as the tail: the same for
  // 256, a little more for the others (ours also counts the other ways to the tile).
  const published = [[8192, 0.976849], [16384, 0.782384], [32768, 0.124619]];
  for (const [top, figure] of published) {
    const answer = new EndgameSolver().solve(...words(snake(top, START)), 8)!;
    assertEquals(answer.move, RIGHT);
    assert(answer.probability >= figure - 5e-7, `${top}: ${answer.probability} < ${figure}`);
    assert(answer.probability <= figure + 0.007, `${top}: ${answer.probability}`);
    if (top === 32768) assertAlmostEquals(answer.probability, figure, 5e-7);
  }
});

// ---------------------------------------------------------------------------------------
// A plain recursion on cell arrays (the protocol's slide), from the module's definitions.

/**
 * Random endgames: a snake chain of `length` tiles from `top`, a region of small tiles,
 * and how many of the chain's tiles the solver is to hold (`held`); in some, the chain
 * skips a rank after its tile `gapAt` (`gaps`: 1).
 */
const endgames = fc.record({
  length: fc.integer({ min: 11, max: 12 }),
  top: fc.integer({ min: 12, max: 15 }),
  symmetry: fc.integer({ min: 0, max: 7 }),
  region: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 5, maxLength: 5 }),
  shorter: fc.integer({ min: 0, max: 1 }),
  gapAt: fc.integer({ min: 0, max: 9 }),
}).map(endgame);

/** The endgame of `endgames` these choices make. */
function endgame(
  { length, top, symmetry, region, shorter, gapAt }: {
    length: number;
    top: number;
    symmetry: number;
    region: number[];
    shorter: number;
    gapAt: number;
  },
) {
  const cells = new Array(16).fill(0);
  const at = SYMMETRIES[symmetry];
  const gap = gapAt > 0 && top - length >= 1 ? gapAt : 0;
  for (let k = 0; k < length; k++) {
    cells[at(SNAKE_PATH[k])] = 2 ** (top - k - (gap > 0 && k >= gap ? 1 : 0));
  }
  for (let k = length; k < 16; k++) {
    const r = region[k - length];
    cells[at(SNAKE_PATH[k])] = r === 0 ? 0 : 2 ** r;
  }
  return { cells, held: length - shorter, gaps: gap > 0 ? 1 : 0 };
}

Deno.test("property: the solver equals a plain recursion on random endgames", () => {
  const solver = new EndgameSolver();
  let branched = 0, gapped = 0;
  fc.assert(
    fc.property(endgames, ({ cells, held, gaps }) => {
      // (A chain may turn off the snake where a region tile continues it, or branch.)
      const fitting = (skips: number) =>
        chainsOf(...words(cells), held, skips).filter((c) =>
          c.tailRank >= 2 && (skips === 0 || c.topRank >= GAP_TOP_RANK)
        );
      let chains = fitting(0);
      if (chains.length === 0 && gaps > 0) {
        chains = fitting(1);
        if (chains.length > 0) gapped++;
      }
      const answer = solver.solve(...words(cells), 16 - held, undefined, gaps);
      const goalThere = (c: Chain) => c.goalCells.some((g) => cells[g] === 2 ** c.tailRank);
      if (chains.length === 0 || chains.some(goalThere)) return answer === undefined;
      if (chains.length > 1) branched++;
      // The best chain's best slide (the first chain among equals).
      const values = chains.map((c) => reference(cells, c));
      const bests = values.map((v) => Math.max(...v)), best = Math.max(...bests);
      if (best < 0) return answer === undefined;
      assert(answer !== undefined);
      assertAlmostEquals(answer.probability, best, 1e-6);
      const i = chains.findIndex((c) => c.cells.join() === answer.chain.cells.join());
      assertAlmostEquals(values[i][answer.move], best, 1e-6);
      return true;
    }),
    { numRuns: 200, seed: 2048 },
  );
  assert(branched > 0, "some endgames branch");
  assert(gapped > 0, "some endgames hold a chain with a gap");
});

Deno.test("property: through the whole chain's goal, the solver equals the plain recursion", () => {
  // Endgames behind a 16384 or more whose held chain skips the rank just before its tail.
  const gappedAtTail = fc.record({
    length: fc.integer({ min: 11, max: 12 }),
    top: fc.integer({ min: GAP_TOP_RANK, max: 15 }),
    symmetry: fc.integer({ min: 0, max: 7 }),
    region: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 5, maxLength: 5 }),
    shorter: fc.integer({ min: 0, max: 1 }),
  }).map((r) => endgame({ ...r, gapAt: r.length - r.shorter - 1 }));
  const solver = new EndgameSolver();
  let changed = 0, held = 0;
  fc.assert(
    fc.property(gappedAtTail, ({ cells, held: length }) => {
      const [lo, hi] = words(cells);
      const chains = chainsOf(lo, hi, length, 1).filter((c) => c.tailRank >= 2);
      const answer = solver.solve(lo, hi, 16 - length, undefined, 1, true);
      if (chainsOf(lo, hi, length).length > 0 || chains.length === 0) return true;
      const atTail = (c: Chain) => c.ranks.at(-2)! === c.tailRank + 2;
      if (!chains.every(atTail)) return true;
      const values = chains.map((c) => reference(cells, c, true));
      const bests = values.map((v) => Math.max(...v)), best = Math.max(...bests);
      if (best < 0) return answer === undefined;
      assert(answer !== undefined && answer.through === true);
      held++;
      assertAlmostEquals(answer.probability, best, 1e-6);
      const i = chains.findIndex((c) => c.cells.join() === answer.chain.cells.join());
      assertAlmostEquals(values[i][answer.move], best, 1e-6);
      // The goal beside the tail alone would have been worth more.
      const plain = Math.max(...reference(cells, chains[i]));
      if (plain > best + 1e-6) changed++;
      return true;
    }),
    { numRuns: 200, seed: 18 },
  );
  assert(held > 50, `the solver held ${held} such chains`);
  assert(changed > 0, "valuing through the whole chain changes some answers");
});

Deno.test("property: chainsOf lists every chain of a length, chainOf's first", () => {
  const adjacent = (a: number, b: number) =>
    (a >> 2 === b >> 2 && Math.abs(a - b) === 1) || Math.abs(a - b) === 4;
  const boards = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 16, maxLength: 16 });
  let withGaps = 0;
  fc.assert(
    fc.property(
      boards,
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 0, max: 2 }),
      (ranks, length, gaps) => {
        const cells = ranks.map((r) => (r === 0 ? 0 : 2 ** r));
        const [lo, hi] = words(cells);
        const chains = chainsOf(lo, hi, length, gaps), greedy = chainOf(lo, hi, length);
        if (gaps === 0 && greedy !== undefined && greedy.cells.length === length) {
          assertEquals(chains[0], greedy);
        }
        if (gaps > 0) withGaps += chains.length;
        // Every one: from the largest tile, each next cell beside it a rank lower, or two
        // lower exactly `gaps` times, no repeats.
        const top = Math.max(...ranks);
        for (const c of chains) {
          assertEquals([c.cells.length, c.cells[0], c.topRank], [length, ranks.indexOf(top), top]);
          assertEquals(new Set(c.cells).size, length);
          assertEquals(c.ranks, c.cells.map((cell) => ranks[cell]));
          assertEquals(c.tailRank, c.ranks[length - 1]);
          let skipped = 0;
          c.cells.forEach((cell, k) => {
            if (k === 0) return;
            assert(adjacent(cell, c.cells[k - 1]), c.cells.join());
            const step = c.ranks[k - 1] - c.ranks[k];
            assert(step === 1 || step === 2, c.ranks.join());
            if (step === 2) skipped++;
          });
          assertEquals(skipped, gaps);
        }
        // No path twice.
        assertEquals(new Set(chains.map((c) => c.cells.join())).size, chains.length);
        return true;
      },
    ),
    { numRuns: 500, seed: 7 },
  );
  assert(withGaps > 0, "some chains skip ranks");
});

Deno.test("where the chain branches, the chain whose goal is nearer wins", () => {
  // From a series game (seed 22 of expectimax:5,endgame=10): two 8s beside the 16. Held
  // through the 8 on the right, the goal is far (0.1); through the 8 below it, a slide
  // down makes an 8 beside it at once. Solving only the first chain lost the game.
  const [lo, hi] = words(grid(`
    128 256 128 32
     64  32  16  8
      4   2   8  2
      2   8   4  2`));
  assertEquals(chainsOf(lo, hi, 6).map((c) => c.cells.at(-1)), [7, 10]);
  const answer = new EndgameSolver().solve(lo, hi, 10)!;
  assertEquals([answer.move, answer.probability, answer.chain.cells.at(-1)], [DOWN, 1, 10]);
});

Deno.test("with gaps, a chain that skips a rank is held where no chain without one fits", () => {
  const cells = GAPPED, [lo, hi] = words(cells);
  assertEquals(chainOf(lo, hi)!.cells.length, 4);
  assertEquals(chainsOf(lo, hi, 10), []);
  const [gapped] = chainsOf(lo, hi, 10, 1);
  assertEquals(gapped.ranks.map((r) => 2 ** r), [
    16384,
    8192,
    4096,
    2048,
    512,
    256,
    128,
    64,
    32,
    16,
  ]);
  assertEquals([gapped.tailRank, gapped.goalCells, gapped.region], [4, [6, 1], 6]);
  assertEquals(chainsOf(lo, hi, 10, 2), []);
  assertEquals(new EndgameSolver().solve(lo, hi, 6), undefined);
  const answer = new EndgameSolver().solve(lo, hi, 6, undefined, 1)!;
  assertEquals(answer.chain.cells, gapped.cells);
  assertAlmostEquals(answer.probability, Math.max(...reference(cells, gapped)), 1e-6);
  // Behind an 8192 (the same board a rank lower) the gapped chain is not held.
  const lower = words(cells.map((v) => v > 2 ? v / 2 : v));
  assertEquals(chainsOf(...lower, 10, 1).length, 1);
  assertEquals(new EndgameSolver().solve(...lower, 6, undefined, 1), undefined);
  // Where a chain without a gap fits, gaps change nothing.
  const plain = new EndgameSolver().solve(...tenTiles(16384), 6)!;
  assertEquals(new EndgameSolver().solve(...tenTiles(16384), 6, undefined, 2), plain);
});

Deno.test("through the whole chain's goal: shared with the whole chain's solve, and its own goal over the budget", () => {
  const cells = gapAtTail([0, 0, 2, 4]), [lo, hi] = words(cells);
  const [chain] = chainsOf(lo, hi, 12, 1);
  assertEquals([chain.ranks.at(-2), chain.tailRank], [4, 2]);
  // Its own goal, a 4 beside the 4, is certain; the whole chain's after it is not.
  const plain = new EndgameSolver().solve(lo, hi, 4, undefined, 1)!;
  assertEquals([plain.probability, plain.through], [1, undefined]);
  const solver = new EndgameSolver();
  const through = solver.solve(lo, hi, 4, undefined, 1, true)!;
  assertEquals(through.through, true);
  assertAlmostEquals(through.probability, Math.max(...reference(cells, chain, true)), 1e-6);
  assert(through.probability < 0.6);
  // The whole chain (the 4 merged into the tail in place) reads its positions from it.
  const whole = [...cells];
  whole[chain.cells[11]] = 8;
  whole[12] = 0;
  const stored = solver.stored;
  const fresh = new EndgameSolver().solve(...words(whole), 4)!;
  const shared = solver.solve(...words(whole), 4)!;
  assertAlmostEquals(shared.probability, fresh.probability, 1e-6);
  assert(solver.stored - stored < fresh.positions, "the whole chain's solve was shared");
  // A budget that the plain solve fits and the solve through it does not: its own goal.
  assert(plain.positions < 100 && through.positions > 100);
  assertEquals(new EndgameSolver(100).solve(lo, hi, 4, undefined, 1, true), plain);
  // A tile beside the tail is no goal by itself: the solve plays on where the plain one stops.
  const beside = words(cells.map((v, i) => i === chain.goalCells[0] ? 4 : v));
  assertEquals(new EndgameSolver().solve(...beside, 4, undefined, 1), undefined);
  assertEquals(new EndgameSolver().solve(...beside, 4, undefined, 1, true)?.through, true);
});

Deno.test("collapseSlide merges a goal on the board into the tail in place, tile by tile", () => {
  // From a game (position 74 of the gapped run): the chain missing its 1024, a 256 beside
  // the 256. Left merges the 256s in place; then down the 512s, beside the 2048.
  let cells = grid(`
    16384   0   0  0
     8192   0   4  0
     4096 256 256  2
     2048 512   4  4`);
  // The solver leaves it to the network; the search with ,through=1 plays it.
  assertEquals(new EndgameSolver().solve(...words(cells), 10, undefined, 1, true), undefined);
  const params = { endgame: 10, gaps: 1, through: 1 }, plain = createGame(4, 4, "monotone");
  const searched = fastExpectimax(plain, [...cells, SLIDER_TURN, 0], { depth: 1, params });
  assertEquals(searched.move, LEFT);
  assertEquals(
    searched.notes?.[0],
    "endgame: the chain 16384 8192 4096 2048 512 256 stays; a 256 beside it, merged into it " +
      "in place, with probability 1.000 (the goal on the board)",
  );
  const slides: number[] = [];
  for (let k = 0; k < 4; k++) {
    const answer = collapseSlide(...words(cells), 1);
    if (answer === undefined) break;
    assertEquals([answer.probability, answer.collapse], [1, true]);
    slides.push(answer.move);
    const after = [...cells];
    slideCells(cells, after, 4, 4, answer.move);
    cells = after;
  }
  assertEquals(slides, [LEFT, DOWN]);
  assertEquals(chainOf(...words(cells))!.ranks.map((r) => 2 ** r), [16384, 8192, 4096, 2048, 1024]);
  // A whole chain collapses up to its largest tile, one merge a slide (the last merge, of
  // two 32768s, is any slide's along their row).
  cells = [...snake(32768, START)];
  cells[11] = 256; // beside the 256 at the end of the snake
  const collapse: number[] = [];
  for (let k = 0; k < 9; k++) {
    const answer = collapseSlide(...words(cells), 0);
    if (answer === undefined) break;
    collapse.push(answer.chain.tailRank);
    const after = [...cells];
    slideCells(cells, after, 4, 4, answer.move);
    cells = after;
  }
  assertEquals(collapse, [8, 9, 10, 11, 12, 13, 14]);
  assertEquals(cells.slice(0, 4), [0, 0, 32768, 32768]);
  // Not below a 256 (the region's merges are the solver's), nor behind an 8192.
  const small = snake(16384, START);
  small[11] = 128;
  assertEquals(collapseSlide(...words(small), 0), undefined);
  const pair = (top: number) =>
    [top, top / 2, top / 4, top / 8, 0, top / 32, top / 32, top / 16]
      .concat([0, 0, 0, 0, 0, 0, 0, 2]);
  assertEquals(collapseSlide(...words(pair(8192)), 0), undefined);
  assertEquals(collapseSlide(...words(pair(16384)), 0)?.move, RIGHT);
});

Deno.test("through the whole chain's goal: its two chains' layers make room together", () => {
  const [lo, hi] = words(gapAtTail([0, 0, 2, 4]));
  const alone = new EndgameSolver();
  const answer = alone.solve(lo, hi, 4, undefined, 1, true)!;
  // Another chain's layers first (the chain solved for its own goal), then room for the
  // two chains alone.
  const tight = new EndgameSolver(undefined, alone.slots + 1);
  assert(tight.solve(lo, hi, 4, undefined, 1) !== undefined && tight.stored > 0);
  assertEquals(tight.solve(lo, hi, 4, undefined, 1, true), answer);
  assertEquals([tight.stored, tight.slots], [alone.stored, alone.slots]);
});

Deno.test("the shortest chain whose region fits is held; over the budget, a longer one", () => {
  // From a match: holding all nine tiles (down to the 32) loses; with the 64 and the 32
  // free to move, a 128 comes beside the 128 in 91.6% of the games.
  const [lo, hi] = words(grid(`
    1024 512  0 0
    2048 256  8 0
    4096 128  4 2
    8192  64 32 4`));
  const free = new EndgameSolver().solve(lo, hi, 9)!;
  assertEquals([free.chain.cells.length, free.chain.tailRank], [7, 7]);
  assertAlmostEquals(free.probability, 0.916, 5e-4);
  const held = new EndgameSolver().solve(lo, hi, 7)!;
  assertEquals([held.chain.cells.length, held.probability], [9, 0]);
  // A budget too small for the regions of 9 and 8 cells falls back to the chain of nine.
  const small = new EndgameSolver(1000).solve(lo, hi, 9)!;
  assertEquals([small.chain.cells.length, small.probability], [9, 0]);
});

Deno.test("the table is kept: the next move costs a few nodes, a stopped solve goes on", () => {
  const [lo, hi] = words(snake(8192, START));
  const solver = new EndgameSolver();
  const first = solver.solve(lo, hi, 8)!;
  const full = solver.nodes;
  // After the best slide and any tile the computer places, the answer is in the table.
  const out = new Int32Array(2);
  slideBoard(lo, hi, first.move, out);
  const after = unpackCells(out[0], out[1]);
  const empty = after.flatMap((t, i) => (t === 0 ? [i] : []));
  for (const i of empty) {
    const next = [...after];
    next[i] = 2;
    const before = solver.nodes;
    solver.solve(...words(next), 8);
    assert(solver.nodes - before <= 40, `${solver.nodes - before} nodes`);
  }
  // Stopped after 10,000 polls' worth of nodes, then resumed: the same answer, in fewer
  // nodes than a whole solve.
  const stopped = new EndgameSolver();
  let polls = 0;
  assertThrows(
    () =>
      stopped.solve(lo, hi, 8, () => {
        if (++polls === 100) throw new Error("stop");
      }),
    Error,
    "stop",
  );
  const stoppedNodes = stopped.nodes;
  const resumed = stopped.solve(lo, hi, 8)!;
  assertEquals(resumed.move, first.move);
  assertEquals(resumed.probability, first.probability);
  assert(stopped.nodes - stoppedNodes < full, "the resumed solve used the stored positions");
});

Deno.test("the budget: 2^23 positions up to the default region or behind a small tail, the whole table beyond", () => {
  for (let tail = 1; tail <= 14; tail++) {
    for (let region = 1; region <= ENDGAME_REGION; region++) {
      assertEquals(endgameBudget(region, tail), ENDGAME_BUDGET);
    }
  }
  // A 10-cell region (16384 down to 512 held) took 80 to 99 million positions (FIGURES.md).
  assert(endgameBudget(10, LARGE_TAIL_RANK) >= 100_000_000, String(endgameBudget(10, 7)));
  assertEquals(endgameBudget(10, 9), endgameBudget(10, LARGE_TAIL_RANK));
  assertEquals(endgameBudget(11, 9), endgameBudget(10, 9));
  // Behind a 64 or less, the chains a 10-cell region holds early in a game.
  assertEquals(endgameBudget(10, LARGE_TAIL_RANK - 1), ENDGAME_BUDGET);
});

Deno.test("a chain over the budget is given up, and not tried again until a position without one", () => {
  const [lo, hi] = words(snake(16384, START));
  const solver = new EndgameSolver(1000);
  assertEquals(solver.solve(lo, hi, 8), undefined);
  const nodes = solver.nodes;
  assertEquals(solver.solve(lo, hi, 8), undefined);
  assertEquals(solver.nodes, nodes);
  assertEquals(solver.stored, 0);
  // A position where no chain fits (another game's opening) ends the phase: the chain is
  // tried again when it comes back, and given up again.
  assertEquals(solver.solve(...words([2, 4, ...new Array(14).fill(0)]), 8), undefined);
  assertEquals(solver.nodes, nodes);
  assertEquals(solver.solve(lo, hi, 8), undefined);
  assert(solver.nodes > nodes, "tried again");
  const again = solver.nodes;
  assertEquals(solver.solve(lo, hi, 8), undefined);
  assertEquals(solver.nodes, again);
  // A region larger than asked for, or a goal already on the board, is not taken.
  assertEquals(new EndgameSolver().solve(lo, hi, 7), undefined);
  const done = snake(16384, [2, 2, 2, 128, 0, 0, 2, 2]);
  assertEquals(new EndgameSolver().solve(...words(done), 8), undefined);
});

Deno.test("a solve deeper than the thread's stack is given up as one over the budget", () => {
  // The RangeError of a stack overflow, raised inside the recursion (by its poll here: a
  // solve through from a ten-cell region ran out of V8's default stack, FIGURES.md).
  const [lo, hi] = words(snake(8192, START));
  const solver = new EndgameSolver();
  let polls = 0;
  const overflow = () => {
    if (++polls === 3) throw new RangeError("Maximum call stack size exceeded");
  };
  assertEquals(solver.solve(lo, hi, 8, overflow), undefined);
  assertEquals(polls, 3);
  const nodes = solver.nodes;
  assertEquals(solver.solve(lo, hi, 8), undefined); // given up: not tried again
  assertEquals(solver.nodes, nodes);
  // Another fault is no give-up: it propagates, and the solve goes on next time.
  const stopped = new EndgameSolver();
  assertThrows(() =>
    stopped.solve(lo, hi, 8, () => {
      throw new TypeError("a fault");
    }), TypeError);
  assert(stopped.solve(lo, hi, 8) !== undefined);
});

Deno.test("the layers' slots are bounded: other chains make room, a chain that fills them alone is given up", () => {
  // Ten tiles along a snake from a 16384 (A) or a 32768 (B), the same six-cell region.
  const a = tenTiles(16384), b = tenTiles(32768);
  const both = new EndgameSolver();
  const answerA = both.solve(...a, 6)!;
  const [slotsA, storedA] = [both.slots, both.stored];
  const answerB = both.solve(...b, 6)!;
  const [slotsB, storedB] = [both.slots - slotsA, both.stored - storedA];
  assert(storedA > 0 && storedB > 0 && slotsA >= storedA && slotsB >= storedB);
  // Room for B alone: solving B drops A's layers, and A is solved again from scratch.
  const one = new EndgameSolver(undefined, slotsB + 1);
  assertEquals(one.solve(...a, 6), answerA);
  assertEquals(one.solve(...b, 6), answerB);
  assertEquals([one.stored, one.slots], [storedB, slotsB]);
  const before = one.nodes;
  assertEquals(one.solve(...a, 6), answerA);
  assertEquals(one.stored, storedA);
  assert(one.nodes - before > 1000, `${one.nodes - before} nodes: A was dropped`);
  // Less room than B needs: B is given up (no longer chain to hold), and keeps nothing.
  const none = new EndgameSolver(undefined, slotsB - 1);
  assertEquals(none.solve(...b, 6), undefined);
  assertEquals([none.stored, none.slots], [0, 0]);
});

Deno.test("a chain in any corner and orientation finds the same positions solved", () => {
  const cells = snake(8192, START);
  const solver = new EndgameSolver();
  const first = solver.solve(...words(cells), 8)!;
  const full = solver.nodes;
  // A half turn, a mirror along the diagonal, and a mirror and a turn.
  for (const at of [2, 4, 7].map((i) => SYMMETRIES[i])) {
    const turned = new Array(16).fill(0);
    cells.forEach((t, i) => turned[at(i)] = t);
    const before = solver.nodes;
    const answer = solver.solve(...words(turned), 8)!;
    assert(solver.nodes - before < full / 100, `${solver.nodes - before} of ${full} nodes`);
    // The answer of a solver that never saw the other orientations.
    const fresh = new EndgameSolver().solve(...words(turned), 8)!;
    assertEquals(answer.move, fresh.move);
    assertEquals(answer.chain, fresh.chain);
    assertAlmostEquals(answer.probability, fresh.probability, 1e-6);
    assertAlmostEquals(answer.probability, first.probability, 1e-6);
  }
  assertEquals(solver.stored, new EndgameSolver().solve(...words(cells), 8)!.positions);
});

Deno.test("tables kept over phases: a budget bounds what a phase adds, and kept positions make room", () => {
  // Two positions of one chain (macroxue's snake), each a phase of its own.
  const a = words(snake(8192, START)), b = words(snake(8192, [0, 2, 4, 2, 2, 0, 0, 4]));
  const opening = words([2, 4, ...new Array(14).fill(0)]);
  const both = new EndgameSolver();
  const answerA = both.solve(...a, 8)!, storedA = both.stored, slotsA = both.slots;
  const answerB = both.solve(...b, 8)!, added = both.stored - storedA, slotsAB = both.slots;
  const alone = new EndgameSolver(), answerBAlone = alone.solve(...b, 8)!;
  assert(added > 0 && added < alone.stored, `${added} positions added, ${alone.stored} alone`);
  assertEquals(answerB.move, answerBAlone.move);
  // A budget for either alone but not for both: B is given up within A's phase ...
  const budget = storedA + added - 1;
  const one = new EndgameSolver(budget);
  assertEquals(one.solve(...a, 8), answerA);
  assertEquals(one.solve(...b, 8), undefined);
  // ... and solved in a phase of its own, adding to the positions A left.
  const two = new EndgameSolver(budget);
  assertEquals(two.solve(...a, 8), answerA);
  assertEquals(two.solve(...opening, 8), undefined);
  assertEquals(two.solve(...b, 8)?.move, answerB.move);
  assertEquals(two.stored, storedA + added);
  // Slots for either alone but not for both: A's positions are dropped, B solved afresh.
  const slots = Math.max(slotsA, alone.slots);
  assert(slotsAB > slots, `${slotsAB} slots for both, ${slots} for either`);
  const tight = new EndgameSolver(undefined, slots);
  assertEquals(tight.solve(...a, 8), answerA);
  assertEquals(tight.solve(...opening, 8), undefined);
  assertEquals(tight.solve(...b, 8), answerBAlone);
  assertEquals([tight.stored, tight.slots], [alone.stored, alone.slots]);
});

Deno.test("room: earlier phases' chains first, the last solved first; then this phase's, the least recently solved first", () => {
  const [a, b, c] = [16384, 32768, 8192].map(tenTiles);
  const sizes = [a, b, c].map((board) => {
    const solver = new EndgameSolver();
    solver.solve(...board, 6);
    return solver.slots;
  });
  // Room for two chains at once, not three.
  const room = Math.max(sizes[0] + sizes[1], sizes[0] + sizes[2]);
  assert(room < sizes[0] + sizes[1] + sizes[2]);
  const opening = words([2, 4, ...new Array(14).fill(0)]);
  const cost = (solver: EndgameSolver, board: [number, number]) => {
    const before = solver.nodes;
    solver.solve(...board, 6);
    return solver.nodes - before;
  };
  // In one phase: A, solved again after B, stays; B makes room for C.
  const one = new EndgameSolver(undefined, room);
  for (const board of [a, b, a, c]) one.solve(...board, 6);
  assert(cost(one, a) < 100, "A was kept");
  assert(cost(one, b) > 1000, "B was dropped");
  // A phase each (as a game's chains come): B, solved after A, makes room for C, and A
  // is there when it comes back.
  const phases = new EndgameSolver(undefined, room);
  for (const board of [a, b, c]) {
    phases.solve(...board, 6);
    phases.solve(...opening, 6);
  }
  assert(cost(phases, a) < 100, "A was kept");
  assert(cost(phases, b) > 1000, "B was dropped");
});

Deno.test("the fast expectimax plays the solver's slide and says so; endgame=0 does not", () => {
  const state = [...snake(16384, START), SLIDER_TURN, 0];
  const net = withNetwork(createGame(4, 4, "monotone"), createNetwork(SHAPES["5x4"]));
  const solved = fastExpectimax(net, state, { depth: 3 });
  assertEquals(solved.move, RIGHT);
  // Holding the shortest chain whose region fits (9 cells: the 128 moves with the region).
  assert(solved.notes?.[0].includes("a 256 beside it with probability 0.783"), solved.notes?.[0]);
  // A game's record of the search keeps them (`review` and the page show them).
  assertEquals(searchInfo(net, state, solved).notes, solved.notes);
  const off = fastExpectimax(net, state, { depth: 3, params: { endgame: 0 } });
  assertEquals(off.notes, undefined);
  assertEquals("notes" in searchInfo(net, state, off), false);
  // Without a network the solver is off unless asked for.
  const plain = createGame(4, 4, "monotone");
  assertEquals(fastExpectimax(plain, state, { depth: 3 }).notes, undefined);
  const asked = fastExpectimax(plain, state, { depth: 3, params: { endgame: 8 } });
  assertEquals(asked.move, RIGHT);
  assert(asked.notes !== undefined);
  // ,gaps=1 holds the chain that skips the 1024, and the note lists its tiles.
  const gapped = [...GAPPED, SLIDER_TURN, 0], params = { endgame: 6, gaps: 1 };
  const held = fastExpectimax(plain, gapped, { depth: 3, params });
  const tiles = "16384 8192 4096 2048 512 256 128 64 32 16";
  assert(held.notes?.[0].includes(`the chain ${tiles} stays; a 16 beside it`), held.notes?.[0]);
  assertEquals(
    fastExpectimax(plain, gapped, { depth: 3, params: { endgame: 6 } }).notes,
    undefined,
  );
  // ,through=1 solves a chain whose gap is just before its tail through the whole chain's goal.
  const atTail = [...gapAtTail([0, 0, 2, 4]), SLIDER_TURN, 0];
  const through = { endgame: 4, gaps: 1, through: 1 };
  const whole = fastExpectimax(plain, atTail, { depth: 3, params: through });
  assertEquals(whole.move, RIGHT);
  assert(
    whole.notes?.[0].includes("a 4 merged into it, then an 8 beside it, with probability 0.519"),
    whole.notes?.[0],
  );
});
