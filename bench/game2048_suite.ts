/**
 * The 2048 suite (`deno task bench 2048`): the speed of the fast engine against the plain
 * representation.
 *
 * - Slides per second: every direction on a fixed set of boards, with the compact 4x4
 *   board (row tables) and with the plain array of the protocol (`rules.ts` `slideCells`).
 * - Expectimax nodes per second: the fast expectimax at a fixed depth on positions of a
 *   seeded game, on the compact board and on the general path (per-ply buffers).
 * - The n-tuple network (`--eval ntuple`): evaluations per second, and the fast
 *   expectimax with the network at its leaves (depth at most 5; `--weights FILE` for a
 *   trained network, else a 5x4 network of fixed pseudo-random weights).
 * - The protocol's generic expectimax (the core's engine over `play`) on the same
 *   positions, as the baseline any plugin gets for free.
 * - The exact endgame solver (`endgame.ts`) on macroxue's snake for a new 128: positions
 *   stored and nodes visited per second.
 *
 * @module
 */
import { CHANCE, pickChance } from "../core/game.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { packCells, slideBoard } from "../plugins/game2048/board.ts";
import { fastExpectimax, type Representation } from "../plugins/game2048/expectimax.ts";
import { createGame, slideCells, type State2048 } from "../plugins/game2048/rules.ts";
import { createNetwork, evaluate, SHAPES, withNetwork } from "../plugins/game2048/ntuple.ts";
import { EndgameSolver } from "../plugins/game2048/endgame.ts";
import { loadWeights } from "../plugins/game2048/weights.ts";
import type { SuiteFlags } from "./suite.ts";
import { userPath } from "../app/cli.ts";

/** What the suite does. */
export const description = "2048: slides/s and expectimax nodes/s, compact board vs plain";

/** The suite's flags. */
export const flags: SuiteFlags = {
  value: ["depth", "weights"],
  usage: "[--depth D] [--weights FILE]",
};

/** Slider positions from a seeded game played by the fast expectimax at depth 3. */
export const samplePositions = (count: number, seed = 2048): State2048[] => {
  const game = createGame(4, 4, "monotone");
  const rng = makeRng(seed);
  const out: State2048[] = [];
  let s = game.initial();
  let ply = 0;
  while (out.length < count) {
    if (game.toMove(s) === CHANCE) {
      s = game.play(s, pickChance(game.chances(s), rng.next()));
      continue;
    }
    if (game.moves(s).length === 0) s = game.initial();
    else {
      if (++ply % 37 === 0) out.push(s);
      s = game.play(s, fastExpectimax(game, s, { depth: 3 }).move!);
    }
  }
  return out;
};

const bestOf = (runs: number, f: () => number): number => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, f());
  return best;
};

const line = (name: string, count: number, unit: string, ms: number) =>
  console.log(
    `${name.padEnd(52)} ${(count / ms / 1000).toFixed(2).padStart(8)} M ${unit}/s  ` +
      `(${count.toLocaleString("en-US")} in ${ms.toFixed(1)} ms)`,
  );

