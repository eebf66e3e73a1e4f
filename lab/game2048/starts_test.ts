/**
 * The kept first positions of a 2048 series (`lab/game2048/starts.ts`): a line is the
 * match's own game up to the position, or the whole game where it never got there; the
 * chains bench reads such a file in place of a `games.jsonl` and resumes a run kept in a
 * file (`--out`), as a campaign spread over sessions and machines needs.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows } from "../../testing/deps.ts";
import { playOne, playSeeded } from "./games.ts";
import {
  type ChainSolve,
  compareTrials,
  phaseGoal,
  phaseStarts,
  type PhaseTrials,
  trialLines,
} from "./phases.ts";
import { type ChainGame, chainStarts } from "./positions.ts";
import { compareRuns, splice } from "./runs.ts";
import { holdsChain, playToStart, type StartLine } from "./starts.ts";
import { packCells, unpackCells } from "../../plugins/game2048/board.ts";
import { createGame, SLIDER_TURN } from "../../plugins/game2048/rules.ts";

// The hand-made evaluation at one ply: games of about a thousand slides, played in a second.
const options = { width: 4, height: 4, eval: "monotone" };

Deno.test("lab/game2048/starts.ts stops the match's own game at its first position that holds", () => {
  // Stands in for the first 16384: the first 128 of a one-ply game.
  const has128 = (lo: number, hi: number) => unpackCells(lo, hi).includes(128);
  const line = playToStart("expectimax:1", options, 3, 1, has128);
  assert(line.start !== undefined && line.record === undefined);
  assertEquals([line.seed, line.p1, line.tiles], [3, "expectimax:1", 1]);
  // The whole game, replayed to its first slider position with a 128: the same position.
  const { played: { transcript } } = playSeeded("expectimax:1", options, 3);
  const rules = createGame(4, 4, "monotone");
  let s = rules.initial(), slides = 0;
  for (const m of transcript.moves) {
    if (m.by === 0) {
      if (s.slice(0, 16).includes(128)) break;
      slides++;
    }
    s = rules.play(s, m.move);
  }
  assert(transcript.stats!.maxTile > 128); // the whole game went past it
  const { start } = line;
  assertEquals([start.lo, start.hi], packCells(s));
  assertEquals([start.slides, start.score], [slides, rules.stats!(s).score]);
});

Deno.test("lab/game2048/starts.ts keeps the whole game's record where it never holds", () => {
  const line = playToStart("expectimax:1", options, 3, 1, () => false);
  const whole = playOne("expectimax:1", options, 3);
  assert(line.start === undefined && line.record !== undefined);
  assertEquals(
    [line.record.moves, line.record.stats, line.record.reason],
    [whole.moves, whole.stats, whole.reason],
  );
});

/** A starts line at the board `cells` (a 16384 in it), or a game's record without one. */
const startLine = (seed: number, cells?: number[], tiles = 1): StartLine => {
  if (cells === undefined) {
    const stats = { score: 99, maxTile: 8192, reached16384: 0, reached32768: 0 };
    return {
      seed,
      p1: "expectimax:5,endgame=10",
      tiles,
      options,
      record: { seed, p1: "x", options, moves: 7, seconds: 0.5, stats, reason: "end" },
    };
  }
  const [lo, hi] = packCells(cells)!;
  return {
    seed,
    p1: "expectimax:5,endgame=10",
    tiles,
    options,
    start: { seed, lo, hi, slides: 10, seconds: 2, score: 500 },
  };
};

/** A full board with a 16384 and no merge: its game is over at once. */
const jammed = [16384, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4];

