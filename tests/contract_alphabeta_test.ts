/**
 * Contracts of the sequential searches, beyond agreeing on root values of full-window
 * searches (`search_test.ts`): alpha-beta's fail-soft windows, the bounds it stores in its
 * table, the table's replacement rule, real pruning (node counts) and every optimal root
 * move found exactly (no tolerance near `WIN`). The reference is plain minimax
 * (`minimaxEngine`), which has no window, table or pruning.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE, type Game, movesOf, WIN } from "../core/game.ts";
import { openGame } from "../mod.ts";
import { alphabetaEngine, alphabetaSearch } from "../core/search/alphabeta.ts";
import { rootIteration } from "../core/search/control.ts";
import { minimaxEngine, minimaxSearch } from "../core/search/minimax.ts";
import { COMPLETE, EXACT, LOWER, TranspositionTable, UPPER } from "../core/search/tt.ts";
import type { ChanceMode } from "../core/search/types.ts";
import { randomPosition } from "./tools/helpers.ts";
import { runTask } from "../testing/task.ts";

type AnyGame = Game<unknown>;

const load = async (id: string, options: Record<string, unknown> = {}): Promise<AnyGame> =>
  (await Effect.runPromise(openGame(id, options))).game as AnyGame;

/** A built-in game, where its positions are drawn from, and how deep to search them. */
interface Case {
  readonly label: string;
  readonly game: AnyGame;
  readonly chance: ChanceMode;
  /** Random plies played from the start (Pentago: near its end). */
  readonly plies: readonly [number, number];
  readonly depths: readonly [number, number];
  readonly runs: number;
}

const game2048 = await load("2048", { width: 3, height: 2, eval: "monotone" });
const cases: readonly Case[] = (
  [
    // label, game, chance nodes, plies played, depths searched, runs
    ["tic-tac-toe", await load("tictactoe"), "min", [0, 6], [1, 6], 100],
    ["Nim 2,3,4", await load("nim", { heaps: [2, 3, 4] }), "min", [0, 5], [1, 7], 100],
    ["Kalah 3x2", await load("kalah", { pits: 3, stones: 2 }), "min", [0, 8], [1, 7], 100],
    ["Domineering 4x4", await load("domineering", { board: "4x4" }), "min", [0, 5], [1, 5], 60],
    ["Pentago near its end", await load("pentago"), "min", [29, 34], [1, 2], 30],
    ["2048 3x2, expectimax", game2048, "expect", [0, 12], [1, 5], 60],
    ["2048 3x2, chance minimizing", game2048, "min", [0, 12], [1, 5], 40],
  ] as const
).map(([label, game, chance, plies, depths, runs]) => ({
  label,
  game,
  chance,
  plies,
  depths,
  runs,
}));

/** The depth-limited minimax value: the reference every alpha-beta result is held to. */
const truth = (c: Case, s: unknown, depth: number, distance: boolean): number =>
  minimaxEngine(c.game, { distance }, c.chance).search(s, depth, 0);

/**
 * Window ends near the true value `t` (where the interesting cases are: just inside, on
 * it, just outside) or far out: an offset in half units, or a fixed value.
 */
const end = fc.oneof(
  fc.integer({ min: -6, max: 6 }).map((k) => (t: number) => t + k / 2),
  fc.constantFrom(-Infinity, Infinity, -WIN, WIN, 0).map((x) => (_t: number) => x),
  fc.double({ min: -100, max: 100, noNaN: true }).map((x) => (_t: number) => x),
);

/** Checks alpha-beta's fail-soft contract for one result `v` of window (alpha, beta). */
const failSoft = (v: number, t: number, alpha: number, beta: number, what: string) => {
  if (v <= alpha) assert(t <= v, `${what}: failed low with ${v}, but the value is ${t}`);
  else if (v >= beta) assert(t >= v, `${what}: failed high with ${v}, but the value is ${t}`);
  else assertEquals(v, t, `${what}: inside the window, the value itself`);
};

for (const c of cases) {
  Deno.test(`${c.label}: alpha-beta is fail-soft in every window, table or not`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: c.plies[0], max: c.plies[1] }),
        fc.integer({ min: c.depths[0], max: c.depths[1] }),
        fc.array(fc.tuple(end, end), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        (seed, plies, depth, windows, distance, ordering) => {
          const s = randomPosition(c.game, seed, plies);
          const t = truth(c, s, depth, distance);
          // One table for every window: what a narrow search stored must serve the next.
          const tt = new TranspositionTable(1);
          const engines = [
            alphabetaEngine(c.game, { distance, ordering, tt }, c.chance),
            alphabetaEngine(c.game, { distance, ordering, tt: false }, c.chance),
          ];
          for (const [lo, hi] of windows) {
            const alpha = Math.min(lo(t), hi(t)), beta = Math.max(lo(t), hi(t));
            if (!(alpha < beta)) continue;
            for (const [i, e] of engines.entries()) {
              const v = e.search(s, depth, alpha, beta, 0);
              failSoft(v, t, alpha, beta, `window (${alpha}, ${beta}), table ${i === 0}`);
            }
          }
          // The table filled by those narrow windows, reused by a full-window search.
          assertEquals(engines[0].search(s, depth, -Infinity, Infinity, 0), t, "full window");
        },
      ),
      { numRuns: c.runs, seed: 20 },
    );
  });
}

