/**
 * The fast searches agree with the tree compositions and with each other, count nodes
 * as the trees do, honour budgets, and prefer quick wins when asked.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { randomPosition } from "./tools/helpers.ts";
import { CHANCE, type Game, WIN } from "../core/game.ts";
import {
  alphabeta,
  evaluate,
  expectimax,
  gameTree,
  minimax,
  size,
  takeTree,
} from "../core/tree.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { nimGame } from "../plugins/nim/mod.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { raceGame } from "./fixtures/race.ts";

const games = {
  tictactoe: ticTacToeGame(),
  nim: nimGame({ heaps: [2, 3, 4], misere: false }),
  misere: nimGame({ heaps: [1, 2, 3], misere: true }),
  race: raceGame(5),
} as const;

for (const [name, game] of Object.entries(games) as [string, Game<readonly number[]>][]) {
  Deno.test(`${name}: fast minimax = tree minimax, with the tree's node count`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 4 }),
        (seed, plies, depth) => {
          const s = randomPosition(game, seed, plies);
          const cut = takeTree(depth, gameTree(game, s));
          const fast = minimaxSearch(game, s, { depth });
          assertEquals(fast.value, minimax(evaluate(game, cut)).value);
          assertEquals(fast.nodes, size(cut));
        },
      ),
      { numRuns: 40 },
    );
  });

  Deno.test(`${name}: alpha-beta = minimax = tree alpha-beta, table or not`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        (seed, plies, depth, ordering) => {
          const s = randomPosition(game, seed, plies);
          const mm = minimaxSearch(game, s, { depth });
          const tree = alphabeta(evaluate(game, takeTree(depth, gameTree(game, s)))).value;
          for (const tt of [false as const, new TranspositionTable(1)]) {
            const ab = alphabetaSearch(game, s, { depth, tt, ordering });
            assertEquals(ab.value, mm.value, `alpha-beta (table ${tt !== false}) vs minimax`);
            // With quick wins preferred, the two still agree (decisive values shift alike).
            const tt2 = tt === false ? tt : new TranspositionTable(1); // one table, one setting
            const abd = alphabetaSearch(game, s, { depth, tt: tt2, ordering, distance: true });
            assertEquals(abd.value, minimaxSearch(game, s, { depth, distance: true }).value);
            if (game.toMove(s) !== CHANCE && game.moves(s).length > 0) {
              // The chosen move is optimal: its value equals the root value.
              const child = minimaxSearch(game, game.play(s, ab.move!), { depth: depth - 1 });
              assertEquals(child.value, mm.value);
            }
          }
          assertEquals(tree, mm.value);
        },
      ),
      { numRuns: 40 },
    );
  });
}

Deno.test("fast expectimax = seed 001's tree expectimax on the chance game", () => {
  const game = games.race;
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1e9 }),
      fc.integer({ min: 0, max: 5 }),
      fc.integer({ min: 1, max: 6 }),
      (seed, plies, depth) => {
        const s = randomPosition(game, seed, plies);
        const tree = expectimax(evaluate(game, takeTree(depth, gameTree(game, s)))).value;
        const fast = alphabetaSearch(game, s, { depth, tt: new TranspositionTable(1) }, "expect");
        const plain = minimaxSearch(game, s, { depth }, "expect");
        assert(Math.abs(fast.value - tree) < 1e-6 * Math.max(1, Math.abs(tree)));
        assert(Math.abs(plain.value - tree) < 1e-6 * Math.max(1, Math.abs(tree)));
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("tic-tac-toe is a draw under perfect play, by every search", () => {
  const g = games.tictactoe;
  assertEquals(minimaxSearch(g, g.initial(), { depth: 9 }).value, 0);
  const ab = alphabetaSearch(g, g.initial(), { depth: 9, tt: new TranspositionTable(4) });
  assertEquals(ab.value, 0);
  assertEquals(ab.pv.length, 9, "the principal variation plays the game out");
});

Deno.test("Nim: fast searches follow the xor rule", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 4 }),
      (heaps) => {
        const g = nimGame({ heaps, misere: false });
        const r = alphabetaSearch(g, g.initial(), { depth: 30, tt: new TranspositionTable(4) });
        const x = heaps.reduce((a, b) => a ^ b, 0);
        if (heaps.every((h) => h === 0)) return;
        assertEquals(r.value === WIN, x !== 0);
        assert(r.exact, "a search to the end is exact");
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("distance: a quick win is preferred, a loss is delayed", () => {
  const g = games.tictactoe;
  // X: a1 b1 . / O: a2 b2 . -> X to move wins at once with c1.
  let s = g.initial();
  for (const m of [6, 3, 7, 4]) s = g.play(s, m);
  const r = alphabetaSearch(g, s, { depth: 9, distance: true });
  assertEquals(g.formatMove(s, r.move!), "c1");
  assertEquals(r.value, WIN - 1);
  const m = minimaxSearch(g, s, { depth: 9, distance: true });
  assertEquals(m.value, WIN - 1);
});

Deno.test("allBest lists every optimal root move, as minimax does", () => {
  const g = games.nim;
  const s = g.initial();
  const ab = alphabetaSearch(g, s, { depth: 12, allBest: true });
  const mm = minimaxSearch(g, s, { depth: 12, allBest: true });
  assertEquals(ab.bestMoves, mm.bestMoves);
  assert(ab.bestMoves!.length >= 1);
});

Deno.test("a time budget stops the search with a legal move", () => {
  const g = nimGame({ heaps: [7, 8, 9, 10], misere: false });
  const t0 = performance.now();
  const r = alphabetaSearch(g, g.initial(), { timeMs: 50, tt: false, ordering: false });
  assert(performance.now() - t0 < 2000);
  assert(g.moves(g.initial()).includes(r.move!));
  assert(r.depth >= 1);
});

Deno.test("shouldStop interrupts a search, keeping the last complete iteration", () => {
  const g = nimGame({ heaps: [7, 8, 9, 10], misere: false });
  let polls = 0;
  const r = minimaxSearch(g, g.initial(), {
    depth: 40,
    timeMs: 60_000,
    shouldStop: () => ++polls > 3,
  });
  assert(r.depth < 40 && g.moves(g.initial()).includes(r.move!));
});

Deno.test("transposition table: store, probe, depth rule, clear, sharing, torn entries", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          key: fc.integer({ min: 0, max: 2 ** 53 - 1 }),
          depth: fc.integer({ min: 0, max: 30000 }),
          flag: fc.integer({ min: 1, max: 7 }),
          value: fc.double({ noNaN: true }),
          move: fc.integer({ min: -1, max: 1000 }),
        }),
        { minLength: 1, maxLength: 50 },
      ),
      (entries) => {
        const tt = TranspositionTable.shared(1);
        const view = new TranspositionTable(0, tt.buffer);
        assertEquals(view.size, tt.size);
        // A model: the last stored entry per slot, unless a deeper one of the same key stays.
        const model = new Map<number, (typeof entries)[number]>();
        for (const e of entries) {
          const slot = (e.key % 4294967296) & (tt.size - 1);
          const old = model.get(slot);
          if (!(old !== undefined && old.key === e.key && old.depth > e.depth)) model.set(slot, e);
          tt.store(e.key, e.depth, e.flag, e.value, e.move);
        }
        for (const e of model.values()) {
          for (const t of [tt, view]) {
            assert(t.probe(e.key));
            assertEquals([t.hitDepth, t.hitFlag, t.hitValue, t.hitMove], [
              e.depth,
              e.flag,
              e.value,
              e.move,
            ]);
          }
        }
        tt.clear();
        for (const e of entries) assert(!view.probe(e.key), "cleared for every view");
        assertEquals(tt.fill(), 0);
        // An entry stored after a clear is found; a torn one (a field changed) is a miss.
        const e = entries[0];
        view.store(e.key, e.depth, e.flag, e.value, e.move);
        assert(tt.probe(e.key));
        const slot = (e.key % 4294967296) & (tt.size - 1);
        const words = new Int32Array(tt.buffer);
        words[8 * slot + 5] ^= 1 << 20; // the move, as a concurrent writer half-done
        assert(!tt.probe(e.key), "a torn entry reads as a miss");
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("busy marks (ABDADA's deferral) change the order of search, never the value", () => {
  const games: [string, Game<readonly number[]>][] = [
    ["tic-tac-toe", ticTacToeGame() as Game<readonly number[]>],
    ["nim", nimGame({ heaps: [3, 4, 5], misere: false }) as Game<readonly number[]>],
  ];
  for (const [name, game] of games) {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 3, max: 6 }),
        (seed, plies, depth) => {
          const s = randomPosition(game, seed, plies);
          if (game.moves(s).length < 2) return;
          // Another worker seems busy on every grandchild and on all children but one: the
          // search must defer them and still search them all.
          const busy = new Int32Array(1 << 12);
          const mark = (x: readonly number[]) => {
            const k = game.key!(x);
            busy[Math.floor(k / 4294967296) & (busy.length - 1)] = (k % 4294967296) | 1;
          };
          for (const m of game.moves(s).slice(1)) {
            const c = game.play(s, m);
            mark(c);
            for (const m2 of game.moves(c)) mark(game.play(c, m2));
          }
          const plain = alphabetaSearch(game, s, { depth, tt: new TranspositionTable(1) });
          const deferred = alphabetaSearch(game, s, {
            depth,
            tt: new TranspositionTable(1),
            busy,
          });
          assertEquals(deferred.value, plain.value, `${name}: seed ${seed}, depth ${depth}`);
          assertEquals(deferred.value, minimaxSearch(game, s, { depth }).value);
        },
      ),
      { numRuns: 60 },
    );
  }
});
