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
 * import tictactoe from "../plugins/tictactoe/mod.ts";
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

/** The prefix of a token that is a key rather than an element (`key:ArrowLeft`). */
export const KEY_PREFIX = "key:";

export type { Picture } from "./game.ts";
