/**
 * The network's own stretches, screened: where a run's games
 * (`lab/game2048/chains.ts` lines with their phases) left a phase of the endgame
 * solver and the network played on, this plays on from there again, `--trials N` times
 * with other tiles, until the board holds a chain the solver fits (`solverFits`: the next
 * phase begins), 32768 is made, or the game is lost. Two searches (`--depth 5` and
 * `--depth 7`) meet the same starts and tiles, so their losses compare the network's play
 * between the phases without playing whole games, or the phases themselves, again.
 *
 * ```sh
 * deno run --allow-read --allow-import lab/game2048/stretches.ts --run lab/game2048/data/2048-e10-g1t1.jsonl \
 *   --depth 5 --gaps 1 --trials 2 --first 0 --last 94
 * ```
 *
 * Each stretch start prints a JSON line (`StretchTrials`), then a summary line: stretches
 * played, lost, reaching the next phase, making 32768, and slides on average
 * (`summarizeStretches`; `--summary LINES`, repeated, sums up kept lines again). A start is
 * the board before a phase's last slide (`ChainPhase.lastBoard`); its first slide is the
 * network's (the search with `endgame=0`): the solver's own last slide there would solve
 * the phase again, minutes of work for one slide, where the network's slide merges the
 * goal just as well (a collapse) or plays on where the solver let the chain go. From the
 * second slide on, the spec plays (`--endgame`, `--gaps`, `--through`, `--rescue`, `--crowd`,
 * `--letgo`); until a chain fits,
 * the solver takes no position, so its slides are the network's.
 *
 * @module
 */
import { parseArgs } from "../../app/deps.ts";
import { packCells } from "../../plugins/game2048/board.ts";
import { ENDGAME_REGION, solverChains } from "../../plugins/game2048/endgame.ts";
import { makeRng } from "../../core/rng.ts";
import type { Game2048 } from "../../plugins/game2048/rules.ts";
import { type ChainGame, networkPlayer, playOn, runGames } from "./positions.ts";

/**
 * Whether the endgame solver fits a chain on compact board `lo`, `hi`, as
 * `EndgameSolver.solve` asks it: `solverChains` of the shortest length whose region has at
 * most `region` cells, skipping up to `gaps` ranks (every longer chain holds one of them).
 * Where one fits, the solver takes the position unless the chain was given up or its goal
 * is already on the board, and the network's stretch is over.
 *
 * @example A snake of six tiles from 16384 fits ten cells; five tiles do not
 * ```ts
 * import { packCells } from "../../plugins/game2048/board.ts";
 * import { solverFits } from "./stretches.ts";
 * const six = packCells([0, 0, 0, 0, 2, 0, 0, 0, 1024, 512, 2, 0, 2048, 4096, 8192, 16384])!;
 * const five = packCells([0, 0, 0, 0, 2, 0, 0, 0, 1024, 8, 2, 0, 2048, 4096, 8192, 16384])!;
 * if (!solverFits(six[0], six[1], 10, 0) || solverFits(five[0], five[1], 10, 0)) {
 *   throw new Error();
 * }
 * ```
 */
export const solverFits = (lo: number, hi: number, region: number, gaps: number): boolean => {
  const shortest = Math.max(1, 16 - region);
  for (let skips = 0; skips <= gaps; skips++) {
    if (solverChains(lo, hi, shortest, skips).length > 0) return true;
  }
  return false;
};

/** Where the network took over from the solver in a run's game (`stretchStarts`). */
export interface StretchStart {
  /** The run's position. */
  readonly index: number;
  /** The series game's seed. */
  readonly seed: number;
  /** The phase's number in the game (from 0). */
  readonly phase: number;
  /** The chain the phase held. */
  readonly chain: readonly number[];
  /** The board before the phase's last slide, packed. */
  readonly lo: number;
  readonly hi: number;
  /** Slides the run's own game then played before its next phase, or its end. */
  readonly slides: number;
  /** Whether the run's own game was lost in the stretch (no next phase, no 32768). */
  readonly lost: boolean;
}

