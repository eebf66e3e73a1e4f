/**
 * The lab's 2048 scripts (runs, phases, kept tables, series) over the product's endgame solver. Split from
 * 2048's exact endgame solver (`endgame.ts`): the chain of large tiles, the solver against
 * a plain recursion on cell arrays over random endgames, macroxue's published snake
 * figures, its table kept from move to move and across interruptions, its budget, and the
 * fast expectimax playing the solver's slide.
 */
import { assert, assertAlmostEquals, assertEquals, assertThrows } from "../../testing/deps.ts";
import { packCells, unpackCells } from "../../plugins/game2048/board.ts";
import { chainOf, chainsOf, EndgameSolver } from "../../plugins/game2048/endgame.ts";
import {
  networkStretches,
  phaseGoal,
  phaseStarts,
  phaseTable,
  phaseTrials,
  solveFrom,
} from "./phases.ts";
import { chainStarts, playFrom } from "./positions.ts";
import { compareRuns, splice, summarizeRun } from "./runs.ts";
import { throughGain } from "./through.ts";
import { keptSolves, LAST_PHASE_3, LAST_PHASE_4 } from "./kept.ts";
import {
  compareSeries,
  type GameRecord,
  recordOf,
  summarize as summarizeGames,
  WAIT_MS,
} from "./games.ts";
import { CHANCE, pickChance } from "../../core/game.ts";
import { makeRng } from "../../core/rng.ts";
import { DEFAULT_WEIGHTS } from "../../plugins/game2048/mod.ts";
import { loadWeights } from "../../plugins/game2048/weights.ts";
import type { Transcript, TranscriptMove } from "../../app/transcript.ts";
import { bestSlide, newSlide, withNetwork } from "../../plugins/game2048/ntuple.ts";
import { createGame } from "../../plugins/game2048/rules.ts";
import {
  gapAtTail,
  reference,
  snake,
  START,
  SYMMETRIES,
  words,
} from "../../tests/tools/game2048_endgames.ts";

Deno.test("lab/game2048/through.ts: the plain solve's play, then the whole chain's, against the solve through both", () => {
  const cells = gapAtTail([0, 0, 2, 4]);
  const g = throughGain(cells, 200, 1, new EndgameSolver(), 4);
  const [chain] = chainsOf(...words(cells), 12, 1);
  assertAlmostEquals(g.through, Math.max(...reference(cells, chain, true)), 1e-6);
  assertEquals(g.plain, 1);
  // Every walk reaches the chain's own goal (its chance is 1), and then does worse than
  // the best play for both goals, by more than its error.
  assertEquals(g.reached, 200);
  assert(g.error > 0 && g.plainJoint + 2 * g.error < g.through, JSON.stringify(g));
  // The same seeds, the same walks.
  assertEquals(throughGain(cells, 200, 1, new EndgameSolver(), 4), g);
});

Deno.test("lab/game2048/kept.ts: a phase after another of its chain, turned, stores what is new", () => {
  const first = snake(8192, START), second = snake(8192, [0, 2, 4, 2, 2, 0, 0, 4]);
  const mirrored = new Array(16).fill(0);
  second.forEach((t, i) => mirrored[SYMMETRIES[4](i)] = t);
  const [alone] = keptSolves([mirrored], 8);
  const [a, b] = keptSolves([first, mirrored], 8);
  assert(a.stored > 0 && alone.stored > 0);
  assert(b.stored < alone.stored / 2, `${b.stored} of ${alone.stored} positions`);
  assertAlmostEquals(b.probability!, alone.probability!, 1e-6);
  assertEquals(LAST_PHASE_3.slice(0, 8).join(), LAST_PHASE_4.slice(0, 8).join(), "one chain");
});

