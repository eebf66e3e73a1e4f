/**
 * Monte Carlo tree search (UCT) over the protocol, for every game: plain TypeScript,
 * seeded, with an iteration or a time budget.
 *
 * Each iteration walks down the tree choosing children by UCB1 from the mover's point
 * of view (`toMove`, so extra turns need nothing special), samples chance nodes by their
 * probabilities, adds one new node, plays uniformly random moves from it to the end of
 * the game, and adds the reward to every node on the way back. A node's first listed
 * move is expanded first (a game that knows a winning move lists it first, as Pentago
 * does with a placement that makes five), the others in random order.
 *
 * - **Rewards** are player 0's score in [0, 1]: 1 for a win, 0 for a loss, 0.5 for a
 *   draw. A finished game without a winner but with a margin (2048's score) scores
 *   `0.5 + 0.5 * margin / M`, M the largest |margin| seen so far in the search, so the
 *   margin still steers the search. A playout longer than `maxPlayoutPlies` stops and
 *   scores `0.5 + 0.5 * tanh(value / 1000)` from the game's heuristic.
 * - **Proofs** (MCTS-Solver): a finished position is proven; a player node is proven
 *   when one child is proven best for its mover, or when all its children are proven;
 *   a chance node when all its outcomes are. An iteration that reaches a proven node
 *   backs up its proven result, and a proven win is always played.
 * - **Score bounds** (score-bounded MCTS): every node also keeps bounds on player 0's
 *   exact final score, where any win ranks above any draw above any loss, then the
 *   bigger margin (a Kalah win by 5 above a win by 1), then the quicker win or the slower
 *   loss. The bounds meet when a subtree is solved. Once the root's result is proven,
 *   iterations go on below proven nodes to settle which proven move is best: a solved
 *   child, or one whose bounds say it cannot change its parent's score, is skipped.
 * - **The end**: the search stops at its budget, or early when the root's result is
 *   proven and its move settled by the bounds (one move's lower bound is at least every
 *   other move's upper bound: the best result, margin and distance included, is proven).
 *   A position won with equal margins everywhere (tic-tac-toe) may use more of the budget
 *   than a first proof did, to show that no move wins bigger or sooner.
 * - **The result**: `move` is a proven win first (the biggest proven margin first), a
 *   proven loss last (the smallest loss first), else a move the bounds prove best, else
 *   the most visited; `value` is that move's mean reward r as `1000 * (2r - 1)`, so
 *   ±1000 is a sure result and 0 even, or `±WIN` when it is proven won or lost; `pv`
 *   follows the best children down to a chance node or a leaf of the tree; `nodes` is
 *   the number of iterations (one playout each, so nodes/s is playouts/s); `depth` is
 *   the deepest node the tree reached; `exact` says the root's result is proven.
 * - **Budget**: `options.iterations` is the number of iterations (`mcts:2000` in a player
 *   spec), `options.timeMs` the time (`mcts:1s`); with neither, 1000 iterations.
 *   `options.depth` (plies) does not apply. `options.rng` seeds it (players pass one
 *   drawn from Effect's `Random`), else a fixed seed: the same seed and iteration budget
 *   give the same search.
 *
 * @module
 */
import {
  CHANCE,
  type Chance,
  type Game,
  type Outcome,
  pickChance,
  type ToMove,
  WIN,
} from "../game.ts";
import { makeRng, type Rng } from "../rng.ts";
import type { SearchOptions, SearchResult } from "./types.ts";
import { PROGRESS_MS } from "./control.ts";

/** Tuning of the search beyond the common options. */
export interface MctsParams {
  /** The UCB1 exploration constant (rewards are in [0, 1]); default `DEFAULT_EXPLORATION`. */
  readonly exploration?: number;
  /** Stop adding nodes beyond this many (memory bound); default 2,000,000. */
  readonly maxNodes?: number;
  /** A playout stops after this many plies and scores the game's heuristic; default 10,000. */
  readonly maxPlayoutPlies?: number;
}

/** The default UCB1 exploration constant. */
export const DEFAULT_EXPLORATION = 1.0;

/** The iterations run when the options give no budget. */
export const DEFAULT_ITERATIONS = 1000;

/** The scale of reported values: a sure win for player 0 is +1000 (unless proven). */
export const MCTS_SCALE = 1000;

/** Margins beyond this are capped in scores, so that results never overlap. */
const MARGIN_CAP = 2 ** 22;

/** A margin's unit in scores: room for the distance in plies below it. */
const PLIES = 2 ** 16;

/**
 * A finished game's exact score from player 0's view, for the bounds: every win above
 * every draw above every loss; within the same result the bigger margin, then the
 * quicker win or the slower loss (`ply`, the distance from the root).
 */
