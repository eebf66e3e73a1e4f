/**
 * What the menu lists Domineering by (its id, name and description): plain data, which the
 * registry reads without loading the plugin's module, and which the plugin declares.
 *
 * @module
 */

/** Domineering's id, name and description. */
export const about = {
  id: "domineering",
  name: "Domineering",
  description: "place dominoes, H across and V down; whoever cannot move loses",
} as const;
