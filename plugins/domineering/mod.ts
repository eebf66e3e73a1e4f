/**
 * Domineering on any board (seed 003): H places horizontal dominoes, V vertical ones,
 * and whoever cannot move loses. Boards are rectangles (`--board 8x8`), crosshatches
 * (`--shape hatch:2`), Sierpinski carpets (`--shape carpet:2`), pictures
 * (`--shape "picture:.../.#./..."`) or any list of cells (`--shape "cells:(1,1) (2,1)"`).
 *
 * V is player 0 and maximizes (seed 003's `Win V` is `+WIN`), H is player 1 and moves
 * first unless `--first V` (or an odd carpet). Moves name the domino's lower-left cell:
 * `b3` (column b, row 3; `a1` is the lower left) or `(2,3)` / `2:3`.
 *
 * The plugin's `solve` strategy is an exact solver (`deno task analyze domineering
 * --board 6x6 --solve`).
 *
 * @module
 */
import { Effect, Schema } from "../../core/deps.ts";
import { definePlugin } from "../../core/plugin.ts";
import { about } from "./about.ts";
import { WIN } from "../../core/game.ts";
import type { SearchOptions, SearchResult, SequentialStrategy } from "../../core/search/types.ts";
import { slot } from "../../core/search/keep.ts";
import type { Game } from "../../core/game.ts";
import {
  type DomineeringGame,
  domineeringGame,
  type DomState,
  type Geometry,
  geometry,
  MAX_SIDE,
  movesFor,
  orderByHarm,
  playMove,
  stateValue,
  turnOf,
} from "./board.ts";
import { board, carpet, type Cell, fromPicture, hatch, type Player } from "./seed003.ts";
import {
  createSolver,
  type RootProgress,
  type SolveInput,
  type Solver,
  SolveStopped,
} from "./solver.ts";
import { domineeringPicture } from "./picture.ts";
import { withPicture } from "../svg.ts";

const RECT = /^\s*(\d+)\s*[x×*]\s*(\d+)\s*$/i;

/** Reads `WxH` (or `N` for a square) as a width and height; the error says what is expected. */
export const parseRect = (text: string | number): { width: number; height: number } => {
  const t = String(text);
  const m = RECT.exec(t) ?? (/^\s*(\d+)\s*$/.test(t) ? [t, t, t] : null);
  if (m === null) throw new RangeError(`expected WxH such as 6x6 (width x height), got '${t}'`);
  const width = Number(m[1]), height = Number(m[2]);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    throw new RangeError(`width and height must be 1 to ${MAX_SIDE}, got ${width}x${height}`);
  }
  return { width, height };
};

/** A board shape: its cells in move order, and who starts when `--first auto`. */
export interface Shape {
  /** The cells in the order moves are listed. */
  readonly cells: readonly Cell[];
  /** The seed's first player for this shape. */
  readonly first: Player;
  /** A short description (`6x6`, `hatch 2`, `carpet 1`, ...). */
  readonly name: string;
}

const cellsOf = (b: { free: readonly Cell[]; turn: Player }, name: string): Shape => ({
  cells: b.free,
  first: b.turn,
  name,
});

/**
 * Reads the `shape` option (with the `board` option for rectangles): `rect`, `hatch:N`,
 * `carpet:N`, `picture:ROWS` (top row first, rows split by `/`, `.` or `#` a cell, `-` a
 * hole) or `cells:(x,y) (x,y) ...`. Throws a `RangeError` saying what is expected.
 */
export const parseShape = (shape: string, rect: string | number = "6x6"): Shape => {
  const t = shape.trim();
  const [kind, ...restParts] = t.split(":");
  const rest = restParts.join(":").trim();
  const int = (what: string, lo: number, hi: number): number => {
    if (!/^\d+$/.test(rest)) throw new RangeError(`${what} needs a number, as ${what}:2`);
    const n = Number(rest);
    if (n < lo || n > hi) throw new RangeError(`${what}:N takes N from ${lo} to ${hi}, got ${n}`);
    return n;
  };
  switch (kind.trim().toLowerCase()) {
    case "rect":
    case "rectangle": {
      const { width, height } = parseRect(rest === "" ? rect : rest);
      return cellsOf(board(width, height), `${width}x${height}`);
    }
    case "hatch":
      return cellsOf(hatch(int("hatch", 1, (MAX_SIDE - 1) >> 1)), `hatch ${rest}`);
    case "carpet":
      return cellsOf(carpet(int("carpet", 0, 3)), `carpet ${rest}`);
    case "picture":
      return cellsOf(fromPicture(rest), "picture");
    case "cells": {
      const cells: Cell[] = [];
      const re = /\(\s*(-?\d+)\s*[,; ]\s*(-?\d+)\s*\)|(-?\d+)\s*:\s*(-?\d+)/g;
      const leftover = rest.replace(re, (_all, a, b, c, d) => {
        cells.push(a !== undefined ? [Number(a), Number(b)] : [Number(c), Number(d)]);
        return "";
      });
      if (/[^\s,;]/.test(leftover) || cells.length === 0) {
        throw new RangeError("cells: expects cells like (1,1) (2,1) (2,2) or 1:1 2:1 2:2");
      }
      return { cells, first: "H", name: `${cells.length} cells` };
    }
    default:
      throw new RangeError(
        `unknown shape '${t}'; expected rect, hatch:N, carpet:N, picture:ROWS or cells:(x,y) ...`,
      );
  }
};

