/**
 * 2048 with the lab's strategy beside the product's: load it as a plugin by its path
 * (`deno task play lab/game2048/plugin.ts --p1 expectimax_lab:5,letgo=0.3`) to play the
 * experiments' arms with any program.
 *
 * @module
 */
import { definePlugin } from "../../core/plugin.ts";
import game2048 from "../../plugins/game2048/mod.ts";
import { expectimaxLab } from "./strategy.ts";

/** The 2048 plugin with `expectimax_lab` (id `2048-lab`). */
export default definePlugin({
  ...game2048,
  id: "2048-lab",
  name: "2048 (lab)",
  strategies: { ...game2048.strategies, expectimax_lab: expectimaxLab },
});
