/**
 * The squeeze alone, from real games: where each game of a series first held a chain of
 * N tiles from a 16384 (`endgame.ts` `chainOf`: 16384, 8192, ... each beside the next),
 * the fast expectimax plays on once more with other tiles, and the figures say how often
 * it then makes 32768, next to how often the series' own game did from the same position.
 * A series of 100 full games spends most of its time before the squeeze; this plays only
 * the part that decides 32768, from the positions the player itself reached.
 *
 * ```sh
 * deno task match 2048 --eval ntuple --p1 expectimax:5 --games 100 --seed 1 --out out/e5b --json
 * deno run --allow-read --allow-import bench/game2048_chains.ts --series out/e5b/games.jsonl \
 *   --tiles 6 --depth 5 --endgame 10
 * ```
 *
 * The positions are taken in the file's order (a `games.jsonl` lists the games as they
 * ended); position i's tiles come from `core/rng.ts` seeded `1000 S + i` (`--seed S`,
 * default 1), so two runs with other `--endgame` or `--depth` meet the same tiles as long
 * as they play alike. `--first A --last B` plays positions A to B only (to split a run
 * over the cores); `--gaps G`, `--through 1` and `--tables GB` add the spec's `,gaps=G`,
 * `,through=1` and `,tables=GB` (the solver's tables kept from one position's game to the
 * next: the same chains come back in each).
 * `--out RUN` appends each position's line to RUN as well and skips the positions RUN
 * already holds (a run resumed, or spread over sessions). `--series` also takes a starts
 * file of `bench/game2048_starts.ts` (the games stopped at their first 16384, `--tiles 1`:
 * the lines kept under `bench/data/`). Each position prints a JSON line (the series' seed, whether the series
 * made 32768 from it, the largest tile and score made here, slides, the longest search in
 * ms, the endgame solver's first note and its phases: `phasesOf`), then a summary line;
 * `--compare A --compare B` pairs two runs' outputs by position (32768 in each, by each alone, a sign test's p, each
 * run's mean score and the solver's mean first probability), or two `--trials` outputs
 * trial by trial (`compareTrials`: made by each, by each alone, a sign test's p). `--solve` times the endgame
 * solver alone on each position, from an empty table (`--endgame K` cells; the slide, the
 * probability, positions, nodes, the table's slots and milliseconds). `--splice RUN` prints
 * the series with each game played on from its position by the run (`splice`), as records
 * for `bench/game2048_games.ts --summary` and `--compare`: a whole series' figures and time
 * a slide for a player that differs from the series' only from the position on.
 * `--solve --phase-of RUN` solves instead from where each game of the run first held the
 * chain `--chain` (its tiles, default `16384,8192,4096,2048,1024,512`, the last phase;
 * `phaseStarts`), in regions of up to `--endgame K` cells (default: the chain's own), the
 * positions numbered as the run's; `--budget N` gives a chain up after N positions instead
 * of the solver's budget (both `--solve`s); `--solve --board CELLS` solves one board (its 16
 * cells, row by row).
 * `--trials N --phase-of RUN --chain TILES` plays the search (`--depth`, `--endgame`,
 * `--gaps`, `--through`, and `--rescue D --crowd E --letgo P` for the spec's parameters)
 * on from each of those first boards N times, each game until the phase's goal is made
 * (`phaseGoal`, or a later tile `--goal T`: the phases after it too) or the game ends (`phaseTrials`): what the player makes of the phase,
 * next to the solver's value holding the chain, with each trial's outcome to pair two
 * arms by.
 * `--phases RUN` lists every chain the solver held in the run's games (`phaseTable`): in
 * how many games, its goal's mean first probability (at each game's first phase holding
 * it), and how many lost games it ended; then the network's own long stretches
 * (`networkStretches`).
 * `--summary RUN` sums a run up (`summarizeRun`): positions, 32768s, milliseconds a slide,
 * minutes a position, the longest wait, slides a game.
 *
 * @module
 */
