/**
 * What every search strategy takes and returns.
 *
 * @module
 */
import type { Effect } from "../deps.ts";
import type { Game } from "../game.ts";
import type { SearchFailed } from "../errors.ts";
import type { Rng } from "../rng.ts";
import type { GameSource } from "../source.ts";
import type { TranspositionTable } from "./tt.ts";

/** How a strategy treats chance nodes. */
export type ChanceMode = "min" | "expect";

/** Options common to the searches. Every field is optional. */
export interface SearchOptions {
  /** Maximum depth in plies (default: unlimited with a time budget, else 4). Not MCTS's. */
  readonly depth?: number;
  /**
   * MCTS: the number of iterations (playouts), `mcts:2000` in a player spec (default
   * 1000 without a time budget). The depth-first searches ignore it.
   */
  readonly iterations?: number;
  /** Time budget in milliseconds; iterative deepening stops when it runs out. */
  readonly timeMs?: number;
  /** Prefer quick wins and slow losses (decisive values shrink with distance). */
  readonly distance?: boolean;
  /** A transposition table to use (reused across moves by a player), or `false`. */
  readonly tt?: TranspositionTable | false;
  /** Use move ordering (the game's `orderMoves`, the table's move, killers). Default true. */
  readonly ordering?: boolean;
  /** Also find every optimal root move (`SearchResult.bestMoves`). */
  readonly allBest?: boolean;
  /** Expectimax only: a chance branch whose path probability is below this is a leaf. */
  readonly minProbability?: number;
  /** Seeded generator for strategies that randomize (tie-breaks, playouts). */
  readonly rng?: Rng;
  /**
   * Marks, shared between workers, of the positions being searched right now (Lazy SMP
   * sets it): a node searches its other children before one another worker is on
   * (ABDADA's deferral). Any power-of-two length.
   */
  readonly busy?: Int32Array;
  /** Polled every few thousand nodes; returning true stops the search (interruption). */
  readonly shouldStop?: () => boolean;
  /**
   * Called after each completed iteration of iterative deepening (MCTS: about every
   * second, with the best move so far).
   */
  readonly onIteration?: (r: SearchResult) => void;
  /** Strategy parameters from a player spec (`young_bros:9,par=2` gives `{ par: 2 }`). */
  readonly params?: Readonly<Record<string, number>>;
}

/** The result of a search from one position. */
export interface SearchResult {
  /** The move to play, `undefined` when the position is over or at a chance node. */
  readonly move: number | undefined;
  /** The backed-up value, player 0 maximizing. */
  readonly value: number;
  /** The principal variation: the expected line of play from the root. */
  readonly pv: readonly number[];
  /** Nodes (positions) visited, over all iterations. */
  readonly nodes: number;
  /** The depth of the last completed iteration. */
  readonly depth: number;
  /** True when the last iteration reached every leaf (the value is exact). */
  readonly exact: boolean;
  /**
   * True when the search met a chance node (alpha-beta and expectimax tell; other
   * strategies leave it out). An exact value is then the dice's average (expectimax) or
   * their worst for player 0 (alpha-beta), not a proof of the result.
   */
  readonly chance?: boolean;
  /** Wall time in milliseconds. */
  readonly timeMs: number;
  /** Every optimal root move (with `allBest`), in move order. */
  readonly bestMoves?: readonly number[];
  /** MCTS: the playouts through the best move. */
  readonly visits?: number;
  /** What else the strategy wants its user to know (`analyze` prints each line). */
  readonly notes?: readonly string[];
  /**
   * An exact solver's proved interval, player 0's view: `lower <= true value <= upper`
   * (equal when solved). Its iterations (`onIteration`, one per null-window pass or
   * other step) narrow it: `lower` never falls, `upper` never rises.
   */
  readonly bounds?: { readonly lower: number; readonly upper: number };
}

/** A strategy parameter (`,NAME=VALUE` in a player spec): its range and meaning. */
export interface StrategyParam {
  /** The smallest value allowed. */
  readonly min: number;
  /** The largest value allowed. */
  readonly max: number;
  /** What it sets, with its default (for messages and `--help`). */
  readonly description: string;
  /** True when only whole numbers are allowed. */
  readonly integer?: boolean;
}

/**
 * What a strategy's numeric budget counts (`alphabeta:6`, `mcts:2000`): plies of depth
 * (`SearchOptions.depth`), or iterations, such as MCTS's playouts
 * (`SearchOptions.iterations`).
 */
export type BudgetKind = "depth" | "iterations";

/** What every strategy says about itself, whichever way it runs. */
export interface StrategyInfo {
  /** Its name in player specs, such as `"alphabeta"`. */
  readonly name: string;
  /** One line for `--help`. */
  readonly description: string;
  /** What its numeric budget counts: plies (`"depth"`) or `"iterations"` (MCTS). */
  readonly budget: BudgetKind;
  /**
   * False for a strategy whose value is an estimate even when it searches to the end
   * (MCTS): `analyze --solve` refuses it.
   */
  readonly solves?: boolean;
  /** The parameters it accepts (`young_bros:9,par=2`), by name; none when absent. */
  readonly params?: Readonly<Record<string, StrategyParam>>;
  /** True when it lists every optimal root move on request (`SearchOptions.allBest`). */
  readonly allBest?: boolean;
}

/** A strategy that searches on the calling thread: a plain synchronous function. */
export interface SequentialStrategy extends StrategyInfo {
  /** Runs on the calling thread (in a program: in one of the engine's workers). */
  readonly _tag: "Sequential";
  /** Runs the search. */
  readonly search: <S>(game: Game<S>, state: S, options: SearchOptions) => SearchResult;
}

/**
 * A strategy that searches on the worker pool (the pool in the context, or a temporary
 * one): its workers rebuild the game from `source`, so it has no synchronous search. Use
 * `runStrategy` to run any strategy as an Effect.
 */
export interface ParallelStrategy extends StrategyInfo {
  /** Coordinates on the calling thread, searches in the pool's workers. */
  readonly _tag: "Parallel";
  /** Runs the search; `source` is where the workers rebuild the game from. */
  readonly run: <S>(
    game: Game<S>,
    source: GameSource,
    state: S,
    options: SearchOptions,
  ) => Effect.Effect<SearchResult, SearchFailed>;
}

/** A named search strategy: sequential (a plain function) or parallel (on the pool). */
export type Strategy = SequentialStrategy | ParallelStrategy;
