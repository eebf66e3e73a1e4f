/**
 * Seed 001's API, function for function, on its own types: a grid is `[[Int]]` (a list
 * of rows), a player is a boolean (`false` the computer, `true` the slider), a move is
 * an `Action` (`NewTile (x, y) v` or `Slide d`). `startState`, `move`, `moves` (with
 * weights), `value` (the gradient matrices, computed literally) and `showGame` follow
 * the seed's text; `minimaxDecision` and `expectimaxDecision` are its
 * `minimax g (takeTree d (tree g (p, s)))` and `expectimax ...` over `core/tree.ts`.
 *
 * These functions work on any grid of non-negative integers (not only powers of two), as
 * the seed's do. The protocol game (`rules.ts`) is the same game over flat arrays; the
 * tests check that both agree.
 *
 * @module
 */
import {
  evaluate,
  expectimax,
  type GameEdge,
  gameTree,
  minimax,
  type Scored,
  takeTree,
  type Tree,
} from "../../core/tree.ts";
import {
  COMPUTER_TURN,
  createGame,
  decodeTile,
  type Direction,
  DIRECTIONS,
  FIRST_TILE_MOVE,
  P_FOUR,
  P_TWO,
  showCells,
  slideCells,
  SLIDER_TURN,
  type State2048,
  tileMove,
} from "./rules.ts";

/** Seed 001's `Game2048 w h`: the game's parameters. */
export interface Game2048 {
  /** Width w: the number of columns. */
  readonly width: number;
  /** Height h: the number of rows. */
  readonly height: number;
}

/** Seed 001's `Game2048 w h`. */
export const game2048 = (width: number, height: number): Game2048 => ({ width, height });

/** A player: `false` is the computer (places tiles), `true` the slider (seed 001). */
export type Player = boolean;

/** A grid: a list of rows of non-negative integers, 0 for empty (seed 001's `[[Int]]`). */
export type Grid = number[][];

/** A move: `NewTile (x, y) v` (x the column, y the row, from 0) or `Slide d`. */
export type Action =
  | { readonly tag: "NewTile"; readonly x: number; readonly y: number; readonly value: number }
  | { readonly tag: "Slide"; readonly direction: Direction };

/** The action `NewTile (x, y) v`. */
export const newTile = (x: number, y: number, value: number): Action => ({
  tag: "NewTile",
  x,
  y,
  value,
});

/** The action `Slide d`. */
export const slide = (direction: Direction): Action => ({ tag: "Slide", direction });

/**
 * An action as Haskell's derived `Show` writes it: `NewTile (1,1) 2`, `Slide L`.
 *
 * @example
 * ```ts
 * import { newTile, showAction, slide } from "./seed001.ts";
 * if (showAction(newTile(3, 2, 2)) !== "NewTile (3,2) 2") throw new Error();
 * if (showAction(slide("U")) !== "Slide U") throw new Error();
 * ```
 */
export const showAction = (a: Action): string =>
  a.tag === "NewTile" ? `NewTile (${a.x},${a.y}) ${a.value}` : `Slide ${a.direction}`;

/** Task 1: the empty grid of h rows of w zeros. */
export const startState = (g: Game2048): Grid =>
  Array.from({ length: g.height }, () => new Array<number>(g.width).fill(0));

const flat = (s: Grid): number[] => s.flat();
const unflat = (g: Game2048, cells: ArrayLike<number>): Grid =>
  Array.from(
    { length: g.height },
    (_, y) => Array.from({ length: g.width }, (_, x) => cells[y * g.width + x]),
  );

/**
 * Task 2: the grid after action `m` (the player `p` is implied by the action). A slide
 * that changes nothing returns the grid unchanged (`moves` never offers it).
 *
 * @example Figure 1, step 2 to 3: `Slide L`
 * ```ts
 * import { game2048, move, slide } from "./seed001.ts";
 * const s = move(game2048(4, 1), true, [[2, 0, 2, 2]], slide("L"));
 * if (s[0].join() !== "4,2,0,0") throw new Error(s[0].join());
 * ```
 */
export const move = (g: Game2048, _p: Player, s: Grid, m: Action): Grid => {
  if (m.tag === "NewTile") {
    const next = s.map((row) => row.slice());
    next[m.y][m.x] = m.value;
    return next;
  }
  const cells = flat(s);
  const out = cells.slice();
  slideCells(cells, out, g.width, g.height, DIRECTIONS.indexOf(m.direction));
  return unflat(g, out);
};

/**
 * Task 3: the feasible moves with their weights. The computer (`false`) places a 2 with
 * weight 0.9/n or a 4 with weight 0.1/n on each of the n empty cells (in reading order,
 * the 2 first); the slider (`true`) has each slide that changes the grid, with weight 1/n
 * for n such slides (in the order L, R, U, D).
 */
export const moves = (g: Game2048, p: Player, s: Grid): [number, Action][] => {
  const cells = flat(s);
  if (!p) {
    const free: [number, number][] = [];
    s.forEach((row, y) => row.forEach((v, x) => v === 0 && free.push([x, y])));
    const n = free.length;
    return free.flatMap(([x, y]) => [
      [P_TWO / n, newTile(x, y, 2)] as [number, Action],
      [P_FOUR / n, newTile(x, y, 4)] as [number, Action],
    ]);
  }
  const legal = DIRECTIONS.filter((_, d) =>
    slideCells(cells, cells.slice(), g.width, g.height, d) >= 0
  );
  return legal.map((d) => [1 / legal.length, slide(d)]);
};

