/**
 * The lazy game tree and the seeds' compositions over it, in the style of Hughes'
 * "Why functional programming matters": `minimax(evaluate(game, takeTree(d, gameTree(game, s))))`.
 *
 * Generation, pruning and evaluation are separate pieces. Children are produced on
 * demand by an iterator, so a pruned branch (alpha-beta, `takeTree`) is never built.
 * Nothing is memoized: walking a subtree twice generates it twice, so memory stays
 * proportional to the depth, as with Haskell's lazy trees when the root is not shared.
 *
 * This is the readable reference path; `core/search/` holds the fast searches, and the
 * tests prove that both agree.
 *
 * @module
 */
import { CHANCE, type Game, type ToMove } from "./game.ts";

/** A branch of a tree: the move that leads to a subtree. */
export type Branch<M, V> = readonly [move: M, tree: Tree<M, V>];

/** A rose tree whose branches are labelled with moves, with lazily generated children. */
export interface Tree<M, V> {
  /** The node's label. */
  readonly label: V;
  /** Generates the branches, in order, on each call. */
  readonly children: () => Iterable<Branch<M, V>>;
}

/**
 * Builds a tree node.
 *
 * @example The seed's `testTree`
 * ```ts
 * import { node, size } from "./tree.ts";
 * const testTree = node(3, () => [
 *   [0, node(4, () => [[0, node(5)], [1, node(6)], [2, node(7)]])],
 *   [1, node(9, () => [[0, node(10)]])],
 * ]);
 * if (size(testTree) !== 7) throw new Error("expected 7 nodes");
 * ```
 */
export const node = <M, V>(
  label: V,
  children: () => Iterable<Branch<M, V>> = () => [],
): Tree<M, V> => ({ label, children });

/** The edge of a game tree: a move and its weight (seed 001: chance probability, 1/n otherwise). */
export interface GameEdge {
  /** The move. */
  readonly move: number;
  /** Its weight: the chance probability, or 1/n for a player's n moves. */
  readonly p: number;
}

/** The full (infinite for cyclic games) lazy game tree from a state; labels are states. */
export const gameTree = <S>(game: Game<S>, state: S): Tree<GameEdge, S> =>
  node(state, function* () {
    if (game.toMove(state) === CHANCE) {
      for (const c of game.chances(state)) {
        yield [{ move: c.move, p: c.p }, gameTree(game, game.play(state, c.move))];
      }
    } else {
      const moves = game.moves(state);
      const p = 1 / moves.length;
      for (const m of moves) yield [{ move: m, p }, gameTree(game, game.play(state, m))];
    }
  });

/** Cuts a tree off at a depth (seed 000's `takeTree`, seed 003's `prune`). */
export const takeTree = <M, V>(depth: number, t: Tree<M, V>): Tree<M, V> =>
  depth <= 0 ? node(t.label) : node(t.label, function* () {
    for (const [m, c] of t.children()) yield [m, takeTree(depth - 1, c)];
  });

/** Maps the labels (Haskell's `fmap`), keeping the shape. */
export const mapTree = <M, V, W>(f: (v: V) => W, t: Tree<M, V>): Tree<M, W> =>
  node(f(t.label), function* () {
    for (const [m, c] of t.children()) yield [m, mapTree(f, c)];
  });

/** The number of nodes (walks the whole tree: cut it first). */
export const size = <M, V>(t: Tree<M, V>): number => {
  let n = 1;
  for (const [, c] of t.children()) n += size(c);
  return n;
};

/** The depth of the deepest leaf (a lone root has height 0). */
export const height = <M, V>(t: Tree<M, V>): number => {
  let h = 0;
  for (const [, c] of t.children()) h = Math.max(h, 1 + height(c));
  return h;
};

/** A node's evaluation, as seed 000 labels its trees: who moves, and the static value. */
export interface Scored {
  /** Whose move it is at the node. */
  readonly toMove: ToMove;
  /** The game's static value (player 0 maximizes). */
  readonly value: number;
}

/** Labels each state with whose move it is and its value (seed 000's `tree`). */
export const evaluate = <S, M>(game: Game<S>, t: Tree<M, S>): Tree<M, Scored> =>
  mapTree((s) => ({ toMove: game.toMove(s), value: game.value(s) }), t);

/** The scored game tree from a state: `evaluate(game, gameTree(game, s))`. */
export const scoredTree = <S>(game: Game<S>, s: S): Tree<GameEdge, Scored> =>
  evaluate(game, gameTree(game, s));

/** A decision: the move to play (none at a leaf or a chance node) and its value. */
export interface Decision<M> {
  /** The best move, `undefined` at a leaf (or a chance node in `expectimax`). */
  readonly move: M | undefined;
  /** The backed-up value. */
  readonly value: number;
}

const maximizes = (t: ToMove): boolean => t === 0;

/**
 * Minimax (seeds 000 and 001): player 0 maximizes, player 1 and chance minimize; leaves
 * take their static value. Ties keep the first best move (seed 000's `bestBy`).
 */
export const minimax = <M>(t: Tree<M, Scored>): Decision<M> => {
  let best: Decision<M> | undefined;
  const max = maximizes(t.label.toMove);
  for (const [m, c] of t.children()) {
    const v = minimax(c).value;
    if (best === undefined || (max ? v > best.value : v < best.value)) best = { move: m, value: v };
  }
  return best ?? { move: undefined, value: t.label.value };
};

