/**
 * The rules of 2048 on a w x h grid, as seed 001 states them, over flat arrays of tile
 * values (the general path, for every size). The protocol game (`createGame`) is built on
 * these functions; `seed001.ts` wraps them in the seed's own `[[Int]]` API and `board.ts`
 * holds the compact 4x4 representation that the fast expectimax uses.
 *
 * A protocol state is a plain array: the `w * h` tile values in reading order (row by
 * row, 0 for an empty cell), then whose turn it is (`SLIDER_TURN` or `COMPUTER_TURN`),
 * then the score (the sum of the tiles made by merges, as in the original game).
 *
 * Moves are integers: `0..3` slide left, right, up, down (seed 001's `Slide L|R|U|D`);
 * `4 + 2 * cell + (v === 4 ? 1 : 0)` places tile `v` on `cell = y * w + x` (seed 001's
 * `NewTile (x, y) v`).
 *
 * @module
 */
import { Result } from "../../core/deps.ts";
import { CHANCE, type Chance, type Game } from "../../core/game.ts";
import { hashPrefix } from "../../core/hash.ts";
import { Keep } from "../../core/search/keep.ts";
import { bracket, LAST_STYLE, paintSpans } from "../view.ts";

/** A protocol state: tile values in reading order, then the turn, then the score. */
export type State2048 = readonly number[];

/** The turn value of a state where the slider (player 0, seed 001's `True`) moves. */
export const SLIDER_TURN = 0;
/** The turn value of a state where the computer places a tile (chance, seed 001's `False`). */
export const COMPUTER_TURN = 1;

/** Slide directions in move order: left, right, up, down (moves 0-3). */
export const DIRECTIONS = ["L", "R", "U", "D"] as const;

/** A slide direction as seed 001 names it. */
export type Direction = (typeof DIRECTIONS)[number];

/** The move that slides left. */
export const LEFT = 0;
/** The move that slides right. */
export const RIGHT = 1;
/** The move that slides up. */
export const UP = 2;
/** The move that slides down. */
export const DOWN = 3;

/** The first tile-placing move number (moves below it are slides). */
export const FIRST_TILE_MOVE = 4;

/** Probability of a 2 on the chosen cell (seed 001: 0.9, and 0.1 for a 4). */
export const P_TWO = 0.9;
/** Probability of a 4 on the chosen cell. */
export const P_FOUR = 0.1;

/**
 * The move placing tile `value` (2 or 4) on cell `cell` (`y * w + x`).
 *
 * @example
 * ```ts
 * import { decodeTile, tileMove } from "./rules.ts";
 * const m = tileMove(5, 4); // NewTile (1,1) 4 on a 4-wide board
 * if (m !== 15 || decodeTile(m).value !== 4) throw new Error();
 * ```
 */
export const tileMove = (cell: number, value: number): number =>
  FIRST_TILE_MOVE + 2 * cell + (value === 4 ? 1 : 0);

/** The cell and value of a tile-placing move. */
export const decodeTile = (m: number): { readonly cell: number; readonly value: number } => ({
  cell: (m - FIRST_TILE_MOVE) >> 1,
  value: (m - FIRST_TILE_MOVE) & 1 ? 4 : 2,
});

/** Where each of the lines of a slide starts, its step along the line, and its length. */
export interface Lines {
  readonly starts: readonly number[];
  readonly step: number;
  readonly length: number;
}

const linesCache = new Map<number, Lines>();

/** The lines a slide in direction `dir` works on, each read from the side it slides to. */
export const linesOf = (w: number, h: number, dir: number): Lines => {
  const key = (w * 4096 + h) * 4 + dir;
  let lines = linesCache.get(key);
  if (lines === undefined) {
    switch (dir) {
      case LEFT:
        lines = { starts: Array.from({ length: h }, (_, y) => y * w), step: 1, length: w };
        break;
      case RIGHT:
        lines = {
          starts: Array.from({ length: h }, (_, y) => y * w + w - 1),
          step: -1,
          length: w,
        };
        break;
      case UP:
        lines = { starts: Array.from({ length: w }, (_, x) => x), step: w, length: h };
        break;
      default:
        lines = {
          starts: Array.from({ length: w }, (_, x) => (h - 1) * w + x),
          step: -w,
          length: h,
        };
    }
    linesCache.set(key, lines);
  }
  return lines;
};

