/**
 * A game's picture for a web page: the optional part of the protocol (`Game.picture`)
 * that draws a position as SVG and says how pointing and keys become moves.
 *
 * The page knows nothing of any game. It shows `svg(s, view)`; every element a player
 * can point at carries `data-pick="TOKEN"`. A move is entered as a short sequence of
 * tokens, `picks(s, m)` (a cell, then a twist arrow; a domino's two cells in either
 * order; a house), or by a key: the token `key:ArrowUp` is the key whose
 * `KeyboardEvent.key` is `ArrowUp` (a swipe on a touch screen is its arrow key). As the
 * player points, the page highlights the tokens that can come next, and a sequence that
 * makes no legal move is refused with `refuse(s, picks)`'s reason.
 *
 * A game without a picture gets the page's generic view: its `render` text and its
 * legal moves as buttons.
 *
 * @example Tic-tac-toe's cells are its tokens
 * ```ts
 * import tictactoe from "../plugins/tictactoe.ts";
 * const game = tictactoe.create({});
 * const s = game.initial();
 * const picture = game.picture!;
 * const [first] = game.moves(s);
 * const [sequence] = picture.picks(s, first);
 * if (!picture.svg(s).includes(`data-pick="${sequence[0]}"`)) throw new Error("no target");
 * ```
 *
 * @module
 */
import type { RenderOptions } from "./game.ts";

/** The prefix of a token that is a key rather than an element (`key:ArrowLeft`). */
export const KEY_PREFIX = "key:";

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
}
