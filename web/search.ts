/// <reference lib="dom" />
/**
 * The search panel (`#search`): what the thinking AI or the analysis says (depth,
 * value, principal variation, speed) and the value bar, from the mover's view; and its
 * glance under the board (`#glance`: a thin bar and one line, shown on narrow screens,
 * where the panel is a screen or two below the board).
 *
 * @module
 */
import type { SearchView } from "../server/protocol.ts";
import { byId, setText } from "./dom.ts";
import { barFill, formatCount, formatMs } from "./format.ts";

/** Shows a search: `title` says whose (`north's AI`, `analysis`), `mover` whose view the value is. */
export const drawSearch = (
  title: string,
  mover: string,
  s: SearchView,
): void => {
  const panel = byId("search");
  panel.classList.remove("idle");
  setText(byId("search-title"), title);
  setText(byId("search-depth"), String(s.depth));
  setText(byId("search-value"), s.valueText + (s.exact ? " (proven)" : ""));
  setText(byId("search-pv"), s.pv.join(" "));
  setText(byId("search-nps"), `${formatCount(s.nps)}/s`);
  setText(byId("search-nodes"), `${formatCount(s.nodes)} in ${formatMs(s.ms)}`);
  drawBar(mover, s.bar);
  setText(
    byId("glance-text"),
    `${title}: ${s.valueText}${s.exact ? " (proven)" : ""}, depth ${s.depth} (${mover}'s view)`,
  );
  byId("glance").classList.remove("idle");
};

/** Sets the value bar (`bar` from -1, the mover loses, to 1, the mover wins). */
export const drawBar = (mover: string, bar: number): void => {
  const box = byId("value-bar");
  const fill = barFill(bar);
  for (const fillEl of document.querySelectorAll<HTMLElement>("#value-bar .fill, #glance .fill")) {
    fillEl.style.width = `${(fill * 100).toFixed(1)}%`;
  }
  box.dataset.bar = String(bar);
  box.setAttribute("aria-valuenow", bar.toFixed(2));
  setText(byId("value-view"), `${mover}'s view`);
};

/** Greys the panel: what it shows is about an earlier position. */
export const idleSearch = (): void => {
  byId("search").classList.add("idle");
  byId("glance").classList.add("idle");
};
