/**
 * The Kalah suite: `deno task bench kalah [--quick] [--solves] [--no-parallel]
 * [--depth D] [--runs R] [--max-par P] [--solve P S [--capture always]]`.
 *
 * - depth-9 minimax and alpha-beta from the initial Kalah(6, 4), single thread: the
 *   generic strategies (`core/search`) and the specialised `seq_mm` / `seq_ab`, nodes
 *   and nodes per second (best of several runs: the machine is shared);
 * - the sowing shortcut: a move of Kalah(6, 1000000) against one of Kalah(6, 4);
 * - seed 004's parallel experiment (every mode, workers 1..cores, parDepth 1..9; a table,
 *   `out/seed004.json` and SVG charts `out/seed004_*.svg`), and the speed-up per worker
 *   count at the depth where one sequential alpha-beta search takes about a second;
 * - `--solves`: the exact solver on every board with P * S <= 12, under both rules;
 * - `--solve P S`: one bigger solve, with its database, time and memory.
 *
 * @module
 */
import type { Game } from "../core/game.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import type { SearchResult } from "../core/search/types.ts";
import { kalahGame, seqAbStrategy, seqMmStrategy } from "../plugins/kalah/mod.ts";
import type { KalahState } from "../plugins/kalah/rules.ts";
import { solveKalah, solverFor } from "../plugins/kalah/solve.ts";
import { defaultWorkers } from "../core/parallel/pool.ts";
import { userPath } from "../app/cli.ts";
import { runExperiment } from "./parallel_experiment.ts";
import type { SuiteFlags } from "./suite.ts";
import { bestOf, searchRow } from "./report.ts";

/** What the suite does. */
export const description =
  "Kalah: depth-9 minimax/alpha-beta nodes/s, the sowing shortcut, exact solves";

/** The suite's flags. */
export const flags: SuiteFlags = {
  boolean: ["quick", "solves", "no-parallel", "no-throughput"],
  value: ["depth", "runs", "max-par", "solve", "capture"],
  usage: "[--quick] [--no-throughput] [--no-parallel] [--depth D] [--runs R] [--max-par P]\n" +
    "  [--solves] [--solve PITS STONES [--capture always]]",
};

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

const best = bestOf;
const row = (name: string, r: SearchResult) => searchRow(name, r, 50, true);

/** Time per move over a fixed random game, repeated; microseconds. */
const moveTime = (game: Game<KalahState>, plies: number): number => {
  const rng = makeRng(7);
  const moves: number[] = [];
  const states: KalahState[] = [];
  let s = game.initial();
  while (moves.length < plies) {
    const ms = game.moves(s);
    if (ms.length === 0) s = game.initial();
    else {
      const m = ms[rng.int(ms.length)];
      states.push(s);
      moves.push(m);
      s = game.play(s, m);
    }
  }
  let bestUs = Infinity;
  for (let rep = 0; rep < 5; rep++) {
    const t = performance.now();
    for (let i = 0; i < plies; i++) game.play(states[i], moves[i]);
    bestUs = Math.min(bestUs, ((performance.now() - t) * 1000) / plies);
  }
  return bestUs;
};

const solveOne = (pits: number, stones: number, capture: "nonempty" | "always") => {
  const game = kalahGame({ pits, stones, capture, eval: "util" });
  const t0 = performance.now();
  // The game keeps this solver: the solve below reuses it (its database is timed apart).
  const setup = solverFor(game, 2 * pits * stones, 256);
  const dbMs = performance.now() - t0;
  const r = solveKalah(game, game.initial(), {});
  return { r, dbMs, setup, total: performance.now() - t0 };
};

/** The value of `--name N` (or the fallback). */
const numberArg = (args: readonly string[], name: string, fallback: number): number => {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
};

/**
 * Seed 004's experiment on Kalah(6, 4): every mode at depth 9 (or `--depth`), worker
 * counts 1..cores, parDepth 1..9 (`--max-par`), mean of `--runs` runs; then the depth
 * where one sequential alpha-beta takes about a second. Skipped with `--no-parallel`.
 */
const parallelExperiment = async (args: readonly string[], quick: boolean): Promise<void> => {
  if (args.includes("--no-parallel")) return;
  const cores = defaultWorkers();
  const maxPar = numberArg(args, "--max-par", quick ? 4 : 9);
  console.log(
    `\nseed 004's experiment (deno task bench kalah${quick ? " --quick" : ""}): progress on stderr`,
  );
  await runExperiment({
    game: "kalah",
    options: {},
    depth: numberArg(args, "--depth", 9),
    runs: numberArg(args, "--runs", quick ? 1 : 3),
    workers: Array.from({ length: cores }, (_, i) => i + 1),
    parDepths: Array.from({ length: maxPar }, (_, i) => i + 1),
    out: userPath("out"),
    second: !quick,
  });
};