Deno.test("lab/game2048/chains.ts pairs two runs by position, with a sign test", () => {
  const note = (p: number) =>
    `endgame: the chain 16384 stays; a 512 beside it with probability ${p} (exact)`;
  const line = (index: number, maxTile: number) =>
    JSON.stringify({
      index,
      seed: index,
      seriesMade32768: false,
      maxTile,
      score: maxTile,
      slides: 10,
      // Older lines have no time: positions 0 and 2 here.
      ...(index % 2 === 0 ? { solver: note(index / 10) } : { ms: 10 * index }),
    });
  const run = (tiles: readonly number[]) =>
    ["a header line", ...tiles.map((t, i) => line(i, t)), "a summary line"].join("\n");
  // Position 4 only in the first run: not paired.
  const a = run([32768, 32768, 16384, 32768, 32768]);
  const b = run([32768, 16384, 16384, 16384]);
  const c = compareRuns(a, b);
  assertEquals([c.positions, c.made, c.alone], [4, [3, 1], [2, 0]]);
  // Mean scores over the paired positions (here the tile), with the mean's standard error.
  assertEquals(c.scores[0].mean, (32768 * 3 + 16384) / 4);
  assertAlmostEquals(c.scores[0].error, 4096);
  assertEquals(c.scores[1], { mean: (32768 + 16384 * 3) / 4, error: c.scores[0].error });
  // The solver's first probability, where it took the position (positions 0 and 2).
  assertEquals(c.solver[0], { mean: 0.1, positions: 2 });
  assertAlmostEquals(c.p, 0.5); // two positions, both one way: 2 * (1/4)
  // Milliseconds a slide over the timed positions (1 and 3): (10 + 30) / 20.
  assertEquals(c.msPerSlide, [2, 2]);
  assertEquals(compareRuns(run([32768]), run([32768])).msPerSlide, [0, 0]);
  assertEquals(compareRuns(a, a).p, 1);
  // FIGURES.md's figures: 13 and 4 by one run alone.
  const many = (x: number, y: number) =>
    compareRuns(
      run([...Array(x).fill(32768), ...Array(y).fill(0)]),
      run([...Array(x).fill(0), ...Array(y).fill(32768)]),
    ).p;
  assertAlmostEquals(many(13, 4), 0.049, 0.0005);
  assertEquals(many(4, 13), many(13, 4));
});

/** A snake of twelve tiles from a 16384 down to an 8, four cells below it. */
const SNAKE_OF_TWELVE = [16384, 8192, 4096, 2048, 128, 256, 512, 1024, 64, 32, 16, 8, 2, 0, 0, 0];

Deno.test("lab/game2048/chains.ts records the solver's phases of a game it plays on", () => {
  // The solver holds all of the snake of twelve tiles.
  const { net } = loadWeights(new URL(`../../${DEFAULT_WEIGHTS}`, import.meta.url).pathname);
  const game = withNetwork(createGame(4, 4, "monotone"), net);
  const tiles = SNAKE_OF_TWELVE;
  const [lo, hi] = packCells(tiles)!;
  const start = { seed: 7, lo, hi, made32768: false, slides: 0, seconds: 0, score: 0 };
  const g = playFrom(game, start, 0, 1, 1, { endgame: 4 });
  const chain = [16384, 8192, 4096, 2048, 1024, 512, 256, 128, 64, 32, 16, 8];
  assertEquals(g.phases?.map((p) => [p.from, p.chain]), [[0, chain]]);
  assertEquals(g.phases![0].board, tiles); // the board it started from, to replay it alone
  // Its last board: the goal a slide away (the chain still whole), then the 32768 at the end.
  const last = g.phases![0].lastBoard!;
  assertEquals(chainOf(...words(last))!.ranks.length >= chain.length, true);
  assertEquals(Math.max(...g.final!), 32768);
  assertAlmostEquals(g.phases![0].probability, 0.901, 0.0005);
  // The goal (an 8 below the 8) a few slides on, and the chain then collapsed to 32768.
  assertEquals(g.phases![0].to < 10 && g.maxTile === 32768, true);
  assertEquals(g.solver?.startsWith(`endgame: the chain ${chain.join(" ")} stays`), true);
});