Deno.test("null windows around each value answer 'above or below' as minimax says", () => {
  // A series of null-window tests (as MTD(f) runs) over one table finds minimax's value.
  for (const c of cases.slice(0, 4)) {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: c.plies[0], max: c.plies[1] }),
        fc.integer({ min: c.depths[0], max: c.depths[1] }),
        (seed, plies, depth) => {
          const s = randomPosition(c.game, seed, plies);
          const t = truth(c, s, depth, false);
          const e = alphabetaEngine(c.game, { tt: new TranspositionTable(1) }, c.chance);
          for (const guess of [t - 1, t + 1, t, t - 2, t + 2]) {
            const v = e.search(s, depth, guess - 0.5, guess + 0.5, 0);
            assertEquals(v >= guess + 0.5, t > guess, `${c.label}: is ${t} above ${guess}?`);
            assertEquals(v <= guess - 0.5, t < guess, `${c.label}: is ${t} below ${guess}?`);
          }
          assertEquals(e.search(s, depth, -Infinity, Infinity, 0), t);
        },
      ),
      { numRuns: 25, seed: 21 },
    );
  }
});

/** The positions within `depth` plies of `s`, each once, with the plies left there. */
const around = (game: AnyGame, s: unknown, depth: number): Map<number, [unknown, number]> => {
  const seen = new Map<number, [unknown, number]>();
  const walk = (x: unknown, d: number) => {
    const k = game.key!(x);
    if ((seen.get(k)?.[1] ?? -1) >= d) return;
    seen.set(k, [x, d]);
    if (d > 0) { for (const m of movesOf(game, x)) walk(game.play(x, m), d - 1); }
  };
  walk(s, depth);
  return seen;
};

Deno.test("every table entry alpha-beta stores is a true bound of its position", () => {
  // After windowed searches, each entry must hold for minimax at its depth: EXACT equal,
  // LOWER at most the value, UPPER at least; a COMPLETE one also two plies deeper.
  for (const c of cases.slice(0, 4)) {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: c.plies[0], max: c.plies[1] }),
        fc.integer({ min: 2, max: 4 }),
        fc.array(fc.tuple(end, end), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (seed, plies, depth, windows, distance) => {
          const s = randomPosition(c.game, seed, plies);
          const t = truth(c, s, depth, distance);
          const tt = new TranspositionTable(1);
          const e = alphabetaEngine(c.game, { tt, distance }, c.chance);
          for (const [lo, hi] of windows) {
            const alpha = Math.min(lo(t), hi(t)), beta = Math.max(lo(t), hi(t));
            if (alpha < beta) e.search(s, depth, alpha, beta, 0);
          }
          let entries = 0;
          for (const [key, [x]] of around(c.game, s, depth)) {
            if (!tt.probe(key)) continue;
            entries++;
            const { hitValue: v, hitDepth: d, hitFlag: f } = tt;
            // Stored values are in distance-from-their-node form: the node's own search.
            const depths = f & COMPLETE ? [d, d + 2] : [d];
            for (const dd of depths) {
              const r = truth(c, x, dd, distance);
              const kind = f & 3;
              const what = `${c.label}: entry ${["", "EXACT", "LOWER", "UPPER"][kind]} ` +
                `${v} at depth ${d}, minimax ${r} at depth ${dd}`;
              if (kind === EXACT) assertEquals(v, r, what);
              else if (kind === LOWER) assert(r >= v, what);
              else assert(kind === UPPER && r <= v, what);
            }
          }
          assert(entries > 0 || c.game.toMove(s) === CHANCE || movesOf(c.game, s).length === 0);
        },
      ),
      { numRuns: 20, seed: 22 },
    );
  }
});

