/**
 * `deno task check-plugin PLUGIN [--OPTION VALUE ...] [--playouts N] [--max-plies N]
 * [--depth D] [--picture-playouts N] [--json]`
 *
 * Runs the conformance suite (`app/conformance.ts`) on a game plugin: a module's path
 * (from the directory the command is run in) or URL, or a built-in game's id. Prints one
 * line per check, each problem naming the plugin's function, and a summary; exits with 0
 * when every check passes, 1 when one fails or the module does not load, 2 on a usage
 * mistake. The suite runs in the plugin's thread, never on the main thread
 * (`app/conformance_host.ts`): a plugin that hangs (`--call-limit`) or runs out of memory
 * (`--memory`) fails the check it was in, named with the function; a user's plugin is
 * sandboxed (`--plugin-allow` grants). Without a clone: `deno run -A
 * --unstable-worker-options jsr:@ply/ply@0.1.0/check-plugin ./my_game.ts` (without
 * `--unstable-worker-options` the plugin is not sandboxed).
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { resolveSpecifier } from "../core/source.ts";
import { pluginLabel } from "../core/source.ts";
import { builtins } from "../plugins/registry.ts";
import { type ConformanceOptions, formatCheck, formatSummary } from "../app/conformance.ts";
import { checkInThread } from "../app/conformance_host.ts";
import { Limits } from "../core/host/limits.ts";
import { intFlag, parseCommandLine, printHelp, runMain, UsageError } from "../app/cli.ts";
import { Terminal } from "../app/terminal.ts";

const USAGE =
  `Usage: deno task check-plugin PLUGIN [--OPTION VALUE ...] [--playouts N] [--max-plies N]
       [--depth D] [--picture-playouts N] [--json]
Runs the conformance suite on a game plugin (a module's path or URL, or a built-in id):
seeded random playouts check whose turn it is, the moves and their notation, play,
keys, values and outcomes, what a person sees, the picture, transcripts and searches.
Prints one line per check, each problem naming the plugin's function, and a summary.
A plugin that hangs or runs out of memory fails the check it was in (the limits below).
Exit code 0 when every check passes, 1 when one fails, 2 on a usage mistake.

  --OPTION VALUE        the game's own options (default: the plugin's defaults)
  --playouts N          random playouts (default 20)
  --max-plies N         the longest playout (default 400)
  --depth D             alpha-beta must agree with minimax at depth D (default 3; 0 skips)
  --picture-playouts N  playouts whose every position checks the picture (default 5)
  --json                print the report as JSON
Without a clone of ply:
  deno run -A --unstable-worker-options jsr:@ply/ply@0.1.0/check-plugin ./my_game.ts
`;

const FLAGS = {
  string: ["playouts", "max-plies", "depth", "picture-playouts"],
  boolean: ["json"],
} as const;

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length !== 1) {
    return yield* new UsageError({ message: "name the plugin to check: its path or URL" });
  }
  const options: ConformanceOptions = {
    options: gameOptions,
    playouts: yield* intFlag(flags, "playouts", 20, 1, 100_000),
    maxPlies: yield* intFlag(flags, "max-plies", 400, 1, 1_000_000),
    searchDepth: yield* intFlag(flags, "depth", 3, 0, 12),
    picturePlayouts: yield* intFlag(flags, "picture-playouts", 5, 0, 100_000),
  };
  const term = yield* Terminal;
  const specifier = positional[0];
  const builtin = Object.hasOwn(builtins, specifier) ? builtins[specifier] : undefined;
  const url = builtin?.url ?? resolveSpecifier(specifier);
  const label = builtin !== undefined ? specifier : pluginLabel(url);
  const json = flags.json === true;
  // The suite runs in the plugin's thread; each check is printed as soon as it is known.
  const result = yield* checkInThread(
    { url, label, trusted: builtin !== undefined, options, limits: yield* Limits },
    (check) => json ? Effect.void : term.print(formatCheck(label, check)),
  );
  if ("error" in result) {
    if (json) {
      yield* term.print(`${JSON.stringify({ plugin: label, ok: false, error: result.error })}\n`);
    } else {
      yield* term.print(`FAIL  the module loads\n        ${label}: ${result.error}\n`);
      yield* term.print(`${label}: the module does not load\n`);
    }
    return 1;
  }
  const { report } = result;
  yield* term.print(json ? `${JSON.stringify(report, null, 2)}\n` : formatSummary(report));
  return report.ok ? 0 : 1;
});

if (import.meta.main) runMain(main, "deno task check-plugin");
