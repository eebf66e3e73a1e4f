/**
 * The `solve` strategy: the exact game-theoretic value of a Kalah position (the final
 * margin under perfect play, south's point of view), an optimal move and the principal
 * variation, from `KalahSolver` with an endgame database: the largest one
 * `deno task kalah-db` wrote for the board (see `db_file.ts`), else a small one built
 * in memory on the spot.
 *
 * A game keeps its solver (with its table and database) between searches (its `keep`),
 * so a player that solves every move reuses what it learnt.
 *
 * @module
 */
import type { Game } from "../../core/game.ts";
import { alphabetaSearch } from "../../core/search/alphabeta.ts";
import type { SearchOptions, SearchResult, SequentialStrategy } from "../../core/search/types.ts";
import { ENTRY_BYTES } from "../../core/search/tt.ts";
import { slot } from "../../core/search/keep.ts";
import { buildDb, dbSize, type EndgameDb, flipHalves, sowRelative } from "./db.ts";
import { dbFileName, loadDb } from "./db_file.ts";
import { isKalahGame, type KalahGame } from "./game.ts";
import { KalahSolver, SolveStopped } from "./solver.ts";

/** Positions in an endgame database built on the spot (about a second's work). */
export const SPOT_DB_POSITIONS = 2_500_000;

/** The solver's smallest table in megabytes (a larger `--tt-mb` makes it larger). */
export const DEFAULT_SOLVER_TT_MB = 256;

/** How a solver is set up for a board. */
export interface SolverSetup {
  /** The solver. */
  readonly solver: KalahSolver;
  /** Its endgame database, if any. */
  readonly db: EndgameDb | undefined;
  /** Where the database came from: `"file"`, `"built"` (in memory) or `"none"`. */
  readonly dbSource: "file" | "built" | "none";
  /** Milliseconds spent loading or building the database. */
  readonly dbMs: number;
}

/** The solver a Kalah game keeps between searches. */
const SOLVER = slot<SolverSetup>("kalah solver");

/**
 * The largest database size (stones) worth building on the spot for a board with
 * `total` stones: within `SPOT_DB_POSITIONS` positions, below the game's total.
 */
export const spotDbStones = (pits: number, total: number, budget = SPOT_DB_POSITIONS): number => {
  let k = 0;
  while (k + 1 < total && k + 1 <= 127 && dbSize(pits, k + 1) <= budget) k++;
  return k;
};

/**
 * The solver a game keeps (made the first time; `ttMb` sizes its table then; made again
 * when its database is too small for `total`, the number of stones in play, which bounds
 * the database). `tick` is called as each level of a database built on the spot is done:
 * a search passes its stop test, whose heartbeats tell the watchdog it is alive.
 */
export const solverFor = (
  game: KalahGame,
  total: number,
  ttMb: number,
  spotPositions = SPOT_DB_POSITIONS,
  tick?: () => unknown,
): SolverSetup => {
  const { pits } = game.config, captureAlways = game.config.capture === "always";
  const wanted = spotDbStones(pits, total, spotPositions);
  return game.keep.get(
    SOLVER,
    () => newSolver(pits, captureAlways, wanted, total, ttMb, tick),
    (known) => (known.db?.maxStones ?? -1) >= Math.min(wanted, total - 1),
  );
};

/** A solver with the database it needs (from a file, or built on the spot). */
const newSolver = (
  pits: number,
  captureAlways: boolean,
  wanted: number,
  total: number,
  ttMb: number,
  tick?: () => unknown,
): SolverSetup => {
  const t0 = performance.now();
  // A database file helps only when the spot database cannot cover the game.
  let db: EndgameDb | undefined = wanted >= total - 1 ? undefined : loadDb(pits, captureAlways);
  let dbSource: SolverSetup["dbSource"] = "file";
  if (db === undefined || db.maxStones < wanted) {
    // Each level built is a sign of progress for the search's watchdog (`tick`).
    db = wanted > 0 ? buildDb(pits, captureAlways, wanted, tick && (() => tick()), db) : undefined;
    dbSource = db === undefined ? "none" : "built";
  }
  const solver = new KalahSolver({ pits, captureAlways, db, ttMb });
  return { solver, db, dbSource, dbMs: performance.now() - t0 };
};

