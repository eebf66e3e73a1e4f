/**
 * Alpha-beta search over the protocol (fail-soft), with iterative deepening, a bounded
 * transposition table, move ordering (the game's hook, the table's move, two killer
 * moves per ply) and a time budget. The same engine is the fast expectimax: with
 * `chance = "expect"`, chance nodes take the probability-weighted mean of their
 * children, optionally treating improbable branches as leaves.
 *
 * Agreement with plain minimax is exact: a table entry cuts the search only when it was
 * searched to the same depth, or its subtree reached only ends of the game (then it is
 * valid at every greater depth too).
 *
 * @module
 */
import { byDistance, CHANCE, type FastGame, type Game, WIN_THRESHOLD } from "../game.ts";
import { engineBase, POLL_MASK, type Pv, pvToArray, searchRoot, SearchStopped } from "./control.ts";
import { COMPLETE, EXACT, LOWER, TranspositionTable, UPPER } from "./tt.ts";
import type { ChanceMode, SearchOptions, SearchResult } from "./types.ts";

const MAX_DEPTH = 30000;
/** Nodes at least this far from the horizon take part in the busy marks (`SearchOptions.busy`). */
const BUSY_DEPTH = 3;

/** Converts a distance-adjusted decisive value to distance-from-this-node form for storage. */
const toNode = (v: number, ply: number): number =>
  v >= WIN_THRESHOLD ? v + ply : v <= -WIN_THRESHOLD ? v - ply : v;
/** Converts a stored decisive value back to distance-from-the-root form. */
const toRoot = (v: number, ply: number): number =>
  v >= WIN_THRESHOLD ? v - ply : v <= -WIN_THRESHOLD ? v + ply : v;
const same = (v: number, _ply: number): number => v;

/**
 * Stores a searched node in the table: `best`, found in the window (`a0`, `b0`) by the
 * maximizer (`max`) or the minimizer, is an upper bound, a lower bound or exact; `complete`
 * when its subtree reached only ends of the game. `value` is `best` as the table keeps it.
 */
const storeNode = (
  tt: TranspositionTable,
  key: number,
  depth: number,
  max: boolean,
  best: number,
  a0: number,
  b0: number,
  complete: boolean,
  value: number,
  move: number,
): void => {
  const kind = max
    ? (best <= a0 ? UPPER : best >= b0 ? LOWER : EXACT)
    : (best >= b0 ? LOWER : best <= a0 ? UPPER : EXACT);
  tt.store(key, Math.min(depth, MAX_DEPTH), kind | (complete ? COMPLETE : 0), value, move);
};

/**
 * The alpha-beta node search, reusable for one root or many (workers run it per task);
 * the root's driver (`rootIteration` in `control.ts`) takes it as it is.
 */
export interface AlphaBetaEngine<S> {
  /**
   * Searches `s` to `depth` plies within the window (alpha, beta); `ply` is its distance
   * from the root. Fail-soft: a value v <= alpha is an upper bound of the depth-limited
   * minimax value, v >= beta a lower bound, and otherwise v is that value.
   */
  readonly search: (s: S, depth: number, alpha: number, beta: number, ply: number) => number;
  /** Nodes visited so far. */
  readonly counter: { nodes: number };
  /** The line found by the last `search` (extended from the table). */
  readonly pv: (from: S, depth: number) => number[];
  /** True when the last `search` reached no depth cut-off (its value is exact). */
  readonly exact: () => boolean;
  /** True when a search of this engine has met a chance node (see `SearchResult.chance`). */
  readonly chance: () => boolean;
  /** The transposition table in use, if any. */
  readonly tt: TranspositionTable | undefined;
  /** Remembers a root move to try first next time (when there is no table). */
  readonly preferAtRoot: (move: number) => void;
}

/**
 * Builds the alpha-beta (or expectimax) engine for a game and options; `start` is the
 * clock origin of the time budget. Plain minimax keeps its own loop (`minimaxEngine`,
 * which starts as this one does, and `minimaxSearch` as `alphabetaSearch`): this loop's
 * extra branches cost it 17-22% (the figures are there).
 *
 * @example A null window around 0 at the start of tic-tac-toe: the draw comes back exact
 * ```ts
 * import { alphabetaEngine } from "./alphabeta.ts";
 * import tictactoe from "../../plugins/tictactoe/mod.ts";
 * const game = tictactoe.create({});
 * const engine = alphabetaEngine(game, { tt: false });
 * const v = engine.search(game.initial(), 9, -0.5, 0.5, 0);
 * if (v !== 0) throw new Error(`expected the draw, got ${v}`);
 * ```
 */
