/// <reference lib="dom" />
/**
 * The review panel under the board (`#review`), for a game whose moves have been
 * reviewed (a loaded game): the shown move's explanation in words (`#review-text`),
 * "show the best move" (`#show-best`: back to the position before the move, the best
 * move marked `best` on the board and among the move buttons), the evaluation graph over
 * the main line (`#review-graph`: each move a `[data-node]` column; a click jumps
 * there), and each side's inaccuracies, mistakes and blunders (`#review-counts`). Sets
 * `body[data-reviewed]` to the number of the main line's moves reviewed so far.
 *
 * @module
 */
import type { NodeView } from "../server/protocol.ts";
import { byId, h, setText, show } from "./dom.ts";
import { DECISIVE, type Position } from "./format.ts";
import { countMarks, explanation, graphPoints, mainLine, SEVERITIES } from "./marks.ts";

/** What the panel asks of the game view. */
export interface ReviewHandlers {
  /** Shows node `node` (as a click on the move list does). */
  readonly jump: (node: number) => void;
}

/** The review panel. */
export interface ReviewPanel {
  /**
   * Draws the panel for position `p` with node `shown` on the board; `names` are the
   * sides' names (`X`, `O`), `solo` for a game of one player against chance. Call it
   * after the board and the move buttons are drawn.
   */
  readonly draw: (
    p: Position,
    shown: number,
    names: readonly [string, string],
    solo: boolean,
  ) => void;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes. */
const s = (tag: string, attrs: Record<string, string | number>): SVGElement => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
};

/** The graph's size in its own units (it scales to the panel's width). */
const W = 600, H = 120;

