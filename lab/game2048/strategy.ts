/**
 * The 2048 expectimax with every arm of the endgame experiments in its spec: the product's
 * `expectimax` (`plugins/game2048/expectimax.ts`) takes the depth, `slides`, `cutoff` and
 * `endgame`; this one also takes the settings the lab measured (`lab/game2048/FIGURES.md`),
 * which the product's search reads from `SearchOptions.params`.
 *
 * ```sh
 * deno task play lab/game2048/plugin.ts --eval ntuple \
 *   --p1 expectimax_lab:100ms,endgame=10,gaps=1,through=1,letgo=0.3
 * ```
 *
 * @module
 */
import type { SequentialStrategy } from "../../core/search/types.ts";
import { DEFAULT_DOWNGRADE, expectimax2048, MAX_PLIES } from "../../plugins/game2048/expectimax.ts";

/** `expectimax_lab`: the product's 2048 expectimax, with the experiments' arms as parameters. */
export const expectimaxLab: SequentialStrategy = {
  ...expectimax2048,
  name: "expectimax_lab",
  description: "the 2048 expectimax with the endgame experiments' arms (,downgrade=T " +
    ",gaps=G ,through=1 ,rescue=D,crowd=E ,letgo=P ,tables=GB; see lab/game2048/FIGURES.md)",
  params: {
    ...expectimax2048.params,
    downgrade: {
      min: 0,
      max: 65536,
      integer: true,
      description: "with a network: leaves whose largest tile is at least this are valued " +
        `downgraded (tile-downgrading; default ${DEFAULT_DOWNGRADE}, 0 never)`,
    },
    gaps: {
      min: 0,
      max: 2,
      integer: true,
      description: "4x4: where no chain of large tiles fits the endgame solver, chains that " +
        "skip up to this many ranks (16384 8192 4096 2048, then 512 256 ...) are held too, " +
        "behind a 16384 or more (default 0: never)",
    },
    through: {
      min: 0,
      max: 1,
      integer: true,
      description: "4x4, with gaps: a chain whose gap is just before its tail (16384 ... 1024 " +
        "256) is solved through the whole chain's goal, its own goal valued by the chance of " +
        "the next, and a goal on the board is merged into the tail in place (default 0)",
    },
    rescue: {
      min: 0,
      max: MAX_PLIES,
      integer: true,
      description: "with a fixed depth: plies searched instead on a board with at most ,crowd " +
        "empty cells where the endgame solver gives no slide (default 0: never)",
    },
    crowd: {
      min: 0,
      max: 16,
      integer: true,
      description: "the most empty cells of a board searched ,rescue plies deep (default 0)",
    },
    letgo: {
      min: 0,
      max: 1,
      description: "4x4: the endgame solver's slide is played only where its chance is above " +
        "this; below, the search chooses (with ,rescue: its depth) (default 0)",
    },
    tables: {
      min: 0,
      max: 1024,
      description: "4x4: gigabytes the endgame solver's tables may take, shared by the " +
        "thread's searches, so that a game's chains stay solved for the next games (default " +
        "0: one chain's budget, up to 6 GB)",
    },
  },
};
