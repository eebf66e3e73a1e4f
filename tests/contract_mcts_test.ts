/**
 * Contracts of Monte Carlo tree search (`core/search/mcts.ts`), each checked against an
 * independent reference (plain minimax over outcomes, Nim's nim-sum) or a symmetry:
 * the colours mirror exactly, proven wins are taken and proven losses avoided, decisive
 * margins and distances are ordered, a proven loss never outranks a live move by its
 * visits, and the iteration budget is `iterations` (never `depth`) from a spec to a
 * worker.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { Effect, Layer, Result } from "../core/deps.ts";
import { CHANCE, type Game, type Outcome, type Player, WIN } from "../core/game.ts";
import { inProcessEngine, liveEngine, search } from "../core/engine/engine.ts";
import { runGame } from "../app/match.ts";
import { workerPoolLayer } from "../core/parallel/pool.ts";
import { agentFromSpec, randomAgent } from "../app/players/agents.ts";
import { formatSpec, parseSpec } from "../app/players/spec.ts";
import { makeRng } from "../core/rng.ts";
import { mctsSearch } from "../core/search/mcts.ts";
import { builtinStrategies, mctsStrategy } from "../core/search/strategies.ts";
import type { SearchResult } from "../core/search/types.ts";
import { scriptedTerminal } from "../app/terminal.ts";
import { openGame } from "../mod.ts";
import { kalahGame } from "../plugins/kalah/game.ts";
import { nimGame } from "../plugins/nim/mod.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { exactMargin, randomPosition } from "./tools/helpers.ts";
import { runScript } from "../testing/run.ts";

type State = readonly number[];

const ttt = ticTacToeGame() as unknown as Game<State>;
const kalah = kalahGame({ pits: 3, stones: 2, capture: "nonempty", eval: "util" });
const nim = nimGame({ heaps: [2, 3, 4], misere: false });

// ---------------------------------------------------------------------------------------
// References: plain minimax over outcomes (memoized), and "at once" tests.

/** The mover's view of a player-0 value. */
const forMover = (p: Player, v: number) => (p === 0 ? v : -v);

/** True when move `m` ends the game at once with the mover's win. */
const winsAtOnce = <S>(game: Game<S>, s: S, m: number): boolean => {
  const t = game.play(s, m);
  return game.moves(t).length === 0 && game.outcome(t)?.winner === game.toMove(s);
};

/** True when after `m` the opponent is to move and can win at once. */
const losesAtOnce = <S>(game: Game<S>, s: S, m: number): boolean => {
  const t = game.play(s, m);
  const mover = game.toMove(s);
  return game.toMove(t) !== mover && game.moves(t).some((r) => winsAtOnce(game, t, r));
};

/** Every reachable position where the game goes on (chance-free games), in a fixed order. */
const reachable = <S>(game: Game<S>): S[] => {
  const seen = new Set<string>();
  const out: S[] = [];
  const walk = (s: S) => {
    const k = JSON.stringify(s);
    if (seen.has(k)) return;
    seen.add(k);
    const ms = game.moves(s);
    if (ms.length === 0) return;
    out.push(s);
    for (const m of ms) walk(game.play(s, m));
  };
  walk(game.initial());
  return out;
};

/** Every `step`-th element, from a seeded offset: a fixed, spread sample. */
const sample = <T>(xs: readonly T[], n: number): T[] => {
  const step = Math.max(1, Math.floor(xs.length / n));
  return xs.filter((_, i) => i % step === 0).slice(0, n);
};

// ---------------------------------------------------------------------------------------
// Colour symmetry.

/**
 * The same game with the players' roles swapped: player 0 moves where player 1 did,
 * values are negated and outcomes mirrored. Moves and states are unchanged.
 */
const mirrored = <S>(g: Game<S>): Game<S> => ({
  id: `${g.id}-mirrored`,
  players: [g.players[1], g.players[0]],
  initial: () => g.initial(),
  toMove: (s) => {
    const t = g.toMove(s);
    return t === CHANCE ? t : t === 0 ? 1 : 0;
  },
  moves: (s) => g.moves(s),
  chances: (s) => g.chances(s),
  play: (s, m) => g.play(s, m),
  outcome: (s): Outcome | undefined => {
    const o = g.outcome(s);
    return o === undefined
      ? undefined
      : { winner: o.winner === null ? null : o.winner === 0 ? 1 : 0, margin: -o.margin };
  },
  value: (s) => -g.value(s),
  render: (s) => g.render(s),
  formatMove: (s, m) => g.formatMove(s, m),
  parseMove: (s, t) => g.parseMove(s, t),
});

