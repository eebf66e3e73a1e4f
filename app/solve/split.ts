/**
 * A long exact solve split into work units: the positions `split` plies from a root
 * (`splitTree`), each solved whole on its own, and the tree above them, whose values
 * follow from the units' by minimax (`combine`; an average at a chance node). A unit is
 * named by its position's key (`Game.key`), so a position reached in two orders is one
 * unit, and by its line of moves where the game has no key. Plain code over the game's
 * functions (a hosted game's calls go to its plugin thread).
 *
 * Values are the engine's: player 0 maximizes. Where the units' solver counts a win's
 * distance (alpha-beta with `distance`: `WIN - n`, a win in `n` plies, `WIN` itself a game
 * won at the unit), a decisive value is one ply further from each node above (`deeper`);
 * a solver that proves wins without a distance (exactly `±WIN`: Domineering's) has them
 * kept as they are, and then one child won outright decides its parent.
 *
 * @module
 */
import { CHANCE, type Game, type ToMove, WIN, WIN_THRESHOLD } from "../../core/game.ts";

/** A node of the tree above the units: an inner node, or a unit (a leaf). */
export type SplitNode =
  | {
    readonly _tag: "Inner";
    /** Who moves here. */
    readonly toMove: ToMove;
    /** Each move's child (at a chance node, with its probability). */
    readonly children: readonly {
      readonly move: number;
      readonly p?: number;
      readonly node: SplitNode;
    }[];
  }
  | {
    readonly _tag: "Unit";
    /** The unit's name (its position's key, or its line). */
    readonly unit: string;
  };

/** A unit to solve: its name, a line that reaches it, and its position. */
export interface Unit<S> {
  /** Its name (the key of its position, or its line of moves). */
  readonly unit: string;
  /** The moves from the root to it (the first line found). */
  readonly line: readonly number[];
  /** Its position. */
  readonly state: S;
}

/** The tree above the units of a split, and the units, each once. */
export interface Split<S> {
  /** The root's node. */
  readonly root: SplitNode;
  /** The units, in the order first reached (depth first, in move order). */
  readonly units: readonly Unit<S>[];
}

/** A unit's name: its key where the game has one (with the side to move), else its line. */
export const unitName = <S>(game: Game<S>, s: S, line: readonly number[]): string =>
  game.key !== undefined ? `k${game.key(s)}:${String(game.toMove(s))}` : `l${line.join(",")}`;

/**
 * The tree of `game` from `root` down to `split` plies: every position at that depth,
 * and every finished position above it, is a unit. A position at a chance node counts
 * its plies as any other. More than `maxNodes` nodes is a `RangeError`.
 */
export const splitTree = <S>(
  game: Game<S>,
  root: S,
  split: number,
  maxNodes = Infinity,
): Split<S> => {
  const units = new Map<string, Unit<S>>();
  let count = 0;
  const grow = (s: S, line: number[], depth: number): SplitNode => {
    if (++count > maxNodes) {
      throw new RangeError(`the tree above the units has more than ${maxNodes} positions`);
    }
    const tm = game.toMove(s);
    const moves = tm === CHANCE ? game.chances(s).map((c) => c.move) : game.moves(s);
    if (depth >= split || moves.length === 0) {
      const unit = unitName(game, s, line);
      if (!units.has(unit)) units.set(unit, { unit, line: [...line], state: s });
      return { _tag: "Unit", unit };
    }
    const p = tm === CHANCE ? new Map(game.chances(s).map((c) => [c.move, c.p])) : undefined;
    return {
      _tag: "Inner",
      toMove: tm,
      children: moves.map((m) => {
        line.push(m);
        const node = grow(game.play(s, m), line, depth + 1);
        line.pop();
        return p === undefined ? { move: m, node } : { move: m, p: p.get(m), node };
      }),
    };
  };
  const root_ = grow(root, [], 0);
  return { root: root_, units: [...units.values()] };
};

