/**
 * The endgame solver's phases in a run's games (`lab/game2048/chains.ts --phase-of`,
 * `--trials`, `--phases`): where each game first held a chain, the solver alone from
 * there, the player played on from there many times, two arms of such trials paired, the
 * chains held and where the games were lost, and the network's own long stretches.
 *
 * @module
 */
import { makeRng } from "../../core/rng.ts";
import { signTest } from "../../app/tournament/stats.ts";
import { packCells, unpackCells } from "../../plugins/game2048/board.ts";
import { EndgameSolver } from "../../plugins/game2048/endgame.ts";
import type { Game2048 } from "../../plugins/game2048/rules.ts";
import { type ChainStart, playOn, runGames } from "./positions.ts";

/**
 * The tile a held chain's phase makes when the chain collapses (`endgame.ts`): the rank its
 * gap skips (16384 4096 2048 ... makes an 8192), or twice its largest where it has none.
 * A chain whose gap is just before its tail, solved with `,through=1`, is valued to the
 * whole chain's goal instead (16384 ... 1024 256: the 32768), so its trials' 512 and the
 * solver's chance there measure two things.
 *
 * @example
 * ```ts
 * import { phaseGoal } from "./phases.ts";
 * if (phaseGoal([16384, 4096, 2048, 1024, 512, 256]) !== 8192) throw new Error();
 * if (phaseGoal([16384, 8192, 4096, 2048, 1024, 512]) !== 32768) throw new Error();
 * ```
 */
export const phaseGoal = (chain: readonly number[]): number => {
  const gap = chain.findIndex((t, k) => k > 0 && t !== chain[k - 1] / 2);
  return gap < 0 ? 2 * chain[0] : chain[gap - 1] / 2;
};

/** How often the search, played on from a phase's first board, made the phase's goal. */
export interface PhaseTrials {
  /** The position's number (the run's). */
  readonly index: number;
  /** The series game's seed. */
  readonly seed: number;
  /** The tile the phase makes (`phaseGoal`). */
  readonly goal: number;
  /** The solver's exact probability of the goal there, holding the chain (the run's note). */
  readonly probability: number;
  /** Games played on from the board. */
  readonly trials: number;
  /** Games that made the goal. */
  readonly made: number;
  /** Slides a game, on average. */
  readonly slides: number;
  /**
   * The search's milliseconds a slide, the solves included (`timeMs`; absent from lines
   * written before the trials kept it).
   */
  readonly msPerSlide?: number;
  /**
   * Each trial's outcome in order: 1 made the goal, 0 did not (absent from lines written
   * before the trials kept them: `lab/game2048/data/2048-g1t1-trials-last-net.jsonl`).
   */
  readonly outcomes?: string;
}

/**
 * Plays the search (`expectimax:depth` and `params`) on from `start`, the first board of
 * a phase holding `chain`, `trials` times, trial `t`'s tiles from `core/rng.ts` seeded
 * `10^6 S + 1000 index + t` (`--seed S`), each until a tile of `goal` (default
 * `phaseGoal(chain)`) or more comes on the board beyond those it held (the goal made) or
 * the game ends: a later goal plays on through the phases after it. The solver
 * values the board holding the chain; the search may let the chain go where the solver
 * finds no slide that keeps it, and the network then plays on: this counts what the
 * player makes, next to the solver's value.
 */
export const phaseTrials = (
  game: Game2048,
  start: PhaseStart,
  chain: readonly number[],
  trials: number,
  seed: number,
  depth: number,
  params: Readonly<Record<string, number>>,
  goal = phaseGoal(chain),
): PhaseTrials => {
  const atLeast = (board: readonly number[]) => board.filter((t) => t >= goal).length;
  const before = atLeast(unpackCells(start.start.lo, start.start.hi));
  let made = 0, slides = 0, ms = 0, outcomes = "";
  for (let t = 0; t < trials; t++) {
    const rng = makeRng(1e6 * seed + 1000 * start.index + t);
    let won = false;
    playOn(game, start.start, rng, depth, params, (r) => {
      slides++;
      ms += r.timeMs;
    }, (board) => {
      won = atLeast(board) > before;
      return won;
    });
    if (won) made++;
    outcomes += won ? "1" : "0";
  }
  return {
    index: start.index,
    seed: start.start.seed,
    goal,
    probability: start.probability,
    trials,
    made,
    slides: slides / Math.max(1, trials),
    msPerSlide: Math.round(100 * ms / Math.max(1, slides)) / 100,
    outcomes,
  };
};

