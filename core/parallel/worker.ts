/**
 * A search worker: rebuilds games from their sources (module URL and options, loading
 * any plugin, built-in or a user's), guards a user's (see `core/guard.ts`), runs tasks
 * with the sequential engines or whole searches by strategy name (the engine service),
 * reports progress, and keeps one transposition table per game between tasks.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { Effect } from "../deps.ts";
import { guardPlugin } from "../guard.ts";
import { faultTrace, PluginFault } from "../errors.ts";
import type { Game } from "../game.ts";
import { type GamePlugin, makeGame, validatePlugin } from "../plugin.ts";
import { type GameSource, pluginLabel } from "../source.ts";
import { makeRng } from "../rng.ts";
import { alphabetaEngine, alphabetaSearch } from "../search/alphabeta.ts";
import { SearchStopped } from "../search/control.ts";
import { minimaxEngine } from "../search/minimax.ts";
import { builtinStrategies } from "../search/strategies.ts";
import { TranspositionTable } from "../search/tt.ts";
import type { Progress, ReplyMessage, Task, TaskMessage, TaskResult } from "./protocol.ts";

/** Table size per game in each worker (MB). */
const WORKER_TT_MB = 32;

/** A search reports that it is alive at least this often (milliseconds), if it polls. */
const HEARTBEAT_MS = 1000;

interface Built {
  readonly game: Game<unknown>;
  readonly plugin: GamePlugin<unknown, unknown>;
}

const games = new Map<string, Promise<Built>>();
const tables = new Map<string, TranspositionTable>();
const generations = new Map<string, number>();

const keyOf = (source: GameSource) => JSON.stringify([source.url, source.options]);

const gameFor = (source: GameSource, slot: Int32Array): Promise<Built> => {
  const key = keyOf(source);
  let g = games.get(key);
  if (g === undefined) {
    g = (async () => {
      const mod = await import(source.url);
      const plugin = validatePlugin(mod, source.url);
      if (plugin._tag === "Failure") throw new Error(plugin.failure.message);
      const { game } = await Effect.runPromise(makeGame(plugin.success, source.options));
      const guarded = guardPlugin(game, source.url, pluginLabel(source.url), slot);
      return { game: guarded, plugin: plugin.success };
    })();
    games.set(key, g);
  }
  return g;
};

/**
 * The table for a search: the shared one when the search has one, else this worker's own
 * for the game (emptied when a new search starts, so every search starts cold).
 */
const tableFor = (key: string, settings: TaskMessage["settings"]): TranspositionTable => {
  if (settings.table !== undefined) return new TranspositionTable(0, settings.table);
  let tt = tables.get(key);
  if (tt === undefined) {
    tt = new TranspositionTable(WORKER_TT_MB);
    tables.set(key, tt);
  }
  if (generations.get(key) !== settings.generation) {
    tt.clear();
    generations.set(key, settings.generation);
  }
  return tt;
};

const run = async (msg: TaskMessage): Promise<TaskResult[]> => {
  const built = await gameFor(msg.source, msg.slot);
  self.postMessage({ id: msg.id, type: "started" } satisfies ReplyMessage);
  return msg.tasks.map((t) => runTask(built, msg, t));
};

const runTask = ({ game, plugin }: Built, msg: TaskMessage, t: Task): TaskResult => {
  const flag = new Int32Array(msg.stop);
  const shouldStop = () => Atomics.load(flag, 0) !== 0;
  const { chance, distance } = msg.settings;
  const tableKey = `${keyOf(msg.source)}|${chance}|${distance}`;
  if (t.kind === "search") {
    const strategy = plugin.strategies?.[t.strategy] ?? builtinStrategies[t.strategy];
    if (strategy === undefined) throw new Error(`no strategy '${t.strategy}' in this worker`);
    const post = (progress: Progress) =>
      self.postMessage({ id: msg.id, type: "progress", progress } satisfies ReplyMessage);
    const start = performance.now();
    let last = start;
    const { tt, seed, ...rest } = t.options;
    const table = tt === false || game.key === undefined
      ? false
      : tt !== undefined
      ? new TranspositionTable(0, tt)
      : tableFor(`${tableKey}|search`, { ...msg.settings, generation: msg.id });
    const r = strategy.search(game, t.state, {
      ...rest,
      tt: table,
      ...(seed !== undefined ? { rng: makeRng(seed) } : {}),
      shouldStop: () => {
        const now = performance.now();
        if (now - last >= HEARTBEAT_MS) {
          last = now;
          post({ _tag: "Heartbeat", timeMs: now - start });
        }
        return shouldStop();
      },
      onIteration: (result) => {
        last = performance.now();
        post({ _tag: "Iteration", result });
      },
    });
    // An interrupted search answers "stopped": the handshake that it saw the flag.
    if (shouldStop()) throw new SearchStopped();
    return r;
  }
  if (t.kind === "minimax") {
    const e = minimaxEngine(game, { shouldStop, distance }, chance);
    const value = e.search(t.state, t.depth, t.ply);
    return { value, nodes: e.counter.nodes, pv: e.pv(), exact: e.exact(), depth: t.depth };
  }
  if (t.kind === "alphabeta") {
    const tt = game.key === undefined ? undefined : tableFor(tableKey, msg.settings);
    const e = alphabetaEngine(game, { shouldStop, distance, tt: tt ?? false }, chance);
    const value = e.search(t.state, t.depth, t.alpha, t.beta, t.ply);
    return {
      value,
      nodes: e.counter.nodes,
      pv: e.pv(t.state, t.depth),
      exact: e.exact(),
      depth: t.depth,
    };
  }
  // Lazy SMP: every helper deepens the same root to the same depth over one shared table
  // (so that each can use what the others found), helper k taking the root moves from the
  // k-th on first: the helpers spread over the tree, and their entries feed each other.
  const tt = tableFor(tableKey, msg.settings);
  const moves = game.moves(t.state);
  const rotated = (s: unknown, ms: readonly number[]) =>
    s === t.state && ms.length > 1
      ? [...ms.slice(t.helper % ms.length), ...ms.slice(0, t.helper % ms.length)]
      : (game.orderMoves?.(s, ms) ?? ms);
  const helperGame = t.helper === 0 || moves.length < 2
    ? game
    : Object.assign(Object.create(game), { orderMoves: rotated }) as Game<unknown>;
  const r = alphabetaSearch(helperGame, t.state, {
    depth: t.depth,
    ...(t.timeMs !== undefined ? { timeMs: t.timeMs } : {}),
    distance,
    tt,
    ...(msg.settings.busy !== undefined ? { busy: new Int32Array(msg.settings.busy) } : {}),
    shouldStop,
  }, chance);
  // The first searcher to complete the target depth ends the search for all.
  if (r.depth >= t.depth || r.exact) Atomics.store(flag, 0, 1);
  return { value: r.value, nodes: r.nodes, pv: r.pv, exact: r.exact, depth: r.depth };
};

self.onmessage = async (e: MessageEvent<TaskMessage>) => {
  const msg = e.data;
  let reply: ReplyMessage;
  msg.slot[0] = 0;
  try {
    reply = { id: msg.id, type: "done", results: await run(msg) };
  } catch (err) {
    reply = err instanceof SearchStopped ? { id: msg.id, type: "stopped" } : {
      id: msg.id,
      type: "error",
      message: err instanceof Error ? err.message : String(err),
      trace: err instanceof PluginFault
        ? faultTrace(err)
        : err instanceof Error
        ? err.stack
        : undefined,
    };
  }
  self.postMessage(reply);
};
