/**
 * The positions of a series where each game first held a chain from a 16384, and the games
 * played on from them (`lab/game2048/chains.ts --series`): a series' starts, the search
 * played on from a board, the endgame solver's phases of a game, and a run's lines.
 *
 * @module
 */
import { Effect } from "../../core/deps.ts";
import { CHANCE, pickChance } from "../../core/game.ts";
import { makeGame } from "../../core/plugin.ts";
import { makeRng, type Rng } from "../../core/rng.ts";
import type { GameRecord as SeriesGame } from "../../app/tournament/runner.ts";
import { packCells, unpackCells } from "../../plugins/game2048/board.ts";
import { ENDGAME_REGION } from "../../plugins/game2048/endgame.ts";
import { fastExpectimax } from "../../plugins/game2048/expectimax.ts";
import plugin from "../../plugins/game2048/mod.ts";
import { createGame, type Game2048, is2048, SLIDER_TURN } from "../../plugins/game2048/rules.ts";
import { type ChainStart, type GameRecord, recordOf } from "./games.ts";
export type { ChainStart };
import { holdsChain, isStartLine, type StartLine } from "./starts.ts";

/** A series game, and its start (the first position with the chain) if it has one. */
export interface SeriesStart {
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
 * starts file of `lab/game2048/starts.ts` when `holds` is a chain of `tiles` tiles from
 * a 16384 (`holdsChain`) and the file was made for the same `tiles`.
 */
export const seriesStarts = (
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
          `seed ${parsed.seed}'s line (lab/game2048/starts.ts) stops at the first chain of ` +
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
export const noteProbability = (note: string | undefined): number | undefined => {
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
 * import { phasesOf } from "./positions.ts";
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

/** A run's lines (`ChainGame`s, other lines skipped) by position. */
export const runGames = (text: string): Map<number, ChainGame> =>
  new Map(
    text.split("\n").filter((l) => l.startsWith("{")).map((l) => {
      const g: ChainGame = JSON.parse(l);
      return [g.index, g] as const;
    }),
  );
