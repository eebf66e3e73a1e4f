/**
 * Domineering on bitboards: a board's shape in its bounding box (a bit mask per row), the
 * protocol game over it, and the notation of moves.
 *
 * A state is a plain array `[free rows..., V rows..., turn]`: row `r` (the cells with
 * `y = y0 + r`) as a bit mask of its free cells (bit `c` for `x = x0 + c`), then the same
 * for the cells V covered (so a picture can tell the players' dominoes apart), then the
 * player to move. V is player 0 and maximizes, H is player 1: seed 003's scores keep their
 * sign (`Win V` is `+WIN`, `Win H` is `-WIN`, `Heu n` is `n`). A move is the index
 * `r * width + c` of the domino's lower-left cell; moves are listed in the order of the
 * board's cell list (seed 003's `legalMoves` order: column by column on a rectangle).
 *
 * @module
 */
import { Result } from "../../core/deps.ts";
import type { Game, Player as ProtocolPlayer, RenderOptions } from "../../core/game.ts";
import { bracket, lastStyle, paintSpans, type Span } from "../view.ts";
import { WIN } from "../../core/game.ts";
import { hashPrefix } from "../../core/hash.ts";
import { Keep } from "../../core/search/keep.ts";
import { type Board, type Cell, cellKey, type Player } from "./seed003.ts";

/** The largest width or height of a board's bounding box. */
export const MAX_SIDE = 30;

/** A board's shape: its bounding box, its cells as row masks, their order, who starts. */
export interface Geometry {
  /** Width of the bounding box (columns). */
  readonly width: number;
  /** Height of the bounding box (rows). */
  readonly height: number;
  /** The x coordinate of the box's first column. */
  readonly x0: number;
  /** The y coordinate of the box's bottom row. */
  readonly y0: number;
  /** The board's cells: row `r` has bit `c` set when `(x0 + c, y0 + r)` is a cell. */
  readonly rows: readonly number[];
  /** The cell indices `r * width + c` in the board's list order (the order of moves). */
  readonly order: readonly number[];
  /** The player who moves first. */
  readonly first: Player;
  /** True when every cell has `1 <= x <= 26` and `y >= 1`: moves are written like `b3`. */
  readonly letters: boolean;
}

/** The protocol player of a seed player: V is player 0 (it maximizes), H is player 1. */
export const protocolPlayer = (p: Player): ProtocolPlayer => (p === "V" ? 0 : 1);

/** The seed player of a protocol player. */
export const seedPlayer = (p: ProtocolPlayer): Player => (p === 0 ? "V" : "H");

/**
 * The geometry of a list of cells (in the order moves are to be listed) with a first
 * player. Throws a `RangeError` that says what is wrong for an empty list, a repeated
 * cell, or a bounding box wider or taller than `MAX_SIDE`.
 */
export const geometry = (cells: readonly Cell[], first: Player): Geometry => {
  if (cells.length === 0) throw new RangeError("the board has no cells");
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  const width = Math.max(...xs) - x0 + 1, height = Math.max(...ys) - y0 + 1;
  if (width > MAX_SIDE || height > MAX_SIDE) {
    throw new RangeError(
      `the board is ${width}x${height}; at most ${MAX_SIDE}x${MAX_SIDE} (width x height) fits`,
    );
  }
  const rows = new Array<number>(height).fill(0);
  const order: number[] = [];
  const seen = new Set<number>();
  for (const c of cells) {
    const k = cellKey(c);
    if (seen.has(k)) throw new RangeError(`cell (${c[0]},${c[1]}) is listed twice`);
    seen.add(k);
    const col = c[0] - x0, row = c[1] - y0;
    rows[row] |= 1 << col;
    order.push(row * width + col);
  }
  const letters = x0 >= 1 && x0 + width - 1 <= 26 && y0 >= 1;
  return { width, height, x0, y0, rows, order, first, letters };
};

