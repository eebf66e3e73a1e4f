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
import { Effect } from "../../../core/deps.ts";
import { Terminal } from "../../../app/terminal.ts";
import { writeFileAtomic } from "../../../app/files.ts";
import { parseCommandLine, runMain, UsageError, userPath } from "../../../app/cli.ts";
import { EXAMPLE_NAMES, renderInThread } from "./render_host.ts";

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

const fail = (message: string) => Effect.fail(new UsageError({ message }));

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
  if (typeof flags.example === "string") {
    if (!EXAMPLE_NAMES.includes(flags.example)) {
      return yield* fail(
        `--example must be one of ${EXAMPLE_NAMES.join(", ")}; got '${flags.example}'`,
      );
    }
    if (flags.moves !== undefined || Object.keys(gameOptions).length > 0) {
      return yield* fail("--example is a whole board: drop --moves and the game options");
    }
  }
  // The rest is checked where the picture is made, off the main thread.
  const { svg, what } = yield* renderInThread({
    ...(typeof flags.example === "string" ? { example: flags.example } : {}),
    options: gameOptions,
    moves: typeof flags.moves === "string" ? flags.moves : "",
    ...(flags.tree !== undefined ? { tree: String(flags.tree) } : {}),
    ...(typeof flags.label === "string" ? { label: flags.label } : {}),
    dropPruned: flags["drop-pruned"] === true,
    scale,
  });
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
