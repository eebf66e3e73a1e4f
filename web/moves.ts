/// <reference lib="dom" />
/**
 * The move list (`#moves`): the session's tree as `tree.ts` lays it out, each move a
 * `[data-node]` button-like span that jumps there, the current one `current`.
 *
 * @module
 */
import type { NodeView } from "../server/protocol.ts";
import { h } from "./dom.ts";
import { reviewMark, searchNote } from "./format.ts";
import { type Item, layout } from "./tree.ts";

const moveElement = (node: NodeView, number: number): HTMLElement => {
  const review = node.review;
  const mark = reviewMark(review);
  const title = [
    review !== undefined ? `${review.text}${review.mistake ? ` (best: ${review.best})` : ""}` : "",
    node.search !== undefined
      ? `AI: ${node.search.valueText}, depth ${node.search.depth}, ${node.search.nodes} positions` +
        (node.search.notes ?? []).map((note) => `\n${note}`).join("")
      : "",
  ].filter((t) => t !== "").join("\n");
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
    h("span", { class: "san" }, node.notation),
    mark !== "" ? h("span", { class: "mark" }, mark) : null,
    node.search !== undefined ? h("small", { class: "eval" }, searchNote(node.search)) : null,
  );
};

const render = (items: readonly Item[], into: HTMLElement): void => {
  for (const item of items) {
    if (item.kind === "move") {
      into.append(moveElement(item.node, item.number), " ");
    } else {
      const v = h("div", { class: "variation" });
      render(item.items, v);
      into.append(v);
    }
  }
};

/** Draws the tree into `root`, marks node `current`, and scrolls it into view. */
export const drawMoves = (
  root: HTMLElement,
  nodes: readonly NodeView[],
  current: number,
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
  render(layout(nodes), line);
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
