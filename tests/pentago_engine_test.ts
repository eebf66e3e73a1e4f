/**
 * The Pentago engine (`plugins/pentago/engine.ts`, the `pentago` strategy): exact at its
 * depth (alpha-beta's and minimax's value), its incremental window counts and boards
 * equal to a recount and to the rules' `play`, symmetric positions sharing one table
 * entry, wins found and threats met, the threat search sound, and the strategy contract
 * (exact only at the end, interruptible, progress per iteration).
 */
import { assert, assertEquals, assertThrows, fc } from "../testing/deps.ts";
import { Result } from "../core/deps.ts";
import { WIN } from "../core/game.ts";
import { parseSpec } from "../app/players/spec.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import type { SearchResult } from "../core/search/types.ts";
import { CELL_BIT, POPCOUNT } from "../plugins/pentago/board.ts";
import { linesValue } from "../plugins/pentago/eval.ts";
import {
  MIN_DEPTH,
  pentagoEngine,
  pentagoSearch,
  pentagoStrategy,
} from "../plugins/pentago/engine.ts";
import pentago, { pentagoGame } from "../plugins/pentago/mod.ts";
import {
  BLACK_WON,
  DRAW,
  makeState,
  NO_TWIST,
  ONGOING,
  type PentagoState,
  WHITE_WON,
  winningCells,
} from "../plugins/pentago/rules.ts";
import { SYM_MOVE, SYMMETRIES, transform } from "../plugins/pentago/symmetry.ts";
import { flagsOf, recount, WORDS } from "../plugins/pentago/windows.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";

const game = pentagoGame();
const table = new TranspositionTable(4);

/** The state after a random number of random moves in [min, max] (it may have ended). */
const randomPosition = (seed: number, min: number, max: number): PentagoState => {
  const rng = makeRng(seed);
  let s = game.initial();
  const plies = min + rng.int(max - min + 1);
  for (let i = 0; i < plies; i++) {
    const ms = game.moves(s);
    if (ms.length === 0) break;
    s = game.play(s, ms[rng.int(ms.length)]);
  }
  return s;
};

/** The state after moves in notation. */
const after = (moves: string): PentagoState => {
  let s = game.initial();
  for (const text of moves.split(",").map((t) => t.trim())) {
    const r = game.parseMove(s, text);
    if (Result.isFailure(r)) throw new Error(`'${text}': ${r.failure}`);
    s = game.play(s, r.success);
  }
  return s;
};

/** The engine's search at a fixed depth with an emptied table. */
const engineAt = (
  s: PentagoState,
  depth: number,
  distance = true,
  threats = true,
): SearchResult => {
  table.clear();
  return pentagoSearch(game, s, { depth, distance, tt: table }, { threats });
};

/** A value from the view of the player to move in s. */
const moverView = (s: PentagoState, v: number) => (s.turn === 0 ? v : -v);

/** The position seen after symmetry g (colours and mover unchanged). */
const mirrored = (s: PentagoState, g: number): PentagoState => {
  const w = transform(g, s.white0, s.white1), b = transform(g, s.black0, s.black1);
  const hi = (x: number) => Math.floor(x / 262144), lo = (x: number) => x % 262144;
  return makeState(hi(w), lo(w), hi(b), lo(b), s.turn, s.result);
};