export const alphabetaEngine = <S>(
  game: Game<S>,
  options: SearchOptions = {},
  chance: ChanceMode = "min",
  start: number = performance.now(),
): AlphaBetaEngine<S> => {
  if (game.fast !== undefined) return cursorEngine(game, game.fast(), options, start);
  const { counter, stop, value, ended } = engineBase(game, options, start);
  const distance = options.distance === true;
  const ordering = options.ordering !== false;
  const minP = options.minProbability ?? 0;
  // Only distance-adjusted values depend on the ply they were found at.
  const toTable = distance ? toNode : same;
  const fromTable = distance ? toRoot : same;
  const keyOf = game.key?.bind(game);
  const tt = options.tt === false || keyOf === undefined
    ? undefined
    : (options.tt ?? new TranspositionTable(4));
  const killers: number[] = [];
  const busy = keyOf === undefined ? undefined : options.busy;
  const busyMask = (busy?.length ?? 1) - 1;
  let cut = false;
  // Whether any search of this engine met a chance node (kept across its searches).
  let metChance = false;
  let retPv: Pv | null = null;

  const leaf = (s: S, ply: number): number => {
    retPv = null;
    return value(s, ply);
  };

  const expect = (s: S, depth: number, ply: number, prob: number): number => {
    let key = 0;
    if (tt !== undefined) {
      key = keyOf!(s);
      if (
        tt.probe(key) &&
        (tt.hitDepth === depth || (tt.hitFlag & COMPLETE && depth >= tt.hitDepth))
      ) {
        if (!(tt.hitFlag & COMPLETE)) cut = true;
        retPv = null;
        return fromTable(tt.hitValue, ply);
      }
    }
    const cutBefore = cut;
    cut = false;
    const cs = game.chances(s);
    let v = 0;
    for (let i = 0; i < cs.length; i++) {
      const p = cs[i].p;
      v += p * ab(game.play(s, cs[i].move), depth - 1, -Infinity, Infinity, ply + 1, prob * p);
    }
    const complete = !cut;
    cut = cutBefore || cut;
    if (tt !== undefined) {
      tt.store(
        key,
        Math.min(depth, MAX_DEPTH),
        EXACT | (complete ? COMPLETE : 0),
        toTable(v, ply),
        -1,
      );
    }
    retPv = null;
    return v;
  };

  const ab = (
    s: S,
    depth: number,
    alpha: number,
    beta: number,
    ply: number,
    prob: number,
  ): number => {
    if ((++counter.nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
    if (depth <= 0) {
      if (!ended(s)) cut = true;
      return leaf(s, ply);
    }
    const tm = game.toMove(s);
    if (tm === CHANCE) {
      metChance = true;
      if (chance === "expect") {
        if (prob < minP) {
          cut = true;
          return leaf(s, ply);
        }
        return expect(s, depth, ply, prob);
      }
    }
    let ms = tm === CHANCE ? game.chances(s).map((c) => c.move) : game.moves(s);
    if (ms.length === 0) return leaf(s, ply);
    const max = tm === 0;

    let key = 0, ttMove = -1;
    if (tt !== undefined) {
      key = keyOf!(s);
      if (tt.probe(key)) {
        ttMove = tt.hitMove;
        const f = tt.hitFlag;
        if (tt.hitDepth === depth || (f & COMPLETE && depth >= tt.hitDepth)) {
          const v = fromTable(tt.hitValue, ply);
          const kind = f & 3;
          if (
            kind === EXACT || (kind === LOWER && v >= beta) || (kind === UPPER && v <= alpha)
          ) {
            if (!(f & COMPLETE)) cut = true;
            retPv = ttMove >= 0 ? { move: ttMove, next: null } : null;
            return v;
          }
        }
      }
    }

    // The table's move first, then the killer, then the rest in the game's order (no
    // arrays are made for this: it runs at every node).
    let first = -1, second = -1;
    if (ordering && ms.length > 1) {
      if (game.orderMoves !== undefined && depth > 1 && tm !== CHANCE) ms = game.orderMoves(s, ms);
      const k = killers[ply];
      if (ttMove >= 0 && ms.includes(ttMove)) first = ttMove;
      if (k !== undefined && k !== ttMove && ms.includes(k)) {
        if (first < 0) first = k;
        else second = k;
      }
    }

    const cutBefore = cut;
    cut = false;
    const a0 = alpha, b0 = beta;
    let best = max ? -Infinity : Infinity, bestMove = -1, bestPv: Pv | null = null;
    // With shared busy marks, a child another worker is searching waits until the end.
    const marking = busy !== undefined && depth >= BUSY_DEPTH && tm !== CHANCE;
    let deferred: number[] | undefined, searched = 0;
    for (let i = -2; i < ms.length + (deferred?.length ?? 0); i++) {
      let m: number;
      if (i < ms.length) {
        m = i === -2 ? first : i === -1 ? second : ms[i];
        if (i < 0 ? m < 0 : m === first || m === second) continue;
      } else m = deferred![i - ms.length];
      const c = game.play(s, m);
      let v: number;
      if (marking) {
        const ck = keyOf!(c);
        const slot = Math.floor(ck / 4294967296) & busyMask, tag = (ck % 4294967296) | 1;
        if (searched > 0 && i < ms.length && busy![slot] === tag) {
          (deferred ??= []).push(m);
          continue;
        }
        busy![slot] = tag;
        searched++;
        v = ab(c, depth - 1, alpha, beta, ply + 1, prob);
        if (busy![slot] === tag) busy![slot] = 0;
      } else {
        searched++;
        v = ab(c, depth - 1, alpha, beta, ply + 1, prob);
      }
      if (max ? v > best : v < best) {
        best = v;
        bestMove = m;
        bestPv = { move: m, next: retPv };
        if (max ? v > alpha : v < beta) {
          if (max) alpha = v;
          else beta = v;
        }
        if (alpha >= beta) {
          if (tm !== CHANCE) killers[ply] = m;
          break;
        }
      }
    }
    const complete = !cut;
    cut = cutBefore || cut;
    if (tt !== undefined) {
      storeNode(tt, key, depth, max, best, a0, b0, complete, toTable(best, ply), bestMove);
    }
    retPv = bestPv;
    return best;
  };

  return {
    search: (s, depth, alpha, beta, ply) => {
      cut = false;
      return ab(s, depth, alpha, beta, ply, 1);
    },
    counter,
    pv: (from, depth) =>
      game.toMove(from) === CHANCE ? [] : extendPv(game, tt, pvToArray(retPv), from, depth),
    exact: () => !cut,
    chance: () => metChance,
    tt,
    preferAtRoot: (m) => {
      killers[0] = m;
    },
  };
};

/**
 * The same alpha-beta on a game's fast path (`Game.fast`): one cursor played into and
 * taken back, the moves of every ply in one growing `Int32Array`. Node for node it is
 * `alphabetaEngine`'s plain loop (same order, table, killers, busy marks), so results and
 * node counts are the plain path's; `tests/fast_path_test.ts` checks it. A game with a
 * fast path has no chance nodes, so there is no expectimax here.
 */
const cursorEngine = <S>(
  game: Game<S>,
  cur: FastGame<S>,
  options: SearchOptions,
  start: number,
): AlphaBetaEngine<S> => {
  const { counter, stop } = engineBase(game, options, start);
  const distance = options.distance === true;
  const ordering = options.ordering !== false;
  const toTable = distance ? toNode : same;
  const fromTable = distance ? toRoot : same;
  const keyed = game.key !== undefined;
  const tt = options.tt === false || !keyed ? undefined : (options.tt ?? new TranspositionTable(4));
  const killers: number[] = [];
  const busy = keyed ? options.busy : undefined;
  const busyMask = (busy?.length ?? 1) - 1;
  const room = Math.max(1, cur.maxMoves);
  let buf = new Int32Array(room * 64);
  let cut = false;
  let retPv: Pv | null = null;

  const leaf = (ply: number): number => {
    retPv = null;
    return distance ? byDistance(cur.value(), ply) : cur.value();
  };
  const has = (at: number, n: number, m: number): boolean => {
    for (let i = at; i < at + n; i++) if (buf[i] === m) return true;
    return false;
  };

  const ab = (at: number, depth: number, alpha: number, beta: number, ply: number): number => {
    if ((++counter.nodes & POLL_MASK) === 0 && stop()) throw new SearchStopped();
    if (depth <= 0) {
      if (!cur.over()) cut = true;
      return leaf(ply);
    }
    if (at + room > buf.length) {
      const grown = new Int32Array(buf.length * 2);
      grown.set(buf);
      buf = grown;
    }
    const n = cur.moves(buf, at);
    if (n === 0) return leaf(ply);
    const max = cur.toMove() === 0;

    let key = 0, ttMove = -1;
    if (tt !== undefined) {
      key = cur.key();
      if (tt.probe(key)) {
        ttMove = tt.hitMove;
        const f = tt.hitFlag;
        if (tt.hitDepth === depth || (f & COMPLETE && depth >= tt.hitDepth)) {
          const v = fromTable(tt.hitValue, ply);
          const kind = f & 3;
          if (
            kind === EXACT || (kind === LOWER && v >= beta) || (kind === UPPER && v <= alpha)
          ) {
            if (!(f & COMPLETE)) cut = true;
            retPv = ttMove >= 0 ? { move: ttMove, next: null } : null;
            return v;
          }
        }
      }
    }

    let first = -1, second = -1;
    if (ordering && n > 1) {
      if (cur.order !== undefined && depth > 1) cur.order(buf, at, n);
      const k = killers[ply];
      if (ttMove >= 0 && has(at, n, ttMove)) first = ttMove;
      if (k !== undefined && k !== ttMove && has(at, n, k)) {
        if (first < 0) first = k;
        else second = k;
      }
    }

    const cutBefore = cut;
    cut = false;
    const a0 = alpha, b0 = beta, next = at + n;
    let best = max ? -Infinity : Infinity, bestMove = -1, bestPv: Pv | null = null;
    const marking = busy !== undefined && depth >= BUSY_DEPTH;
    let deferred: number[] | undefined, searched = 0;
    for (let i = -2; i < n + (deferred?.length ?? 0); i++) {
      let m: number;
      if (i < n) {
        m = i === -2 ? first : i === -1 ? second : buf[at + i];
        if (i < 0 ? m < 0 : m === first || m === second) continue;
      } else m = deferred![i - n];
      cur.play(m);
      let v: number;
      if (marking) {
        const ck = cur.key();
        const slot = Math.floor(ck / 4294967296) & busyMask, tag = (ck % 4294967296) | 1;
        if (searched > 0 && i < n && busy![slot] === tag) {
          cur.undo();
          (deferred ??= []).push(m);
          continue;
        }
        busy![slot] = tag;
        searched++;
        v = ab(next, depth - 1, alpha, beta, ply + 1);
        if (busy![slot] === tag) busy![slot] = 0;
      } else {
        searched++;
        v = ab(next, depth - 1, alpha, beta, ply + 1);
      }
      cur.undo();
      if (max ? v > best : v < best) {
        best = v;
        bestMove = m;
        bestPv = { move: m, next: retPv };
        if (max ? v > alpha : v < beta) {
          if (max) alpha = v;
          else beta = v;
        }
        if (alpha >= beta) {
          killers[ply] = m;
          break;
        }
      }
    }
    const complete = !cut;
    cut = cutBefore || cut;
    if (tt !== undefined) {
      storeNode(tt, key, depth, max, best, a0, b0, complete, toTable(best, ply), bestMove);
    }
    retPv = bestPv;
    return best;
  };

  return {
    search: (s, depth, alpha, beta, ply) => {
      cut = false;
      cur.reset(s);
      return ab(0, depth, alpha, beta, ply);
    },
    counter,
    pv: (from, depth) => extendPv(game, tt, pvToArray(retPv), from, depth),
    exact: () => !cut,
    // A fast path is for games without chance moves.
    chance: () => false,
    tt,
    preferAtRoot: (m) => {
      killers[0] = m;
    },
  };
};

/**
 * A line cut short by a table hit continues with the table's moves, up to the depth
 * (on the plain game: it runs once per search).
 */
const extendPv = <S>(
  game: Game<S>,
  tt: TranspositionTable | undefined,
  pv: number[],
  state: S,
  depth: number,
): number[] => {
  if (tt === undefined || game.toMove(state) === CHANCE) return pv;
  let s = state;
  for (const m of pv) s = game.play(s, m);
  while (pv.length < depth && game.toMove(s) !== CHANCE) {
    const hit = tt.probe(game.key!(s));
    const m = tt.hitMove;
    if (!hit || m < 0 || !game.moves(s).includes(m)) break;
    pv.push(m);
    s = game.play(s, m);
  }
  return pv;
};

/**
 * Alpha-beta (or expectimax) search with iterative deepening to `options.depth`
 * (default 4) or within `options.timeMs`.
 *
 * @example Tic-tac-toe is a draw
 * ```ts
 * import { alphabetaSearch } from "./alphabeta.ts";
 * import tictactoe from "../../plugins/tictactoe/mod.ts";
 * const game = tictactoe.create({});
 * const r = alphabetaSearch(game, game.initial(), { depth: 9 });
 * if (r.value !== 0) throw new Error("tic-tac-toe should be a draw");
 * ```
 */
export const alphabetaSearch = <S>(
  game: Game<S>,
  state: S,
  options: SearchOptions = {},
  chance: ChanceMode = "min",
): SearchResult => {
  const start = performance.now();
  return searchRoot(game, state, options, alphabetaEngine(game, options, chance, start), start, 1);
};
