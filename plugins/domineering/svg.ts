/**
 * SVG pictures of Domineering boards and game trees, after seed 003's `DomViz`
 * (`boardSVG`, `boardSVG'`, `gametreeSVG`, `gametreeSVG'`): the functions return the SVG
 * text (the render script writes it to files).
 *
 * A board shows its cells, and every domino coloured by player (H blue, V orange) and
 * labelled with the round it was placed in. A tree shows a small board at every node,
 * an optional label under it (a score, say), and pruned nodes crossed out.
 *
 * @example
 * ```ts
 * import { boardSVG } from "./svg.ts";
 * import { board4x4_3 } from "./seed003.ts";
 * const svg = boardSVG(board4x4_3);
 * if (!svg.includes("<svg") || !svg.includes(">1</text>")) throw new Error("no round labels");
 * ```
 *
 * @module
 */
import type { Tree } from "../../core/tree.ts";
import {
  type ABScore,
  adjCell,
  type Board,
  type Cell,
  cellKey,
  opp,
  type Player,
  showABScore,
} from "./seed003.ts";

/** The colours of the players' dominoes. */
export const COLOURS: Readonly<Record<Player, string>> = { H: "#3b6fb6", V: "#e07b24" };

const CELL_FILL = "#f5f1e6";
const CELL_STROKE = "#9a9484";

const esc = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const num = (v: number): string => String(Math.round(v * 100) / 100);

/** A domino on a board: its lower-left cell, its player, and the round it was placed in. */
export interface Domino {
  /** The lower-left cell. */
  readonly cell: Cell;
  /** Who placed it. */
  readonly player: Player;
  /** The round (1 for the first move). */
  readonly round: number;
}

/** The dominoes of a board, oldest first (hist is latest first; players alternate back from the mover). */
export const dominoes = (b: Board): Domino[] => {
  const n = b.hist.length;
  return b.hist.map((cell, i) => ({
    cell,
    player: i % 2 === 0 ? opp(b.turn) : b.turn,
    round: n - i,
  })).reverse();
};

/** The bounding box of a board's shape (free cells and dominoes). */
const boxOf = (b: Board) => {
  const cells: Cell[] = [...b.free];
  for (const d of dominoes(b)) cells.push(d.cell, adjCell(d.cell, d.player));
  if (cells.length === 0) return { x0: 1, y0: 1, w: 1, h: 1, cells };
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  return { x0, y0, w: Math.max(...xs) - x0 + 1, h: Math.max(...ys) - y0 + 1, cells };
};

/**
 * The SVG elements of a board drawn at `(ox, oy)` with cells of side `c` (no `<svg>`
 * wrapper), and its size.
 */
const boardElements = (
  b: Board,
  ox: number,
  oy: number,
  c: number,
  labels: boolean,
): { body: string; width: number; height: number } => {
  const { x0, y0, w, h, cells } = boxOf(b);
  const px = (x: number) => ox + (x - x0) * c;
  const py = (y: number) => oy + (h - 1 - (y - y0)) * c; // y grows upwards on the board
  const out: string[] = [];
  const seen = new Set<number>();
  for (const cell of cells) {
    const k = cellKey(cell);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(cellSVG(px(cell[0]), py(cell[1]), c));
  }
  for (const d of dominoes(b)) {
    const [x, y] = d.cell;
    // The domino's top-left cell: its own for H, the one above it for V.
    out.push(
      dominoSVG(
        d.player,
        px(x),
        d.player === "H" ? py(y) : py(y + 1),
        c,
        labels ? d.round : undefined,
      ),
    );
  }
  return { body: out.join("\n"), width: w * c, height: h * c };
};

/**
 * A board's cell: a square of side `c` whose top-left corner is `(x, y)`, in the board's
 * colours. `attrs` is added to the element as it is (` data-pick="b3"` on a web page's
 * picture).
 */
export const cellSVG = (x: number, y: number, c: number, attrs = ""): string =>
  `<rect x="${num(x)}" y="${num(y)}" width="${num(c)}" height="${num(c)}" fill="${CELL_FILL}" ` +
  `stroke="${CELL_STROKE}" stroke-width="${num(Math.max(0.5, c / 24))}"${attrs}/>`;

