/**
 * The game protocol every plugin speaks and every strategy searches.
 *
 * Conventions (one for all games):
 * - Two players, `0` and `1`; a plugin names them (`south`/`north`, `H`/`V`, ...).
 *   Chance moves (2048's tile placer) belong to the pseudo-player `"chance"`.
 * - **Player 0 maximizes.** `value(s)` is always from player 0's point of view, so
 *   extra turns (the same player moving twice) and chance nodes need no special case.
 * - Moves are small non-negative integers, encoded by the plugin (as OpenSpiel's
 *   actions are); `formatMove` / `parseMove` translate to and from human notation.
 * - A player node with no legal moves is the end of the game: `moves(s)` is empty
 *   exactly when the game is over, and `outcome(s)` then says who won.
 * - States are immutable plain data: `play` returns a new state, and a structured clone
 *   of a state (as parallel search sends it to a worker) is the same position. Plain
 *   arrays of small integers are the fastest representation in V8 (allocating a typed
 *   array per node measured ten times slower), or a few numbers for bitboards.
 *
 * @module
 */
import type { Result } from "./deps.ts";

/** One of the two players. Player 0 maximizes `value`. */
export type Player = 0 | 1;

/** The pseudo-player that owns chance moves. */
export const CHANCE = "chance" as const;

/** Whose move it is: a player, or chance. */
export type ToMove = Player | typeof CHANCE;

/** A move at a chance node with its probability. */
export interface Chance {
  /** The move (a plugin-encoded integer). */
  readonly move: number;
  /** Its probability; the probabilities at a node sum to 1. */
  readonly p: number;
}

/** The result of a finished game. */
export interface Outcome {
  /** The winner, or `null` for a draw (or a game without a winner, such as 2048). */
  readonly winner: Player | null;
  /** The final margin from player 0's point of view (stones, points, ...); 0 if none. */
  readonly margin: number;
}

/**
 * A decisive value: `value` returns exactly `+WIN` at the end of a game player 0 won and
 * `-WIN` at the end of one player 1 won, or `±(WIN - n)` for a win or loss it sees `n`
 * plies ahead (Pentago's four in a row with a twist to come), never beyond `±WIN`; every
 * heuristic value lies strictly between `-WIN_THRESHOLD` and `WIN_THRESHOLD`. Searches
 * that prefer quick wins (`distance`) subtract the distance in plies from the root, so a
 * decisive value `v` is a win in `WIN - |v|` plies, as the programs say. A margin (Kalah's
 * stones) is `outcome`'s, not the value's; a game whose AI should play for margins makes
 * them its heuristic values instead (Kalah does). The conformance suite checks all this.
 * It is 2^40, so that margins and scores of any realistic size (a Kalah board with ten
 * million stones per house) stay heuristic, and `WIN - ply` is still exact.
 */
export const WIN = 2 ** 40;

/** Values at or beyond this magnitude are decisive (a forced win or loss). */
export const WIN_THRESHOLD = WIN / 2;

/** How `render` should draw a position for a person. */
export interface RenderOptions {
  /**
   * The move that led to this position (and who made it), to be marked on the board:
   * with colour when `color` is set, else with a plain-text marker.
   */
  readonly last?: { readonly move: number; readonly by: ToMove };
  /** True on a terminal that shows ANSI colours (not under `NO_COLOR`, not a pipe). */
  readonly color?: boolean;
}

/** The outcome of a parse: a move, or a message saying what was expected. */
export type ParseResult = Result.Result<number, string>;

/** The functions every game has (see `Game`): what a plugin's `create()` must return. */
export const REQUIRED_FUNCTIONS = [
  "initial",
  "toMove",
  "moves",
  "chances",
  "play",
  "outcome",
  "value",
  "render",
  "formatMove",
  "parseMove",
] as const satisfies readonly (keyof Game<unknown>)[];

/** The functions a game may have (see `Game`). */
export const OPTIONAL_FUNCTIONS = [
  "key",
  "orderMoves",
  "stats",
  "describeMove",
  "movesHelp",
] as const satisfies readonly (keyof Game<unknown>)[];

/** The functions a game's picture has or may have (see `Picture`). */
export const PICTURE_FUNCTIONS = [
  "svg",
  "picks",
  "refuse",
  "decisive",
] as const satisfies readonly (
  keyof Picture<unknown>
)[];

/**
 * A two-player game with optional chance moves. All functions are pure and fast: they
 * run once per node of a search.
 *
 * @typeParam S the state type (immutable).
 */
