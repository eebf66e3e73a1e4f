/// <reference lib="dom" />
/**
 * The legal moves' buttons (`#move-buttons`) folded away (`details#move-fold`) when they
 * are many on a board one points at (Pentago's 256 to 288): the board is the way to
 * move there, and the buttons stay one click away. Few moves, or a game without a
 * picture (its buttons are the way to move), keep them open.
 *
 * @module
 */
import { byId, setText } from "./dom.ts";

/** More legal moves than this, on a board one points at, are folded away. */
export const FOLD_OVER = 40;

/** True when `count` legal moves are folded away (`picture`: the game has a board to point at). */
export const folds = (count: number, picture: boolean): boolean => picture && count > FOLD_OVER;

/** Whether the last position folded its buttons: a person's opening is kept until that changes. */
let folded: boolean | undefined;

/** Folds or unfolds `#move-fold` for `count` legal moves, and says how many it holds. */
export const foldButtons = (count: number, picture: boolean): void => {
  const fold = byId<HTMLDetailsElement>("move-fold");
  const now = folds(count, picture);
  if (now !== folded) fold.open = !now;
  folded = now;
  fold.classList.toggle("folding", now);
  setText(byId("move-fold-count"), now ? `the ${count} legal moves as buttons` : "legal moves");
};
