/**
 * Pentago's picture for a web page (`Game.picture`): the four quadrants as plates with
 * their holes and marbles (white and black), the columns and rows named, and around the
 * board the eight twist arrows, two a quadrant, always drawn: on a quadrant's top or
 * bottom side and on its left or right side, each curving the way it turns the quadrant.
 * The last move's marble is ringed where its twist left it, and its arrow outlined.
 *
 * Tokens: a cell's notation, `a1` (bottom left) to `f6`; a twist is its quadrant and its
 * direction, `nw cw`, `nw ccw`, `ne cw`, ... `se ccw`. A move is its cell, then its twist
 * (`picks` is `[["c4", "ne cw"]]`); a placement that makes five wins at once and is its
 * cell alone (`[["c4"]]`: that cell has no twists). With the plugin's `dedupe` option,
 * which lists one move per resulting position, a move is also entered by every (cell,
 * twist) that reaches its position. A taken cell is refused with "c4 is taken", an
 * arrow before a cell with "place a marble first: point at a free cell". A finished
 * game's fives (both players' after a twist that made a draw) are `decisive`.
 *
 * @module
 */
import { CHANCE, type Game, type RenderOptions } from "../../core/game.ts";
import type { Picture } from "../../core/picture.ts";
import { el, LAST_COLOUR, lastCircle, num, overlay, runsOf, svgDocument, text } from "../svg.ts";
import { cellName, CELLS, colOf, COLUMNS, QUADRANT_NAMES, rowOf } from "./board.ts";
import { landingCell } from "./notation.ts";
import { cellAt, CW, NO_TWIST, ONGOING, type PentagoState } from "./rules.ts";

const CELL = 40, QGAP = 8, MARGIN = 66, QUADRANT = 3 * CELL;
const SIZE = 2 * MARGIN + 2 * QUADRANT + QGAP;
const ARC = 104, BAND = 6, HEAD = 7;
const PLATE = "#a63a32", HOLE = "#6e211c", MARBLES = ["#fafafa", "#1e1e1e"];

/** The token of twist `t` (`quadrant * 2 + direction`): `ne cw`, `sw ccw`. */
export const twistToken = (t: number): string =>
  `${QUADRANT_NAMES[t >> 1]} ${(t & 1) === CW ? "cw" : "ccw"}`;

/** The eight twist tokens, in twist order (`nw cw`, `nw ccw`, `ne cw`, ...). */
export const TWIST_TOKENS: readonly string[] = Array.from({ length: 8 }, (_, t) => twistToken(t));

const CELL_TOKENS: readonly string[] = Array.from({ length: CELLS }, (_, c) => cellName(c));

/** The centre of a cell (0 = a6, reading order) in the picture. */
const cellCentre = (cell: number) => {
  const r = rowOf(cell), c = colOf(cell);
  return {
    cx: MARGIN + c * CELL + CELL / 2 + (c >= 3 ? QGAP : 0),
    cy: MARGIN + r * CELL + CELL / 2 + (r >= 3 ? QGAP : 0),
  };
};

/** The centre of quadrant `q` (0 nw, 1 ne, 2 sw, 3 se). */
const quadrantCentre = (q: number) => ({
  x: MARGIN + (q % 2) * (QUADRANT + QGAP) + QUADRANT / 2,
  y: MARGIN + Math.floor(q / 2) * (QUADRANT + QGAP) + QUADRANT / 2,
});

/**
 * Where each twist's arrow lies: the angle (degrees, clockwise from the x axis, as SVG's
 * y grows downwards) of the middle of the quadrant's side it follows. Each quadrant's two
 * arrows point towards its outer corner.
 */
const ARROW_SIDE: readonly number[] = [
  180, // nw cw: the left side, going up
  270, // nw ccw: the top side, going left
  270, // ne cw: the top side, going right
  0, // ne ccw: the right side, going up
  90, // sw cw: the bottom side, going left
  180, // sw ccw: the left side, going down
  0, // se cw: the right side, going down
  90, // se ccw: the bottom side, going right
];

/** The outline of twist `t`'s arrow: a band along a circle round its quadrant, and a head. */
const arrowPath = (t: number): string => {
  const { x, y } = quadrantCentre(t >> 1);
  const side = ARROW_SIDE[t], dir = (t & 1) === CW ? 1 : -1;
  const at = (radius: number, degrees: number) => {
    const a = (degrees * Math.PI) / 180;
    return `${num(x + radius * Math.cos(a))} ${num(y + radius * Math.sin(a))}`;
  };
  const tail = side - 30 * dir, neck = side + 22 * dir, tip = side + 32 * dir;
  const outer = ARC + BAND, inner = ARC - BAND;
  const sweep = dir === 1 ? 1 : 0;
  return `M${at(outer, tail)}A${outer} ${outer} 0 0 ${sweep} ${at(outer, neck)}` +
    `L${at(outer + HEAD, neck)}L${at(ARC, tip)}L${at(inner - HEAD, neck)}L${at(inner, neck)}` +
    `A${inner} ${inner} 0 0 ${1 - sweep} ${at(inner, tail)}Z`;
};

const ARROWS: readonly string[] = Array.from({ length: 8 }, (_, t) => arrowPath(t));

/** The marbles of a position, as a string that is equal exactly for equal boards. */
const boardKey = (s: PentagoState) => `${s.white0},${s.white1},${s.black0},${s.black1}`;

