/**
 * 2048's picture for a web page (`Game.picture`): the grid with its tiles in the usual
 * colours by value, the score and largest tile above it, and the tile the computer just
 * placed outlined.
 *
 * Tokens: keys only. A slide is its arrow key (`picks` is `[["key:ArrowLeft"]]` for
 * `L`; a swipe on a touch screen is the same key); the grid carries no `data-pick`. A
 * key that slides nothing is refused: "nothing moves left". The computer's tiles are
 * chance moves, which the server makes; nothing picks them.
 *
 * @module
 */
import { CHANCE, type RenderOptions } from "../../core/game.ts";
import { KEY_PREFIX, type Picture } from "../../core/picture.ts";
import { el, lastRect, svgDocument, text } from "../svg.ts";
import {
  decodeTile,
  FIRST_TILE_MOVE,
  type Game2048,
  maxTile,
  SLIDER_TURN,
  type State2048,
} from "./rules.ts";

/** The key of each slide, in move order: left, right, up, down. */
export const SLIDE_KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"] as const;

const DIRECTION_WORDS = ["left", "right", "up", "down"];

const CELL = 64, GAP = 8, MARGIN = 10, HEADER = 30;

/** The usual tile colours: background and text by value (larger tiles are dark). */
const TILE_COLOURS: Readonly<Record<number, readonly [string, string]>> = {
  2: ["#eee4da", "#776e65"],
  4: ["#ede0c8", "#776e65"],
  8: ["#f2b179", "#f9f6f2"],
  16: ["#f59563", "#f9f6f2"],
  32: ["#f67c5f", "#f9f6f2"],
  64: ["#f65e3b", "#f9f6f2"],
  128: ["#edcf72", "#f9f6f2"],
  256: ["#edcc61", "#f9f6f2"],
  512: ["#edc850", "#f9f6f2"],
  1024: ["#edc53f", "#f9f6f2"],
  2048: ["#edc22e", "#f9f6f2"],
};
const BIG_TILE: readonly [string, string] = ["#3c3a32", "#f9f6f2"];

/** 2048's picture for `game` (the plugin's game: its grid size and legal slides). */
export const picture2048 = (game: Game2048): Picture<State2048> => {
  const w = game.width, h = game.height, n = w * h;
  const gridW = w * CELL + (w + 1) * GAP, gridH = h * CELL + (h + 1) * GAP;
  const corner = (cell: number) => ({
    x: MARGIN + GAP + (cell % w) * (CELL + GAP),
    y: MARGIN + HEADER + GAP + Math.floor(cell / w) * (CELL + GAP),
  });
  const svg = (s: State2048, view?: RenderOptions): string => {
    const parts: string[] = [
      el("rect", {
        x: MARGIN,
        y: MARGIN + HEADER,
        width: gridW,
        height: gridH,
        rx: 6,
        fill: "#bbada0",
      }),
    ];
    for (let cell = 0; cell < n; cell++) {
      const { x, y } = corner(cell);
      const v = s[cell];
      const [fill, ink] = v === 0 ? ["#cdc1b4", ""] : TILE_COLOURS[v] ?? BIG_TILE;
      parts.push(el("rect", { x, y, width: CELL, height: CELL, rx: 4, fill }));
      if (v !== 0) {
        const digits = String(v).length;
        parts.push(text(x + CELL / 2, y + CELL / 2, String(v), {
          "font-size": digits <= 2 ? 28 : digits === 3 ? 24 : digits === 4 ? 19 : 15,
          "font-weight": "bold",
          fill: ink,
        }));
      }
    }
    const last = view?.last;
    if (last !== undefined && last.by === CHANCE && last.move >= FIRST_TILE_MOVE) {
      const { cell } = decodeTile(last.move);
      if (cell < n) {
        const { x, y } = corner(cell);
        parts.push(lastRect(x - 2, y - 2, CELL + 4, CELL + 4, 4, 6));
      }
    }
    const score = `score ${s[n + 1]}   largest ${maxTile(s, n) || "-"}`;
    parts.push(text(MARGIN, MARGIN + HEADER / 2, score, {
      "text-anchor": "start",
      "font-size": 15,
      "font-weight": "bold",
      fill: "#776e65",
    }));
    return svgDocument(gridW + 2 * MARGIN, gridH + HEADER + 2 * MARGIN, parts.join(""));
  };
  return {
    svg,
    picks: (_s, m) => m < FIRST_TILE_MOVE ? [[`${KEY_PREFIX}${SLIDE_KEYS[m]}`]] : [],
    refuse: (s, picks) => {
      const d = SLIDE_KEYS.findIndex((k) => picks[0] === `${KEY_PREFIX}${k}`);
      if (d < 0) return undefined;
      if (s[n] !== SLIDER_TURN) return "the computer places a tile now";
      const legal = game.moves(s);
      if (legal.length === 0) return "the game is over: no slide changes the grid";
      return legal.includes(d) ? undefined : `nothing moves ${DIRECTION_WORDS[d]}`;
    },
  };
};