/**
 * Slides every line of `lines` (one direction's, from `linesOf`) of `src` into `dst`, as
 * seed 001 defines a slide to a line's start: zeros removed, equal neighbours merged once
 * each from the start, zeros padded at the far end. Returns the score gained (the merged
 * tiles' values), or -1 when nothing moved (not a legal move). Every cell is written, so
 * `dst` may hold anything (or be `src` itself). The protocol's moves (`slideCells`), the
 * fast expectimax's general path and the compact board's row tables all slide with it.
 */
export const slideLines = (
  src: ArrayLike<number>,
  dst: { [i: number]: number },
  lines: Lines,
): number => {
  const { starts, step, length } = lines;
  let gained = 0, changed = false;
  for (let k = 0; k < starts.length; k++) {
    // Writing position `write` never passes the reading position `i`, and every cell is
    // written once, after it was read: so `src` may be `dst` itself.
    const start = starts[k], end = start + length * step;
    let write = start, pending = 0;
    for (let i = start; i !== end; i += step) {
      const v = src[i];
      if (v === 0) continue;
      if (pending === 0) {
        pending = v;
        continue;
      }
      let out = pending;
      if (pending === v) {
        out = 2 * v;
        gained += out;
        pending = 0;
      } else pending = v;
      if (src[write] !== out) changed = true;
      dst[write] = out;
      write += step;
    }
    if (pending !== 0) {
      if (src[write] !== pending) changed = true;
      dst[write] = pending;
      write += step;
    }
    for (; write !== end; write += step) {
      if (src[write] !== 0) changed = true;
      dst[write] = 0;
    }
  }
  return changed ? gained : -1;
};

/**
 * Slides one line of `src` into `dst` towards its start (`slideLines` on that line):
 * the score gained, or -1 when the line did not change.
 */
export const slideLine = (
  src: ArrayLike<number>,
  dst: { [i: number]: number },
  start: number,
  step: number,
  length: number,
): number => slideLines(src, dst, { starts: [start], step, length });

/**
 * Slides a whole grid (`w * h` values in reading order) in direction `dir` into `dst`.
 * Returns the score gained, or -1 when nothing moved (not a legal move).
 *
 * @example Seed 001's Figure 1, step 2 to 3: `Slide L` on a one-row grid
 * ```ts
 * import { LEFT, slideCells } from "./rules.ts";
 * const row = [2, 0, 2, 2];
 * if (slideCells(row, row, 4, 1, LEFT) !== 4 || row.join() !== "4,2,0,0") throw new Error();
 * ```
 */
export const slideCells = (
  src: ArrayLike<number>,
  dst: { [i: number]: number },
  w: number,
  h: number,
  dir: number,
): number => slideLines(src, dst, linesOf(w, h, dir));

/** True when the slider has a legal slide: an empty cell, or two equal neighbours. */
export const canSlide = (cells: ArrayLike<number>, w: number, h: number): boolean => {
  let tiles = 0, empty = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = cells[y * w + x];
      if (v === 0) {
        empty++;
        continue;
      }
      tiles++;
      if (x + 1 < w && cells[y * w + x + 1] === v) return true;
      if (y + 1 < h && cells[(y + 1) * w + x] === v) return true;
    }
  }
  // With an empty cell and a tile, some tile sits next to an empty cell and can move there.
  return empty > 0 && tiles > 0;
};

/** The number of empty cells. */
export const emptyCells = (cells: ArrayLike<number>, n: number): number => {
  let k = 0;
  for (let i = 0; i < n; i++) if (cells[i] === 0) k++;
  return k;
};

/**
 * The computer's moves with their weights (seed 001): every empty cell in reading order,
 * a 2 with weight 0.9/n, then a 4 with weight 0.1/n, for n empty cells.
 */
export const tileChances = (cells: ArrayLike<number>, n: number): Chance[] => {
  const free = emptyCells(cells, n);
  const out: Chance[] = [];
  if (free === 0) return out;
  const p2 = P_TWO / free, p4 = P_FOUR / free;
  for (let i = 0; i < n; i++) {
    if (cells[i] !== 0) continue;
    out.push({ move: tileMove(i, 2), p: p2 });
    out.push({ move: tileMove(i, 4), p: p4 });
  }
  return out;
};

