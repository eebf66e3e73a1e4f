/**
 * The Pentago suite: `deno task bench pentago [--quick] [--json FILE]`.
 *
 * - the bitboards against the plain board (`plugins/pentago/naive.ts`): random-game
 *   plies per second and alpha-beta nodes per second;
 * - alpha-beta nodes per second and MCTS playouts per second, from the empty board and
 *   from a fixed midgame position;
 * - the dedicated engine (`plugins/pentago/engine.ts`, the `pentago` strategy) against the
 *   generic alpha-beta at the same depths: nodes, time to the depth and nodes per second
 *   (without its threat search, "exact", its values equal alpha-beta's; "as played" with
 *   its defaults);
 * - seed 002's trade-offs: duplicate removal (`--dedupe`) and shuffling (`--shuffle`),
 *   nodes and time with and without, with the move ordering on and off (seed 002 had
 *   none);
 * - the random-playout evaluation's cost per node.
 *
 * Every row is the best of 5 runs (10 for the trade-offs; 1 or 2 with `--quick`). The
 * machine is shared, so times are noisy while node counts are exact. Alpha-beta reuses one
 * 64 MB table, emptied before each run.
 *
 * @module
 */
import type { Game } from "../core/game.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { mctsSearch } from "../core/search/mcts.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import type { SearchOptions, SearchResult } from "../core/search/types.ts";
import { type EngineSettings, pentagoSearch } from "../plugins/pentago/engine.ts";
import { pentagoGame, type PentagoOptions } from "../plugins/pentago/mod.ts";
import type { PentagoState } from "../plugins/pentago/rules.ts";
import { naiveGame } from "../plugins/pentago/naive.ts";
import type { SuiteFlags } from "./suite.ts";
import { userPath } from "../app/cli.ts";

/** What the suite does. */
export const description =
  "Pentago: bitboards vs plain, alpha-beta and engine nodes/s, MCTS playouts/s, dedupe/shuffle";

/** The suite's flags. */
export const flags: SuiteFlags = {
  boolean: ["quick"],
  value: ["json"],
  usage: "[--quick] [--json FILE]",
};

/** The fixed midgame position (12 marbles, white to move), as moves from the start. */
export const MIDGAME: string =
  "e5 ne ccw, b2 se cw, e2 sw ccw, b5 se cw, d5 ne ccw, e3 ne cw, b4 se cw, e3 nw cw, " +
  "b4 ne cw, c4 ne ccw, c5 se cw, e3 se ccw";

/** The state after a comma-separated list of moves in Pentago notation. */
export const positionAfter = <S>(game: Game<S>, moves: string): S => {
  let s = game.initial();
  for (const text of moves.split(",").map((t) => t.trim()).filter((t) => t !== "")) {
    const r = game.parseMove(s, text);
    if (r._tag !== "Success") throw new Error(`bad move '${text}': ${r.failure}`);
    s = game.play(s, r.success);
  }
  return s;
};

/** One measured row. */
export interface Row {
  /** What was measured. */
  readonly name: string;
  /** Nodes (alpha-beta), iterations (MCTS) or plies (random games). */
  readonly count: number;
  /** Milliseconds of the best run. */
  readonly ms: number;
  /** `count` per second. */
  readonly perSecond: number;
  /** The search value or other detail. */
  readonly detail: string;
}

const bestOf = (runs: number, f: () => { count: number; ms: number; detail: string }) => {
  let best = f();
  for (let i = 1; i < runs; i++) {
    const x = f();
    if (x.ms < best.ms) best = x;
  }
  return best;
};

/** One table for every search, emptied before each (allocating 64 MB per run adds GC noise). */
let table: TranspositionTable | undefined;

const search = <S>(
  game: Game<S>,
  s: S,
  options: SearchOptions,
): { count: number; ms: number; detail: string } => {
  table ??= new TranspositionTable(64);
  table.clear();
  const r: SearchResult = alphabetaSearch(game, s, { tt: table, ...options });
  return {
    count: r.nodes,
    ms: r.timeMs,
    detail: `depth ${r.depth}, value ${r.value}, move ${game.formatMove(s, r.move!)}`,
  };
};

/** The engine's search at a fixed depth, on the same emptied table. */
const engine = (
  game: Game<PentagoState>,
  s: PentagoState,
  depth: number,
  settings: EngineSettings,
): { count: number; ms: number; detail: string } => {
  table ??= new TranspositionTable(64);
  table.clear();
  const r = pentagoSearch(game, s, { tt: table, depth, distance: true }, settings);
  return {
    count: r.nodes,
    ms: r.timeMs,
    detail: `depth ${r.depth}, value ${r.value}, move ${game.formatMove(s, r.move!)}`,
  };
};

const randomGames = <S>(game: Game<S>, games: number) => {
  const rng = makeRng(1);
  const t0 = performance.now();
  let plies = 0;
  for (let g = 0; g < games; g++) {
    let s = game.initial();
    while (true) {
      const ms = game.moves(s);
      if (ms.length === 0) break;
      game.value(s);
      s = game.play(s, ms[rng.int(ms.length)]);
      plies++;
    }
  }
  return { count: plies, ms: performance.now() - t0, detail: `${games} games` };
};

