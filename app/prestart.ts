/**
 * What a quick program's entry does before it loads the program, and Effect with it
 * (`scripts/start/`): it starts the thread of the game its command line names, so that
 * the thread starts, and loads the plugin's module, while the program's modules load
 * (`prestartPluginThread`). Nothing here loads Effect.
 *
 * @module
 */
import { prestartPluginThread, prestartWebThread } from "../core/host/thread.ts";
import { SEARCH_PLUGIN_THREAD, SEARCH_WEB_WORKER } from "../core/parallel/entries.ts";
import { RULES_MODULE } from "../core/host/entry.ts";
import { isBuiltinUrl, looksLikeModule } from "../core/source.ts";
import { builtins, gameUrl } from "../plugins/registry.ts";
import { limitsFromArgs } from "./limits.ts";

/** What a program's entry starts early beside the game's thread. */
export interface PrestartOptions {
  /** The game to start when there are no arguments (play's menu opens its first at once). */
  readonly fallback?: string;
  /** True when the program searches at once (`analyze`): a search worker starts too. */
  readonly search?: boolean;
}

/**
 * Starts the thread of the game that `args` name first (`deno task play kalah ...`), or
 * of the `fallback` when there are no arguments, and with `search` a search worker for
 * it. Arguments that start with a flag, name no game, or give wrong limits start nothing:
 * the program then opens its game, or says what is wrong, as it always does. A thread the
 * program does not take ends with it.
 */
export const prestartGame = (args: readonly string[], options: PrestartOptions = {}): void => {
  const first = args[0];
  const game = first === undefined ? options.fallback : first.startsWith("-") ? undefined : first;
  if (game === undefined || !(Object.hasOwn(builtins, game) || looksLikeModule(game))) return;
  const limits = limitsFromArgs(args);
  if (typeof limits === "string") return;
  const url = gameUrl(game);
  const trusted = isBuiltinUrl(url);
  prestartPluginThread(RULES_MODULE, { plugin: url, trusted, limits });
  if (options.search !== true) return;
  if (trusted) prestartWebThread(SEARCH_WEB_WORKER);
  else prestartPluginThread(SEARCH_PLUGIN_THREAD, { plugin: url, trusted, limits });
};
