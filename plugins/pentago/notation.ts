/**
 * Pentago notation and the text board.
 *
 * A move is a cell, a quadrant and a direction: `c4 ne cw` places on c4 (column c, row
 * 4; `a1` is the bottom left) and turns the north-east quadrant clockwise. Quadrants are
 * `nw`, `ne`, `sw`, `se` (also `1`-`4` in reading order, or seed 002's `lt`, `rt`, `lb`,
 * `rb`); directions are `cw` / `ccw` (also `r` / `l`, `clockwise` / `anticlockwise`).
 * Case and spaces do not matter (`C4NECW` reads the same). A placement that makes five
 * wins at once and is written alone, `c4`; a twist given with it is accepted and moot.
 *
 * @module
 */
import { Result } from "../../core/deps.ts";
import type { ParseResult } from "../../core/game.ts";
import { cellName, COLUMNS, QUADRANT_NAMES } from "./board.ts";
import {
  BLACK_WON,
  cellAt,
  DRAW,
  NO_TWIST,
  ONGOING,
  type PentagoState,
  WHITE_WON,
} from "./rules.ts";

/** The marks of white (player 0) and black on the board. */
export const MARKS = ".ox";

/** Writes a move: `c4 ne cw`, or `c4` for a winning placement. */
export const formatMove = (m: number): string => {
  if (m >= NO_TWIST) return cellName(m - NO_TWIST);
  return `${cellName(m >> 3)} ${QUADRANT_NAMES[(m >> 1) & 3]} ${m & 1 ? "ccw" : "cw"}`;
};

const QUADRANT_WORDS: Readonly<Record<string, number>> = {
  nw: 0,
  ne: 1,
  sw: 2,
  se: 3,
  "1": 0,
  "2": 1,
  "3": 2,
  "4": 3,
  lt: 0,
  tl: 0,
  rt: 1,
  tr: 1,
  lb: 2,
  bl: 2,
  rb: 3,
  br: 3,
};

const DIRECTION_WORDS: Readonly<Record<string, number>> = {
  cw: 0,
  r: 0,
  right: 0,
  clockwise: 0,
  ccw: 1,
  acw: 1,
  l: 1,
  left: 1,
  anticlockwise: 1,
  counterclockwise: 1,
};

/** What a move looks like, for error messages. */
export const MOVE_HELP: string = "a move like 'c4 ne cw': a cell a1-f6 (a1 is bottom left), " +
  "a quadrant nw, ne, sw or se (or 1-4), and a direction cw or ccw";

/**
 * Reads a move as typed; the error says what was expected. `winsAt(s, cell)` tells
 * whether placing there makes five (then the move is the placement alone), and
 * `canonical` maps a twist to the listed move that reaches the same position (the
 * duplicate-removal option lists one move per position).
 */
export const parseMove = (
  s: PentagoState,
  text: string,
  winsAt: (s: PentagoState, cell: number) => boolean,
  canonical: (s: PentagoState, m: number) => number = (_s, m) => m,
): ParseResult => {
  const t = text.trim().toLowerCase().replace(/[\s,;/:-]+/g, " ");
  const cellMatch = /^([a-z])\s*(\d+)\s*(.*)$/.exec(t);
  if (cellMatch === null) return Result.fail(`expected ${MOVE_HELP}`);
  const [, col, rowText, rest] = cellMatch;
  const c = COLUMNS.indexOf(col);
  if (c < 0) return Result.fail(`'${col}' is not a column: columns are a-f`);
  const row = Number(rowText);
  if (row < 1 || row > 6) return Result.fail(`row ${rowText} is off the board: rows are 1-6`);
  const cell = (6 - row) * 6 + c;
  let twist = -1;
  if (rest !== "") {
    const words = rest.split(" ");
    const tw = /^([a-z]{2}|[1-4]) ?([a-z]+)$/.exec(rest);
    if (DIRECTION_WORDS[words[0]] !== undefined) {
      return Result.fail("expected a quadrant (nw, ne, sw, se or 1-4) before the direction");
    }
    if (tw === null) {
      return Result.fail(
        QUADRANT_WORDS[words[0]] !== undefined && words.length === 1
          ? `after the quadrant '${words[0]}', expected a direction cw or ccw`
          : `can't read '${rest}' after the cell: expected a quadrant (nw, ne, sw, se ` +
            "or 1-4) and a direction (cw or ccw)",
      );
    }
    const q = QUADRANT_WORDS[tw[1]];
    if (q === undefined) {
      return Result.fail(`'${tw[1]}' is not a quadrant: expected nw, ne, sw or se (or 1-4)`);
    }
    const d = DIRECTION_WORDS[tw[2]];
    if (d === undefined) return Result.fail(`'${tw[2]}' is not a direction: expected cw or ccw`);
    twist = q * 2 + d;
  }
  if (s.result !== ONGOING) return Result.fail("the game is over");
  const name = cellName(cell);
  if (cellAt(s, cell) !== 0) return Result.fail(`${name} is taken`);
  if (winsAt(s, cell)) return Result.succeed(NO_TWIST + cell);
  if (twist < 0) {
    return Result.fail(
      `${name} needs a twist after the placement: add a quadrant and a direction, ` +
        `as in '${name} ne cw'`,
    );
  }
  return Result.succeed(canonical(s, cell * 8 + twist));
};

/** The state's status line. */
export const status = (s: PentagoState, players: readonly [string, string]): string => {
  switch (s.result) {
    case WHITE_WON:
      return `${players[0]} (o) wins`;
    case BLACK_WON:
      return `${players[1]} (x) wins`;
    case DRAW:
      return "draw";
    default:
      return `${players[s.turn]} (${MARKS[s.turn + 1]}) to move`;
  }
};

/**
 * The board as text, quadrants boxed and named, columns and rows labelled:
 *
 * ```text
 *     a b c   d e f
 *   +-- nw -+-- ne -+
 * 6 | . . . | . . . | 6
 * ...
 * ```
 */
export const render = (s: PentagoState, players: readonly [string, string]): string => {
  const files = "    a b c   d e f\n";
  const rowLine = (r: number) => {
    const cells = Array.from({ length: 6 }, (_, c) => MARKS[cellAt(s, r * 6 + c)]);
    const label = 6 - r;
    return `${label} | ${cells.slice(0, 3).join(" ")} | ${cells.slice(3).join(" ")} | ${label}\n`;
  };
  let out = files + "  +-- nw -+-- ne -+\n";
  for (let r = 0; r < 3; r++) out += rowLine(r);
  out += "  +-- sw -+-- se -+\n";
  for (let r = 3; r < 6; r++) out += rowLine(r);
  out += "  +-------+-------+\n" + files;
  const hint = s.result === ONGOING ? "   (a move: cell quadrant cw|ccw, e.g. c4 ne cw)" : "";
  return `${out}${status(s, players)}${hint}\n`;
};