Deno.test("lab/game2048/chains.ts --trials plays a phase on from its first board, to its goal", () => {
  assertEquals(phaseGoal([16384, 4096, 2048, 1024, 512, 256]), 8192); // the gap's rank
  assertEquals(phaseGoal([16384, 8192, 4096, 2048, 1024, 256]), 512);
  assertEquals(phaseGoal([16384, 8192, 4096, 2048, 1024, 512]), 32768); // none: twice the top
  const { net } = loadWeights(new URL(`../../${DEFAULT_WEIGHTS}`, import.meta.url).pathname);
  const game = withNetwork(createGame(4, 4, "monotone"), net);
  const chain = [16384, 8192, 4096, 2048, 1024, 512, 256, 128, 64, 32, 16, 8];
  const at = (tiles: number[]) => {
    const [lo, hi] = packCells(tiles)!;
    return { index: 3, start: { seed: 7, lo, hi }, probability: 0.901 };
  };
  // The snake of twelve, 0.901 for the solver: the player makes 32768 in most games.
  const r = phaseTrials(game, at(SNAKE_OF_TWELVE), chain, 20, 1, 1, { endgame: 4 });
  assertEquals([r.index, r.seed, r.goal, r.probability, r.trials], [3, 7, 32768, 0.901, 20]);
  assert(r.made >= 14 && r.made <= 20 && r.slides > 1 && r.slides < 20, JSON.stringify(r));
  // The same tiles again: the same games (in another time). A jammed board: no slide, no goal.
  const again = phaseTrials(game, at(SNAKE_OF_TWELVE), chain, 20, 1, 1, { endgame: 4 });
  assertEquals({ ...again, msPerSlide: r.msPerSlide }, r);
  assert(again.msPerSlide !== undefined && again.msPerSlide >= 0);
  // Played on to a later goal: at most the games that made the phase's own.
  const later = phaseTrials(game, at(SNAKE_OF_TWELVE), chain, 20, 1, 1, { endgame: 4 }, 65536);
  assertEquals([later.goal, later.made <= r.made], [65536, true]);
  const jammed = [16384, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4];
  const none = phaseTrials(game, at(jammed), chain, 3, 1, 1, { endgame: 4 });
  assertEquals([none.made, none.slides], [0, 0]);
});

Deno.test("lab/game2048/chains.ts tables the chains a run's solver held, and where games were lost", () => {
  const a = [16384, 8192, 4096, 2048, 512, 256], b = [16384, 8192, 4096, 2048, 1024, 512];
  const phase = (from: number, to: number, chain: number[], probability: number) => ({
    from,
    to,
    chain,
    probability,
  });
  const line = (index: number, maxTile: number, phases?: object[]) =>
    JSON.stringify({
      index,
      seed: index,
      seriesMade32768: false,
      maxTile,
      score: 1,
      slides: 100,
      longestMs: 1,
      ...(phases ? { phases } : {}),
    });
  const run = [
    "a header",
    // Lost while the solver held b (its last slide is the game's), won, lost after a.
    line(0, 16384, [phase(0, 10, a, 0.9), phase(20, 99, b, 0.7)]),
    line(1, 32768, [phase(0, 10, a, 0.8), phase(20, 30, b, 0.9), phase(40, 50, b, 0.5)]),
    line(2, 16384, [phase(0, 10, a, 0.6)]),
    // An older line without phases, and a game the solver never took.
    line(3, 16384),
    line(4, 8192, []),
    "a summary",
  ].join("\n");
  const rows = phaseTable(run);
  // The longer tiles first: b holds the 1024.
  assertEquals(rows.map((r) => [r.chain, r.games, r.lostIn, r.lostAfter]), [
    [b, 2, 1, 0],
    [a, 3, 0, 1],
  ]);
  // Each game's first phase holding the chain: game 1's second phase of b counts no more.
  assertAlmostEquals(rows[0].probability, (0.7 + 0.9) / 2);
  assertAlmostEquals(rows[1].probability, (0.9 + 0.8 + 0.6) / 3);
});