/** Runs the suite. */
export const run = async (args: readonly string[]): Promise<void> => {
  const quick = args.includes("--quick");
  const jsonAt = args.indexOf("--json");
  const jsonFile = jsonAt >= 0 ? userPath(args[jsonAt + 1]) : undefined;
  const runs = quick ? 1 : 5;
  const rows: Row[] = [];
  const row = (name: string, m: { count: number; ms: number; detail: string }) => {
    const r = {
      name,
      count: m.count,
      ms: m.ms,
      perSecond: (m.count / m.ms) * 1000,
      detail: m.detail,
    };
    rows.push(r);
    console.log(
      `${name.padEnd(52)} ${String(r.count).padStart(9)} ${r.ms.toFixed(0).padStart(7)} ms ` +
        `${Math.round(r.perSecond).toLocaleString("en-US").padStart(11)}/s  ${r.detail}`,
    );
  };
  const game = (o: Partial<PentagoOptions> = {}) => pentagoGame(o);
  const g = game();
  const empty = g.initial();
  const mid = positionAfter(g, MIDGAME);
  console.log(
    `deno task bench pentago${
      quick ? " --quick" : ""
    }   (best of ${runs} runs; node counts are exact, times noisy)`,
  );
  console.log(`midgame: ${MIDGAME}\n${g.render(mid)}`);

  console.log("-- representation: bitboards vs the plain board (plugins/pentago/naive.ts)");
  const naive = naiveGame();
  row(
    "random games, plies/s (moves+value+play), bitboards",
    bestOf(runs, () => randomGames(g, 200)),
  );
  row(
    "random games, plies/s (moves+value+play), plain",
    bestOf(runs, () => randomGames(naive, 20)),
  );
  // The plain board reads the bitboard game's move codes, so the same line reaches it.
  let naiveMid = naive.initial();
  {
    let s = g.initial();
    for (const text of MIDGAME.split(",").map((t) => t.trim())) {
      const r = g.parseMove(s, text);
      if (r._tag !== "Success") throw new Error(text);
      s = g.play(s, r.success);
      naiveMid = naive.play(naiveMid, r.success);
    }
  }
  // The same search on both (no ordering, no table: the plain game has no orderMoves).
  const bare = { depth: 2, ordering: false, tt: false as const };
  row("alpha-beta midgame depth 2 (bare), bitboards", bestOf(runs, () => search(g, mid, bare)));
  row("alpha-beta midgame depth 2 (bare), plain", bestOf(1, () => search(naive, naiveMid, bare)));

  console.log("-- alpha-beta (generic core/search/alphabeta.ts, table 64 MB, ordering)");
  row("alpha-beta empty board depth 3", bestOf(runs, () => search(g, empty, { depth: 3 })));
  row("alpha-beta midgame depth 3", bestOf(runs, () => search(g, mid, { depth: 3 })));
  if (!quick) {
    row("alpha-beta empty board depth 4", bestOf(1, () => search(g, empty, { depth: 4 })));
    row("alpha-beta midgame depth 4", bestOf(1, () => search(g, mid, { depth: 4 })));
  }

  console.log("-- the Pentago engine (plugins/pentago/engine.ts) vs alpha-beta, same depth");
  const settings: [string, EngineSettings][] = [
    ["exact", { threats: false }],
    ["as played", {}],
  ];
  for (const [name, s] of [["empty board", empty], ["midgame", mid]] as const) {
    for (const depth of quick ? [3] : [3, 4, 5]) {
      if (depth <= 4) {
        row(
          `alpha-beta ${name} depth ${depth}`,
          bestOf(depth === 4 ? 1 : runs, () => search(g, s, { depth, distance: true })),
        );
      }
      for (const [label, st] of settings) {
        row(
          `engine (${label}) ${name} depth ${depth}`,
          bestOf(depth === 5 ? 1 : runs, () => engine(g, s, depth, st)),
        );
      }
    }
  }

  console.log("-- MCTS (generic core/search/mcts.ts; nodes = iterations = playouts)");
  const iters = quick ? 2000 : 10000;
  for (const [name, s] of [["empty board", empty], ["midgame", mid]] as const) {
    row(
      `MCTS ${name}, ${iters} iterations`,
      bestOf(runs, () => {
        const r = mctsSearch(g, s, { iterations: iters, rng: makeRng(1) });
        return {
          count: r.nodes,
          ms: r.timeMs,
          detail: `move ${g.formatMove(s, r.move!)}, value ${r.value.toFixed(0)}`,
        };
      }),
    );
  }

  console.log("-- seed 002's duplicate removal (--dedupe) and shuffling (--shuffle)");
  for (const ordering of [true, false]) {
    for (const [name, s, depth] of [["empty", empty, 3], ["midgame", mid, 3]] as const) {
      for (const o of [{}, { dedupe: true }, { shuffle: true }, { dedupe: true, shuffle: true }]) {
        const label = Object.keys(o).join("+") || "plain";
        row(
          `${name} depth ${depth}, ordering ${ordering ? "on " : "off"}, ${label}`,
          bestOf(2 * runs, () => search(game(o), s, { depth, ordering })),
        );
      }
    }
  }

  console.log("-- random-playout evaluation (--eval playouts --playouts 10)");
  row(
    "alpha-beta midgame depth 2, playouts eval",
    bestOf(1, () => search(game({ eval: "playouts", playouts: 10 }), mid, { depth: 2 })),
  );
  row("alpha-beta midgame depth 2, lines eval", bestOf(runs, () => search(g, mid, { depth: 2 })));

  if (jsonFile !== undefined) {
    await Deno.mkdir(jsonFile.replace(/\/[^/]*$/, "") || ".", { recursive: true }).catch(() => {});
    await Deno.writeTextFile(
      jsonFile,
      JSON.stringify({ suite: "pentago", quick, midgame: MIDGAME, rows }, null, 2) + "\n",
    );
    console.log(`written ${args[jsonAt + 1]}`);
  }
};
