/**
 * What the menu lists Pentago by (its id, name and description): plain data, which the
 * registry reads without loading the plugin's module, and which the plugin declares.
 *
 * @module
 */

/** Pentago's id, name and description. */
export const about = {
  id: "pentago",
  name: "Pentago",
  description: "five in a row on a 6x6 board whose quadrants turn after each placement",
} as const;
