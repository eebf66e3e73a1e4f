/**
 * The search worker (`core/parallel/worker.ts`) and its pool, task kind by task kind:
 * every kind polls the search's stop flag, so that a search stopped mid-way answers (the
 * handshake the pool counts: `stopped`, and no worker `replaced`); and the worker's own
 * transposition table, per game and settings, kept between the tasks of one search and
 * emptied when another search starts (so every search starts cold), as the pool's shared
 * table is by the strategies.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { Deferred, Effect, Fiber } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { type GamePlugin, openGameWith } from "../core/plugin.ts";
import type { GameSource } from "../core/source.ts";
import { WorkerPool, workerPoolLayer } from "../core/parallel/pool.ts";
import type { Task, TaskSettings } from "../core/parallel/protocol.ts";
import { parallelStrategies } from "../core/parallel/strategies.ts";
import { runStrategy } from "../core/engine/strategies.ts";
import kalah from "../plugins/kalah/mod.ts";

const KALAH_URL = new URL("../plugins/kalah/mod.ts", import.meta.url).href;

/** Kalah from its module, as a worker builds it, and its source. */
const kalahGame = (options: Record<string, unknown>) => {
  const opened = Effect.runSync(
    openGameWith({}, { plugin: kalah as GamePlugin<unknown, unknown>, url: KALAH_URL }, options),
  );
  const source: GameSource = opened.source;
  return { game: opened.game as Game<unknown>, source };
};

/** Kalah 6x4: deep searches of it take far longer than any test. */
const BIG = kalahGame({});
/** Kalah 4x3: a depth-8 search takes a few thousand nodes. */
const SMALL = kalahGame({ pits: 4, stones: 3 });

/** Settings of a search (its generation names it) without a shared table. */
const own = (generation: number, distance = false): TaskSettings => ({
  chance: "min",
  distance,
  generation,
});

/** Runs a test with a pool of one worker (its tasks in order, so node counts repeat). */
const withWorker = <A, E>(program: Effect.Effect<A, E, WorkerPool>): Promise<A> =>
  Effect.runPromise(program.pipe(Effect.provide(workerPoolLayer(1))));

/**
 * Starts `work` on the pool, waits until `running` completes (the worker has it), stops it
 * and returns how many tasks answered "stopped"; the interruption returns once the
 * worker answered, so none may have been terminated for not answering.
 */
const stopMidway = (
  label: string,
  work: Effect.Effect<unknown, unknown>,
  running: Effect.Effect<void>,
) =>
  Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const before = { stopped: pool.stopped(), replaced: pool.replaced() };
    const fiber = yield* Effect.forkChild(work);
    yield* running;
    yield* Fiber.interrupt(fiber);
    assertEquals(pool.replaced() - before.replaced, 0, `${label}: the worker did not answer`);
    assertEquals(pool.busy(), 0, `${label}: still busy`);
    // The worker is free and still there: a small task runs on it at once.
    const next = yield* pool.run(SMALL.source, own(1), [{
      kind: "alphabeta",
      state: SMALL.game.initial(),
      depth: 2,
      ply: 0,
      alpha: -Infinity,
      beta: Infinity,
    }]);
    assertEquals(next[0].depth, 2);
    assertEquals(pool.alive(), 1, `${label}: the worker was replaced`);
    return pool.stopped() - before.stopped;
  });

/** Completes once the pool has handed a task to its worker. */
const handedOver = (pool: WorkerPool["Service"]) =>
  Effect.gen(function* () {
    while (pool.busy() === 0) yield* Effect.yieldNow;
  });