import { parseArgs } from "../scripts/deps.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE, pickChance } from "../core/game.ts";
import { makeGame } from "../core/plugin.ts";
import { makeRng, type Rng } from "../core/rng.ts";
import type { GameRecord as SeriesGame } from "../core/tournament/runner.ts";
import { signTest } from "../core/tournament/stats.ts";
import { packCells, unpackCells } from "../plugins/game2048/board.ts";
import { ENDGAME_REGION, EndgameSolver } from "../plugins/game2048/endgame.ts";
import { fastExpectimax } from "../plugins/game2048/expectimax.ts";
import plugin from "../plugins/game2048/mod.ts";
import {
  createGame,
  type Game2048,
  is2048,
  MILESTONES,
  SLIDER_TURN,
} from "../plugins/game2048/rules.ts";
import { type GameRecord, readTextOr, recordOf } from "./game2048_games.ts";
import { holdsChain, isStartLine, type StartLine } from "./game2048_starts.ts";
import { standardError } from "../plugins/game2048/train.ts";

/** A position where a series' game first held the chain, and what the game made from it. */
export interface ChainStart {
  /** The series game's seed. */
  readonly seed: number;
  /** The board (compact words of `board.ts`), the slider to move. */
  readonly lo: number;
  /** The board's second word. */
  readonly hi: number;
  /**
   * Whether the series' game went on to 32768; undefined where the series stopped at the
   * position (a starts file of `bench/game2048_starts.ts`).
   */
  readonly made32768?: boolean;
  /** Slides the series' game played before the position. */
  readonly slides: number;
  /** The series' time over those slides, in seconds (the match's per-move time). */
  readonly seconds: number;
  /** The score at the position. */
  readonly score: number;
}

/** A series game, and its start (the first position with the chain) if it has one. */
interface SeriesStart {
  /** The game's seed. */
  readonly seed: number;
  /** The game's options. */
  readonly options: unknown;
  /** The position, if the game held the chain. */
  readonly start: ChainStart | undefined;
  /** The whole game, where it never held the chain. */
  readonly whole: GameRecord | undefined;
}

/**
 * Each game of a series in the file's order, with its start: its first slider position (a
 * 4x4 board, as compact words) that `holds`. The file is a match's `games.jsonl`, or a
 * starts file of `bench/game2048_starts.ts` when `holds` is a chain of `tiles` tiles from
 * a 16384 (`holdsChain`) and the file was made for the same `tiles`.
 */
const seriesStarts = (
  text: string,
  holds: (lo: number, hi: number) => boolean,
  tiles?: number,
): SeriesStart[] => {
  const rules = createGame(4, 4, "monotone");
  const out: SeriesStart[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const parsed: SeriesGame | StartLine = JSON.parse(line);
    if (isStartLine(parsed)) {
      if (parsed.tiles !== tiles) {
        throw new Error(
          `seed ${parsed.seed}'s line (bench/game2048_starts.ts) stops at the first chain of ` +
            `${parsed.tiles} tiles from a 16384` +
            (tiles === undefined
              ? ": this needs a match's games.jsonl"
              : `, not ${tiles}: give --tiles ${parsed.tiles}, or a match's games.jsonl`),
        );
      }
      out.push({
        seed: parsed.seed,
        options: parsed.options,
        start: parsed.start,
        whole: parsed.record,
      });
      continue;
    }
    const record = parsed;
    let s = rules.initial(), top = 0, slides = 0, ms = 0;
    let start: Omit<ChainStart, "made32768"> | undefined;
    for (const m of record.transcript.moves) {
      if (m.by === 0) {
        if (start === undefined) {
          const words = packCells(s);
          if (words !== undefined && holds(words[0], words[1])) {
            const score = rules.stats!(s).score;
            start = {
              seed: record.seed,
              lo: words![0],
              hi: words![1],
              slides,
              seconds: ms / 1000,
              score,
            };
          }
        }
        slides++;
        ms += m.ms;
      }
      s = rules.play(s, m.move);
      for (let i = 0; i < 16; i++) top = Math.max(top, s[i]);
    }
    out.push({
      seed: record.seed,
      options: record.transcript.options,
      start: start && { ...start, made32768: top >= 32768 },
      whole: start === undefined ? recordOf(record.seed, record.transcript) : undefined,
    });
  }
  return out;
};

/**
 * The first slider position of each 4x4 game in a series' `games.jsonl` where the chain
 * from a 16384 (the largest tile) has at least `tiles` tiles, in the file's order.
 */
export const chainStarts = (text: string, tiles: number): ChainStart[] =>
  seriesStarts(text, holdsChain(tiles), tiles).flatMap((g) => g.start ?? []);

/**
 * The first slider position of each 4x4 game in a series' `games.jsonl` that `holds`
 * (compact words), in the file's order, with what the game made from it.
 */
