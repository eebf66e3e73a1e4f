/**
 * A search worker: rebuilds games from their sources (module URL and options, loading
 * any plugin, built-in or a user's), guards a user's (see `core/guard.ts`), runs tasks
 * with the sequential engines or whole searches by strategy name (the engine service),
 * reports progress, and keeps one transposition table per game between tasks. It runs in
 * a Web Worker for the built-in plugins (`web_worker.ts`: their messages are the
 * fastest) and in a plugin thread for a user's (`node_worker.ts`, see
 * `core/host/thread.ts`: a Node worker with a bounded heap, sandboxed).
 *
 * @module
 */
import { Effect } from "../deps.ts";
import { faultTrace, PluginFault } from "../errors.ts";
import type { Game } from "../game.ts";
import { type OpenedGame, openGameWith } from "../plugin.ts";
import type { GameSource } from "../source.ts";
import { makeRng } from "../rng.ts";
import { alphabetaEngine, alphabetaSearch } from "../search/alphabeta.ts";
import { SearchStopped } from "../search/control.ts";
import { minimaxEngine } from "../search/minimax.ts";
import { builtinStrategies } from "../search/strategies.ts";
import { TranspositionTable } from "../search/tt.ts";
import type { Strategy } from "../search/types.ts";
import {
  HEARTBEAT_MS,
  type Progress,
  type ReplyMessage,
  type Task,
  type TaskMessage,
  type TaskResult,
  type TaskSettings,
} from "./protocol.ts";

/** Table size per game in each worker (MB). */
const WORKER_TT_MB = 32;

const keyOf = (source: GameSource) => JSON.stringify([source.url, source.options]);

/**
 * What one worker keeps between messages: its games, opened once per source, and its
 * own transposition tables (allocated once per game and settings, emptied when a new
 * search starts, so that results never depend on earlier searches).
 */
class WorkerState {
  readonly #games = new Map<string, Promise<OpenedGame>>();
  readonly #opened = new Map<string, OpenedGame>();
  readonly #tables = new Map<string, TranspositionTable>();
  readonly #generations = new Map<string, number>();

  /** The game of a source, opened (and guarded, with the pool's `slot`) on first use. */
  game(source: GameSource, slot: Int32Array): Promise<OpenedGame> {
    const key = keyOf(source);
    let g = this.#games.get(key);
    if (g === undefined) {
      g = Effect.runPromise(openGameWith({}, source.url, source.options, slot));
      g.then((opened) => this.#opened.set(key, opened), () => {});
      this.#games.set(key, g);
    }
    return g;
  }

  /** The game of a source if it is already open. */
  opened(source: GameSource): OpenedGame | undefined {
    return this.#opened.get(keyOf(source));
  }

  /**
   * The table for a task of search `generation`: the shared one when the search has one,
   * else this worker's own for `key`, emptied when the search is a new one.
   */
  table(key: string, settings: TaskSettings): TranspositionTable {
    if (settings.table !== undefined) return new TranspositionTable(0, settings.table);
    let tt = this.#tables.get(key);
    if (tt === undefined) {
      tt = new TranspositionTable(WORKER_TT_MB);
      this.#tables.set(key, tt);
    }
    if (this.#generations.get(key) !== settings.generation) {
      tt.clear();
      this.#generations.set(key, settings.generation);
    }
    return tt;
  }
}

/**
 * Runs a message's tasks: at once in a Web Worker (`inTimer` false); in a Node worker in
 * a task of its own (`setImmediate`), never in the continuation of a promise (a Node
 * worker's messages arrive in one): Deno never reports a Node worker that ran out of
 * memory there (its thread just stops). (`setTimeout(f, 0)` would do too, but waits
 * about 2.5 ms there: a user's plugin's search cost 3 ms more than a built-in's.)
 */
const run = (worker: WorkerState, msg: TaskMessage): TaskResult[] | Promise<TaskResult[]> => {
  const ready = worker.opened(msg.source);
  if (ready !== undefined && !inTimer) {
    post({ id: msg.id, type: "started" });
    return msg.tasks.map((t) => runTask(worker, ready, msg, t));
  }
  return worker.game(msg.source, msg.slot).then((opened) => {
    post({ id: msg.id, type: "started" });
    return later(() => msg.tasks.map((t) => runTask(worker, opened, msg, t)));
  });
};

/** `f` run in a task of its own (a Node worker's `setImmediate`). */
const later = <A>(f: () => A): Promise<A> =>
  new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(f());
      } catch (e) {
        reject(e);
      }
    })
  );

const runTask = (
  worker: WorkerState,
  { game, plugin }: OpenedGame,
  msg: TaskMessage,
  t: Task,
): TaskResult => {
  const flag = new Int32Array(msg.stop);
  const shouldStop = () => Atomics.load(flag, 0) !== 0;
  const { chance, distance } = msg.settings;
  const tableKey = `${keyOf(msg.source)}|${chance}|${distance}`;
  if (t.kind === "search") {
    const strategy = plugin.strategies?.[t.strategy] ?? builtinStrategies[t.strategy];
    if (strategy === undefined) throw new Error(`no strategy '${t.strategy}' in this worker`);
    // A parallel strategy coordinates on the engine's side; a worker has no pool.
    if ((strategy as Strategy)._tag !== "Sequential") {
      throw new Error(`${t.strategy} is a parallel strategy: a search worker cannot run it`);
    }
    const progress = (progress: Progress) => post({ id: msg.id, type: "progress", progress });
    const start = performance.now();
    let last = start;
    const { tt, seed, ...rest } = t.options;
    const table = tt === false || game.key === undefined
      ? false
      : tt !== undefined
      ? new TranspositionTable(0, tt)
      : worker.table(`${tableKey}|search`, { ...msg.settings, generation: msg.id });
    const r = strategy.search(game, t.state, {
      ...rest,
      tt: table,
      ...(seed !== undefined ? { rng: makeRng(seed) } : {}),
      shouldStop: () => {
        const now = performance.now();
        if (now - last >= HEARTBEAT_MS) {
          last = now;
          progress({ _tag: "Heartbeat", timeMs: now - start });
        }
        return shouldStop();
      },
      onIteration: (result) => {
        last = performance.now();
        progress({ _tag: "Iteration", result });
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
    const tt = game.key === undefined ? undefined : worker.table(tableKey, msg.settings);
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
  const tt = worker.table(tableKey, msg.settings);
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

const state = new WorkerState();

/** Sends a reply to the pool (set by `serveTasks`). */
let post: (reply: ReplyMessage) => void = () => {};
/** True when tasks must run in a timer's task (a Node worker: see `run`). */
let inTimer = false;

/**
 * Serves the pool's tasks in this worker: `send` carries the replies to the pool; the
 * result handles one task message (the worker's entry module wires both to its port).
 * `node` says the worker is a Node worker (its tasks then run in timers: see `run`).
 */
export const serveTasks = (
  send: (reply: ReplyMessage) => void,
  node = false,
): (msg: TaskMessage) => Promise<void> => {
  post = send;
  inTimer = node;
  return handle;
};

const handle = async (msg: TaskMessage): Promise<void> => {
  let reply: ReplyMessage;
  msg.slot[0] = 0;
  try {
    reply = { id: msg.id, type: "done", results: await run(state, msg) };
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
  post(reply);
};
