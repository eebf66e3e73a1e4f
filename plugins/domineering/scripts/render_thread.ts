/**
 * `deno task render`'s plugin thread (started by `render_host.ts` through
 * `spawnPluginThread`, its heap bounded): makes the board after the moves (or a ready-made
 * one), the game tree cut at the depth asked for with its minimax or alpha-beta labels,
 * and the SVG text (seed 003's `seed003.ts` and `svg.ts`), then sends the text back, or
 * the user's mistake it found (a move that is not legal, an option, a tree too big). It
 * counts its steps in shared memory (`RENDER_CELL`: a move replayed, a tree node's
 * children generated) and says which function runs, for the main thread, which watches.
 *
 * @module
 */
import { Effect, Result } from "../../../core/deps.ts";
import { threadData } from "../../../core/host/inside.ts";
import { ownerPort } from "../../../core/host/inside.ts";
import { openGame } from "../../../app/games.ts";
import { mapTree, node, type Tree } from "../../../core/tree.ts";
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
import {
  RENDER_CELL,
  RENDER_FUNCTIONS,
  type RenderRequest,
  type RenderThreadData,
  type RenderThreadMessage,
} from "./render_host.ts";

const { request, cells } = await threadData<RenderThreadData>();
const owner = ownerPort();
const post = (m: RenderThreadMessage) => owner.post(m);
const progress = new Int32Array(cells);

/** Says that the plugin's function `fn` (one of `RENDER_FUNCTIONS`) runs now. */
const running = (fn: string) => {
  Atomics.store(progress, RENDER_CELL.fn, RENDER_FUNCTIONS.indexOf(fn) + 1);
  step();
};
const step = () => void Atomics.add(progress, RENDER_CELL.steps, 1);

/** A user's mistake: the program refuses the request with this message. */
class Refused extends Error {}

const EXAMPLES: Readonly<Record<string, Board>> = {
  board4x4_3,
  "alphadom-leesedom": alphaDom_vs_LeeSedom,
  "alphadom-random": alphaDom_vs_RanDom,
};

/** The tree, each node's children counted as a step when they are generated. */
const counted = <M, V>(t: Tree<M, V>): Tree<M, V> =>
  node(t.label, function* () {
    step();
    for (const [m, c] of t.children()) yield [m, counted(c)] as const;
  });

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

/** The seed board for the game's options and moves (in the game's notation). */
const boardAfter = async (
  options: Readonly<Record<string, unknown>>,
  text: string,
): Promise<Board> => {
  running("create");
  const opened = await Effect.runPromise(Effect.result(openGame("domineering", options)));
  if (Result.isFailure(opened)) throw new Refused(opened.failure.message);
  const game = opened.success.game as unknown as DomineeringGame;
  running("play");
  const g = game.geometry;
  let state = game.initial();
  let b: Board = {
    ...empty(g.order.map((m) => cellOf(g, m))),
    turn: game.toMove(state) === 0 ? "V" : "H",
  };
  const words = text.split(",").map((w) => w.trim()).filter((w) => w !== "");
  for (const [i, w] of words.entries()) {
    step();
    const r = game.parseMove(state, w);
    if (Result.isFailure(r)) throw new Refused(`--moves: move ${i + 1} '${w}': ${r.failure}`);
    state = game.play(state, r.success);
    b = moveLegal(b, cellOf(g, r.success));
  }
  return b;
};

/** The picture a request asks for on board `b`, and what it shows; a user's mistake is `Refused`. */
const draw = (rq: RenderRequest, b: Board): { svg: string; what: string } => {
  const label = rq.label ?? "none";
  if (!["none", "minimax", "alphabeta"].includes(label)) {
    throw new Refused(`--label must be none, minimax or alphabeta; got '${label}'`);
  }
  if (rq.tree === undefined) {
    if (rq.label !== undefined || rq.dropPruned) {
      throw new Refused("--label and --drop-pruned go with --tree");
    }
    running("boardSVG");
    return {
      svg: boardSVG(b, rq.scale),
      what: `the board (${b.hist.length} moves, ${b.turn} to move)`,
    };
  }
  const t = rq.tree;
  const depth = t === "all" ? Infinity : /^\d+$/.test(t) ? Number(t) : NaN;
  if (Number.isNaN(depth)) {
    throw new Refused(`--tree must be a depth (0, 1, ...) or all, got '${t}'`);
  }
  const fn = label === "minimax"
    ? "labelledTreeSVG"
    : label === "alphabeta"
    ? "alphabetaSVG"
    : "gametreeSVG";
  running(fn);
  const tree = prune(depth, counted(gametree(b)));
  const nodes = sizeUpTo(tree, 20000);
  if (nodes > 20000) {
    throw new Refused("that tree has more than 20000 nodes; pick a smaller --tree depth");
  }
  let svg: string;
  try {
    svg = label === "minimax"
      ? labelledTreeSVG(
        mapTree(([bd, v]) => [bd, showScore(v)] as const, minimax(score, tree)),
        rq.scale,
      )
      : label === "alphabeta"
      ? alphabetaSVG(alphabeta(score, tree), rq.scale, rq.dropPruned)
      : gametreeSVG(tree, rq.scale);
  } catch (e) {
    throw new Refused(e instanceof Error ? e.message : String(e));
  }
  return {
    svg,
    what: `the game tree (${nodes} nodes${label === "none" ? "" : `, ${label} labels`})`,
  };
};

const failed = (e: unknown) =>
  post(
    e instanceof Refused ? { type: "refused", message: e.message } : {
      type: "crash",
      message: e instanceof Error ? e.message : String(e),
      ...(e instanceof Error && e.stack !== undefined ? { trace: e.stack } : {}),
    },
  );

/** Draws in a task of its own, then says what it drew or what went wrong. */
const drawLater = (b: Board) =>
  // Not in a promise's continuation nor in the module's evaluation: a thread that ran out
  // of memory there was not reported dead (its thread ended, code 0, with no error).
  setTimeout(() => {
    try {
      post({ type: "done", ...draw(request, b) });
    } catch (e) {
      failed(e);
    }
  }, 0);

if (request.example !== undefined) drawLater(EXAMPLES[request.example]);
else boardAfter(request.options, request.moves).then(drawLater, failed);