/** The largest database file worth suggesting: 2^28 positions (256 MB). */
const FILE_DB_POSITIONS = 2 ** 28;

/** Solves slower than this (milliseconds) without a database file suggest building one. */
const SUGGEST_DB_MS = 2000;

/**
 * What `analyze` tells the user about the database behind a solve, and the command that
 * builds a bigger one when the solve was slow without it.
 */
export const databaseNotes = (
  setup: SolverSetup,
  total: number,
  timeMs: number,
): string[] => {
  const { solver, db, dbSource } = setup;
  const always = solver.captureAlways;
  const notes = [
    dbSource === "file"
      ? `endgame database: out/kalah-db/${dbFileName(solver.pits, always, db!.maxStones)}`
      : dbSource === "built"
      ? `endgame database: built on the spot (${db!.maxStones} stones)`
      : "endgame database: none (the game is small)",
  ];
  const k = spotDbStones(solver.pits, total, FILE_DB_POSITIONS);
  if (dbSource !== "file" && timeMs > SUGGEST_DB_MS && k > (db?.maxStones ?? 0)) {
    const positions = dbSize(solver.pits, k);
    notes.push(
      `faster with a database file: deno task kalah-db --pits ${solver.pits} --stones ${k}` +
        `${always ? " --capture always" : ""} (${Math.round(positions / 2 ** 20)} MB, built once)`,
    );
  }
  return notes;
};

/**
 * The principal variation from mover-relative houses worth `value`: at each step the
 * first move (in the solver's order) whose null-window test shows it keeps the value.
 */
const principalVariation = (
  solver: KalahSolver,
  houses: Int32Array,
  value: number,
  captureAlways: boolean,
  firstMove: number,
  maxPlies: number,
): number[] => {
  const n = solver.pits, k = 2 * n;
  const pv: number[] = [];
  let h = houses.slice();
  let v = value;
  const child = new Int32Array(k);
  const flag = new Int32Array(3);
  while (pv.length < maxPlies) {
    let mine = 0, theirs = 0;
    for (let j = 0; j < n; j++) mine += h[j];
    for (let j = n; j < k; j++) theirs += h[j];
    if (mine === 0 || theirs === 0) break;
    // The table's best move (the search's choice) first: it is almost always right.
    const candidates = [...Array(n).keys()].filter((i) => h[i] > 0);
    const first = pv.length === 0 ? firstMove : solver.tableMove(h);
    if (candidates.includes(first)) {
      candidates.splice(candidates.indexOf(first), 1);
      candidates.unshift(first);
    }
    let chosen = -1, next = h;
    for (const i of candidates) {
      child.set(h);
      const gain = sowRelative(child, 0, n, i, captureAlways, flag, mine, theirs);
      if (flag[0] === 2) {
        if (gain === v) {
          chosen = i;
          next = child.slice();
          v = 0;
          break;
        }
        continue;
      }
      if (flag[0] === 1) {
        // Extra turn: the child (same mover) must be worth v - gain.
        const e = v - gain;
        if (solver.probeRoot(child, e - 1, e).value >= e) {
          chosen = i;
          next = child.slice();
          v = e;
          break;
        }
      } else {
        flipHalves(child, 0, n);
        // The opponent moves: their value must be at most gain - v.
        const e = gain - v;
        if (solver.probeRoot(child, e, e + 1).value <= e) {
          chosen = i;
          next = child.slice();
          v = e;
          break;
        }
      }
    }
    if (chosen < 0) break; // cannot happen for a correct value; stop the line quietly
    pv.push(chosen);
    h = next;
  }
  return pv;
};