/** Depth-9 nodes per second from the initial Kalah(6, 4), and the sowing shortcut. */
const throughput = (quick: boolean): void => {
  const classic = kalahGame({ pits: 6, stones: 4, capture: "nonempty", eval: "util" });
  const start = classic.initial();
  const runs = quick ? 2 : 5;
  console.log(
    `deno task bench kalah${quick ? " --quick" : ""}   (best of ${runs} runs, single thread)`,
  );
  console.log("Kalah(6, 4) from the initial position, depth 9:");
  row(
    "minimax (generic, core/search)",
    best(runs, () => minimaxSearch(classic, start, { depth: 9 })),
  );
  row(
    "seq_mm (specialised; same nodes, value, move)",
    best(runs, () => seqMmStrategy.search(classic, start, { depth: 9 })),
  );
  // One table, cleared (so its memory is already mapped) before each run.
  const tt = new TranspositionTable(16);
  row(
    "alphabeta (generic: table, ordering, deepening)",
    best(runs, () => {
      tt.clear();
      return alphabetaSearch(classic, start, { depth: 9, tt });
    }),
  );
  row(
    "alphabeta (generic: table, deepening, no ordering)",
    best(runs, () => {
      tt.clear();
      return alphabetaSearch(classic, start, { depth: 9, tt, ordering: false });
    }),
  );
  row(
    "alphabeta (generic, no table, no ordering)",
    best(runs, () => alphabetaSearch(classic, start, { depth: 9, tt: false, ordering: false })),
  );
  row(
    "seq_ab (specialised, seed 004's SeqAB)",
    best(runs, () => seqAbStrategy.search(classic, start, { depth: 9 })),
  );

  const big = kalahGame({ pits: 6, stones: 1_000_000, capture: "nonempty", eval: "util" });
  const small = moveTime(classic, 20_000), large = moveTime(big, 20_000);
  console.log(
    `sowing: Kalah(6, 4) ${small.toFixed(3)} us/move, Kalah(6, 1000000) ${
      large.toFixed(3)
    } us/move ` +
      `(ratio ${(large / small).toFixed(2)})`,
  );
};

/** Runs the suite. */
export const run = (args: readonly string[]): Promise<void> => {
  const quick = args.includes("--quick");
  const solveAt = args.indexOf("--solve");
  if (solveAt >= 0) {
    const pits = Number(args[solveAt + 1]), stones = Number(args[solveAt + 2]);
    const capture = args.includes("always") ? "always" : "nonempty";
    if (!(pits >= 1 && stones >= 0)) {
      console.error("usage: deno task bench kalah --solve PITS STONES [--capture always]");
      return Promise.resolve();
    }
    console.log(`deno task bench kalah --solve ${pits} ${stones} --capture ${capture}`);
    const { r, dbMs, setup, total } = solveOne(pits, stones, capture);
    const mem = Deno.memoryUsage();
    console.log(
      `Kalah(${pits}, ${stones}) capture ${capture}: value ${r.value}, move ${r.move! + 1}, ` +
        `${r.nodes} nodes; database ${setup.dbSource} (${setup.db?.maxStones ?? 0} stones, ` +
        `${mb(setup.db?.values.length ?? 0)}, ${(dbMs / 1000).toFixed(1)} s); search ` +
        `${(r.timeMs / 1000).toFixed(1)} s; total ${(total / 1000).toFixed(1)} s; ` +
        `table ${mb(setup.solver.tableBytes)}; rss ${mb(mem.rss)}`,
    );
    console.log(`principal variation: ${r.pv.map((m) => m + 1).join(" ")}`);
    return Promise.resolve();
  }

  if (!args.includes("--no-throughput")) throughput(quick);
  if (!args.includes("--solves")) return parallelExperiment(args, quick);
  console.log("exact solves, every board with P * S <= 12 (value for south, first move):");
  for (const capture of ["nonempty", "always"] as const) {
    let totalMs = 0, worst = { ms: 0, name: "" };
    const cells: string[] = [];
    for (let p = 1; p <= 12; p++) {
      for (let s = 1; p * s <= 12; s++) {
        if (quick && p * s > 10) continue;
        const { r, total } = solveOne(p, s, capture);
        totalMs += total;
        if (total > worst.ms) worst = { ms: total, name: `Kalah(${p}, ${s})` };
        cells.push(`(${p},${s}) ${r.value > 0 ? "+" : ""}${r.value}`);
      }
    }
    console.log(`  capture ${capture}: ${cells.join("  ")}`);
    console.log(
      `  ${cells.length} boards in ${(totalMs / 1000).toFixed(1)} s; slowest ${worst.name} ` +
        `${(worst.ms / 1000).toFixed(1)} s`,
    );
  }
  return Promise.resolve();
};
