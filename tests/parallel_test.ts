/**
 * Parallel search on workers: every parallel strategy returns its sequential
 * counterpart's value (the move may differ only among equally valued moves); a worker
 * that throws fails the search with its error; interruption and the end of the pool's
 * scope leave no worker running.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { randomPosition } from "./tools/helpers.ts";
import { Cause, Deferred, Effect, Exit, Fiber, Option } from "../core/deps.ts";
import { CHANCE } from "../core/game.ts";
import { openGame } from "../mod.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { parallelStrategies } from "../core/parallel/strategies.ts";
import { WorkerPool, workerPoolLayer } from "../core/parallel/pool.ts";
import { runStrategy } from "../core/engine/strategies.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";

/** Checks every parallel strategy against its sequential counterpart on random positions. */
const agreement = (
  specifier: string,
  options: Record<string, unknown>,
  depths: number[],
  runs: number,
) =>
  Effect.gen(function* () {
    const { game, source } = yield* openGame(specifier, options);
    const seeds = fc.sample(fc.integer({ min: 0, max: 1e9 }), { numRuns: runs, seed: 7 });
    for (const [k, seed] of seeds.entries()) {
      const s = randomPosition(game, seed, k % 7);
      const depth = depths[k % depths.length];
      const mm = minimaxSearch(game, s, { depth });
      const ab = alphabetaSearch(game, s, { depth });
      assertEquals(mm.value, ab.value);
      for (const [name, strategy] of Object.entries(parallelStrategies)) {
        const par = 1 + (k % 3);
        const r = yield* runStrategy(strategy, game, s, { depth, params: { par } }, source);
        assertEquals(r.value, mm.value, `${name} (par ${par}) at depth ${depth}, seed ${seed}`);
        if (name === "par_then_mm") {
          assertEquals(r.nodes, mm.nodes, "par_then_mm visits minimax's nodes");
        }
        if (game.toMove(s) !== CHANCE && game.moves(s).length > 0) {
          // A different move is fine only if it is worth as much.
          const child = minimaxSearch(game, game.play(s, r.move!), { depth: depth - 1 });
          assertEquals(child.value, mm.value, `${name}'s move ${r.move} is not optimal`);
        }
      }
    }
  });

Deno.test("parallel strategies = sequential ones (Kalah, tic-tac-toe, Nim)", async () => {
  await Effect.runPromise(
    Effect.gen(function* () {
      yield* agreement("kalah", { pits: 4, stones: 3 }, [3, 5, 6], 9);
      yield* agreement("kalah", { pits: 3, stones: 2, capture: "always" }, [4, 7], 6);
      yield* agreement("tictactoe", {}, [2, 3, 4, 5], 8);
      yield* agreement("nim", { heaps: [2, 3, 4] }, [3, 5, 8], 6);
    }).pipe(Effect.provide(workerPoolLayer(2))),
  );
});

Deno.test("a user's plugin from a file searches in parallel (chance nodes too)", async () => {
  await Effect.runPromise(
    agreement(new URL("./fixtures/race.ts", import.meta.url).href, { goal: 5 }, [3, 5], 6).pipe(
      Effect.provide(workerPoolLayer(2)),
    ),
  );
});

Deno.test("a worker that throws fails the search with the worker's error", async () => {
  const exit = await Effect.runPromiseExit(
    Effect.gen(function* () {
      const { game, source } = yield* openGame(
        new URL("./fixtures/crashy.ts", import.meta.url).href,
      );
      return yield* runStrategy(parallelStrategies.par_then_ab, game, game.initial(), {
        depth: 6,
        params: { par: 1 },
      }, source);
    }).pipe(Effect.provide(workerPoolLayer(2))),
  );
  assert(Exit.isFailure(exit));
  const err = Cause.findErrorOption(exit.cause);
  assert(Option.isSome(err));
  assertStringIncludes(
    String(err.value.message),
    "a search worker failed: plugin ./tests/fixtures/crashy.ts failed in value(): boom",
  );
});

Deno.test("a parallel strategy without the game's source fails typed, running no other search", async () => {
  const game = ticTacToeGame();
  let nodes = 0;
  const counted = {
    ...game,
    moves: (s: Parameters<typeof game.moves>[0]) => (nodes++, game.moves(s)),
  };
  for (const strategy of Object.values(parallelStrategies)) {
    const error = await Effect.runPromise(
      Effect.flip(runStrategy(strategy, counted, counted.initial(), { depth: 3 })),
    );
    assertEquals(error._tag, "ParallelUnavailable", strategy.name);
    assert(error._tag === "ParallelUnavailable" && error.strategy === strategy.name);
    assertStringIncludes(error.message, "open the game with openGame and pass its source");
  }
  assertEquals(nodes, 0, "no search ran in place of the parallel one");
});

Deno.test("time budgets and interruption stop the workers; the scope ends them", async () => {
  let pool: WorkerPool["Service"] | undefined;
  await Effect.runPromise(
    Effect.gen(function* () {
      pool = yield* WorkerPool;
      const { game, source } = yield* openGame("nim", { heaps: [9, 10, 11, 12] });
      // A time budget: iterative deepening keeps the last complete depth.
      const r = yield* runStrategy(parallelStrategies.par_then_mm, game, game.initial(), {
        timeMs: 300,
        params: { par: 1 },
      }, source);
      assert(r.depth >= 1 && r.depth < 42, "the budget ended the deepening");
      assert(game.moves(game.initial()).includes(r.move!));
      // A search that would take ages, interrupted once its second iteration is done (a
      // handshake, not a timing window): its tasks are stopped...
      const iterated = yield* Deferred.make<void>();
      const search = yield* Effect.forkChild(
        runStrategy(parallelStrategies.par_then_mm, game, game.initial(), {
          timeMs: 1e9,
          params: { par: 1 },
          onIteration: (it) => {
            if (it.depth >= 2) Deferred.doneUnsafe(iterated, Effect.void);
          },
        }, source),
      );
      yield* Deferred.await(iterated);
      yield* Fiber.interrupt(search);
      // ...and the interruption returned only once every worker had answered.
      assertEquals(pool.busy(), 0, "every worker answered the stop");
      assertEquals(pool.replaced(), 0, "no worker had to be terminated");
      // The workers are free for the next search, which completes.
      const next = yield* runStrategy(parallelStrategies.par_then_ab, game, game.initial(), {
        depth: 2,
      }, source);
      assertEquals(next.depth, 2);
      assert(pool.alive() > 0);
    }).pipe(Effect.provide(workerPoolLayer(2))),
  );
  assertEquals(pool!.alive(), 0, "no worker outlives the pool's scope");
});
