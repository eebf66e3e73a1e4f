/**
 * The Domineering suite: `deno task bench domineering [--rects N] [--squares N] [--quick]`.
 *
 * - seed 003's node counts: the full game tree and the left-to-right alpha-beta tree of
 *   4x4 and 5x5 (65081 / 1362 and 2103584601 / 3634155), counted on bitboards;
 * - the bitboard protocol game against seed 003's plain lab representation: the full
 *   4x4 game tree walked by each (nodes per second);
 * - the solver on every rectangle up to N x N (default 6; both first players), then on
 *   the squares up to `--squares` (default 7; 8 takes minutes), H moving first.
 *
 * Modes that replace the default run:
 * - `--solve WxH [--first V] [--off NAME,...]`: one solve from the empty board (nodes, time,
 *   the move), with the named solver switches (`SolverOptions`) turned off: the README's
 *   measurements of each technique;
 * - `--table [--max-cells N]`: every published outcome class (`solver_outcomes.ts`) whose
 *   board has at most N cells (default 64: up to 8x8), both first players, against the
 *   solver;
 * - `--attempt WxH --budget 2h --state FILE [--workers N] [--split D] [--max-searches N]`:
 *   a long solve, proved move by move down to the positions D moves deep (default 2),
 *   which the engine's workers solve whole (N at once, default the cores;
 *   `domineering_attempt.ts`); every settled position is checkpointed to FILE (JSON) and
 *   the run stops at the budget, after N searches or at Ctrl-C; run it again to resume
 *   (settled positions are not searched again) until it prints the verdict.
 *
 * Times are single runs on a shared machine: noisy.
 *
 * @module
 */
import { gameTree, size } from "../core/tree.ts";
import { countAlphaBetaTree, countGameTree } from "../plugins/domineering/count.ts";
import {
  type Board,
  board,
  gametree,
  legalMoves,
  moveLegal,
} from "../plugins/domineering/seed003.ts";
import { domineeringGame, type DomState, geometry } from "../plugins/domineering/board.ts";
import { createSolver, type SolverOptions } from "../plugins/domineering/solver.ts";
import { outcomeOf, PUBLISHED } from "../plugins/domineering/solver_outcomes.ts";
import type { SuiteFlags } from "./suite.ts";
import { runAttempt } from "./domineering_attempt.ts";
import { defaultWorkers } from "../core/parallel/pool.ts";
import { userPath } from "../app/cli.ts";

/** What the suite does. */
export const description =
  "Domineering: 4x4/5x5 game-tree node counts, bitboards vs the plain board, solving rectangles";

/** The suite's flags. */
export const flags: SuiteFlags = {
  boolean: ["quick", "table"],
  value: [
    "rects",
    "squares",
    "solve",
    "first",
    "max-cells",
    "attempt",
    "budget",
    "state",
    "tt-bits",
    "off",
    "workers",
    "split",
    "max-searches",
  ],
  usage: "[--quick] [--rects N] [--squares N] | --solve WxH [--first V] [--off NAME,...] | " +
    "--table [--max-cells N] | " +
    "--attempt WxH --budget 2h --state FILE [--tt-bits N] [--workers N] [--split D] " +
    "[--max-searches N]",
};

const timed = <A>(f: () => A): { value: A; ms: number } => {
  const t = performance.now();
  const value = f();
  return { value, ms: performance.now() - t };
};

const fmt = (n: number) => n.toLocaleString("en-US");

/** A whole number from `min` (and at most `max`), or the error naming the option and its range. */
const wholeOption = (
  args: readonly string[],
  name: string,
  fallback: number,
  min: number,
  max = Infinity,
): number => {
  const text = value(args, name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!(Number.isInteger(n) && n >= min && n <= max)) {
    throw new RangeError(
      `--${name} takes a whole number from ${min}${
        max === Infinity ? "" : ` to ${max}`
      }, got '${text}'`,
    );
  }
  return n;
};

const value = (args: readonly string[], name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};

const dims = (text: string): { w: number; h: number } => {
  const m = /^(\d+)x(\d+)$/.exec(text);
  const w = Number(m?.[1]), h = Number(m?.[2]);
  if (!m || w < 1 || h < 1 || w > 30 || h > 30) throw new RangeError(`expected WxH, got '${text}'`);
  return { w, h };
};

const full = (w: number, h: number) => Array.from({ length: h }, () => (1 << w) - 1);

const ttBits = (args: readonly string[]): number => wholeOption(args, "tt-bits", 23, 16, 28);

