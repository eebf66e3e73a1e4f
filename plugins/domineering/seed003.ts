/**
 * Seed 003's Domineering lab, function for function, on the seed's own record type: a
 * board is `{ turn, free, hist }` with cells as `[x, y]` pairs, `(1, 1)` at the lower left.
 * H places horizontal dominoes (`(x, y)` and `(x + 1, y)`), V vertical ones (`(x, y)` and
 * `(x, y + 1)`); a move is named by the domino's lower-left cell, and whoever cannot move
 * loses. `free` keeps the seed's list order (moves are enumerated in it) and `hist` holds
 * the moves, the latest first.
 *
 * This is the readable reference path, built on the lazy trees of `core/tree.ts`
 * (`gametree`, `prune`, `minimax`, `bestmoves`, `alphabeta`, ...). The plugin
 * (`mod.ts`) plays the same game on bitboards, and `solver.ts` solves it; the tests
 * prove that all of them agree.
 *
 * @example Seed 003's first examples
 * ```ts
 * import { board4x4_3, legalMoves, score, showCells, showScore } from "./seed003.ts";
 * if (showCells(legalMoves("H", board4x4_3)) !== "[(1,2),(2,2),(2,3),(2,4),(3,2),(3,3),(3,4)]") {
 *   throw new Error("wrong moves");
 * }
 * if (showScore(score(board4x4_3)) !== "Heu 2") throw new Error("wrong score");
 * ```
 *
 * @module
 */
import { Effect, Option } from "../../core/deps.ts";
import { randomIndex } from "../../core/rng.ts";
import { type Branch, mapTree, node, takeTree, type Tree } from "../../core/tree.ts";

/** The two players: H places horizontal dominoes, V vertical ones. */
export type Player = "H" | "V";

/** A cell `[x, y]`; as a move, the lower-left cell of the domino. */
export type Cell = readonly [x: number, y: number];

/** Seed 003's board: whose turn it is, the free cells (in order) and the moves so far (latest first). */
export interface Board {
  /** The player to move. */
  readonly turn: Player;
  /** The free cells, in the order moves are enumerated. */
  readonly free: readonly Cell[];
  /** The moves played so far, the latest first. */
  readonly hist: readonly Cell[];
}

/** The other cell a domino covers when `p` plays at `c` (seed 003's `adjCell`). */
export const adjCell = ([x, y]: Cell, p: Player): Cell => (p === "H" ? [x + 1, y] : [x, y + 1]);

/** The opponent (seed 003's `opp`). */
export const opp = (p: Player): Player => (p === "H" ? "V" : "H");

/** A number for a cell, for sets (coordinates from -32768 to 32767). */
export const cellKey = ([x, y]: Cell): number => (x + 32768) * 65536 + (y + 32768);

const sameCell = (a: Cell, b: Cell): boolean => a[0] === b[0] && a[1] === b[1];

/** True when `c` is a legal move for the player to move (seed 003's `valid`). */
export const valid = (b: Board, c: Cell): boolean => {
  const d = adjCell(c, b.turn);
  return b.free.some((f) => sameCell(f, c)) && b.free.some((f) => sameCell(f, d));
};

/** An empty board from any list of cells, H to move (seed 003's `empty`). */
export const empty = (cs: readonly Cell[]): Board => ({ turn: "H", free: cs, hist: [] });

/** The empty `maxx` x `maxy` rectangle, cells listed column by column (seed 003's `board`). */
export const board = (maxx: number, maxy: number): Board => {
  const cs: Cell[] = [];
  for (let x = 1; x <= maxx; x++) for (let y = 1; y <= maxy; y++) cs.push([x, y]);
  return empty(cs);
};

/** The crosshatch-shaped `(2n+1)` x `(2n+1)` board (seed 003's `hatch`). */
export const hatch = (n: number): Board => {
  const cs: Cell[] = [];
  const m = 2 * n + 1;
  for (let x = 1; x <= m; x++) {
    for (let y = 1; y <= m; y++) {
      if (y % 2 === 1 || x === 1 || x === m || x % 2 === 1) cs.push([x, y]);
    }
  }
  return empty(cs);
};

