/**
 * Parallel search strategies on the worker pool, generic over every plugin (a worker
 * rebuilds the game from its source, so a user's plugin from a file or URL works too):
 *
 * - `par_then_mm` (seed 004): minimax over the first `par` plies, the positions there
 *   searched with sequential minimax in parallel;
 * - `par_then_ab` (seed 004): the same with sequential alpha-beta below;
 * - `young_bros` (seed 004, Young Brothers Wait): at each node within `par` plies, the
 *   eldest child is searched first (itself the same way), then its brothers in parallel
 *   with the narrowed window; sequential alpha-beta below;
 * - `lazy_smp`: every worker deepens the same root over one shared transposition table
 *   in a `SharedArrayBuffer`, each taking the root moves in another order, the first
 *   worker's result standing (the approach of modern engines).
 *
 * The alpha-beta strategies share one table in a `SharedArrayBuffer` between all their
 * tasks, so that no worker searches again what another one already did.
 *
 * Each returns the same value as its sequential counterpart on the same position and
 * depth (minimax or alpha-beta; chance nodes minimize as they do there).
 *
 * @module
 */
import { Effect, Option } from "../deps.ts";
import { CHANCE, type Game, movesOf } from "../game.ts";
import type { GameSource } from "../source.ts";
import { deepening, depthLimit, leafValue, rootMovesOf } from "../search/control.ts";
import type { ParallelStrategy, SearchOptions, SearchResult } from "../search/types.ts";
import type { SearchFailed } from "../errors.ts";
import { withPool, type WorkerPool } from "./pool.ts";
import type { Task, TaskResult, TaskSettings } from "./protocol.ts";

/** What one parallel iteration found. */
interface Found {
  readonly value: number;
  readonly pv: readonly number[];
  readonly nodes: number;
  readonly exact: boolean;
}

type Pool = WorkerPool["Service"];

/**
 * Settings for a new search: a new search number (workers' own tables start empty) and,
 * for the alpha-beta strategies (`shared`), the pool's shared table for the game,
 * emptied, so that every worker sees what the others found (it is kept across searches,
 * and its size is bounded by the `ttmb` parameter, default 64 MB).
 */
const settingsFor = (
  options: SearchOptions,
  pool: Pool,
  shared?: GameSource,
): TaskSettings => {
  const distance = options.distance === true;
  const generation = pool.newSearch();
  if (shared === undefined) return { chance: "min", distance, generation };
  const table = pool.sharedTable(JSON.stringify([shared, distance]), options.params?.ttmb ?? 64);
  table.clear(); // every search starts cold
  return { chance: "min", distance, generation, table: table.buffer as SharedArrayBuffer };
};

/**
 * A node searched as a leaf (at the depth limit, or where `moves`, its moves, are none):
 * exact only at the end of the game, the depth limit included.
 */
const leafOf = <S>(
  value: (s: S, ply: number) => number,
  s: S,
  ply: number,
  moves: readonly number[],
): Found => ({ value: value(s, ply), pv: [], nodes: 1, exact: moves.length === 0 });

/**
 * Backs up children's values: player 0 maximizes; player 1 and chance minimize. Ties keep
 * the first best child, or with `lastMax` a maximizer keeps the last (seed 004's
 * `maximumBy`).
 */
const backUp = (
  max: boolean,
  moves: readonly number[],
  kids: readonly Found[],
  lastMax = false,
): Found => {
  let best = 0, nodes = 1, exact = true;
  for (let i = 0; i < kids.length; i++) {
    nodes += kids[i].nodes;
    exact &&= kids[i].exact;
    const v = kids[i].value, b = kids[best].value;
    if (i > 0 && (max ? v > b || (lastMax && v === b) : v < b)) best = i;
  }
  return { value: kids[best].value, pv: [moves[best], ...kids[best].pv], nodes, exact };
};

const fromTask = (r: TaskResult): Found => ({
  value: r.value,
  pv: r.pv,
  nodes: r.nodes,
  exact: r.exact,
});

/**
 * Iterative deepening over an effectful iteration (`deepening`'s bookkeeping, as the
 * sequential searches'): a fixed depth runs in one pass; with a time budget, each
 * iteration gets the time left and is interrupted (stopping the workers) when it runs out.
 */
const deepenParallel = <S>(
  game: Game<S>,
  state: S,
  options: SearchOptions,
  one: (depth: number) => Effect.Effect<Found, SearchFailed>,
): Effect.Effect<SearchResult, SearchFailed> =>
  Effect.gen(function* () {
    const start = performance.now();
    const timed = options.timeMs !== undefined;
    const run = deepening(options, start, rootMovesOf(game, state)[0], timed ? 1 : Infinity);
    let nodes = 0;
    for (let d = run.first; d <= run.last; d++) {
      let found: Found;
      if (!timed) found = yield* one(d);
      else {
        const left = start + options.timeMs! - performance.now();
        if (left <= 0) break;
        const r = yield* Effect.timeoutOption(one(d), left);
        if (Option.isNone(r)) break;
        found = r.value;
      }
      nodes += found.nodes;
      if (run.complete(d, found, nodes)) break;
    }
    return run.result(nodes);
  });

