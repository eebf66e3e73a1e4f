/**
 * What the menu lists Tic-tac-toe by (its id, name and description): plain data, which the
 * registry reads without loading the plugin's module, and which the plugin declares.
 *
 * @module
 */

/** Tic-tac-toe's id, name and description. */
export const about = {
  id: "tictactoe",
  name: "Tic-tac-toe",
  description: "three in a row on a 3x3 board",
} as const;
