/**
 * What the menu lists 2048 by (its id, name and description): plain data, which the
 * registry reads without loading the plugin's module, and which the plugin declares.
 *
 * @module
 */

/** 2048's id, name and description. */
export const about = {
  id: "2048",
  name: "2048",
  description: "slide and merge tiles on a w x h grid; the computer places 2s and 4s",
} as const;