/** The geometry of a seed board's whole shape (free and covered cells), with its first player. */
export const geometryOfBoard = (b: Board): Geometry => {
  let first = b.turn;
  const cells: Cell[] = [...b.free];
  b.hist.forEach((c, i) => {
    // hist[0] was played by the opponent of the player to move, hist[1] by that player, ...
    const p: Player = (i % 2 === 0) === (b.turn === "H") ? "V" : "H";
    cells.push(c, p === "H" ? [c[0] + 1, c[1]] : [c[0], c[1] + 1]);
    first = p;
  });
  return geometry(cells, first);
};

/** A Domineering state: `[free rows..., V rows..., turn]` (see the module notes). */
export type DomState = readonly number[];

/** The protocol game with its geometry (the solver and the pictures use it). */
export interface DomineeringGame extends Game<DomState> {
  /** The board's shape. */
  readonly geometry: Geometry;
  /** What the solve strategy keeps between searches on this game (its solver). */
  readonly keep: Keep;
}

const popcount = (v: number): number => {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
};

/** The number of H's and V's moves in a state. */
export const moveCounts = (g: Geometry, s: DomState): { h: number; v: number } => {
  let h = 0, v = 0;
  for (let r = 0; r < g.height; r++) {
    h += popcount(s[r] & (s[r] >>> 1));
    if (r + 1 < g.height) v += popcount(s[r] & s[r + 1]);
  }
  return { h, v };
};

/** True when player `p` has a move (`moveCounts`' test, stopping at the first). */
export const hasMove = (g: Geometry, s: DomState, p: Player): boolean => {
  for (let r = 0; r < g.height; r++) {
    if (p === "H" ? (s[r] & (s[r] >>> 1)) !== 0 : r + 1 < g.height && (s[r] & s[r + 1]) !== 0) {
      return true;
    }
  }
  return false;
};

/** True when the player `p` (a seed player) can play at cell index `m`. */
export const canPlay = (g: Geometry, s: DomState, p: Player, m: number): boolean => {
  const r = Math.floor(m / g.width), c = m % g.width;
  if (r < 0 || r >= g.height || c < 0) return false;
  if (p === "H") return c + 1 < g.width && ((s[r] >>> c) & 3) === 3;
  return r + 1 < g.height && ((s[r] >>> c) & 1) === 1 && ((s[r + 1] >>> c) & 1) === 1;
};

/** The legal moves of player `p` in the board's order. */
export const movesFor = (g: Geometry, s: DomState, p: Player): number[] => {
  const out: number[] = [];
  const w = g.width, h = g.height;
  for (const m of g.order) {
    const r = (m / w) | 0, c = m - r * w;
    if (p === "H") {
      if (((s[r] >>> c) & 3) === 3 && c + 1 < w) out.push(m);
    } else if (r + 1 < h && ((s[r] >>> c) & 1) === 1 && ((s[r + 1] >>> c) & 1) === 1) out.push(m);
  }
  return out;
};

/** The state of the empty board. */
export const initialState = (g: Geometry): DomState => [
  ...g.rows,
  ...g.rows.map(() => 0),
  protocolPlayer(g.first),
];

/** The player to move in a state. */
export const turnOf = (g: Geometry, s: DomState): Player => seedPlayer(s[2 * g.height] as 0 | 1);

/** The state after the player to move plays at cell index `m` (assumed legal). */
export const playMove = (g: Geometry, s: DomState, m: number): DomState => {
  const h = g.height;
  const next = s.slice();
  const r = (m / g.width) | 0, c = m - r * g.width;
  if (s[2 * h] === 1) next[r] &= ~(3 << c);
  else {
    const bit = 1 << c;
    next[r] &= ~bit;
    next[r + 1] &= ~bit;
    next[h + r] |= bit;
    next[h + r + 1] |= bit;
  }
  next[2 * h] = 1 - s[2 * h];
  return next;
};