Deno.test("lab/game2048/chains.ts solves from where a run's games first held a chain", () => {
  const last = [16384, 8192, 4096, 2048, 1024, 512], before = [16384, 8192, 4096, 2048, 512];
  const board = (tail: number) => [
    ...[16384, 8192, 4096, 2048, 0, 0, 512, 1024],
    ...[tail, 2, 16, 4, 4, 4, 4, 2],
  ];
  const line = (index: number, phases: object[]) =>
    JSON.stringify({
      index,
      seed: 100 + index,
      maxTile: 16384,
      score: 1,
      slides: 9,
      longestMs: 1,
      phases,
    });
  const run = [
    // Out of order, as a run split over the cores is: numbered by position, sorted.
    line(5, [
      { from: 0, to: 1, chain: before, probability: 1, board: board(8) },
      { from: 2, to: 3, chain: last, probability: 0.7, board: board(16) },
      { from: 4, to: 5, chain: last, probability: 0.6, board: board(32) },
    ]),
    line(2, [{ from: 0, to: 1, chain: last, probability: 0.8, board: board(64) }]),
    // Never held it; held it in a line of an older run, without the boards.
    line(3, [{ from: 0, to: 1, chain: before, probability: 1, board: board(8) }]),
    line(4, [{ from: 0, to: 1, chain: last, probability: 0.8 }]),
  ].join("\n");
  const starts = phaseStarts(run, last);
  assertEquals(starts.map((s) => [s.index, s.start.seed]), [[2, 102], [5, 105]]);
  // Each game's first phase holding it: position 5's 16, not the 32 of its phase after.
  assertEquals(unpackCells(starts[1].start.lo, starts[1].start.hi), board(16));
  assertEquals(phaseStarts(run, before).map((s) => s.index), [3, 5]);
  // `--budget`: a solve that needs more positions is given up (no slide).
  const [lo, hi] = packCells(SNAKE_OF_TWELVE)!;
  const solved = solveFrom({ seed: 1, lo, hi }, 0, 4);
  assert(solved.move >= 0 && solved.positions > 10, JSON.stringify(solved));
  assertEquals(solveFrom({ seed: 1, lo, hi }, 0, 4, 10).move, -1);
});

Deno.test("lab/game2048/chains.ts counts the network's long stretches, and the games lost in one", () => {
  const a = [16384, 8192, 4096, 2048, 512, 256], b = [32768, 16384, 8192, 4096, 2048, 1024];
  const phase = (from: number, to: number, chain: number[]) => ({
    from,
    to,
    chain,
    probability: 1,
  });
  const corner = [16384, ...new Array(15).fill(2)],
    middle = [2, 2, 2, 2, 2, 16384, ...new Array(10).fill(2)];
  const line = (
    index: number,
    maxTile: number,
    slides: number,
    phases?: object[],
    final = corner,
  ) =>
    JSON.stringify({ index, seed: index, maxTile, score: 1, slides, longestMs: 1, phases, final });
  const run = [
    // Won: 300 slides between its phases, then 900 after its 32768 (not counted).
    line(0, 32768, 2000, [phase(0, 10, a), phase(310, 320, a), phase(1220, 1230, b)]),
    // Lost 500 slides after its last phase, the 16384 off its corner; 150 before it.
    line(1, 16384, 1000, [phase(0, 10, a), phase(160, 500, a)], middle),
    // Lost 100 slides after its last (too short), in its corner; lost before any phase.
    line(2, 16384, 600, [phase(0, 500, a)]),
    line(3, 16384, 400, []),
    // An older line without phases.
    line(4, 16384, 400),
  ].join("\n");
  assertEquals(networkStretches(run, 200), {
    stretches: 2,
    medianSlides: 500,
    lost: 1,
    offCorner: 1,
    lostBeforeAny: 1,
  });
  assertEquals(networkStretches(run, 100).stretches, 3);
});

Deno.test("lab/game2048/chains.ts sums a run up: 32768s, time a slide and a position", () => {
  const line = (index: number, maxTile: number, slides: number, longestMs: number, ms?: number) =>
    JSON.stringify({ index, seed: index, maxTile, score: 1, slides, longestMs, ms });
  const run = [
    "a header",
    line(0, 32768, 100, 500, 2000),
    line(1, 16384, 300, 1500, 4000),
    // An older line without the time.
    line(2, 16384, 50, 10),
    "a summary",
  ].join("\n");
  const s = summarizeRun(run);
  assertEquals([s.positions, s.made, s.longestMs, s.slides], [3, 1, 1500, 150]);
  assertAlmostEquals(s.msPerSlide, 6000 / 400);
  assertAlmostEquals(s.minutes, 3000 / 60000);
});

