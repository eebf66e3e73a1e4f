/**
 * The tactics program's plugin thread (started by `tactics_host.ts` through
 * `spawnPluginThread`: a user's plugin sandboxed, the heap bounded): opens the game
 * here (a user's guarded) and collects its tactical positions (`tacticsCollector`) in process,
 * where the millions of calls that labelling makes stay plain calls. The guard's slot in
 * shared memory (`TACTICS_CELL`) shows the main thread, which watches it, which of a
 * user's plugin's functions runs and how many calls were made; between two random games the
 * thread reads the stop cell (the user pressed Ctrl-C) and ends with what it found.
 *
 * @module
 */
import { Effect, Result } from "../core/deps.ts";
import { PluginFault } from "../core/errors.ts";
import { ownerPort, threadData } from "../core/host/inside.ts";
import { type OpenedGame, openGameWith } from "../core/plugin.ts";
import { tacticsCollector } from "./tactics.ts";
import { TACTICS_CELL, type TacticsThreadData, type TacticsThreadMessage } from "./tactics_host.ts";

const { url, options, tactics, cells } = await threadData<TacticsThreadData>();
const owner = ownerPort();
const post = (m: TacticsThreadMessage) => owner.post(m);
const progress = new Int32Array(cells);
const slot = progress.subarray(TACTICS_CELL.fn, TACTICS_CELL.calls + 1);

const errorFields = (e: unknown) => {
  const r = e as Record<string, unknown>;
  return Object.fromEntries(
    ["_tag", "message", "plugin", "problems", "known"].filter((k) => r[k] !== undefined)
      .map((k) => [k, r[k]]),
  ) as { readonly _tag: string } & Readonly<Record<string, unknown>>;
};

/** Collects the positions, a random game at a time, until done or asked to stop. */
const run = (opened: OpenedGame) => {
  // A user's game comes guarded (`openGameWith`, with the shared slot); a built-in's does
  // not, as in the search workers: its functions are ply's, and the guard's checks would
  // double the time of Pentago's labelling.
  const { game } = opened;
  try {
    const collector = tacticsCollector(game, tactics);
    let more = true;
    while (more && Atomics.load(progress, TACTICS_CELL.stop) === 0) more = collector.step();
    post({
      type: "done",
      positions: collector.positions(),
      games: collector.games,
      complete: !more,
    });
  } catch (e) {
    if (e instanceof PluginFault) {
      const cause = e.cause instanceof Error ? e.cause : undefined;
      const message = cause?.message ?? String(e.cause);
      const trace = cause?.stack;
      post({ type: "fault", fn: e.fn, message, ...(trace !== undefined ? { trace } : {}) });
    } else if (e instanceof RangeError) post({ type: "invalid", message: e.message });
    else {
      post({
        type: "crash",
        message: e instanceof Error ? e.message : String(e),
        ...(e instanceof Error && e.stack !== undefined ? { trace: e.stack } : {}),
      });
    }
  }
};

const opened = await Effect.runPromise(Effect.result(openGameWith({}, url, options, slot)));
if (Result.isFailure(opened)) post({ type: "failed", error: errorFields(opened.failure) });
else {
  const { plugin, options: decoded, game } = opened.success;
  post({
    type: "ready",
    plugin: { id: plugin.id, name: plugin.name },
    options: decoded,
    solo: game.solo === true,
  });
  // The work runs in a task of its own, not in the module's evaluation (after its
  // top-level await): a thread stopped there for running out of memory was never
  // reported dead (as in `core/host/rules.ts`).
  if (game.solo !== true) setTimeout(() => run(opened.success), 0);
}
