/**
 * Reviewing a game: its main line step by step, each move valued against the best one
 * from the mover's side, and its mistakes judged (what `deno task review` and the web
 * page's review show).
 *
 * How a move is valued (values from the mover's side; player 0 maximizes `value`, so
 * player 1's are negated): the position before the move is searched (depth D, or for
 * time T) for its best move and value, with every optimal move listed where the strategy
 * can (`allBest`). A move among the optimal ones is worth the best value. Any other move
 * is valued by searching the position after it one ply shallower (D-1; with `--time`,
 * the depth the first search reached, minus one), which is the value the first search
 * gives that move, and moving its decisive values one ply further away. (MCTS has no
 * depth: the position after is searched for time T too.) The loss is the best value
 * minus the played one.
 *
 * Exact first: where the game has an exact solver (its own `solve` strategy, else
 * alpha-beta to the end; none for a game that is `unsolvable`, such as 2048) and it
 * settles both the position before and the position after the move within its budget
 * (`AnalysisSettings.exact`), the move is judged by the exact result only: it is marked
 * only when it changes the result (a win into a draw or a loss, a draw into a loss), and
 * a move that keeps it is never marked, whatever a heuristic score says. A review so
 * never shows a false blunder where the solver reaches.
 *
 * Otherwise (the heuristic values), a move is marked by how bad it is (`Severity`): a
 * blunder when it turns a win into a draw or a loss, or anything not lost into a loss,
 * or loses more than three times the game's `mistakeMargin` (default 1); a mistake when
 * it loses more than the margin; an inaccuracy when it loses more than half of it. A
 * slower win or a quicker loss in a lost position is never marked.
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import { type EngineOptions, type Progress, search } from "../core/engine/engine.ts";
import {
  byDistance,
  CHANCE,
  type Game,
  type Player,
  type ToMove,
  WIN_THRESHOLD,
} from "../core/game.ts";
import { mainLine, type SearchInfo, type Session } from "./session.ts";
import type { SearchError } from "../core/errors.ts";
import type { GameSource } from "../core/source.ts";
import type { ChosenStrategy } from "./cli.ts";
import type { Strategy } from "../core/search/types.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
/** One move of the main line, with the positions around it. */
export interface LineStep<S> {
  /** Its number: 1 for the first move. */
  readonly ply: number;
  /** Who moved. */
  readonly by: ToMove;
  /** The move (plugin encoding). */
  readonly move: number;
  /** Its notation. */
  readonly notation: string;
  /** The player's spec, if the transcript has it. */
  readonly agent?: string;
  /** The AI's recorded search behind it, if any. */
  readonly search?: SearchInfo;
  /** The position it was played in. */
  readonly before: S;
  /** The position it led to. */
  readonly after: S;
}

/** The main line of a session as steps, with every position replayed. */
export const lineOf = <S>(game: Game<S>, session: Session): LineStep<S>[] => {
  let s = game.initial();
  return mainLine(session).slice(1).map((id, i) => {
    const n = session.nodes[id];
    const before = s;
    s = game.play(s, n.move);
    return {
      ply: i + 1,
      by: n.by,
      move: n.move,
      notation: n.notation,
      ...(n.agent !== undefined ? { agent: n.agent } : {}),
      ...(n.search !== undefined ? { search: n.search } : {}),
      before,
      after: s,
    };
  });
};

/** How the analysis searches. */
export interface AnalysisSettings {
  /** The strategy and its parameters. */
  readonly strategy: ChosenStrategy;
  /** Depth in plies per position (`--analyze D`); or */
  readonly depth?: number;
  /** milliseconds per position (`--time T`). */
  readonly timeMs?: number;
  /** How much worse than the best a move must be to be a mistake (mover's value units). */
  readonly margin: number;
  /** Seed of randomized strategies (MCTS). */
  readonly seed?: number;
  /** Where the game came from (`OpenedGame.source`): the searches then run in workers. */
  readonly source?: GameSource;
  /**
   * The exact solver tried first on each move (`exactSolver`), with its time per
   * position (none: to the end, however long); none: heuristic values only.
   */
  readonly exact?: { readonly solver: ChosenStrategy; readonly timeMs?: number };
}

/** How bad a marked move is, least first (as lichess says: `?!`, `?`, `??`). */
export type Severity = "inaccuracy" | "mistake" | "blunder";

/** The severities, least first. */
export const SEVERITIES: readonly Severity[] = ["inaccuracy", "mistake", "blunder"];

/** A marked move: how bad, and why in words (`"turns a win into a draw"`, `"loses 3"`). */
export interface Judgement {
  /** How bad it is. */
  readonly severity: Severity;
  /** Why, for a person. */
  readonly why: string;
}

/** What the analysis found about one player's move. */
export interface MoveAnalysis {
  /** The move's number (1 for the first). */
  readonly ply: number;
  /** Who moved. */
  readonly by: Player;
  /** The best move found in the position before (first in the game's order). */
  readonly best: number;
  /** Its notation. */
  readonly bestNotation: string;
  /** The best value, from the mover's side. */
  readonly bestValue: number;
  /** The move played's value, from the mover's side. */
  readonly playedValue: number;
  /** `bestValue - playedValue`, at least 0. */
  readonly loss: number;
  /**
   * True when both values are proven (every line searched to its end, or the exact
   * solver's): the move is then judged by the result only.
   */
  readonly exact: boolean;
  /** The depth the search of the position before reached. */
  readonly depth: number;
  /** The move's mark, if it has one. */
  readonly judgement?: Judgement;
}

