/**
 * The silence watchdog of a search without a time budget (`core/parallel/pool.ts`) is not
 * fooled by a busy owner: when the thread that owns the pool is blocked for longer than
 * the silence limit (a loaded machine, a long synchronous call into a plugin thread), the
 * worker's heartbeats wait in its message queue while the watchdog's timer falls due;
 * they are taken first, the search goes on, no worker is replaced, and it stops when
 * asked (the handshake: it answers "stopped"). A count, not a time, decides.
 */
import { assertEquals } from "../testing/deps.ts";
import { Deferred, Effect, Fiber } from "../core/deps.ts";
import { type GamePlugin, openGameWith } from "../core/plugin.ts";
import { WorkerPool, workerPoolLayer } from "../core/parallel/pool.ts";
import { DEFAULT_LIMITS } from "../core/host/thread.ts";
import { HEARTBEAT_MS } from "../core/parallel/protocol.ts";
import kalah from "../plugins/kalah/mod.ts";

const KALAH_URL = new URL("../plugins/kalah/mod.ts", import.meta.url).href;

Deno.test("watchdog: a search whose owner was blocked past the silence limit goes on", async () => {
  const opened = Effect.runSync(
    openGameWith({}, { plugin: kalah as GamePlugin<unknown, unknown>, url: KALAH_URL }, {}),
  );
  await Effect.runPromise(
    Effect.gen(function* () {
      const pool = yield* WorkerPool;
      const beat = Deferred.makeUnsafe<void>();
      let beats = 0;
      // A deep search of standard Kalah, with no time budget: only its silence is watched.
      const fiber = yield* Effect.forkChild(pool.search(opened.source, {
        strategy: "alphabeta",
        state: opened.game.initial(),
        options: { depth: 60 },
        onProgress: (p) => {
          if (p._tag !== "Heartbeat") return;
          beats++;
          Deferred.doneUnsafe(beat, Effect.void);
        },
      }));
      yield* Deferred.await(beat);
      // The owner blocked for three silence limits: the worker's messages pile up.
      const blockMs = 3 * Math.max(DEFAULT_LIMITS.callLimitMs, 2 * HEARTBEAT_MS);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, blockMs);
      // Whatever ran first once the owner woke (its timer or the queued heartbeats), the
      // search is still on: a later heartbeat arrives on the same worker.
      const seen = beats;
      const later = Deferred.makeUnsafe<void>();
      const waitLater = setInterval(() => {
        if (beats > seen + 1) Deferred.doneUnsafe(later, Effect.void);
      }, 50);
      yield* Deferred.await(later).pipe(
        Effect.ensuring(Effect.sync(() => clearInterval(waitLater))),
      );
      assertEquals(pool.replaced(), 0, "no worker was taken for a stuck one");
      const stopped = pool.stopped();
      yield* Fiber.interrupt(fiber);
      assertEquals(pool.stopped() - stopped, 1, "the search answered its stop");
      assertEquals(pool.replaced(), 0);
    }).pipe(Effect.provide(workerPoolLayer(1))),
  );
});
