/**
 * What guarding a user's plugin costs: the same alpha-beta search (no table) of a plugin
 * loaded from a file, in process, on the game as the plugin made it and on the guarded
 * game that `openGame` returns (every call recorded, every answer of `moves`, `chances`
 * and `outcome` checked). Medians of the node rate over many runs.
 *
 * `deno run -A bench/guard_overhead.ts [PLUGIN] [DEPTH]` (default
 * `tests/fixtures/connect4.ts` at depth 8)
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { makeGame } from "../core/plugin.ts";
import { openGame } from "../app/games.ts";
import type { Game } from "../core/game.ts";

const [specifier = "tests/fixtures/connect4.ts", depthText = "8"] = Deno.args;
const depth = Number(depthText);
const opened = await Effect.runPromise(openGame(specifier));
const raw = (await Effect.runPromise(makeGame(opened.plugin, {}))).game;
if (raw === opened.game) throw new Error(`${specifier} is not guarded (a built-in plugin?)`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Nodes per millisecond of one search. */
const rate = (game: Game<unknown>): number => {
  const t = performance.now();
  const r = alphabetaSearch(game, game.initial(), { depth, tt: false });
  return r.nodes / (performance.now() - t);
};

// The two in pairs, one right after the other, so that both see the same machine load;
// the overhead is the median of the pairs' ratios.
const plain: number[] = [], guarded: number[] = [], ratios: number[] = [];
for (let i = 0; i < 5; i++) rate(raw), rate(opened.game);
for (let i = 0; i < 31; i++) {
  // Either first in turn, so that neither always runs on a warmer machine.
  let p: number, g: number;
  if (i % 2 === 0) [p, g] = [rate(raw), rate(opened.game)];
  else [g, p] = [rate(opened.game), rate(raw)];
  plain.push(p);
  guarded.push(g);
  ratios.push(p / g);
}
console.log(
  `${specifier} alpha-beta depth ${depth}, no table: plugin's game ${
    median(plain).toFixed(0)
  } nodes/ms, guarded ${median(guarded).toFixed(0)} nodes/ms, overhead ${
    ((median(ratios) - 1) * 100).toFixed(1)
  }% (median of ${ratios.length} pairs)`,
);