/**
 * Seed 001's gradient value in closed form. With `T` the tile sum, `X` the tile sum
 * weighted by column and `Y` by row (from 0), the four gradient matrices give
 * `m T - X - Y`, `m T - ((w-1) T - X) - Y`, ... (each matrix mirrors one axis), so the
 * largest of the four sums is `m T - min(X, (w-1) T - X) - min(Y, (h-1) T - Y)` with
 * `m = min(w, h)`. `seed001.ts` computes the definition literally; the tests check that
 * both agree.
 *
 * @example The seed's board from its `showGame` example
 * ```ts
 * import { gradientValue } from "./rules.ts";
 * const cells = [4, 2, 16, 4, 0, 8, 32, 8, 0, 64, 256, 32, 0, 16, 512, 1024];
 * if (gradientValue(cells, 4, 4) !== 6378) throw new Error();
 * ```
 */
export const gradientValue = (cells: ArrayLike<number>, w: number, h: number): number => {
  let t = 0, x = 0, y = 0;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = cells[r * w + c];
      t += v;
      x += c * v;
      y += r * v;
    }
  }
  return gradientOfSums(t, x, y, w, h);
};

/**
 * The closed form of seed 001's gradient value from the grid's sums: `t` the tile sum,
 * `x` and `y` the sums weighted by column and row. `gradientValue` and the compact
 * board's `gradient4` (which reads the sums from row tables) both end here.
 */
export const gradientOfSums = (t: number, x: number, y: number, w: number, h: number): number =>
  Math.min(w, h) * t - Math.min(x, (w - 1) * t - x) - Math.min(y, (h - 1) * t - y);

/** The rank of a tile: 0 for empty, k for 2^k (as `log2`, exact for powers of two). */
export const rankOf = (v: number): number => (v <= 0 ? 0 : 31 - Math.clz32(v));

/**
 * The weights of the "monotone" evaluation, those of the best public expectimax
 * (nneonneo/2048-ai): per row and column, a bonus for empty cells and possible merges
 * and penalties for non-monotone lines and for large tiles.
 */
export const MONOTONE_WEIGHTS = {
  /** Penalty for a line's lost monotonicity, per `rank^4` difference. */
  monotonicity: 47,
  /** Power of the ranks in the monotonicity penalty. */
  monotonicityPower: 4,
  /** Penalty per `rank^3.5` of the tiles. */
  sum: 11,
  /** Power of the ranks in the sum penalty. */
  sumPower: 3.5,
  /** Bonus per pair of mergeable neighbours. */
  merges: 700,
  /** Bonus per empty cell. */
  empty: 270,
  /** The C++ program's constant per line; a dead board scores 0 there. */
  lostPenalty: 200000,
} as const;

/**
 * The value of a finished game under the "monotone" evaluation. The C++ program scores a
 * line `lostPenalty + ...` and a dead board 0; this evaluation drops the constant and
 * divides by 4 (which changes no decision), so a dead 4x4 board is worth
 * `-8 * 200000 / 4`. The same constant is used on every board size.
 */
export const DEATH_VALUE = -(8 * MONOTONE_WEIGHTS.lostPenalty) / 4;

const powTable = (p: number): Float64Array => {
  const t = new Float64Array(64);
  for (let r = 0; r < 64; r++) t[r] = Math.pow(r, p);
  return t;
};
/** `rank^3.5` by rank. */
export const POW_SUM: Float64Array = powTable(MONOTONE_WEIGHTS.sumPower);
/** `rank^4` by rank. */
export const POW_MONO: Float64Array = powTable(MONOTONE_WEIGHTS.monotonicityPower);

/**
 * The "monotone" score of one line of ranks (read at `start`, `start + step`, ...), divided
 * by 4 and without the per-line constant (see `DEATH_VALUE`).
 */
