/**
 * `deno task analyze`'s entry: it starts the game's thread and a search worker
 * (`prestartGame`), then loads and runs the program (`../analyze.ts`), so that both start
 * while the program's modules load. `deno run ... scripts/analyze.ts` runs the same program, only
 * without that head start.
 *
 * @module
 */
import { prestartGame } from "../../app/prestart.ts";

prestartGame(Deno.args, { search: true });
const { start } = await import("../analyze.ts");
start();
