/**
 * `deno bench bench/core.bench.ts`: the generic searches on the small games, and the
 * cost of one protocol step (play + moves) with plain-array states.
 */
import { Effect } from "../core/deps.ts";
import { openGame } from "../app/games.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { nimGame } from "../plugins/nim/mod.ts";

const ttt = ticTacToeGame();
const nim = nimGame({ heaps: [3, 4, 5], misere: false });

Deno.bench(
  "tic-tac-toe: minimax, full tree (549,946 nodes)",
  { group: "ttt", baseline: true },
  () => {
    minimaxSearch(ttt, ttt.initial(), { depth: 9 });
  },
);
Deno.bench("tic-tac-toe: alpha-beta depth 9, no table", { group: "ttt" }, () => {
  alphabetaSearch(ttt, ttt.initial(), { depth: 9, tt: false });
});
Deno.bench("tic-tac-toe: alpha-beta depth 9, table", { group: "ttt" }, () => {
  alphabetaSearch(ttt, ttt.initial(), { depth: 9, tt: new TranspositionTable(4) });
});
Deno.bench("nim 3,4,5: minimax to the end", { group: "nim", baseline: true }, () => {
  minimaxSearch(nim, nim.initial(), { depth: 12 });
});
Deno.bench("nim 3,4,5: alpha-beta to the end, table", { group: "nim" }, () => {
  alphabetaSearch(nim, nim.initial(), { depth: 12, tt: new TranspositionTable(4) });
});
Deno.bench("protocol step: play + moves on tic-tac-toe", { group: "step" }, () => {
  let s = ttt.initial();
  for (let i = 0; i < 9; i++) s = ttt.play(s, ttt.moves(s)[0]);
});

// Leaves at the depth limit: alpha-beta without a table on games with cheap evaluations,
// where the per-leaf test for a finished game (`endsAtLimit`) shows if it costs anything.
const kalah = (await Effect.runPromise(openGame("kalah"))).game;
const domineering = (await Effect.runPromise(openGame("domineering"))).game;
Deno.bench("kalah 6x4: alpha-beta depth 14, no table", { group: "leaves" }, () => {
  alphabetaSearch(kalah, kalah.initial(), { depth: 14, tt: false });
});
Deno.bench("domineering 8x8: alpha-beta depth 7, no table", { group: "leaves" }, () => {
  alphabetaSearch(domineering, domineering.initial(), { depth: 7, tt: false });
});
