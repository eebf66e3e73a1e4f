/** The lab's 2048 strategy: the product's parameters and the experiments' arms, in a spec. */
import { assert, assertEquals } from "../../testing/deps.ts";
import { Result } from "../../core/deps.ts";
import { parseSpec } from "../../app/players/spec.ts";
import game2048 from "../../plugins/game2048/mod.ts";
import labPlugin from "./plugin.ts";

Deno.test("expectimax_lab: the product's parameters and every arm; the product's spec refuses the arms", () => {
  const lab = labPlugin.strategies!.expectimax_lab;
  assertEquals(Object.keys(lab.params ?? {}).sort(), [
    "crowd",
    "cutoff",
    "downgrade",
    "endgame",
    "gaps",
    "letgo",
    "rescue",
    "slides",
    "tables",
    "through",
  ]);
  const spec = "5,endgame=10,gaps=1,through=1,letgo=0.3";
  assert(Result.isSuccess(parseSpec(`expectimax_lab:${spec}`, labPlugin.strategies!)));
  const product = parseSpec(`expectimax:${spec}`, game2048.strategies!);
  assert(Result.isFailure(product) && product.failure.includes("gaps"), String(product));
});
