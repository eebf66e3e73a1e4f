/**
 * `deno task render domineering [--OPTION VALUE ...] [--moves LIST | --example NAME]
 * [--tree D [--label none|minimax|alphabeta] [--drop-pruned]] [--scale S] [--out FILE]`
 *
 * Writes an SVG picture (seed 003's `boardSVG` / `gametreeSVG`): the board after the
 * moves, with the dominoes coloured by player and numbered by round, or the game tree
 * from that position cut at depth D, labelled with minimax or alpha-beta scores.
 *
 * @module
 */
import { openGame } from "../../../app/games.ts";
import { Effect, Result } from "../../../core/deps.ts";
import { Terminal } from "../../../app/terminal.ts";
import { writeFileAtomic } from "../../../app/files.ts";
import { cellOf, type DomineeringGame } from "../board.ts";
import {
  alphabeta,
  alphaDom_vs_LeeSedom,
  alphaDom_vs_RanDom,
  type Board,
  board4x4_3,
  empty,
  gametree,
  minimax,
  moveLegal,
  prune,
  score,
  showScore,
} from "../seed003.ts";
import { alphabetaSVG, boardSVG, gametreeSVG, labelledTreeSVG } from "../svg.ts";
import { mapTree, type Tree } from "../../../core/tree.ts";
import { parseCommandLine, runMain, UsageError, userPath } from "../../../app/cli.ts";

const USAGE =
  `Usage: deno task render domineering [--OPTION VALUE ...] [--moves LIST | --example NAME]
          [--tree D [--label none|minimax|alphabeta] [--drop-pruned]] [--scale S] [--out FILE]
Writes an SVG picture of a Domineering board, or of its game tree.

  --moves LIST     moves from the start, e.g. b1,a3 (default: the empty board)
  --example NAME   a ready-made board instead: board4x4_3 (4x4 after two moves, H to
                   move), alphadom-leesedom or alphadom-random (games of the alpha-beta
                   player Alpha Dom, as H, on a cross-hatched board)
  --tree D         draw the game tree from the position, cut at depth D (all: to the end)
  --label KIND     tree labels: none (default), minimax (each position's minimax score:
                   at the leaves, V's legal moves minus H's, or a win when the side to
                   move has none), alphabeta (the values alpha-beta proves, its pruned
                   branches crossed out)
  --drop-pruned    with --label alphabeta: leave pruned nodes out instead of crossing them
  --scale S        size factor (default 1)
  --out FILE       the SVG file to write, relative to your directory (default
                   domineering.svg there; --out=- prints it)
Game options (--board, --shape, --first): deno task analyze domineering --help
`;

const FLAGS = {
  string: ["moves", "example", "tree", "label", "scale", "out"],
  boolean: ["drop-pruned"],
} as const;

const EXAMPLES: Readonly<Record<string, Board>> = {
  board4x4_3,
  "alphadom-leesedom": alphaDom_vs_LeeSedom,
  "alphadom-random": alphaDom_vs_RanDom,
};

/** The number of nodes of a tree, counting no further than `limit + 1`. */
const sizeUpTo = <M, V>(t: Tree<M, V>, limit: number): number => {
  let n = 0;
  const walk = (x: Tree<M, V>): void => {
    if (++n > limit) return;
    for (const [, c] of x.children()) {
      walk(c);
      if (n > limit) return;
    }
  };
  walk(t);
  return n;
};

const fail = (message: string) => Effect.fail(new UsageError({ message }));

/** The seed board for the game's options and moves (in the game's notation). */
const boardAfter = (
  game: DomineeringGame,
  text: string,
): Effect.Effect<Board, UsageError> =>
  Effect.gen(function* () {
    const g = game.geometry;
    let state = game.initial();
    let b: Board = {
      ...empty(g.order.map((m) => cellOf(g, m))),
      turn: game.toMove(state) === 0 ? "V" : "H",
    };
    const words = text.split(",").map((w) => w.trim()).filter((w) => w !== "");
    for (const [i, w] of words.entries()) {
      const r = game.parseMove(state, w);
      if (Result.isFailure(r)) return yield* fail(`--moves: move ${i + 1} '${w}': ${r.failure}`);
      state = game.play(state, r.success);
      b = moveLegal(b, cellOf(g, r.success));
    }
    return b;
  });

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* Effect.as(term.print(USAGE), 0);
  if (positional.length !== 1 || positional[0] !== "domineering") {
    return yield* fail(
      `render draws Domineering boards and trees: deno task render domineering ...; got '${
        positional.join(" ")
      }'`,
    );
  }
  const scale = flags.scale === undefined ? 1 : Number(flags.scale);
  if (!(scale > 0 && scale <= 20)) {
    return yield* fail(`--scale must be a number above 0 and at most 20, got '${flags.scale}'`);
  }
  let b: Board;
  if (typeof flags.example === "string") {
    const ex = EXAMPLES[flags.example];
    if (ex === undefined) {
      return yield* fail(
        `--example must be one of ${Object.keys(EXAMPLES).join(", ")}; got '${flags.example}'`,
      );
    }
    if (flags.moves !== undefined || Object.keys(gameOptions).length > 0) {
      return yield* fail("--example is a whole board: drop --moves and the game options");
    }
    b = ex;
  } else {
    const opened = yield* openGame("domineering", gameOptions);
    const game = opened.game as unknown as DomineeringGame;
    b = yield* boardAfter(game, typeof flags.moves === "string" ? flags.moves : "");
  }
  const label = typeof flags.label === "string" ? flags.label : "none";
  if (!["none", "minimax", "alphabeta"].includes(label)) {
    return yield* fail(`--label must be none, minimax or alphabeta; got '${label}'`);
  }
  let svg: string, what: string;
  if (flags.tree !== undefined) {
    const t = String(flags.tree);
    const depth = t === "all" ? Infinity : /^\d+$/.test(t) ? Number(t) : NaN;
    if (Number.isNaN(depth)) {
      return yield* fail(`--tree must be a depth (0, 1, ...) or all, got '${t}'`);
    }
    const tree = prune(depth, gametree(b));
    const nodes = sizeUpTo(tree, 20000);
    if (nodes > 20000) {
      return yield* fail("that tree has more than 20000 nodes; pick a smaller --tree depth");
    }
    svg = yield* Effect.try({
      try: () =>
        label === "minimax"
          ? labelledTreeSVG(
            mapTree(([bd, v]) => [bd, showScore(v)] as const, minimax(score, tree)),
            scale,
          )
          : label === "alphabeta"
          ? alphabetaSVG(alphabeta(score, tree), scale, flags["drop-pruned"] === true)
          : gametreeSVG(tree, scale),
      catch: (e) => new UsageError({ message: e instanceof Error ? e.message : String(e) }),
    });
    what = `the game tree (${nodes} nodes${label === "none" ? "" : `, ${label} labels`})`;
  } else {
    if (flags.label !== undefined || flags["drop-pruned"] === true) {
      return yield* fail("--label and --drop-pruned go with --tree");
    }
    svg = boardSVG(b, scale);
    what = `the board (${b.hist.length} moves, ${b.turn} to move)`;
  }
  const shown = typeof flags.out === "string" ? flags.out : "domineering.svg";
  if (shown === "-") {
    yield* term.print(svg);
    return 0;
  }
  yield* Effect.try({
    try: () => writeFileAtomic(userPath(shown), svg),
    catch: (e) =>
      new UsageError({ message: `cannot write ${shown}: ${e instanceof Error ? e.message : e}` }),
  });
  yield* term.print(`wrote ${shown}: ${what}\n`);
  return 0;
});

if (import.meta.main) runMain(main, "deno task render");
