/**
 * The search worker (`core/parallel/worker.ts`) and its pool, task kind by task kind:
 * every kind polls the search's stop flag, so that a search stopped mid-way answers (the
 * handshake the pool counts: `stopped`, and no worker `replaced`); and the worker's own
 * transposition table, per game and settings, kept between the tasks of one search and
 * emptied when another search starts (so every search starts cold), as the pool's shared
 * table is by the strategies. Then stops before a task starts (queued batches dropped),
 * after it finished (nothing counted, a finished run's raised flag not reaching the next
 * task on the same worker), and the grace period: a worker that does not answer is
 * terminated at its end, and the period starts once the worker has built the game, also
 * on a worker whose previous job had built one.
 *
 * Mutants the tests below were proven against (each made by hand, seen failing, restored):
 * - `pump`: a cancelled queued job run anyway; `slot.started = false` dropped (a stale
 *   "built" from the previous job)
 * - `cancel`: the grace timer's termination dropped; the load allowance dropped; the
 *   grace not restarted once the game is built; a built game's grace with the allowance
 * - `reply`: the `stopped` count dropped; `run`'s interruption not raising the flag or
 *   not waiting for the running jobs; `search`'s interruption not raising its flag
 * (Not killed: `task.graceMs` ignored for the 1 s default, which only a wait on the
 * clock could tell; `r.id !== slot.id`, which no reply reaches: a worker's messages
 * for a job all come before its answer.)
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

// ---------------------------------------------------------------------------------------
// Stops before, during and after a task, and the grace period, proven by the pool's
// counts (`stopped`: the handshakes; `replaced`: the workers terminated) and by the order
// the pool's one worker takes its tasks in (first come, first served).

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).href;

/** A user's plugin from the fixtures, opened as a program opens it. */
const fixtureGame = (name: string) =>
  Effect.map(
    openGameWith({}, fixture(name), {}).pipe(Effect.orDie),
    (opened) => ({ game: opened.game as Game<unknown>, source: opened.source }),
  );

/**
 * How long an interruption may take at most, for a test to fail instead of hanging: far
 * beyond the grace periods given (at most 2 s after a 3 s build), and below the minute a
 * worker is allowed for building its game.
 */
const LIVENESS = "45 seconds";

/** A task that takes far longer than any test unless it is stopped. */
const endless: Task = { kind: "minimax", state: BIG.game.initial(), depth: 40, ply: 0 };

/** A small task, and its answer on a worker that was never stopped. */
const small: Task = { kind: "minimax", state: SMALL.game.initial(), depth: 5, ply: 0 };

Deno.test("a stop before a task starts: the queued tasks are dropped, never run", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const [fresh] = yield* pool.run(SMALL.source, own(1), [small]);
    yield* pool.run(BIG.source, own(2), [{ ...endless, depth: 1 }]);
    const before = { stopped: pool.stopped(), replaced: pool.replaced() };
    // Sixteen tasks on one worker: eight batches of two, the first handed over, seven
    // queued behind it.
    const fiber = yield* Effect.forkChild(pool.run(BIG.source, own(3), Array(16).fill(endless)));
    yield* handedOver(pool);
    yield* Fiber.interrupt(fiber);
    // The next task comes after anything still queued: when it has answered, every batch
    // of the stopped run that was going to run has run.
    const [next] = yield* pool.run(SMALL.source, own(4), [small]);
    assertEquals([next.value, next.nodes, next.depth], [fresh.value, fresh.nodes, fresh.depth]);
    assertEquals(pool.stopped() - before.stopped, 1, "only the running batch answered stopped");
    assertEquals(pool.replaced() - before.replaced, 0);
    assertEquals(pool.busy(), 0);
  }));
});

Deno.test("a stop after a task finished changes nothing; a finished run's raised flag stays its own", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const [fresh] = yield* pool.run(SMALL.source, own(1), [small]);
    const before = { stopped: pool.stopped(), replaced: pool.replaced() };
    // A finished run, then interrupted: nothing to stop, nothing counted.
    const done = yield* Effect.forkChild(pool.run(SMALL.source, own(2), [small]));
    const [result] = yield* Fiber.join(done);
    yield* Fiber.interrupt(done);
    assertEquals([result.value, result.nodes], [fresh.value, fresh.nodes]);
    // A Lazy SMP helper that completes its depth raises its run's flag itself (to end the
    // other helpers); the same worker's next task, of another run, runs in full.
    const [smp] = yield* pool.run(SMALL.source, own(3), [{
      kind: "smp",
      state: SMALL.game.initial(),
      depth: 6,
      timeMs: undefined,
      helper: 0,
    }]);
    assertEquals(smp.depth, 6);
    const [after] = yield* pool.run(SMALL.source, own(4), [small]);
    assertEquals([after.value, after.nodes, after.depth], [fresh.value, fresh.nodes, 5]);
    assertEquals(pool.stopped() - before.stopped, 0, "no task answered stopped");
    assertEquals(pool.replaced() - before.replaced, 0);
    assertEquals(pool.alive(), 1);
  }));
});