/** Asserts that a search and the mirrored search are the same search, colours swapped. */
const assertMirrored = (a: SearchResult, b: SearchResult, what: string) => {
  assertEquals(b.move, a.move, `${what}: move`);
  assertEquals(b.pv, a.pv, `${what}: pv`);
  assertEquals(b.visits, a.visits, `${what}: visits`);
  assertEquals([b.nodes, b.depth, b.exact], [a.nodes, a.depth, a.exact], `${what}: counts`);
  assert(Math.abs(a.value + b.value) <= 1e-9 * Math.max(1, Math.abs(a.value)), `${what}: value`);
};

Deno.test("mcts contract: colours mirror (the same seed gives the mirrored search)", () => {
  const cases: [string, Game<State>, number, number][] = [
    ["tic-tac-toe", ttt, 5, 300],
    ["kalah 3x2", kalah, 12, 400],
    ["nim 2-3-4", nim, 4, 300],
  ];
  for (const [name, game, plies, iterations] of cases) {
    const mirror = mirrored(game);
    for (let seed = 1; seed <= 12; seed++) {
      const s = randomPosition(game, seed, seed % plies);
      if (game.moves(s).length === 0) continue;
      const a = mctsSearch(game, s, { iterations, rng: makeRng(seed) });
      const b = mctsSearch(mirror, s, { iterations, rng: makeRng(seed) });
      assertMirrored(a, b, `${name} seed ${seed}`);
    }
  }
});

// ---------------------------------------------------------------------------------------
// Proven wins taken, proven losses avoided.

Deno.test("mcts contract: a win at once is taken, proven, and valued as a win (tic-tac-toe)", () => {
  const positions = reachable(ttt).filter((s) => ttt.moves(s).some((m) => winsAtOnce(ttt, s, m)));
  const chosen = sample(positions, 80);
  assert(chosen.some((s) => ttt.toMove(s) === 1) && chosen.some((s) => ttt.toMove(s) === 0));
  for (const [i, s] of chosen.entries()) {
    const p = ttt.toMove(s) as Player;
    const r = mctsSearch(ttt, s, { iterations: 300, rng: makeRng(i) });
    assert(winsAtOnce(ttt, s, r.move!), `${JSON.stringify(s)}: ${r.move} does not win at once`);
    assertEquals(forMover(p, r.value), WIN);
    assert(r.exact);
  }
});

Deno.test("mcts contract: proven wins are taken (Nim's nim-sum, Kalah by minimax)", () => {
  // Nim: from a position with a non-zero nim-sum, a proven move leaves a zero nim-sum.
  const nimSum = (s: State) => s.slice(0, 3).reduce((a, b) => a ^ b, 0);
  let proven = 0, winning = 0;
  for (const [i, s] of reachable(nim).entries()) {
    if (nimSum(s) === 0) continue;
    winning++;
    const r = mctsSearch(nim, s, { iterations: 2000, rng: makeRng(i) });
    if (!r.exact) continue;
    proven++;
    assertEquals(nimSum(nim.play(s, r.move!)), 0, `nim ${s}: ${nim.formatMove(s, r.move!)}`);
    assertEquals(forMover(nim.toMove(s) as Player, r.value), WIN);
  }
  assert(proven >= 0.9 * winning, `nim: ${proven} of ${winning} proven`);
  // Kalah 3x2: where the mover can win at once, the move played wins (by minimax).
  const solve = exactMargin(kalah);
  const positions = reachable(kalah).filter((s) =>
    kalah.moves(s).some((m) => winsAtOnce(kalah, s, m))
  );
  for (const [i, s] of sample(positions, 40).entries()) {
    const p = kalah.toMove(s) as Player;
    const r = mctsSearch(kalah, s, { iterations: 3000, rng: makeRng(i) });
    assert(forMover(p, solve(kalah.play(s, r.move!))) > 0, `kalah ${s}: ${r.move} does not win`);
    assertEquals(forMover(p, r.value), WIN);
  }
});

Deno.test("mcts contract: a move that loses at once is avoided when another does not", () => {
  const cases: [string, Game<State>, number][] = [
    ["tic-tac-toe", ttt, 60],
    ["kalah 3x2", kalah, 40],
    ["nim 2-3-4", nim, 40],
  ];
  for (const [name, game, n] of cases) {
    const positions = reachable(game).filter((s) => {
      const ms = game.moves(s);
      return ms.some((m) => losesAtOnce(game, s, m)) && ms.some((m) => !losesAtOnce(game, s, m));
    });
    assert(positions.length >= n, `${name}: ${positions.length} positions`);
    for (const [i, s] of sample(positions, n).entries()) {
      const r = mctsSearch(game, s, { iterations: 1000, rng: makeRng(i + 1) });
      assert(!losesAtOnce(game, s, r.move!), `${name} ${s}: ${r.move} loses at once`);
    }
  }
});

