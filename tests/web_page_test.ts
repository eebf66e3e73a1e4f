/**
 * The web page's logic without a browser (web/picks.ts, web/tree.ts, web/format.ts) and
 * how its script is made (web/bundle.ts): both ways give a browser a script that links,
 * and neither carries the server's Schemas.
 *
 * The browser-driven tests are web_e2e_*.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import type { LegalMove, NodeView } from "../server/protocol.ts";
import { pageAssets, strippedModules } from "../web/bundle.ts";
import { barFill, reviewMark } from "../web/format.ts";
import {
  keysOf,
  moveOf,
  nextTokens,
  pick,
  swipeKey,
  targetVerdicts,
  type Verdict,
} from "../web/picks.ts";
import {
  chanceToMove,
  type Item,
  layout,
  mergeNodes,
  pathTo,
  settle,
  stepBack,
  stepForward,
} from "../web/tree.ts";
import { runCommand, taskFlags } from "../testing/run.ts";
import { transcriptOfTree } from "../web/transcript.ts";
import { exportTranscript } from "../app/transcript.ts";
import type { Session } from "../app/session.ts";

// ---------------------------------------------------------------------------------
// Picks

/**
 * Legal moves with pick sequences as a picture must give them: no sequence is another's
 * prefix (nor equal to it). Built from a random trie: every leaf is one sequence.
 */
const arbLegal: fc.Arbitrary<LegalMove[]> = fc
  .array(
    fc.array(fc.constantFrom("a", "b", "c", "d", "key:ArrowUp"), {
      minLength: 1,
      maxLength: 3,
    }),
    {
      minLength: 1,
      maxLength: 12,
    },
  )
  .map((seqs) => {
    // Keep the sequences that are no other kept sequence's prefix, and no duplicates.
    const isPrefix = (p: string[], s: string[]) =>
      p.length <= s.length && p.every((t, i) => s[i] === t);
    const kept: string[][] = [];
    for (const s of seqs) {
      if (kept.some((k) => isPrefix(k, s) || isPrefix(s, k))) continue;
      kept.push(s);
    }
    // Group into moves: one or two sequences each (a domino's cells in either order).
    const moves: LegalMove[] = [];
    for (let i = 0; i < kept.length;) {
      const n = moves.length % 2 === 0 ? 2 : 1;
      moves.push({
        move: moves.length * 7 + 3,
        notation: `m${moves.length}`,
        picks: kept.slice(i, i + n),
      });
      i += n;
    }
    return moves;
  });

/** Every sequence of every move, with its move. */
const sequences = (legal: readonly LegalMove[]) =>
  legal.flatMap((m) => m.picks.map((seq) => ({ move: m.move, seq })));

Deno.test("picks: every sequence of every legal move, picked token by token, makes that move", () => {
  fc.assert(fc.property(arbLegal, (legal) => {
    for (const { move, seq } of sequences(legal)) {
      let prefix: readonly string[] = [];
      for (let i = 0; i < seq.length; i++) {
        const o = pick(legal, prefix, seq[i]);
        if (i < seq.length - 1) {
          assertEquals(o, { kind: "prefix", prefix: seq.slice(0, i + 1) });
          prefix = seq.slice(0, i + 1);
        } else assertEquals(o, { kind: "move", move });
      }
    }
  }));
});

Deno.test("picks: the targets are exactly the tokens that continue some sequence", () => {
  fc.assert(fc.property(arbLegal, fc.nat(), (legal, k) => {
    const all = sequences(legal);
    const { seq } = all[k % all.length];
    for (let n = 0; n < seq.length; n++) {
      const prefix = seq.slice(0, n);
      // Reference: the n-th tokens of the sequences whose first n tokens are the prefix.
      const expected = new Set(
        all.filter((s) =>
          s.seq.length > n &&
          s.seq.slice(0, n).join("\u0000") === prefix.join("\u0000")
        )
          .map((s) => s.seq[n]),
      );
      assertEquals(nextTokens(legal, prefix), expected);
      for (const t of ["a", "b", "c", "d", "e", "key:ArrowUp"]) {
        const o = pick(legal, prefix, t);
        if (expected.has(t)) {
          assert(o.kind !== "explain", `${t} after ${prefix} is a target`);
        } else if (prefix.includes(t)) {
          assertEquals(o, {
            kind: "prefix",
            prefix: prefix.slice(0, prefix.indexOf(t)),
          });
        } else assertEquals(o, { kind: "explain", picks: [...prefix, t] });
      }
    }
  }));
});