export const positionsWhere = (
  text: string,
  holds: (lo: number, hi: number) => boolean,
): ChainStart[] => seriesStarts(text, holds).flatMap((g) => g.start ?? []);

/** What one position's game made. */
export interface ChainGame {
  /** The position's number (in the file's order). */
  readonly index: number;
  /** The series game's seed. */
  readonly seed: number;
  /** Whether the series' game made 32768 from the position. */
  readonly seriesMade32768?: boolean;
  /** The largest tile made here. */
  readonly maxTile: number;
  /** The score made from the position. */
  readonly score: number;
  /** Slides played. */
  readonly slides: number;
  /** The longest search, in milliseconds (an endgame solve, where there is one). */
  readonly longestMs: number;
  /** The searches' time over all the slides, in milliseconds (lines of older runs lack it). */
  readonly ms?: number;
  /** The endgame solver's first note, if it took a position. */
  readonly solver?: string;
  /** The solver's phases (`phasesOf`; lines of older runs lack them). */
  readonly phases?: readonly ChainPhase[];
  /** The board the game ended on (lines of older runs lack it). */
  readonly final?: readonly number[];
}

/** A stretch of slides the endgame solver played holding one chain (`phasesOf`). */
export interface ChainPhase {
  /** Its first slide (counted from the position). */
  readonly from: number;
  /** Its last slide. */
  readonly to: number;
  /** The held chain's tiles, from the largest to the tail. */
  readonly chain: readonly number[];
  /** The probability of its goal at its first slide. */
  readonly probability: number;
  /** The board at its first slide, row by row (`phasesOf` given the boards). */
  readonly board?: readonly number[];
  /** The board at its last slide, before that slide (`phasesOf` given the boards). */
  readonly lastBoard?: readonly number[];
}

/** The probability an endgame note states (`expectimax.ts`: "... with probability P (exact"). */
const noteProbability = (note: string | undefined): number | undefined => {
  const m = note?.match(/with probability ([0-9.]+)/);
  return m === null || m === undefined ? undefined : Number(m[1]);
};

/** The chain an endgame note holds (`expectimax.ts`: "endgame: the chain 16384 ... stays"). */
const noteChain = (note: string | undefined): number[] | undefined => {
  const m = note?.match(/^endgame: the chain ([0-9 ]+) stays/);
  return m === null || m === undefined ? undefined : m[1].split(" ").map(Number);
};

/**
 * The solver's phases of a game from its search notes, one per slide (`undefined` where
 * the search made none): a phase begins where a slide's note holds another chain than the
 * slide before's, or the slide before had none (the network's own slides lie between).
 * Given the board before each slide too, each phase keeps its first (to solve or replay
 * it alone) and its last (where the network took over again).
 *
 * @example Two slides of one chain, one of the network's, one of another chain
 * ```ts
 * import { phasesOf } from "./game2048_chains.ts";
 * const note = (c: string, p: number) =>
 *   `endgame: the chain ${c} stays; a 2 beside it with probability ${p} (exact)`;
 * const phases = phasesOf([note("8 4", 0.5), note("8 4", 0.75), undefined, note("8 4 2", 1)]);
 * if (phases.map((p) => `${p.from}-${p.to}:${p.chain.join(" ")}@${p.probability}`).join()
 *   !== "0-1:8 4@0.5,3-3:8 4 2@1") throw new Error();
 * ```
 */
export const phasesOf = (
  notes: readonly (string | undefined)[],
  boards?: readonly (readonly number[])[],
): ChainPhase[] => {
  const out: ChainPhase[] = [];
  let open: Omit<ChainPhase, "to"> | undefined;
  const close = (to: number) => {
    if (open !== undefined) out.push({ ...open, to, ...(boards ? { lastBoard: boards[to] } : {}) });
    open = undefined;
  };
  notes.forEach((note, slide) => {
    const chain = noteChain(note);
    if (chain?.join() !== open?.chain.join()) close(slide - 1);
    if (chain !== undefined && open === undefined) {
      const probability = noteProbability(note) ?? 0;
      open = { from: slide, chain, probability, ...(boards ? { board: boards[slide] } : {}) };
    }
  });
  close(notes.length - 1);
  return out;
};

