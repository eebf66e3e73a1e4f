/**
 * Pentago notation and the text board.
 *
 * A move is a cell, a quadrant and a direction: `c4 ne cw` places on c4 (column c, row
 * 4; `a1` is the bottom left) and turns the north-east quadrant clockwise. Quadrants are
 * `nw`, `ne`, `sw`, `se` (also `1`-`4` in reading order, or seed 002's `lt`, `rt`, `lb`,
 * `rb`); directions are `cw` / `ccw` (also `r` / `l`, `clockwise` / `anticlockwise`).
 * Case and spaces do not matter (`C4NECW` reads the same). The short form ends with `+`
 * for clockwise or `-` for anticlockwise: `c4ne+` is `c4 ne cw`, `c4 sw -` is
 * `c4 sw ccw`. A placement that makes five wins at once and is written alone, `c4`; a
 * twist given with it is accepted and moot.
 *
 * @module
 */
import { Result } from "../../core/deps.ts";
import { CHANCE, type ParseResult, type RenderOptions } from "../../core/game.ts";
import { bracket, LAST_STYLE, paintSpans } from "../view.ts";
import { cellName, colOf, COLUMNS, QUADRANT_NAMES, quadrantOf, rowOf } from "./board.ts";
import {
  BLACK_WON,
  cellAt,
  CW,
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
  "a quadrant nw, ne, sw or se (or 1-4), and a direction cw or ccw (or + or -: c4ne+)";

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
  // The short form's final sign is the direction: `c4ne+` / `c4 ne -`.
  const signed = /^(.*?)\s*([+-])$/.exec(text.trim().toLowerCase());
  const long = signed === null
    ? text.trim().toLowerCase()
    : `${signed[1]} ${signed[2] === "+" ? "cw" : "ccw"}`;
  const t = long.replace(/[\s,;/:-]+/g, " ").trim();
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
export const render = (
  s: PentagoState,
  players: readonly [string, string],
  view?: RenderOptions,
): string => {
  const files = "    a b c   d e f";
  const rowLine = (r: number) => {
    const cells = Array.from({ length: 6 }, (_, c) => MARKS[cellAt(s, r * 6 + c)]);
    const label = 6 - r;
    return `${label} | ${cells.slice(0, 3).join(" ")} | ${cells.slice(3).join(" ")} | ${label}`;
  };
  const lines = [files, "  +-- nw -+-- ne -+"];
  for (let r = 0; r < 3; r++) lines.push(rowLine(r));
  lines.push("  +-- sw -+-- se -+");
  for (let r = 3; r < 6; r++) lines.push(rowLine(r));
  lines.push("  +-------+-------+", files);
  const last = view?.last;
  if (last !== undefined && last.by !== CHANCE) markLast(lines, last.move, view?.color === true);
  const hint = s.result === ONGOING ? "   (a move: cell quadrant cw|ccw, e.g. c4 ne cw)" : "";
  return `${lines.join("\n")}\n${status(s, players)}${hint}\n`;
};

/** The picture's line of each board row (0 = the top row, row 6). */
const rowLineIndex = (r: number) => r + (r >= 3 ? 3 : 2);

/** The column of board column `c` (0 = a) in a row line (`6 | . . . | . . . | 6`). */
const cellColumn = (c: number) => 4 + 2 * c + (c >= 3 ? 2 : 0);

/**
 * Where a marble placed on `cell` lies after move `m`'s twist (the same cell when the
 * twist turns another quadrant, or for a winning placement, which has none).
 */
export const landingCell = (m: number): number => {
  if (m >= NO_TWIST) return m - NO_TWIST;
  const cell = m >> 3, q = (m >> 1) & 3;
  if (quadrantOf(cell) !== q) return cell;
  const r0 = q >= 2 ? 3 : 0, c0 = q % 2 === 1 ? 3 : 0;
  const r = rowOf(cell) - r0, c = colOf(cell) - c0;
  // Clockwise, local (r, c) goes to (c, 2 - r); anticlockwise to (2 - c, r).
  const [nr, nc] = (m & 1) === CW ? [c, 2 - r] : [2 - c, r];
  return (r0 + nr) * 6 + c0 + nc;
};

/**
 * Marks move `m` on the picture's lines: the marble it placed, where the twist left it
 * (`[o]`, or reverse video with colour), and the twisted quadrant's name in the frame
 * with the direction (`-- ne -` becomes ` ne cw ` or ` ne ccw`).
 */
const markLast = (lines: string[], m: number, color: boolean): void => {
  const cell = landingCell(m);
  const row = rowLineIndex(rowOf(cell)), at = cellColumn(colOf(cell));
  lines[row] = color
    ? paintSpans(lines[row], [{ at, length: 1, sgr: LAST_STYLE }])
    : bracket(lines[row], at, 1);
  if (m >= NO_TWIST) return;
  const q = (m >> 1) & 3;
  const frame = q < 2 ? 1 : 5, from = q % 2 === 0 ? 3 : 11;
  const label = `${` ${QUADRANT_NAMES[q]} ${(m & 1) === CW ? "cw" : "ccw"}`.padEnd(7)}`;
  const framed = lines[frame].slice(0, from) + label + lines[frame].slice(from + 7);
  lines[frame] = color
    ? paintSpans(framed, [{ at: from + 1, length: label.trim().length, sgr: LAST_STYLE }])
    : framed;
};

/**
 * Help on the legal moves of `s` for a person: the board with every free cell named
 * (taken ones show their marble), the quadrants and directions, how to type a move,
 * and the placements that win at once (typed alone). Not the 288 moves.
 *
 * `winsAt(s, cell)` tells whether placing on `cell` makes five.
 */
export const movesHelp = (
  s: PentagoState,
  winsAt: (s: PentagoState, cell: number) => boolean,
): string => {
  if (s.result !== ONGOING) return "the game is over\n";
  const name = (cell: number) => {
    const v = cellAt(s, cell);
    return v === 0 ? cellName(cell) : ` ${MARKS[v]}`;
  };
  const row = (r: number) => {
    const names = Array.from({ length: 6 }, (_, c) => name(r * 6 + c));
    return `  ${names.slice(0, 3).join(" ")} | ${names.slice(3).join(" ")}`;
  };
  const lines = ["     nw         ne"];
  for (let r = 0; r < 3; r++) lines.push(row(r));
  lines.push("  ---------+---------");
  for (let r = 3; r < 6; r++) lines.push(row(r));
  lines.push("     sw         se");
  lines.push(
    "Place on a free cell above, then turn a quadrant (nw ne sw se) a quarter turn",
    "cw (or +) or ccw (or -): c4 ne cw is c4ne+, c4 sw ccw is c4sw-.",
  );
  const wins: string[] = [];
  for (let cell = 0; cell < 36; cell++) {
    if (cellAt(s, cell) === 0 && winsAt(s, cell)) wins.push(cellName(cell));
  }
  if (wins.length > 0) lines.push(`Five in a row at once (type the cell alone): ${wins.join(" ")}`);
  return `${lines.join("\n")}\n`;
};
