/**
 * What the menu lists Nim by (its id, name and description): plain data, which the
 * registry reads without loading the plugin's module, and which the plugin declares.
 *
 * @module
 */

/** Nim's id, name and description. */
export const about = {
  id: "nim",
  name: "Nim",
  description: "take stones from heaps; the last to take wins (or loses, misère)",
} as const;