/**
 * Seed 004's ParThenMM / ParThenAB: the frontier at `par` plies, searched in parallel.
 * With the parameter `lastmax=1` the root keeps the last of equal maxima, as seed 004's
 * `maximumBy` does (its `deno task kalah`); otherwise the first best move.
 */
const parThen =
  (below: "minimax" | "alphabeta") =>
  <S>(game: Game<S>, source: GameSource, state: S, options: SearchOptions, pool: Pool) =>
    Effect.gen(function* () {
      const value = leafValue(game, options.distance === true);
      const settings = settingsFor(options, pool, below === "alphabeta" ? source : undefined);
      const par = options.params?.par ?? (below === "minimax" ? 3 : 1);
      return yield* deepenParallel(game, state, options, (depth) =>
        Effect.gen(function* () {
          // Expand the top of the tree on this thread, collecting the frontier as tasks.
          type Top =
            | { readonly kind: "leaf"; readonly found: Found }
            | { readonly kind: "task"; readonly index: number }
            | {
              readonly kind: "node";
              readonly max: boolean;
              readonly moves: readonly number[];
              readonly kids: Top[];
            };
          const tasks: Task[] = [];
          const expand = (s: S, d: number, p: number, ply: number): Top => {
            const moves = movesOf(game, s);
            if (d <= 0 || moves.length === 0) {
              return { kind: "leaf", found: leafOf(value, s, ply, moves) };
            }
            if (p <= 0) {
              tasks.push(
                below === "minimax" ? { kind: "minimax", state: s, depth: d, ply } : {
                  kind: "alphabeta",
                  state: s,
                  depth: d,
                  ply,
                  alpha: -Infinity,
                  beta: Infinity,
                },
              );
              return { kind: "task", index: tasks.length - 1 };
            }
            return {
              kind: "node",
              max: game.toMove(s) === 0,
              moves,
              kids: moves.map((m) => expand(game.play(s, m), d - 1, p - 1, ply + 1)),
            };
          };
          const top = expand(state, depth, par, 0);
          const results = yield* pool.run(source, settings, tasks);
          const lastMax = options.params?.lastmax === 1;
          const resolve = (t: Top, root: boolean): Found =>
            t.kind === "leaf"
              ? t.found
              : t.kind === "task"
              ? fromTask(results[t.index])
              : backUp(t.max, t.moves, t.kids.map((k) => resolve(k, false)), root && lastMax);
          return resolve(top, true);
        }));
    });

/** A younger brother refuted its node: the others stop. */
const REFUTED = Symbol("refuted");

/** Seed 004's YoungBros: the eldest brother first, then the rest in parallel. */
const youngBrothers = <S>(
  game: Game<S>,
  source: GameSource,
  state: S,
  options: SearchOptions,
  pool: Pool,
) =>
  Effect.gen(function* () {
    const value = leafValue(game, options.distance === true);
    const settings = settingsFor(options, pool, source);
    const par = options.params?.par ?? 3;
    const task = (s: S, d: number, ply: number, alpha: number, beta: number) =>
      Effect.map(
        pool.run(source, settings, [{ kind: "alphabeta", state: s, depth: d, ply, alpha, beta }]),
        (rs) => fromTask(rs[0]),
      );
    const ybw = (
      s: S,
      d: number,
      p: number,
      ply: number,
      alpha: number,
      beta: number,
    ): Effect.Effect<Found, SearchFailed> =>
      Effect.gen(function* () {
        let moves = movesOf(game, s);
        if (d <= 0 || moves.length === 0) return leafOf(value, s, ply, moves);
        if (p <= 0) return yield* task(s, d, ply, alpha, beta);
        const max = game.toMove(s) === 0;
        if (game.orderMoves !== undefined && game.toMove(s) !== CHANCE) {
          moves = game.orderMoves(s, moves);
        }
        // The eldest brother, searched first (itself by Young Brothers Wait, so that its
        // own younger brothers run in parallel), narrows the window...
        const eldest = yield* ybw(game.play(s, moves[0]), d - 1, p - 1, ply + 1, alpha, beta);
        if (max ? eldest.value >= beta : eldest.value <= alpha) {
          return { ...eldest, pv: [moves[0], ...eldest.pv], nodes: eldest.nodes + 1 };
        }
        // ...then the younger brothers run in parallel (all queued at once, so that no
        // worker waits), each starting with the window as it stands when it starts; one
        // that refutes the node stops the others (interrupting their workers' searches).
        let a = max ? Math.max(alpha, eldest.value) : alpha;
        let b = max ? beta : Math.min(beta, eldest.value);
        const found: (Found | undefined)[] = [];
        const brother = (m: number, i: number) =>
          Effect.suspend(() => {
            if (a >= b) return Effect.void;
            return Effect.flatMap(ybw(game.play(s, m), d - 1, p - 1, ply + 1, a, b), (r) => {
              found[i] = r;
              if (max) a = Math.max(a, r.value);
              else b = Math.min(b, r.value);
              return a >= b ? Effect.fail(REFUTED) : Effect.void;
            });
          });
        yield* Effect.forEach(moves.slice(1), brother, { concurrency: "unbounded" }).pipe(
          Effect.catchIf((e): e is typeof REFUTED => e === REFUTED, () => Effect.void),
        );
        const done = moves.slice(1).flatMap((m, i) => {
          const f = found[i];
          return f === undefined ? [] : [[m, f] as const];
        });
        return backUp(max, [moves[0], ...done.map(([m]) => m)], [
          eldest,
          ...done.map(([, f]) => f),
        ]);
      });
    return yield* deepenParallel(
      game,
      state,
      options,
      (depth) => ybw(state, depth, par, 0, -Infinity, Infinity),
    );
  });