// ---------------------------------------------------------------------------------------
// Decisive margins, distances, and proven losses against visits: explicit small trees.

/** A node of a hand-made game tree: a position with moves, or a finished game. */
type Tree =
  | { readonly to: Player; readonly kids: readonly Tree[] }
  | { readonly winner: Player | null; readonly margin: number };

/** A game over an explicit tree: move `i` goes to the `i`-th child. */
const treeGame = (root: Tree): Game<Tree> => ({
  id: "tree",
  players: ["max", "min"],
  initial: () => root,
  toMove: (s) => ("kids" in s ? s.to : 0),
  moves: (s) => ("kids" in s ? s.kids.map((_, i) => i) : []),
  chances: () => [],
  play: (s, m) => ("kids" in s ? s.kids[m] : s),
  outcome: (s) => ("kids" in s ? undefined : { winner: s.winner, margin: s.margin }),
  value: (s) => ("kids" in s ? 0 : s.winner === 0 ? WIN : s.winner === 1 ? -WIN : 0),
  render: () => "tree\n",
  formatMove: (_s, m) => String(m),
  parseMove: (_s, t) => Result.succeed(Number(t)),
});

const won = (winner: Player, margin: number): Tree => ({ winner, margin });
const draw: Tree = { winner: null, margin: 0 };
/** `n` forced plies by alternating players, then `end`. */
const chain = (n: number, end: Tree, first: Player = 1): Tree => {
  let t = end;
  for (let i = n - 1; i >= 0; i--) t = { to: ((first + i) % 2) as Player, kids: [t] };
  return t;
};

Deno.test("mcts contract: the bigger proven win, the smaller proven loss, the quicker win", () => {
  const cases: [string, Tree, number][] = [
    ["the bigger win (listed later)", {
      to: 0,
      kids: [won(0, 1), won(0, 3), won(0, 2)],
    }, 1],
    ["the bigger win for player 1", { to: 1, kids: [won(1, -1), won(1, -4), won(1, -2)] }, 1],
    ["the smallest loss", { to: 0, kids: [won(1, -5), won(1, -1), won(1, -3)] }, 1],
    ["a bigger win later over a small win now", {
      to: 0,
      kids: [won(0, 1), chain(3, won(0, 3))],
    }, 1],
    ["the quicker of equal wins", { to: 0, kids: [chain(4, won(0, 1)), won(0, 1)] }, 1],
    ["the slower of equal losses", { to: 0, kids: [won(1, -1), chain(4, won(1, -1))] }, 1],
    ["a win found deep among moves that lose", {
      to: 0,
      kids: [
        { to: 1, kids: [won(0, 2), won(1, -1)] },
        { to: 1, kids: [{ to: 0, kids: [won(1, -1), won(0, 5)] }, won(0, 2)] },
        won(1, -1),
      ],
    }, 1],
  ];
  for (const [what, tree, best] of cases) {
    const game = treeGame(tree);
    for (const g of [game, mirrored(game)]) {
      for (let seed = 1; seed <= 5; seed++) {
        const r = mctsSearch(g, g.initial(), { iterations: 2000, rng: makeRng(seed) });
        assertEquals(r.move, best, `${what} (${g.id}, seed ${seed})`);
        assert(r.exact, `${what}: proven`);
        assert(r.nodes < 2000, `${what}: the search settles before its budget`);
      }
    }
  }
});

Deno.test("mcts contract: Kalah 3x2's proven margins equal minimax's (the biggest win)", () => {
  const solve = exactMargin(kalah);
  let settled = 0, total = 0;
  for (let seed = 1; seed <= 150; seed++) {
    const s = randomPosition(kalah, seed, seed % 10);
    if (kalah.moves(s).length === 0) continue;
    total++;
    const r = mctsSearch(kalah, s, { iterations: 20_000, rng: makeRng(seed) });
    if (r.nodes === 20_000) continue;
    // It stopped before its budget: the root's move is settled, so it is optimal.
    settled++;
    assert(r.exact);
    assertEquals(
      solve(kalah.play(s, r.move!)),
      solve(s),
      `seed ${seed}: ${kalah.formatMove(s, r.move!)}`,
    );
    assertEquals(Math.sign(r.value), Math.sign(solve(s)));
  }
  assert(settled >= total * 0.9, `settled ${settled} of ${total}`);
});