Deno.test("every task kind stops on its flag: the worker answers, none is replaced", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const s = BIG.game.initial();
    // The worker builds the game first, so that the tasks below start searching at once.
    yield* pool.run(BIG.source, own(2), [{ kind: "minimax", state: s, depth: 1, ply: 0 }]);
    const tasks: [string, Task, number][] = [
      // A minimax or alpha-beta task throws when it sees the flag: it answers "stopped".
      ["minimax", { kind: "minimax", state: s, depth: 40, ply: 0 }, 1],
      [
        "alphabeta",
        { kind: "alphabeta", state: s, depth: 40, ply: 0, alpha: -Infinity, beta: Infinity },
        1,
      ],
      // A Lazy SMP helper keeps its last complete iteration: it answers with it.
      ["smp", { kind: "smp", state: s, depth: 60, timeMs: undefined, helper: 0 }, 0],
    ];
    for (const [label, task, stopped] of tasks) {
      const answered = yield* stopMidway(
        label,
        pool.run(BIG.source, own(3), [task]),
        handedOver(pool),
      );
      assertEquals(answered, stopped, `${label}: the tasks that answered "stopped"`);
    }
    // A whole search (the engine's task), stopped once it reported an iteration.
    for (
      const [strategy, options] of [
        ["alphabeta", { depth: 40 }],
        ["minimax", { depth: 40, timeMs: 1e9 }],
        ["mcts", { iterations: 1e9, seed: 1 }],
      ] as const
    ) {
      const iterated = yield* Deferred.make<void>();
      const answered = yield* stopMidway(
        `search ${strategy}`,
        pool.search(BIG.source, {
          strategy,
          state: s,
          options,
          graceMs: 20_000,
          onProgress: () => Deferred.doneUnsafe(iterated, Effect.void),
        }),
        Deferred.await(iterated),
      );
      assertEquals(answered, 1, `search ${strategy}: answered "stopped"`);
    }
  }));
});

Deno.test("the worker's own table: kept within a search, emptied for the next one", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const task: Task = {
      kind: "alphabeta",
      state: SMALL.game.initial(),
      depth: 8,
      ply: 0,
      alpha: -Infinity,
      beta: Infinity,
    };
    const nodes = (settings: TaskSettings) =>
      Effect.map(pool.run(SMALL.source, settings, [task]), (rs) => rs[0]);
    const cold = yield* nodes(own(100));
    // The same search again (its tasks come in several messages): the table answers.
    const again = yield* nodes(own(100));
    assertEquals(again.value, cold.value);
    assert(again.nodes < cold.nodes, `kept: ${again.nodes} nodes, cold ${cold.nodes}`);
    // Another search starts cold.
    const next = yield* nodes(own(101));
    assertEquals([next.value, next.nodes], [cold.value, cold.nodes], "a new search starts cold");
    // Another game's search in between empties nothing of this game's table.
    yield* pool.run(BIG.source, own(101), [{ ...task, state: BIG.game.initial(), depth: 3 }]);
    const after = yield* nodes(own(101));
    assert(after.nodes < cold.nodes, `kept across another game: ${after.nodes} nodes`);
    // With distances the values differ: a table of its own, emptied for its own searches.
    const far = yield* nodes(own(102, true));
    yield* nodes(own(103, false));
    const farAgain = yield* nodes(own(103, true));
    assertEquals([farAgain.value, farAgain.nodes], [far.value, far.nodes], "distance, cold");
  }));
});

Deno.test("a whole search in a worker starts cold, its table or the pool's shared one", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const state = SMALL.game.initial();
    const search = () =>
      pool.search(SMALL.source, { strategy: "alphabeta", state, options: { depth: 8 } });
    const first = yield* search();
    const second = yield* search();
    assertEquals([second.value, second.nodes], [first.value, first.nodes]);
    // The parallel alpha-beta's table in shared memory, kept by the pool across searches,
    // is emptied for each.
    const parallel = () =>
      runStrategy(parallelStrategies.par_then_ab, SMALL.game, state, {
        depth: 8,
        params: { par: 1 },
      }, SMALL.source);
    const a = yield* parallel();
    const b = yield* parallel();
    assertEquals([b.value, b.nodes], [a.value, a.nodes]);
  }));
});