/** The seed player's cell of a cell index. */
export const cellOf = (g: Geometry, m: number): Cell => [
  g.x0 + (m % g.width),
  g.y0 + Math.floor(m / g.width),
];

/** The cell index of a cell, or -1 when it is outside the bounding box. */
export const indexOf = (g: Geometry, [x, y]: Cell): number => {
  const c = x - g.x0, r = y - g.y0;
  return c < 0 || r < 0 || c >= g.width || r >= g.height ? -1 : r * g.width + c;
};

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A move as it is written: `b3` (column letter, row) where the board allows it, else `x:y`. */
export const formatCell = (g: Geometry, m: number): string => {
  const [x, y] = cellOf(g, m);
  return g.letters ? `${LETTERS[x - 1]}${y}` : `${x}:${y}`;
};

/**
 * Reads a move for the player to move: `b3`, `(2,3)`, `2,3`, `2 3` or `2:3` (the
 * domino's lower-left cell); the error says what was expected or why it is illegal.
 */
export const parseCell = (
  g: Geometry,
  s: DomState,
  text: string,
): Result.Result<number, string> => {
  const t = text.trim().toLowerCase();
  let cell: Cell | undefined;
  const l = /^([a-z])\s*(-?\d+)$/.exec(t);
  const n = /^\(?\s*(-?\d+)\s*[,:; ]\s*(-?\d+)\s*\)?$/.exec(t);
  if (l) cell = [LETTERS.indexOf(l[1]) + 1, Number(l[2])];
  else if (n) cell = [Number(n[1]), Number(n[2])];
  else {
    return Result.fail(
      `expected the domino's lower-left cell, such as ${
        g.letters ? "b3 (column b, row 3) or " : ""
      }(2,3) or 2:3 (x, then y; (1,1) is the lower left)`,
    );
  }
  const p = turnOf(g, s);
  const name = `(${cell[0]},${cell[1]})`;
  const m = indexOf(g, cell);
  const onBoard = (i: number) =>
    i >= 0 && ((g.rows[(i / g.width) | 0] >>> (i % g.width)) & 1) === 1;
  if (!onBoard(m)) return Result.fail(`${name} is not a cell of the board`);
  const other: Cell = p === "H" ? [cell[0] + 1, cell[1]] : [cell[0], cell[1] + 1];
  const om = indexOf(g, other);
  const dir = p === "H" ? "right of" : "above";
  if (!onBoard(om)) {
    return Result.fail(`${p} cannot play at ${name}: there is no cell ${dir} it`);
  }
  const free = (i: number) => ((s[(i / g.width) | 0] >>> (i % g.width)) & 1) === 1;
  if (!free(m)) return Result.fail(`${p} cannot play at ${name}: it is covered`);
  if (!free(om)) {
    return Result.fail(`${p} cannot play at ${name}: the cell ${dir} it is covered`);
  }
  return Result.succeed(m);
};

/** The picture's column width and the width of its row labels. */
const layout = (g: Geometry): { colW: number; rowW: number } => ({
  colW: g.letters ? 2 : Math.max(...[g.x0, g.x0 + g.width - 1].map((x) => String(x).length)) + 1,
  rowW: Math.max(String(g.y0).length, String(g.y0 + g.height - 1).length),
});

/**
 * The board's lines, top row first, then the column labels: each cell one character
 * (`cell(r, c)`, blank off the board), right-aligned in its column.
 */
const boardLines = (g: Geometry, cell: (r: number, c: number) => string): string[] => {
  const { colW, rowW } = layout(g);
  const lines: string[] = [];
  for (let r = g.height - 1; r >= 0; r--) {
    let line = String(g.y0 + r).padStart(rowW);
    for (let c = 0; c < g.width; c++) {
      line += ((g.rows[r] >>> c) & 1 ? cell(r, c) : " ").padStart(colW);
    }
    lines.push(line.trimEnd());
  }
  let foot = " ".repeat(rowW);
  for (let c = 0; c < g.width; c++) {
    foot += (g.letters ? LETTERS[g.x0 + c - 1] : String(g.x0 + c)).padStart(colW);
  }
  lines.push(foot);
  return lines;
};