Deno.test("the grace period: a worker that does not answer its stop is terminated, then replaced", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const { game, source } = yield* fixtureGame("looping.ts");
    // The worker builds the game with a search that stays above the loop.
    yield* pool.search(source, {
      strategy: "alphabeta",
      state: game.initial(),
      options: { depth: 1 },
    });
    const before = { stopped: pool.stopped(), replaced: pool.replaced() };
    // With a time budget (no watchdog of silence): after its first iteration, the search's
    // next one calls the looping moves() before it polls the flag.
    const iterated = yield* Deferred.make<void>();
    const fiber = yield* Effect.forkChild(pool.search(source, {
      strategy: "alphabeta",
      state: game.initial(),
      options: { timeMs: 1e9 },
      graceMs: 300,
      onProgress: (p) => {
        if (p._tag === "Iteration") Deferred.doneUnsafe(iterated, Effect.void);
      },
    }));
    yield* Deferred.await(iterated);
    // The interruption returns once the grace period is over and the worker terminated.
    yield* Fiber.interrupt(fiber).pipe(Effect.timeout(LIVENESS), Effect.orDie);
    assertEquals(pool.replaced() - before.replaced, 1, "the stuck worker was terminated");
    assertEquals(pool.stopped() - before.stopped, 0, "it never answered");
    assertEquals([pool.alive(), pool.busy()], [0, 0]);
    // A new worker takes the next search.
    const next = yield* pool.search(source, {
      strategy: "alphabeta",
      state: game.initial(),
      options: { depth: 1 },
    });
    assertEquals(next.depth, 1);
    assertEquals(pool.alive(), 1);
  }));
});

Deno.test("the grace period counts from the built game, also on a worker that ran another job", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const looping = yield* fixtureGame("looping.ts");
    const slow = yield* fixtureGame("slow_load.ts");
    // The worker (for plugins of the fixtures' folder) has built a game and run a job.
    yield* pool.search(looping.source, {
      strategy: "alphabeta",
      state: looping.game.initial(),
      options: { depth: 1 },
    });
    assertEquals(pool.alive(), 1);
    const before = { stopped: pool.stopped(), replaced: pool.replaced() };
    // Its next game takes 3 s to build; stopped at once, with 2 s of grace: the grace
    // starts when the game is built, so the worker answers the stop, and is not
    // terminated while it builds (as it would be 2 s after the stop).
    const fiber = yield* Effect.forkChild(pool.search(slow.source, {
      strategy: "alphabeta",
      state: slow.game.initial(),
      options: { depth: 40 },
      graceMs: 2000,
    }));
    yield* handedOver(pool);
    yield* Fiber.interrupt(fiber).pipe(Effect.timeout(LIVENESS), Effect.orDie);
    assertEquals(pool.replaced() - before.replaced, 0, "terminated while building its game");
    assertEquals(pool.stopped() - before.stopped, 1, "it answered the stop");
    assertEquals([pool.alive(), pool.busy()], [1, 0]);
  }));
});

Deno.test("a stop while the game builds: the grace period starts from the built game, then ends", async () => {
  await withWorker(Effect.gen(function* () {
    const pool = yield* WorkerPool;
    const { game, source } = yield* fixtureGame("slow_looping.ts");
    const before = { stopped: pool.stopped(), replaced: pool.replaced() };
    // Stopped at once, while its game builds (3 s); once built, its search loops in
    // moves() before it polls the flag: terminated 300 ms after the build, not a minute.
    const fiber = yield* Effect.forkChild(pool.search(source, {
      strategy: "alphabeta",
      state: game.initial(),
      options: { timeMs: 1e9 },
      graceMs: 300,
    }));
    yield* handedOver(pool);
    yield* Fiber.interrupt(fiber).pipe(Effect.timeout(LIVENESS), Effect.orDie);
    assertEquals(pool.replaced() - before.replaced, 1, "terminated by the grace period's end");
    assertEquals(pool.stopped() - before.stopped, 0);
    assertEquals([pool.alive(), pool.busy()], [0, 0]);
  }));
});