export const lineScore = (
  ranks: Int32Array,
  start: number,
  step: number,
  length: number,
): number => {
  const W = MONOTONE_WEIGHTS;
  let sum = 0, empty = 0, merges = 0, prev = 0, counter = 0;
  let left = 0, right = 0;
  for (let i = 0; i < length; i++) {
    const r = ranks[start + i * step];
    sum += POW_SUM[r];
    if (r === 0) empty++;
    else {
      if (prev === r) counter++;
      else if (counter > 0) {
        merges += 1 + counter;
        counter = 0;
      }
      prev = r;
    }
    if (i > 0) {
      const q = ranks[start + (i - 1) * step];
      if (q > r) left += POW_MONO[q] - POW_MONO[r];
      else right += POW_MONO[r] - POW_MONO[q];
    }
  }
  if (counter > 0) merges += 1 + counter;
  return (W.empty * empty + W.merges * merges - W.monotonicity * Math.min(left, right) -
    W.sum * sum) / 4;
};

/**
 * `LINE_SCORES[len][key]`: `lineScore` of every line of `len` = 1..4 ranks up to 15,
 * packed as `key = rank_0 | rank_1 << 4 | ...` (the compact board's row layout, so
 * `LINE_SCORES[4]` is its row table).
 */
export const LINE_SCORES: readonly Float64Array[] = [0, 1, 2, 3, 4].map((len) => {
  const table = new Float64Array(len === 0 ? 0 : 1 << (4 * len));
  const line = new Int32Array(len);
  for (let key = 0; key < table.length; key++) {
    for (let c = 0; c < len; c++) line[c] = (key >>> (4 * c)) & 15;
    table[key] = lineScore(line, 0, 1, len);
  }
  return table;
});

/** `lineScore` of a line, from `LINE_SCORES` when it fits (up to 4 ranks up to 15). */
const lineValue = (ranks: Int32Array, start: number, step: number, len: number): number => {
  if (len <= 4) {
    let key = 0, fits = true;
    for (let c = 0; c < len; c++) {
      const r = ranks[start + c * step];
      if (r > 15) fits = false;
      key |= r << (4 * c);
    }
    if (fits) return LINE_SCORES[len][key];
  }
  return lineScore(ranks, start, step, len);
};

/** The "monotone" heuristic of a grid of ranks: the line scores of every row and column. */
export const monotoneRanks = (ranks: Int32Array, w: number, h: number): number => {
  let v = 0;
  for (let y = 0; y < h; y++) v += lineValue(ranks, y * w, 1, w);
  for (let x = 0; x < w; x++) v += lineValue(ranks, x, w, h);
  return v;
};

/** The "monotone" heuristic of a grid of tile values (no check for a finished game). */
export const monotoneValue = (cells: ArrayLike<number>, w: number, h: number): number => {
  const ranks = new Int32Array(w * h);
  for (let i = 0; i < w * h; i++) ranks[i] = rankOf(cells[i]);
  return monotoneRanks(ranks, w, h);
};

/** The width of every field of `showCells`: `max(5, longest number)`. */
export const showFieldWidth = (cells: ArrayLike<number>, w: number, h: number): number => {
  let longest = 0;
  for (let i = 0; i < w * h; i++) longest = Math.max(longest, String(cells[i]).length);
  return Math.max(5, longest);
};

/**
 * Seed 001's `showGame`: empty cells as `-`, every field right-aligned to
 * `max(5, longest number)`, one space between columns, a newline between rows.
 *
 * @example
 * ```ts
 * import { showCells } from "./rules.ts";
 * const text = showCells([2, 0, 0, 1024], 2, 2);
 * if (text !== "    2     -\n    -  1024") throw new Error(text);
 * ```
 */
export const showCells = (cells: ArrayLike<number>, w: number, h: number): string => {
  const width = showFieldWidth(cells, w, h);
  const rows: string[] = [];
  for (let y = 0; y < h; y++) {
    const fields: string[] = [];
    for (let x = 0; x < w; x++) {
      const v = cells[y * w + x];
      fields.push((v === 0 ? "-" : String(v)).padStart(width));
    }
    rows.push(fields.join(" "));
  }
  return rows.join("\n");
};

/** How the slider's positions are valued. */
export type EvalName = "gradient" | "monotone";

/** The protocol game with its size and evaluation (the fast strategy reads them). */
export interface Game2048 extends Game<State2048> {
  /** The grid's width (columns). */
  readonly width: number;
  /** The grid's height (rows). */
  readonly height: number;
  /** The evaluation `value` uses. */
  readonly evaluation: EvalName;
  /** What the searches keep between searches on this game (the endgame solver). */
  readonly keep: Keep;
}