/** Options of a solve beyond the common search options. */
export interface SolveExtras {
  /** The longest principal variation to extract (default 200 plies). */
  readonly pvPlies?: number;
  /** The largest endgame database to build on the spot (positions; default 2,500,000). */
  readonly spotDbPositions?: number;
  /** The solver's table size in megabytes (used when the board's solver is first made). */
  readonly ttMb?: number;
  /**
   * MTD(f)'s first guess, the mover's future gain (default: the best gain of one turn);
   * the value does not depend on it.
   */
  readonly guess?: number;
}

/**
 * Solves a Kalah position exactly. The value is the final margin (south's stones minus
 * north's) under perfect play; `exact` is false only when a time budget or a stop
 * request cut the solve short (the value is then the best bound found).
 *
 * Progress: after every null-window pass of MTD(f), `options.onIteration` receives the
 * bounds proved so far (`bounds`, south's view), the next guess as `value`, the best
 * move proved so far, `depth` the passes made, and the nodes and time so far. The
 * result carries its `bounds` too (equal to the value when exact).
 *
 * @example Kalah(2, 1): south wins by 2
 * ```ts
 * import { solveKalah } from "./solve.ts";
 * import { kalahGame } from "./game.ts";
 * const g = kalahGame({ pits: 2, stones: 1, capture: "nonempty", eval: "util" });
 * const r = solveKalah(g, g.initial(), {});
 * if (r.value !== 2 || r.move !== 1 || !r.exact) throw new Error(JSON.stringify(r));
 * ```
 */