const scoreOf = (o: Outcome | undefined, ply: number): number => {
  if (o === undefined) return 0;
  const m = Math.max(-MARGIN_CAP, Math.min(MARGIN_CAP, o.margin)) * PLIES;
  const d = Math.min(ply, PLIES - 1);
  return o.winner === 0 ? WIN + m - d : o.winner === 1 ? -WIN + m + d : m;
};

interface Node<S> {
  readonly move: number;
  /** The probability of this node's move at a chance node (1 under a player). */
  readonly p: number;
  readonly state: S;
  readonly toMove: ToMove;
  readonly children: Node<S>[];
  /** Player nodes: the moves not yet expanded. */
  readonly untried: number[];
  /** Chance nodes: the outcomes. */
  readonly chances: readonly Chance[] | null;
  readonly terminal: boolean;
  visits: number;
  /** The sum of player 0's rewards. */
  total: number;
  /** Player 0's proven reward (0, 0.5, 1, or a chance mean), NaN while unknown. */
  proven: number;
  /** Lower bound of player 0's exact score (`scoreOf`); -Infinity while unknown. */
  lo: number;
  /** Upper bound of player 0's exact score; equal to `lo` once the subtree is solved. */
  hi: number;
}

/**
 * Monte Carlo tree search from `state` (see the module notes for budget, rewards and
 * what the result means).
 *
 * @example Finds tic-tac-toe's winning move
 * ```ts
 * import { mctsSearch } from "./mcts.ts";
 * import { playAll } from "../game.ts";
 * import tictactoe from "../../plugins/tictactoe.ts";
 * const game = tictactoe.create({});
 * // X on a3 and b3 (cells 0 and 1), O on a2 and b2: X wins on c3 (cell 2).
 * const s = playAll(game, game.initial(), [0, 3, 1, 4]);
 * const r = mctsSearch(game, s, { iterations: 500 });
 * if (r.move !== 2) throw new Error(`expected c3, got ${r.move}`);
 * ```
 */
