/**
 * The review's figures without the DOM (`review.ts` draws them): the main line, each
 * side's inaccuracies, mistakes and blunders, the evaluation graph's points, and the
 * words under the board about a reviewed move.
 *
 * @module
 */
import type { NodeView } from "../server/protocol.ts";

/** How bad a marked move is, least first. */
export type Severity = NonNullable<NonNullable<NodeView["review"]>["severity"]>;

/** The severities, least first, with their marks and their words. */
export const SEVERITIES: readonly {
  readonly severity: Severity;
  readonly mark: string;
  readonly plural: string;
}[] = [
  { severity: "inaccuracy", mark: "?!", plural: "inaccuracies" },
  { severity: "mistake", mark: "?", plural: "mistakes" },
  { severity: "blunder", mark: "??", plural: "blunders" },
];

/** The main line's node ids after the start, in order (each node's first child). */
export const mainLine = (nodes: readonly NodeView[]): number[] => {
  const line: number[] = [];
  let at = nodes[0];
  while (at !== undefined && at.children.length > 0) {
    const next = nodes[at.children[0]];
    if (next === undefined) break;
    line.push(next.id);
    at = next;
  }
  return line;
};

/**
 * A reviewed move's severity: its own, or for an annotation stored before severities, a
 * blunder when it gave away a decisive value (`decisive` or more), else a mistake.
 */
export const severityOf = (
  review: NodeView["review"],
  decisive: number,
): Severity | undefined =>
  review === undefined || !review.mistake
    ? undefined
    : review.severity ?? (review.loss >= decisive ? "blunder" : "mistake");

/** Counts of one side's marked moves. */
export type Counts = Record<Severity, number>;

/** Each side's marked moves on the main line, by severity (player 0 first). */
export const countMarks = (
  nodes: readonly NodeView[],
  decisive: number,
): readonly [Counts, Counts] => {
  const counts: [Counts, Counts] = [
    { inaccuracy: 0, mistake: 0, blunder: 0 },
    { inaccuracy: 0, mistake: 0, blunder: 0 },
  ];
  for (const id of mainLine(nodes)) {
    const n = nodes[id];
    const s = severityOf(n.review, decisive);
    if (s !== undefined && n.by !== "chance") counts[n.by][s]++;
  }
  return counts;
};

/** One point of the evaluation graph: after move `ply` (0: the start), at node `node`. */
export interface GraphPoint {
  /** The move's number on the main line (0 for the start). */
  readonly ply: number;
  /** The node after it. */
  readonly node: number;
  /** The value there from player 0's side, -1 (lost) to 1 (won); none if not reviewed. */
  readonly y?: number;
  /** The move's mark, if it has one. */
  readonly severity?: Severity;
}

/**
 * The graph's points along the main line: the start, then each move, valued by the
 * review (a move's `bars` give the position before and after it; a chance move or one
 * not reviewed yet takes the value before the next reviewed move, if any).
 */
export const graphPoints = (nodes: readonly NodeView[], decisive: number): GraphPoint[] => {
  const line = mainLine(nodes);
  const after = (i: number): number | undefined => {
    const here = nodes[line[i]]?.review?.bars?.[1];
    return here ?? nodes[line[i + 1]]?.review?.bars?.[0];
  };
  const first = nodes[line[0]]?.review?.bars?.[0];
  return [
    { ply: 0, node: 0, ...(first !== undefined ? { y: first } : {}) },
    ...line.map((id, i) => {
      const y = after(i);
      const severity = severityOf(nodes[id].review, decisive);
      return {
        ply: i + 1,
        node: id,
        ...(y !== undefined ? { y } : {}),
        ...(severity !== undefined ? { severity } : {}),
      };
    }),
  ];
};

/** The word for a severity (`a blunder`), or for an unmarked move. */
const verdictWord = (s: Severity | undefined): string =>
  s === undefined ? "" : s === "inaccuracy" ? "an inaccuracy" : `a ${s}`;

/**
 * What the page says under the board about the move that led to node `id`: who played
 * what, whether it is marked and why, the best move and both values. `undefined` for
 * the start or a move without a review.
 */
export const explanation = (
  nodes: readonly NodeView[],
  id: number,
  names: readonly [string, string],
  decisive: number,
): string | undefined => {
  const n = nodes[id];
  const r = n?.review;
  if (n === undefined || r === undefined || n.by === "chance") return undefined;
  const ply = depthOf(nodes, id);
  const s = severityOf(r, decisive);
  const values = r.bestText !== undefined && r.playedText !== undefined
    ? r.best === n.notation || r.loss === 0
      ? ` (${r.playedText}${r.exact === true ? ", exact" : ""})`
      : `; the best was ${r.best} (${r.bestText}), after ${n.notation}: ${r.playedText}` +
        (r.exact === true ? " (exact)" : "")
    : s !== undefined
    ? `; the best was ${r.best}`
    : "";
  return `move ${ply}: ${names[n.by]} played ${n.notation}: ` +
    (s !== undefined ? `${verdictWord(s)}, ${r.text}` : r.text) + values + ".";
};

/** The number of moves from the start to node `id`. */
const depthOf = (nodes: readonly NodeView[], id: number): number => {
  let d = 0;
  for (let at = nodes[id]; at !== undefined && at.parent >= 0; at = nodes[at.parent]) d++;
  return d;
};
