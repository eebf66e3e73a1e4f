/**
 * The engine service: a search in a worker gives what the same search gives in process;
 * progress arrives per iteration; interrupting a search stops its worker (the worker
 * answers that it saw the flag: a handshake, not a timing window); a plugin that throws
 * or never returns fails the search with a message naming it, and the worker is replaced.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Deferred, Effect, Exit, Fiber, Layer, Stream } from "../core/deps.ts";
import {
  inProcessEngine,
  liveEngine,
  search,
  type SearchEvent,
  searchEvents,
  type SearchRequest,
} from "../core/engine/engine.ts";
import { SearchFailed } from "../core/errors.ts";
import { runGame } from "../app/match.ts";
import { randomAgent, searchAgent } from "../app/players/agents.ts";
import { WorkerPool, workerPoolLayer } from "../core/parallel/pool.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { openGame } from "../mod.ts";
import { randomPosition } from "./tools/helpers.ts";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).href;

/** The live engine over a pool of `n` workers, the pool in the context too. */
const live = (n = 1) => liveEngine.pipe(Layer.provideMerge(workerPoolLayer(n)));

/** The result without its time (the only field that may differ between runs). */
const timeless = ({ timeMs: _, ...rest }: { timeMs: number }) => rest;

Deno.test("a search in a worker = the same search in process (every game, every strategy)", async () => {
  const cases: [string, Record<string, unknown>, string, Record<string, number>][] = [
    ["kalah", { pits: 4, stones: 3 }, "alphabeta", { depth: 6 }],
    ["kalah", { pits: 4, stones: 3 }, "minimax", { depth: 4 }],
    ["kalah", { pits: 3, stones: 2 }, "solve", {}],
    ["tictactoe", {}, "alphabeta", { depth: 9 }],
    ["nim", { heaps: [2, 3, 4] }, "mcts", { iterations: 300, seed: 5 }],
    ["2048", { width: 3, height: 3 }, "expectimax", { depth: 2 }],
    ["pentago", {}, "alphabeta", { depth: 2 }],
    ["domineering", { board: "4x4" }, "solve", {}],
    [fixture("race.ts"), { goal: 5 }, "expectimax", { depth: 5 }],
  ];
  await Effect.runPromise(
    Effect.gen(function* () {
      for (const [id, options, name, budget] of cases) {
        const { game, plugin, source } = yield* openGame(id, options);
        const strategy = plugin.strategies?.[name] ?? allStrategies[name];
        const seeds = fc.sample(fc.integer({ min: 0, max: 1e9 }), { numRuns: 3, seed: 11 });
        for (const [k, seed] of seeds.entries()) {
          const state = randomPosition(game, seed, 2 * k);
          const request: SearchRequest<unknown> = {
            strategy,
            game,
            source,
            state,
            options: { ...budget, tt: false, distance: true },
          };
          const inWorker = yield* search(request);
          const here = yield* search(request).pipe(Effect.provide(inProcessEngine));
          assertEquals(timeless(inWorker), timeless(here), `${id} ${name} at seed ${seed}`);
        }
      }
    }).pipe(Effect.provide(live(2))),
  );
});

Deno.test("progress: every completed iteration, in order, then the result", async () => {
  const { game, source } = await Effect.runPromise(openGame("kalah", { pits: 4, stones: 3 }));
  for (const layer of [live(), inProcessEngine]) {
    const events: SearchEvent[] = [
      ...await Effect.runPromise(
        Stream.runCollect(searchEvents({
          strategy: allStrategies.alphabeta,
          game,
          source,
          state: game.initial(),
          options: { depth: 7 },
        })).pipe(Effect.provide(layer)),
      ),
    ];
    const iterations = events.filter((e) => e._tag === "Iteration");
    assertEquals(iterations.map((e) => e._tag === "Iteration" && e.result.depth), [
      1,
      2,
      3,
      4,
      5,
      6,
      7,
    ]);
    const done = events.at(-1)!;
    assert(done._tag === "Done");
    assertEquals(done.result.depth, 7);
    const lastIteration = iterations.at(-1)!;
    assert(lastIteration._tag === "Iteration");
    assertEquals(lastIteration.result.value, done.result.value);
  }
});

Deno.test("interrupting a search stops its worker, which answers; the worker is reused", async () => {
  await Effect.runPromise(
    Effect.gen(function* () {
      const pool = yield* WorkerPool;
      const { game, source } = yield* openGame("kalah");
      const running = yield* Deferred.make<void>();
      // Depth 40 would take ages: interrupt it once its first iteration is done.
      const fiber = yield* Effect.forkChild(
        search({
          strategy: allStrategies.alphabeta,
          game,
          source,
          state: game.initial(),
          options: { depth: 40 },
        }, (p) => {
          if (p._tag === "Iteration") Deferred.doneUnsafe(running, Effect.void);
        }),
      );
      yield* Deferred.await(running);
      yield* Fiber.interrupt(fiber);
      // The interruption returned once the worker had answered that it saw the flag.
      assertEquals(pool.stopped(), 1, "the worker saw the stop flag");
      assertEquals(pool.busy(), 0);
      assertEquals(pool.replaced(), 0, "no worker was terminated");
      const next = yield* search({
        strategy: allStrategies.alphabeta,
        game,
        source,
        state: game.initial(),
        options: { depth: 3 },
      });
      assertEquals(next.depth, 3);
      assertEquals(pool.alive(), 1, "the same worker searched again");
    }).pipe(Effect.provide(live(1))),
  );
});

