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
 * minus the played one. A move is a mistake when it turns a win into a draw or a loss,
 * or anything not lost into a loss; or, when neither value is decisive, when the loss
 * exceeds the game's `mistakeMargin` (default 1). A slower win or a quicker loss in a
 * lost position is no mistake.
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
  /** True when both values are proven (every line searched to its end). */
  readonly exact: boolean;
  /** The depth the search of the position before reached. */
  readonly depth: number;
  /** Why the move is a mistake (`"turns a win into a draw"`, `"loses 3"`); none if not. */
  readonly mistake?: string;
}

const isWin = (v: number) => v >= WIN_THRESHOLD;
const isLoss = (v: number) => v <= -WIN_THRESHOLD;

/** A value in the mover's units, as text (`3`, `0.250`). */
const amount = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

/**
 * Judges a move by the best value and the played move's value, both from the mover's
 * side (decisive values carry their distance): why it is a mistake, or `undefined`.
 * `exact`: both values are proven (a non-decisive exact value of 0 is a draw).
 *
 * @example
 * ```ts
 * import { judgeMove } from "./review.ts";
 * import { WIN } from "../core/game.ts";
 * if (judgeMove(WIN - 3, 0, 1, true) !== "turns a win into a draw") throw new Error();
 * if (judgeMove(WIN - 3, WIN - 9, 1, true) !== undefined) throw new Error(); // a slower win
 * if (judgeMove(6, 2, 1, false) !== "loses 4") throw new Error();
 * ```
 */
export const judgeMove = (
  best: number,
  played: number,
  margin: number,
  exact: boolean,
): string | undefined => {
  if (isWin(best) && !isWin(played)) {
    return isLoss(played)
      ? "turns a win into a loss"
      : exact && played === 0
      ? "turns a win into a draw"
      : "gives up a win";
  }
  if (!isLoss(best) && isLoss(played)) {
    return exact && best === 0 ? "turns a draw into a loss" : "walks into a loss";
  }
  if (isWin(best) || isLoss(best)) return undefined; // same outcome, another distance
  const loss = best - played;
  return loss > margin ? `loses ${amount(loss)}` : undefined;
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
 * Analyses one player's move (see the module's notes for the method): searches the
 * position before it, and the position after it unless it is among the optimal moves.
 * `undefined` when the search completed no iteration (a time budget too short).
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
    const side = (v: number) => (by === 0 ? v : -v);
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
    const bestValue = side(r.value);
    const playedValue = side(played);
    const loss = Math.max(0, bestValue - playedValue);
    const mistake = judgeMove(bestValue, playedValue, settings.margin, exact);
    return {
      ply: step.ply,
      by,
      best: r.move,
      bestNotation: game.formatMove(step.before, r.move),
      bestValue,
      playedValue,
      loss,
      exact,
      depth: r.depth,
      ...(mistake !== undefined ? { mistake } : {}),
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
