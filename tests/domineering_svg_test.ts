/**
 * Seed 003's pictures (`plugins/domineering/svg.ts`, `plugins/domineering/scripts/render.ts`): the SVG is
 * well-formed XML with the expected elements (cells, dominoes by player and round, tree
 * nodes, edges, labels and pruned marks), and `deno task render` makes them in a plugin
 * thread, its heap bounded, none of the plugin's modules loaded on its main thread.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "../testing/deps.ts";
import { runTask } from "../testing/task.ts";
import { staticGraph } from "../testing/graph.ts";
import { mapTree } from "../core/tree.ts";
import {
  alphabeta,
  alphaDom_vs_LeeSedom,
  alphaDom_vs_RanDom,
  board,
  board4x4_3,
  gametree,
  minimax,
  prune,
  score,
  showScore,
} from "../plugins/domineering/seed003.ts";
import {
  alphabetaSVG,
  boardSVG,
  COLOURS,
  dominoes,
  gametreeSVG,
  labelledTreeSVG,
  MAX_TREE_NODES,
  treeSVG,
} from "../plugins/domineering/svg.ts";

/** Checks that a text is well-formed XML (balanced tags, quoted attributes); returns the tags. */
const parseXml = (xml: string): string[] => {
  const tags: string[] = [];
  const stack: string[] = [];
  const re =
    /<\?[^?]*\?>|<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of xml.matchAll(re)) {
    if (m[6] !== undefined) {
      throw new Error(`stray '<' at ${m.index}: ${xml.slice(m.index, m.index! + 30)}`);
    }
    if (m[2] === undefined) {
      if (m[5] !== undefined && /&(?!amp;|lt;|gt;|quot;|apos;|#\d+;)/.test(m[5])) {
        throw new Error(`bad entity in text: ${m[5]}`);
      }
      continue;
    }
    const [, close, name, , self] = m;
    if (close) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
    } else {
      tags.push(name);
      if (!self) stack.push(name);
    }
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join("> <")}>`);
  return tags;
};

const count = (s: string, sub: string) => s.split(sub).length - 1;

Deno.test("boardSVG: cells, dominoes coloured by player, labelled by round", () => {
  const svg = boardSVG(board4x4_3);
  const tags = parseXml(svg);
  assertEquals(tags[0], "svg");
  assertEquals(count(svg, 'class="domino H"'), 1);
  assertEquals(count(svg, 'class="domino V"'), 1);
  assertEquals(count(svg, `fill="${COLOURS.H}"`), 1);
  assertStringIncludes(svg, ">1</text>");
  assertStringIncludes(svg, ">2</text>");
  // 16 cells and two dominoes, plus the background.
  assertEquals(tags.filter((t) => t === "rect").length, 1 + 16 + 2);
  // Round 1 is H's domino at (2,1), round 2 V's at (1,3).
  assertEquals(dominoes(board4x4_3).map((d) => [d.round, d.player, d.cell]), [[1, "H", [2, 1]], [
    2,
    "V",
    [1, 3],
  ]]);
});

Deno.test("boardSVG: the Alpha Dom games show every round, and scale", () => {
  for (const b of [alphaDom_vs_LeeSedom, alphaDom_vs_RanDom]) {
    const svg = boardSVG(b);
    parseXml(svg);
    assertEquals(count(svg, 'class="domino'), b.hist.length);
    for (let r = 1; r <= b.hist.length; r++) assertStringIncludes(svg, `>${r}</text>`);
    // 9x9 cells of 30 px plus margins; twice as large at scale 2.
    assertStringIncludes(svg, 'width="282"');
    assertStringIncludes(boardSVG(b, 2), 'width="564"');
  }
});

Deno.test("gametreeSVG: one board per node, one edge per branch", () => {
  const t = prune(2, gametree(board(3, 3)));
  const svg = gametreeSVG(t);
  const tags = parseXml(svg);
  assertEquals(tags.filter((x) => x === "line").length, 26, "27 nodes, 26 branches");
  // Every node draws 9 cells: 27 * 9 cell rects, 6 + 2 * 20 dominoes, and the background.
  assertEquals(count(svg, `fill="#f5f1e6"`), 27 * 9);
  assertEquals(count(svg, 'class="domino'), 6 + 20 * 2);
});

Deno.test("labelledTreeSVG: the 3x3 depth-2 minimax tree carries the scores", () => {
  const t = mapTree(
    ([b, v]) => [b, showScore(v)] as const,
    minimax(score, prune(2, gametree(board(3, 3)))),
  );
  const svg = labelledTreeSVG(t);
  parseXml(svg);
  assertStringIncludes(svg, ">Heu (-2)</text>");
  assertEquals(count(svg, ">Win V</text>"), 4 + 4, "four V wins at depth 1 and four at depth 2");
});

Deno.test("alphabetaSVG: bounds, and pruned nodes crossed out or left out", () => {
  const a = alphabeta(score, prune(2, gametree(board(3, 3))));
  const crossed = alphabetaSVG(a);
  parseXml(crossed);
  assertStringIncludes(crossed, ">≥Heu 2</text>");
  const pruned = count(crossed, 'class="pruned"');
  assertEquals(pruned, 12);
  const dropped = alphabetaSVG(a, 1, true);
  parseXml(dropped);
  assertEquals(count(dropped, 'class="pruned"'), 0);
  assertEquals(count(dropped, "<line"), 26 - 12);
});

Deno.test("tree pictures refuse huge trees", () => {
  const t = mapTree((b) => ({ board: b }), gametree(board(4, 4)));
  assertThrows(() => treeSVG(t, 1, 500), RangeError, "more than 500 nodes: prune it first");
  assertEquals(MAX_TREE_NODES, 20000);
});

Deno.test("deno task render writes the seed's pictures", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = async (...args: string[]) => {
      const r = await runTask("render", ["domineering", ...args]);
      return { code: r.code, text: r.stdout + r.stderr };
    };
    const a = await run("--example", "alphadom-leesedom", "--out", `${dir}/a.svg`);
    assertEquals(a.code, 0, a.text);
    assertEquals(count(await Deno.readTextFile(`${dir}/a.svg`), 'class="domino'), 27);
    const t = await run(
      "--board",
      "3x3",
      "--tree",
      "2",
      "--label",
      "alphabeta",
      "--out",
      `${dir}/t.svg`,
    );
    assertEquals(t.code, 0, t.text);
    assert(parseXml(await Deno.readTextFile(`${dir}/t.svg`)).includes("path"));
    const bad = await run("--board", "3x3", "--tree", "x");
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.text, "--tree must be a depth");
    // A move refused where the board is made (the plugin thread) is the user's mistake too.
    const illegal = await run("--moves", "b1,b1");
    assertEquals(illegal.code, 2);
    assertStringIncludes(illegal.text, "error: --moves: move 2 'b1': V cannot play at (2,1)");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task render makes its pictures in a plugin thread, not on the main thread", async () => {
  // The main thread's modules: none of the plugin's own (the seed's trees, the SVG; its
  // about.ts, plain data the registry reads, aside).
  const main = await staticGraph("plugins/domineering/scripts/render.ts");
  const thread = await staticGraph("plugins/domineering/scripts/render_thread.ts");
  const plugin = (graph: Set<string>) =>
    [...graph].filter((s) =>
      s.includes("/plugins/domineering/") && !s.includes("/scripts/") && !s.endsWith("/about.ts")
    ).map((s) => s.slice(s.indexOf("/plugins/") + 1)).sort();
  assertEquals(plugin(main), []);
  assertEquals(plugin(thread).filter((s) => /seed003|svg/.test(s)), [
    "plugins/domineering/seed003.ts",
    "plugins/domineering/svg.ts",
  ]);
  // The work runs where the heap is bounded: a picture of 78 million characters (871
  // boards of 900 cells) cannot be made in 64 MB, and the program says so in one line.
  // (A call limit of ten minutes: the heap's end decides, never the machine's speed.)
  const r = await runTask("render", [
    "domineering",
    "--board",
    "30x30",
    "--tree",
    "1",
    "--memory",
    "64",
    "--call-limit",
    "600",
    "--out=-",
  ]);
  assertEquals(r.code, 1, r.stderr);
  assertEquals(r.stdout, "");
  // After the line of `deno task` (the command it runs): one line, no stack trace.
  assertEquals(
    r.stderr.trim().split("\n").filter((l) => !l.startsWith("Task render ")),
    [
      "error: plugin ./plugins/domineering/mod.ts failed in gametreeSVG(): it ran out of memory " +
      "(limit 64 MB; --memory changes it)",
    ],
  );
});