/** True when the 0-based cell `(x, y)` is in the Sierpinski carpet (no base-3 digit pair 1,1). */
export const inCarpet = (x: number, y: number): boolean => {
  for (; x > 0 || y > 0; x = Math.floor(x / 3), y = Math.floor(y / 3)) {
    if (x % 3 === 1 && y % 3 === 1) return false;
  }
  return true;
};

/**
 * The `n`-th Sierpinski carpet, a `3^n` x `3^n` board with holes, cells listed column by
 * column; H starts on even-numbered carpets and V on odd ones.
 */
export const carpet = (n: number): Board => {
  const m = 3 ** n;
  const cs: Cell[] = [];
  for (let x = 1; x <= m; x++) {
    for (let y = 1; y <= m; y++) if (inCarpet(x - 1, y - 1)) cs.push([x, y]);
  }
  return { turn: n % 2 === 0 ? "H" : "V", free: cs, hist: [] };
};

/**
 * The infinite, lazy sequence of Sierpinski carpets (seed 003's `carpets`):
 * `carpets()` yields `carpet(0)`, `carpet(1)`, ... on demand.
 *
 * @example
 * ```ts
 * import { carpets } from "./seed003.ts";
 * const it = carpets();
 * it.next();
 * const c1 = it.next().value!;
 * if (c1.free.length !== 8 || c1.turn !== "V") throw new Error("carpet 1 is a ring of 8");
 * ```
 */
export function* carpets(): Generator<Board, never, unknown> {
  for (let n = 0;; n++) yield carpet(n);
}

/**
 * A board from a text picture, top row first: `.`, `#`, `o` or `x` is a cell, a space,
 * `-` or `_` is a hole; rows are separated by newlines or `/`. Cells are listed column
 * by column as in `board`, `(1, 1)` at the lower left. The error names a bad character.
 */
export const fromPicture = (text: string): Board => {
  const rows = text.split(/\n|\//).filter((r, i, all) =>
    r.trim() !== "" || (i > 0 && i < all.length - 1)
  );
  const cells = new Set<number>();
  const out: Cell[] = [];
  const h = rows.length;
  const w = Math.max(0, ...rows.map((r) => r.length));
  rows.forEach((r, i) => {
    for (let j = 0; j < r.length; j++) {
      const ch = r[j];
      if (".#ox".includes(ch)) cells.add(cellKey([j + 1, h - i]));
      else if (!" -_".includes(ch)) {
        throw new RangeError(
          `picture row ${
            i + 1
          } has '${ch}'; use '.' or '#' for a cell and '-' or a space for a hole`,
        );
      }
    }
  });
  for (let x = 1; x <= w; x++) {
    for (let y = 1; y <= h; y++) if (cells.has(cellKey([x, y]))) out.push([x, y]);
  }
  if (out.length === 0) throw new RangeError("the picture has no cells");
  return empty(out);
};

/**
 * The legal moves of a player, whoever's turn it is, in the order of `free`
 * (seed 003's `legalMoves`).
 */
export const legalMoves = (p: Player, b: Board): Cell[] => {
  const free = new Set(b.free.map(cellKey));
  return b.free.filter((c) => free.has(cellKey(adjCell(c, p))));
};

/** Plays a legal move of the player to move (seed 003's `moveLegal`). */
export const moveLegal = (b: Board, c: Cell): Board => {
  const d = adjCell(c, b.turn);
  return {
    turn: opp(b.turn),
    free: b.free.filter((f) => !sameCell(f, c) && !sameCell(f, d)),
    hist: [c, ...b.hist],
  };
};

/**
 * The whole record of the game that led to a board, from the empty board to the board
 * itself (seed 003's `replay`): undoing a move puts its two cells back at the end of
 * `free`.
 */
