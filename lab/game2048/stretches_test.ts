/**
 * The network's stretches between the endgame solver's phases, screened
 * (`lab/game2048/stretches.ts`): where a stretch starts, where it stops (a chain the
 * solver fits), and the kept screens' figures.
 */
import { assert, assertEquals, assertStringIncludes } from "../../testing/deps.ts";
import {
  solverFits,
  stretchLines,
  stretchStarts,
  stretchTrials,
  summarizeStretches,
} from "./stretches.ts";
import { packCells } from "../../plugins/game2048/board.ts";
import { createGame } from "../../plugins/game2048/rules.ts";

const fits = (cells: number[], region: number, gaps: number) => {
  const [lo, hi] = packCells(cells)!;
  return solverFits(lo, hi, region, gaps);
};

Deno.test("solverFits: a chain the endgame solver takes, gapped only behind a 16384", () => {
  // 16384 8192 2048 1024 512 256: the 4096 skipped.
  const gapped = [0, 0, 0, 0, 2, 0, 0, 0, 512, 256, 2, 0, 1024, 2048, 8192, 16384];
  assert(!fits(gapped, 10, 0));
  assert(fits(gapped, 10, 1));
  assert(!fits(gapped, 9, 1)); // seven tiles needed for nine cells
  // The same chain one rank lower: no gap behind an 8192.
  assert(!fits(gapped.map((t) => t >= 256 ? t / 2 : t), 10, 1));
  // Two gaps are not one.
  const twice = [0, 0, 0, 0, 2, 0, 0, 0, 512, 128, 2, 0, 1024, 2048, 8192, 16384];
  assert(!fits(twice, 10, 1));
  assert(fits(twice, 10, 2));
});

/** A run's line with the given phases (`ChainGame`), a board for each. */
const runLine = (
  index: number,
  maxTile: number,
  slides: number,
  phases: [number, number, number[]][],
) =>
  JSON.stringify({
    index,
    seed: 10 + index,
    maxTile,
    score: 1,
    slides,
    longestMs: 1,
    phases: phases.map(([from, to, chain]) => ({
      from,
      to,
      chain,
      probability: 1,
      board: BOARD,
      lastBoard: BOARD,
    })),
  });

const BOARD = [0, 0, 0, 0, 2, 0, 0, 0, 8, 4, 2, 0, 1024, 2048, 4096, 16384];
const SIX = [16384, 8192, 4096, 2048, 1024, 512], FOUR = [16384, 8192, 4096, 2048];

Deno.test("stretchStarts: after a collapse, where the network played before a 32768", () => {
  const text = [
    // Position 1: a phase of six (it still fits: the solver let it go), a collapse
    // followed at once by another phase, a collapse the network played on from (100
    // slides), then the last phase, its last collapse, and its 32768 a few slides after.
    runLine(1, 32768, 500, [
      [10, 20, SIX],
      [30, 30, FOUR],
      [31, 40, SIX],
      [41, 41, FOUR],
      [142, 200, SIX],
      [201, 201, [16384, 8192]],
      [204, 204, [32768]],
    ]),
    // Position 0: a collapse, then the network to the game's end: lost there.
    runLine(0, 16384, 300, [[50, 50, FOUR]]),
    "a summary line",
  ].join("\n");
  const starts = stretchStarts(text, 10);
  assertEquals(
    starts.map((s) => [s.index, s.seed, s.phase, s.slides, s.lost]),
    [[0, 10, 0, 250, true], [1, 11, 3, 101, false]],
  );
  assertEquals([starts[1].lo, starts[1].hi], packCells(BOARD));
  // Nine cells: the chains of six no longer fit, so the network played after them too.
  assertEquals(stretchStarts(text, 9).map((s) => [s.index, s.phase]), [
    [0, 0],
    [1, 0],
    [1, 3],
  ]);
});