Deno.test("lab/game2048/chains.ts reads a starts file in place of a games.jsonl", () => {
  const text = [startLine(4, jammed), startLine(5), startLine(6, jammed)]
    .map((l) => JSON.stringify(l)).join("\n");
  const starts = chainStarts(text, 1);
  assertEquals(starts.map((s) => [s.seed, s.made32768]), [[4, undefined], [6, undefined]]);
  assert(holdsChain(1)(starts[0].lo, starts[0].hi));
  // Spliced: the kept record as it is, the positions with the run's play on.
  const run = JSON.stringify({
    index: 1,
    seed: 6,
    slides: 3,
    longestMs: 1,
    ms: 40,
    maxTile: 16384,
    score: 8,
  });
  const s = splice(text, run, 1, "spec");
  assertEquals(s.unplayed, 1);
  assertEquals(s.records.map((r) => [r.seed, r.moves, r.stats.score, r.p1]), [
    [5, 7, 99, "spec"],
    [6, 13, 508, "spec"],
  ]);
  // A file made for another chain is named as such.
  assertThrows(
    () => chainStarts(JSON.stringify(startLine(4, jammed, 6)), 1),
    Error,
    "give --tiles 6, or a match's games.jsonl",
  );
});

Deno.test("lab/game2048/chains.ts --out: positions already in the run are kept, the others played and added", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const series = `${dir}/starts.jsonl`, out = `${dir}/run.jsonl`;
    Deno.writeTextFileSync(
      series,
      [startLine(4, jammed), startLine(6, jammed)].map((l) => JSON.stringify(l)).join("\n"),
    );
    // Position 0 is in the run already (as a win, which the jammed board cannot give).
    const kept = { index: 0, seed: 4, slides: 1, longestMs: 1, ms: 1, maxTile: 32768, score: 1 };
    Deno.writeTextFileSync(out, JSON.stringify(kept) + "\n");
    const run = () =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--allow-read",
          "--allow-write",
          "--allow-import",
          "lab/game2048/chains.ts",
          ...["--series", series, "--tiles", "1", "--depth", "1", "--endgame", "0"],
          ...["--out", out],
        ],
        cwd: new URL("../..", import.meta.url).pathname,
        stdout: "piped",
        stderr: "piped",
      }).output();
    const first = await run();
    const stdout = new TextDecoder().decode(first.stdout);
    assertEquals(first.code, 0, new TextDecoder().decode(first.stderr));
    assertStringIncludes(stdout, "2 of 2 positions");
    assertStringIncludes(stdout, "32768 in 1");
    const lines = Deno.readTextFileSync(out).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(lines.map((l) => [l.index, l.seed]), [[0, 4], [1, 6]]);
    // The jammed board's game: over at once, the 16384 its largest tile.
    assertEquals(createGame(4, 4, "monotone").moves([...jammed, 0, 0]), []);
    assertEquals([lines[1].slides, lines[1].maxTile], [0, 16384]);
    // Again: nothing left to play, the file as it was.
    const second = await run();
    assertEquals(second.code, 0);
    assertEquals(Deno.readTextFileSync(out).trim().split("\n").length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lab/game2048/chains.ts --solve --board, --trials and --compare: one board solved, two arms paired, wrong options named", async () => {
  const chains = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-import", "lab/game2048/chains.ts", ...args],
      cwd: new URL("../..", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  // A snake of twelve tiles over four cells: the solver's 0.90.
  const snake = "16384,8192,4096,2048,128,256,512,1024,64,32,16,8,2,0,0,0";
  const solved = await chains("--solve", "--board", snake, "--endgame", "4");
  assertEquals(solved.code, 0, text(solved.stderr));
  const line = JSON.parse(text(solved.stdout));
  assert(Math.abs(line.probability - 0.9006) < 0.0001 && line.move >= 0, text(solved.stdout));
  const wrong = await chains("--solve", "--board", "2,4,8");
  assertEquals(wrong.code, 2);
  assertStringIncludes(text(wrong.stderr), "--board takes the 16 cells");
  const run = "lab/game2048/data/2048-e10-g1t1.jsonl";
  const none = await chains("--trials", "0", "--phase-of", run);
  assertEquals(none.code, 2);
  assertStringIncludes(text(none.stderr), "--trials must be a whole number from 1 to 1000, not 0");
  // Two arms' trials paired trial by trial: FIGURES.md's 24 to 1.
  const pair = await chains(
    "--compare",
    "lab/game2048/data/2048-g1t1-trials-last.jsonl",
    "--compare",
    "lab/game2048/data/2048-g1t1-trials-last-letgo.jsonl",
  );
  assertEquals(pair.code, 0, text(pair.stderr));
  assertStringIncludes(
    text(pair.stdout),
    "position 3: 100 trials; made 69 and 75; by one alone: 0 and 6",
  );
  assertStringIncludes(text(pair.stdout), "500 trials; made 365 and 388; by one alone: 1 and 24");
  // A file without outcomes cannot pair; a goal below the phase's own is named.
  const unpaired = await chains(
    "--compare",
    "lab/game2048/data/2048-g1t1-trials-last.jsonl",
    "--compare",
    "lab/game2048/data/2048-g1t1-trials-last-net.jsonl",
  );
  assertEquals(unpaired.code, 2);
  assertStringIncludes(
    text(unpaired.stderr),
    "position 0: the two lines differ in seed or lack outcomes",
  );
  const early = await chains("--trials", "1", "--phase-of", run, "--goal", "256");
  assertEquals(early.code, 2);
  assertStringIncludes(
    text(early.stderr),
    "--goal must be a tile from the phase's own goal 32768 to 65536, not 256",
  );
});