/** True when a game is a 2048 game built by `createGame`. */
export const is2048 = (game: Game<unknown>): game is Game<unknown> & Game2048 =>
  game.id === "2048" && typeof (game as Partial<Game2048>).width === "number" &&
  typeof (game as Partial<Game2048>).height === "number";

/** The largest tile on the grid. */
export const maxTile = (s: State2048, n: number): number => {
  let m = 0;
  for (let i = 0; i < n; i++) if (s[i] > m) m = s[i];
  return m;
};

/** Tiles whose reaching `stats` reports (`reached2048`, ...). */
export const MILESTONES = [2048, 4096, 8192, 16384, 32768] as const;

const SLIDE_WORDS: Readonly<Record<string, number>> = {
  l: LEFT,
  left: LEFT,
  "←": LEFT,
  "\x1b[d": LEFT,
  r: RIGHT,
  right: RIGHT,
  "→": RIGHT,
  "\x1b[c": RIGHT,
  u: UP,
  up: UP,
  "↑": UP,
  "\x1b[a": UP,
  d: DOWN,
  down: DOWN,
  "↓": DOWN,
  "\x1b[b": DOWN,
};

const DIRECTION_NAMES = ["left", "right", "up", "down"];

/**
 * Builds the protocol game for a w x h grid. The slider is player 0 (it maximizes
 * `value`), the computer's tile placements are chance moves, and player 1 ("computer")
 * never moves. The game starts at a chance node on the empty grid.
 *
 * @example The first move places a tile; then the slider moves
 * ```ts
 * import { createGame } from "./rules.ts";
 * const game = createGame(4, 4, "gradient");
 * const s0 = game.initial();
 * if (game.toMove(s0) !== "chance" || game.chances(s0).length !== 32) throw new Error();
 * const s1 = game.play(s0, game.chances(s0)[0].move); // NewTile (0,0) 2
 * if (game.toMove(s1) !== 0 || game.moves(s1).join() !== "1,3") throw new Error();
 * ```
 */