Deno.test("stretchTrials: each stretch ends at a chain the solver fits, a 32768, or the game's end", () => {
  const game = createGame(4, 4, "monotone");
  const at = (cells: number[]) => {
    const [lo, hi] = packCells(cells)!;
    return { index: 2, seed: 5, phase: 3, chain: FOUR, lo, hi, slides: 9, lost: false };
  };
  // A collapse (two 4096s): merged by the first slide, then the chain is rebuilt.
  const collapse = [0, 0, 0, 0, 2, 0, 0, 0, 2, 4, 0, 0, 1024, 2048, 4096, 4096];
  const r = stretchTrials(game, at(collapse), 4, 1, 1, { endgame: 10, gaps: 0 });
  assertEquals([r.index, r.phase, r.runSlides, r.runLost, r.trials], [2, 3, 9, false, 4]);
  assert(r.lost + r.won <= r.trials && r.slides > 1, JSON.stringify(r));
  // The same tiles again: the same stretches.
  assertEquals(stretchTrials(game, at(collapse), 4, 1, 1, { endgame: 10, gaps: 0 }), r);
  // Two 16384s merged by the first slide: 32768.
  const won = stretchTrials(
    game,
    at([0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 16384, 16384]),
    3,
    1,
    1,
    {
      endgame: 10,
    },
  );
  assertEquals([won.won, won.lost, won.slides], [3, 0, 1]);
  // A chain of six after the first slide (up: the only one): fits at once.
  const six = [0, 0, 0, 0, 0, 0, 0, 0, 1024, 512, 2, 4, 2048, 4096, 8192, 16384];
  const fitted = stretchTrials(game, at(six), 3, 1, 1, { endgame: 10 });
  assertEquals([fitted.won, fitted.lost, fitted.slides], [0, 0, 1]);
  // A jammed board: lost, no slide.
  const jammed = [16384, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4];
  const none = stretchTrials(game, at(jammed), 2, 1, 1, { endgame: 10 });
  assertEquals([none.lost, none.slides], [2, 0]);
});

Deno.test("lab/game2048/stretches.ts names a wrong option", async () => {
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-import", "lab/game2048/stretches.ts", ...args],
      cwd: new URL("../..", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  const usage = await run();
  assertEquals(usage.code, 2);
  assertStringIncludes(text(usage.stderr), "usage: lab/game2048/stretches.ts --run RUN");
  const zero = await run("--run", "lab/game2048/data/2048-e10-g1t1.jsonl", "--trials", "0");
  assertEquals(zero.code, 2);
  assertStringIncludes(text(zero.stderr), "--trials must be a whole number from 1 to 1000, not 0");
});

Deno.test("the screens kept in lab/game2048/data/ start where the run's network played, and lose less deeper", () => {
  const data = (name: string) => Deno.readTextFileSync(new URL(`./data/${name}`, import.meta.url));
  const starts = stretchStarts(data("2048-e10-g1t1.jsonl"), 10);
  const key = (r: { index: number; phase: number }) => `${r.index}/${r.phase}`;
  const byKey = new Map(starts.map((s) => [key(s), s]));
  // The depth's arms: seed 1 (one stretch a start, the same tiles at every depth) and seed 2.
  const kept: [string, number][] = [
    ["2048-g1t1-stretches-d3.jsonl", 1],
    ["2048-g1t1-stretches-d5.jsonl", 1],
    ["2048-g1t1-stretches-d7.jsonl", 1],
    ["2048-g1t1-stretches-d5-s2.jsonl", 8],
    ["2048-g1t1-stretches-d7-s2.jsonl", 1],
  ];
  const sums = new Map<string, { lost: number; stretches: number }>();
  for (const [name, trials] of kept) {
    const rows = stretchLines(data(name));
    // Every start of the run once, as the run's own game played it.
    assertEquals(rows.map(key), starts.map(key), name);
    for (const r of rows) {
      const s = byKey.get(key(r))!;
      assertEquals([r.chain, r.runSlides, r.runLost, r.trials], [
        s.chain,
        s.slides,
        s.lost,
        trials,
      ]);
      assert(r.lost + r.won <= r.trials && r.slides >= 0, `${name}: ${key(r)}`);
    }
    const sum = summarizeStretches(rows);
    assertEquals([sum.starts, sum.runLost, Math.round(sum.runSlides)], [starts.length, 9, 787]);
    sums.set(name.replace("2048-g1t1-stretches-", "").replace(".jsonl", ""), sum);
  }
  // FIGURES.md's figures: the losses of each arm, and on the same tiles depth 3 losing more
  // than depth 5, depth 5 more than depth 7; over both seeds depth 5 4.4%, depth 7 3.1%.
  const lost = (...arms: string[]) => arms.reduce((a, arm) => a + sums.get(arm)!.lost, 0);
  const played = (...arms: string[]) => arms.reduce((a, arm) => a + sums.get(arm)!.stretches, 0);
  assertEquals(["d3", "d5", "d7", "d5-s2", "d7-s2"].map((a) => lost(a)), [25, 18, 9, 113, 12]);
  assertEquals([played("d5", "d5-s2"), played("d7", "d7-s2")], [3006, 668]);
  assert(lost("d5", "d5-s2") / 3006 > lost("d7", "d7-s2") / 668);
});