Deno.test("lab/game2048/games.ts counts the slides that waited over 10 s", () => {
  const game = createGame(4, 4, "monotone");
  // A short real game: the first tile on offer, the first legal slide, a few slow ones.
  const moves: TranscriptMove[] = [];
  const slow = [WAIT_MS, WAIT_MS + 1, 250_000, 3_000];
  let s = game.initial();
  for (let i = 0; i < 12; i++) {
    const chance = game.toMove(s) === CHANCE;
    const move = chance ? game.chances(s)[0].move : game.moves(s)[0];
    const slides = moves.filter((m) => m.by === 0).length;
    moves.push({
      by: chance ? "chance" : 0,
      move,
      notation: "",
      ms: chance ? 0 : slow[slides] ?? 5,
    });
    s = game.play(s, move);
  }
  const transcript = {
    version: 2,
    game: "2048",
    options: { width: 4, height: 4 },
    seed: 1,
    players: ["expectimax:5,endgame=10"],
    moves,
    result: { winner: null, margin: 0, reason: "end" },
    stats: { score: 8, maxTile: 4 },
  } as unknown as Transcript;
  const record = recordOf(1, transcript);
  assertEquals(record.waits, [10.001, 250]); // 10 s itself does not count: over it does
  const other = { ...record, seed: 2, waits: [] };
  assertEquals(summarizeGames([record, other, { ...record, seed: 3, waits: [12.4] }]).waits, {
    slides: 3,
    games: 2,
    seconds: 272,
    longest: 250,
  });
  assertEquals(summarizeGames([other]).waits, { slides: 0, games: 0, seconds: 0, longest: 0 });
});

Deno.test("lab/game2048/games.ts pairs two series by seed, tile by tile", () => {
  const game = (seed: number, maxTile: number, score: number): GameRecord => ({
    seed,
    p1: "expectimax:5",
    options: {},
    moves: 1,
    seconds: 1,
    stats: { maxTile, score },
    reason: "end",
  });
  // Seeds 1-4 in both; seed 5 in the first only (left out).
  const a = [
    game(1, 32768, 500),
    game(2, 32768, 400),
    game(3, 16384, 300),
    game(4, 8192, 100),
    game(5, 32768, 900),
  ];
  const b = [game(4, 16384, 200), game(3, 32768, 500), game(2, 16384, 300), game(1, 16384, 300)];
  const c = compareSeries(a, b);
  assertEquals(c.games, 4);
  const row = (tile: number) => c.tiles.find((t) => t.tile === tile)!;
  assertEquals(row(32768), { tile: 32768, made: [2, 1], alone: [2, 1], p: 1 });
  assertEquals(row(16384), { tile: 16384, made: [3, 4], alone: [0, 1], p: 1 });
  assertEquals(row(2048).made, [4, 4]);
  assertEquals(c.meanScores, [325, 325]);
  // Differences 200, 100, -200, -100: mean 0, sd sqrt(100000/3), over the root of 4.
  assertEquals(c.differenceError, Math.round(Math.sqrt(100_000 / 3) / 2));
});

