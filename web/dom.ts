/// <reference lib="dom" />
/**
 * A few DOM helpers for the page (plain DOM, no framework).
 *
 * @module
 */

/** Attributes of `h`: strings set as attributes, `false`/`undefined` left out. */
export type Attrs = Readonly<
  Record<string, string | number | boolean | undefined>
>;

/** A child of `h`: an element, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Makes an element: `h("button", { id: "play" }, "play")`. */
export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: readonly Child[]
): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    e.setAttribute(name, value === true ? "" : String(value));
  }
  append(e, children);
  return e;
};

/** Appends children (text, elements) to `parent`, skipping empty ones. */
export const append = (parent: Element, children: readonly Child[]): void => {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.append(typeof c === "number" ? String(c) : c);
  }
};

/** The element with id `id` (the page's shell has it; a missing one is a bug). */
export const byId = <E extends HTMLElement = HTMLElement>(id: string): E => {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`the page has no #${id}`);
  return e as E;
};

/** Shows or hides an element (the `hidden` attribute). */
export const show = (e: HTMLElement, visible: boolean): void => {
  e.hidden = !visible;
};

/** Sets an element's text, leaving the DOM alone when it is already that. */
export const setText = (e: Element, text: string): void => {
  if (e.textContent !== text) e.textContent = text;
};