/** The solver's switches that `--off` may name. */
const SWITCHES = [
  "symmetry",
  "vulnerableBounds",
  "skipSafeMoves",
  "oneWallAreas",
  "vulnerableProtected",
  "safeShift",
  "areaTempo",
  "protectedLast",
  "safeOptions",
  "spareTempo",
  "ordering",
  "positional",
] as const;

/** `--off a,b`: those switches turned off. */
const switchesOff = (args: readonly string[]): SolverOptions => {
  const text = value(args, "off");
  if (text === undefined) return {};
  const out: Record<string, boolean> = {};
  for (const name of text.split(",").filter((n) => n !== "")) {
    if (!(SWITCHES as readonly string[]).includes(name)) {
      throw new RangeError(
        `--off: no solver switch '${name}'; the switches: ${SWITCHES.join(", ")}`,
      );
    }
    out[name] = false;
  }
  return out;
};

/** `--solve WxH`: one solve, nodes and time. */
const solveOne = (args: readonly string[]): void => {
  const { w, h } = dims(value(args, "solve")!);
  const mover = value(args, "first") === "V" ? "V" : "H";
  const off = switchesOff(args);
  const r = createSolver({ ttBits: ttBits(args), ...off }).solve({
    width: w,
    height: h,
    rows: full(w, h),
    mover,
  });
  console.log(
    `${w}x${h}, ${mover} first${
      Object.keys(off).length > 0 ? ` (off: ${Object.keys(off).join(", ")})` : ""
    }: ${r.moverWins ? "the first player" : "the second player"} wins; ` +
      `move ${r.move}; ${fmt(r.nodes)} nodes, ${(r.timeMs / 1000).toFixed(2)} s ` +
      `(${fmt(Math.round(r.nodes / Math.max(r.timeMs, 0.001) * 1000))} nodes/s)`,
  );
};

/** `--table`: the published outcome classes against the solver. */
const table = (args: readonly string[]): void => {
  const maxCells = Number(value(args, "max-cells") ?? 64);
  const solver = createSolver({ ttBits: ttBits(args) });
  let bad = 0, totalMs = 0, totalNodes = 0;
  for (const p of PUBLISHED) {
    if (p.width * p.height > maxCells) continue;
    const one = (mover: "H" | "V") => {
      solver.clear();
      return solver.solve({
        width: p.width,
        height: p.height,
        rows: full(p.width, p.height),
        mover,
      });
    };
    const a = one("H"), b = one("V");
    const got = outcomeOf(a.moverWins, b.moverWins);
    if (got !== p.outcome) bad++;
    totalMs += a.timeMs + b.timeMs;
    totalNodes += a.nodes + b.nodes;
    console.log(
      `  ${`${p.width}x${p.height}`.padEnd(6)} published ${p.outcome.padEnd(3)} (${p.source}); ` +
        `solver ${got.padEnd(3)} ${got === p.outcome ? "ok" : "MISMATCH"}; ` +
        `${fmt(a.nodes + b.nodes)} nodes, ${((a.timeMs + b.timeMs) / 1000).toFixed(2)} s`,
    );
  }
  console.log(
    `  ${bad === 0 ? "all agree" : `${bad} MISMATCHES`}; ${fmt(totalNodes)} nodes, ` +
      `${(totalMs / 1000).toFixed(1)} s in all`,
  );
  if (bad > 0) throw new Error("the solver disagrees with the published table");
};

const durationMs = (text: string): number => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!m) throw new RangeError(`expected a duration like 90s, 30m, 2h; got '${text}'`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as "ms" | "s" | "m" | "h"];
};

/**
 * `--attempt WxH --budget T --state FILE [--workers N] [--split D] [--max-searches N]`
 * (`domineering_attempt.ts`).
 */
const attempt = (args: readonly string[]): Promise<void> => {
  const board = value(args, "attempt")!;
  const { w, h } = dims(board);
  const mover = value(args, "first") === "V" ? "V" : "H";
  const split = wholeOption(args, "split", 2, 2, 8);
  if (split % 2 !== 0) throw new RangeError(`--split takes 2, 4, 6 or 8, got '${split}'`);
  return runAttempt({
    width: w,
    height: h,
    mover,
    budgetMs: durationMs(value(args, "budget") ?? "1h"),
    file: userPath(value(args, "state") ?? `domineering_${board}_${mover}.json`),
    bits: ttBits(args),
    workers: wholeOption(args, "workers", defaultWorkers(), 1),
    split,
    maxSearches: wholeOption(args, "max-searches", Infinity, 1),
  });
};