Deno.test("picks: a whole sequence names its move, a part of one names none", () => {
  const legal: LegalMove[] = [
    { move: 5, notation: "a1-a2", picks: [["a1", "a2"], ["a2", "a1"]] },
    { move: 9, notation: "b1", picks: [["b1"]] },
  ];
  assertEquals(moveOf(legal, ["a2", "a1"]), 5);
  assertEquals(moveOf(legal, ["a1"]), undefined);
  assertEquals(moveOf(legal, ["b1"]), 9);
  assertEquals(pick(legal, ["a1"], "a1"), { kind: "prefix", prefix: [] });
  assertEquals(pick(legal, ["a1"], "b1"), {
    kind: "explain",
    picks: ["a1", "b1"],
  });
});

Deno.test("picks: a target's verdict is the best one for the mover among the moves through it", () => {
  const rank = { loss: 0, draw: 1, win: 2 } as const;
  fc.assert(fc.property(
    arbLegal,
    fc.array(fc.constantFrom<Verdict>("win", "draw", "loss"), {
      minLength: 12,
      maxLength: 12,
    }),
    (legal, vs) => {
      const verdicts = new Map(legal.map((m, i) => [m.move, vs[i]] as const));
      const got = targetVerdicts(legal, [], verdicts);
      // Reference: for each first token, the verdicts of all moves with a sequence starting there.
      for (const t of nextTokens(legal, [])) {
        const through = legal.filter((m) => m.picks.some((s) => s[0] === t))
          .map((m) => verdicts.get(m.move)!);
        const best = through.reduce((a, b) => rank[b] > rank[a] ? b : a);
        assertEquals(got.get(t), best, `token ${t}`);
      }
      assertEquals(got.size, nextTokens(legal, []).size);
    },
  ));
});

Deno.test("picks: the keys of a game's moves, and swipes as arrow keys", () => {
  const legal: LegalMove[] = [
    { move: 0, notation: "u", picks: [["key:ArrowUp"]] },
    { move: 1, notation: "x", picks: [["c3", "key:x"]] },
  ];
  assertEquals(keysOf(legal), new Set(["ArrowUp", "x"]));
  assertEquals(swipeKey(0, -31), "ArrowUp");
  assertEquals(swipeKey(0, 40), "ArrowDown");
  assertEquals(swipeKey(-50, 10), "ArrowLeft");
  assertEquals(swipeKey(45, -44), "ArrowRight");
  assertEquals(swipeKey(30, 0), undefined, "30 px is a click");
  assertEquals(swipeKey(3, 2), undefined);
});

// ---------------------------------------------------------------------------------
// The move list

/** A random session tree: node i > 0 hangs under an earlier node; some moves are chance's. */
const arbTree: fc.Arbitrary<NodeView[]> = fc
  .array(
    fc.tuple(fc.nat(), fc.constantFrom<0 | 1 | "chance">(0, 1, "chance")),
    {
      maxLength: 40,
    },
  )
  .map((specs) => {
    const nodes: {
      id: number;
      parent: number;
      by: 0 | 1 | "chance";
      children: number[];
    }[] = [
      { id: 0, parent: -1, by: 0, children: [] },
    ];
    for (const [p, by] of specs) {
      const id = nodes.length;
      const parent = p % id;
      nodes.push({ id, parent, by, children: [] });
      nodes[parent].children.push(id);
    }
    return nodes.map((n) => ({ ...n, move: n.id === 0 ? -1 : n.id, notation: `n${n.id}` }));
  });

/** The moves of a layout in the order written, with the depth of variation they are in. */
const written = (
  items: readonly Item[],
  depth = 0,
): { id: number; number: number; depth: number }[] =>
  items.flatMap((it) =>
    it.kind === "move"
      ? [{ id: it.node.id, number: it.number, depth }]
      : written(it.items, depth + 1)
  );

Deno.test("move list: every move once, numbered by the players' moves before it on its path", () => {
  fc.assert(fc.property(arbTree, (nodes) => {
    const moves = written(layout(nodes));
    assertEquals(
      moves.map((m) => m.id).sort((a, b) => a - b),
      nodes.slice(1).map((n) => n.id),
    );
    for (const m of moves) {
      const n = nodes[m.id];
      // Reference: count the players' moves on the path from the start (the start is no move).
      const before = pathTo(nodes, m.id).slice(1, -1).filter((id) => nodes[id].by !== "chance");
      assertEquals(
        m.number,
        n.by === "chance" ? 0 : before.length + 1,
        `node ${m.id}`,
      );
    }
  }));
});

