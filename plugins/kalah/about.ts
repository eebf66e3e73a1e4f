/**
 * What the menu lists Kalah by (its id, name and description): plain data, which the
 * registry reads without loading the plugin's module, and which the plugin declares.
 *
 * @module
 */

/** Kalah's id, name and description. */
export const about = {
  id: "kalah",
  name: "Kalah",
  description: "sow stones round the board; capture, take extra turns, fill your store",
} as const;
