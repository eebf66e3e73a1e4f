/**
 * Nim's picture for a web page (`Game.picture`): every heap a column of stones on a
 * plate (ten stones a column; a larger heap takes more columns, filled from the
 * bottom), its number and size under it; the stones the last move took are drawn as
 * dashed rings above what is left.
 *
 * Tokens: the stone that taking `k` stones from heap `h` would reach (the `k`-th from the
 * top of heap `h`, heaps numbered from 1) is `h-k`, the move's own notation: pointing at
 * it takes it and every stone above it (`picks` is `[["2-3"]]`). A heap's plate is
 * `heap h`; it makes no move, and pointing at an empty heap's plate is refused with
 * "heap 2 is empty".
 *
 * @module
 */
import { CHANCE, type Game, type RenderOptions } from "../../core/game.ts";
import type { Picture } from "../../core/picture.ts";
import { el, LAST_COLOUR, overlay, svgDocument, text } from "../svg.ts";

/** A Nim state as `nim.ts` lays it out: the heap sizes, then the mover. */
type Heaps = readonly number[];

/** Stones per column of a heap. */
const ROWS = 10;
const D = 26, GAP = 18, MARGIN = 14, PLATE = 8, LABEL = 34;
const STONE = "#6d8a96", PLATE_FILL = "#d7ccc8";

/** The stone's token: the move that takes it and everything above it. */
const stoneToken = (heap: number, fromTop: number) => `${heap + 1}-${fromTop}`;
const plateToken = (heap: number) => `heap ${heap + 1}`;

/**
 * Nim's picture for `game` (the plugin's game: its start gives each heap's room, its
 * notation `HEAP-COUNT` the tokens and the last move's heap and count).
 */
export const nimPicture = (game: Game<Heaps>): Picture<Heaps> => {
  const start = game.initial();
  const n = start.length - 1;
  const columns = start.slice(0, n).map((size) => Math.max(1, Math.ceil(size / ROWS)));
  const rows = Math.max(1, Math.min(ROWS, Math.max(...start.slice(0, n))));
  const lefts: number[] = [];
  let x = MARGIN;
  for (let i = 0; i < n; i++) {
    lefts.push(x);
    x += columns[i] * D + GAP;
  }
  const width = x - GAP + MARGIN;
  const base = MARGIN + rows * D; // the plates' top
  const height = base + PLATE + LABEL;
  const centre = (heap: number, j: number) => ({
    cx: lefts[heap] + Math.floor(j / ROWS) * D + D / 2,
    cy: base - (j % ROWS) * D - D / 2,
  });
  /** The heap and count of a move, read from its notation `HEAP-COUNT`. */
  const decode = (s: Heaps, m: number): { heap: number; count: number } | undefined => {
    const t = /^(\d+)-(\d+)$/.exec(game.formatMove(s, m));
    return t === null ? undefined : { heap: Number(t[1]) - 1, count: Number(t[2]) };
  };
  const svg = (s: Heaps, view?: RenderOptions): string => {
    const shapes: string[] = [], over: string[] = [];
    const last = view?.last === undefined || view.last.by === CHANCE
      ? undefined
      : decode(s, view.last.move);
    for (let h = 0; h < n; h++) {
      const w = columns[h] * D;
      shapes.push(el("rect", {
        x: lefts[h] - 3,
        y: base + 2,
        width: w + 6,
        height: PLATE,
        rx: 3,
        fill: PLATE_FILL,
        stroke: "#8d7b73",
        "data-pick": plateToken(h),
      }));
      for (let j = 0; j < s[h]; j++) {
        shapes.push(el("circle", {
          ...centre(h, j),
          r: D / 2 - 2,
          fill: STONE,
          stroke: "#37474f",
          "stroke-width": 1.5,
          "data-pick": stoneToken(h, s[h] - j),
        }));
      }
      const isLast = last !== undefined && last.heap === h;
      if (isLast) {
        for (let j = s[h]; j < s[h] + last.count; j++) {
          over.push(el("circle", {
            ...centre(h, j),
            r: D / 2 - 3,
            fill: "none",
            stroke: LAST_COLOUR,
            "stroke-width": 2,
            "stroke-dasharray": "4 3",
          }));
        }
      }
      over.push(text(lefts[h] + w / 2, base + PLATE + 12, `${h + 1}`, {
        "font-size": 13,
        "font-weight": "bold",
        fill: isLast ? LAST_COLOUR : "#333333",
      }));
      over.push(text(lefts[h] + w / 2, base + PLATE + 26, `(${s[h]})`, {
        "font-size": 11,
        fill: "#555555",
      }));
    }
    return svgDocument(width, height, shapes.join("") + overlay(over.join("")));
  };
  return {
    svg,
    picks: (s, m) => [[game.formatMove(s, m)]],
    refuse: (s, picks) => {
      if (game.moves(s).length === 0) return "the game is over";
      const plate = /^heap (\d+)$/.exec(picks[0]);
      const stone = /^(\d+)-(\d+)$/.exec(picks[0]);
      const heap = Number((plate ?? stone)?.[1]);
      if (!(heap >= 1 && heap <= n)) return undefined;
      const size = s[heap - 1];
      if (size === 0) return `heap ${heap} is empty`;
      if (plate !== null) {
        return `point at a stone of heap ${heap}: it and the stones above it are taken`;
      }
      return `heap ${heap} has ${size}; take 1-${size}`;
    },
  };
};