/**
 * The gradient matrix G^(k) (k = 1..4) of seed 001 as a list of h rows of w numbers:
 * G^(1) holds `m - i - j` in row i, column j (from 0), with `m = min(w, h)`; G^(2)
 * mirrors it left-right, G^(3) top-bottom and G^(4) both.
 */
export const gradientMatrix = (g: Game2048, k: 1 | 2 | 3 | 4): Grid => {
  const m = Math.min(g.width, g.height);
  return Array.from({ length: g.height }, (_, i) =>
    Array.from({ length: g.width }, (_, j) => {
      const r = k === 3 || k === 4 ? g.height - 1 - i : i;
      const c = k === 2 || k === 4 ? g.width - 1 - j : j;
      return m - r - c;
    }));
};

/**
 * Task 4: the heuristic value for the slider, literally as seed 001 defines it: the
 * largest of the four sums of the grid multiplied pointwise by a gradient matrix. It
 * does not depend on the player.
 *
 * @example The seed's `showGame` example board
 * ```ts
 * import { game2048, value } from "./seed001.ts";
 * const s = [[4, 2, 16, 4], [0, 8, 32, 8], [0, 64, 256, 32], [0, 16, 512, 1024]];
 * if (value(game2048(4, 4), true, s) !== 6378) throw new Error();
 * ```
 */
export const value = (g: Game2048, _p: Player, s: Grid): number => {
  let best = -Infinity;
  for (const k of [1, 2, 3, 4] as const) {
    const G = gradientMatrix(g, k);
    let sum = 0;
    for (let i = 0; i < g.height; i++) for (let j = 0; j < g.width; j++) sum += G[i][j] * s[i][j];
    best = Math.max(best, sum);
  }
  return best;
};

/**
 * Task 5: the grid as text: empty cells as `-`, each number right-aligned to
 * `max(5, longest number)`, one space between columns, rows separated by a newline
 * (no newline after the last).
 */
export const showGame = (g: Game2048, s: Grid): string => showCells(flat(s), g.width, g.height);

/** The protocol state for a grid and the player to move (score as given, default 0). */
export const toState = (s: Grid, p: Player, score = 0): State2048 => [
  ...flat(s),
  p ? SLIDER_TURN : COMPUTER_TURN,
  score,
];

/** The grid of a protocol state. */
export const toGrid = (g: Game2048, s: State2048): Grid => unflat(g, s);

/** The protocol's move number of an action on a grid of width `g.width`. */
export const toMove = (g: Game2048, a: Action): number =>
  a.tag === "Slide" ? DIRECTIONS.indexOf(a.direction) : tileMove(a.y * g.width + a.x, a.value);

/** The action of a protocol move number. */
export const toAction = (g: Game2048, m: number): Action => {
  if (m < FIRST_TILE_MOVE) return slide(DIRECTIONS[m]);
  const { cell, value } = decodeTile(m);
  return newTile(cell % g.width, Math.floor(cell / g.width), value);
};

/** A decision as seed 001 returns it: `(Maybe (Move g), Value)`. */
export type SeedDecision = readonly [Action | undefined, number];

const decide = (
  search: (t: Tree<GameEdge, Scored>) => { readonly move?: number; readonly value: number },
  g: Game2048,
  depth: number,
  p: Player,
  s: Grid,
): SeedDecision => {
  const game = createGame(g.width, g.height, "gradient");
  const tree = evaluate(game, takeTree(depth, gameTree(game, toState(s, p))));
  const d = search(tree);
  return [d.move === undefined ? undefined : toAction(g, d.move), d.value];
};

/**
 * Seed 001's `minimax g (takeTree depth (tree g (p, s)))`: the slider maximizes the
 * gradient value, the computer minimizes it; leaves (the depth, or no moves) take their
 * value. Ties keep the first best move in `moves` order.
 *
 * @example Figure 1's first board, the slider to move
 * ```ts
 * import { game2048, minimaxDecision, showAction } from "./seed001.ts";
 * const s = [[8, 32, 64, 512], [0, 2, 2, 32], [0, 0, 0, 8], [0, 0, 0, 2]];
 * const [m] = minimaxDecision(game2048(4, 4), 1, true, s);
 * if (m === undefined || showAction(m) !== "Slide R") throw new Error();
 * ```
 */
export const minimaxDecision = (g: Game2048, depth: number, p: Player, s: Grid): SeedDecision =>
  decide(
    (t) => {
      const d = minimax(t);
      return { move: d.move?.move, value: d.value };
    },
    g,
    depth,
    p,
    s,
  );

/**
 * Seed 001's `expectimax g (takeTree depth (tree g (p, s)))`: the slider maximizes, the
 * computer's node is worth the weighted sum of its children (and chooses no move).
 */
export const expectimaxDecision = (
  g: Game2048,
  depth: number,
  p: Player,
  s: Grid,
): SeedDecision => decide(expectimax, g, depth, p, s);
