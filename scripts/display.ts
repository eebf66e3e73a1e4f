/**
 * Text the programs print about games: results, searches, headers.
 *
 * @module
 */
import type { Game } from "../core/game.ts";
import type { GameResult } from "../core/match.ts";
import type { SearchResult } from "../core/search/types.ts";
import { formatValue, num } from "./cli.ts";

/** One line saying how a game ended. */
export const describeResult = (game: Game<unknown>, r: GameResult): string => {
  const name = (p: 0 | 1) => game.players[p];
  switch (r.reason) {
    case "end":
      if (game.solo === true) return `Game over: ${name(0)} scored ${r.margin}.`;
      if (r.winner === null) return "Draw.";
      return `${name(r.winner)} wins${r.margin !== 0 ? ` by ${Math.abs(r.margin)}` : ""}.`;
    case "quit":
    case "gave up":
      return `${name(r.by!)} gave up; ${name(r.winner!)} wins.`;
    case "illegal move":
      return `${name(r.by!)} made an illegal move; ${name(r.winner!)} wins.`;
    case "end of input":
      return "Input ended; the game stops here.";
    case "interrupted":
      return "Interrupted; the game stops here.";
    default:
      return `The game stopped: ${r.reason}.`;
  }
};

/** A search's figures in one line: depth, value, nodes, time. */
export const describeSearch = (game: Game<unknown>, r: SearchResult): string =>
  `depth ${r.depth}${r.exact ? " (exact)" : ""}, value ${formatValue(game, r.value)}, ` +
  `${num(r.nodes)} nodes, ${(r.timeMs / 1000).toFixed(2)} s`;