/**
 * Plays on from `start` (position `index`) with `expectimax:depth` and the spec's
 * `params` (`endgame`, `gaps`, `through`: `expectimax:5,endgame=10,gaps=1`).
 */
export const playFrom = (
  game: Game2048,
  start: ChainStart,
  index: number,
  seed: number,
  depth: number,
  params: Readonly<Record<string, number>>,
): ChainGame => {
  let slides = 0, longestMs = 0, ms = 0;
  const notes: (string | undefined)[] = [], boards: (readonly number[])[] = [];
  const s = playOn(game, start, makeRng(1000 * seed + index), depth, params, (r, board) => {
    longestMs = Math.max(longestMs, r.timeMs);
    ms += r.timeMs;
    notes.push(r.notes?.[0]);
    boards.push(board);
    slides++;
  });
  const stats = game.stats!(s), solver = notes.find((n) => n !== undefined);
  return {
    index,
    seed: start.seed,
    seriesMade32768: start.made32768,
    maxTile: stats.maxTile,
    score: stats.score,
    slides,
    longestMs: Math.round(longestMs),
    ms: Math.round(ms),
    ...(solver === undefined ? {} : { solver }),
    phases: phasesOf(notes, boards),
    final: s.slice(0, 16),
  };
};

/**
 * Plays on from `start` with `expectimax:depth` and the spec's `params`, the tiles drawn
 * from `rng`, until no slide is left or `stop` holds for a board (after a tile is placed);
 * each slide's search result and the board before it go to `each`. The state it ends on.
 */
export const playOn = (
  game: Game2048,
  start: Pick<ChainStart, "lo" | "hi">,
  rng: Rng,
  depth: number,
  params: Readonly<Record<string, number>>,
  each?: (r: ReturnType<typeof fastExpectimax>, board: readonly number[]) => void,
  stop?: (board: readonly number[]) => boolean,
): readonly number[] => {
  let s: readonly number[] = [...unpackCells(start.lo, start.hi), SLIDER_TURN, 0];
  for (;;) {
    if (game.toMove(s) === CHANCE) {
      s = game.play(s, pickChance(game.chances(s), rng.next()));
      continue;
    }
    if (stop?.(s.slice(0, 16)) || game.moves(s).length === 0) return s;
    const r = fastExpectimax(game, s, { depth, params });
    each?.(r, s.slice(0, 16));
    s = game.play(s, r.move!);
  }
};

/**
 * The tile a held chain's phase makes when the chain collapses (`endgame.ts`): the rank its
 * gap skips (16384 4096 2048 ... makes an 8192), or twice its largest where it has none.
 * A chain whose gap is just before its tail, solved with `,through=1`, is valued to the
 * whole chain's goal instead (16384 ... 1024 256: the 32768), so its trials' 512 and the
 * solver's chance there measure two things.
 *
 * @example
 * ```ts
 * import { phaseGoal } from "./game2048_chains.ts";
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
   * before the trials kept them: `bench/data/2048-g1t1-trials-last-net.jsonl`).
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

/**
 * The player of the runs and the trials from the command line's options: the network
 * (`--weights FILE`, default the one that ships) and the spec's parameters (`--endgame`,
 * `--gaps`, `--through`, `--tables`, `--rescue`, `--crowd`, `--letgo`).
 */
export const networkPlayer = (
  args: Readonly<Record<string, unknown>>,
): { game: Game2048; params: Record<string, number> } => {
  const options = {
    width: 4,
    height: 4,
    eval: "ntuple",
    ...(typeof args.weights === "string" ? { weights: args.weights } : {}),
  };
  const game = Effect.runSync(makeGame(plugin, options)).game;
  if (!is2048(game)) throw new Error("not a 2048 game");
  const params = {
    endgame: Number(args.endgame ?? ENDGAME_REGION),
    gaps: Number(args.gaps ?? 0),
    ...(args.through === undefined ? {} : { through: Number(args.through) }),
    ...(args.tables === undefined ? {} : { tables: Number(args.tables) }),
    ...(args.rescue === undefined ? {} : { rescue: Number(args.rescue) }),
    ...(args.crowd === undefined ? {} : { crowd: Number(args.crowd) }),
    ...(args.letgo === undefined ? {} : { letgo: Number(args.letgo) }),
  };
  return { game, params };
};

