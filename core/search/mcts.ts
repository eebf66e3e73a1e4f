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
 *   a chance node when all its outcomes are. Proven nodes are not simulated again, a
 *   proven root ends the search early, and a proven win is always played.
 * - **The result**: `move` is the most visited root move (a proven win first, a proven
 *   loss last); `value` is that move's mean reward r as `1000 * (2r - 1)`, so ±1000 is a
 *   sure result and 0 even, or `±WIN` when it is proven won or lost; `pv` follows the
 *   most visited children down to a chance node or a leaf of the tree; `nodes` is the
 *   number of iterations (one playout each, so nodes/s is playouts/s); `depth` is the
 *   deepest node the tree reached; `exact` says the root is proven.
 * - **Budget**: `options.depth` is the number of iterations (`mcts:2000`), `options.timeMs`
 *   the time (`mcts:1s`); with neither, 1000 iterations. `options.rng` seeds it (players
 *   pass one drawn from Effect's `Random`), else a fixed seed: the same seed and
 *   iteration budget give the same search.
 *
 * @module
 */
import { CHANCE, type Chance, type Game, pickChance, type ToMove, WIN } from "../game.ts";
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

interface Node<S> {
  readonly move: number;
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
  /** Player 0's proven score (0, 0.5, 1, or a chance mean), NaN while unknown. */
  proven: number;
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
 * const r = mctsSearch(game, s, { depth: 500 });
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
  const maxIterations = options.depth ??
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

  const makeNode = (move: number, s: S): Node<S> => {
    nodeCount++;
    const tm = game.toMove(s);
    const chance = tm === CHANCE;
    const untried = chance ? [] : game.moves(s).slice();
    const terminal = !chance && untried.length === 0;
    let proven = NaN;
    if (terminal) {
      const o = game.outcome(s);
      if (o !== undefined && (o.winner !== null || o.margin === 0)) proven = rewardOf(s);
    }
    return {
      move,
      state: s,
      toMove: tm,
      children: [],
      untried,
      chances: chance ? game.chances(s) : null,
      terminal,
      visits: 0,
      total: 0,
      proven,
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
        const p = n.chances.find((x) => x.move === ch.move)!.p;
        v += p * ch.proven;
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

  const select = (n: Node<S>): Node<S> => {
    const logN = Math.log(n.visits);
    const mover0 = n.toMove === 0;
    let best = n.children[0], bestScore = -Infinity;
    for (const ch of n.children) {
      const q0 = Number.isNaN(ch.proven) ? ch.total / ch.visits : ch.proven;
      const q = mover0 ? q0 : 1 - q0;
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

  // The move: a proven win first (at a proven node, a child with its value), a proven
  // loss last, else the most visited.
  const rank = (n: Node<S>, ch: Node<S>): number => {
    const best = n.toMove === 0 ? 1 : 0;
    if (ch.proven === best) return Infinity;
    if (!Number.isNaN(n.proven) && ch.proven === n.proven) return 1e15 + ch.visits;
    if (ch.proven === 1 - best) return -1 / (1 + ch.visits);
    return ch.visits;
  };
  const bestChild = (n: Node<S>): Node<S> | undefined => {
    let best: Node<S> | undefined, bestRank = -Infinity;
    for (const ch of n.children) {
      const r = rank(n, ch);
      if (r > bestRank) {
        bestRank = r;
        best = ch;
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

  const root = makeNode(-1, state);
  const path: Node<S>[] = [];
  let iterations = 0;
  let reported = start;
  while (iterations < maxIterations && Number.isNaN(root.proven) && !root.terminal) {
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
    let reward = NaN;
    // Selection and expansion.
    while (true) {
      if (!Number.isNaN(n.proven)) {
        reward = n.proven;
        break;
      }
      if (n.terminal) {
        reward = rewardOf(n.state);
        break;
      }
      if (n.chances !== null) {
        const m = pickChance(n.chances, rng.next());
        let child = n.children.find((ch) => ch.move === m);
        if (child === undefined) {
          if (nodeCount >= maxNodes) break;
          child = makeNode(m, game.play(n.state, m));
          n.children.push(child);
          n = child;
          path.push(n);
          break;
        }
        n = child;
        path.push(n);
        continue;
      }
      if (n.untried.length > 0) {
        if (nodeCount >= maxNodes) break;
        // The first listed move first (a game lists a winning move first when it knows
        // one, as Pentago does), then the others in random order.
        const i = n.children.length === 0 ? 0 : rng.int(n.untried.length);
        const m = n.untried[i];
        n.untried[i] = n.untried[n.untried.length - 1];
        n.untried.pop();
        const child = makeNode(m, game.play(n.state, m));
        n.children.push(child);
        n = child;
        path.push(n);
        break;
      }
      n = select(n);
      path.push(n);
    }
    if (path.length - 1 > deepest) deepest = path.length - 1;
    if (Number.isNaN(reward)) reward = Number.isNaN(n.proven) ? playout(n.state) : n.proven;
    // Backpropagation, with proofs carried up while they hold.
    let proving = !Number.isNaN(n.proven);
    for (let i = path.length - 1; i >= 0; i--) {
      const p = path[i];
      p.visits++;
      p.total += reward;
      if (proving && i < path.length - 1) proving = prove(p);
    }
  }

  return snapshot();
};