Deno.test("lab/game2048/chains.ts splices a run into its series: a whole series' figures from the positions on", () => {
  // A real game to a 16384 by the network that ships, greedy (its tiles from a seed), cut
  // a few slides after it; then a short game that never holds one.
  const { net } = loadWeights(new URL(`../../${DEFAULT_WEIGHTS}`, import.meta.url).pathname);
  const rules = createGame(4, 4, "monotone"), out = newSlide();
  const play = (seed: number, until: (s: readonly number[]) => boolean) => {
    const rng = makeRng(seed), moves: TranscriptMove[] = [];
    let s = rules.initial(), start: { slides: number; score: number } | undefined, after = 0;
    let slides = 0;
    while (!until(s) && after < 5) {
      const chance = rules.toMove(s) === CHANCE;
      let move: number;
      if (chance) move = pickChance(rules.chances(s), rng.next());
      else {
        const [lo, hi] = packCells(s)!;
        if (bestSlide(net, lo, hi, out).dir < 0) break;
        move = out.dir;
        if (start !== undefined) after++;
        else if (s.slice(0, 16).includes(16384)) start = { slides, score: rules.stats!(s).score };
        slides++;
      }
      moves.push({ by: chance ? CHANCE : 0, move, notation: "", ms: chance ? 0 : 2 });
      s = rules.play(s, move);
    }
    const transcript = {
      version: 2,
      game: "2048",
      options: { width: 4, height: 4 },
      seed,
      players: ["greedy", "greedy"],
      moves,
      result: { winner: null, margin: 0, reason: "end" },
      stats: rules.stats!(s),
    };
    return { line: JSON.stringify({ seed, transcript }), start, slides };
  };
  // The first seed whose greedy game makes a 16384 (three in four do).
  const made = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => play(seed, () => false))
    .find((g) => g.start !== undefined)!;
  const short = play(100, (s) => rules.stats!(s).maxTile >= 64);
  const series = `${made.line}\n${short.line}\n`, seed = JSON.parse(made.line).seed;
  const [start] = chainStarts(series, 1);
  assertEquals([start.seed, start.slides, start.seconds], [
    seed,
    made.start!.slides,
    made.start!.slides * 0.002,
  ]);
  assertEquals(start.score, made.start!.score);
  const run = (line: object) =>
    `a header\n${
      JSON.stringify({ index: 0, seed, seriesMade32768: false, slides: 40, longestMs: 9, ...line })
    }\nsummary`;
  const s = splice(series, run({ maxTile: 32768, score: 1000, ms: 30 }), 1, "expectimax:5,gaps=1");
  assertEquals([s.untimed, s.unplayed, s.records.length], [[], 0, 2]);
  const [spliced, kept] = s.records;
  assertEquals(spliced.moves, made.start!.slides + 40);
  assertAlmostEquals(spliced.seconds, made.start!.slides * 0.002 + 0.03);
  assertEquals(spliced.stats.score, made.start!.score + 1000);
  assertEquals([spliced.stats.maxTile, spliced.stats.reached32768, spliced.p1], [
    32768,
    1,
    "expectimax:5,gaps=1",
  ]);
  // The game without a 16384 as the series played it.
  assertEquals(kept.moves, short.slides);
  assertEquals([kept.stats.maxTile, kept.p1], [64, "expectimax:5,gaps=1"]);
  assertEquals(summarizeGames(s.records).reached["32768"], 0.5);
  // A line without the time, a position not played, a run from other positions.
  assertEquals(splice(series, run({ maxTile: 16384, score: 9 }), 1, "x").untimed, [0]);
  const none = splice(series, "", 1, "x");
  assertEquals([none.unplayed, none.records.length], [1, 1]);
  const other = run({ maxTile: 16384, score: 9, ms: 1, seed: seed + 1 });
  assertThrows(
    () => splice(series, other, 1, "x"),
    Error,
    "give the series and --tiles the run was played from",
  );
});

Deno.test("lab/game2048/chains.ts --solve: the solve of a fresh solver, its positions and slots", () => {
  // Ten tiles along a snake from a 32768, a six-cell region.
  const cells = new Array(16).fill(0);
  [3, 2, 1, 0, 4, 5, 6, 7, 11, 10].forEach((cell, k) => cells[cell] = 32768 >> k);
  [8, 9, 12, 13, 14, 15].forEach((cell, k) => cells[cell] = [2, 4, 0, 2, 0, 2][k]);
  const b = packCells(cells)!;
  const solver = new EndgameSolver();
  const answer = solver.solve(...b, 6)!;
  const timed = solveFrom({ seed: 9, lo: b[0], hi: b[1] }, 3, 6);
  assertEquals([timed.index, timed.seed, timed.move, timed.probability], [
    3,
    9,
    answer.move,
    answer.probability,
  ]);
  assertEquals([timed.positions, timed.slots], [solver.stored, solver.slots]);
});
