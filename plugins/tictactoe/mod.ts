/**
 * Tic-tac-toe on the usual 3x3 board. X (player 0) moves first.
 *
 * Cells are written as a column letter and a row number, `a1` at the bottom left
 * (`b2` is the centre); the digits 1-9 in reading order are accepted too.
 *
 * The AI's strengths (`strengths`, weakest first):
 *
 * | strength  | player spec    | plays                                                  |
 * | --------- | -------------- | ------------------------------------------------------ |
 * | `easy`    | `randombest:1` | a random move, but it takes a win in one               |
 * | `medium`  | `alphabeta:2`  | wins in one and blocks yours; falls for a fork         |
 * | `strong`  | `alphabeta:4`  | looks four plies ahead                                 |
 * | `perfect` | `alphabeta:9`  | searches to the end of the game: never loses           |
 *
 * @module
 */
import { Result, Schema } from "../../core/deps.ts";
import { CHANCE, type Game, type Player, type RenderOptions, WIN } from "../../core/game.ts";
import { definePlugin } from "../../core/plugin.ts";
import { about } from "./about.ts";
import { bracket, lastStyle, paintSpans, PLAYER_STYLES, type Span } from "../view.ts";
import { ticTacToePicture } from "./picture.ts";
import { withPicture } from "../svg.ts";

/** A tic-tac-toe state: nine cells (0 empty, 1 X, 2 O) in reading order, then the mover. */
export type TicTacToeState = readonly number[];

const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
] as const;

/** The winner's mark (1 or 2), or 0. */
const winnerMark = (s: TicTacToeState): number => {
  for (const [a, b, c] of LINES) if (s[a] !== 0 && s[a] === s[b] && s[a] === s[c]) return s[a];
  return 0;
};

const full = (s: TicTacToeState) => {
  for (let i = 0; i < 9; i++) if (s[i] === 0) return false;
  return true;
};

// Reading order index -> name: row 3 is the top row.
const cellName = (i: number) => `${"abc"[i % 3]}${3 - Math.floor(i / 3)}`;

/** The column of cell column `c` (0-2) in a row of the picture (`3  X | O | .`). */
const column = (c: number) => 3 + 4 * c;

/**
 * The board with row numbers and column letters. With `view.last` the cell just played
 * is marked: `[X]` in place of the spaces around it, or in reverse video with colour;
 * with colour X is red and O blue.
 */
const render = (s: TicTacToeState, view?: RenderOptions): string => {
  const mark = (i: number) => ".XO"[s[i]];
  const last = view?.last?.by === CHANCE ? undefined : view?.last?.move;
  const rows = [0, 1, 2].map((r) => {
    const line = `${3 - r}  ${mark(3 * r)} | ${mark(3 * r + 1)} | ${mark(3 * r + 2)}`;
    if (view?.color === true) {
      const spans: Span[] = [];
      for (let c = 0; c < 3; c++) {
        const i = 3 * r + c;
        if (s[i] === 0) continue;
        const sgr = PLAYER_STYLES[s[i] - 1];
        spans.push({ at: column(c), length: 1, sgr: i === last ? lastStyle(sgr) : sgr });
      }
      return paintSpans(line, spans);
    }
    return last !== undefined && Math.floor(last / 3) === r
      ? bracket(line, column(last % 3), 1)
      : line;
  });
  return `${rows.join("\n  ---+---+---\n")}\n   a   b   c\n`;
};

/** Builds tic-tac-toe, with its picture for a web page (`picture_tictactoe.ts`). */
export const ticTacToeGame = (): Game<TicTacToeState> => withPicture(ticTacToePicture, rulesOnly());

/** Tic-tac-toe without its picture. */
const rulesOnly = (): Game<TicTacToeState> => ({
  id: "tictactoe",
  players: ["X", "O"],
  initial: () => [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  toMove: (s) => s[9] as Player,
  moves: (s) => {
    if (winnerMark(s) !== 0) return [];
    const out: number[] = [];
    for (let i = 0; i < 9; i++) if (s[i] === 0) out.push(i);
    return out;
  },
  chances: () => [],
  play: (s, m) => {
    const next = s.slice();
    next[m] = s[9] + 1;
    next[9] = 1 - s[9];
    return next;
  },
  outcome: (s) => {
    const w = winnerMark(s);
    if (w !== 0) return { winner: (w - 1) as Player, margin: w === 1 ? 1 : -1 };
    return full(s) ? { winner: null, margin: 0 } : undefined;
  },
  value: (s) => {
    const w = winnerMark(s);
    if (w !== 0) return w === 1 ? WIN : -WIN;
    // Open lines: a line holding only X marks counts for X, only O marks for O.
    let v = 0;
    for (const [a, b, c] of LINES) {
      const x = +(s[a] === 1) + +(s[b] === 1) + +(s[c] === 1);
      const o = +(s[a] === 2) + +(s[b] === 2) + +(s[c] === 2);
      if (o === 0) v += x;
      if (x === 0) v -= o;
    }
    return v;
  },
  render,
  formatMove: (_s, m) => cellName(m),
  parseMove: (s, text) => {
    const t = text.trim().toLowerCase();
    let i = -1;
    const m = /^([abc])\s*([123])$/.exec(t);
    if (m) i = (3 - Number(m[2])) * 3 + "abc".indexOf(m[1]);
    else if (/^[1-9]$/.test(t)) i = Number(t) - 1;
    else return Result.fail(`expected a cell a1-c3 (column, row; a1 bottom left) or 1-9`);
    if (winnerMark(s) !== 0 || full(s)) return Result.fail("the game is over");
    if (s[i] !== 0) return Result.fail(`${cellName(i)} is taken`);
    return Result.succeed(i);
  },
  // Base-3 digits of the cells, then the mover: exact and collision-free.
  key: (s) => {
    let k = 0;
    for (let i = 0; i < 9; i++) k = k * 3 + s[i];
    return k * 2 + s[9];
  },
});

/** Tic-tac-toe's rules and notation, for a person (`rules` in `play`). */
export const TICTACTOE_RULES =
  `Tic-tac-toe: X and O take turns marking an empty cell of the 3x3 grid; X
moves first. Three marks in a row, a column or a diagonal win; a full grid
without three in a row is a draw.
Moves: a cell as its column letter and row number, a1 at the bottom left and
c3 at the top right (b2 is the centre), or a digit 1-9 in reading order (1 is
the top left, 9 the bottom right).`;

/**
 * The AI's strengths, weakest first (see the module notes). The whole game is 9 plies,
 * so `alphabeta:9` searches it to the end: it never loses.
 */
export const TICTACTOE_STRENGTHS: Readonly<Record<string, string>> = {
  easy: "randombest:1",
  medium: "alphabeta:2",
  strong: "alphabeta:4",
  perfect: "alphabeta:9",
};

/** The tic-tac-toe plugin. */
export default definePlugin({
  ...about,
  options: Schema.Struct({}),
  create: ticTacToeGame,
  rules: TICTACTOE_RULES,
  strengths: TICTACTOE_STRENGTHS,
});
