/**
 * The review's figures on the page without a browser (web/marks.ts, and the marks and
 * names of web/format.ts): the main line, each side's counts, the graph's points and
 * the words under the board, over trees made here with known annotations.
 */
import { assertEquals } from "../testing/deps.ts";
import { fc } from "../testing/deps.ts";
import type { NodeView } from "../server/protocol.ts";
import { countMarks, explanation, graphPoints, mainLine, type Severity } from "../web/marks.ts";
import { DECISIVE, playerOf, type Position, reviewMark } from "../web/format.ts";

type Review = NonNullable<NodeView["review"]>;

/** A tree: a main line of `line.length` moves, alternating sides, and a variation at 1. */
const treeOf = (line: readonly (Review | undefined)[]): NodeView[] => {
  const nodes: NodeView[] = [{
    id: 0,
    parent: -1,
    move: -1,
    notation: "",
    by: 0,
    children: line.length > 0 ? [1] : [],
  }];
  line.forEach((review, i) => {
    const id = i + 1;
    nodes.push({
      id,
      parent: i,
      move: id,
      notation: `m${id}`,
      by: (i % 2) as 0 | 1,
      children: id < line.length ? [id + 1] : [],
      ...(review !== undefined ? { review } : {}),
    });
  });
  // A variation off the start, marked, which no count may see.
  if (line.length > 0) {
    const v = nodes.length;
    nodes[0] = { ...nodes[0], children: [1, v] };
    nodes.push({
      id: v,
      parent: 0,
      move: 99,
      notation: "v",
      by: 0,
      children: [],
      review: { best: "m1", loss: 5, mistake: true, text: "loses 5", severity: "blunder" },
    });
  }
  return nodes;
};

const reviewOf = (severity: Severity | undefined, bars: [number, number]): Review => ({
  best: "b",
  loss: severity === undefined ? 0 : 3,
  mistake: severity !== undefined,
  text: severity === undefined ? "the best move" : "loses 3",
  ...(severity !== undefined ? { severity } : {}),
  exact: false,
  bestText: "+1",
  playedText: severity === undefined ? "+1" : "-2",
  bars,
});

const severity = fc.option(fc.constantFrom<Severity>("inaccuracy", "mistake", "blunder"), {
  nil: undefined,
});
const reviewed = fc.option(
  fc.record({
    severity,
    bars: fc.tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    ),
  }),
  { nil: undefined },
);

Deno.test("marks: the main line, and each side's counts on it", () => {
  fc.assert(fc.property(fc.array(reviewed, { maxLength: 30 }), (line) => {
    const nodes = treeOf(line.map((r) => r && reviewOf(r.severity, r.bars)));
    assertEquals(mainLine(nodes), line.map((_, i) => i + 1));
    const counts = countMarks(nodes, DECISIVE);
    for (const side of [0, 1]) {
      for (const s of ["inaccuracy", "mistake", "blunder"] as const) {
        assertEquals(
          counts[side][s],
          line.filter((r, i) => i % 2 === side && r?.severity === s).length,
          `side ${side} ${s}`,
        );
      }
    }
  }));
});

Deno.test("marks: the graph has the start and every move, valued after it", () => {
  fc.assert(fc.property(fc.array(reviewed, { maxLength: 30 }), (line) => {
    const nodes = treeOf(line.map((r) => r && reviewOf(r.severity, r.bars)));
    const points = graphPoints(nodes, DECISIVE);
    assertEquals(points.map((p) => p.node), [0, ...line.map((_, i) => i + 1)]);
    assertEquals(points[0].y, line[0]?.bars[0]);
    line.forEach((r, i) => {
      // A move not reviewed takes the value before the next move, if that is reviewed.
      assertEquals(points[i + 1].y, r?.bars[1] ?? line[i + 1]?.bars[0], `move ${i + 1}`);
      assertEquals(points[i + 1].severity, r?.severity);
    });
  }));
});

Deno.test("marks: the words under the board, and the marks in the move list", () => {
  const nodes = treeOf([
    reviewOf(undefined, [0, 0]),
    reviewOf("blunder", [0, 0.5]),
    { ...reviewOf(undefined, [0, 0]), loss: 2, text: "keeps the result", exact: true },
    undefined,
  ]);
  const names = ["X", "O"] as const;
  assertEquals(explanation(nodes, 1, names, DECISIVE), "move 1: X played m1: the best move (+1).");
  assertEquals(
    explanation(nodes, 2, names, DECISIVE),
    "move 2: O played m2: a blunder, loses 3; the best was b (+1), after m2: -2.",
  );
  assertEquals(
    explanation(nodes, 3, names, DECISIVE),
    "move 3: X played m3: keeps the result; the best was b (+1), after m3: +1 (exact).",
  );
  assertEquals(explanation(nodes, 4, names, DECISIVE), undefined);
  assertEquals(explanation(nodes, 0, names, DECISIVE), undefined);
  // The marks: by severity, and by the loss for an annotation stored without one.
  assertEquals(reviewMark(reviewOf("inaccuracy", [0, 0])), "?!");
  assertEquals(reviewMark(reviewOf("mistake", [0, 0])), "?");
  assertEquals(reviewMark(reviewOf("blunder", [0, 0])), "??");
  assertEquals(reviewMark(reviewOf(undefined, [0, 0])), "");
  assertEquals(reviewMark({ best: "b", loss: 2 ** 40, mistake: true, text: "" }), "??");
  assertEquals(reviewMark({ best: "b", loss: 3, mistake: true, text: "" }), "?");
});

Deno.test("format: a loaded game names its players, a game played here says you", () => {
  const pos = {
    players: ["alice", "alphabeta:4"],
    mine: [true, true],
  } as unknown as Position;
  assertEquals([playerOf(pos, 0), playerOf(pos, 1)], ["you", "you"]);
  const loaded = { ...pos, loaded: true } as Position;
  assertEquals([playerOf(loaded, 0), playerOf(loaded, 1)], ["alice", "alphabeta:4"]);
});