/** Two runs' games, position by position (the JSON lines this script prints). */
export interface Comparison {
  /** Positions both runs played. */
  readonly positions: number;
  /** 32768 made by the first run, by the second. */
  readonly made: readonly [number, number];
  /** Positions where only the first run made 32768, where only the second did. */
  readonly alone: readonly [number, number];
  /** The two-sided sign test's p over the positions made by one run alone. */
  readonly p: number;
  /** Each run's mean score made from the positions, with its standard error. */
  readonly scores: readonly [RunScore, RunScore];
  /**
   * Each run's mean of the endgame solver's first probability (from its note), over the
   * positions where it took one, and how many those were.
   */
  readonly solver: readonly [SolverMean, SolverMean];
  /**
   * Each run's milliseconds a slide over the paired positions whose lines give the time
   * (`ChainGame.ms`); 0 where none do.
   */
  readonly msPerSlide: readonly [number, number];
}

/** A run's mean score over the paired positions. */
export interface RunScore {
  /** The mean score. */
  readonly mean: number;
  /** Its standard error. */
  readonly error: number;
}

/** A run's mean solver probability at the first move. */
export interface SolverMean {
  /** The mean probability (0 when the solver took no position). */
  readonly mean: number;
  /** Positions where the solver took the game. */
  readonly positions: number;
}

/** Milliseconds a slide over the games whose lines give the time (`ChainGame.ms`); 0 if none. */
const msPerSlide = (run: readonly ChainGame[]): number => {
  const timed = run.filter((g) => g.ms !== undefined);
  const slides = timed.reduce((a, g) => a + g.slides, 0);
  return slides === 0 ? 0 : timed.reduce((a, g) => a + g.ms!, 0) / slides;
};

/** What a run's lines say of it (`summarizeRun`, `--summary`). */
export interface RunSummary {
  /** Positions played. */
  readonly positions: number;
  /** Of them, the games that made 32768. */
  readonly made: number;
  /** Milliseconds a slide from the positions (over the lines that give the time). */
  readonly msPerSlide: number;
  /** Minutes a position on average (over the lines that give the time). */
  readonly minutes: number;
  /** The longest wait for a slide, in milliseconds. */
  readonly longestMs: number;
  /** Slides a game on average. */
  readonly slides: number;
}

/** Sums up a run's lines (`ChainGame`s, other lines skipped). */
export const summarizeRun = (text: string): RunSummary => {
  const run = [...runGames(text).values()], n = Math.max(1, run.length);
  const timed = run.flatMap((g) => g.ms ?? []);
  return {
    positions: run.length,
    made: run.filter((g) => g.maxTile >= 32768).length,
    msPerSlide: msPerSlide(run),
    minutes: timed.reduce((a, ms) => a + ms, 0) / Math.max(1, timed.length) / 60000,
    longestMs: run.reduce((a, g) => Math.max(a, g.longestMs), 0),
    slides: run.reduce((a, g) => a + g.slides, 0) / n,
  };
};

/** A run's lines (`ChainGame`s, other lines skipped) by position. */
export const runGames = (text: string): Map<number, ChainGame> =>
  new Map(
    text.split("\n").filter((l) => l.startsWith("{")).map((l) => {
      const g: ChainGame = JSON.parse(l);
      return [g.index, g] as const;
    }),
  );

/** Pairs two runs' lines (`ChainGame`s, other lines skipped) by position. */
export const compareRuns = (a: string, b: string): Comparison => {
  const first = runGames(a), second = runGames(b);
  let positions = 0, madeA = 0, madeB = 0, onlyA = 0, onlyB = 0;
  const paired: [ChainGame[], ChainGame[]] = [[], []];
  for (const [index, ga] of first) {
    const gb = second.get(index);
    if (gb === undefined) continue;
    positions++;
    paired[0].push(ga);
    paired[1].push(gb);
    const x = ga.maxTile >= 32768, y = gb.maxTile >= 32768;
    if (x) madeA++;
    if (y) madeB++;
    if (x && !y) onlyA++;
    if (y && !x) onlyB++;
  }
  const score = (run: readonly ChainGame[]): RunScore => {
    const xs = run.map((g) => g.score);
    return {
      mean: xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length),
      error: standardError(xs),
    };
  };
  const solver = (run: readonly ChainGame[]): SolverMean => {
    const ps = run.flatMap((g) => noteProbability(g.solver) ?? []);
    return { mean: ps.reduce((s, x) => s + x, 0) / Math.max(1, ps.length), positions: ps.length };
  };
  return {
    positions,
    made: [madeA, madeB],
    alone: [onlyA, onlyB],
    p: signTest(onlyA, onlyB),
    scores: [score(paired[0]), score(paired[1])],
    solver: [solver(paired[0]), solver(paired[1])],
    msPerSlide: [msPerSlide(paired[0]), msPerSlide(paired[1])],
  };
};

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