/** The evaluation graph: player 0's value along the main line, marked moves as dots. */
const drawGraph = (
  root: HTMLElement,
  nodes: readonly NodeView[],
  shown: number,
  names: readonly [string, string],
): void => {
  const points = graphPoints(nodes, DECISIVE);
  const step = W / Math.max(1, points.length - 1);
  const yOf = (y: number) => H / 2 - (y * H) / 2 * 0.92;
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`,
    preserveAspectRatio: "none",
    role: "img",
    "aria-label": "the value over the game, from the first player's side",
  });
  svg.append(s("rect", { class: "ground", x: 0, y: 0, width: W, height: H }));
  svg.append(s("line", { class: "axis", x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
  const known = points.filter((p) => p.y !== undefined);
  if (known.length > 0) {
    const path = known.map((p) => `${p.ply * step},${yOf(p.y!)}`).join(" ");
    svg.append(s("polygon", {
      class: "area",
      points: `${known[0].ply * step},${H / 2} ${path} ${known.at(-1)!.ply * step},${H / 2}`,
    }));
    svg.append(s("polyline", { class: "line", points: path }));
  }
  const here = points.find((p) => p.node === shown);
  if (here !== undefined) {
    svg.append(s("line", {
      class: "here",
      x1: here.ply * step,
      y1: 0,
      x2: here.ply * step,
      y2: H,
    }));
  }
  for (const p of points) {
    if (p.severity !== undefined && p.y !== undefined) {
      svg.append(s("circle", { class: p.severity, cx: p.ply * step, cy: yOf(p.y), r: 5 }));
    }
  }
  // The click targets: a column around each move, on top.
  for (const p of points) {
    const col = s("rect", {
      class: "col",
      x: Math.max(0, p.ply * step - step / 2),
      y: 0,
      width: step,
      height: H,
      "data-node": p.node,
    });
    const t = s("title", {});
    t.textContent = p.ply === 0 ? "the start" : `move ${p.ply}`;
    col.append(t);
    svg.append(col);
  }
  root.replaceChildren(
    svg,
    h(
      "p",
      { class: "hint" },
      `above the line ${names[0]} is better, below ${names[1]}; click to go to a move`,
    ),
  );
};

/** Each side's counts as a table: a row per side, a column per severity. */
const drawCounts = (
  root: HTMLElement,
  p: Position,
  nodes: readonly NodeView[],
  names: readonly [string, string],
  sides: readonly (0 | 1)[],
): void => {
  const counts = countMarks(nodes, DECISIVE);
  root.replaceChildren(
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, ""),
        ...SEVERITIES.map((x) => h("th", { title: x.plural }, `${x.plural} ${x.mark}`)),
      ),
    ),
    h(
      "tbody",
      {},
      ...sides.map((side) =>
        h(
          "tr",
          { "data-side": side },
          h("th", {}, `${names[side]} (${p.players[side]})`),
          ...SEVERITIES.map((x) =>
            h("td", { "data-count": x.severity, class: x.severity }, counts[side][x.severity])
          ),
        )
      ),
    ),
  );
};

/** Opens the review panel (`#review` of the page's shell). */
export const reviewPanel = (on: ReviewHandlers): ReviewPanel => {
  const box = byId("review");
  const text = byId("review-text");
  const bestButton = byId<HTMLButtonElement>("show-best");
  const graph = byId("review-graph");
  /** The best move asked for: shown at node `at` (the position before the move). */
  let best: { readonly at: number; readonly notation: string; readonly played: number } | undefined;
  /** The node whose review the button shows the best move of. */
  let asked: number | undefined;
  let last: Position | undefined;

  graph.addEventListener("click", (e) => {
    const col = e.target instanceof Element ? e.target.closest("[data-node]") : null;
    const id = Number(col?.getAttribute("data-node"));
    if (col !== null && Number.isInteger(id)) on.jump(id);
  });
  bestButton.addEventListener("click", () => {
    const n = asked === undefined ? undefined : last?.nodes[asked];
    if (n?.review === undefined) return;
    best = { at: n.parent, notation: n.review.best, played: n.id };
    on.jump(n.parent);
  });

  /** Marks the best move on the board and among the buttons (or clears the marks). */
  const markBest = (p: Position, shown: number): void => {
    const here = best !== undefined && best.at === shown ? best : undefined;
    const move = here === undefined ? undefined : p.legal.find((m) => m.notation === here.notation);
    const tokens = new Set(move?.picks[0] ?? []);
    for (const e of byId("board").querySelectorAll("[data-pick]")) {
      e.classList.toggle("best", tokens.has(e.getAttribute("data-pick") ?? ""));
    }
    for (const b of byId("move-buttons").querySelectorAll("button[data-move]")) {
      b.classList.toggle(
        "best",
        move !== undefined && b.getAttribute("data-move") === String(move.move),
      );
    }
    document.body.dataset.best = here?.notation ?? "";
  };

  return {
    draw: (p, shown, names, solo) => {
      last = p;
      const nodes = p.nodes;
      const line = mainLine(nodes);
      const reviewed = line.filter((id) => nodes[id]?.review !== undefined).length;
      document.body.dataset.reviewed = String(reviewed);
      show(box, p.loaded === true || reviewed > 0);
      if (box.hidden) return;
      if (best !== undefined && best.at !== shown) best = undefined;
      const said = explanation(nodes, shown, names, DECISIVE);
      const played = best === undefined ? undefined : nodes[best.played];
      setText(
        text,
        best !== undefined && played !== undefined
          ? `the best move here: ${best.notation}` +
            (played.review?.bestText !== undefined ? ` (${played.review.bestText})` : "") +
            `, where ${played.notation} was played.`
          : said ??
            (shown === 0
              ? "the start: step through the moves, or click the graph, to read each move's review."
              : `move not reviewed${reviewed < line.length ? " yet" : ""}.`),
      );
      const r = nodes[shown]?.review;
      asked = r !== undefined && r.loss > 0 && r.best !== nodes[shown].notation ? shown : undefined;
      show(bestButton, asked !== undefined && p.control && !p.live);
      drawGraph(graph, nodes, shown, names);
      drawCounts(byId("review-counts"), p, nodes, names, solo ? [0] : [0, 1]);
      setText(
        byId("review-progress"),
        reviewed < line.filter((id) => nodes[id].by !== "chance").length
          ? `reviewing: ${reviewed} of ${line.length} moves so far`
          : "",
      );
      markBest(p, shown);
    },
  };
};
