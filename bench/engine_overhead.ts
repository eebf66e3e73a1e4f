/**
 * What running a search through the live engine (in a worker) costs over running it in
 * process: per search, for a search of about 1 ms and one of about 100 ms, and the
 * worker's start-up (paid once per program). Medians over many runs.
 *
 * `deno run -A --unstable-worker-options bench/engine_overhead.ts`
 *
 * @module
 */
import { Effect, Layer } from "../core/deps.ts";
import { inProcessEngine, liveEngine, search, type SearchRequest } from "../core/engine/engine.ts";
import { workerPoolLayer } from "../core/parallel/pool.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { openGame } from "../app/games.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { game, source } = await Effect.runPromise(openGame("kalah"));
// With its source, the live engine searches in a worker (without, in process).
const request = (depth: number): SearchRequest<unknown> => ({
  strategy: alphabetaStrategy,
  game,
  source,
  state: game.initial(),
  options: { depth, tt: false },
});

/** Median wall time of `runs` searches (after `warm` unmeasured ones). */
const time = (req: SearchRequest<unknown>, runs: number, warm = 5) =>
  Effect.gen(function* () {
    const ms: number[] = [];
    for (let i = 0; i < warm + runs; i++) {
      const t = performance.now();
      yield* search(req);
      if (i >= warm) ms.push(performance.now() - t);
    }
    return median(ms);
  });

const live = liveEngine.pipe(Layer.provideMerge(workerPoolLayer(1)));

// Start-up: a fresh pool's first search (depth 1) minus the same search in process.
const startups: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  await Effect.runPromise(search(request(1)).pipe(Effect.provide(live)));
  startups.push(performance.now() - t);
}
const tiny = await Effect.runPromise(time(request(1), 50).pipe(Effect.provide(inProcessEngine)));
console.log(
  `worker start-up (first search of a new engine): ${(median(startups) - tiny).toFixed(1)} ms`,
);

for (const depth of [8, 12]) {
  const here = await Effect.runPromise(
    time(request(depth), depth < 10 ? 200 : 15).pipe(Effect.provide(inProcessEngine)),
  );
  const there = await Effect.runPromise(
    time(request(depth), depth < 10 ? 200 : 15).pipe(Effect.provide(live)),
  );
  console.log(
    `Kalah alpha-beta depth ${depth}: in process ${here.toFixed(2)} ms, ` +
      `in the worker ${there.toFixed(2)} ms, overhead ${(there - here).toFixed(2)} ms per search`,
  );
}

// A user's plugin searches in a plugin thread (sandboxed, its heap bounded): the same
// measure for the Connect Four fixture.
const user = await Effect.runPromise(
  openGame(new URL("../tests/fixtures/connect4.ts", import.meta.url).href),
);
const userRequest: SearchRequest<unknown> = {
  strategy: alphabetaStrategy,
  game: user.game,
  source: user.source,
  state: user.game.initial(),
  options: { depth: 5, tt: false },
};
const here = await Effect.runPromise(time(userRequest, 100).pipe(Effect.provide(inProcessEngine)));
const there = await Effect.runPromise(time(userRequest, 100).pipe(Effect.provide(live)));
console.log(
  `a user's Connect Four, alpha-beta depth 5: in process ${here.toFixed(2)} ms, ` +
    `in its plugin thread ${there.toFixed(2)} ms, overhead ${
      (there - here).toFixed(2)
    } ms per search`,
);