export const solveKalah = <S>(
  game: Game<S>,
  state: S,
  options: SearchOptions,
  extras: SolveExtras = {},
): SearchResult => {
  if (!isKalahGame(game as Game<unknown>)) {
    // Not Kalah: alpha-beta to the end is exact for any game.
    return alphabetaSearch(game, state, { ...options, depth: 100_000, timeMs: undefined });
  }
  const start = performance.now();
  const kalah = game as unknown as KalahGame;
  const { pits: n, capture } = kalah.config;
  const always = capture === "always";
  const s = state as unknown as readonly number[];
  const mover = s[2 * n + 2];
  const own = mover === 0 ? 0 : n + 1, other = mover === 0 ? n + 1 : 0;
  const houses = new Int32Array(2 * n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    houses[i] = s[own + i];
    houses[n + i] = s[other + i];
    total += s[own + i] + s[other + i];
  }
  const storeDiff = s[n] - s[2 * n + 1];
  const toSouth = (v: number) => storeDiff + (mover === 0 ? v : -v);
  /** Mover-relative bounds as south's (north's lower bound is south's upper one). */
  const boundsToSouth = (lower: number, upper: number) =>
    mover === 0
      ? { lower: toSouth(lower), upper: toSouth(upper) }
      : { lower: toSouth(upper), upper: toSouth(lower) };
  let mine = 0, theirs = 0;
  for (let i = 0; i < n; i++) {
    mine += houses[i];
    theirs += houses[n + i];
  }
  if (mine === 0 || theirs === 0) {
    return {
      move: undefined,
      value: toSouth(mine - theirs),
      pv: [],
      nodes: 1,
      depth: 0,
      exact: true,
      timeMs: performance.now() - start,
      bounds: { lower: toSouth(mine - theirs), upper: toSouth(mine - theirs) },
    };
  }
  // The solver keeps its own table (its entries differ): at least the default size, more
  // when the caller's table is bigger (analyze's --tt-mb).
  const tt = options.tt;
  const requested = tt === undefined || tt === false ? 0 : (tt.size * ENTRY_BYTES) / 2 ** 20;
  const ttMb = extras.ttMb ?? Math.max(DEFAULT_SOLVER_TT_MB, Math.round(requested));
  const setup = solverFor(kalah, total, ttMb, extras.spotDbPositions, options.shouldStop);
  const solver = setup.solver;
  const deadline = options.timeMs === undefined ? Infinity : start + options.timeMs;
  const outer = options.shouldStop;
  const nodes0 = solver.nodes;
  solver.setStop(
    deadline === Infinity && outer === undefined
      ? undefined
      : () => performance.now() >= deadline || (outer !== undefined && outer()),
  );
  try {
    const onIteration = options.onIteration;
    const r = solver.solve(
      houses,
      extras.guess ?? guessFor(houses, n),
      onIteration === undefined ? undefined : (p) =>
        onIteration({
          move: p.move >= 0 ? p.move : undefined,
          value: toSouth(p.guess),
          pv: p.move >= 0 ? [p.move] : [],
          nodes: p.nodes,
          depth: p.passes,
          exact: p.lower === p.upper,
          timeMs: performance.now() - start,
          bounds: boundsToSouth(p.lower, p.upper),
        }),
    );
    const pv = principalVariation(solver, houses, r.value, always, r.move, extras.pvPlies ?? 200);
    let bestMoves: number[] | undefined;
    if (options.allBest) {
      bestMoves = [];
      const child = new Int32Array(2 * n), flag = new Int32Array(3);
      for (let i = 0; i < n; i++) {
        if (houses[i] === 0) continue;
        child.set(houses);
        const gain = sowRelative(child, 0, n, i, always, flag, mine, theirs);
        let v: number;
        if (flag[0] === 2) v = gain;
        else if (flag[0] === 1) v = gain + solver.solve(child, r.value - gain).value;
        else {
          flipHalves(child, 0, n);
          v = gain - solver.solve(child, gain - r.value).value;
        }
        if (v === r.value) bestMoves.push(i);
      }
    }
    const timeMs = performance.now() - start;
    return {
      move: r.move,
      value: toSouth(r.value),
      pv,
      nodes: solver.nodes - nodes0,
      depth: pv.length,
      exact: true,
      timeMs,
      ...(bestMoves ? { bestMoves } : {}),
      notes: databaseNotes(setup, total, timeMs),
      bounds: { lower: toSouth(r.value), upper: toSouth(r.value) },
    };
  } catch (e) {
    if (!(e instanceof SolveStopped)) throw e;
    const first = [...Array(n).keys()].find((i) => houses[i] > 0)!;
    const partial = solver.lastBounds();
    return {
      move: partial.move >= 0 ? partial.move : first,
      value: toSouth(partial.lower > -Infinity ? partial.lower : 0),
      pv: [partial.move >= 0 ? partial.move : first],
      nodes: solver.nodes - nodes0,
      depth: 0,
      exact: false,
      timeMs: performance.now() - start,
      ...(partial.lower > -Infinity ? { bounds: boundsToSouth(partial.lower, partial.upper) } : {}),
    };
  } finally {
    solver.setStop(undefined);
  }
};

/**
 * A first guess for MTD(f): the best immediate gain over one turn (extra turns
 * included), which is usually close for Kalah's small margins.
 */
const guessFor = (houses: Int32Array, n: number): number => {
  let best = 0;
  const child = new Int32Array(2 * n), flag = new Int32Array(3);
  let mine = 0, theirs = 0;
  for (let i = 0; i < n; i++) {
    mine += houses[i];
    theirs += houses[n + i];
  }
  for (let i = 0; i < n; i++) {
    if (houses[i] === 0) continue;
    child.set(houses);
    const gain = sowRelative(child, 0, n, i, false, flag, mine, theirs);
    if (gain > best) best = gain;
  }
  return best;
};

/** The exact solver as a strategy (`deno task analyze kalah --solve`). */
export const solveStrategy: SequentialStrategy = {
  _tag: "Sequential",
  budget: "depth",
  name: "solve",
  description: "exact solver: MTD(f), transposition table, endgame database (kalah-db)",
  allBest: true,
  search: <S>(game: Game<S>, state: S, options: SearchOptions): SearchResult =>
    solveKalah(game, state, options),
};