/** Slots of Lazy SMP's busy marks (a power of two). */
const BUSY_SLOTS = 1 << 16;

/**
 * Lazy SMP: all workers deepen the root over one shared table, each deferring the
 * children another is searching (ABDADA's rule); the deepest result stands.
 */
const lazySmp = <S>(
  game: Game<S>,
  source: GameSource,
  state: S,
  options: SearchOptions,
  pool: Pool,
) =>
  Effect.gen(function* () {
    const settings: TaskSettings = {
      ...settingsFor(options, pool, source),
      busy: new SharedArrayBuffer(4 * BUSY_SLOTS),
    };
    const start = performance.now();
    const depth = depthLimit(options);
    const tasks: Task[] = Array.from({ length: pool.size }, (_, helper) => ({
      kind: "smp" as const,
      state,
      depth,
      timeMs: options.timeMs,
      helper,
    }));
    const results = yield* pool.run(source, settings, tasks);
    // The deepest completed search stands (the first to reach the target depth stopped
    // the others); among equals, helper 0's.
    const main = results.reduce((a, r) => (r.depth > a.depth ? r : a));
    const result: SearchResult = {
      move: main.pv[0] ?? rootMovesOf(game, state)[0],
      value: main.value,
      pv: main.pv,
      nodes: results.reduce((n, r) => n + r.nodes, 0),
      depth: main.depth,
      exact: main.exact,
      timeMs: performance.now() - start,
    };
    return result;
  });

const parallelStrategy = (
  name: string,
  description: string,
  run: <S>(
    g: Game<S>,
    source: GameSource,
    s: S,
    o: SearchOptions,
    pool: Pool,
  ) => Effect.Effect<SearchResult, SearchFailed>,
  params: ParallelStrategy["params"],
): ParallelStrategy => ({
  _tag: "Parallel",
  name,
  description,
  budget: "depth",
  params,
  run: (game, source, state, options) =>
    withPool((pool) => run(game, source, state, options, pool)),
});

/** The `par` parameter: plies searched in parallel at the top. */
const parParam = (byDefault: number) => ({
  min: 0,
  max: 64,
  integer: true,
  description: `plies searched in parallel at the top, default ${byDefault}`,
});

/** The `lastmax` parameter: the root keeps the last of equal maxima (seed 004's `maximumBy`). */
export const LASTMAX_PARAM = {
  min: 0,
  max: 1,
  integer: true,
  description: "1: of equally good moves the root keeps the last, not the first; default 0",
};

/** The `ttmb` parameter: the shared table's size. */
const TTMB_PARAM = {
  min: 1,
  max: 4096,
  integer: true,
  description: "the shared transposition table's size in MB, default 64",
};

/** Seed 004's ParThenMM: parallel minimax for `par` plies (default 3), minimax below. */
const parThenMm: ParallelStrategy = parallelStrategy(
  "par_then_mm",
  "parallel minimax for the first par plies (,par=3), sequential minimax below",
  parThen("minimax"),
  { par: parParam(3), lastmax: LASTMAX_PARAM },
);

/** Seed 004's ParThenAB: parallel minimax for `par` plies (default 1), alpha-beta below. */
const parThenAb: ParallelStrategy = parallelStrategy(
  "par_then_ab",
  "parallel minimax for the first par plies (,par=1), sequential alpha-beta below",
  parThen("alphabeta"),
  { par: parParam(1), lastmax: LASTMAX_PARAM, ttmb: TTMB_PARAM },
);

/** Seed 004's YoungBros: Young Brothers Wait to `par` plies (default 3). */
const youngBros: ParallelStrategy = parallelStrategy(
  "young_bros",
  "Young Brothers Wait: eldest child first, brothers in parallel to par plies (,par=3)",
  youngBrothers,
  { par: parParam(3), ttmb: TTMB_PARAM },
);

/** Lazy SMP over a shared transposition table. */
const lazySmpStrategy: ParallelStrategy = parallelStrategy(
  "lazy_smp",
  "Lazy SMP: every worker deepens the root over one shared transposition table",
  lazySmp,
  { ttmb: TTMB_PARAM },
);

/** The parallel strategies by name. */
export const parallelStrategies: Readonly<Record<string, ParallelStrategy>> = {
  par_then_mm: parThenMm,
  par_then_ab: parThenAb,
  young_bros: youngBros,
  lazy_smp: lazySmpStrategy,
};