export interface Game<S> {
  /** The plugin id this game came from, such as `"nim"`. */
  readonly id: string;
  /** The players' names, player 0 first. */
  readonly players: readonly [string, string];
  /**
   * True when only player 0 ever moves and its opponent is chance (2048): programs then
   * ask for one player and a match does not alternate sides.
   */
  readonly solo?: boolean;
  /**
   * Why no search can reach the end of every line, if that is so (2048: the computer
   * keeps placing tiles for thousands of moves); `analyze --solve` is refused with it.
   */
  readonly unsolvable?: string;
  /**
   * What `outcome`'s margin counts, in the plural (Kalah: `"stones"`), for a result in
   * words: `south wins by 4 stones` (`by 1 stone`: the unit without its final `s`).
   * Without it the margin is not written (tic-tac-toe's ±1 only says who won:
   * `X wins`); a solo game's margin is its score.
   */
  readonly marginUnit?: string;
  /** The start position. */
  initial(): S;
  /** Whose move it is. The same player may move twice in a row (Kalah's extra turn). */
  toMove(s: S): ToMove;
  /** The legal moves of the player to move; empty exactly when the game is over. */
  moves(s: S): readonly number[];
  /** The chance outcomes at a chance node, with probabilities summing to 1. */
  chances(s: S): readonly Chance[];
  /** The state after a legal move (the caller guarantees legality). */
  play(s: S, m: number): S;
  /** The result of a finished game, `undefined` while it goes on. */
  outcome(s: S): Outcome | undefined;
  /** Heuristic value, player 0 maximizes; exactly `±WIN` for a decided game (see `WIN`). */
  value(s: S): number;
  /**
   * A text picture of the state for a terminal. With `view.last`, the last move is
   * marked (a plugin may ignore it; seed outputs call `render(s)` alone).
   */
  render(s: S, view?: RenderOptions): string;
  /** The notation a human types for move `m` in state `s`. */
  formatMove(s: S, m: number): string;
  /** Reads a typed move; the error says what was expected. Legality is checked too. */
  parseMove(s: S, text: string): ParseResult;
  /**
   * Optional words about what move `m` did beyond its notation, for a person following
   * the game: Kalah's `"extra turn"` or `"captures 7"`. `undefined` or `""` when nothing
   * is worth saying. `before` is the position the move was played in, `after` the result.
   */
  describeMove?(before: S, m: number, after: S): string | undefined;
  /**
   * Optional help on the legal moves of `s` for a person (what `?` shows): for games
   * with many moves (Pentago's 288) a picture of the choices rather than every move.
   * Default: the moves' notations.
   */
  movesHelp?(s: S): string;
  /**
   * An integer hash of the position, side to move included, for transposition tables.
   * Up to 53 bits are used; equal positions must have equal keys.
   */
  key?(s: S): number;
  /**
   * Optional move ordering for alpha-beta: the same moves, most promising first.
   * Searches call it only where it pays off (interior nodes).
   */
  orderMoves?(s: S, moves: readonly number[]): readonly number[];
  /**
   * Optional per-game statistics of a finished game (such as 2048's largest tile),
   * aggregated by the match runner.
   */
  stats?(s: S): Readonly<Record<string, number>>;
  /**
   * Optional: the fast path, a cursor over this game's positions (`FastGame`) that plays
   * into reusable memory and takes moves back, for the generic searches (alpha-beta with
   * its table, and so the exact solver that searches to the end). Each call makes a new
   * cursor; a search makes one and reuses it. It must agree with the plain functions
   * (the conformance suite checks it over random playouts). Only for games without
   * chance moves: a game with chance nodes keeps the plain path.
   */
  readonly fast?: () => FastGame<S>;
  /**
   * Optional: the position drawn as SVG for a web page, and how pointing at it or a
   * key becomes a move (`Picture`; `core/picture.ts` explains the tokens). Without it, the page shows `render`'s text
   * and the legal moves as buttons.
   */
  readonly picture?: Picture<S>;
}

/**
 * The fast path of a game (`Game.fast`): a mutable cursor on one position that plays
 * moves into memory it reuses and takes them back, so that a search allocates nothing
 * per node. The moves are the game's own integers. Every answer is the plain game's on
 * the cursor's position: `moves` is `game.moves(s)` in the same order, `toMove`,
 * `value` and `key` are `game.toMove(s)`, `game.value(s)` and `game.key(s)` exactly
 * (keys are shared with the plain path through transposition tables), and `over()` is
 * `game.outcome(s) !== undefined`. The conformance suite checks each of these over
 * random playouts, with every move taken back. No chance nodes: a game with chance moves
 * keeps the plain path.
 *
 * @typeParam S the game's state type.
 *
 * @example A Nim cursor over heaps in a reusable stack (a move `10 * heap + take - 1`)
 * ```ts
 * import type { FastGame } from "./game.ts";
 * const nimCursor = (heaps: number): FastGame<readonly number[]> => {
 *   let stack: number[] = [], top = 0; // positions of `heaps + 1` numbers (the mover last)
 *   const w = heaps + 1;
 *   return {
 *     maxMoves: 10 * heaps,
 *     reset: (s) => { stack = [...s]; top = 0; },
 *     toMove: () => stack[top + heaps] as 0 | 1,
 *     moves: (out, at) => {
 *       let k = 0;
 *       for (let h = 0; h < heaps; h++) {
 *         for (let t = 1; t <= stack[top + h]; t++) out[at + k++] = 10 * h + t - 1;
 *       }
 *       return k;
 *     },
 *     play: (m) => {
 *       for (let i = 0; i < w; i++) stack[top + w + i] = stack[top + i];
 *       top += w;
 *       stack[top + Math.floor(m / 10)] -= (m % 10) + 1;
 *       stack[top + heaps] = 1 - stack[top + heaps];
 *     },
 *     undo: () => { top -= w; },
 *     over: () => stack.slice(top, top + heaps).every((x) => x === 0),
 *     value: () => 0,
 *     key: () => 0,
 *   };
 * };
 * const c = nimCursor(2);
 * c.reset([1, 2, 0]);
 * const buf = new Int32Array(c.maxMoves);
 * if (c.moves(buf, 0) !== 3) throw new Error("three moves");
 * c.play(11); // heap 1: take 2
 * c.undo();
 * if (c.toMove() !== 0 || c.moves(buf, 0) !== 3) throw new Error("undone");
 * ```
 */