/**
 * The units still needed to know `node`'s value, given the units settled (`valueOf`): none
 * under a node already known (`combine`), every unsettled unit under the others. Each
 * unit once, in the order of the tree.
 */
export const neededUnits = (
  node: SplitNode,
  valueOf: (unit: string) => number | undefined,
  distance: boolean,
): string[] => {
  const needed = new Set<string>();
  const known = new Map<SplitNode, boolean>();
  const visit = (n: SplitNode): void => {
    if (n._tag === "Unit") {
      if (valueOf(n.unit) === undefined) needed.add(n.unit);
      return;
    }
    let k = known.get(n);
    if (k === undefined) known.set(n, k = combine(n, valueOf, distance) !== undefined);
    if (!k) { for (const c of n.children) visit(c.node); }
  };
  visit(node);
  return [...needed];
};

/** A value seen one ply further up: with `distance`, a decisive value is one ply longer. */
export const deeper = (v: number, distance: boolean): number =>
  distance && Math.abs(v) >= WIN_THRESHOLD ? v - Math.sign(v) : v;

/** What `combine` finds at a node: its value, and at a player's node the best move. */
export interface Combined {
  /** The node's value (player 0 maximizes). */
  readonly value: number;
  /** The best move (the first of the best, in move order); undefined at a chance node or a unit. */
  readonly move?: number;
  /** Each move's value at this node (`deeper` applied), in move order. */
  readonly moves?: readonly { readonly move: number; readonly value: number }[];
}

/**
 * The value of `node` from its units' values (`valueOf`; undefined: not settled, and then
 * so is the node). At a player's node the best of its children's values, one ply deeper
 * (without `distance`, known as soon as one child is won outright for the mover, exactly
 * `WIN`: its `moves` then hold only the children known); at a chance node their average.
 */
export const combine = (
  node: SplitNode,
  valueOf: (unit: string) => number | undefined,
  distance: boolean,
): Combined | undefined => {
  if (node._tag === "Unit") {
    const v = valueOf(node.unit);
    return v === undefined ? undefined : { value: v };
  }
  const moves: { move: number; value: number }[] = [];
  let unknown = false;
  for (const c of node.children) {
    const child = combine(c.node, valueOf, distance);
    if (child === undefined) unknown = true;
    else moves.push({ move: c.move, value: deeper(child.value, distance) });
  }
  if (unknown) {
    // Without distances, a player's node is decided by one child won outright (exactly
    // `WIN` for the mover: no value is better), whatever its other children are.
    const won = distance || node.toMove === CHANCE ? undefined : node.toMove === 0 ? WIN : -WIN;
    const first = moves.find((m) => m.value === won);
    return first === undefined ? undefined : { value: first.value, move: first.move, moves };
  }
  if (node.toMove === CHANCE) {
    let sum = 0;
    node.children.forEach((c, i) => (sum += (c.p ?? 0) * moves[i].value));
    return { value: sum, moves };
  }
  const sign = node.toMove === 0 ? 1 : -1;
  let best = moves[0];
  for (const m of moves) if (sign * m.value > sign * best.value) best = m;
  return { value: best.value, move: best.move, moves };
};

/**
 * The principal variation above the units: the best move at each player's node from the
 * root down to a unit (or a chance node), and the unit it ends at.
 */
export const topLine = (
  root: SplitNode,
  valueOf: (unit: string) => number | undefined,
  distance: boolean,
): { readonly line: readonly number[]; readonly unit?: string } => {
  const line: number[] = [];
  let node = root;
  while (node._tag === "Inner" && node.toMove !== CHANCE) {
    const c = combine(node, valueOf, distance);
    const next = node.children.find((ch) => ch.move === c?.move);
    if (next === undefined) break;
    line.push(next.move);
    node = next.node;
  }
  return { line, ...(node._tag === "Unit" ? { unit: node.unit } : {}) };
};