/** One solve from an empty table (`--solve`): its answer, size and time. */
export interface ChainSolve {
  /** The position's number (in the file's order). */
  readonly index: number;
  /** The series game's seed. */
  readonly seed: number;
  /** The slide (0-3), or -1 when the solver does not take the position. */
  readonly move: number;
  /** The probability of the goal with the best play. */
  readonly probability: number;
  /** Positions stored. */
  readonly positions: number;
  /** Nodes visited. */
  readonly nodes: number;
  /** Slots the table's layers took (12 bytes each). */
  readonly slots: number;
  /** Milliseconds the solve took. */
  readonly ms: number;
}

/**
 * The endgame solver alone on `start` (position `index`), regions of up to `region` cells,
 * giving a chain up after `budget` positions (default: the solver's, `endgameBudget`).
 */
export const solveFrom = (
  start: Pick<ChainStart, "seed" | "lo" | "hi">,
  index: number,
  region: number,
  budget?: number,
): ChainSolve => {
  const solver = new EndgameSolver(budget), t0 = performance.now();
  const answer = solver.solve(start.lo, start.hi, region);
  return {
    index,
    seed: start.seed,
    move: answer?.move ?? -1,
    probability: answer?.probability ?? 0,
    positions: solver.stored,
    nodes: solver.nodes,
    slots: solver.slots,
    ms: Math.round(performance.now() - t0),
  };
};

/** Where a game of a run first held a chain (`phaseStarts`). */
export interface PhaseStart {
  /** The position's number (the run's). */
  readonly index: number;
  /** The board at that phase's first slide, and the game's seed. */
  readonly start: Pick<ChainStart, "seed" | "lo" | "hi">;
  /** The solver's probability of the phase's goal there (its note). */
  readonly probability: number;
}

/**
 * Where each game of a run (this script's lines, `ChainGame.phases`) first held `chain`
 * (its tiles, from the largest to the tail): the board at that phase's first slide, as a
 * start for `--solve` or `--trials` (`--phase-of RUN --chain TILES`), numbered by the
 * run's position. Games that never held it, and lines without the phases' boards, give none.
 */
export const phaseStarts = (text: string, chain: readonly number[]): PhaseStart[] =>
  [...runGames(text).values()].flatMap((g) => {
    const phase = g.phases?.find((p) => p.chain.join(" ") === chain.join(" "));
    const packed = phase?.board === undefined ? undefined : packCells(phase.board);
    return packed === undefined ? [] : [{
      index: g.index,
      start: { seed: g.seed, lo: packed[0], hi: packed[1] },
      probability: phase!.probability,
    }];
  }).sort((a, b) => a.index - b.index);

/** Two arms' trials of a phase paired trial by trial (`compareTrials`), one position. */
export interface TrialPair {
  /** The position's number (as the run's). */
  readonly index: number;
  /** Trials paired (those both lines hold). */
  readonly trials: number;
  /** Trials made by each arm. */
  readonly made: readonly [number, number];
  /** Trials made by one arm only: the first's, the second's. */
  readonly alone: readonly [number, number];
}

/** Two arms' trials paired (`compareTrials`): by position, in all, and a sign test's p. */
export interface TrialComparison {
  /** The positions both files hold, in the first file's order. */
  readonly positions: readonly TrialPair[];
  /** The sums over them. */
  readonly all: TrialPair;
  /** A sign test's two-sided p on the trials made by one arm only. */
  readonly p: number;
}

/** A trials file's lines (`PhaseTrials`; other lines skipped). */
export const trialLines = (text: string): PhaseTrials[] =>
  text.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));

/**
 * Pairs two trials files (`--trials` outputs of two arms from the same starts and seed)
 * trial by trial: trial t of a position met the same tiles in both as long as the two
 * played alike. A position both hold must agree on its seed and both lines must carry
 * `outcomes`; else this throws, naming the position.
 */
export const compareTrials = (a: string, b: string): TrialComparison => {
  const second = new Map(trialLines(b).map((r) => [r.index, r]));
  const positions: TrialPair[] = [];
  for (const x of trialLines(a)) {
    const y = second.get(x.index);
    if (y === undefined) continue;
    const [u, v] = [x.outcomes, y.outcomes];
    if (x.seed !== y.seed || u === undefined || v === undefined) {
      throw new Error(`position ${x.index}: the two lines differ in seed or lack outcomes`);
    }
    const n = Math.min(u.length, v.length);
    let madeA = 0, madeB = 0, onlyA = 0, onlyB = 0;
    for (let t = 0; t < n; t++) {
      const [p, q] = [u[t] === "1", v[t] === "1"];
      if (p) madeA++;
      if (q) madeB++;
      if (p && !q) onlyA++;
      if (q && !p) onlyB++;
    }
    positions.push({
      index: x.index,
      trials: n,
      made: [madeA, madeB],
      alone: [onlyA, onlyB],
    });
  }
  const sum = (f: (r: TrialPair) => number) => positions.reduce((s, r) => s + f(r), 0);
  const all: TrialPair = {
    index: -1,
    trials: sum((r) => r.trials),
    made: [sum((r) => r.made[0]), sum((r) => r.made[1])],
    alone: [sum((r) => r.alone[0]), sum((r) => r.alone[1])],
  };
  return { positions, all, p: signTest(all.alone[0], all.alone[1]) };
};