export const replay = (b: Board): Board[] => {
  const out: Board[] = [b];
  let cur = b;
  while (cur.hist.length > 0) {
    const [c, ...rest] = cur.hist;
    const p = opp(cur.turn);
    cur = { turn: p, free: [...cur.free, c, adjCell(c, p)], hist: rest };
    out.push(cur);
  }
  return out.reverse();
};

// ---------------------------------------------------------------------------------------
// Scores

/** Seed 003's `Score`: a known win, or a heuristic value (negative favours H). */
export type Score =
  | { readonly tag: "Win"; readonly player: Player }
  | { readonly tag: "Heu"; readonly value: number };

/** `Win p`. */
export const Win = (player: Player): Score => ({ tag: "Win", player });

/** `Heu n`. */
export const Heu = (value: number): Score => ({ tag: "Heu", value });

/** The score's place in the order `Win H < Heu x < Win V` (as a number, `±Infinity` for wins). */
export const scoreRank = (s: Score): number =>
  s.tag === "Heu" ? s.value : s.player === "V" ? Infinity : -Infinity;

/** Compares scores: negative, zero or positive (seed 003's `Ord Score`). */
export const compareScore = (a: Score, b: Score): number => {
  const x = scoreRank(a), y = scoreRank(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Equal scores. */
export const eqScore = (a: Score, b: Score): boolean => compareScore(a, b) === 0;

/** The better of two scores for player `p` (V maximizes, H minimizes); the first on ties. */
export const better = (p: Player, a: Score, b: Score): Score =>
  (p === "V" ? compareScore(b, a) > 0 : compareScore(b, a) < 0) ? b : a;

/** True when `a` is at least as good as `b` for player `p`. */
export const atLeastAsGood = (p: Player, a: Score, b: Score): boolean =>
  p === "V" ? compareScore(a, b) >= 0 : compareScore(a, b) <= 0;

/** A score in Haskell's `show` form: `Win H`, `Heu 2`, `Heu (-2)`. */
export const showScore = (s: Score): string =>
  s.tag === "Win" ? `Win ${s.player}` : s.value < 0 ? `Heu (${s.value})` : `Heu ${s.value}`;

/**
 * Seed 003's heuristic: if the player to move has no legal move, a win for the opponent;
 * otherwise `#(V's moves) - #(H's moves) - sign(turn)` with `sign(H) = -1`, `sign(V) = 1`.
 */
export const score = (b: Board): Score => {
  const h = legalMoves("H", b).length, v = legalMoves("V", b).length;
  if ((b.turn === "H" ? h : v) === 0) return Win(opp(b.turn));
  return Heu(v - h - (b.turn === "H" ? -1 : 1));
};

// ---------------------------------------------------------------------------------------
// Haskell's Show, to the character

/** A cell as Haskell shows it: `(2,3)`, `(-4,1)`. */
export const showCell = ([x, y]: Cell): string => `(${x},${y})`;

/** A list of cells as Haskell shows it: `[(1,2),(2,2)]`. */
export const showCells = (cs: readonly Cell[]): string => `[${cs.map(showCell).join(",")}]`;

/** A board as Haskell's derived `Show` prints it: `Board {turn = V, free = [...], hist = [...]}`. */
export const showBoard = (b: Board): string =>
  `Board {turn = ${b.turn}, free = ${showCells(b.free)}, hist = ${showCells(b.hist)}}`;

/** A list of boards as Haskell shows it (no spaces between the elements). */
export const showBoards = (bs: readonly Board[]): string => `[${bs.map(showBoard).join(",")}]`;

// ---------------------------------------------------------------------------------------
// Game trees and minimax

/** The lazy game tree of a board; branches are labelled with the moves (seed 003's `gametree`). */
export const gametree = (b: Board): Tree<Cell, Board> =>
  node(b, function* () {
    for (const c of legalMoves(b.turn, b)) yield [c, gametree(moveLegal(b, c))];
  });

/** Cuts a tree at a depth (seed 003's `prune`; `core/tree.ts`'s `takeTree`). */
export const prune = <M, V>(depth: number, t: Tree<M, V>): Tree<M, V> => takeTree(depth, t);

/**
 * Annotates every node with its minimax score, leaves scored by `sfn`, V maximizing and
 * H minimizing (seed 003's `minimax`). The tree is otherwise unchanged:
 * `mapTree(([b]) => b, minimax(sfn, t))` is `t`.
 */
export const minimax = <M>(
  sfn: (b: Board) => Score,
  t: Tree<M, Board>,
): Tree<M, readonly [Board, Score]> => {
  const kids: Branch<M, readonly [Board, Score]>[] = [];
  let best: Score | undefined;
  for (const [m, c] of t.children()) {
    const a = minimax(sfn, c);
    kids.push([m, a]);
    best = best === undefined ? a.label[1] : better(t.label.turn, best, a.label[1]);
  }
  return node([t.label, best ?? sfn(t.label)] as const, () => kids);
};

/**
 * Every optimal move at depth `d` (seed 003's `bestmoves`): the moves whose minimax score
 * in the depth-`d` tree is the best for the player to move, in move order.
 *
 * @example Seed 003's example
 * ```ts
 * import { bestmoves, board, score, showCells } from "./seed003.ts";
 * if (showCells(bestmoves(4, score, board(3, 3))) !== "[(1,2),(2,2)]") throw new Error("wrong");
 * ```
 */
export const bestmoves = (d: number, sfn: (b: Board) => Score, b: Board): Cell[] => {
  const t = minimax(sfn, prune(d, gametree(b)));
  const best = t.label[1];
  const out: Cell[] = [];
  for (const [m, c] of t.children()) if (eqScore(c.label[1], best)) out.push(m);
  return out;
};

// ---------------------------------------------------------------------------------------
// Playing: the selection effect

/** A player: looks at a board and selects a move, or gives up (`Option.none()`). */
export type PlayerFn<E = never, R = never> = (b: Board) => Effect.Effect<Option.Option<Cell>, E, R>;

/** A uniformly random element (seed 003's `select`); the seed is set with `Random.withSeed`. */
export const select = <A>(xs: readonly A[]): Effect.Effect<A> =>
  Effect.map(randomIndex(xs.length), (i) => xs[i]);

/** `select`, or `none` for an empty list (seed 003's `selectSafe`). */
export const selectSafe = <A>(xs: readonly A[]): Effect.Effect<Option.Option<A>> =>
  xs.length === 0 ? Effect.succeed(Option.none()) : Effect.map(select(xs), Option.some);

/** A random choice among the optimal moves at depth `d` (seed 003's `randomBestPlay`). */
export const randomBestPlay = (d: number, sfn: (b: Board) => Score): PlayerFn => (b) =>
  selectSafe(bestmoves(d, sfn, b));

/** A random legal move (seed 003's `randomPlay`). */
export const randomPlay: PlayerFn = (b: Board): Effect.Effect<Option.Option<Cell>> =>
  selectSafe(legalMoves(b.turn, b));

/**
 * Plays `playH` against `playV` from a board and returns the final board (seed 003's
 * `runGame`): it stops as soon as a player gives up (`none`) or makes an illegal move.
 * It runs in any effect the players need; with `Random` players, `Random.withSeed`
 * makes the game repeatable.
 *
 * @example Two random players on a 4x4 board
 * ```ts
 * import { Effect, Random } from "../../core/deps.ts";
 * import { board, legalMoves, randomPlay, runGame } from "./seed003.ts";
 * const end = Effect.runSync(runGame(randomPlay, randomPlay, board(4, 4)).pipe(Random.withSeed(7)));
 * if (legalMoves(end.turn, end).length !== 0) throw new Error("the game should be over");
 * ```
 */
export const runGame = <E1 = never, R1 = never, E2 = never, R2 = never>(
  playH: PlayerFn<E1, R1>,
  playV: PlayerFn<E2, R2>,
  b: Board,
): Effect.Effect<Board, E1 | E2, R1 | R2> =>
  Effect.gen(function* () {
    let cur = b;
    while (true) {
      const choice: Option.Option<Cell> = cur.turn === "H" ? yield* playH(cur) : yield* playV(cur);
      if (Option.isNone(choice) || !valid(cur, choice.value)) return cur;
      cur = moveLegal(cur, choice.value);
    }
  });

// ---------------------------------------------------------------------------------------
// Alpha-beta

/** Seed 003's `ABScore`: the exact value, or a bound the player to move is sure to reach. */
export type ABScore =
  | { readonly tag: "Exact"; readonly score: Score }
  | { readonly tag: "Bound"; readonly score: Score };

/**
 * An alpha-beta score as the seed's pictures label it: `Heu 2` for an exact value,
 * `≥Heu 2` for a bound that V (the maximizer) is sure of, `≤Heu (-1)` for one of H's.
 */
export const showABScore = (turn: Player, s: ABScore): string =>
  s.tag === "Exact" ? showScore(s.score) : `${turn === "V" ? "≥" : "≤"}${showScore(s.score)}`;

const isWinFor = (p: Player, s: Score): boolean => s.tag === "Win" && s.player === p;

/**
 * Alpha-beta over a game tree, visiting it left to right (seed 003's `alphabeta`). Every
 * node keeps its board and gets
 * - `Exact v`: the player to move there can do exactly `v` (against best play);
 * - `Bound v`: that player can do at least as well as `v` (the search stopped early,
 *   because the node's parent already had a move at least as good for itself);
 * - `undefined`: the node was pruned (not visited).
 *
 * A node stops visiting its children once one of them gives it a win, or once its best
 * score is at least as good for it as the best its parent found so far (each node gets
 * the bound from its parent: alpha-beta as in Hughes's "Why functional programming
 * matters"). The tree keeps its shape: `mapTree(([b]) => b, alphabeta(sfn, t))` is `t`.
 * On the full 4x4 game tree `alphaprune` leaves 1362 of its 65081 nodes; on 5x5,
 * 3634155 of 2103584601.
 */
export const alphabeta = <M>(
  sfn: (b: Board) => Score,
  t: Tree<M, Board>,
): Tree<M, readonly [Board, ABScore | undefined]> => go(sfn, t, undefined).tree;

const prunedTree = <M>(t: Tree<M, Board>): Tree<M, readonly [Board, ABScore | undefined]> =>
  mapTree((b) => [b, undefined] as const, t);

const go = <M>(
  sfn: (b: Board) => Score,
  t: Tree<M, Board>,
  parentBest: Score | undefined,
): { tree: Tree<M, readonly [Board, ABScore | undefined]>; value: Score } => {
  const p = t.label.turn;
  const kids: Branch<M, readonly [Board, ABScore | undefined]>[] = [];
  let best: Score | undefined;
  let stopped = false, prunedAny = false;
  for (const [m, c] of t.children()) {
    if (stopped) {
      kids.push([m, prunedTree(c)]);
      prunedAny = true;
      continue;
    }
    const r = go(sfn, c, best);
    kids.push([m, r.tree]);
    best = best === undefined ? r.value : better(p, best, r.value);
    if (isWinFor(p, best) || (parentBest !== undefined && atLeastAsGood(p, best, parentBest))) {
      stopped = true;
    }
  }
  const value = best ?? sfn(t.label);
  const exact = !prunedAny || isWinFor(p, value);
  const label = [t.label, { tag: exact ? "Exact" : "Bound", score: value }] as const;
  return { tree: node(label, () => kids), value };
};

/**
 * Removes the pruned subtrees (seed 003's `alphaprune`): `undefined` when the root itself
 * was pruned.
 */
export const alphaprune = <M, A, B>(
  t: Tree<M, readonly [A, B | undefined]>,
): Tree<M, readonly [A, B]> | undefined => {
  const [a, b] = t.label;
  if (b === undefined) return undefined;
  return node([a, b] as const, function* () {
    for (const [m, c] of t.children()) {
      const k = alphaprune(c);
      if (k !== undefined) yield [m, k] as const;
    }
  });
};

/**
 * Optimal moves by alpha-beta at depth `d` (seed 003's `alphamoves`): the root's children
 * whose exact score equals the root's. Their value is always that of `bestmoves d`
 * (they are some of its moves; bounds cut the search before ties are known).
 */
export const alphamoves = (d: number, sfn: (b: Board) => Score, b: Board): Cell[] => {
  const t = alphaprune(alphabeta(sfn, prune(d, gametree(b))));
  if (t === undefined) return [];
  const root = t.label[1].score;
  const out: Cell[] = [];
  for (const [m, c] of t.children()) {
    if (c.label[1].tag === "Exact" && eqScore(c.label[1].score, root)) out.push(m);
  }
  return out;
};

// ---------------------------------------------------------------------------------------
// The seed's boards

/** Seed 003's `board4x4_3`: H played (2,1), V (1,3); H to move. */
export const board4x4_3: Board = {
  turn: "H",
  free: [[1, 1], [1, 2], [2, 2], [2, 3], [2, 4], [3, 2], [3, 3], [3, 4], [4, 1], [4, 2], [4, 3], [
    4,
    4,
  ]],
  hist: [[1, 3], [2, 1]],
};

/** Seed 003's `alphaDom_vs_LeeSedom`: Alpha Dom (H) won in round 28. */
export const alphaDom_vs_LeeSedom: Board = {
  turn: "V",
  free: [[-4, 1], [-4, 3], [-2, 0], [-2, 4], [2, 1], [2, 4], [3, -4], [3, 4], [4, -2], [4, 0]],
  hist: [
    [0, 4],
    [4, 1],
    [0, -4],
    [-4, -3],
    [-1, -2],
    [2, -1],
    [-2, -4],
    [-4, -1],
    [-1, 2],
    [4, 3],
    [1, 2],
    [-2, 2],
    [-4, -4],
    [-2, -2],
    [2, -2],
    [4, -4],
    [-3, 1],
    [2, -4],
    [-4, 4],
    [-1, 3],
    [-4, 2],
    [-3, -2],
    [3, -1],
    [1, -3],
    [-2, -3],
    [3, 1],
    [1, 3],
  ],
};

/** Seed 003's `alphaDom_vs_RanDom`: Alpha Dom (H) against a random player. */
export const alphaDom_vs_RanDom: Board = {
  turn: "V",
  free: [
    [-4, -3],
    [-4, 0],
    [-2, -4],
    [-2, -2],
    [-1, -4],
    [-1, -2],
    [-1, 2],
    [-1, 4],
    [0, -4],
    [0, -2],
    [0, 2],
    [0, 4],
    [1, -4],
    [1, -2],
    [1, 2],
    [1, 4],
    [2, -4],
    [2, -2],
    [2, 4],
    [3, -4],
    [4, 0],
    [4, 3],
  ],
  hist: [
    [-3, 4],
    [2, -1],
    [-3, 2],
    [4, -2],
    [-4, -4],
    [-4, 3],
    [3, 4],
    [2, 1],
    [-3, 1],
    [3, 1],
    [-4, -1],
    [-2, -1],
    [-2, 3],
    [-4, 1],
    [1, 3],
    [4, -4],
    [-4, -2],
    [4, 1],
    [1, -3],
    [3, -2],
    [-2, -3],
  ],
};

/** Every cell of a board, free or covered (the board's shape), in `replay`'s first-board order. */
export const allCells = (b: Board): readonly Cell[] => replay(b)[0].free;
