/**
 * The move list's layout, without the DOM: the session's tree as a main line with its
 * variations, as a score sheet writes it (`1 c 2 b (2 a 3 c) 3 d`).
 *
 * At a node with several children, the main child (the first) is written, then each
 * other child as a variation in brackets (its own line, recursively), then the main line
 * goes on. Moves by a player are numbered along their line (1, 2, 3 ...; chance's moves
 * are not numbered and do not count).
 *
 * @module
 */
import type { NodeView } from "../server/protocol.ts";

/** One entry of the move list. */
export type Item =
  /** A move (node `node.id`), with its number (0 for chance's moves). */
  | { readonly kind: "move"; readonly node: NodeView; readonly number: number }
  /** A variation: a line that branches off before the move written just before it. */
  | { readonly kind: "variation"; readonly items: readonly Item[] };

/**
 * Appends to `out` the line below node `parent` (its main children), each move's other
 * children as variations after it. `number` is the number of the next player's move.
 */
const lineBelow = (
  nodes: readonly NodeView[],
  parent: number,
  number: number,
  out: Item[],
): void => {
  let p = nodes[parent];
  let n = number;
  while (p !== undefined && p.children.length > 0) {
    const [main, ...others] = p.children;
    const node = nodes[main];
    if (node === undefined) return;
    out.push(moveItem(node, n));
    for (const id of others) {
      const alt = nodes[id];
      if (alt === undefined) continue;
      const items: Item[] = [moveItem(alt, n)];
      lineBelow(nodes, id, alt.by === "chance" ? n : n + 1, items);
      out.push({ kind: "variation", items });
    }
    if (node.by !== "chance") n++;
    p = node;
  }
};

const moveItem = (node: NodeView, number: number): Item => ({
  kind: "move",
  node,
  number: node.by === "chance" ? 0 : number,
});

/** The move list of a session's tree (`nodes[0]` is the start; ids are indexes). */
export const layout = (nodes: readonly NodeView[]): Item[] => {
  const out: Item[] = [];
  if (nodes.length > 0) lineBelow(nodes, 0, 1, out);
  return out;
};

/**
 * True when node `id`'s move is a player's second in a row (Kalah's extra turn): the
 * player move before it on its line, chance's moves passed over, was the same player's.
 * (In a solo game every move is; the page asks only in games of two players.)
 */
export const extraTurn = (nodes: readonly NodeView[], id: number): boolean => {
  const node = nodes[id];
  if (node === undefined || node.by === "chance") return false;
  for (let p = nodes[node.parent]; p !== undefined && p.parent >= 0; p = nodes[p.parent]) {
    if (p.by !== "chance") return p.by === node.by;
  }
  return false;
};

/** The ids of the nodes from the start to `id` (the start first). */
export const pathTo = (nodes: readonly NodeView[], id: number): number[] => {
  const out: number[] = [];
  for (let n = nodes[id]; n !== undefined; n = nodes[n.parent]) {
    out.push(n.id);
    if (n.parent < 0 || out.length > nodes.length) break;
  }
  return out.reverse();
};

/**
 * The tree after a `Position`'s nodes: all of them when `full`, else `nodes` put at
 * their ids over `tree`'s (the new and changed ones); `count` nodes in all.
 */
export const mergeNodes = (
  tree: readonly NodeView[],
  nodes: readonly NodeView[],
  full: boolean,
  count: number,
): NodeView[] => {
  const out = full ? [] : tree.slice(0, count);
  for (const n of nodes) out[n.id] = n;
  out.length = count;
  return out;
};

/** True when chance is to move at node `id` (its children are chance's moves). */
export const chanceToMove = (nodes: readonly NodeView[], id: number): boolean =>
  (nodes[id]?.children ?? []).some((c) => nodes[c]?.by === "chance");

/**
 * The node "back" (←) goes to from `id`: the nearest node before it where chance is not
 * to move (going to a node where chance is to move would draw chance anew, a new
 * variation), or undefined at the start.
 */
export const stepBack = (
  nodes: readonly NodeView[],
  id: number,
): number | undefined => {
  for (let n = nodes[id]?.parent ?? -1; n >= 0; n = nodes[n]?.parent ?? -1) {
    if (!chanceToMove(nodes, n)) return n;
  }
  return undefined;
};

/**
 * The node "forward" (→) goes to from `id`: along the main line, past the nodes where
 * chance is to move (to the one after chance's move), or undefined at the line's end.
 */
export const stepForward = (
  nodes: readonly NodeView[],
  id: number,
): number | undefined => {
  let n = nodes[id]?.children[0];
  while (n !== undefined && chanceToMove(nodes, n)) n = nodes[n]?.children[0];
  return n;
};

/** Where a jump to node `id` lands: past chance's move there if it was made (see `stepForward`). */
export const settle = (nodes: readonly NodeView[], id: number): number => {
  let n = id;
  while (chanceToMove(nodes, n)) {
    const next = nodes[n]?.children[0];
    if (next === undefined) break;
    n = next;
  }
  return n;
};