/**
 * Minimax with alpha-beta pruning exactly as seed 000's `minimaxAlphaBeta`: the first
 * branch is always searched; before each further branch, the node stops when the value
 * found so far already refutes the window. Returns the same value as `minimax` at the
 * root when called with the full window.
 */
export const alphabeta = <M>(
  t: Tree<M, Scored>,
  alpha = -Infinity,
  beta = Infinity,
): Decision<M> => {
  const it = t.children()[Symbol.iterator]();
  let cur = it.next();
  if (cur.done) return { move: undefined, value: t.label.value };
  const max = maximizes(t.label.toMove);
  // The seed recurses over the rest of the branches; this loop keeps its order:
  // the first strictly better branch wins, and pruning returns the pruning branch.
  let best: Decision<M> | undefined;
  const chain: Decision<M>[] = [];
  let a = alpha, b = beta;
  while (!cur.done) {
    const [m, c] = cur.value;
    const cv = alphabeta(c, a, b).value;
    const here = { move: m, value: cv };
    const next = it.next();
    if (next.done) {
      chain.push(here);
      break;
    }
    const prune = max ? b <= cv : a >= cv;
    chain.push(here);
    if (prune) break;
    if (max) a = Math.max(a, cv);
    else b = Math.min(b, cv);
    cur = next;
  }
  // Fold from the right as `bestOfTwoBy pref child restBest` does.
  for (let i = chain.length - 1; i >= 0; i--) {
    const c = chain[i];
    if (best === undefined) best = c;
    else best = (max ? best.value > c.value : best.value < c.value) ? best : c;
  }
  return best!;
};

/**
 * Expectimax (seed 001): player 0 maximizes, player 1 minimizes, and a chance node is
 * worth the weighted sum of its children (with no move chosen there).
 */
export const expectimax = (t: Tree<GameEdge, Scored>): Decision<number> => {
  if (t.label.toMove === CHANCE) {
    let v = 0, any = false;
    for (const [e, c] of t.children()) {
      v += e.p * expectimax(c).value;
      any = true;
    }
    return { move: undefined, value: any ? v : t.label.value };
  }
  let best: Decision<number> | undefined;
  const max = maximizes(t.label.toMove);
  for (const [e, c] of t.children()) {
    const v = expectimax(c).value;
    if (best === undefined || (max ? v > best.value : v < best.value)) {
      best = { move: e.move, value: v };
    }
  }
  return best ?? { move: undefined, value: t.label.value };
};

/** A label with its minimax value attached (seed 003's annotated tree). */
export interface Annotated<V> {
  /** The original label. */
  readonly label: V;
  /** The minimax value of the node. */
  readonly minimax: number;
}

/**
 * Annotates every node with its minimax value, leaving the tree otherwise unchanged
 * (seed 003's `minimax`: `mapTree(a => a.label, annotate(...))` is the original tree).
 */
export const annotate = <M, V>(
  score: (v: V) => number,
  toMove: (v: V) => ToMove,
  t: Tree<M, V>,
): Tree<M, Annotated<V>> => {
  const kids: Branch<M, Annotated<V>>[] = [];
  for (const [m, c] of t.children()) kids.push([m, annotate(score, toMove, c)]);
  let value: number;
  if (kids.length === 0) value = score(t.label);
  else {
    const max = maximizes(toMove(t.label));
    value = max ? -Infinity : Infinity;
    for (const [, c] of kids) {
      value = max ? Math.max(value, c.label.minimax) : Math.min(value, c.label.minimax);
    }
  }
  return node({ label: t.label, minimax: value }, () => kids);
};

/**
 * All optimal moves at the root, in tree order (seed 003's `bestmoves`): the moves whose
 * minimax value equals the best one for the player to move.
 */
export const bestMoves = <M>(t: Tree<M, Scored>): M[] => {
  const max = maximizes(t.label.toMove);
  const vals: [M, number][] = [];
  for (const [m, c] of t.children()) vals.push([m, minimax(c).value]);
  if (vals.length === 0) return [];
  const best = vals.reduce((acc, [, v]) => (max ? Math.max(acc, v) : Math.min(acc, v)), vals[0][1]);
  return vals.filter(([, v]) => v === best).map(([m]) => m);
};

/**
 * Draws a tree as text, in the style of Haskell's `Data.Tree.drawTree` (seed 000's
 * `Show` instance): each branch as `move => label`.
 */
export const showTree = <M, V>(
  t: Tree<M, V>,
  showLabel: (v: V) => string = String,
  showMove: (m: M) => string = String,
): string => {
  const draw = (tree: Tree<M, V>): string[] => {
    const lines = [showLabel(tree.label)];
    const kids = [...tree.children()];
    kids.forEach(([m, c], i) => {
      const last = i === kids.length - 1;
      const [first, ...rest] = draw(c);
      lines.push("|");
      lines.push((last ? "`- " : "+- ") + `${showMove(m)} => ${first}`);
      for (const r of rest) lines.push((last ? "   " : "|  ") + r);
    });
    return lines;
  };
  return draw(t).join("\n") + "\n";
};
