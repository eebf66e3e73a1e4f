/// <reference lib="dom" />
/**
 * The board: the position's SVG (or its text), the classes of its pickable elements
 * (`target`, `picked`, `refused`, and `win`/`draw`/`loss` from the analysis), clicks on
 * them and swipes over it.
 *
 * @module
 */
import { h } from "./dom.ts";
import { swipeKey, type Verdict } from "./picks.ts";

/** How long an element refused keeps the class `refused`, in milliseconds. */
export const FLASH_MS = 700;

/** What the board tells the page. */
export interface BoardHandlers {
  /** An element with `data-pick="TOKEN"` was clicked. */
  readonly pick: (token: string, element: Element) => void;
  /** A swipe, as the arrow key it stands for (`ArrowUp`). */
  readonly swipe: (key: string) => void;
}

/** The board's drawing and marking. */
export interface Board {
  /** Shows the position: its SVG if it has one, else its text. */
  readonly draw: (svg: string | undefined, text: string) => void;
  /** Sets the classes of the pickable elements. */
  readonly mark: (
    targets: ReadonlySet<string>,
    picked: readonly string[],
    verdicts: ReadonlyMap<string, Verdict>,
  ) => void;
  /** Flashes the elements of `token` as refused. */
  readonly flash: (token: string) => void;
  /**
   * Marks the elements of `tokens` `decisive` (what decided a finished game: a winning
   * line, `Position.decisive`) and no others; `#board.decided` while any is.
   */
  readonly decide: (tokens: readonly string[]) => void;
  /** Whether drags on the board are swipes (touch scrolling off there). */
  readonly swipes: (on: boolean) => void;
}

const VERDICTS: readonly Verdict[] = ["win", "draw", "loss"];

/** The board in element `root` (`#board`). */
export const board = (root: HTMLElement, on: BoardHandlers): Board => {
  let shown: string | undefined;
  let start: { x: number; y: number; id: number } | undefined;
  let swiped = false;

  const pickables = (): Element[] => [...root.querySelectorAll("[data-pick]")];

  root.addEventListener("click", (e) => {
    if (swiped) {
      swiped = false;
      return;
    }
    const target = e.target instanceof Element ? e.target.closest("[data-pick]") : null;
    if (target === null || !root.contains(target)) return;
    const token = target.getAttribute("data-pick");
    if (token !== null) on.pick(token, target);
  });
  root.addEventListener("pointerdown", (e) => {
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    swiped = false;
  });
  root.addEventListener("pointerup", (e) => {
    if (start === undefined || start.id !== e.pointerId) return;
    const key = swipeKey(e.clientX - start.x, e.clientY - start.y);
    start = undefined;
    if (key === undefined || !root.classList.contains("swipes")) return;
    swiped = true;
    on.swipe(key);
  });
  root.addEventListener("pointercancel", () => {
    start = undefined;
  });

  return {
    draw: (svg, text) => {
      const key = svg ?? `text:${text}`;
      if (key === shown) return;
      shown = key;
      if (svg !== undefined) {
        root.innerHTML = svg;
        root.classList.remove("text");
      } else {
        root.replaceChildren(h("pre", {}, text));
        root.classList.add("text");
      }
    },
    mark: (targets, picked, verdicts) => {
      root.classList.toggle("picking", picked.length > 0);
      for (const e of pickables()) {
        const token = e.getAttribute("data-pick") ?? "";
        e.classList.toggle("target", targets.has(token));
        e.classList.toggle("picked", picked.includes(token));
        const v = verdicts.get(token);
        for (const c of VERDICTS) e.classList.toggle(c, c === v);
      }
    },
    flash: (token) => {
      for (const e of pickables()) {
        if (e.getAttribute("data-pick") !== token) continue;
        e.classList.remove("refused");
        // Restart the animation of an element flashed twice in a row.
        void (e as HTMLElement | SVGElement).getBoundingClientRect();
        e.classList.add("refused");
        setTimeout(() => e.classList.remove("refused"), FLASH_MS);
      }
    },
    decide: (tokens) => {
      root.classList.toggle("decided", tokens.length > 0);
      for (const e of pickables()) {
        e.classList.toggle("decisive", tokens.includes(e.getAttribute("data-pick") ?? ""));
      }
    },
    swipes: (on) => {
      root.classList.toggle("swipes", on);
    },
  };
};
