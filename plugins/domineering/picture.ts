/**
 * Domineering's picture for a web page (`Game.picture`), drawn as seed 003's `boardSVG`
 * draws a board (`svg.ts`'s cells and dominoes: H blue, V orange): every cell of the
 * board, the dominoes over them, the columns and rows named, and the last domino
 * outlined. A state does not keep the order of the moves, so the dominoes carry no
 * round numbers.
 *
 * Tokens: a cell's notation as moves write it, `b3` (or `2:3` on boards beyond a-z, see
 * `formatCell`). A move is its domino's two cells in either order, in the mover's
 * orientation (`picks` is `[["b3", "c3"], ["c3", "b3"]]` for H's `b3`): a single cell is
 * the start of several moves, a pair of cells is one move. A cell under a domino is
 * refused with "c3 is covered", a free cell that no domino of the mover's fits with
 * "no room for a vertical domino at c3".
 *
 * @module
 */
import type { RenderOptions } from "../../core/game.ts";
import type { Picture } from "../../core/picture.ts";
import { esc, lastRect, overlay, svgDocument, text } from "../svg.ts";
import { type DomineeringGame, type DomState, formatCell, turnOf } from "./board.ts";
import { cellSVG, dominoSVG } from "./svg.ts";

const C = 40, MARGIN = 24;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Domineering's picture for `game` (the plugin's game: its board's geometry). */
export const domineeringPicture = (game: DomineeringGame): Picture<DomState> => {
  const g = game.geometry;
  const w = g.width, h = g.height;
  const isCell = (r: number, c: number) =>
    r >= 0 && r < h && c >= 0 && c < w && ((g.rows[r] >>> c) & 1) === 1;
  const tokens = new Map<string, number>();
  for (const m of g.order) tokens.set(formatCell(g, m), m);
  const px = (c: number) => MARGIN + c * C;
  const py = (r: number) => MARGIN + (h - 1 - r) * C; // row 0 (the bottom) is drawn lowest
  /** The other cell of the mover's domino whose lower-left cell is `m`. */
  const partner = (s: DomState, m: number) => turnOf(g, s) === "H" ? m + 1 : m + w;

  const svg = (s: DomState, view?: RenderOptions): string => {
    const cells: string[] = [], marks: string[] = [];
    const free = (r: number, c: number) => ((s[r] >>> c) & 1) === 1;
    const byV = (r: number, c: number) => ((s[h + r] >>> c) & 1) === 1;
    for (const m of g.order) {
      const r = Math.floor(m / w), c = m % w;
      cells.push(cellSVG(px(c), py(r), C, ` data-pick="${esc(formatCell(g, m))}"`));
    }
    // The dominoes: a run of covered cells splits one way only, so the first cell not
    // yet drawn, from the bottom for V and from the left for H, starts a domino.
    const drawn = new Set<number>();
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const m = r * w + c;
        if (!isCell(r, c) || free(r, c) || drawn.has(m)) continue;
        const v = byV(r, c);
        drawn.add(v ? m + w : m + 1);
        marks.push(dominoSVG(v ? "V" : "H", px(c), py(v ? r + 1 : r), C));
      }
    }
    const last = view?.last;
    if (last !== undefined && (last.by === 0 || last.by === 1)) {
      const r = Math.floor(last.move / w), c = last.move % w;
      const across = last.by === 1; // H (player 1) places across
      if (isCell(r, c)) {
        marks.push(lastRect(
          px(c) + 2,
          py(across ? r : r + 1) + 2,
          (across ? 2 : 1) * C - 4,
          (across ? 1 : 2) * C - 4,
          3,
          7,
        ));
      }
    }
    for (let c = 0; c < w; c++) {
      const label = g.letters ? LETTERS[g.x0 + c - 1] : String(g.x0 + c);
      marks.push(text(px(c) + C / 2, MARGIN + h * C + MARGIN / 2, label, { "font-size": 12 }));
    }
    for (let r = 0; r < h; r++) {
      marks.push(text(MARGIN / 2, py(r) + C / 2, String(g.y0 + r), { "font-size": 12 }));
    }
    return svgDocument(
      w * C + 2 * MARGIN,
      h * C + 2 * MARGIN,
      cells.join("") + overlay(marks.join("")),
    );
  };

  return {
    svg,
    picks: (s, m) => {
      const a = formatCell(g, m), b = formatCell(g, partner(s, m));
      return [[a, b], [b, a]];
    },
    refuse: (s, picks) => {
      const legal = game.moves(s);
      if (legal.length === 0) return "the game is over";
      const first = tokens.get(picks[0]);
      if (first === undefined) return undefined;
      const p = turnOf(g, s);
      const kind = p === "H" ? "horizontal" : "vertical";
      const covered = (m: number) => ((s[Math.floor(m / w)] >>> (m % w)) & 1) === 0;
      if (covered(first)) return `${picks[0]} is covered`;
      if (!legal.some((m) => m === first || partner(s, m) === first)) {
        return `no room for a ${kind} domino at ${picks[0]}`;
      }
      if (picks.length < 2) return undefined;
      if (picks.length > 2) return "a domino covers two cells";
      const second = tokens.get(picks[1]);
      if (second === undefined) return undefined;
      if (second === first) return `${picks[0]} is picked already: point at a second cell`;
      if (covered(second)) return `${picks[1]} is covered`;
      const [lo, hi] = first < second ? [first, second] : [second, first];
      if (hi !== (p === "H" ? lo + 1 : lo + w) || (p === "H" && lo % w === w - 1)) {
        return p === "H"
          ? `a horizontal domino covers ${picks[0]} and the cell to its left or right`
          : `a vertical domino covers ${picks[0]} and the cell above or below it`;
      }
      return undefined;
    },
  };
};
