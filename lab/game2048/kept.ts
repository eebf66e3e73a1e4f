/**
 * What a table kept from one game to the next saves (`EndgameSolver.keepTables`, the
 * search's `,tables=GB`): the last phase of two games of the `gaps=1,through=1` run (its
 * positions 3 and 4, seeds 2 and 3: 16384 8192 4096 2048 1024 512, a 512 to make in ten
 * cells), the second solved alone and then after the first through one solver, a position
 * without a chain between them (another game's opening: the phase ends).
 *
 * ```sh
 * deno run --allow-read --allow-import lab/game2048/kept.ts
 * ```
 *
 * Each solve prints its probability, the positions it stored, its nodes and milliseconds.
 *
 * @module
 */
import { packCells } from "../../plugins/game2048/board.ts";
import { EndgameSolver } from "../../plugins/game2048/endgame.ts";

/** One solve of `keptSolves`. */
export interface KeptSolve {
  /** The solver's probability for the position (`undefined`: not taken). */
  readonly probability?: number;
  /** Positions the solve stored. */
  readonly stored: number;
  /** Nodes it visited. */
  readonly nodes: number;
  /** Its milliseconds. */
  readonly ms: number;
}

/** A position where no chain fits: solved between two games, it ends the phase. */
const OPENING = [2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/**
 * Solves the boards (tile values in reading order) in turn through one solver, regions of
 * up to `region` cells, a phase each (the opening between them).
 */
export const keptSolves = (boards: readonly (readonly number[])[], region: number): KeptSolve[] => {
  const solver = new EndgameSolver();
  return boards.map((cells, i) => {
    if (i > 0) solver.solve(...packCells(OPENING)!, region);
    const [stored, nodes, t] = [solver.stored, solver.nodes, performance.now()];
    const answer = solver.solve(...packCells(cells)!, region);
    return {
      ...(answer === undefined ? {} : { probability: answer.probability }),
      stored: solver.stored - stored,
      nodes: solver.nodes - nodes,
      ms: performance.now() - t,
    };
  });
};

/** The last phase's first board in the run's position 3 (seed 2). */
export const LAST_PHASE_3 = [16384, 8192, 4096, 2048, 0, 0, 512, 1024, 16, 2, 16, 4, 4, 4, 4, 2];

/** The last phase's first board in the run's position 4 (seed 3). */
export const LAST_PHASE_4 = [16384, 8192, 4096, 2048, 0, 0, 512, 1024, 2, 8, 4, 2, 2, 4, 4, 2];

if (import.meta.main) {
  const show = (what: string, s: KeptSolve) =>
    console.log(
      `${what}: ${s.probability?.toFixed(4)}, ${s.stored.toLocaleString("en-US")} positions ` +
        `stored, ${s.nodes.toLocaleString("en-US")} nodes, ${Math.round(s.ms)} ms`,
    );
  show("position 4 alone", keptSolves([LAST_PHASE_4], 10)[0]);
  const [first, second] = keptSolves([LAST_PHASE_3, LAST_PHASE_4], 10);
  show("position 3", first);
  show("position 4 after it", second);
}