Deno.test("the root's entry: a fail-low is an upper bound, a fail-high a lower bound", () => {
  const c = cases[2]; // Kalah: both players at the root, extra turns, decisive and plain values
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1e9 }),
      fc.integer({ min: 0, max: 8 }),
      fc.integer({ min: 1, max: 6 }),
      (seed, plies, depth) => {
        const s = randomPosition(c.game, seed, plies);
        if (movesOf(c.game, s).length === 0) return;
        const t = truth(c, s, depth, false);
        const key = c.game.key!(s);
        for (
          const [alpha, beta, kind] of [
            [t + 0.5, t + 1, UPPER], // the value is below the window: fail low
            [t - 1, t - 0.5, LOWER], // above it: fail high
            [t - 0.5, t + 0.5, EXACT],
          ] as const
        ) {
          const tt = new TranspositionTable(1);
          const e = alphabetaEngine(c.game, { tt }, c.chance);
          const v = e.search(s, depth, alpha, beta, 0);
          assert(tt.probe(key), "the root is stored");
          const name = ["", "EXACT", "LOWER", "UPPER"];
          assertEquals(name[tt.hitFlag & 3], name[kind], `window (${alpha}, ${beta}): ${v}`);
          assertEquals([tt.hitValue, tt.hitDepth], [v, depth]);
          assertEquals((tt.hitFlag & COMPLETE) !== 0, e.exact(), "COMPLETE when exact");
        }
      },
    ),
    { numRuns: 60, seed: 23 },
  );
});

Deno.test("the table replaces an entry of equal depth, keeps a deeper one", () => {
  const key = 2 ** 40 + 12345, other = key + 2 ** 32; // another position, the same slot
  for (const tt of [new TranspositionTable(1), TranspositionTable.shared(1)]) {
    const view = new TranspositionTable(0, tt.buffer);
    const entry = () => (view.probe(key) ? [view.hitDepth, view.hitFlag, view.hitValue] : []);
    tt.store(key, 5, UPPER, 10, 1);
    tt.store(key, 5, EXACT, 7, 2); // equal depth: the newer result (here exact) wins
    assertEquals(entry(), [5, EXACT, 7]);
    assertEquals(view.hitMove, 2);
    tt.store(key, 5, LOWER | COMPLETE, 8, 3);
    assertEquals(entry(), [5, LOWER | COMPLETE, 8]);
    tt.store(key, 4, EXACT, 1, 4); // shallower: the deeper entry stays
    assertEquals(entry(), [5, LOWER | COMPLETE, 8]);
    tt.store(key, 6, UPPER, 2, 5); // deeper: replaces
    assertEquals(entry(), [6, UPPER, 2]);
    tt.store(other, 0, EXACT, 3, 6); // another position in the slot: replaces at any depth
    assert(!view.probe(key));
    assert(view.probe(other));
  }
});

/**
 * Node counts from the start positions, measured as minimax / alpha-beta without a table /
 * with one (alpha-beta deepens from depth 1, every iteration counted):
 * - tic-tac-toe, depth 9: 549,946 / 20,436 (3.7%) / 6,310 (1.1%);
 * - Domineering 4x4, depth 6: 37,145 / 1,694 (4.6%) / 1,558 (4.2%);
 * - Kalah 4x3, depth 9: 62,796 / 3,833 (6.1%) / 2,521 (4.0%).
 * The bounds leave about 1.3x room. Alpha-beta that cuts only when alpha > beta (not on
 * equality) visits 24%/3.6%, 25%/14%, 8.5%/5.7%; children not given the narrowed window
 * (no pruning below the root) 235%/12%, 159%/42%, 150%/144%: each fails.
 */
const pruning: readonly [string, Record<string, unknown>, number, number, number][] = [
  ["tictactoe", {}, 9, 0.05, 0.015],
  ["domineering", { board: "4x4" }, 6, 0.06, 0.055],
  ["kalah", { pits: 4, stones: 3 }, 9, 0.08, 0.052],
];

Deno.test("alpha-beta prunes: its node counts stay far below minimax's", async () => {
  const over: string[] = [];
  for (const [id, options, depth, ...shares] of pruning) {
    const game = await load(id, options);
    const s = game.initial();
    const mm = minimaxSearch(game, s, { depth });
    for (const [i, tt] of [false as const, new TranspositionTable(4)].entries()) {
      const ab = alphabetaSearch(game, s, { depth, tt });
      assertEquals(ab.value, mm.value);
      if (ab.nodes > shares[i] * mm.nodes) {
        over.push(
          `${id} depth ${depth}, table ${tt !== false}: ${ab.nodes} nodes, ` +
            `over ${shares[i]} of minimax's ${mm.nodes}`,
        );
      }
    }
  }
  assertEquals(over, [], "alpha-beta lost its pruning");
});

/** The position after moves in notation. */
const after = (game: AnyGame, moves: readonly string[]): unknown =>
  moves.reduce((s, text) => {
    const m = game.parseMove(s, text);
    if (m._tag === "Failure") throw new Error(m.failure);
    return game.play(s, m.success);
  }, game.initial());

