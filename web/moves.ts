/// <reference lib="dom" />
/**
 * The move list (`#moves`): the session's tree as `tree.ts` lays it out, each move a
 * `[data-node]` button-like span that jumps there, the current one `current`. Each
 * move says who made it (`.who`, in a game of two players; `.who.again` for a player's
 * second move in a row, Kalah's extra turn), and the game's words on it (`.note`:
 * `extra turn`, `captures 3`); a chance move is written in those words when the game
 * has them (2048's `2 at (1,3)`, its notation `NewTile (1,3) 2` in the title).
 *
 * @module
 */
import type { NodeView } from "../server/protocol.ts";
import { h } from "./dom.ts";
import { reviewMark, searchNote, sideName } from "./format.ts";
import { extraTurn, type Item, layout } from "./tree.ts";

/** Who the game's players are, for the move list's `.who` (none in a solo game). */
export interface Movers {
  /** The players' names (`south`, `north`), once the game's entry is known. */
  readonly names: readonly string[] | undefined;
  /** True for a one-player game against chance (2048): every move is the one player's. */
  readonly solo: boolean;
}

/** Who made node `node`'s move, as the list shows it; null when it goes without saying. */
const whoElement = (
  nodes: readonly NodeView[],
  node: NodeView,
  movers: Movers,
): HTMLElement | null => {
  if (node.by === "chance" || movers.solo) return null;
  const who = sideName(movers.names, node.by);
  return extraTurn(nodes, node.id)
    ? h("span", { class: "who again", "data-side": node.by }, `${who} again`)
    : h("span", { class: "who", "data-side": node.by }, who);
};

const moveElement = (
  nodes: readonly NodeView[],
  node: NodeView,
  number: number,
  movers: Movers,
): HTMLElement => {
  const review = node.review;
  const mark = reviewMark(review);
  const title = [
    review !== undefined ? `${review.text}${review.mistake ? ` (best: ${review.best})` : ""}` : "",
    node.search !== undefined
      ? `AI: ${node.search.valueText}, depth ${node.search.depth}, ${node.search.nodes} positions` +
        (node.search.notes ?? []).map((note) => `\n${note}`).join("")
      : "",
    node.by === "chance" && node.note !== undefined ? `chance: ${node.notation}` : "",
  ].filter((t) => t !== "").join("\n");
  const chanceWords = node.by === "chance" && node.note !== undefined;
  return h(
    "span",
    {
      class: `move${node.by === "chance" ? " chance" : ""}${mark !== "" ? " mistake" : ""}`,
      "data-node": node.id,
      role: "button",
      tabindex: -1,
      title: title === "" ? undefined : title,
    },
    number > 0 ? h("span", { class: "num" }, `${number}.`) : null,
    whoElement(nodes, node, movers),
    h("span", { class: "san" }, chanceWords ? node.note : node.notation),
    !chanceWords && node.note !== undefined ? h("small", { class: "note" }, node.note) : null,
    mark !== "" ? h("span", { class: "mark" }, mark) : null,
    node.search !== undefined ? h("small", { class: "eval" }, searchNote(node.search)) : null,
  );
};

const render = (
  nodes: readonly NodeView[],
  items: readonly Item[],
  into: HTMLElement,
  movers: Movers,
): void => {
  for (const item of items) {
    if (item.kind === "move") {
      into.append(moveElement(nodes, item.node, item.number, movers), " ");
    } else {
      const v = h("div", { class: "variation" });
      render(nodes, item.items, v, movers);
      into.append(v);
    }
  }
};

/**
 * Draws the tree into `root`, marks node `current`, and scrolls it into view; `movers`
 * names who moved.
 */
export const drawMoves = (
  root: HTMLElement,
  nodes: readonly NodeView[],
  current: number,
  movers: Movers,
): void => {
  const line = h("div", { class: "line" });
  line.append(
    h("span", {
      class: "move start",
      "data-node": 0,
      role: "button",
      tabindex: -1,
    }, "start"),
    " ",
  );
  render(nodes, layout(nodes), line, movers);
  root.replaceChildren(line);
  const here = root.querySelector(`[data-node="${current}"]`);
  if (here !== null) {
    here.classList.add("current");
    here.setAttribute("aria-current", "step");
    const box = root.getBoundingClientRect();
    const r = here.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) {
      root.scrollTop += r.top - box.top - box.height / 2;
    }
  }
};

/** Calls `jump(id)` when a move of the list in `root` is clicked. */
export const onJump = (root: HTMLElement, jump: (id: number) => void): void => {
  root.addEventListener("click", (e) => {
    const m = e.target instanceof Element ? e.target.closest("[data-node]") : null;
    if (m === null) return;
    const id = Number(m.getAttribute("data-node"));
    if (Number.isInteger(id)) jump(id);
  });
};