Deno.test("move list: a main line stays at its depth; a variation is written after its sibling main move", () => {
  fc.assert(fc.property(arbTree, (nodes) => {
    const moves = written(layout(nodes));
    const at = new Map(moves.map((m, i) => [m.id, i]));
    for (const n of nodes) {
      const [main, ...others] = n.children;
      if (main === undefined) continue;
      const mainAt = moves[at.get(main)!];
      // The main child is on the same line as its parent (the start is at depth 0).
      if (n.id !== 0) assertEquals(mainAt.depth, moves[at.get(n.id)!].depth);
      else assertEquals(mainAt.depth, 0);
      for (const o of others) {
        assert(
          at.get(o)! > at.get(main)!,
          `variation ${o} comes after ${main}`,
        );
        assertEquals(moves[at.get(o)!].depth, mainAt.depth + 1);
      }
    }
  }));
});

Deno.test("move list: a line with a variation, as a score sheet writes it", () => {
  const n = (
    id: number,
    parent: number,
    by: 0 | 1 | "chance",
    children: number[],
  ): NodeView => ({
    id,
    parent,
    by,
    children,
    move: id,
    notation: `m${id}`,
  });
  // start -> 1 (main) -> 2 -> 3; a variation 4 instead of 2, with its own 5.
  const nodes = [
    n(0, -1, 0, [1]),
    n(1, 0, 0, [2, 4]),
    n(2, 1, 1, [3]),
    n(3, 2, 0, []),
  ];
  nodes.push(n(4, 1, 1, [5]), n(5, 4, 0, []));
  const text = (items: readonly Item[]): string =>
    items.map((it) =>
      it.kind === "move"
        ? `${it.number > 0 ? `${it.number}.` : ""}${it.node.notation}`
        : `(${text(it.items)})`
    ).join(" ");
  assertEquals(text(layout(nodes)), "1.m1 2.m2 (2.m4 3.m5) 3.m3");
});

Deno.test("move list: the tree rebuilt from Positions that send only what changed", () => {
  fc.assert(fc.property(fc.array(arbTree, { minLength: 1, maxLength: 6 }), (snapshots) => {
    // The server's view: each snapshot in turn; the page gets the first in full, then
    // the nodes that are new or differ from what it was sent before.
    let page = mergeNodes([], snapshots[0], true, snapshots[0].length);
    assertEquals(page, snapshots[0]);
    for (let i = 1; i < snapshots.length; i++) {
      const before = snapshots[i - 1];
      const now = snapshots[i];
      const changed = now.filter((n) => JSON.stringify(before[n.id]) !== JSON.stringify(n));
      page = mergeNodes(page, changed, false, now.length);
      assertEquals(page, now);
    }
  }));
});

Deno.test("move list: stepping skips the positions where chance is to move", () => {
  fc.assert(fc.property(arbTree, fc.nat(), (nodes, k) => {
    const id = k % nodes.length;
    // Reference: walk the path from the start.
    const path = pathTo(nodes, id);
    const isChanceNode = (n: number) => nodes[n].children.some((c) => nodes[c].by === "chance");
    const back = path.slice(0, -1).reverse().find((n) => !isChanceNode(n));
    assertEquals(stepBack(nodes, id), back, `back from ${id}`);
    let forward = nodes[id].children[0];
    while (forward !== undefined && isChanceNode(forward)) forward = nodes[forward].children[0];
    assertEquals(stepForward(nodes, id), forward, `forward from ${id}`);
    const landed = settle(nodes, id);
    assert(landed === id || pathTo(nodes, landed).includes(id));
    assert(!chanceToMove(nodes, landed) || nodes[landed].children.length === 0 || landed === id);
  }));
  // 2048: the start (chance places a tile), a slide, a tile, a slide, a tile.
  const n = (id: number, by: 0 | 1 | "chance", children: number[]): NodeView => ({
    id,
    parent: id - 1,
    by,
    children,
    move: id,
    notation: `m${id}`,
  });
  const line = [n(0, 0, [1]), n(1, "chance", [2]), n(2, 0, [3]), n(3, "chance", [4]), n(4, 0, [])];
  assertEquals(stepBack(line, 4), 3, "after a slide, back to where it was played");
  assertEquals(stepBack(line, 3), 1, "after a tile, back past the slide's position");
  assertEquals(stepBack(line, 1), undefined, "the start is chance's");
  assertEquals(stepForward(line, 1), 3);
  assertEquals(stepForward(line, 3), 4, "the last slide, chance not yet played");
  assertEquals(settle(line, 2), 3);
  assertEquals(settle(line, 4), 4);
});