export const mctsSearch = <S>(
  game: Game<S>,
  state: S,
  options: SearchOptions = {},
  params: MctsParams = {},
): SearchResult => {
  const start = performance.now();
  const rng: Rng = options.rng ?? makeRng(0x5eed);
  const c = params.exploration ?? DEFAULT_EXPLORATION;
  const maxNodes = params.maxNodes ?? 2_000_000;
  const maxPlayout = params.maxPlayoutPlies ?? 10_000;
  const maxIterations = options.iterations ??
    (options.timeMs === undefined ? DEFAULT_ITERATIONS : Infinity);
  const deadline = options.timeMs === undefined ? Infinity : start + options.timeMs;
  const shouldStop = options.shouldStop;
  const report = options.onIteration;
  let maxMargin = 0;
  let nodeCount = 0;
  let deepest = 0;

  const rewardOf = (s: S): number => {
    const o = game.outcome(s);
    if (o === undefined) return 0.5;
    if (o.winner === 0) return 1;
    if (o.winner === 1) return 0;
    if (o.margin === 0) return 0.5;
    const m = Math.abs(o.margin);
    if (m > maxMargin) maxMargin = m;
    return 0.5 + 0.5 * o.margin / maxMargin;
  };

  const makeNode = (move: number, p: number, s: S, ply: number): Node<S> => {
    nodeCount++;
    const tm = game.toMove(s);
    const chance = tm === CHANCE;
    const untried = chance ? [] : game.moves(s).slice();
    const terminal = !chance && untried.length === 0;
    let proven = NaN, lo = -Infinity, hi = Infinity;
    if (terminal) {
      const o = game.outcome(s);
      if (o !== undefined && (o.winner !== null || o.margin === 0)) proven = rewardOf(s);
      lo = hi = scoreOf(o, ply);
    }
    return {
      move,
      p,
      state: s,
      toMove: tm,
      children: [],
      untried,
      chances: chance ? game.chances(s) : null,
      terminal,
      visits: 0,
      total: 0,
      proven,
      lo,
      hi,
    };
  };

  /** Tries to prove a node from its children; true when it became proven. */
  const prove = (n: Node<S>): boolean => {
    if (!Number.isNaN(n.proven)) return false;
    if (n.chances !== null) {
      if (n.children.length < n.chances.length) return false;
      let v = 0;
      for (const ch of n.children) {
        if (Number.isNaN(ch.proven)) return false;
        v += ch.p * ch.proven;
      }
      n.proven = v;
      return true;
    }
    const max = n.toMove === 0;
    const best = max ? 1 : 0;
    let all = n.untried.length === 0, bound = max ? -Infinity : Infinity;
    for (const ch of n.children) {
      if (ch.proven === best) {
        n.proven = best;
        return true;
      }
      if (Number.isNaN(ch.proven)) all = false;
      else bound = max ? Math.max(bound, ch.proven) : Math.min(bound, ch.proven);
    }
    if (!all) return false;
    n.proven = bound;
    return true;
  };

  /** Recomputes a node's score bounds from its children; true when they changed. */
  const tighten = (n: Node<S>): boolean => {
    let lo: number, hi: number;
    if (n.chances !== null) {
      if (n.children.length < n.chances.length) return false;
      lo = 0;
      hi = 0;
      for (const ch of n.children) {
        lo += ch.p * ch.lo;
        hi += ch.p * ch.hi;
      }
    } else if (n.toMove === 0) {
      lo = -Infinity;
      hi = n.untried.length > 0 ? Infinity : -Infinity;
      for (const ch of n.children) {
        if (ch.lo > lo) lo = ch.lo;
        if (ch.hi > hi) hi = ch.hi;
      }
    } else {
      lo = n.untried.length > 0 ? -Infinity : Infinity;
      hi = Infinity;
      for (const ch of n.children) {
        if (ch.lo < lo) lo = ch.lo;
        if (ch.hi < hi) hi = ch.hi;
      }
    }
    if (lo === n.lo && hi === n.hi) return false;
    n.lo = lo;
    n.hi = hi;
    return true;
  };

  /**
   * UCB1 from the mover's view. When `prune` (refining a proven root), only among the
   * children worth searching: not solved, and able to change this node's score by their
   * bounds. `undefined` when there is none.
   */
  const select = (n: Node<S>, prune: boolean): Node<S> | undefined => {
    const logN = Math.log(n.visits);
    const mover0 = n.toMove === 0;
    let best: Node<S> | undefined, bestScore = -Infinity;
    for (const ch of n.children) {
      if (prune && (ch.lo === ch.hi || (mover0 ? ch.hi <= n.lo : ch.lo >= n.hi))) continue;
      // The mover's mean reward (player 1's as visits - total, so that colours mirror exactly).
      const q = Number.isNaN(ch.proven)
        ? (mover0 ? ch.total : ch.visits - ch.total) / ch.visits
        : mover0
        ? ch.proven
        : 1 - ch.proven;
      const score = q + c * Math.sqrt(logN / ch.visits);
      if (score > bestScore) {
        bestScore = score;
        best = ch;
      }
    }
    return best;
  };

  const playout = (s0: S): number => {
    let s = s0;
    for (let ply = 0; ply < maxPlayout; ply++) {
      const tm = game.toMove(s);
      if (tm === CHANCE) {
        s = game.play(s, pickChance(game.chances(s), rng.next()));
        continue;
      }
      const ms = game.moves(s);
      if (ms.length === 0) return rewardOf(s);
      s = game.play(s, ms[rng.int(ms.length)]);
    }
    const v = game.value(s);
    return v >= WIN / 2 ? 1 : v <= -WIN / 2 ? 0 : 0.5 + 0.5 * Math.tanh(v / 1000);
  };

  /**
   * The child whose lower bound (from the mover's view) is at least every other child's
   * upper bound, at a fully expanded player node: the bounds prove it best.
   */
  const settledChild = (n: Node<S>): Node<S> | undefined => {
    if (n.chances !== null || n.untried.length > 0 || n.children.length === 0) return undefined;
    const mover0 = n.toMove === 0;
    let best = n.children[0];
    for (const ch of n.children) if (mover0 ? ch.lo > best.lo : ch.hi < best.hi) best = ch;
    for (const ch of n.children) {
      if (ch !== best && (mover0 ? ch.hi > best.lo : ch.lo < best.hi)) return undefined;
    }
    return best;
  };

  // The move: a proven win first (the biggest proven margin first), a proven loss last
  // (the smallest loss first), at a proven node a child with its value, then a child the
  // bounds prove best, else the most visited. Ties: the most visited, then the first.
  const bestChild = (n: Node<S>): Node<S> | undefined => {
    const mover0 = n.toMove === 0;
    const win = mover0 ? 1 : 0;
    const settled = settledChild(n);
    let best: Node<S> | undefined;
    let bTier = -1, bLo = -Infinity, bHi = -Infinity, bVisits = -1;
    for (const ch of n.children) {
      const tier = ch.proven === win
        ? 4
        : ch.proven === 1 - win
        ? 0
        : !Number.isNaN(n.proven) && ch.proven === n.proven
        ? 3
        : ch === settled
        ? 2
        : 1;
      // Proven wins and losses are ordered by their scores (the mover's view) first.
      const byScore = tier === 4 || tier === 0;
      const lo = !byScore ? 0 : mover0 ? ch.lo : -ch.hi;
      const hi = !byScore ? 0 : mover0 ? ch.hi : -ch.lo;
      const better = tier !== bTier
        ? tier > bTier
        : lo !== bLo
        ? lo > bLo
        : hi !== bHi
        ? hi > bHi
        : ch.visits > bVisits;
      if (better) {
        best = ch;
        bTier = tier;
        bLo = lo;
        bHi = hi;
        bVisits = ch.visits;
      }
    }
    return best;
  };
  const toValue = (n: Node<S>): number => {
    if (n.proven === 1) return WIN;
    if (n.proven === 0) return -WIN;
    const r = Number.isNaN(n.proven) ? (n.visits > 0 ? n.total / n.visits : 0.5) : n.proven;
    return MCTS_SCALE * (2 * r - 1);
  };

  /** What the search has found so far (its result, or a progress report). */
  const snapshot = (): SearchResult => {
    const pv: number[] = [];
    let first: Node<S> | undefined;
    if (root.chances === null) {
      for (let n: Node<S> | undefined = root; n !== undefined && n.chances === null;) {
        const ch = bestChild(n);
        if (ch === undefined || (ch.visits === 0 && Number.isNaN(ch.proven))) break;
        if (n === root) first = ch;
        pv.push(ch.move);
        n = ch;
      }
    }
    const rootMoves = root.chances === null ? game.moves(state) : [];
    const move = first?.move ?? rootMoves[0];
    return {
      move,
      value: first !== undefined ? toValue(first) : toValue(root),
      pv: first === undefined && move !== undefined ? [move] : pv,
      nodes: iterations,
      depth: deepest,
      exact: !Number.isNaN(root.proven),
      timeMs: performance.now() - start,
      ...(first !== undefined ? { visits: first.visits } : {}),
    };
  };

  /**
   * True when nothing more can change the root's result or move: its result is proven,
   * and the bounds settle its move (or it is over).
   */
  const finished = (): boolean =>
    root.terminal ||
    (!Number.isNaN(root.proven) && (root.lo === root.hi || settledChild(root) !== undefined));

  const root = makeNode(-1, 1, state, 0);
  const path: Node<S>[] = [];
  let iterations = 0;
  let reported = start;
  let done = finished();
  while (iterations < maxIterations && !done) {
    if ((iterations & 15) === 0) {
      const now = deadline !== Infinity || report !== undefined ? performance.now() : 0;
      if (now >= deadline || (shouldStop !== undefined && shouldStop())) break;
      // Progress about every second: the playouts so far and the best move's visits.
      if (report !== undefined && now - reported >= PROGRESS_MS) {
        reported = now;
        report(snapshot());
      }
    }
    iterations++;
    path.length = 0;
    let n = root;
    path.push(n);
    // Until the root's result is proven, an iteration stops at a proven node (MCTS-Solver);
    // then it goes on below them, to refine the proven results' margins and distances.
    const refining = !Number.isNaN(root.proven);
    // Selection and expansion, down to a new node or a solved one.
    while (refining ? n.lo !== n.hi : !n.terminal && Number.isNaN(n.proven)) {
      let next: Node<S> | undefined;
      if (n.chances !== null) {
        const m = pickChance(n.chances, rng.next());
        next = n.children.find((ch) => ch.move === m);
        if (next === undefined) {
          if (nodeCount >= maxNodes) break;
          const p = n.chances.find((x) => x.move === m)!.p;
          next = makeNode(m, p, game.play(n.state, m), path.length);
          n.children.push(next);
          n = next;
          path.push(n);
          break;
        }
      } else if (n.untried.length > 0) {
        if (nodeCount >= maxNodes) break;
        // The first listed move first (a game lists a winning move first when it knows
        // one, as Pentago does), then the others in random order.
        const i = n.children.length === 0 ? 0 : rng.int(n.untried.length);
        const m = n.untried[i];
        n.untried[i] = n.untried[n.untried.length - 1];
        n.untried.pop();
        n = makeNode(m, 1, game.play(n.state, m), path.length);
        path[path.length - 1].children.push(n);
        path.push(n);
        break;
      } else {
        next = select(n, refining);
        if (next === undefined) break;
      }
      n = next;
      path.push(n);
    }
    const last = path.length - 1;
    if (last > deepest) deepest = last;
    let reward = !Number.isNaN(n.proven)
      ? n.proven
      : n.terminal
      ? rewardOf(n.state)
      : playout(n.state);
    // Backpropagation, with proofs and bounds carried up while they change.
    let proving = !Number.isNaN(n.proven);
    let bounding = n.lo === n.hi;
    let recheck = false;
    for (let i = last; i >= 0; i--) {
      const p = path[i];
      // A node proven before this iteration backs up its proven result.
      if (!Number.isNaN(p.proven)) {
        reward = p.proven;
        if (i < last) proving = false;
      } else if (proving && i < last) proving = prove(p);
      if (bounding && i < last) bounding = tighten(p);
      if (bounding && i <= 1) recheck = true;
      p.visits++;
      p.total += reward;
    }
    if (recheck || (!refining && !Number.isNaN(root.proven))) done = finished();
  }

  return snapshot();
};