export const createGame = (w: number, h: number, evaluation: EvalName): Game2048 => {
  const n = w * h;
  const TURN = n, SCORE = n + 1;
  const legalSlides = (s: State2048): number[] => {
    const out: number[] = [];
    const scratch = s.slice(0, n);
    for (let d = 0; d < 4; d++) {
      if (slideCells(s, scratch, w, h, d) >= 0) {
        out.push(d);
        for (let i = 0; i < n; i++) scratch[i] = s[i];
      }
    }
    return out;
  };
  const value = evaluation === "gradient"
    ? (s: State2048) => gradientValue(s, w, h)
    : (s: State2048) =>
      s[TURN] === SLIDER_TURN && !canSlide(s, w, h) ? DEATH_VALUE : monotoneValue(s, w, h);
  const tileName = (m: number) => {
    const { cell, value } = decodeTile(m);
    return `NewTile (${cell % w},${Math.floor(cell / w)}) ${value}`;
  };
  return {
    id: "2048",
    players: ["slider", "computer"],
    solo: true,
    unsolvable: "a game of 2048 lasts thousands of moves, each followed by a chance move, " +
      "so no search reaches its end; analyse with a depth (--depth 3) or a time (--time 2s)",
    keep: new Keep(),
    width: w,
    height: h,
    evaluation,
    initial: () => {
      // Built by pushing, so that V8 keeps a packed array of small integers: the slides
      // then see one kind of array (these states, the fast expectimax's buffers, the
      // compact board's rows); a holey one made them polymorphic and slower.
      const s: number[] = [];
      for (let i = 0; i < n; i++) s.push(0);
      s.push(COMPUTER_TURN, 0);
      return s;
    },
    toMove: (s) => (s[TURN] === SLIDER_TURN ? 0 : "chance"),
    moves: (s) => s[TURN] === SLIDER_TURN ? legalSlides(s) : tileChances(s, n).map((c) => c.move),
    chances: (s) => (s[TURN] === COMPUTER_TURN ? tileChances(s, n) : []),
    play: (s, m) => {
      const next = s.slice();
      if (m < FIRST_TILE_MOVE) {
        const gained = slideCells(s, next, w, h, m);
        next[SCORE] = s[SCORE] + Math.max(0, gained);
        next[TURN] = COMPUTER_TURN;
      } else {
        const { cell, value } = decodeTile(m);
        next[cell] = value;
        next[TURN] = SLIDER_TURN;
      }
      return next;
    },
    outcome: (s) =>
      s[TURN] === SLIDER_TURN && !canSlide(s, w, h)
        ? { winner: null, margin: s[SCORE] }
        : undefined,
    value,
    render: (s, view) => {
      const foot = `score ${s[SCORE]}, largest tile ${maxTile(s, n) || "-"}\n`;
      const last = view?.last;
      if (last === undefined || last.by !== CHANCE || last.move < FIRST_TILE_MOVE) {
        return `${showCells(s, w, h)}\n${foot}`;
      }
      // The tile the computer just placed: `[2]` in place of the spaces around it, or
      // in reverse video with colour. A slide marks nothing.
      const { cell } = decodeTile(last.move);
      const x = cell % w, y = Math.floor(cell / w);
      const rows = showCells(s, w, h).split("\n");
      const field = showFieldWidth(s, w, h);
      const text = String(s[cell]);
      const at = x * (field + 1) + field - text.length;
      rows[y] = view?.color === true
        ? paintSpans(rows[y], [{ at, length: text.length, sgr: LAST_STYLE }])
        : bracket(rows[y], at, text.length);
      return `${rows.join("\n")}\n${foot}`;
    },
    formatMove: (_s, m) => (m < FIRST_TILE_MOVE ? DIRECTIONS[m] : tileName(m)),
    // For a person: "2 at (1,3)" for a tile (the cell as NewTile writes it), "scores 8"
    // for a slide that merged tiles.
    describeMove: (before, m, after) => {
      if (m >= FIRST_TILE_MOVE) {
        const { cell, value } = decodeTile(m);
        return `${value} at (${cell % w},${Math.floor(cell / w)})`;
      }
      const gained = after[SCORE] - before[SCORE];
      return gained > 0 ? `scores ${gained}` : undefined;
    },
    parseMove: (s, text) => {
      const t = text.trim().toLowerCase().replace(/^slide\s+/, "");
      const slide = SLIDE_WORDS[t];
      if (slide !== undefined) {
        if (s[TURN] !== SLIDER_TURN) {
          return Result.fail("the computer places a tile now (NewTile (x,y) v)");
        }
        const legal = legalSlides(s);
        if (!legal.includes(slide)) {
          return Result.fail(
            legal.length === 0
              ? "the game is over: no slide changes the grid"
              : `sliding ${DIRECTION_NAMES[slide]} changes nothing; legal: ${
                legal.map((d) => DIRECTIONS[d]).join(", ")
              }`,
          );
        }
        return Result.succeed(slide);
      }
      // `NewTile (x,y) v` as the seed shows it; the comma may also be a space, `;` or `:`
      // (comma-separated move lists), and the parentheses and the word may be left out.
      const tile =
        /^(?:newtile\s*)?(?:\(\s*(\d+)\s*[,;:\s]\s*(\d+)\s*\)|(\d+)\s*[;:]\s*(\d+))\s*=?\s*(\d+)$/
          .exec(t);
      if (tile === null) {
        return Result.fail(
          "expected a slide L, R, U or D (or left/right/up/down, arrows), " +
            "or a tile NewTile (x,y) v (also (x y) v or x;y=v)",
        );
      }
      const x = Number(tile[1] ?? tile[3]), y = Number(tile[2] ?? tile[4]), v = Number(tile[5]);
      if (s[TURN] !== COMPUTER_TURN) return Result.fail("the slider moves now (L, R, U or D)");
      if (x >= w || y >= h) {
        return Result.fail(`(${x},${y}) is off the grid: x is 0-${w - 1}, y is 0-${h - 1}`);
      }
      if (v !== 2 && v !== 4) return Result.fail(`a new tile is 2 or 4, not ${v}`);
      if (s[y * w + x] !== 0) return Result.fail(`(${x},${y}) is not empty`);
      return Result.succeed(tileMove(y * w + x, v));
    },
    // The grid and the turn (the score does not change the future).
    key: (s) => hashPrefix(s, n + 1, n + 1),
    stats: (s) => {
      const top = maxTile(s, n);
      const out: Record<string, number> = { score: s[SCORE], maxTile: top };
      for (const t of MILESTONES) out[`reached${t}`] = top >= t ? 1 : 0;
      return out;
    },
  };
};
