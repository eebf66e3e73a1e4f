/**
 * What the built-in plugins' pictures for a web page share (`Game.picture`,
 * `core/picture.ts`): escaping, elements built from attribute records (every value
 * escaped), the `<svg>` document sized by its `viewBox` only, an overlay layer that lets
 * the pointer through to the pickable shapes under it, the mark of the last move, and
 * `withPicture`, which gives a game its picture.
 *
 * Conventions of every built-in picture: the element a player points at carries
 * `data-pick="TOKEN"` and is the visible shape itself (a cell's `rect`, a stone's
 * `circle`, an arrow's `path`), coloured with `fill` / `stroke` attributes and never an
 * inline `style` (the page's CSS restyles `[data-pick]` elements: targets, picks,
 * refusals, analysis verdicts). Everything drawn over those shapes (marks, numbers,
 * marbles' labels) goes in `overlay`, so that the pointer reaches the shape below.
 *
 * @example A cell a player can point at, with a label over it
 * ```ts
 * import { el, overlay, svgDocument, text } from "./svg.ts";
 * const svg = svgDocument(
 *   10,
 *   10,
 *   el("rect", { x: 0, y: 0, width: 10, height: 10, fill: "#eee", "data-pick": "a1" }) +
 *     overlay(text(5, 5, "<a1>", { "font-size": 3 })),
 * );
 * if (!svg.includes('data-pick="a1"') || !svg.includes("&lt;a1&gt;")) throw new Error(svg);
 * ```
 *
 * @module
 */
import type { Game } from "../core/game.ts";
import type { Picture } from "../core/picture.ts";

/** The SVG namespace. */
export const SVG_NS = "http://www.w3.org/2000/svg";

/** The colour that marks the last move (a ring, an outline). */
export const LAST_COLOUR = "#e91e63";

/** The players' colours, player 0 first (red and blue, as the terminal's marks). */
export const PLAYER_COLOURS: readonly [string, string] = ["#c62828", "#1565c0"];

/** Text and attribute values with `&`, `<`, `>`, `"` and `'` escaped. */
export const esc = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** A coordinate with at most two decimals. */
export const num = (v: number): string => String(Math.round(v * 100) / 100);

/** An element's attributes: numbers are rounded (`num`), strings escaped, `undefined` left out. */
export type Attrs = Readonly<Record<string, string | number | undefined>>;

const attrText = (attrs: Attrs): string => {
  let out = "";
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined) continue;
    out += ` ${k}="${typeof v === "number" ? num(v) : esc(v)}"`;
  }
  return out;
};

/**
 * An element: `<name attrs/>`, or `<name attrs>children</name>` when `children` (markup,
 * not escaped: other elements, or `esc`aped text) is given.
 */
export const el = (name: string, attrs: Attrs, children?: string): string =>
  children === undefined
    ? `<${name}${attrText(attrs)}/>`
    : `<${name}${attrText(attrs)}>${children}</${name}>`;

/** A `<text>` centred on `(x, y)`; the text is escaped. */
export const text = (x: number, y: number, content: string, attrs: Attrs = {}): string =>
  el(
    "text",
    { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs },
    esc(content),
  );

/**
 * Elements drawn over the pickable shapes (marks, labels): a group the pointer passes
 * through, so a click or a hover reaches the shape under it.
 */
export const overlay = (children: string): string =>
  children === "" ? "" : el("g", { "pointer-events": "none" }, children);

/**
 * The whole picture: one `<svg>` element sized by its `viewBox` only (the page scales it),
 * with a font for its texts.
 */
export const svgDocument = (width: number, height: number, body: string): string =>
  `<svg xmlns="${SVG_NS}" viewBox="0 0 ${num(width)} ${num(height)}" ` +
  `font-family="Helvetica, Arial, sans-serif">${body}</svg>`;

/** The last move's ring: a rectangle outline in `LAST_COLOUR` (put it in an `overlay`). */
export const lastRect = (
  x: number,
  y: number,
  width: number,
  height: number,
  stroke: number,
  rx = 0,
): string =>
  el("rect", {
    x,
    y,
    width,
    height,
    rx: rx > 0 ? rx : undefined,
    fill: "none",
    stroke: LAST_COLOUR,
    "stroke-width": stroke,
  });

/** The last move's ring around a circle (put it in an `overlay`). */
export const lastCircle = (cx: number, cy: number, r: number, stroke: number): string =>
  el("circle", { cx, cy, r, fill: "none", stroke: LAST_COLOUR, "stroke-width": stroke });

/**
 * The cells of every run of `length` equal non-zero cells in a `width` x `height` grid
 * (reading order), along rows, columns and both diagonals: a finished game's winning
 * lines, for `Picture.decisive`. Each cell once, in ascending order.
 *
 * @example Tic-tac-toe's top row
 * ```ts
 * import { runsOf } from "./svg.ts";
 * if (runsOf([1, 1, 1, 2, 2, 0, 0, 0, 0], 3, 3, 3).join() !== "0,1,2") throw new Error();
 * ```
 */
export const runsOf = (
  cells: readonly number[],
  width: number,
  height: number,
  length: number,
): number[] => {
  const found = new Set<number>();
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = cells[y * width + x];
      if (v === 0) continue;
      for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        if (!inside(x + dx * (length - 1), y + dy * (length - 1))) continue;
        let k = 1;
        while (k < length && cells[(y + dy * k) * width + x + dx * k] === v) k++;
        if (k < length) continue;
        for (let j = 0; j < length; j++) found.add((y + dy * j) * width + x + dx * j);
      }
    }
  }
  return [...found].sort((a, b) => a - b);
};

/**
 * The game with its picture: `make` builds the picture from the game (whose functions
 * it may call: moves, notation). The game's other properties are kept.
 *
 * @example A cell per move
 * ```ts
 * import { el, svgDocument, withPicture } from "./svg.ts";
 * import nim from "./nim/mod.ts";
 * const plain = nim.create({ heaps: [2], misere: false });
 * const game = withPicture<readonly number[], typeof plain>((g) => ({
 *   svg: (s) => svgDocument(10 * g.moves(s).length, 10, g.moves(s).map((m, i) =>
 *     el("rect", { x: 10 * i, y: 0, width: 10, height: 10, "data-pick": g.formatMove(s, m) })
 *   ).join("")),
 *   picks: (s, m) => [[g.formatMove(s, m)]],
 * }), plain);
 * if (!game.picture!.svg(game.initial()).includes('data-pick="1-2"')) throw new Error();
 * ```
 */
export const withPicture = <S, G extends Game<S>>(
  make: (game: G) => Picture<S>,
  game: G,
): G => ({ ...game, picture: make(game) });