const textOf = (v: string | number | readonly (string | number)[]): string =>
  typeof v === "object" ? v.join(",") : String(v);

const checked =
  (f: (v: string) => unknown) => (v: string | number | readonly (string | number)[]) => {
    try {
      f(textOf(v));
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };

/** Domineering's options: the board, its shape and the first player. */
export const DomineeringOptions = Schema.Struct({
  board: Schema.Union([Schema.String, Schema.Number])
    .check(
      Schema.makeFilter(checked(parseRect), { expected: "WxH such as 8x8 (or N for NxN)" }),
    )
    .annotate({ description: "the rectangle WxH, width x height, 1-30 each (for --shape rect)" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("6x6"))),
  shape: Schema.Union([Schema.String, Schema.Array(Schema.Union([Schema.String, Schema.Number]))])
    .check(
      Schema.makeFilter(checked((s) => parseShape(s)), {
        expected: "rect, hatch:N, carpet:N, picture:ROWS or cells:(x,y) ...",
      }),
    )
    .annotate({
      description: "the board: rect, hatch:N, carpet:N, picture:ROWS (rows top first, " +
        "split by /, . a cell, - a hole) or cells:(x,y) (x,y) ...",
    })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("rect"))),
  first: Schema.Literals(["auto", "H", "V"])
    .annotate({ description: "who moves first (auto: H, but V on odd carpets)" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed("auto" as const))),
});

/** Decoded Domineering options. */
export type DomineeringOptions = typeof DomineeringOptions.Type;

/** The geometry the options describe. */
export const geometryOf = (o: DomineeringOptions): Geometry => {
  const shape = parseShape(textOf(o.shape), textOf(o.board));
  return geometry(shape.cells, o.first === "auto" ? shape.first : o.first);
};

/** Builds the game for decoded options, with its picture for a web page (`picture.ts`). */
export const createDomineering = (o: DomineeringOptions): DomineeringGame =>
  withPicture(domineeringPicture, domineeringGame(geometryOf(o)));

const isDomineering = (g: Game<unknown>): g is DomineeringGame & Game<unknown> =>
  g.id === "domineering" && typeof (g as { geometry?: unknown }).geometry === "object";

/** A protocol position as the solver takes it (the board's rows and the player to move). */
export const solverInput = (g: Geometry, s: DomState): SolveInput => ({
  width: g.width,
  height: g.height,
  rows: s.slice(0, g.height),
  mover: turnOf(g, s),
  board: g.rows,
});

/** The solve strategy's solver kept by a game, with its table's size. */
const SOLVER = slot<{ readonly solver: Solver; readonly bits: number }>("domineering solver");

/**
 * The solver a game keeps between searches (its table is valid for any board), made again
 * when the table's size changes.
 */
const keptSolver = (game: DomineeringGame, ttBits: number): Solver =>
  game.keep.get(
    SOLVER,
    () => ({ solver: createSolver({ ttBits }), bits: ttBits }),
    (k) => k.bits === ttBits,
  ).solver;

/** Table size for a search: twice the entries of the core table the caller sized (`--tt-mb`). */
const bitsFor = (options: SearchOptions): number => {
  const slots = options.tt ? options.tt.size : 1 << 21;
  return Math.max(16, Math.min(26, Math.round(Math.log2(slots)) + 1));
};

/**
 * The solver of one search: over the caller's table when it is in shared memory (the
 * solvers of every worker given it then share their entries: its `2 * size` solver
 * entries take its record space), else the one the game keeps (one per worker: each
 * worker opens its own game).
 */
const solverFor = (game: DomineeringGame, options: SearchOptions): Solver => {
  const tt = options.tt;
  if (tt && typeof SharedArrayBuffer !== "undefined" && tt.buffer instanceof SharedArrayBuffer) {
    return createSolver({ ttBits: Math.log2(2 * tt.size), table: tt.buffer });
  }
  return keptSolver(game, options.params?.bits ?? bitsFor(options));
};

/**
 * Solves a Domineering position of the protocol game: the exact value (`+WIN` when V
 * wins, `-WIN` when H wins), a best move, the number of nodes and the time of the solve.
 * The line of play (`pv`) is then followed from the solver's table, within a node budget
 * the size of the solve (unless the strategy's parameter `line` is 0; `bits` sets the
 * table's size). When a time budget (`timeMs`) runs out first, the result is not
 * exact and the move is the first in the heuristic order.
 */