/** True for a judgement of a mistake or a blunder (what the summary lists as mistakes). */
export const isMistake = (j: Judgement | undefined): boolean =>
  j !== undefined && j.severity !== "inaccuracy";

const isWin = (v: number) => v >= WIN_THRESHOLD;
const isLoss = (v: number) => v <= -WIN_THRESHOLD;

/**
 * The result an exact value says, from its side: 1 a win, 0 a draw, -1 a loss. A
 * decisive value is a win or a loss; another exact value is 0 (a draw) or the final
 * margin an exact solver gives (Kalah's stones), whose sign is the result.
 */
export const exactResult = (v: number): -1 | 0 | 1 => (v > 0 ? 1 : v < 0 ? -1 : 0);

/** A value in the mover's units, as text (`3`, `0.250`). */
const amount = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

const RESULT_WORDS = { [1]: "a win", [0]: "a draw", [-1]: "a loss" } as const;

/**
 * Judges a move by the best value and the played move's value, both from the mover's
 * side (decisive values carry their distance): its mark, or `undefined`. `exact`: both
 * values are proven, and only a change of the result is marked (a blunder).
 *
 * @example
 * ```ts
 * import { judgeMove } from "./review.ts";
 * import { WIN } from "../core/game.ts";
 * if (judgeMove(WIN - 3, 0, 1, true)?.why !== "turns a win into a draw") throw new Error();
 * if (judgeMove(WIN - 3, WIN - 9, 1, true) !== undefined) throw new Error(); // a slower win
 * if (judgeMove(6, 2, 1, true) !== undefined) throw new Error(); // exact: still a win
 * if (judgeMove(6, 2, 1, false)?.severity !== "blunder") throw new Error(); // loses 4
 * ```
 */
export const judgeMove = (
  best: number,
  played: number,
  margin: number,
  exact: boolean,
): Judgement | undefined => {
  if (exact) {
    const [b, p] = [exactResult(best), exactResult(played)];
    return p < b
      ? { severity: "blunder", why: `turns ${RESULT_WORDS[b]} into ${RESULT_WORDS[p]}` }
      : undefined;
  }
  if (isWin(best) && !isWin(played)) {
    return {
      severity: "blunder",
      why: isLoss(played) ? "turns a win into a loss" : "gives up a win",
    };
  }
  if (!isLoss(best) && isLoss(played)) return { severity: "blunder", why: "walks into a loss" };
  if (isWin(best) || isLoss(best)) return undefined; // same outcome, another distance
  const loss = best - played;
  const why = `loses ${amount(loss)}`;
  return loss > 3 * margin
    ? { severity: "blunder", why }
    : loss > margin
    ? { severity: "mistake", why }
    : loss > margin / 2
    ? { severity: "inaccuracy", why }
    : undefined;
};

/** How many moves of each severity one player made. */
export type MarkCounts = Readonly<Record<Severity, number>>;

/**
 * Counts each player's marked moves by severity (player 0 first), over analyses or
 * anything that says who moved and how it was judged.
 */
export const countMarks = (
  marks: readonly ({ readonly by: Player; readonly judgement?: Judgement } | undefined)[],
): readonly [MarkCounts, MarkCounts] => {
  const counts = [0, 1].map(() => ({ inaccuracy: 0, mistake: 0, blunder: 0 }));
  for (const m of marks) if (m?.judgement !== undefined) counts[m.by][m.judgement.severity]++;
  return [counts[0], counts[1]];
};

/** What the analysis is doing, for a status line. */
export interface AnalysisProgress {
  /** The move analysed. */
  readonly ply: number;
  /** The number of moves on the main line. */
  readonly total: number;
  /** Which search: the position before the move, or the one after the move played. */
  readonly phase: "best" | "played";
  /** The search's latest report. */
  readonly progress: Progress;
}

/**
 * The exact solver of a game: its own `solve` strategy, else alpha-beta (to the end);
 * none for a game no search can solve (`unsolvable`, such as 2048).
 */
export const exactSolver = (
  game: Game<unknown>,
  strategies: Readonly<Record<string, Strategy>> | undefined,
): ChosenStrategy | undefined =>
  game.unsolvable !== undefined
    ? undefined
    : strategies?.solve !== undefined
    ? { name: "solve", strategy: strategies.solve, params: {} }
    : { name: "alphabeta", strategy: alphabetaStrategy, params: {} };

/** The values a pass found for a move: best move, both values, depth, and if proven. */
interface Valued {
  readonly best: number;
  readonly bestValue: number;
  readonly played: number;
  readonly exact: boolean;
  readonly depth: number;
}

/**
 * Values a move with the exact solver: `undefined` unless it proves both the position
 * before and the position after (within its time).
 */