/**
 * Every stretch of a run's games (lines without the phases' boards are skipped) in which
 * the network played after a phase before the game's 32768: the phase's last board, where
 * the next phase does not begin with the next slide and the phase's largest tile is below
 * 32768. Only phases whose chain the solver no longer fits in `region` cells count: the
 * collapses of `,through=1` (16384 8192 4096 ... the tail merged up in place), after which
 * the network rebuilds the chain. After a chain that still fits, the solver let it go
 * (no slide keeps it, or the goal's chance is nil) and the loss there is the phase's; the
 * screen's stop (`solverFits`) would end such a stretch at once.
 */
export const stretchStarts = (text: string, region: number): StretchStart[] =>
  [...runGames(text).values()].sort((a, b) => a.index - b.index).flatMap((g: ChainGame) =>
    (g.phases ?? []).flatMap((p, k, phases) => {
      const next = phases[k + 1];
      const packed = p.lastBoard === undefined ? undefined : packCells(p.lastBoard);
      if (packed === undefined || p.chain[0] >= 32768 || next?.from === p.to + 1) return [];
      if (p.chain.length >= 16 - region) return [];
      const end = next?.from ?? g.slides;
      // A game makes its 32768 in the last phase's collapses, or in a slide or two after
      // them (16384 8192 merged up by the network): the stretches then are not before it.
      if ((next === undefined ? g.maxTile : next.chain[0]) >= 32768) return [];
      return [{
        index: g.index,
        seed: g.seed,
        phase: k,
        chain: p.chain,
        lo: packed[0],
        hi: packed[1],
        slides: end - p.to,
        lost: next === undefined,
      }];
    })
  );

/** How the network's stretches from one start ended (`stretchTrials`). */
export interface StretchTrials {
  /** The run's position and the phase's number in its game. */
  readonly index: number;
  readonly phase: number;
  /** The chain the phase held. */
  readonly chain: readonly number[];
  /** Slides the run's own game played there, and whether it was lost there. */
  readonly runSlides: number;
  readonly runLost: boolean;
  /** Stretches played from the start. */
  readonly trials: number;
  /** Those lost (no slide left before a chain fits or 32768 is made). */
  readonly lost: number;
  /** Those that made 32768 before a chain fit. */
  readonly won: number;
  /** Slides a stretch, on average. */
  readonly slides: number;
}

/**
 * Plays the search (`expectimax:depth`, the spec's `params`) on from `start` `trials`
 * times, trial `t`'s tiles from `core/rng.ts` seeded `10^7 S + 10^5 index + 1000 phase +
 * t` (`--seed S`), each until a chain fits the solver (`solverFits` with the spec's
 * `endgame` and `gaps`), a 32768 is on the board, or no slide is left. The first slide is
 * the network's (`endgame=0`): see the module notes.
 */
export const stretchTrials = (
  game: Game2048,
  start: StretchStart,
  trials: number,
  seed: number,
  depth: number,
  params: Readonly<Record<string, number>>,
): StretchTrials => {
  const region = params.endgame ?? ENDGAME_REGION, gaps = params.gaps ?? 0;
  let lost = 0, won = 0, slides = 0;
  for (let t = 0; t < trials; t++) {
    const rng = makeRng(1e7 * seed + 1e5 * start.index + 1000 * start.phase + t);
    // The network's first slide: the board after it (and its tile) goes on with the spec.
    let first = true, ended: "fits" | "won" | undefined;
    const after = playOn(game, start, rng, depth, { ...params, endgame: 0 }, () => slides++, () => {
      if (!first) return true;
      first = false;
      return false;
    });
    const [lo, hi] = packCells(after.slice(0, 16))!;
    if (game.moves(after).length > 0 && !solverFits(lo, hi, region, gaps)) {
      playOn(game, { lo, hi }, rng, depth, params, () => slides++, (board) => {
        if (board.some((v) => v >= 32768)) ended = "won";
        else {
          const [l, h] = packCells(board)!;
          if (solverFits(l, h, region, gaps)) ended = "fits";
        }
        return ended !== undefined;
      });
    } else if (game.moves(after).length > 0) ended = "fits";
    if (ended === undefined) lost++;
    if (ended === "won") won++;
  }
  return {
    index: start.index,
    phase: start.phase,
    chain: start.chain,
    runSlides: start.slides,
    runLost: start.lost,
    trials,
    lost,
    won,
    slides: slides / Math.max(1, trials),
  };
};

