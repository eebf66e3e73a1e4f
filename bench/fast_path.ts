/**
 * What a game's fast path (`Game.fast`) gains: the generic alpha-beta with its table
 * (the default 4 MB), in process, on the game as opened (for a user's plugin, guarded as
 * in its thread) with its cursor and without it (the same game, `fast` hidden), runs
 * interleaved, the same nodes each time (checked). Medians of the node rate.
 *
 * `deno run -A bench/fast_path.ts [GAME] [DEPTH] [RUNS]` (default `kalah` at depth 14,
 * 5 runs; `tests/fixtures/connect4_fast.ts 12` for the user's Connect Four)
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { openGame } from "../app/games.ts";
import type { Game } from "../core/game.ts";

const [specifier = "kalah", depthText = "14", runsText = "5"] = Deno.args;
const depth = Number(depthText), runs = Number(runsText);
const fast = (await Effect.runPromise(openGame(specifier))).game as Game<unknown>;
if (fast.fast === undefined) throw new Error(`${specifier} has no fast path`);
const plain: Game<unknown> = Object.create(fast, { fast: { value: undefined } });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let nodes = -1;
/** Nodes per second of one search. */
const rate = (game: Game<unknown>): number => {
  const t = performance.now();
  const r = alphabetaSearch(game, game.initial(), { depth });
  const ms = performance.now() - t;
  if (nodes >= 0 && r.nodes !== nodes) throw new Error(`${r.nodes} nodes, not ${nodes}`);
  nodes = r.nodes;
  return (r.nodes / ms) * 1000;
};
rate(fast), rate(plain); // warm up
const rates = { fast: [] as number[], plain: [] as number[] };
for (let i = 0; i < runs; i++) {
  rates.fast.push(rate(fast));
  rates.plain.push(rate(plain));
}
const [f, p] = [median(rates.fast), median(rates.plain)];
console.log(
  `${specifier} depth ${depth}: ${nodes} nodes; fast path ${(f / 1e6).toFixed(2)} M nodes/s, ` +
    `plain ${(p / 1e6).toFixed(2)} M nodes/s (medians of ${runs}); ${(f / p).toFixed(2)}x`,
);