export const solvePosition = (
  game: DomineeringGame,
  state: DomState,
  options: SearchOptions = {},
): SearchResult => {
  const g = game.geometry;
  const solver = solverFor(game, options);
  const start = performance.now();
  const deadline = options.timeMs === undefined ? Infinity : start + options.timeMs;
  const external = options.shouldStop;
  const shouldStop = () => performance.now() >= deadline || (external !== undefined && external());
  const before = solver.totalNodes();
  const input = (s: DomState) => solverInput(g, s);
  const mover = turnOf(g, state);
  const legal = movesFor(g, state, mover);
  try {
    // Progress: one iteration per root move settled; the bounds close once it is decided.
    const won = mover === "V" ? WIN : -WIN, onIteration = options.onIteration;
    const onRootMove = onIteration && ((p: RootProgress) => {
      const v = p.moverWins ? won : p.done === p.total ? -won : undefined;
      onIteration({
        move: p.move >= 0 ? p.move : undefined,
        value: v ?? stateValue(g, state),
        pv: p.move >= 0 ? [p.move] : [],
        nodes: p.nodes,
        depth: p.done,
        exact: v !== undefined,
        timeMs: performance.now() - start,
        bounds: v === undefined ? { lower: -WIN, upper: WIN } : { lower: v, upper: v },
      });
    });
    const allWinning = options.allBest === true;
    const r = solver.solve(input(state), { allWinning, shouldStop, onRootMove });
    const value = r.moverWins === (mover === "V") ? WIN : -WIN;
    const timeMs = performance.now() - start;
    // The line of play, from the (warm) table, within a budget of the solve's size.
    const pv: number[] = [];
    const budget = solver.totalNodes() + Math.max(20000, r.nodes);
    const pvStop = () => solver.totalNodes() > budget || shouldStop();
    let s = state, m = options.params?.line === 0 ? -1 : r.move;
    try {
      while (m >= 0) {
        pv.push(m);
        s = playMove(g, s, m);
        if (movesFor(g, s, turnOf(g, s)).length === 0) break;
        m = solver.solve(input(s), { shouldStop: pvStop }).move;
      }
    } catch (e) {
      if (!(e instanceof SolveStopped)) throw e;
    }
    const winning = r.moverWins ? r.winning ?? [r.move] : legal;
    return {
      move: r.move >= 0 ? r.move : undefined,
      value,
      pv,
      nodes: r.nodes,
      depth: pv.length,
      exact: true,
      timeMs,
      ...(options.allBest === true ? { bestMoves: legal.filter((x) => winning.includes(x)) } : {}),
    };
  } catch (e) {
    if (!(e instanceof SolveStopped)) throw e;
    const ordered = orderByHarm(g, state, legal);
    return {
      move: ordered[0],
      value: stateValue(g, state),
      pv: ordered.length > 0 ? [ordered[0]] : [],
      nodes: solver.totalNodes() - before,
      depth: 0,
      exact: false,
      timeMs: performance.now() - start,
    };
  }
};

/** The solver strategy (`analyze --solve`, or a player spec `solve` / `solve:5s`). */
export const solveStrategy: SequentialStrategy = {
  _tag: "Sequential",
  budget: "depth",
  name: "solve",
  description: "exact Domineering solver: bitboards, safe-move bounds, symmetric table",
  allBest: true,
  params: {
    bits: {
      min: 16,
      max: 28,
      integer: true,
      description: "log2 of the solver's table entries (16 bytes each); default from --tt-mb; " +
        "unused with a table in shared memory",
    },
    line: {
      min: 0,
      max: 1,
      integer: true,
      description: "1 (default): follow the line of play after the solve; 0: the move only",
    },
  },
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult => {
    if (!isDomineering(game as Game<unknown>)) {
      throw new TypeError("the solve strategy plays Domineering only");
    }
    return solvePosition(game as unknown as DomineeringGame, state as unknown as DomState, options);
  },
};

/** Domineering's rules and notation, for a person (`rules` in `play`). */
export const DOMINEERING_RULES =
  `Domineering: players take turns placing a domino on two free cells of the
board (--board WxH, default 6x6, or other shapes with --shape). H places its
dominoes across (two cells side by side), V upright (one above the other).
H moves first (V with --first V, and on odd carpets). A player who cannot
place a domino loses.
Moves: the domino's lower-left cell, as b3 (column b, row 3; a1 is the lower
left), or as x,y: (2,3) or 2:3. Boards beyond a-z are written x:y.
The board shows . for a free cell and H or V for a cell under that player's
domino. On boards over 6x6, asking for the moves marks with + where yours fit.`;

/**
 * The AI's strengths, weakest first (see the README). `perfect` is the exact solver
 * without a time limit (a depth budget, which the solver ignores): instant up to 7x7,
 * about 2.5 s for the first move of 8x8.
 */
export const DOMINEERING_STRENGTHS: Readonly<Record<string, string>> = {
  easy: "randombest:1",
  medium: "alphabeta:1s",
  strong: "alphabeta:5s",
  perfect: "solve:1000",
};

/** The Domineering plugin. */
export default definePlugin({
  ...about,
  options: DomineeringOptions,
  create: createDomineering,
  strategies: { solve: solveStrategy },
  rules: DOMINEERING_RULES,
  strengths: DOMINEERING_STRENGTHS,
  defaultOpponent: "alphabeta:1s",
});
