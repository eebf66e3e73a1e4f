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
 * Times are single runs on a shared machine: noisy.
 *
 * @module
 */
import { gameTree, size } from "../core/tree.ts";
import { countAlphaBetaTree, countGameTree } from "../plugins/domineering/count.ts";
import { type Board, board, gametree, legalMoves, moveLegal } from "../plugins/domineering/lab.ts";
import { domineeringGame, type DomState, geometry } from "../plugins/domineering/board.ts";
import { createSolver } from "../plugins/domineering/solver.ts";
import type { SuiteFlags } from "./suites.ts";

/** What the suite does. */
export const description =
  "Domineering: seed 003's 4x4/5x5 node counts, bitboards vs the lab, the solver on rectangles";

/** The suite's flags. */
export const flags: SuiteFlags = {
  boolean: ["quick"],
  value: ["rects", "squares"],
  usage: "[--quick] [--rects N] [--squares N]",
};

const timed = <A>(f: () => A): { value: A; ms: number } => {
  const t = performance.now();
  const value = f();
  return { value, ms: performance.now() - t };
};

const fmt = (n: number) => n.toLocaleString("en-US");

const flag = (args: readonly string[], name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(args[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 30) {
    throw new RangeError(`--${name} takes an integer from 1 to 30, got '${args[i + 1]}'`);
  }
  return n;
};

/** Runs the suite. */
export const run = (args: readonly string[]): Promise<void> => {
  const quick = args.includes("--quick");
  const rects = flag(args, "rects", quick ? 5 : 6);
  const squares = flag(args, "squares", quick ? 6 : 7);
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