/** A screen's figures (`summarizeStretches`). */
export interface StretchSummary {
  /** Starts screened. */
  readonly starts: number;
  /** Stretches played. */
  readonly stretches: number;
  /** Of them lost, and making 32768 before a chain fit. */
  readonly lost: number;
  readonly won: number;
  /** Slides a stretch, on average. */
  readonly slides: number;
  /** Starts where the run's own game was lost. */
  readonly runLost: number;
  /** Slides the run's own games played a stretch, on average. */
  readonly runSlides: number;
}

/** Sums up a screen's lines (`StretchTrials`). */
export const summarizeStretches = (rows: readonly StretchTrials[]): StretchSummary => {
  const sum = (f: (r: StretchTrials) => number) => rows.reduce((a, r) => a + f(r), 0);
  const stretches = sum((r) => r.trials);
  return {
    starts: rows.length,
    stretches,
    lost: sum((r) => r.lost),
    won: sum((r) => r.won),
    slides: sum((r) => r.slides * r.trials) / Math.max(1, stretches),
    runLost: rows.filter((r) => r.runLost).length,
    runSlides: sum((r) => r.runSlides) / Math.max(1, rows.length),
  };
};

/** A screen's lines (`StretchTrials`; other lines skipped). */
export const stretchLines = (text: string): StretchTrials[] =>
  text.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));

/** A summary as the screen prints it. */
const describe = (s: StretchSummary): string =>
  `${s.starts} starts, ${s.stretches} stretches: ${s.lost} lost (${
    (100 * s.lost / Math.max(1, s.stretches)).toFixed(1)
  }%), ${s.stretches - s.lost - s.won} reached a chain the solver fits, ${s.won} made 32768; ` +
  `${s.slides.toFixed(0)} slides a stretch (the run's own games: ${
    s.runSlides.toFixed(0)
  } slides a stretch, lost in ${s.runLost} of the starts)`;

if (import.meta.main) {
  const args = parseArgs(Deno.args, {
    collect: ["summary"],
    string: [
      "run",
      "depth",
      "endgame",
      "gaps",
      "through",
      "tables",
      "weights",
      "trials",
      "seed",
      "first",
      "last",
      "rescue",
      "crowd",
      "letgo",
    ],
  });
  const summaries = (args.summary ?? []) as string[];
  if (summaries.length > 0) {
    const rows = summaries.flatMap((f) => stretchLines(Deno.readTextFileSync(f)));
    console.log(describe(summarizeStretches(rows)));
    Deno.exit(0);
  }
  const trials = Number(args.trials ?? 1);
  if (typeof args.run !== "string" || !Number.isInteger(trials) || trials < 1 || trials > 1000) {
    console.error(
      typeof args.run !== "string"
        ? "usage: lab/game2048/stretches.ts --run RUN [--depth D] [--endgame K] [--gaps G] " +
          "[--through 1] [--rescue D --crowd E] [--letgo P] [--trials N] [--seed S] [--first A] [--last B]\n" +
          "       lab/game2048/stretches.ts --summary LINES [--summary LINES ...]"
        : `--trials must be a whole number from 1 to 1000, not ${args.trials}`,
    );
    Deno.exit(2);
  }
  const first = Number(args.first ?? 0), last = Number(args.last ?? Infinity);
  const seed = Number(args.seed ?? 1), depth = Number(args.depth ?? 5);
  const { game, params } = networkPlayer(args);
  const all = stretchStarts(Deno.readTextFileSync(args.run), params.endgame)
    .filter(({ index }) => index >= first && index <= last)
    .map((s) => {
      const r = stretchTrials(game, s, trials, seed, depth, params);
      console.log(JSON.stringify(r));
      return r;
    });
  console.log(`expectimax:${depth}: ${describe(summarizeStretches(all))}`);
}