/** Runs the suite. */
export const run = (args: readonly string[]): Promise<void> => {
  if (value(args, "solve") !== undefined) return Promise.resolve(solveOne(args));
  if (args.includes("--table")) return Promise.resolve(table(args));
  if (value(args, "attempt") !== undefined) return attempt(args);
  const quick = args.includes("--quick");
  const rects = wholeOption(args, "rects", quick ? 5 : 6, 1, 30);
  const squares = wholeOption(args, "squares", quick ? 6 : 7, 1, 30);
  console.log(`deno task bench domineering ${args.join(" ")}`.trimEnd());

  console.log("\nSeed 003's node counts (bitboards; the full tree by memoized subtree sizes):");
  for (const n of quick ? [4] : [4, 5]) {
    const full = timed(() => countGameTree(board(n, n)));
    const ab = timed(() => countAlphaBetaTree(board(n, n)));
    console.log(
      `  ${n}x${n}: full game tree ${fmt(full.value)} nodes (${full.ms.toFixed(0)} ms), ` +
        `alpha-beta tree ${fmt(ab.value)} nodes (${ab.ms.toFixed(0)} ms)`,
    );
  }

  console.log(
    "\nThe full 4x4 game tree walked node by node (seed 003's lab vs the bitboard game):",
  );
  const lab = timed(() => size(gametree(board(4, 4))));
  const g = domineeringGame(geometry(board(4, 4).free, "H"));
  const bits = timed(() => size(gameTree(g, g.initial())));
  const walkLab = (b: Board): number => {
    let n = 1;
    for (const c of legalMoves(b.turn, b)) n += walkLab(moveLegal(b, c));
    return n;
  };
  const walkBits = (s: DomState): number => {
    let n = 1;
    for (const m of g.moves(s)) n += walkBits(g.play(s, m));
    return n;
  };
  const labPlain = timed(() => walkLab(board(4, 4)));
  const bitsPlain = timed(() => walkBits(g.initial()));
  for (
    const [name, r] of [
      ["lab, lazy tree", lab],
      ["bitboards, lazy tree", bits],
      ["lab, recursion", labPlain],
      ["bitboards, recursion", bitsPlain],
    ] as const
  ) {
    console.log(
      `  ${name.padEnd(22)} ${fmt(r.value)} nodes in ${r.ms.toFixed(0)} ms ` +
        `(${fmt(Math.round(r.value / r.ms * 1000))} nodes/s)`,
    );
  }

  const solver = createSolver({ ttBits: 23 });
  const solve = (w: number, h: number, mover: "H" | "V") => {
    solver.clear();
    const rows = Array.from({ length: h }, () => (1 << w) - 1);
    return solver.solve({ width: w, height: h, rows, mover });
  };
  console.log(
    `\nThe solver on every rectangle up to ${rects}x${rects} (W x H; H first, then V first):`,
  );
  let totalMs = 0, worst = { ms: 0, name: "" };
  for (let w = 1; w <= rects; w++) {
    const cells: string[] = [];
    for (let h = 1; h <= rects; h++) {
      const a = solve(w, h, "H"), b = solve(w, h, "V");
      const cls = a.moverWins && b.moverWins
        ? "1st"
        : !a.moverWins && !b.moverWins
        ? "2nd"
        : a.moverWins
        ? "H"
        : "V";
      const ms = a.timeMs + b.timeMs;
      totalMs += ms;
      if (ms > worst.ms) worst = { ms, name: `${w}x${h}` };
      cells.push(`${w}x${h} ${cls.padEnd(3)} ${fmt(a.nodes + b.nodes).padStart(9)}n`);
    }
    console.log(`  ${cells.join(" | ")}`);
  }
  console.log(
    `  (1st/2nd: the first/second player wins; H/V: that player wins whoever starts)\n` +
      `  all ${rects * rects * 2} solves: ${
        (totalMs / 1000).toFixed(2)
      } s; slowest ${worst.name} ` +
      `${(worst.ms / 1000).toFixed(2)} s`,
  );

  console.log(`\nSquares, H first, up to ${squares}x${squares}:`);
  for (let n = 2; n <= squares; n++) {
    const r = solve(n, n, "H");
    console.log(
      `  ${n}x${n}: ${r.moverWins ? "first" : "second"} player wins; ` +
        `${fmt(r.nodes)} nodes, ${(r.timeMs / 1000).toFixed(2)} s ` +
        `(${fmt(Math.round(r.nodes / Math.max(r.timeMs, 0.001) * 1000))} nodes/s)`,
    );
  }
  return Promise.resolve();
};