/** Every optimal root move by definition: each child's minimax value against the best. */
const optimalMoves = (
  game: AnyGame,
  s: unknown,
  depth: number,
  distance: boolean,
  chance: ChanceMode,
) => {
  const e = minimaxEngine(game, { distance }, chance);
  const moves = game.moves(s);
  const values = moves.map((m) => e.search(game.play(s, m), depth - 1, 1));
  const best = game.toMove(s) === 0 ? Math.max(...values) : Math.min(...values);
  return moves.filter((_, i) => values[i] === best);
};

Deno.test("allBest: a win one ply slower is not optimal (no tolerance near WIN)", async () => {
  // X: a3 c3 b2, O: b3 a2 c2. X wins at once with a1 or c1; b1 wins too, but later.
  const game = await load("tictactoe");
  const s = after(game, ["a3", "b3", "c3", "a2", "b2", "c2"]);
  const names = (ms: readonly number[] | undefined) => ms?.map((m) => game.formatMove(s, m));
  const expected = optimalMoves(game, s, 9, true, "min");
  assertEquals(names(expected), ["a1", "c1"]);
  assertEquals(
    names(minimaxSearch(game, s, { depth: 9, distance: true, allBest: true }).bestMoves),
    [
      "a1",
      "c1",
    ],
  );
  for (const tt of [false as const, new TranspositionTable(1)]) {
    for (const ordering of [true, false]) {
      const r = alphabetaSearch(game, s, { depth: 9, distance: true, allBest: true, tt, ordering });
      assertEquals(names(r.bestMoves), ["a1", "c1"], `table ${tt !== false}, ordering ${ordering}`);
      assertEquals(r.value, WIN - 1);
    }
  }
});

Deno.test("allBest = every move whose minimax value is the root's, first one played", () => {
  for (const c of [...cases.slice(0, 3), cases[5]]) {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: c.plies[0], max: c.plies[1] }),
        fc.integer({ min: 1, max: c.depths[1] }),
        fc.boolean(),
        (seed, plies, depth, distance) => {
          const s = randomPosition(c.game, seed, plies);
          if (c.game.toMove(s) === CHANCE || c.game.moves(s).length === 0) return;
          const expected = optimalMoves(c.game, s, depth, distance, c.chance);
          const options = { depth, distance, allBest: true };
          const mm = minimaxSearch(c.game, s, options, c.chance);
          assertEquals(mm.bestMoves, expected, `${c.label}: minimax`);
          for (const tt of [false as const, new TranspositionTable(1)]) {
            const ab = alphabetaSearch(c.game, s, { ...options, tt }, c.chance);
            assertEquals(ab.bestMoves, expected, `${c.label}: alpha-beta, table ${tt !== false}`);
            assertEquals(ab.value, mm.value);
            assertEquals(ab.move, expected[0], "ties keep the first best move");
            // One iteration alone, the root moves in the game's order (no earlier best to
            // try first): later moves that beat the best so far are searched again.
            const engine = alphabetaEngine(c.game, { distance, tt }, c.chance);
            const it = rootIteration(c.game, s, engine, true)(depth);
            assertEquals([it.bestMoves, it.value], [expected, mm.value], "one iteration");
          }
        },
      ),
      { numRuns: 30, seed: 24 },
    );
  }
});

Deno.test("deno task analyze --all lists only the fastest wins", async () => {
  const r = await runTask("analyze", [
    "tictactoe",
    "--moves",
    "a3,b3,c3,a2,b2,c2",
    "--depth",
    "9",
    "--all",
  ]);
  assertEquals(r.code, 0, r.stderr);
  assert(/optimal moves: a1 c1\n/.test(r.stdout), r.stdout);
});

Deno.test("exact: a search whose every leaf at the depth limit is a finished game is exact", async () => {
  const game = await load("tictactoe");
  // From the start, depth 9 reaches every end of tic-tac-toe: nothing is cut off.
  const full = alphabetaSearch(game, game.initial(), { depth: 9 });
  assertEquals(full.exact, true);
  assertEquals(full.depth, 9, "iterative deepening stops at the depth that reached the end");
  // One ply less leaves positions unfinished at the limit.
  assertEquals(alphabetaSearch(game, game.initial(), { depth: 8 }).exact, false);
  // A random position searched to the board's end (9 plies in all) is exact.
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 0, max: 6 }),
      (seed, plies) => {
        const s = randomPosition(game, seed, plies);
        if (game.outcome(s) !== undefined) return;
        const left = 9 - plies;
        const r = alphabetaSearch(game, s, { depth: left, tt: false });
        assertEquals(r.exact, true, `${plies} plies played, depth ${left}`);
      },
    ),
    { numRuns: 40 },
  );
});