/**
 * A domino of `player` over cells of side `c`, its top-left cell's corner at `(x, y)`
 * (across two cells for H, down two for V), in the player's colour and labelled with
 * its round when one is given.
 */
export const dominoSVG = (
  player: Player,
  x: number,
  y: number,
  c: number,
  round?: number,
): string => {
  const inset = Math.max(1, c * 0.08);
  const horizontal = player === "H";
  const left = x + inset, top = y + inset;
  const dw = (horizontal ? 2 * c : c) - 2 * inset;
  const dh = (horizontal ? c : 2 * c) - 2 * inset;
  const rect = `<rect class="domino ${player}" x="${num(left)}" y="${num(top)}" width="${
    num(dw)
  }" height="${num(dh)}" rx="${num(c * 0.18)}" fill="${COLOURS[player]}"/>`;
  if (round === undefined) return rect;
  return `${rect}\n<text x="${num(left + dw / 2)}" y="${num(top + dh / 2)}" font-size="${
    num(c * 0.45)
  }" fill="#ffffff" text-anchor="middle" dominant-baseline="central">${round}</text>`;
};

const wrap = (width: number, height: number, body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n` +
  `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" ` +
  `viewBox="0 0 ${num(width)} ${num(height)}" font-family="Helvetica, Arial, sans-serif">\n` +
  `<rect width="100%" height="100%" fill="#ffffff"/>\n${body}\n</svg>\n`;

/**
 * A board as SVG (seed 003's `boardSVG'`, with the scale first there): cells 30 px wide
 * times `scale`, dominoes coloured by player and labelled with their round.
 */
export const boardSVG = (b: Board, scale = 1): string => {
  const c = 30 * scale, m = 6 * scale;
  const { body, width, height } = boardElements(b, m, m, c, true);
  return wrap(width + 2 * m, height + 2 * m, body);
};

/** What a tree picture shows at a node: a board, a label under it, and whether it was pruned. */
export interface TreeNode {
  /** The board at the node. */
  readonly board: Board;
  /** A label under the board (a score, say); none when empty. */
  readonly label?: string;
  /** A pruned node: drawn faded and crossed out (its subtree is not drawn). */
  readonly pruned?: boolean;
}

interface Laid {
  readonly node: TreeNode;
  readonly kids: Laid[];
  readonly depth: number;
  width: number; // of the subtree
  x: number; // centre
}

/** The most nodes a tree picture draws. */
export const MAX_TREE_NODES = 20000;

/**
 * A game tree as SVG: boards with cells of 8 px times `scale`, parents centred over their
 * children, labels under the boards, pruned nodes crossed out. Throws a `RangeError` for
 * trees of more than `maxNodes` nodes (default `MAX_TREE_NODES`; prune them first).
 */
export const treeSVG = <M>(
  t: Tree<M, TreeNode>,
  scale = 1,
  maxNodes: number = MAX_TREE_NODES,
): string => {
  const c = 8 * scale, gap = 8 * scale, vgap = 28 * scale, fs = 9 * scale, m = 8 * scale;
  let count = 0;
  const levelH: number[] = [];
  const build = (tree: Tree<M, TreeNode>, depth: number): Laid => {
    if (++count > maxNodes) {
      throw new RangeError(`the tree has more than ${maxNodes} nodes: prune it first`);
    }
    const { w, h } = boxOf(tree.label.board);
    const labelH = tree.label.label ? fs * 1.5 : 0;
    levelH[depth] = Math.max(levelH[depth] ?? 0, h * c + labelH);
    const kids = tree.label.pruned ? [] : [...tree.children()].map(([, k]) => build(k, depth + 1));
    const own = Math.max(w * c, tree.label.label ? tree.label.label.length * fs * 0.62 : 0);
    const sum = kids.reduce((a, k) => a + k.width, 0) + gap * Math.max(0, kids.length - 1);
    return { node: tree.label, kids, depth, width: Math.max(own, sum), x: 0 };
  };
  const root = build(t, 0);
  const place = (n: Laid, left: number): void => {
    if (n.kids.length === 0) {
      n.x = left + n.width / 2;
      return;
    }
    const sum = n.kids.reduce((a, k) => a + k.width, 0) + gap * (n.kids.length - 1);
    let x = left + (n.width - sum) / 2;
    for (const k of n.kids) {
      place(k, x);
      x += k.width + gap;
    }
    n.x = (n.kids[0].x + n.kids[n.kids.length - 1].x) / 2;
  };
  place(root, m);
  const levelY: number[] = [];
  let y = m;
  for (let d = 0; d < levelH.length; d++) {
    levelY[d] = y;
    y += levelH[d] + vgap;
  }
  const edges: string[] = [], nodes: string[] = [];
  const draw = (n: Laid): void => {
    const { w, h } = boxOf(n.node.board);
    const top = levelY[n.depth], left = n.x - (w * c) / 2;
    const b = boardElements(n.node.board, left, top, c, c >= 14);
    const labelH = n.node.label ? fs * 1.5 : 0;
    const bottom = top + h * c + labelH;
    nodes.push(n.node.pruned ? `<g opacity="0.4">\n${b.body}\n</g>` : b.body);
    if (n.node.label) {
      nodes.push(
        `<text x="${num(n.x)}" y="${num(top + h * c + fs * 1.15)}" font-size="${
          num(fs)
        }" fill="#222222" text-anchor="middle">${esc(n.node.label)}</text>`,
      );
    }
    if (n.node.pruned) {
      const x1 = left - 1, y1 = top - 1, x2 = left + w * c + 1, y2 = top + h * c + 1;
      nodes.push(
        `<path class="pruned" d="M${num(x1)} ${num(y1)}L${num(x2)} ${num(y2)}M${num(x2)} ${
          num(y1)
        }L${num(x1)} ${num(y2)}" stroke="#c62828" stroke-width="${num(1.5 * scale)}"/>`,
      );
    }
    for (const k of n.kids) {
      edges.push(
        `<line x1="${num(n.x)}" y1="${num(bottom + 2 * scale)}" x2="${num(k.x)}" y2="${
          num(levelY[k.depth] - 2 * scale)
        }" stroke="#8a8a8a" stroke-width="${num(0.8 * scale)}"/>`,
      );
      draw(k);
    }
  };
  draw(root);
  const height = y - vgap + m;
  return wrap(root.width + 2 * m, height, `${edges.join("\n")}\n${nodes.join("\n")}`);
};

const mapLabels = <M, A>(f: (a: A) => TreeNode, t: Tree<M, A>): Tree<M, TreeNode> => ({
  label: f(t.label),
  children: function* () {
    for (const [m, k] of t.children()) yield [m, mapLabels(f, k)] as const;
  },
});

/** A game tree of boards as SVG (seed 003's `gametreeSVG`). */
export const gametreeSVG = <M>(t: Tree<M, Board>, scale = 1): string =>
  treeSVG(mapLabels((board: Board) => ({ board }), t), scale);

/** A game tree of boards with labels as SVG (seed 003's `gametreeSVG'`). */
export const labelledTreeSVG = <M>(t: Tree<M, readonly [Board, string]>, scale = 1): string =>
  treeSVG(mapLabels(([board, label]: readonly [Board, string]) => ({ board, label }), t), scale);

/**
 * An alpha-beta tree (`alphabeta`'s output) as SVG: exact scores as `Heu 2`, bounds as
 * `≥Heu 2` (V's) or `≤Heu 0` (H's), pruned nodes crossed out (or left out with
 * `dropPruned`, as after `alphaprune`).
 */
export const alphabetaSVG = <M>(
  t: Tree<M, readonly [Board, ABScore | undefined]>,
  scale = 1,
  dropPruned = false,
): string => {
  const keep = (tree: Tree<M, readonly [Board, ABScore | undefined]>): Tree<M, TreeNode> => ({
    label: tree.label[1] === undefined
      ? { board: tree.label[0], label: "X", pruned: true }
      : { board: tree.label[0], label: showABScore(tree.label[0].turn, tree.label[1]) },
    children: function* () {
      for (const [m, k] of tree.children()) {
        if (dropPruned && k.label[1] === undefined) continue;
        yield [m, keep(k)] as const;
      }
    },
  });
  return treeSVG(keep(t), scale);
};
