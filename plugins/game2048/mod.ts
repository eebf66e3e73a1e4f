/**
 * 2048 on a w x h grid as seed 001 defines it: a two-player game where the computer
 * places a 2 (probability 0.9) or a 4 (0.1) on a uniformly chosen empty cell, and the
 * slider slides every tile left, right, up or down, merging equal neighbours once.
 *
 * In the protocol the slider is player 0 (it maximizes `value`), the computer's moves
 * are chance moves, and player 1 ("computer") never moves. The game starts on the empty
 * grid with the computer to move. Slides are written `L`, `R`, `U`, `D` (or left, right,
 * up, down, arrows); tiles as the seed shows them, `NewTile (x,y) v` (x the column, y the
 * row, from 0).
 *
 * The plugin's `expectimax` strategy is the fast 2048 expectimax (`expectimax.ts`);
 * `minimax` is the core's (the computer minimizes, seed 001's minimax); `tree_minimax` and
 * `tree_expectimax` are seed 001's own searches over the lazy game tree (`tree_search.ts`,
 * what `deno task testrun` plays). Seed 001's own functions on `[[Int]]` grids are in
 * `seed001.ts`.
 *
 * @module
 */
import { Effect, Schema } from "../../core/deps.ts";
import { definePlugin, type GamePlugin } from "../../core/plugin.ts";
import { about } from "./about.ts";
import { expectimax2048 } from "./expectimax.ts";
import { treeExpectimax, treeMinimax } from "./tree_search.ts";
import { createGame, type EvalName, type State2048 } from "./rules.ts";
import { picture2048 } from "./picture.ts";
import { type NTupleNetwork, withNetwork } from "./ntuple.ts";
import { loadWeights } from "./weights.ts";
import { withPicture } from "../svg.ts";

const size = (what: string) =>
  Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 16 }))
    .annotate({ description: what })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(4)));

/**
 * The network `--eval ntuple` reads without `--weights`, relative to the repository: the
 * packed 9x6 network that ships with ply (see the plugin's FIGURES.md, "The networks that
 * ship": how it was trained and packed; `nets/4x6.weights`, the one shipped before, is half
 * its memory).
 */
export const DEFAULT_WEIGHTS = "plugins/game2048/nets/9x6.weights";

/** Networks loaded in this thread, by file (a 9x6 network is 604 MB: read it once). */
const networks = new Map<string, NTupleNetwork>();

/**
 * The network of `--weights FILE`: a relative path from the directory the user ran the
 * task from (the default from the repository). Throws `WeightsError` (naming the file and
 * what to run) when it cannot be read.
 */
export const networkFile = (file: string): NTupleNetwork => {
  let path = file;
  if (!/^([a-z]:)?[\\/]/i.test(file)) {
    if (file === DEFAULT_WEIGHTS) path = new URL(`../../${file}`, import.meta.url).pathname;
    else {
      let cwd: string | undefined;
      try {
        cwd = Deno.env.get("INIT_CWD");
      } catch {
        cwd = undefined;
      }
      path = `${(cwd ?? Deno.cwd()).replace(/[\\/]?$/, "/")}${file}`;
    }
  }
  let net = networks.get(path);
  if (net === undefined) {
    const loaded = loadWeights(path, false, file);
    net = loaded.net;
    networks.set(path, net);
  }
  return net;
};

/** 2048's options: the grid's size, the evaluation and the network's file. */
export const Game2048Options = Schema.Struct({
  width: size("the grid's width (columns)"),
  height: size("the grid's height (rows)"),
  eval: Schema.Literals(["gradient", "monotone", "ntuple"])
    .annotate({
      description: "how the AI weighs a grid: gradient, big tiles toward a corner; " +
        "monotone, rows and columns in order, empty cells and merges (much stronger " +
        "play); or ntuple, a trained n-tuple network (--weights; the strongest, 4x4 only)",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("gradient" as const))),
  weights: Schema.optionalKey(
    Schema.Union([Schema.String, Schema.Number]).annotate({
      description: "the n-tuple network's file for --eval ntuple (made by deno task train " +
        `2048; default ${DEFAULT_WEIGHTS}, the network that ships with ply)`,
    }),
  ),
});

/** Decoded 2048 options. */
export type Game2048Options = typeof Game2048Options.Type;

/** 2048's rules and notation, for a person (`rules` in `play`). */
export const GAME2048_RULES =
  `2048: the computer places a tile, a 2 (nine times in ten) or a 4, on a random
empty cell; then you slide every tile left, right, up or down as far as it
goes. Two equal tiles that meet merge into one of twice the value, which is
added to the score (each tile merges once a slide). A slide that changes
nothing is not allowed; the game ends when no slide changes the grid. Aim for
a 2048 tile, and beyond. Grid: --width and --height (default 4x4).
Moves: L, R, U or D (or left, right, up, down, or an arrow key and Enter).
A new tile is written NewTile (x,y) v: value v at column x, row y, both from
0 at the top left; the board marks the tile just placed.`;

/**
 * The AI's strengths, weakest first: 2048 is solo, so these are the slider's own
 * (see the README).
 */
export const GAME2048_STRENGTHS: Readonly<Record<string, string>> = {
  easy: "expectimax:1",
  medium: "expectimax:100ms",
  strong: "expectimax:500ms,slides=5",
};

/** The 2048 plugin (id `2048`). */
const plugin: GamePlugin<Game2048Options, State2048> = definePlugin({
  ...about,
  options: Game2048Options,
  create: (o: Game2048Options) => {
    if (o.eval !== "ntuple") {
      return withPicture(picture2048, createGame(o.width, o.height, o.eval as EvalName));
    }
    if (o.width !== 4 || o.height !== 4) throw new Error("--eval ntuple plays 4x4 grids only");
    // The network values the searches' leaves; the game's own value (other strategies,
    // and boards beyond the compact one) is the monotone evaluation.
    const net = networkFile(String(o.weights ?? DEFAULT_WEIGHTS));
    return withNetwork(withPicture(picture2048, createGame(4, 4, "monotone")), net);
  },
  strategies: {
    expectimax: expectimax2048,
    tree_minimax: treeMinimax,
    tree_expectimax: treeExpectimax,
  },
  rules: GAME2048_RULES,
  advancedOptions: ["eval", "weights"],
  strengths: GAME2048_STRENGTHS,
  defaultOpponent: "random",
});
export default plugin;
