/**
 * `deno task play`'s entry: it starts the thread of the menu's first game, or the game named (`prestartGame`), then
 * loads and runs the program (`../play.ts`), so that the thread starts while the
 * program's modules load. `deno run ... scripts/play.ts` runs the same program, only
 * without that head start.
 *
 * @module
 */
import { prestartGame } from "../../app/prestart.ts";
import { builtinIds } from "../../plugins/registry.ts";

prestartGame(Deno.args, { fallback: builtinIds[0] });
const { start } = await import("../play.ts");
start();
