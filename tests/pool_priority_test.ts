/**
 * The worker pool's priority (`SearchTask.priority`): a search someone waits for (a
 * person's opponent on the server) goes ahead of the queued searches that are not. With
 * one worker held by a search, two searches queue, the one without priority first; once
 * the worker is free, the one with priority gets it first: the order of their ends shows
 * it (a pool of one runs one search at a time), not their times.
 */
import { assertEquals } from "../testing/deps.ts";
import { Deferred, Effect, Fiber } from "../core/deps.ts";
import { type GamePlugin, openGameWith } from "../core/plugin.ts";
import { WorkerPool, workerPoolLayer } from "../core/parallel/pool.ts";
import kalah from "../plugins/kalah/mod.ts";

const KALAH_URL = new URL("../plugins/kalah/mod.ts", import.meta.url).href;

const kalahGame = (options: Record<string, unknown>) =>
  Effect.runSync(
    openGameWith({}, { plugin: kalah as GamePlugin<unknown, unknown>, url: KALAH_URL }, options),
  );

Deno.test("the pool runs a search with priority before the queued ones without", async () => {
  const big = kalahGame({});
  const small = kalahGame({ pits: 4, stones: 3 });
  const ended: string[] = await Effect.runPromise(
    Effect.gen(function* () {
      const pool = yield* WorkerPool;
      const order: string[] = [];
      const iterated = yield* Deferred.make<void>();
      // A deep search holds the only worker until it is interrupted.
      const holder = yield* Effect.forkChild(pool.search(big.source, {
        strategy: "alphabeta",
        state: big.game.initial(),
        options: { depth: 40 },
        graceMs: 20_000,
        onProgress: () => Deferred.doneUnsafe(iterated, Effect.void),
      }));
      yield* Deferred.await(iterated);
      const queued = (label: string, priority: boolean) =>
        Effect.forkChild(
          Effect.tap(
            pool.search(small.source, {
              strategy: "alphabeta",
              state: small.game.initial(),
              options: { depth: 4 },
              ...(priority ? { priority } : {}),
            }),
            () => Effect.sync(() => order.push(label)),
          ),
          { startImmediately: true },
        );
      const plain = yield* queued("plain", false);
      const urgent = yield* queued("priority", true);
      assertEquals(pool.busy(), 1, "the worker still holds the deep search");
      yield* Fiber.interrupt(holder);
      yield* Fiber.join(plain);
      yield* Fiber.join(urgent);
      return order;
    }).pipe(Effect.provide(workerPoolLayer(1))),
  );
  assertEquals(ended, ["priority", "plain"]);
});