Deno.test("pentago engine: at a fixed depth its value is alpha-beta's and minimax's (threat search off)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 0, max: 3 }),
      fc.boolean(),
      (seed, depth, distance) => {
        const s = randomPosition(seed, 18, 30);
        const mine = engineAt(s, depth, distance, false);
        const ab = alphabetaSearch(game, s, { depth, distance, tt: false });
        assertEquals(mine.value, ab.value, `seed ${seed} depth ${depth} distance ${distance}`);
        if (depth <= 2) assertEquals(mine.value, minimaxSearch(game, s, { depth, distance }).value);
        if (depth > 0 && game.moves(s).length > 0) {
          // The chosen move is worth the value (alpha-beta from the child, one ply less).
          const child = alphabetaSearch(game, game.play(s, mine.move!), {
            depth: depth - 1,
            distance,
            tt: false,
          });
          const shift = (v: number) => distance && Math.abs(v) >= WIN / 2 ? v - Math.sign(v) : v;
          assertEquals(shift(child.value), mine.value, `seed ${seed}: the move keeps the value`);
        }
      },
    ),
    { numRuns: 50, seed: 19 },
  );
  // Every optimal root move (`allBest`), as alpha-beta lists them.
  for (const seed of [1, 2, 3, 4]) {
    const s = randomPosition(seed, 20, 28);
    for (const depth of [1, 2]) {
      const a = alphabetaSearch(game, s, { depth, distance: true, allBest: true });
      table.clear();
      const b = pentagoSearch(game, s, { depth, distance: true, allBest: true, tt: table }, {
        threats: false,
      });
      assertEquals([b.value, b.bestMoves], [a.value, a.bestMoves], `seed ${seed} depth ${depth}`);
    }
  }
  // From the start (no marble yet) as well.
  for (const depth of [1, 2]) {
    assertEquals(
      engineAt(game.initial(), depth, true, false).value,
      alphabetaSearch(game, game.initial(), { depth, distance: true }).value,
    );
  }
});

Deno.test("pentago engine: kept window counts and boards equal a recount and the rules' play (make/unmake)", () => {
  const e = pentagoEngine({ tt: false });
  const b = e.boards;
  /** The mover-relative halves of a state. */
  const halvesOf = (s: PentagoState) =>
    s.turn === 0
      ? [s.white0, s.white1, s.black0, s.black1]
      : [s.black0, s.black1, s.white0, s.white1];
  const fresh = (h: number[]) => {
    const v = new Int32Array(2 * WORDS);
    recount(h[0], h[1], v, 0);
    recount(h[2], h[3], v, WORDS);
    return Array.from(v);
  };
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      const rng = makeRng(seed);
      const start = randomPosition(seed, 0, 12);
      if (start.result !== ONGOING) return;
      b.load(start, 0);
      const root = { halves: b.halves(0), counts: b.counts(0) };
      assertEquals(root.halves, halvesOf(start));
      assertEquals(root.counts, fresh(root.halves));
      let s = start, p = 0;
      while (s.result === ONGOING) {
        const ms = game.moves(s).filter((m) => m < NO_TWIST);
        if (ms.length === 0) break;
        const m = ms[rng.int(ms.length)];
        b.make(p, m);
        p++;
        s = game.play(s, m);
        const h = b.halves(p);
        assertEquals(h, halvesOf(s), `seed ${seed} ply ${p}: boards`);
        assertEquals(b.counts(p), fresh(h), `seed ${seed} ply ${p}: counts`);
        assertEquals(b.empties(p), POPCOUNT[s.free0] + POPCOUNT[s.free1]);
        // The sum's facts are the rules': fives after the twist, winning placements, value.
        const f = flagsOf(b.sum(p));
        const mover = s.turn === 0 ? WHITE_WON : BLACK_WON;
        const [mine, theirs] = [f.moverFives > 0, f.oppFives > 0];
        const full = b.empties(p) === 0;
        assertEquals(
          mine && theirs ? DRAW : mine ? mover : theirs ? 1 - mover : full ? DRAW : ONGOING,
          s.result,
          `seed ${seed} ply ${p}: result`,
        );
        if (s.result !== ONGOING) break;
        assertEquals(f.moverFours > 0, winningCells(s) !== 0, `seed ${seed} ply ${p}: fours`);
        if (f.moverFours === 0) assertEquals(f.value, moverView(s, linesValue(s)));
      }
      // Unmake: the root's slot is as it was, and another move from it is made afresh.
      assertEquals(b.halves(0), root.halves);
      assertEquals(b.counts(0), root.counts);
      const other = game.moves(start).filter((m) => m < NO_TWIST);
      const m = other[rng.int(other.length)];
      b.make(0, m);
      assertEquals(b.halves(1), halvesOf(game.play(start, m)));
      assertEquals(b.counts(1), fresh(b.halves(1)));
    }),
    { numRuns: 60, seed: 7 },
  );
});

