/**
 * Tic-tac-toe's picture for a web page (`Game.picture`): the 3x3 grid, X in red and O in
 * blue, the last mark ringed.
 *
 * Tokens: a cell's notation, `a1` (bottom left) to `c3` (top right); a move is its cell
 * alone (`picks` is `[["b2"]]`). A taken cell is refused with "b2 is taken". A won game's
 * three in a row is `decisive`.
 *
 * @module
 */
import { CHANCE, type Game, type RenderOptions } from "../../core/game.ts";
import type { Picture } from "../../core/picture.ts";
import { el, lastRect, overlay, PLAYER_COLOURS, runsOf, svgDocument, text } from "../svg.ts";

/** A tic-tac-toe state as `tictactoe.ts` lays it out: nine cells in reading order, the mover. */
type Cells = readonly number[];

const SIDE = 60, MARGIN = 24;

/** The cell's notation: column letter, row number from the bottom (`b2` the centre). */
const cellName = (i: number) => `${"abc"[i % 3]}${3 - Math.floor(i / 3)}`;

/** The mark (1 X, 2 O) drawn in the cell whose top-left corner is (x, y). */
const mark = (v: number, x: number, y: number): string => {
  const p = SIDE * 0.22, w = SIDE * 0.1;
  if (v === 1) {
    return el("path", {
      d: `M${x + p} ${y + p}L${x + SIDE - p} ${y + SIDE - p}M${x + SIDE - p} ${y + p}L${x + p} ${
        y + SIDE - p
      }`,
      stroke: PLAYER_COLOURS[0],
      "stroke-width": w,
      "stroke-linecap": "round",
    });
  }
  return el("circle", {
    cx: x + SIDE / 2,
    cy: y + SIDE / 2,
    r: SIDE / 2 - p,
    fill: "none",
    stroke: PLAYER_COLOURS[1],
    "stroke-width": w,
  });
};

/** The grid: each cell a pickable square, the marks over them, the last mark ringed. */
const svg = (s: Cells, view?: RenderOptions): string => {
  const cells: string[] = [], marks: string[] = [];
  for (let i = 0; i < 9; i++) {
    const x = MARGIN + (i % 3) * SIDE, y = MARGIN + Math.floor(i / 3) * SIDE;
    cells.push(el("rect", {
      x,
      y,
      width: SIDE,
      height: SIDE,
      fill: "#fafafa",
      stroke: "#555555",
      "stroke-width": 2,
      "data-pick": cellName(i),
    }));
    if (s[i] !== 0) marks.push(mark(s[i], x, y));
  }
  const last = view?.last;
  if (last !== undefined && last.by !== CHANCE && last.move >= 0 && last.move < 9) {
    const x = MARGIN + (last.move % 3) * SIDE, y = MARGIN + Math.floor(last.move / 3) * SIDE;
    marks.push(lastRect(x + 4, y + 4, SIDE - 8, SIDE - 8, 3, 6));
  }
  const labels: string[] = [];
  for (let k = 0; k < 3; k++) {
    const mid = MARGIN + k * SIDE + SIDE / 2;
    labels.push(text(mid, MARGIN + 3 * SIDE + MARGIN / 2, "abc"[k], { "font-size": 13 }));
    labels.push(text(MARGIN / 2, mid, String(3 - k), { "font-size": 13 }));
  }
  const size = 2 * MARGIN + 3 * SIDE;
  return svgDocument(size, size, cells.join("") + overlay(marks.join("") + labels.join("")));
};

/**
 * Tic-tac-toe's picture for `game` (the plugin's game, whose legal moves and notation it
 * uses).
 */
export const ticTacToePicture = (game: Game<Cells>): Picture<Cells> => ({
  svg,
  picks: (s, m) => [[game.formatMove(s, m)]],
  refuse: (s, picks) => {
    if (game.moves(s).length === 0) return "the game is over";
    const i = Array.from({ length: 9 }, (_, k) => cellName(k)).indexOf(picks[0]);
    if (i < 0) return undefined;
    return s[i] !== 0 ? `${picks[0]} is taken` : undefined;
  },
  decisive: (s) => runsOf(s.slice(0, 9), 3, 3, 3).map(cellName),
});