/** A series whose games a run played on from their starts (`splice`). */
export interface Spliced {
  /** The games: those without a start as the series played them, the others spliced. */
  readonly records: GameRecord[];
  /** Positions the run played without the time (lines of older runs): left out. */
  readonly untimed: readonly number[];
  /** Positions the run did not play: left out. */
  readonly unplayed: number;
}

/**
 * The series of `games.jsonl` text `series` as it would have gone had the run `run` (this
 * script's lines, from the same `tiles`) played each game on from its position: a game's
 * slides and time before the position are the series', the rest the run's (its search
 * time), the score the sum. A player whose play differs from the series' only from that
 * position on (`,gaps` behind a 16384: `GAP_TOP_RANK`) would have played the same games up
 * to it, so the result is a series of that player, the tiles after the position drawn
 * from the run's stream instead of the seed's. Games that never held the chain stay as
 * the series played them; positions the run did not play, or played without the time,
 * are left out (and counted). The records are `bench/game2048_games.ts`'s, under the spec
 * `p1`, for its `--summary` and `--compare`.
 */
export const splice = (series: string, run: string, tiles: number, p1: string): Spliced => {
  const played = runGames(run), records: GameRecord[] = [], untimed: number[] = [];
  let index = 0, unplayed = 0;
  for (const { seed, options, start, whole } of seriesStarts(series, holdsChain(tiles), tiles)) {
    if (start === undefined) {
      records.push({ ...whole!, p1 });
      continue;
    }
    const g = played.get(index);
    if (g !== undefined && g.seed !== start.seed) {
      throw new Error(
        `position ${index} is seed ${g.seed} in the run but seed ${start.seed} in the series ` +
          `at --tiles ${tiles}: give the series and --tiles the run was played from`,
      );
    }
    index++;
    if (g === undefined) unplayed++;
    else if (g.ms === undefined) untimed.push(g.index);
    else {
      const stats: Record<string, number> = { score: start.score + g.score, maxTile: g.maxTile };
      for (const t of MILESTONES) stats[`reached${t}`] = g.maxTile >= t ? 1 : 0;
      records.push({
        seed,
        p1,
        options,
        moves: start.slides + g.slides,
        seconds: start.seconds + g.ms / 1000,
        stats,
        reason: "end",
      });
    }
  }
  return { records, untimed, unplayed };
};

