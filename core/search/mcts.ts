/**
 * Monte Carlo tree search (UCT) over the protocol, for every game: plain TypeScript,
 * seeded, with an iteration or a time budget.
 *
 * Each iteration walks down the tree choosing children by UCB1 from the mover's point
 * of view (`toMove`, so extra turns need nothing special), samples chance nodes by their
 * probabilities, adds one new node, plays uniformly random moves from it to the end of
 * the game, and adds the reward to every node on the way back. A node's first listed
 * move is expanded first (a game that knows a winning move lists it first, as Pentago
 * does with a placement that makes five), the others in random order, unless a move
 * wins at once (decisive moves, below).
 *
 * - **Rewards** are player 0's score in [0, 1]: 1 for a win, 0 for a loss, 0.5 for a
 *   draw. A finished game without a winner but with a margin (2048's score) scores
 *   `0.5 + 0.5 * margin / M`, M the largest |margin| seen so far in the search, so the
 *   margin still steers the search. A playout longer than `maxPlayoutPlies` stops and
 *   scores `0.5 + 0.5 * tanh(value / 1000)` from the game's heuristic.
 * - **Proofs** (MCTS-Solver: Winands, Björnsson & Saito 2008, "Monte-Carlo Tree Search
 *   Solver", Computers and Games): a finished position is proven; a player node is
 *   proven when one child is proven best for its mover, or when all its children are
 *   proven; a chance node when all its outcomes are. An iteration that reaches a proven
 *   node backs up its proven result (a proven position is never searched again until
 *   the root is proven), selection never enters a child proven lost for the mover while
 *   another is not, and a proven win is always played.
 * - **Decisive and anti-decisive moves** (Teytaud & Teytaud 2010, "On the huge benefit of
 *   decisive moves in Monte-Carlo Tree Search algorithms", IEEE CIG): a player node is
 *   scanned once, when the search first expands it (the root at once), for a move that
 *   wins at once (its result is over with the mover the winner); if there is one, it is
 *   expanded first, so the node is proven won in that iteration. Each new child whose
 *   mover is the other player is checked as it is made against the opponent's recent
 *   winning moves (killer moves), and scanned in full when it is its parent's first
 *   child (a probe) or a child of the root. A child the opponent wins at once is proven
 *   lost (its winning reply attached under it, so that its bounds hold), and its parent
 *   is threatened: its untried moves are checked at once, against the killer moves and
 *   then in full until two are found safe. The moves after which the opponent wins at
 *   once become proven-lost children, so only the others are tried (when every move
 *   loses, the parent is proven lost). A child found lost later, when it is first
 *   expanded, threatens its parent the same way. Moves that give the mover an extra turn
 *   or lead to a chance node are not checked (the opponent does not move next). This
 *   costs about two scans of the moves per node expanded (not one per playout): a few
 *   per cent of the playout rate in quiet positions, more where threats abound (the
 *   rates: `deno task bench tactics --rates`).
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
  other,
  type Outcome,
  pickChance,
  type Player,
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
  /** True once the untried moves were scanned for a win at once (`decisive`). */
  scanned: boolean;
  /** True once the node was threatened and its untried moves checked (`restrict`). */
  restricted: boolean;
  /** After `restrict`: the untried moves checked to leave no win at once. */
  safe: Set<number> | null;
}