// ---------------------------------------------------------------------------------
// Texts

Deno.test("format: the value bar's fill and the review marks", () => {
  assertEquals(barFill(-1), 0);
  assertEquals(barFill(1), 1);
  assertEquals(barFill(0), 0.5);
  assertEquals(barFill(0.5), 0.75);
  assertEquals(barFill(7), 1);
  assertEquals(barFill(Number.NaN), 0.5);
  const review = (loss: number, mistake: boolean) => ({
    best: "a",
    loss,
    mistake,
    text: "",
  });
  assertEquals(reviewMark(undefined), "");
  assertEquals(reviewMark(review(3, false)), "");
  assertEquals(reviewMark(review(3, true)), "?");
  assertEquals(reviewMark(review(2 ** 40, true)), "??");
});

// ---------------------------------------------------------------------------------
// The page's script

/** Imports every stripped module from a folder of its own: a missing module or export fails. */
const linkModules = async (
  modules: ReadonlyMap<string, string>,
): Promise<void> => {
  const dir = await Deno.makeTempDir({ prefix: "ply-web-" });
  try {
    for (const [path, text] of modules) {
      await Deno.writeTextFile(`${dir}${path}`, text);
    }
    for (const path of modules.keys()) await import(`file://${dir}${path}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
};

Deno.test("page modules: types stripped, every module links, nothing imported from outside web/", async () => {
  const assets = await pageAssets("modules");
  assertEquals(assets.mode, "modules");
  const modules = await strippedModules();
  assert(
    modules.has("/page.js") && modules.has("/board.ts"),
    [...modules.keys()].join(" "),
  );
  for (const [path, text] of modules) {
    assertEquals(assets.files.get(path)?.body, text);
    assertStringIncludes(assets.files.get(path)!.type, "javascript");
    assert(
      !/from\s+["']\.\.\//.test(text),
      `${path} imports from outside web/`,
    );
  }
  assertStringIncludes(assets.files.get("/")!.body, `src="/page.js"`);
  assertStringIncludes(assets.files.get("/style.css")!.body, "#board");
  await linkModules(modules);
});

Deno.test("page bundle: the serve task's flags bundle the page, without the server's Schemas", async () => {
  const flags = taskFlags("serve").filter((w) => w.startsWith("--"));
  const ran = await runCommand(Deno.execPath(), [
    "run",
    ...flags,
    "web/bundle.ts",
  ], {
    cwd: new URL("../", import.meta.url),
    env: { NO_COLOR: "1" },
    stdin: "",
  });
  assertEquals(ran.code, 0, ran.stderr);
  const report = JSON.parse(ran.stdout);
  assertEquals(
    report.mode,
    "bundle",
    `the page was not bundled: ${report.note}`,
  );
  assertEquals(report.files, 5, "one script, the HTML, the style sheet and the icon (twice)");
  // Effect's Schema alone is hundreds of kilobytes; the page is a few dozen.
  assert(report.js < 80_000, `the bundle has ${report.js} characters`);
  assert(!report.schema, "the bundle holds Schema code");
});

Deno.test("web page: the moves a page holds make the transcript the server would write", () => {
  fc.assert(
    fc.property(arbTree, fc.nat(), fc.boolean(), (tree, pick, over) => {
      const current = pick % tree.length;
      const session: Session = {
        game: "nim",
        options: { heaps: [3] },
        seed: 11,
        players: ["human", "alphabeta:2"],
        nodes: tree.map((n) => ({
          parent: n.parent,
          by: n.by,
          move: n.move,
          notation: n.notation,
          ms: 0,
          children: [...n.children],
          next: -1,
        })),
        current,
        ...(over ? { result: { winner: 1 as const, margin: 2, reason: "end" } } : {}),
      };
      const pos = {
        _tag: "Position",
        kind: session.game,
        options: session.options,
        seed: session.seed,
        players: session.players,
        current,
        ...(over ? { result: { winner: 1, margin: 2, reason: "end", text: "x" } } : {}),
      } as unknown as Parameters<typeof transcriptOfTree>[0];
      assertEquals(transcriptOfTree(pos, tree), exportTranscript(session));
    }),
  );
});