Deno.test("mcts contract: a proven loss is never ranked above a live move by its visits", () => {
  // The trap (move 0) looks good to random playouts (a coin flip for the opponent at the
  // end of a forced line) until the search reaches the refutation and proves it lost;
  // the safe move (1) looks bad (one draw among many losses) but is a draw.
  const trap = chain(30, { to: 1, kids: [won(0, 1), won(1, -1)] });
  const safe: Tree = { to: 0, kids: [...Array.from({ length: 19 }, () => won(1, -1)), draw] };
  const game = treeGame({ to: 0, kids: [trap, safe] });
  for (const g of [game, mirrored(game)]) {
    for (let seed = 1; seed <= 8; seed++) {
      const r = mctsSearch(g, g.initial(), { iterations: 45, rng: makeRng(seed) });
      assertEquals(r.move, 1, `${g.id} seed ${seed}`);
      // The witness: the move played is the less visited one.
      assert(r.visits! < r.nodes / 2, `seed ${seed}: ${r.visits} of ${r.nodes} visits`);
    }
  }
});

// ---------------------------------------------------------------------------------------
// The iteration budget is `iterations`, from a spec to a worker.

Deno.test("mcts contract: the budget is `iterations`; `depth` (plies) does not set it", () => {
  const s = ttt.initial();
  assertEquals(mctsSearch(ttt, s, { iterations: 123 }).nodes, 123);
  // A depth in plies is not an iteration count: the default budget applies.
  assertEquals(mctsSearch(ttt, s, { depth: 3 }).nodes, 1000);
  const spec = parseSpec("mcts:3000", builtinStrategies);
  assert(Result.isSuccess(spec));
  assertEquals(spec.success, { kind: "search", strategy: "mcts", iterations: 3000 });
  assertEquals(formatSpec(spec.success), "mcts:3000");
  const ab = parseSpec("alphabeta:6", builtinStrategies);
  assert(Result.isSuccess(ab));
  assertEquals(ab.success, { kind: "search", strategy: "alphabeta", depth: 6 });
  // A player from the spec runs that many iterations per move.
  const small = parseSpec("mcts:77", builtinStrategies);
  assert(Result.isSuccess(small));
  const nodes: number[] = [];
  Effect.runSync(
    runGame(ttt, [agentFromSpec(small.success, builtinStrategies), randomAgent()], {
      seed: 1,
      maxPlies: 1,
      onEvent: (e) =>
        Effect.sync(() => {
          if (e._tag === "Moved" && e.search !== undefined) nodes.push(e.search.nodes);
        }),
    }).pipe(Effect.provide(scriptedTerminal([]).layer)),
  );
  assertEquals(nodes, [77]);
});

Deno.test("mcts contract: `iterations` reaches the engine's worker", async () => {
  await Effect.runPromise(
    Effect.gen(function* () {
      const { game } = yield* openGame("tictactoe", {});
      const request = {
        strategy: mctsStrategy,
        game,
        state: game.initial(),
        options: { iterations: 37, seed: 3 },
      };
      const inWorker = yield* search(request);
      const here = yield* search(request).pipe(Effect.provide(inProcessEngine));
      assertEquals(inWorker.nodes, 37);
      assertEquals({ ...inWorker, timeMs: 0 }, { ...here, timeMs: 0 });
    }).pipe(Effect.provide(liveEngine.pipe(Layer.provideMerge(workerPoolLayer(1))))),
  );
});

Deno.test("mcts contract: analyze takes --iterations for mcts and refuses --depth", async () => {
  const refused = await runScript("scripts/analyze.ts", [
    "nim",
    "--strategy",
    "mcts",
    "--depth",
    "5",
  ]);
  assert(refused.code !== 0);
  assertStringIncludes(refused.stderr, "--iterations");
  const ran = await runScript("scripts/analyze.ts", [
    "nim",
    "--strategy",
    "mcts",
    "--iterations",
    "200",
    "--json",
  ]);
  assertEquals(ran.code, 0, ran.stderr);
  assert(JSON.parse(ran.stdout).nodes <= 200);
  const other = await runScript("scripts/analyze.ts", ["nim", "--iterations", "200"]);
  assert(other.code !== 0);
  assertStringIncludes(other.stderr, "--iterations is mcts's budget");
});