Deno.test("the starts kept in lab/game2048/data/ read as a series: a seed each, each at its first 16384", () => {
  const path = new URL("./data/2048-e10-starts.jsonl", import.meta.url);
  const lines: StartLine[] = Deno.readTextFileSync(path).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const seeds = lines.map((l) => l.seed);
  assertEquals(new Set(seeds).size, seeds.length);
  for (const l of lines) {
    assertEquals([l.tiles, l.p1, (l.start === undefined) !== (l.record === undefined)], [
      1,
      "expectimax:5,endgame=10",
      true,
    ]);
    if (l.record !== undefined) assert(l.record.stats.maxTile < 16384, `seed ${l.seed}`);
  }
  const starts = chainStarts(Deno.readTextFileSync(path), 1);
  assertEquals(starts.length, lines.filter((l) => l.start !== undefined).length);
  for (const s of starts) {
    assert(holdsChain(1)(s.lo, s.hi), `seed ${s.seed}`);
    assertEquals(Math.max(...unpackCells(s.lo, s.hi)), 16384);
  }
});

Deno.test("the runs kept in lab/game2048/data/ hold each start's own game, played to its end", () => {
  const data = (name: string) => Deno.readTextFileSync(new URL(`./data/${name}`, import.meta.url));
  const starts = chainStarts(data("2048-e10-starts.jsonl"), 1);
  const rules = createGame(4, 4, "monotone");
  // The run of gaps=1,through=1, the same with letgo=0.3, that at depth 7 (stopped), and
  // gaps=1,letgo=0.3 without through (stopped: the positions it played).
  const runs = [
    "2048-e10-g1t1.jsonl",
    "2048-e10-g1t1-letgo30.jsonl",
    "2048-e10-g1t1-letgo30-d7.jsonl",
    "2048-e10-g1-letgo30.jsonl",
  ];
  for (const name of runs) {
    const games: ChainGame[] = data(name).trim().split("\n").map((l) => JSON.parse(l));
    assert(games.length > 0, name);
    const indices = games.map((g) => g.index);
    assertEquals(new Set(indices).size, indices.length, name);
    for (const g of games) {
      const at = `${name}: position ${g.index}`;
      assertEquals(g.seed, starts[g.index].seed, at);
      // The game ended where no slide is left, its largest tile the line's.
      const final = [...g.final!, SLIDER_TURN, 0];
      assertEquals(rules.moves(final).length, 0, at);
      assertEquals(Math.max(...g.final!), g.maxTile, at);
      assert(g.maxTile >= 16384, at);
      // The phases come in order, within the game's slides.
      let last = -1;
      for (const p of g.phases!) {
        assert(last < p.from && p.from <= p.to && p.to < g.slides, at);
        last = p.to;
      }
    }
  }
});

