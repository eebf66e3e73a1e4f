/**
 * Pictures of a Kalah board: the play board (houses numbered as each player types
 * them) and seed 000's `showGame` picture of the plugin's state, with a score line.
 *
 * @module
 */
import type { RenderOptions } from "../../core/game.ts";
import { bracket, LAST_STYLE, paintSpans } from "../view.ts";
import { showGameImpl } from "./seed000.ts";

/** The players' names, player 0 first. */
export const PLAYERS = ["south", "north"] as const;

/**
 * The play board. North's houses are on top, numbered from north's left (so they read
 * n..1 from the left of the picture), south's below numbered 1..n; north's store is on
 * the left, south's on the right (sowing runs counter-clockwise). With `view.last` (a
 * house, 0-based from its owner's left, and the side that sowed it) that house is marked:
 * `[0]` in place of the spaces around it, or in reverse video with `view.color`.
 *
 * @example The classic start
 * ```ts
 * import { playBoard } from "./board.ts";
 * import { initialState } from "./rules.ts";
 * const text = playBoard(initialState(6, 4), 6);
 * if (!text.includes("|  4  4  4  4  4  4 |")) throw new Error(text);
 * ```
 */
export const playBoard = (s: readonly number[], n: number, view?: RenderOptions): string => {
  let w = Math.max(2, String(n).length);
  for (let i = 0; i < 2 * n + 2; i++) w = Math.max(w, String(s[i]).length);
  const cell = (v: number | string) => String(v).padStart(w + 1, " ");
  const north: string[] = [], south: string[] = [], northLabels: string[] = [];
  const southLabels: string[] = [];
  for (let i = 0; i < n; i++) {
    north.push(cell(s[2 * n - i]));
    northLabels.push(cell(n - i));
    south.push(cell(s[i]));
    southLabels.push(cell(i + 1));
  }
  const ns = String(s[2 * n + 1]), ss = String(s[n]);
  const sw = Math.max(ns.length, 1);
  const inner = n * (w + 1) + 1;
  const pad = " ".repeat(sw + 1);
  const over = isFinished(s, n);
  const mover = s[2 * n + 2];
  const tag = (p: 0 | 1) => `${PLAYERS[p]}${!over && mover === p ? " (to move)" : ""}`;
  const border = `${pad}+${"-".repeat(inner)}+`;
  const lines = [
    `${pad} ${northLabels.join("")}    ${tag(1)}`,
    border,
    `${pad}|${north.join("")} |`,
    `${ns.padStart(sw, " ")} |${" ".repeat(inner)}| ${ss}`,
    `${pad}|${south.join("")} |`,
    border,
    `${pad} ${southLabels.join("")}    ${tag(0)}`,
  ];
  if (over) lines.push(scoreLine(s, n));
  const last = view?.last;
  if (last !== undefined && (last.by === 0 || last.by === 1) && last.move >= 0 && last.move < n) {
    // The house sown: south's house m is picture column m, north's is n - 1 - m.
    const row = last.by === 0 ? 4 : 2;
    const col = last.by === 0 ? last.move : n - 1 - last.move;
    const text = last.by === 0 ? String(s[last.move]) : String(s[n + 1 + last.move]);
    const at = pad.length + 1 + (col + 1) * (w + 1) - text.length;
    lines[row] = view?.color === true
      ? paintSpans(lines[row], [{ at, length: text.length, sgr: LAST_STYLE }])
      : bracket(lines[row], at, text.length);
  }
  return lines.join("\n") + "\n";
};

/** True when every house is empty or one side is (the game is over). */
const isFinished = (s: readonly number[], n: number): boolean => {
  let south = 0, north = 0;
  for (let i = 0; i < n; i++) south += s[i];
  for (let i = n + 1; i <= 2 * n; i++) north += s[i];
  return south === 0 || north === 0;
};

/** The final score in words, such as `game over: south 26, north 22 (south wins by 4)`. */
export const scoreLine = (s: readonly number[], n: number): string => {
  let south = 0, north = 0;
  for (let i = 0; i <= n; i++) south += s[i];
  for (let i = n + 1; i <= 2 * n + 1; i++) north += s[i];
  const verdict = south === north
    ? "a draw"
    : `${south > north ? "south" : "north"} wins by ${Math.abs(south - north)}`;
  return `game over: south ${south}, north ${north} (${verdict})`;
};

/**
 * Seed 000's picture (`showGameImpl`) of the plugin's state, seen from south: south's
 * houses below with south's store on the right, north's above with its store on the
 * left, numbers padded to the width of `2nm`.
 */
export const seedBoard = (s: readonly number[], n: number, stones: number): string => {
  const text = showGameImpl({ pitCount: n, stoneCount: stones }, s.slice(0, 2 * n + 2));
  return isFinished(s, n)
    ? `${text}${scoreLine(s, n)}\n`
    : `${text}${PLAYERS[s[2 * n + 2]]} to move\n`;
};