/** A chain the solver held in a run's games, and how the games went on from it. */
export interface PhaseRow {
  /** The chain's tiles, from the largest to the tail. */
  readonly chain: readonly number[];
  /** Games with a phase holding it. */
  readonly games: number;
  /**
   * The mean probability of its goal at the first slide of each game's first phase holding
   * it (a chain held again later in the same game, as the last phase is by each merge of a
   * goal into its tail, at probability 1, counts once).
   */
  readonly probability: number;
  /** Games lost (no 32768) whose last phase it was, the game ending while it was held. */
  readonly lostIn: number;
  /** Games lost whose last phase it was, the network playing on after it. */
  readonly lostAfter: number;
}

/**
 * Every chain the solver held in a run's lines (`ChainGame.phases`; lines without them are
 * skipped), with where the lost games ended: the phases of the squeeze in the order of
 * their largest tiles, and how often each was a game's last.
 */
export const phaseTable = (text: string): PhaseRow[] => {
  const rows = new Map<
    string,
    {
      chain: readonly number[];
      games: Set<number>;
      ps: number[];
      lostIn: number;
      lostAfter: number;
    }
  >();
  for (const g of runGames(text).values()) {
    for (const phase of g.phases ?? []) {
      const key = phase.chain.join(" ");
      const row = rows.get(key) ??
        { chain: phase.chain, games: new Set<number>(), ps: [], lostIn: 0, lostAfter: 0 };
      rows.set(key, row);
      if (row.games.has(g.index)) continue;
      row.games.add(g.index);
      row.ps.push(phase.probability);
    }
    const last = g.phases?.at(-1);
    if (last === undefined || g.maxTile >= 32768) continue;
    const row = rows.get(last.chain.join(" "))!;
    if (last.to >= g.slides - 1) row.lostIn++;
    else row.lostAfter++;
  }
  return [...rows.values()].map((r) => ({
    chain: r.chain,
    games: r.games.size,
    probability: r.ps.reduce((a, x) => a + x, 0) / r.ps.length,
    lostIn: r.lostIn,
    lostAfter: r.lostAfter,
  })).sort((a, b) => {
    for (let i = 0; i < Math.min(a.chain.length, b.chain.length); i++) {
      if (a.chain[i] !== b.chain[i]) return b.chain[i] - a.chain[i];
    }
    return a.chain.length - b.chain.length;
  });
};

/** The network's own long stretches in a run's games (`networkStretches`). */
export interface Stretches {
  /** Stretches of more than the given slides between two phases, or after a lost game's last. */
  readonly stretches: number;
  /** Their median length in slides (0 when there is none). */
  readonly medianSlides: number;
  /** Games lost (no 32768) in such a stretch after their last phase. */
  readonly lost: number;
  /** Of those, games whose largest tile stood off the board's corners at the end. */
  readonly offCorner: number;
  /** Games lost without any phase. */
  readonly lostBeforeAny: number;
}

/**
 * Where the network played alone for long in a run's lines (`ChainGame.phases`; lines
 * without them are skipped): the stretches of more than `longer` slides between two
 * phases before the game's 32768 (phases whose largest tile is below it), and after a
 * lost game's last phase, and how many of the games were lost in one.
 */
export const networkStretches = (text: string, longer: number): Stretches => {
  const lengths: number[] = [];
  let lost = 0, offCorner = 0, lostBeforeAny = 0;
  for (const g of runGames(text).values()) {
    if (g.phases === undefined) continue;
    const before = g.phases.filter((p) => p.chain[0] < 32768);
    before.slice(1).forEach((p, i) => lengths.push(p.from - before[i].to));
    const last = g.phases.at(-1);
    if (g.maxTile >= 32768) continue;
    if (last === undefined) {
      lostBeforeAny++;
    } else if (g.slides - last.to > longer) {
      lengths.push(g.slides - last.to);
      lost++;
      const final = g.final ?? [];
      if (![0, 3, 12, 15].includes(final.indexOf(Math.max(...final)))) offCorner++;
    }
  }
  const long = lengths.filter((n) => n > longer).sort((a, b) => a - b);
  return {
    stretches: long.length,
    medianSlides: long.length === 0 ? 0 : long[Math.floor(long.length / 2)],
    lost,
    offCorner,
    lostBeforeAny,
  };
};