Deno.test("the runs kept in lab/game2048/data/ pair as FIGURES.md says, position by position", () => {
  const data = (name: string) => Deno.readTextFileSync(new URL(`./data/${name}`, import.meta.url));
  const run = data("2048-e10-g1t1.jsonl"), letgo = data("2048-e10-g1t1-letgo30.jsonl");
  // Letting go at 0.3: 54 of the 95 where the run made 48, 8 by it alone and 2 by the run.
  const a = compareRuns(run, letgo);
  assertEquals([a.positions, a.made, a.alone], [95, [48, 54], [2, 8]]);
  // Without through=1 (stopped after 32 positions): 13 where the letgo run made 22.
  const b = compareRuns(data("2048-e10-g1-letgo30.jsonl"), letgo);
  assertEquals([b.positions, b.made, b.alone], [32, [13, 22], [2, 11]]);
  assert(b.p < 0.025, `p = ${b.p}`);
  // At depth 7 (stopped after 9 positions): 2 where depth 5 made 7.
  const c = compareRuns(data("2048-e10-g1t1-letgo30-d7.jsonl"), letgo);
  assertEquals([c.positions, c.made, c.alone], [9, [2, 7], [1, 6]]);
});

Deno.test("the solves kept in lab/game2048/data/ start where the run's games held the chain", () => {
  const data = (name: string) => Deno.readTextFileSync(new URL(`./data/${name}`, import.meta.url));
  const run = data("2048-e10-g1t1.jsonl");
  const lines = (name: string): ChainSolve[] =>
    data(name).trim().split("\n").map((l) => JSON.parse(l));
  const kept: [string, number[]][] = [
    ["2048-g1t1-last-r10.jsonl", [16384, 8192, 4096, 2048, 1024, 512]],
    ["2048-g1t1-last-r11.jsonl", [16384, 8192, 4096, 2048, 1024, 512]],
    ["2048-g1t1-through-r11.jsonl", [16384, 8192, 4096, 2048, 1024, 256]],
  ];
  for (const [name, chain] of kept) {
    const starts = new Map(phaseStarts(run, chain).map((s) => [s.index, s.start.seed]));
    const solves = lines(name);
    assert(solves.length > 0, name);
    for (const s of solves) {
      // Each a position whose game held the chain, solved (a slide, a chance).
      assertEquals(s.seed, starts.get(s.index), `${name}: position ${s.index}`);
      assert(s.move >= 0 && s.probability > 0 && s.positions > 0, `${name}: position ${s.index}`);
    }
  }
  // The player played on from the phases' first boards (`--trials`): each line a position
  // whose game held the chain, at the run's chance. The gapped phases made more than it, the
  // last phase about it, the network alone there far less.
  const gapped = (made: number, chance: number) => made > chance + 0.02;
  const about = (made: number, chance: number) => Math.abs(made - chance) < 0.05;
  const trials: [string, number[], number, (made: number, chance: number) => boolean][] = [
    ["2048-g1t1-trials-first.jsonl", [16384, 4096, 2048, 1024, 512, 256], 8, gapped],
    ["2048-g1t1-trials-second.jsonl", [16384, 8192, 2048, 1024, 512, 256], 4, gapped],
    ["2048-g1t1-trials-last.jsonl", [16384, 8192, 4096, 2048, 1024, 512], 5, about],
    ["2048-g1t1-trials-through.jsonl", [16384, 8192, 4096, 2048, 1024, 256], 3, gapped],
    [
      "2048-g1t1-trials-last-net.jsonl",
      [16384, 8192, 4096, 2048, 1024, 512],
      5,
      (m, c) => m < c / 2,
    ],
  ];
  for (const [name, chain, positions, holds] of trials) {
    const starts = new Map(phaseStarts(run, chain).map((s) => [s.index, s]));
    const rows: PhaseTrials[] = data(name).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(rows.length, positions, name);
    for (const r of rows) {
      const s = starts.get(r.index)!;
      assertEquals([r.seed, r.probability, r.goal], [
        s.start.seed,
        s.probability,
        phaseGoal(chain),
      ]);
      assert(r.made <= r.trials && r.trials === 100, `${name}: position ${r.index}`);
    }
    const made = rows.reduce((a, r) => a + r.made, 0) / (100 * rows.length);
    const chance = rows.reduce((a, r) => a + r.probability, 0) / rows.length;
    assert(holds(made, chance), `${name}: ${made} against ${chance}`);
  }
  // The same trials searched eleven plies deep on crowded boards the solver lets go
  // (`--rescue 11 --crowd 3`): the same tiles, so each trial pairs with the run's spec's.
  // Of 2,000, 7 came out otherwise (3 made, 4 lost): FIGURES.md's figures.
  // Every kept trials file: each line's outcomes, where it gives them, add up to what it made.
  for (const f of Deno.readDirSync(new URL("./data/", import.meta.url))) {
    if (!f.name.startsWith("2048-g1t1-trials-")) continue;
    for (const r of trialLines(data(f.name))) {
      if (r.outcomes === undefined) continue;
      assertEquals(r.outcomes.length, r.trials, `${f.name}: position ${r.index}`);
      assertEquals([...r.outcomes].filter((o) => o === "1").length, r.made, f.name);
    }
  }
  /** Trials made only by the second file's arm, and only by the first's (`compareTrials`). */
  const paired = (a: string, b: string): [number, number] => {
    const c = compareTrials(
      data(`2048-g1t1-trials-${a}.jsonl`),
      data(`2048-g1t1-trials-${b}.jsonl`),
    );
    // Every position of the arm is paired, over all its trials.
    assertEquals(c.all.trials, 100 * data(`2048-g1t1-trials-${b}.jsonl`).trim().split("\n").length);
    return [c.all.alone[1], c.all.alone[0]];
  };
  let won = 0, lost = 0;
  for (const phase of ["first", "second", "through", "last"]) {
    const [w, l] = paired(phase, `${phase}-rescue`);
    won += w;
    lost += l;
  }
  assertEquals([won, lost], [3, 4]);
  // Letting the chain go below a chance (`--letgo P`), each arm against the spec or another
  // arm: trials made only by the second, only by the first (FIGURES.md's figures).
  const arms: [string, string, [number, number]][] = [
    // With `--rescue 9 --crowd 16` (nine plies wherever the solver does not play).
    ["last", "last-letgo", [24, 1]],
    ["first", "first-letgo", [6, 1]],
    ["second", "second-letgo", [2, 0]],
    ["last", "last-letgo30", [32, 4]],
    ["through", "through-letgo", [4, 2]],
    // With the spec's own depth after it: the letting go does the work.
    ["last", "last-letgo10-d5", [23, 2]],
    ["last", "last-letgo30-d5", [31, 4]],
    ["last", "last-letgo50-d5", [33, 17]],
    ["through", "through-letgo10-d5", [2, 0]],
    // The thresholds against each other: 0.3 over 0.1, and 0.5 under 0.3.
    ["last-letgo10-d5", "last-letgo30-d5", [10, 4]],
    ["last-letgo30-d5", "last-letgo50-d5", [4, 15]],
    // The phase before the last played on through the last one to 32768.
    ["through-to32768", "through-to32768-letgo10-d5", [9, 1]],
    ["through-to32768", "through-to32768-letgo30-d5", [14, 3]],
  ];
  for (const [a, b, expected] of arms) assertEquals(paired(a, b), expected, `${a} against ${b}`);
  // Lines without outcomes (written before the trials kept them) cannot pair.
  assertThrows(
    () =>
      compareTrials(data("2048-g1t1-trials-last-net.jsonl"), data("2048-g1t1-trials-last.jsonl")),
    Error,
    "lack outcomes",
  );
  // The tail free to move in eleven cells: the same chances, over more positions.
  const [ten, eleven] = [lines(kept[0][0]), lines(kept[1][0])];
  assertEquals(
    eleven.map((s) => [s.index, s.probability]),
    ten.map((s) => [s.index, s.probability]),
  );
  ten.forEach((s, i) => assert(eleven[i].positions > s.positions, `position ${s.index}`));
});
