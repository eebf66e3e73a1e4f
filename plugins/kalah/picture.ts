/**
 * Kalah's picture for a web page (`Game.picture`): the board as the play board draws it,
 * north's houses on top (numbered from north's left, so n..1 from the picture's left),
 * south's below (1..n), north's store on the left and south's on the right; each house
 * and store shows its stones as a number, the mover's houses are lighter, and the house
 * the last move sowed is ringed.
 *
 * Tokens: a house is its side and its number as its owner types it, `south 3` or
 * `north 3`; a move is the mover's house (`picks` is `[["south 3"]]` for south's move
 * `3`). Pointing at an empty house is refused with "house 3 is empty", at the
 * opponent's with "that house is north's". Stores make no move and carry no token.
 *
 * @module
 */
import type { RenderOptions } from "../../core/game.ts";
import type { Picture } from "../../core/picture.ts";
import { el, lastCircle, overlay, svgDocument, text } from "../svg.ts";
import { PLAYERS } from "./board.ts";
import type { KalahGame } from "./game.ts";
import { houseIndex, isOver, type KalahState } from "./rules.ts";

const MARGIN = 10, STORE_W = 60, PITCH = 52, R = 22, BAND = 36;
const HOUSE_FILL = ["#efe3c8", "#fbf4e4"]; // the waiting side's, the mover's
const WOOD = "#b08a5a", EDGE = "#6d4c2f";

/** A house's token: its owner and its number from the owner's left (1..n). */
const token = (player: 0 | 1, m: number) => `${PLAYERS[player]} ${m + 1}`;

/** Kalah's picture for `game` (the plugin's game, whose number of houses it reads). */
export const kalahPicture = (game: KalahGame): Picture<KalahState> => {
  const n = game.config.pits;
  const boardW = 2 * STORE_W + n * PITCH, boardH = 2 * PITCH + 8;
  const top = MARGIN + BAND;
  const width = boardW + 2 * MARGIN, height = top + boardH + BAND + MARGIN;
  /** The centre of `player`'s house `m` (0-based from that player's left). */
  const centre = (player: 0 | 1, m: number) => {
    const column = player === 0 ? m : n - 1 - m;
    return {
      cx: MARGIN + STORE_W + column * PITCH + PITCH / 2,
      cy: top + 4 + (player === 0 ? PITCH : 0) + PITCH / 2,
    };
  };
  const svg = (s: KalahState, view?: RenderOptions): string => {
    const over = isOver(s, n);
    const mover = s[2 * n + 2] as 0 | 1;
    const shapes: string[] = [
      el("rect", {
        x: MARGIN,
        y: top,
        width: boardW,
        height: boardH,
        rx: 18,
        fill: WOOD,
        stroke: EDGE,
        "stroke-width": 2,
      }),
    ];
    const labels: string[] = [];
    // The stores: north's on the left, south's on the right.
    for (const player of [1, 0] as const) {
      const x = player === 1 ? MARGIN + 6 : MARGIN + boardW - STORE_W + 6;
      shapes.push(el("rect", {
        x,
        y: top + 6,
        width: STORE_W - 12,
        height: boardH - 12,
        rx: 20,
        fill: HOUSE_FILL[0],
        stroke: EDGE,
        "stroke-width": 1.5,
      }));
      const count = String(s[player === 0 ? n : 2 * n + 1]);
      labels.push(text(x + (STORE_W - 12) / 2, top + boardH / 2, count, {
        "font-size": count.length > 3 ? 13 : 20,
        "font-weight": "bold",
        fill: "#3e2723",
      }));
    }
    for (const player of [0, 1] as const) {
      const mine = !over && player === mover;
      for (let m = 0; m < n; m++) {
        const { cx, cy } = centre(player, m);
        shapes.push(el("circle", {
          cx,
          cy,
          r: R,
          fill: HOUSE_FILL[mine ? 1 : 0],
          stroke: EDGE,
          "stroke-width": 1.5,
          "data-pick": token(player, m),
        }));
        const count = String(s[houseIndex(n, player, m)]);
        labels.push(text(cx, cy, count, {
          "font-size": count.length > 3 ? 11 : 17,
          fill: "#3e2723",
        }));
        // The house's number as its owner types it, outside the board on its side.
        labels.push(text(cx, player === 0 ? top + boardH + 11 : top - 9, String(m + 1), {
          "font-size": 11,
          fill: "#666666",
        }));
      }
      const name = `${PLAYERS[player]}${!over && player === mover ? " (to move)" : ""}`;
      labels.push(text(MARGIN, player === 0 ? top + boardH + 28 : MARGIN + 8, name, {
        "text-anchor": "start",
        "font-size": 13,
        "font-weight": mine ? "bold" : undefined,
        fill: "#333333",
      }));
    }
    const last = view?.last;
    if (last !== undefined && (last.by === 0 || last.by === 1) && last.move >= 0 && last.move < n) {
      const { cx, cy } = centre(last.by, last.move);
      labels.push(lastCircle(cx, cy, R + 3, 3));
    }
    return svgDocument(width, height, shapes.join("") + overlay(labels.join("")));
  };
  return {
    svg,
    picks: (s, m) => [[token(s[2 * n + 2] as 0 | 1, m)]],
    refuse: (s, picks) => {
      if (isOver(s, n)) return "the game is over";
      const t = /^(south|north) (\d+)$/.exec(picks[0]);
      if (t === null) return undefined;
      const player = t[1] === PLAYERS[0] ? 0 : 1, h = Number(t[2]);
      if (h < 1 || h > n) return undefined;
      if (player !== s[2 * n + 2]) return `that house is ${PLAYERS[player]}'s`;
      return s[houseIndex(n, player, h - 1)] === 0 ? `house ${h} is empty` : undefined;
    },
  };
};