Deno.test("pentago engine: symmetric positions hit the same table entry", () => {
  // An asymmetric midgame position, white to move.
  const s = after("e5 ne ccw, b2 se cw, e2 sw ccw, b5 se cw, d5 ne ccw, e3 ne cw");
  const tt = new TranspositionTable(16);
  const first = pentagoEngine({ tt });
  const v = first.search(s, 2, -Infinity, Infinity, 0);
  const best = first.pv(s, 2)[0];
  assert(first.stats.ttHits < first.stats.ttProbes, "the first search fills the table");
  for (let g = 1; g < SYMMETRIES; g++) {
    const t = mirrored(s, g);
    assert(t.white0 !== s.white0 || t.white1 !== s.white1, `symmetry ${g} moves the marbles`);
    const e = pentagoEngine({ tt });
    // Every position of this search is a symmetric image of one searched before.
    assertEquals(e.search(t, 2, -Infinity, Infinity, 0), v, `symmetry ${g}: the value`);
    assert(e.stats.ttProbes > 1);
    assertEquals(e.stats.ttHits, e.stats.ttProbes, `symmetry ${g}: every probe hits`);
    assertEquals(e.pv(t, 2)[0], SYM_MOVE[g * 324 + best], `symmetry ${g}: the move`);
  }
  // Deeper: the mirrored root's children are answered by the table, and its line goes on
  // with the stored best moves, turned back with the board.
  const deep = pentagoEngine({ tt });
  deep.search(s, 3, -Infinity, Infinity, 0);
  const line = deep.pv(s, 3);
  assertEquals(line.length, 3);
  for (let g = 1; g < SYMMETRIES; g++) {
    const t = mirrored(s, g), e = pentagoEngine({ tt });
    e.search(t, 3, -Infinity, Infinity, 0);
    assertEquals(e.pv(t, 3), line.map((m) => SYM_MOVE[g * 324 + m]), `symmetry ${g}: the line`);
  }
});

Deno.test("pentago engine: wins in one (placement or twist) and in two", () => {
  // A placement that makes five: e6, without a twist.
  const five = after(
    "a6 se cw, a3 se cw, b6 se ccw, b3 se ccw, c6 se cw, a2 se cw, d6 se ccw, b2 se ccw",
  );
  assertEquals(winningCells(five), CELL_BIT[4], "e6 makes five");
  for (const depth of [1, 3]) {
    const r = engineAt(five, depth);
    assertEquals(game.play(five, r.move!).result, WHITE_WON);
    assertEquals(r.value, WIN - 1);
  }
  // A five that only a twist makes (found by computation: no winning placement).
  let twist: PentagoState | undefined;
  for (let seed = 1; twist === undefined && seed < 3000; seed++) {
    const s = randomPosition(seed, 12, 28);
    if (s.result !== ONGOING || winningCells(s) !== 0) continue;
    const mover = s.turn === 0 ? WHITE_WON : BLACK_WON;
    if (game.moves(s).some((m) => game.play(s, m).result === mover)) twist = s;
  }
  assert(twist !== undefined, "a position with a winning twist");
  const rt = engineAt(twist, 2);
  assertEquals(game.play(twist, rt.move!).result, twist.turn === 0 ? WHITE_WON : BLACK_WON);
  assertEquals(moverView(twist, rt.value), WIN - 1);
  // Wins in two of the mover's moves (three plies) that depth 1 does not see, found by
  // alpha-beta at depth 3: the engine finds the same value and a move that keeps it.
  let wins = 0;
  for (let seed = 1; wins < 3 && seed < 200; seed++) {
    const s = randomPosition(seed, 10, 23);
    if (s.result !== ONGOING) continue;
    if (Math.abs(alphabetaSearch(game, s, { depth: 1, distance: true }).value) > WIN / 2) continue;
    const ab = alphabetaSearch(game, s, { depth: 3, distance: true });
    if (moverView(s, ab.value) !== WIN - 3) continue;
    wins++;
    const r = engineAt(s, 3);
    assertEquals(r.value, ab.value, `seed ${seed}`);
    const child = alphabetaSearch(game, game.play(s, r.move!), { depth: 2, distance: true });
    assertEquals(moverView(s, child.value), WIN - 2, `seed ${seed}: the move keeps the win`);
  }
  assertEquals(wins, 3, "three wins in two found");
});

