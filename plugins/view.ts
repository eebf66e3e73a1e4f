/**
 * What the built-in plugins share to draw a board for a person (`render(s, view)`): the
 * ANSI styles of the players' pieces and of the last move, styled spans laid over a
 * plain line, and plain-text brackets that mark a cell in place of the spaces around it
 * (so columns stay where they were).
 *
 * A plugin builds its plain lines as `render(s)` always has, then marks the last move
 * on them: with colour, `paintSpans` wraps the cells in escape codes (nothing moves);
 * without, `bracket` turns the space before and the space after a cell into `[` and `]`.
 *
 * @module
 */

/** The SGR parameters of the last move's cells: bold, reverse video. */
export const LAST_STYLE = "1;7";

/** The SGR parameters of a piece of style `sgr` that the last move placed. */
export const lastStyle = (sgr: string): string => `${sgr};${LAST_STYLE}`;

/** The SGR parameters of each player's pieces (bold red, bold blue), player 0 first. */
export const PLAYER_STYLES: readonly [string, string] = ["1;31", "1;34"];

/** The escape sequence that ends a style. */
export const RESET = "\x1b[0m";

/** A styled stretch of a line: `length` characters from column `at`. */
export interface Span {
  /** The first column (0-based, in the plain line). */
  readonly at: number;
  /** How many characters. */
  readonly length: number;
  /** The SGR parameters, such as `"1;31"` (several joined by `;`). */
  readonly sgr: string;
}

/**
 * Wraps each span of a plain line in its escape codes; the text itself is unchanged.
 * Spans must not overlap.
 *
 * @example
 * ```ts
 * import { paintSpans } from "./view.ts";
 * const line = paintSpans("X | O", [{ at: 0, length: 1, sgr: "31" }]);
 * if (line !== "\x1b[31mX\x1b[0m | O") throw new Error(JSON.stringify(line));
 * ```
 */
export const paintSpans = (line: string, spans: readonly Span[]): string => {
  let out = line;
  // From the right, so that the columns still to paint do not move.
  for (const s of [...spans].sort((a, b) => b.at - a.at)) {
    out = `${out.slice(0, s.at)}\x1b[${s.sgr}m${out.slice(s.at, s.at + s.length)}${RESET}${
      out.slice(s.at + s.length)
    }`;
  }
  return out;
};

/**
 * Marks `length` characters from column `at` with `[` in place of the character before
 * them and `]` in place of the one after (appended at the end of the line). Both should
 * be spaces, so nothing else moves.
 *
 * @example
 * ```ts
 * import { bracket } from "./view.ts";
 * if (bracket(" X | O", 1, 1) !== "[X]| O") throw new Error();
 * if (bracket(" X | O", 5, 1) !== " X |[O]") throw new Error();
 * ```
 */
export const bracket = (line: string, at: number, length: number): string => {
  const end = at + length;
  return `${line.slice(0, at - 1)}[${line.slice(at, end)}]${line.slice(end + 1)}`;
};

/**
 * A text without its ANSI styles (what a terminal without colour would show).
 *
 * @example
 * ```ts
 * import { stripAnsi } from "./view.ts";
 * if (stripAnsi("\x1b[1;7mX\x1b[0m") !== "X") throw new Error();
 * ```
 */
// deno-lint-ignore no-control-regex
export const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, "");