export interface FastGame<S> {
  /** The most legal moves any position has (the room `moves` may need). */
  readonly maxMoves: number;
  /** Puts the cursor on position `s` (copying it: `s` is not changed), forgetting the moves played. */
  reset(s: S): void;
  /** Whose move it is (never chance). */
  toMove(): Player;
  /**
   * Writes the legal moves at `out[at]`, `out[at + 1]`, ... in `game.moves`' order and
   * returns how many; 0 exactly when the game is over.
   */
  moves(out: Int32Array, at: number): number;
  /**
   * Optional move ordering: reorders the `n` moves at `out[at]` in place, most promising
   * first (as `Game.orderMoves` would); the search calls it where it calls `orderMoves`.
   */
  order?(out: Int32Array, at: number, n: number): void;
  /** Plays legal move `m` on the cursor (the caller guarantees legality). */
  play(m: number): void;
  /** Takes back the last move played since `reset`. */
  undo(): void;
  /** True when the position is finished (`game.outcome(s) !== undefined`). */
  over(): boolean;
  /** `game.value(s)`: player 0 maximizes. */
  value(): number;
  /** `game.key(s)` (any number when the game has no `key`: the searches then use no table). */
  key(): number;
}

/**
 * How a game is drawn and pointed at on a web page.
 *
 * @typeParam S the game's state type.
 */
export interface Picture<S> {
  /**
   * The position as one `<svg>` element (with a `viewBox`; the page scales it). Elements
   * a player can point at carry `data-pick="TOKEN"`; `view.last` is the move to mark.
   * The page adds the classes `target` (can come next), `picked` (chosen so far) and
   * `refused` to those elements; plugins draw everything else themselves.
   */
  svg(s: S, view?: RenderOptions): string;
  /**
   * The ways to enter move `m` in `s` (it is legal there): each a sequence of tokens,
   * `data-pick` values or `key:KEY`. No two legal moves may share a whole sequence, and
   * no move's sequence may be the start of another's.
   */
  picks(s: S, m: number): readonly (readonly string[])[];
  /**
   * Why `picks` (a sequence that is the start of no legal move's) is refused, for the
   * player: "b2 is taken", "a horizontal domino needs the cell to the right free".
   * `undefined` leaves the page's generic "not a legal move here".
   */
  refuse?(s: S, picks: readonly string[]): string | undefined;
  /**
   * Optional: at a finished position, the tokens (`data-pick` values) of what decided
   * the result, for the page to mark: the cells of tic-tac-toe's three or Pentago's
   * five in a row (every such line: Pentago's fives for both after a twist). Empty, or
   * not given, when nothing on the board decides it (a full board, Kalah's count).
   */
  decisive?(s: S): readonly string[];
}

/** The opponent of a player. */
export const other = (p: Player): Player => (p === 0 ? 1 : 0);

/** True when `s` is a finished position: a player node without legal moves. */
export const isOver = <S>(game: Game<S>, s: S): boolean =>
  game.toMove(s) !== CHANCE && game.moves(s).length === 0;

/**
 * Picks the chance outcome that a uniform number `u` in [0, 1) selects, walking the
 * cumulative probabilities. Used by the match runner with the seeded random.
 */
export const pickChance = (chances: readonly Chance[], u: number): number => {
  let acc = 0;
  for (const c of chances) {
    acc += c.p;
    if (u < acc) return c.move;
  }
  return chances[chances.length - 1].move;
};

/**
 * Adjusts a decisive value by the distance in plies at which it occurs, so that a
 * search prefers a quick win and a slow loss. Heuristic values are unchanged.
 */
export const byDistance = (v: number, ply: number): number =>
  v >= WIN_THRESHOLD ? v - ply : v <= -WIN_THRESHOLD ? v + ply : v;

/** The moves of a state in order, legal for the mover; chance outcomes at chance nodes. */
export const movesOf = <S>(game: Game<S>, s: S): readonly number[] =>
  game.toMove(s) === CHANCE ? game.chances(s).map((c) => c.move) : game.moves(s);

/** Plays a list of moves from a state, checking each for legality. */
export const playAll = <S>(game: Game<S>, s: S, moves: readonly number[]): S => {
  let state = s;
  for (const m of moves) {
    if (!movesOf(game, state).includes(m)) {
      throw new RangeError(`move ${m} is not legal in this position`);
    }
    state = game.play(state, m);
  }
  return state;
};