/** The board: plates, holes and marbles (cells pickable), arrows (pickable), labels, marks. */
const svg = (s: PentagoState, view?: RenderOptions): string => {
  const shapes: string[] = [], over: string[] = [];
  for (let q = 0; q < 4; q++) {
    const { x, y } = quadrantCentre(q);
    shapes.push(el("rect", {
      x: x - QUADRANT / 2 - 3,
      y: y - QUADRANT / 2 - 3,
      width: QUADRANT + 6,
      height: QUADRANT + 6,
      rx: 10,
      fill: PLATE,
      stroke: "#5d1a15",
      "stroke-width": 1.5,
    }));
  }
  for (let cell = 0; cell < CELLS; cell++) {
    const v = cellAt(s, cell);
    shapes.push(el("circle", {
      ...cellCentre(cell),
      r: CELL / 2 - 5,
      fill: v === 0 ? HOLE : MARBLES[v - 1],
      stroke: v === 0 ? "#4a1512" : "#555555",
      "stroke-width": 1.5,
      "data-pick": CELL_TOKENS[cell],
    }));
  }
  for (let t = 0; t < 8; t++) {
    shapes.push(el("path", {
      d: ARROWS[t],
      fill: "#8c8c8c",
      stroke: "#5a5a5a",
      "stroke-width": 1,
      "data-pick": TWIST_TOKENS[t],
    }));
  }
  // Columns under the board and rows left of it, between the board and the arrows.
  for (let k = 0; k < 6; k++) {
    const { cx, cy } = cellCentre(k * 6 + k); // the diagonal: column k, row k from the top
    over.push(text(cx, SIZE - MARGIN + 13, COLUMNS[k], { "font-size": 11, fill: "#555555" }));
    over.push(text(MARGIN - 13, cy, String(6 - k), { "font-size": 11, fill: "#555555" }));
  }
  const last = view?.last;
  if (last !== undefined && last.by !== CHANCE && last.move >= 0 && last.move < NO_TWIST + CELLS) {
    const { cx, cy } = cellCentre(landingCell(last.move));
    over.push(lastCircle(cx, cy, CELL / 2 - 2, 3));
    if (last.move < NO_TWIST) {
      over.push(el("path", {
        d: ARROWS[last.move & 7],
        fill: "none",
        stroke: LAST_COLOUR,
        "stroke-width": 3,
      }));
    }
  }
  return svgDocument(SIZE, SIZE, shapes.join("") + overlay(over.join("")));
};

/**
 * Pentago's picture for `game` (the plugin's game: its legal moves, which a `dedupe`
 * listing thins, and its `play`, which maps every cell and twist to the listed move that
 * reaches the same position).
 */
export const pentagoPicture = (game: Game<PentagoState>): Picture<PentagoState> => {
  // The sequences of every legal move of the last few positions asked about.
  const known = new WeakMap<PentagoState, Map<number, string[][]>>();
  const sequences = (s: PentagoState): Map<number, string[][]> => {
    const cached = known.get(s);
    if (cached !== undefined) return cached;
    const legal = game.moves(s);
    const out = new Map<number, string[][]>();
    const winning = new Set<number>();
    for (const m of legal) {
      if (m >= NO_TWIST) winning.add(m - NO_TWIST);
      out.set(m, [
        m >= NO_TWIST ? [CELL_TOKENS[m - NO_TWIST]] : [CELL_TOKENS[m >> 3], TWIST_TOKENS[m & 7]],
      ]);
    }
    // A thinned listing: every other (free cell, twist) enters the listed move that
    // reaches the same position.
    let free = 0;
    for (let cell = 0; cell < CELLS; cell++) if (cellAt(s, cell) === 0) free++;
    if (legal.length > 0 && legal.length < winning.size + 8 * (free - winning.size)) {
      const reaching = new Map<string, number>();
      for (const m of legal) reaching.set(boardKey(game.play(s, m)), m);
      for (let cell = 0; cell < CELLS; cell++) {
        if (cellAt(s, cell) !== 0 || winning.has(cell)) continue;
        for (let t = 0; t < 8; t++) {
          if (out.has(cell * 8 + t)) continue;
          const m = reaching.get(boardKey(game.play(s, cell * 8 + t)));
          if (m !== undefined) out.get(m)!.push([CELL_TOKENS[cell], TWIST_TOKENS[t]]);
        }
      }
    }
    known.set(s, out);
    return out;
  };
  return {
    svg,
    picks: (s, m) => sequences(s).get(m) ?? [],
    refuse: (s, picks) => {
      if (s.result !== ONGOING) return "the game is over";
      if (TWIST_TOKENS.includes(picks[0])) return "place a marble first: point at a free cell";
      const cell = CELL_TOKENS.indexOf(picks[0]);
      if (cell < 0) return undefined;
      if (cellAt(s, cell) !== 0) return `${picks[0]} is taken`;
      if (picks.length > 1 && !TWIST_TOKENS.includes(picks[1])) {
        return `now turn a quadrant: point at one of the eight arrows (or start again)`;
      }
      return undefined;
    },
    decisive: (s) =>
      s.result === ONGOING
        ? []
        : runsOf(Array.from({ length: CELLS }, (_, c) => cellAt(s, c)), 6, 6, 5).map((c) =>
          CELL_TOKENS[c]
        ),
  };
};