/** Runs the suite; `--depth D` sets the expectimax depth (default 7). */
export const run = (args: readonly string[]): Promise<void> => {
  const at = args.indexOf("--depth");
  const depth = at >= 0 ? Number(args[at + 1]) : 7;
  const positions = samplePositions(40);
  console.log(
    `deno task bench 2048${at >= 0 ? ` --depth ${depth}` : ""}   ` +
      `(best of 5 runs, single thread; ${positions.length} positions of a seeded game)`,
  );

  // Slides: 4 directions x positions x repeats.
  const reps = 2000;
  const compact = positions.map((s) => packCells(s)!);
  const out = new Int32Array(2);
  let sink = 0;
  const compactMs = bestOf(5, () => {
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) {
      for (const [lo, hi] of compact) {
        for (let d = 0; d < 4; d++) {
          slideBoard(lo, hi, d, out);
          sink = (sink + (out[0] ^ out[1])) | 0;
        }
      }
    }
    return performance.now() - t0;
  });
  const slides = reps * compact.length * 4;
  line("slides, compact 4x4 board (row tables)", slides, "slides", compactMs);
  const plainReps = reps / 10;
  const plainMs = bestOf(5, () => {
    const t0 = performance.now();
    for (let r = 0; r < plainReps; r++) {
      for (const s of positions) {
        for (let d = 0; d < 4; d++) {
          const dst = s.slice(0, 16);
          sink ^= slideCells(s, dst, 4, 4, d);
        }
      }
    }
    return performance.now() - t0;
  });
  line(
    "slides, plain array (protocol's play path)",
    plainReps * positions.length * 4,
    "slides",
    plainMs,
  );

  const game = createGame(4, 4, "monotone");
  const search = (representation: Representation) => {
    let nodes = 0;
    const ms = bestOf(5, () => {
      nodes = 0;
      const t0 = performance.now();
      for (const s of positions) nodes += fastExpectimax(game, s, { depth }, representation).nodes;
      return performance.now() - t0;
    });
    return { nodes, ms };
  };
  const c = search("auto");
  line(`fast expectimax depth ${depth}, compact board`, c.nodes, "nodes", c.ms);
  console.log(`${"".padEnd(52)} ${(c.ms / positions.length).toFixed(2).padStart(8)} ms per move`);
  const g = search("general");
  line(`fast expectimax depth ${depth}, general path`, g.nodes, "nodes", g.ms);
  console.log(`${"".padEnd(52)} ${(g.ms / positions.length).toFixed(2).padStart(8)} ms per move`);

  // The n-tuple network at the leaves: a trained one (--weights FILE) or a 5x4 network of
  // fixed pseudo-random weights (the speed hardly depends on the values).
  const wAt = args.indexOf("--weights");
  const net = wAt >= 0
    ? loadWeights(userPath(args[wAt + 1]), false, args[wAt + 1]).net
    : createNetwork(SHAPES["5x4"]);
  if (wAt < 0) {
    for (let i = 0; i < net.weights.length; i++) {
      net.weights[i] = (Math.imul(i + 1, 2654435761) >>> 16) / 64;
    }
  }
  const netGame = withNetwork(createGame(4, 4, "monotone"), net);
  let evals = 0;
  const evalMs = bestOf(5, () => {
    const t0 = performance.now();
    for (let r = 0; r < 2000; r++) {
      for (const [lo, hi] of compact) sink = (sink + evaluate(net, lo, hi)) | 0;
    }
    evals = 2000 * compact.length;
    return performance.now() - t0;
  });
  line(`n-tuple evaluations (${net.shape.name} network)`, evals, "evals", evalMs);
  const nd = Math.min(depth, 5);
  let netNodes = 0;
  const netMs = bestOf(3, () => {
    netNodes = 0;
    const t0 = performance.now();
    for (const s of positions) netNodes += fastExpectimax(netGame, s, { depth: nd }).nodes;
    return performance.now() - t0;
  });
  line(`fast expectimax depth ${nd}, ${net.shape.name} network leaves`, netNodes, "nodes", netMs);
  console.log(`${"".padEnd(52)} ${(netMs / positions.length).toFixed(2).padStart(8)} ms per move`);

  // The core's generic expectimax over the protocol (same cut-off, no table), and the fast
  // one at its depth, for the ratio.
  const few = positions.slice(0, 5);
  const shallow = Math.min(depth, 5);
  let genericNodes = 0;
  const genericMs = bestOf(2, () => {
    genericNodes = 0;
    const t0 = performance.now();
    for (const s of few) {
      genericNodes += alphabetaSearch(
        game,
        s,
        { depth: shallow, tt: false, minProbability: 1e-4 },
        "expect",
      ).nodes;
    }
    return performance.now() - t0;
  });
  line(`core expectimax depth ${shallow} over the protocol`, genericNodes, "nodes", genericMs);
  console.log(`${"".padEnd(52)} ${(genericMs / few.length).toFixed(2).padStart(8)} ms per move`);
  let fastNodes = 0;
  const fastMs = bestOf(5, () => {
    fastNodes = 0;
    const t0 = performance.now();
    for (let r = 0; r < 20; r++) {
      for (const s of few) fastNodes += fastExpectimax(game, s, { depth: shallow }).nodes;
    }
    return performance.now() - t0;
  });
  line(`fast expectimax depth ${shallow}, same positions (x20)`, fastNodes, "nodes", fastMs);
  console.log(
    `${"".padEnd(52)} ${(fastMs / few.length / 20).toFixed(2).padStart(8)} ms per move`,
  );

  // The endgame solver, a whole solve each run (a new solver, an empty table).
  const [snakeLo, snakeHi] = packCells([
    ...[2048, 4096, 8192, 16384, 1024, 512, 256, 128],
    ...[2, 2, 2, 4, 0, 0, 2, 2],
  ])!;
  let solver = new EndgameSolver();
  const solveMs = bestOf(3, () => {
    solver = new EndgameSolver();
    const t0 = performance.now();
    sink ^= solver.solve(snakeLo, snakeHi, 8)!.move;
    return performance.now() - t0;
  });
  line("endgame solve, macroxue's snake for a new 128", solver.stored, "positions", solveMs);
  line("", solver.nodes, "nodes", solveMs);
  if (sink === 0.5) console.log(sink); // keeps the slides from being optimized away
  return Promise.resolve();
};