Deno.test("pentago engine: blocks black's five on row 1, and leaves black no win at once", () => {
  const s = after("a6 ne cw,a1 ne cw,c6 ne cw,b1 ne cw,b4 ne cw,c1 ne cw,c4 ne cw,d1 ne cw");
  assertEquals(s.turn, 0);
  // Black threatens: with black to move here, a placement would make five.
  assert(winningCells({ ...s, turn: 1 }) !== 0, "black has an open four");
  for (const depth of [1, 2, 3]) {
    for (const threats of [false, true]) {
      const r = engineAt(s, depth, true, threats);
      const next = game.play(s, r.move!);
      assertEquals(next.result, ONGOING);
      // Depth 1 sees placements that make five; depth 2 every reply, twists included.
      assertEquals(winningCells(next), 0, `depth ${depth}: black has a winning placement`);
      if (depth === 1) continue;
      for (const m of game.moves(next)) {
        assert(game.play(next, m).result !== BLACK_WON, `depth ${depth}: black wins by ${m}`);
      }
      assert(r.value > -WIN / 2, `depth ${depth}: white is not lost`);
    }
  }
});

Deno.test("pentago engine: the threat search's decisive values are alpha-beta's at depth 2", () => {
  // Leaves where the opponent of the mover has two open fours or more.
  let decisive = 0, examined = 0;
  for (let seed = 1; examined < 40 && seed < 4000; seed++) {
    const s = randomPosition(seed, 14, 30);
    if (s.result !== ONGOING || winningCells(s) !== 0) continue;
    const e = pentagoEngine({ distance: true, tt: false });
    const v0 = e.search(s, 0, -Infinity, Infinity, 0);
    if (e.stats.threatScans === 0) continue;
    examined++;
    if (Math.abs(v0) < WIN / 2) continue;
    decisive++;
    assertEquals(v0, alphabetaSearch(game, s, { depth: 2, distance: true }).value, `seed ${seed}`);
  }
  assertEquals(examined, 40, "enough leaves facing two open fours");
  assert(decisive >= 3, `the threat search decided ${decisive} of them`);
});

Deno.test("pentago strategy: exact only at the end, interruptible, progress per iteration", () => {
  // Three empty cells: depth 3 reaches every end of the game.
  let s: PentagoState | undefined;
  for (let seed = 1; s === undefined; seed++) {
    const t = randomPosition(seed, 33, 33);
    if (t.result === ONGOING && game.moves(t).length === 8 * 3) s = t;
  }
  const exact = minimaxSearch(game, s, { depth: 36, distance: true });
  const depths: number[] = [];
  const r = pentagoStrategy.search(game, s, {
    depth: 30,
    distance: true,
    tt: table,
    onIteration: (x) => depths.push(x.depth),
  });
  assert(r.exact);
  assertEquals(r.value, exact.value);
  assertEquals(depths, [1, 2, 3].slice(0, r.depth), "one report per depth, then the end");
  assert(r.depth <= 3);
  const short = pentagoStrategy.search(game, s, { depth: 1, distance: true, tt: table });
  assert(!short.exact, "depth 1 does not reach the end");
  // Interrupted: the flag is polled, the last complete iteration stands, a legal move.
  const mid = randomPosition(3, 10, 10);
  let polls = 0;
  const stopped = pentagoStrategy.search(game, mid, {
    depth: 30,
    tt: table,
    shouldStop: () => ++polls > 20,
  });
  assert(polls > 20, "the flag was polled");
  assert(stopped.depth < 30 && !stopped.exact);
  assert(game.moves(mid).includes(stopped.move!));
  // A time budget still completes the minimum depth (polls at zero time left).
  const timed = pentagoStrategy.search(game, mid, { timeMs: 0, tt: table });
  assertEquals(timed.depth, MIN_DEPTH);
  // Only Pentago; a spec with its parameters parses.
  const ttt = tictactoe.create({});
  assertThrows(() => pentagoStrategy.search(ttt, ttt.initial(), { depth: 1 }), TypeError);
  const spec = parseSpec("pentago:1s,threats=0", { ...allStrategies, ...pentago.strategies });
  assert(Result.isSuccess(spec));
});
