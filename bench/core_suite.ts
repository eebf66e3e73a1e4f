/**
 * The core suite: node throughput of the generic searches on the small games, as a
 * baseline that any change to `core/search` is measured against.
 *
 * @module
 */
import { minimaxSearch } from "../core/search/minimax.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { nimGame } from "../plugins/nim/mod.ts";
import type { Game } from "../core/game.ts";
import type { SearchResult } from "../core/search/types.ts";
import type { SuiteFlags } from "./suite.ts";
import { bestOf, searchRow } from "./report.ts";

/** What the suite does. */
export const description = "generic minimax / alpha-beta throughput on tic-tac-toe and Nim";

/** The suite's flags (none). */
export const flags: SuiteFlags = {};

const best = bestOf;
const row = (name: string, r: SearchResult) => searchRow(name, r, 44, false);

/** Runs the suite. */
export const run = (): Promise<void> => {
  const ttt: Game<readonly number[]> = ticTacToeGame();
  const nim = nimGame({ heaps: [3, 4, 5], misere: false });
  console.log("deno task bench core   (best of 5 runs, single thread)");
  row(
    "tic-tac-toe minimax, full tree (depth 9)",
    best(5, () => minimaxSearch(ttt, ttt.initial(), { depth: 9 })),
  );
  row(
    "tic-tac-toe alpha-beta, depth 9, no table",
    best(5, () => alphabetaSearch(ttt, ttt.initial(), { depth: 9, tt: false })),
  );
  row(
    "tic-tac-toe alpha-beta, depth 9, table",
    best(
      5,
      () => alphabetaSearch(ttt, ttt.initial(), { depth: 9, tt: new TranspositionTable(16) }),
    ),
  );
  row(
    "nim 3,4,5 minimax to the end",
    best(3, () => minimaxSearch(nim, nim.initial(), { depth: 12 })),
  );
  row(
    "nim 3,4,5 alpha-beta to the end, table",
    best(
      5,
      () => alphabetaSearch(nim, nim.initial(), { depth: 12, tt: new TranspositionTable(16) }),
    ),
  );
  return Promise.resolve();
};