const solveMove = <S>(
  game: Game<S>,
  step: LineStep<S>,
  settings: AnalysisSettings,
  onProgress: (phase: "best" | "played", p: Progress) => void,
): Effect.Effect<Valued | undefined, SearchError> =>
  Effect.gen(function* () {
    const exact = settings.exact;
    if (exact === undefined) return undefined;
    const { strategy, params } = exact.solver;
    const options: EngineOptions = {
      distance: true,
      params,
      allBest: strategy.allBest === true,
      ...(exact.timeMs !== undefined ? { timeMs: exact.timeMs } : { depth: Infinity }),
    };
    const { source } = settings;
    const r = yield* search(
      { strategy, game, source, state: step.before, options },
      (p) => onProgress("best", p),
    );
    if (r.move === undefined || Number.isNaN(r.value) || !r.exact) return undefined;
    let played = r.value;
    if (!(r.bestMoves ?? [r.move]).includes(step.move)) {
      const after = yield* search({
        strategy,
        game,
        source,
        state: step.after,
        options: { ...options, allBest: false },
      }, (p) => onProgress("played", p));
      if (Number.isNaN(after.value) || !after.exact) return undefined;
      played = byDistance(after.value, 1);
    }
    return { best: r.move, bestValue: r.value, played, exact: true, depth: r.depth };
  });

/** Values a move with the analysis's own search (see the module's notes). */
const searchMove = <S>(
  game: Game<S>,
  step: LineStep<S>,
  settings: AnalysisSettings,
  onProgress: (phase: "best" | "played", p: Progress) => void,
): Effect.Effect<Valued | undefined, SearchError> =>
  Effect.gen(function* () {
    const { strategy, params } = settings.strategy;
    const common = {
      distance: true,
      params,
      ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    };
    const options: EngineOptions = {
      ...common,
      ...(settings.timeMs !== undefined ? { timeMs: settings.timeMs } : { depth: settings.depth }),
      allBest: strategy.allBest === true,
    };
    const { source } = settings;
    const r = yield* search(
      { strategy, game, source, state: step.before, options },
      (p) => onProgress("best", p),
    );
    if (r.move === undefined || Number.isNaN(r.value)) return undefined;
    const optimal = r.bestMoves ?? [r.move];
    let played = r.value, exact = r.exact;
    if (!optimal.includes(step.move)) {
      // The value the first search gives the move: its child, one ply shallower.
      const depth = (settings.depth ?? r.depth) - 1;
      const after = yield* search({
        strategy,
        game,
        source,
        state: step.after,
        // A budget that is not a depth (MCTS's iterations) is the same for the child.
        options: strategy.budget === "depth"
          ? { ...common, depth }
          : { ...options, allBest: false },
      }, (p) => onProgress("played", p));
      if (Number.isNaN(after.value)) return undefined;
      played = byDistance(after.value, 1);
      exact &&= after.exact;
    }
    return { best: r.move, bestValue: r.value, played, exact, depth: r.depth };
  });

/**
 * Analyses one player's move (see the module's notes for the method): the exact solver
 * first, if the settings have one, then the analysis's search of the position before it,
 * and of the position after it unless it is among the optimal moves. `undefined` when
 * the search completed no iteration (a time budget too short).
 */
export const analyseMove = <S>(
  game: Game<S>,
  step: LineStep<S>,
  settings: AnalysisSettings,
  onProgress: (phase: "best" | "played", p: Progress) => void = () => {},
): Effect.Effect<MoveAnalysis | undefined, SearchError> =>
  Effect.gen(function* () {
    if (step.by === CHANCE) return undefined;
    const by = step.by;
    const v = (yield* solveMove(game, step, settings, onProgress)) ??
      (yield* searchMove(game, step, settings, onProgress));
    if (v === undefined) return undefined;
    const side = (x: number) => (by === 0 ? x : -x);
    const bestValue = side(v.bestValue);
    const playedValue = side(v.played);
    const judgement = judgeMove(bestValue, playedValue, settings.margin, v.exact);
    return {
      ply: step.ply,
      by,
      best: v.best,
      bestNotation: game.formatMove(step.before, v.best),
      bestValue,
      playedValue,
      loss: Math.max(0, bestValue - playedValue),
      exact: v.exact,
      depth: v.depth,
      ...(judgement !== undefined ? { judgement } : {}),
    };
  });

/**
 * Analyses every player's move of a line in order, adding each result to `into` as soon
 * as it is known (so that an interrupted pass keeps what it found); chance moves, and
 * moves whose search completed nothing, get `undefined`.
 */
export const analyseLine = <S>(
  game: Game<S>,
  line: readonly LineStep<S>[],
  settings: AnalysisSettings,
  onProgress: (p: AnalysisProgress) => void = () => {},
  into: (MoveAnalysis | undefined)[] = [],
): Effect.Effect<(MoveAnalysis | undefined)[], SearchError> =>
  Effect.gen(function* () {
    for (const step of line.slice(into.length)) {
      into.push(
        yield* analyseMove(game, step, settings, (phase, progress) =>
          onProgress({ ply: step.ply, total: line.length, phase, progress })),
      );
    }
    return into;
  });
