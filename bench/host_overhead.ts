/**
 * What running a game in its plugin thread costs (`core/host/`): the start of a hosted
 * game (a built-in's, and a user's in its sandbox) and the time of one call, against the
 * same call in process, over the calls of random Kalah games (a person's move makes a
 * few: its parse, the move, the new position's moves, picture and outcome).
 *
 * Run: `deno run -A --unstable-worker-options bench/host_overhead.ts`
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { hostGame } from "../core/host/game.ts";
import { DEFAULT_LIMITS } from "../core/host/thread.ts";
import { openGame } from "../app/games.ts";
import type { Game } from "../core/game.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Microseconds per call over random games (moves, play, outcome, toMove, render). */
const perCall = (game: Game<unknown>, games: number): number => {
  let calls = 0;
  const t = performance.now();
  let seed = 1;
  for (let g = 0; g < games; g++) {
    let s = game.initial();
    for (;;) {
      game.render(s);
      game.toMove(s);
      game.outcome(s);
      const ms = game.moves(s);
      calls += 4;
      if (ms.length === 0) break;
      seed = (seed * 16807) % 2147483647;
      s = game.play(s, ms[seed % ms.length]);
      calls++;
    }
  }
  return ((performance.now() - t) * 1000) / calls;
};

const { game, source } = await Effect.runPromise(openGame("kalah"));
const user = new URL("../tests/fixtures/connect4.ts", import.meta.url).href;
const starts: Record<string, number[]> = { builtin: [], user: [] };
const hosted: number[] = [];
const local: number[] = [];
for (let run = 0; run < 5; run++) {
  await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
    let t = performance.now();
    const h = yield* hostGame({ source, label: "kalah", trusted: true, limits: DEFAULT_LIMITS });
    starts.builtin.push(performance.now() - t);
    t = performance.now();
    yield* hostGame({
      source: { url: user, options: {} },
      label: "connect4",
      trusted: false,
      limits: DEFAULT_LIMITS,
    });
    starts.user.push(performance.now() - t);
    hosted.push(perCall(h.game, 20));
    local.push(perCall(game, 20));
  })));
}
console.log(
  `start of a hosted game: built-in ${median(starts.builtin).toFixed(0)} ms, ` +
    `user's (sandboxed) ${median(starts.user).toFixed(0)} ms (medians of 5)`,
);
console.log(
  `one call: hosted ${median(hosted).toFixed(1)} µs, in process ${
    median(local).toFixed(2)
  } µs (medians of 5 runs of 20 random Kalah games)`,
);