/** The SGR styles of H's and V's dominoes with colour (blue and red). */
export const DOMINO_STYLES: Readonly<Record<Player, string>> = { H: "1;34", V: "1;31" };

/**
 * A text picture: `.` free, `H`/`V` covered by that player's domino, blank off the board.
 * With `view.color`, H's cells are blue and V's red. With `view.last` (a move and the
 * player who made it: 0 V, 1 H) its domino is marked: in reverse video with colour, else
 * `[H H]` (both cells in one pair of brackets) or `[V]` on each of its two rows, in
 * place of the spaces around them.
 */
export const renderState = (g: Geometry, s: DomState, view?: RenderOptions): string => {
  const h = g.height;
  const mark = (r: number, c: number) => (s[r] >>> c) & 1 ? "." : (s[h + r] >>> c) & 1 ? "V" : "H";
  const lines = boardLines(g, mark);
  const { colW, rowW } = layout(g);
  const at = (c: number) => rowW + (c + 1) * colW - 1;
  const lineOf = (r: number) => h - 1 - r;
  const last = view?.last;
  // The last domino's cells, as [row, column] pairs.
  const domino: [number, number][] = [];
  if (last !== undefined && (last.by === 0 || last.by === 1)) {
    const r = Math.floor(last.move / g.width), c = last.move % g.width;
    domino.push([r, c], last.by === 1 ? [r, c + 1] : [r + 1, c]);
  }
  if (view?.color === true) {
    for (let r = 0; r < h; r++) {
      const spans: Span[] = [];
      for (let c = 0; c < g.width; c++) {
        if (!((g.rows[r] >>> c) & 1) || (s[r] >>> c) & 1) continue;
        const sgr = DOMINO_STYLES[mark(r, c) as Player];
        const isLast = domino.some(([dr, dc]) => dr === r && dc === c);
        spans.push({ at: at(c), length: 1, sgr: isLast ? lastStyle(sgr) : sgr });
      }
      lines[lineOf(r)] = paintSpans(lines[lineOf(r)], spans);
    }
  } else if (domino.length === 2) {
    const [[r0, c0], [r1, c1]] = domino;
    if (r0 === r1) lines[lineOf(r0)] = bracket(lines[lineOf(r0)], at(c0), at(c1) - at(c0) + 1);
    else {
      lines[lineOf(r0)] = bracket(lines[lineOf(r0)], at(c0), 1);
      lines[lineOf(r1)] = bracket(lines[lineOf(r1)], at(c1), 1);
    }
  }
  return `${lines.join("\n")}\n${turnOf(g, s)} to move (H: horizontal dominoes, V: vertical)\n`;
};

/** Boards with more cells than this (the default 6x6) show the moves as a picture. */
export const PICTURE_CELLS = 36;

/**
 * Help on the legal moves for a person (`movesHelp`, on boards of more than
 * `PICTURE_CELLS` cells, whose lists of moves are long): the board with `+` on every cell where the
 * player to move can put the domino's first cell (its left cell for H, its lower cell
 * for V), and how a move is typed.
 */
export const movesPicture = (g: Geometry, s: DomState): string => {
  const h = g.height, p = turnOf(g, s);
  const legal = new Set(movesFor(g, s, p));
  const lines = boardLines(
    g,
    (r, c) =>
      legal.has(r * g.width + c) ? "+" : (s[r] >>> c) & 1 ? "." : (s[h + r] >>> c) & 1 ? "V" : "H",
  );
  const example = legal.size > 0 ? formatCell(g, [...legal][0]) : g.letters ? "b3" : "2:3";
  const what = p === "H" ? "across: type its left cell" : "upright: type its lower cell";
  return `${lines.join("\n")}\n${p} places a domino ${what}, such as ${example}.\n` +
    `+ marks where one fits (${legal.size} move${legal.size === 1 ? "" : "s"}).\n`;
};

