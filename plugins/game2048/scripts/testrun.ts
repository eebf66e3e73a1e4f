/**
 * `deno task testrun (minimax|expectimax) WIDTH HEIGHT DEPTH [--seed N] [--eval E] [--fast]`
 *
 * Seed 001's `testrun`: plays one whole game of 2048 on a WIDTH x HEIGHT grid. The
 * slider chooses each slide with seed 001's minimax (the computer minimizing) or
 * expectimax over the lazy game tree cut at DEPTH plies (`core/tree.ts`); the computer's
 * tiles are drawn with the seed's weights (0.9 for a 2, 0.1 for a 4, on a uniformly chosen
 * empty cell) from the seeded random, so `--seed` replays a game. The board is printed
 * after every move with the seed's `showGame`; the final score and largest tile close.
 *
 * `--fast` searches with the fast engines instead of the tree (the core's plain minimax,
 * the plugin's expectimax without a probability cut-off): the same values, much sooner.
 * Either way the slider's searches run in the engine's worker (`tree_minimax` /
 * `tree_expectimax` are the plugin's strategies for the tree), so Ctrl-C stops them.
 *
 * @module
 */
import { Effect } from "../../../core/deps.ts";
import { CHANCE, type Game } from "../../../core/game.ts";
import { runGame } from "../../../app/match.ts";
import type { Agent } from "../../../app/players/agents.ts";
import { freshSeed } from "../../../app/players/agents.ts";
import { openHostedGame } from "../../../app/games.ts";
import type { GameSource } from "../../../core/source.ts";
import { search } from "../../../core/engine/engine.ts";
import { minimaxStrategy } from "../../../core/search/strategies.ts";
import { Terminal } from "../../../app/terminal.ts";
import { expectimax2048 } from "../expectimax.ts";
import { treeExpectimax, treeMinimax } from "../tree_search.ts";
import { maxTile, showCells, type State2048 } from "../rules.ts";
import { intFlag, parseCommandLine, runMain, UsageError } from "../../../app/cli.ts";

const USAGE = `Usage: deno task testrun (minimax|expectimax) WIDTH HEIGHT DEPTH [--seed N]
Plays one game of 2048 on a WIDTH x HEIGHT grid with a plain search over the whole game
tree, printing the board after every move, then the score and the largest tile.

  minimax       the slider maximizes, the computer minimizes the value
  expectimax    the slider maximizes, the computer's tiles are weighted by probability
  WIDTH HEIGHT  the grid, 1-16 each (the usual: 4 4)
  DEPTH         plies searched from each position, 1-20 (slide, tile, slide, ...)
  --seed N      seed of the computer's tiles (default: a fresh one, printed)
  --eval E      how the slider weighs a grid: gradient (big tiles toward a corner,
                the default) or monotone (as play's 2048 --eval)
  --fast        search with the fast engines (same values as the tree, much sooner)

Examples: deno task testrun minimax 4 4 4
          deno task testrun expectimax 4 4 4
`;

const FLAGS = { string: ["seed", "eval"], boolean: ["fast"], positionals: 4 } as const;

/**
 * The slider's player in `testrun`: seed 001's decision over the depth-cut tree, or the
 * same from a fast search. It draws nothing from the seeded random, so the tiles of a seed
 * are the same whichever algorithm slides. With the game's `source`, the engine searches
 * in a worker that opens the same game.
 */
export const testrunAgent = (
  kind: "minimax" | "expectimax",
  depth: number,
  fast: boolean,
  source?: GameSource,
): Agent<State2048> => {
  const strategy = fast
    ? (kind === "minimax" ? minimaxStrategy : expectimax2048)
    : (kind === "minimax" ? treeMinimax : treeExpectimax);
  return {
    name: `${kind}:${depth}`,
    choose: (game, state) =>
      Effect.map(
        search({ strategy, game, source, state, options: { depth, minProbability: 0 } }),
        ({ move }) =>
          move === undefined
            ? { _tag: "Stop", reason: "no legal move" } as const
            : { _tag: "Move", move } as const,
      ),
  };
};

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* Effect.as(term.print(USAGE), 0);
  if (positional.length === 0) {
    yield* Effect.sync(() => console.error(USAGE));
    return 2;
  }
  const [kind, ...numbers] = positional;
  if (kind !== "minimax" && kind !== "expectimax") {
    return yield* new UsageError({
      message: `the algorithm is minimax or expectimax, not '${kind}'`,
    });
  }
  if (numbers.length !== 3 || numbers.some((n) => !/^\d+$/.test(n))) {
    return yield* new UsageError({
      message: `expected WIDTH HEIGHT DEPTH as numbers after ${kind}, got '${numbers.join(" ")}'`,
    });
  }
  const extra = Object.keys(gameOptions);
  if (extra.length > 0) {
    return yield* new UsageError({ message: `unknown flag --${extra[0]}` });
  }
  const [width, height, depth] = numbers.map(Number);
  if (depth < 1 || depth > 20) {
    return yield* new UsageError({ message: `DEPTH must be from 1 to 20, got ${depth}` });
  }
  const seed = flags.seed === undefined
    ? freshSeed()
    : yield* intFlag(flags, "seed", 0, 0, 2 ** 31 - 1);
  const evaluation = typeof flags.eval === "string" ? flags.eval : "gradient";
  // Hosted in its plugin thread (never on this one); the searches run in the engine's workers.
  const opened = yield* openHostedGame("2048", { width, height, eval: evaluation });
  const game = opened.game as Game<State2048>;
  const { options, source } = opened;
  const fast = flags.fast === true;
  const n = width * height;
  yield* term.print(
    `2048 ${width}x${height}: the slider plays ${kind} at depth ${depth}` +
      `${evaluation === "gradient" ? "" : ` (${evaluation} evaluation)`}` +
      `${fast ? " (fast engine)" : ""}, seed ${seed}\n\n${
        showCells(game.initial(), width, height)
      }\n`,
  );
  const { final, transcript } = yield* runGame(
    game,
    [testrunAgent(kind, depth, fast, source), testrunAgent(kind, depth, fast, source)],
    {
      gameId: "2048",
      options,
      seed,
      interrupted: term.interrupted,
      interruption: term.interruption,
      onEvent: (e) =>
        e._tag === "Moved"
          ? term.print(
            `\nMove: ${e.by === CHANCE ? e.notation : `Slide ${e.notation}`}\n` +
              `${showCells(e.state, width, height)}\n`,
          )
          : Effect.void,
    },
  );
  const slides = transcript.moves.filter((m) => m.by !== CHANCE).length;
  const ended = transcript.result.reason === "end" ? "Game over" : "Stopped";
  yield* term.print(
    `\n${ended} after ${slides} slides (${transcript.moves.length} moves in all).\n` +
      `Score: ${final[n + 1]}\nLargest tile: ${maxTile(final, n)}\n` +
      `Replay: deno task testrun ${kind} ${width} ${height} ${depth} --seed ${seed}` +
      `${evaluation === "gradient" ? "" : ` --eval ${evaluation}`}${fast ? " --fast" : ""}\n`,
  );
  return 0;
}).pipe(Effect.scoped);

if (import.meta.main) runMain(main, "deno task testrun");