/**
 * Monte Carlo tree search from `state` (see the module notes for budget, rewards and
 * what the result means).
 *
 * @example Finds tic-tac-toe's winning move
 * ```ts
 * import { mctsSearch } from "./mcts.ts";
 * import { playAll } from "../game.ts";
 * import tictactoe from "../../plugins/tictactoe/mod.ts";
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
      scanned: false,
      restricted: false,
      safe: null,
    };
  };

  // -- Decisive and anti-decisive moves (Teytaud & Teytaud 2010).

  /** Recent moves that won at once, per player: tried first by `decisive`. */
  const killers: [number[], number[]] = [[], []];
  const KILLERS = 4;
  /** A threatened node's full checks of its moves stop once this many are found safe. */
  const SAFE_CHECKS = 2;

  /** True when `m` ends the game at once with `p` the winner. */
  const winsAtOnce = (s: S, m: number, p: Player): boolean =>
    game.outcome(game.play(s, m))?.winner === p;

  /**
   * Scans a player node's untried moves for one that wins at once for its mover, the
   * killer moves first: its index in `untried`, or -1. Marks the node scanned, unless
   * `full` is false: then only the killer moves are tried.
   */
  const decisive = (n: Node<S>, full = true): number => {
    if (full) n.scanned = true;
    if (n.chances !== null) return -1;
    const p = n.toMove as Player;
    const u = n.untried, ks = killers[p];
    for (let k = 0; k < ks.length; k++) {
      const i = u.indexOf(ks[k]);
      if (i >= 0 && winsAtOnce(n.state, u[i], p)) {
        if (k > 0) ks.unshift(ks.splice(k, 1)[0]);
        return i;
      }
    }
    if (!full) return -1;
    for (let i = 0; i < u.length; i++) {
      if (ks.includes(u[i]) || !winsAtOnce(n.state, u[i], p)) continue;
      ks.unshift(u[i]);
      if (ks.length > KILLERS) ks.pop();
      return i;
    }
    return -1;
  };

  /** Expands `n.untried[i]` (a win at once) under `n`, which is then proven. */
  const attachWin = (n: Node<S>, i: number, ply: number): void => {
    const m = n.untried[i];
    n.untried[i] = n.untried[n.untried.length - 1];
    n.untried.pop();
    n.children.push(makeNode(m, 1, game.play(n.state, m), ply));
    prove(n);
    tighten(n);
  };

  /**
   * True when child `ch` of `n` (just made, at `ply`) lets the opponent win at once: then
   * it is proven lost, its winning reply attached. Scans it (only the killer moves unless
   * `full`) only when the opponent moves next.
   */
  const lostAtOnce = (n: Node<S>, ch: Node<S>, ply: number, full = true): boolean => {
    if (ch.terminal || ch.chances !== null || ch.toMove === n.toMove) return false;
    const w = decisive(ch, full);
    if (w < 0) return false;
    attachWin(ch, w, ply + 1);
    return true;
  };

  /**
   * The anti-decisive rule: `n` (at `ply`) is threatened (a child lets the opponent win
   * at once), so its untried moves are checked now, first against the opponent's killer
   * moves (the winning replies just found), then the others in full until `SAFE_CHECKS`
   * of them are found safe (more would mean no forcing threat; the rest stay unchecked).
   * The moves after which the opponent wins at once become proven-lost children; the
   * ones found safe stay untried, marked so. Moves after which the same player moves
   * again, or chance, or the game is over, stay untried unchecked.
   */
  const restrict = (n: Node<S>, ply: number): void => {
    if (n.restricted || n.chances !== null || n.untried.length === 0) return;
    n.restricted = true;
    const u = n.untried;
    const q = other(n.toMove as Player);
    const lose = (ch: Node<S>) => {
      n.children.push(ch);
      const i = u.indexOf(ch.move);
      u[i] = u[u.length - 1];
      u.pop();
    };
    const left: Node<S>[] = [];
    for (const m of u.slice()) {
      const t = game.play(n.state, m);
      if (game.toMove(t) !== q || game.outcome(t) !== undefined) continue;
      const ch = makeNode(m, 1, t, ply + 1);
      if (lostAtOnce(n, ch, ply + 1, false)) lose(ch);
      else left.push(ch);
    }
    // The nodes of moves that stay untried are made again when they are expanded.
    let dropped = left.length;
    const safe = new Set<number>();
    for (const ch of left) {
      if (safe.size >= SAFE_CHECKS) break;
      if (!lostAtOnce(n, ch, ply + 1)) safe.add(ch.move);
      else {
        lose(ch);
        dropped--;
      }
    }
    n.safe = safe;
    nodeCount -= dropped;
    retighten(ply);
  };

  /**
   * Bounds changed below the node at `ply` on the current path outside the backup:
   * tightens it and its ancestors while they change (the root's change is rechecked).
   */
  const retighten = (ply: number): void => {
    for (let j = ply; j >= 0 && tighten(path[j]); j--) if (j <= 1) boundsMoved = true;
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
    const lost = mover0 ? 0 : 1;
    let best: Node<S> | undefined, bestScore = -Infinity, bestLost = true;
    for (const ch of n.children) {
      if (prune && (ch.lo === ch.hi || (mover0 ? ch.hi <= n.lo : ch.lo >= n.hi))) continue;
      // MCTS-Solver: a child proven lost for the mover only when every other one is too.
      const isLost = !prune && ch.proven === lost;
      if (isLost && !bestLost) continue;
      // The mover's mean reward (player 1's as visits - total, so that colours mirror exactly).
      const q = Number.isNaN(ch.proven)
        ? (mover0 ? ch.total : ch.visits - ch.total) / ch.visits
        : mover0
        ? ch.proven
        : 1 - ch.proven;
      const score = q + c * Math.sqrt(logN / ch.visits);
      if (score > bestScore || (bestLost && !isLost)) {
        bestScore = score;
        best = ch;
        bestLost = isLost;
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
    let bTier = -1, bFirst = -Infinity, bThen = -Infinity, bVisits = -1;
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
      // Proven wins and losses are ordered by their scores (the mover's view) first: a
      // win by its lower bound (the least it surely gets), then its upper bound; a loss
      // by its upper bound (the slowest or smallest loss it may still be: a move that
      // surely loses at once ranks below one whose refutation is not settled), then its
      // lower bound.
      const byScore = tier === 4 || tier === 0;
      const low = mover0 ? ch.lo : -ch.hi, high = mover0 ? ch.hi : -ch.lo;
      const first = !byScore ? 0 : tier === 4 ? low : high;
      const then = !byScore ? 0 : tier === 4 ? high : low;
      const better = tier !== bTier
        ? tier > bTier
        : first !== bFirst
        ? first > bFirst
        : then !== bThen
        ? then > bThen
        : ch.visits > bVisits;
      if (better) {
        best = ch;
        bTier = tier;
        bFirst = first;
        bThen = then;
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
  /** The root's bounds may have changed outside a backup (`retighten`). */
  let boundsMoved = false;
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
        const ply = path.length; // the new child's distance from the root
        // Decisive moves: a node's first expansion looks for a win at once and makes it
        // first. A node won at once for its mover is lost for its parent's mover, if that
        // is the other player: the parent is threatened.
        let i = -1;
        if (!n.scanned) {
          i = decisive(n);
          const up = ply >= 2 ? path[ply - 2] : undefined;
          if (i >= 0 && up !== undefined && up.chances === null && up.toMove !== n.toMove) {
            restrict(up, ply - 2);
          }
        }
        // Else the first listed move first (a game lists a winning move first when it
        // knows one, as Pentago does), then the others in random order.
        const first = n.children.length === 0;
        if (i < 0) i = first ? 0 : rng.int(n.untried.length);
        const m = n.untried[i];
        n.untried[i] = n.untried[n.untried.length - 1];
        n.untried.pop();
        const parent = n;
        n = makeNode(m, 1, game.play(parent.state, m), ply);
        parent.children.push(n);
        path.push(n);
        // Anti-decisive moves: a new child is checked against the opponent's killer
        // moves; a node's first child (the probe) and the root's children are scanned in
        // full. One that the opponent wins at once is proven lost, its parent threatened.
        if (parent.safe !== null && parent.safe.has(m)) n.scanned = true;
        else if (lostAtOnce(parent, n, ply, first || parent === root)) {
          retighten(ply - 1);
          restrict(parent, ply - 1);
        }
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
    let recheck = boundsMoved;
    boundsMoved = false;
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
