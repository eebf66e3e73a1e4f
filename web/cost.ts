/**
 * How big a board the new-game form describes, against the game's default board, for the
 * warning the form shows before an expensive game with an AI (Kalah with many pits and
 * stones, a big 2048 or Domineering board, Nim with big heaps). Plain functions, no DOM:
 * the threshold is kept here, and only here.
 *
 * A board's size is the product of the numbers in its basic options (the AI's own settings
 * are advanced ones, left out): Kalah's pits × stones, 2048's width × height, Domineering's
 * `WxH`, Nim's heaps. A number below 1 counts as 1.
 *
 * @module
 */
import type { GameEntry } from "../server/protocol.ts";

/**
 * A board this many times the default's size or more, with an AI playing, is warned of
 * (Kalah 10 pits × 10 stones against the default 6 × 4; 2048 or Domineering at twice the
 * default's width and height).
 */
export const EXPENSIVE_FACTOR = 4;

/** The product of the numbers in an option's text (`6`, `8x8`, `3,4,5`), each at least 1. */
const sizeOf = (text: string): number =>
  (text.match(/\d+(\.\d+)?/g) ?? []).reduce((p, n) => p * Math.max(1, Number(n)), 1);

/**
 * How many times the default board's size the form's board is (1 at the defaults), from
 * the option texts by name (an empty or absent text is the default).
 */
export const boardFactor = (
  entry: GameEntry,
  values: Readonly<Record<string, string>>,
): number => {
  let chosen = 1, standard = 1;
  for (const o of entry.options) {
    if (o.advanced) continue;
    const v = values[o.name]?.trim() ?? "";
    chosen *= sizeOf(v === "" ? o.default : v);
    standard *= sizeOf(o.default);
  }
  return chosen / standard;
};

/**
 * The warning the form shows for a board, or undefined: when an AI plays and the board is
 * `EXPENSIVE_FACTOR` times the default's size or more.
 */
export const costWarning = (factor: number, aiPlays: boolean): string | undefined =>
  aiPlays && factor >= EXPENSIVE_FACTOR
    ? `This board is ${
      factor >= 100 ? Math.round(factor) : Number(factor.toFixed(1))
    } times the default's size: the AI may think longer or play weaker, and the game may ` +
      "run long and load the server."
    : undefined;