if (import.meta.main) {
  const args = parseArgs(Deno.args, {
    string: [
      "series",
      "tiles",
      "depth",
      "endgame",
      "gaps",
      "through",
      "tables",
      "seed",
      "first",
      "last",
      "weights",
      "splice",
      "p1",
      "phases",
      "summary",
      "out",
      "phase-of",
      "chain",
      "budget",
      "trials",
      "goal",
      "board",
      "rescue",
      "crowd",
      "letgo",
    ],
    boolean: ["solve"],
    collect: ["compare"],
  });
  const compare = (args.compare ?? []) as string[];
  if (compare.length === 2) {
    const [a, b] = compare.map((f) => Deno.readTextFileSync(f));
    if (trialLines(a).some((r) => r.outcomes !== undefined)) {
      let c: TrialComparison;
      try {
        c = compareTrials(a, b);
      } catch (e) {
        console.error(`--compare ${compare[0]} --compare ${compare[1]}: ${(e as Error).message}`);
        Deno.exit(2);
      }
      const line = (r: TrialPair, name: string) =>
        console.log(
          `${name}: ${r.trials} trials; made ${r.made[0]} and ${r.made[1]}; ` +
            `by one alone: ${r.alone[0]} and ${r.alone[1]}`,
        );
      for (const r of c.positions) line(r, `position ${r.index}`);
      line(c.all, `all (${compare[0]}, ${compare[1]})`);
      console.log(`sign test p = ${c.p.toPrecision(2)}`);
      Deno.exit(0);
    }
    const c = compareRuns(a, b);
    const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
    console.log(
      `${c.positions} positions: 32768 in ${c.made[0]} (${compare[0]}) and ${c.made[1]} ` +
        `(${compare[1]}); by one alone: ${c.alone[0]} and ${c.alone[1]} ` +
        `(sign test p = ${c.p.toFixed(3)})`,
    );
    for (const i of [0, 1]) {
      const s = c.scores[i], v = c.solver[i];
      console.log(
        `${compare[i]}: mean score from there ${fmt(s.mean)} (± ${fmt(s.error)}); ` +
          `the solver's first probability ${v.mean.toFixed(3)} on average over ${v.positions}; ` +
          `${c.msPerSlide[i].toFixed(2)} ms a slide`,
      );
    }
    Deno.exit(0);
  }
  if (typeof args.summary === "string") {
    const s = summarizeRun(Deno.readTextFileSync(args.summary));
    console.log(
      `${s.positions} positions: 32768 in ${s.made} (${
        (100 * s.made / Math.max(1, s.positions)).toFixed(0)
      }%); ${s.msPerSlide.toFixed(1)} ms a slide, ${s.minutes.toFixed(1)} minutes a position, ` +
        `the longest wait ${Math.round(s.longestMs / 1000)} s; ${
          Math.round(s.slides)
        } slides a game`,
    );
    Deno.exit(0);
  }
  if (typeof args.phases === "string") {
    for (const r of phaseTable(Deno.readTextFileSync(args.phases))) {
      console.log(
        `${r.chain.join(" ")}: ${r.games} games, first probability ${r.probability.toFixed(3)} ` +
          `on average; last phase of ${r.lostIn} lost games ending in it, ${r.lostAfter} going on`,
      );
    }
    const n = networkStretches(Deno.readTextFileSync(args.phases), 200);
    console.log(
      `the network alone for more than 200 slides between phases before a 32768, or after a ` +
        `lost game's last: ${n.stretches} stretches (${n.medianSlides} slides at the median), ` +
        `${n.lost} games lost in one (the largest tile off its corner at the end in ` +
        `${n.offCorner}); ${n.lostBeforeAny} games lost before any phase`,
    );
    Deno.exit(0);
  }
  const budget = args.budget === undefined ? undefined : Number(args.budget);
  const first = Number(args.first ?? 0), last = Number(args.last ?? Infinity);
  const player = () => networkPlayer(args);
  if (args.solve && typeof args.board === "string") {
    const cells = args.board.split(/[ ,]+/).map(Number), packed = packCells(cells);
    if (cells.length !== 16 || packed === undefined) {
      console.error(`--board takes the 16 cells of a 4x4 board, row by row, not ${args.board}`);
      Deno.exit(2);
    }
    const region = Number(args.endgame ?? ENDGAME_REGION);
    const solve = solveFrom({ seed: 0, lo: packed[0], hi: packed[1] }, 0, region, budget);
    console.log(JSON.stringify(solve));
    Deno.exit(0);
  }
  if (typeof args["phase-of"] === "string" && (args.solve || args.trials !== undefined)) {
    const chain = String(args.chain ?? "16384,8192,4096,2048,1024,512").split(/[ ,]+/)
      .map(Number);
    const starts = phaseStarts(Deno.readTextFileSync(args["phase-of"]), chain)
      .filter(({ index }) => index >= first && index <= last);
    if (args.solve) {
      const region = Number(args.endgame ?? 16 - chain.length);
      for (const { index, start } of starts) {
        console.log(JSON.stringify(solveFrom(start, index, region, budget)));
      }
      Deno.exit(0);
    }
    const trials = Number(args.trials);
    if (!Number.isInteger(trials) || trials < 1 || trials > 1000) {
      console.error(`--trials must be a whole number from 1 to 1000, not ${args.trials}`);
      Deno.exit(2);
    }
    const goal = Number(args.goal ?? phaseGoal(chain));
    if (!Number.isInteger(Math.log2(goal)) || goal < phaseGoal(chain) || goal > 65536) {
      console.error(
        `--goal must be a tile from the phase's own goal ${
          phaseGoal(chain)
        } to 65536, not ${args.goal}`,
      );
      Deno.exit(2);
    }
    const { game: made, params } = player();
    const seed = Number(args.seed ?? 1), depth = Number(args.depth ?? 5);
    const all = starts.map((s) => {
      const r = phaseTrials(made, s, chain, trials, seed, depth, params, goal);
      console.log(JSON.stringify(r));
      return r;
    });
    const n = Math.max(1, all.length), games = all.reduce((a, r) => a + r.trials, 0);
    const won = all.reduce((a, r) => a + r.made, 0);
    console.log(
      `${all.length} positions: the goal ${goal} made in ${won} of ${games} games ` +
        `(${(won / Math.max(1, games)).toFixed(3)}), where the solver holding the chain gives ` +
        `${(all.reduce((a, r) => a + r.probability, 0) / n).toFixed(3)} on average`,
    );
    Deno.exit(0);
  }
  if (typeof args.series !== "string") {
    console.error(
      "usage: bench/game2048_chains.ts --series DIR/games.jsonl [--tiles N] [--depth D] " +
        "[--endgame K] [--gaps G] [--through 1] [--tables GB] [--seed S] [--first A] [--last B] " +
        "[--weights FILE] [--out RUN] [--solve]\n" +
        "       bench/game2048_chains.ts --compare A.jsonl --compare B.jsonl\n" +
        "       bench/game2048_chains.ts --phases RUN\n" +
        "       bench/game2048_chains.ts --solve --phase-of RUN [--chain TILES] [--endgame K] " +
        "[--budget N] [--first A] [--last B]\n" +
        "       bench/game2048_chains.ts --solve --board CELLS [--endgame K] [--budget N]\n" +
        "       bench/game2048_chains.ts --trials N --phase-of RUN [--chain TILES] [--endgame K] " +
        "[--gaps G] [--through 1] [--rescue D --crowd E] [--letgo P] [--depth D] [--goal T] [--seed S] [--first A] " +
        "[--last B]\n" +
        "       bench/game2048_chains.ts --summary RUN\n" +
        "       bench/game2048_chains.ts --series DIR/games.jsonl --tiles N --splice RUN [--p1 SPEC]",
    );
    Deno.exit(2);
  }
  const tiles = Number(args.tiles ?? 6), depth = Number(args.depth ?? 5);
  if (typeof args.splice === "string") {
    const p1 = typeof args.p1 === "string" ? args.p1 : `spliced with ${args.splice}`;
    const s = splice(
      Deno.readTextFileSync(args.series),
      Deno.readTextFileSync(args.splice),
      tiles,
      p1,
    );
    for (const r of s.records) console.log(JSON.stringify(r));
    console.error(
      `${s.records.length} games; left out: ${s.unplayed} positions the run did not play, ` +
        `${s.untimed.length} played without the time` +
        (s.untimed.length === 0 ? "" : ` (${s.untimed.join(", ")}: play them again)`),
    );
    Deno.exit(0);
  }
  const endgame = Number(args.endgame ?? ENDGAME_REGION), seed = Number(args.seed ?? 1);
  const starts = chainStarts(Deno.readTextFileSync(args.series), tiles);
  const end = Math.min(last, starts.length - 1);

  if (args.solve) {
    for (let i = first; i <= end; i++) {
      console.log(JSON.stringify(solveFrom(starts[i], i, endgame, budget)));
    }
    Deno.exit(0);
  }
  const { game: made, params } = player();
  const out = typeof args.out === "string" ? args.out : undefined;
  const done = out === undefined ? new Map<number, ChainGame>() : runGames(readTextOr(out));
  let games = 0, won = 0, seriesWon = 0, seriesKnown = 0;
  const spec = Object.entries(params).map(([k, v]) => `,${k}=${v}`).join("");
  for (let i = first; i <= end; i++) {
    let g = done.get(i);
    if (g === undefined) {
      g = playFrom(made, starts[i], i, seed, depth, params);
      console.log(JSON.stringify(g));
      if (out !== undefined) {
        Deno.writeTextFileSync(out, JSON.stringify(g) + "\n", { append: true });
      }
    }
    games++;
    if (g.maxTile >= 32768) won++;
    if (g.seriesMade32768 !== undefined) seriesKnown++;
    if (g.seriesMade32768) seriesWon++;
  }
  console.log(
    `${games} of ${starts.length} positions with a chain of ${tiles} tiles from 16384 ` +
      `(positions ${first} to ${last}); expectimax:${depth}${spec}, seed ${seed}: ` +
      `32768 in ${won}` +
      (seriesKnown === 0 ? "" : ` (the series, over ${seriesKnown} of them: ${seriesWon})`),
  );
}