/** Seed 003's `score` on a state, as a protocol value (`Win V` = `+WIN`, `Win H` = `-WIN`). */
export const stateValue = (g: Geometry, s: DomState): number => {
  const { h, v } = moveCounts(g, s);
  const p = turnOf(g, s);
  if ((p === "H" ? h : v) === 0) return p === "H" ? WIN : -WIN;
  return v - h - (p === "H" ? -1 : 1);
};

/**
 * Moves ordered for alpha-beta: first those that take the most moves away from the
 * opponent and the fewest from the player (a stable sort, ties in the board's order).
 */
export const orderByHarm = (g: Geometry, s: DomState, moves: readonly number[]): number[] => {
  const w = g.width, h = g.height;
  const horizontal = s[2 * h] === 1;
  const bit = (r: number, c: number) => r >= 0 && r < h && c >= 0 && c < w ? (s[r] >>> c) & 1 : 0;
  const scored = moves.map((m, i) => {
    const r = (m / w) | 0, c = m - r * w;
    let theirs = 0, mine = 0;
    if (horizontal) {
      theirs = bit(r - 1, c) + bit(r + 1, c) + bit(r - 1, c + 1) + bit(r + 1, c + 1);
      mine = bit(r, c - 1) + bit(r, c + 2);
    } else {
      theirs = bit(r, c - 1) + bit(r, c + 1) + bit(r + 1, c - 1) + bit(r + 1, c + 1);
      mine = bit(r - 1, c) + bit(r + 2, c);
    }
    return { m, i, s: 4 * theirs - 3 * mine };
  });
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return scored.map((x) => x.m);
};

/**
 * A key for the free cells and the turn (the rest of the state follows from them): the
 * `h` free-cell lines hashed with the turn as the seed.
 */
const stateHasher = (h: number): (s: DomState) => number => (s) => hashPrefix(s, h, s[2 * h]);

/**
 * The protocol game on a geometry.
 *
 * @example The 2x2 board: H moves first and wins
 * ```ts
 * import { domineeringGame, geometry } from "./board.ts";
 * const g = domineeringGame(geometry([[1, 1], [1, 2], [2, 1], [2, 2]], "H"));
 * const s = g.play(g.initial(), g.moves(g.initial())[0]);
 * if (g.outcome(s)?.winner !== 1) throw new Error("H (player 1) should have won");
 * ```
 */
export const domineeringGame = (g: Geometry): DomineeringGame => {
  const h = g.height;
  return {
    id: "domineering",
    players: ["V", "H"],
    geometry: g,
    keep: new Keep(),
    initial: () => initialState(g),
    toMove: (s) => s[2 * h] as ProtocolPlayer,
    moves: (s) => movesFor(g, s, turnOf(g, s)),
    chances: () => [],
    play: (s, m) => playMove(g, s, m),
    outcome: (s) => {
      if (hasMove(g, s, turnOf(g, s))) return undefined;
      // The player to move cannot: the other one won.
      const winner: ProtocolPlayer = s[2 * h] === 0 ? 1 : 0;
      return { winner, margin: winner === 0 ? 1 : -1 };
    },
    value: (s) => stateValue(g, s),
    render: (s, view) => renderState(g, s, view),
    // A picture of the moves where their list is long (a small board lists them).
    ...(g.rows.reduce((n, row) => n + popcount(row), 0) > PICTURE_CELLS
      ? { movesHelp: (s: DomState) => movesPicture(g, s) }
      : {}),
    formatMove: (_s, m) => formatCell(g, m),
    parseMove: (s, text) => parseCell(g, s, text),
    key: stateHasher(h),
    orderMoves: (s, ms) => orderByHarm(g, s, ms),
  };
};