Deno.test("a plugin's exception in a worker fails the search naming the plugin and function", async () => {
  const exit = await Effect.runPromiseExit(
    Effect.gen(function* () {
      const { game, source } = yield* openGame(fixture("crashy.ts"));
      return yield* search({
        strategy: allStrategies.alphabeta,
        game,
        source,
        state: game.initial(),
        options: { depth: 8 },
      });
    }).pipe(Effect.provide(live())),
  );
  assert(Exit.isFailure(exit));
  const error = exit.cause.reasons.find((r) => r._tag === "Fail");
  assert(error !== undefined && error.error instanceof SearchFailed, String(exit.cause));
  assertEquals(
    error.error.message,
    "plugin ./tests/fixtures/crashy.ts failed in value(): boom: value() failed on a small position",
  );
});

Deno.test("in process, a loaded plugin's exception fails the search the same way", async () => {
  // openGame guards a user's plugin (guardPlugin), naming it as the worker does.
  const { game, source } = await Effect.runPromise(openGame(fixture("crashy.ts")));
  const exit = await Effect.runPromiseExit(search({
    strategy: allStrategies.alphabeta,
    game,
    source,
    state: game.initial(),
    options: { depth: 8 },
  }));
  assert(Exit.isFailure(exit));
  const error = exit.cause.reasons.find((r) => r._tag === "Fail");
  assert(error !== undefined && error.error instanceof SearchFailed, String(exit.cause));
  assertStringIncludes(
    error.error.message,
    "plugin ./tests/fixtures/crashy.ts failed in value(): boom",
  );
});

Deno.test("a game that is slow to build: the time limit counts from the built game", async () => {
  await Effect.runPromise(
    Effect.gen(function* () {
      const { game, source } = yield* openGame(fixture("slow_load.ts"));
      // The worker needs 3 s to build the game, past this budget and grace (2.05 s): a
      // limit counted from the dispatch fails for sure; counted from the built game, the
      // search has 2 s of grace, ample on a machine busy with other work.
      const r = yield* search({
        strategy: allStrategies.alphabeta,
        game,
        source,
        state: game.initial(),
        options: { timeMs: 50, graceMs: 2000 },
      });
      assert(r.move !== undefined);
    }).pipe(Effect.provide(live())),
  );
});

Deno.test("a plugin that never returns: abandoned after its budget and grace, named, replaced", async () => {
  await Effect.runPromise(
    Effect.gen(function* () {
      const pool = yield* WorkerPool;
      const { game, source } = yield* openGame(fixture("looping.ts"));
      // First a search that does not reach the loop, so the worker has loaded the plugin.
      const warm = yield* search({
        strategy: allStrategies.alphabeta,
        game,
        source,
        state: game.initial(),
        options: { depth: 1 },
      });
      assertEquals(warm.depth, 1);
      const exit = yield* Effect.exit(search({
        strategy: allStrategies.alphabeta,
        game,
        source,
        state: game.initial(),
        options: { timeMs: 200, graceMs: 300 },
      }));
      assert(Exit.isFailure(exit));
      const error = exit.cause.reasons.find((r) => r._tag === "Fail");
      assert(error !== undefined && error.error instanceof SearchFailed, String(exit.cause));
      assertStringIncludes(error.error.message, "plugin ./tests/fixtures/looping.ts did not stop");
      assertStringIncludes(error.error.message, "moves()");
      assertEquals(pool.replaced(), 1, "the stuck worker was terminated");
      // A new worker takes the next search.
      const next = yield* search({
        strategy: allStrategies.alphabeta,
        game,
        source,
        state: game.initial(),
        options: { depth: 1 },
      });
      assertEquals(next.depth, 1);
    }).pipe(Effect.provide(live(1))),
  );
});

Deno.test("runGame: a plugin's exception ends the game as an error; the moves before stay", async () => {
  const { game } = await Effect.runPromise(openGame(fixture("throwing.ts")));
  const { transcript } = Effect.runSync(
    runGame(game, [randomAgent(), randomAgent()], { seed: 3 }),
  );
  assertEquals(transcript.result.reason, "error");
  assertEquals(
    transcript.result.error,
    "plugin ./tests/fixtures/throwing.ts failed in play(): boom: the heaps fell over",
  );
  assert(transcript.moves.length >= 1, "the moves before the fault are kept");
});

Deno.test("runGame: an interruption while an AI thinks ends the game, its search stopped", async () => {
  await Effect.runPromise(
    Effect.gen(function* () {
      const pool = yield* WorkerPool;
      const { game, source } = yield* openGame("kalah");
      const stop = yield* Deferred.make<void>();
      const thinking = yield* Deferred.make<void>();
      const ai = searchAgent<unknown>(allStrategies.alphabeta, { depth: 40 }, { source });
      // The AI's search reports its first iteration: then press "Ctrl-C".
      const watched = {
        ...ai,
        choose: (g: typeof game, s: unknown) =>
          Effect.andThen(
            Effect.sync(() => Deferred.doneUnsafe(thinking, Effect.void)),
            ai.choose(g, s),
          ),
      };
      const played = yield* Effect.forkChild(runGame(game, [watched, randomAgent()], {
        seed: 1,
        interruption: Deferred.await(stop),
      }));
      yield* Deferred.await(thinking);
      yield* Deferred.succeed(stop, undefined);
      const { transcript } = yield* Fiber.join(played);
      assertEquals(transcript.result.reason, "interrupted");
      assertEquals(transcript.result.by, 0);
      assertEquals(transcript.moves.length, 0);
      assertEquals(pool.busy(), 0, "the AI's worker is idle again");
      assertEquals(pool.replaced(), 0);
    }).pipe(Effect.provide(live(1))),
  );
});
