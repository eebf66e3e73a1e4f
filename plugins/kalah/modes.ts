/**
 * Seed 004's AI modes, as `deno task kalah` names them, in one table: how many
 * parameters each takes, how it searches, and its benchmark group. The sequential modes
 * are the Kalah-specialised searches; the parallel modes (`par_then_mm`, `par_then_ab`,
 * `young_bros`) run the core's parallel strategies on the program's worker pool, with
 * seed 004's `parDepth` as their `par`.
 *
 * The root breaks ties as seed 004's Haskell does: `seq_mm`, `par_then_mm` and
 * `par_then_ab` take `maximumBy` / `minimumBy` over the moves in house order, which keep
 * the last of equal maxima and the first of equal minima; `seq_ab` (`runAB`) keeps the
 * first strict improvement. With parDepth 0 the seed runs its sequential search
 * (`parDepth == 0 = runMM k s`, `runAB k s ...`), and so do these modes.
 *
 * @module
 */
import type { Effect } from "../../core/deps.ts";
import type { Game } from "../../core/game.ts";
import type { SearchResult, Strategy } from "../../core/search/types.ts";
import type { SearchError } from "../../core/errors.ts";
import type { GameSource } from "../../core/source.ts";
import { search } from "../../core/engine/engine.ts";
import { parallelStrategies } from "../../core/parallel/strategies.ts";
import { seqAbStrategy, seqMmStrategy } from "./mod.ts";

/** A mode's parameters: `(depth)` or `(depth, parDepth)`. */
export interface ModeParams {
  /** The search depth limit (seed 004's `search_depth_limit`). */
  readonly depth: number;
  /** The parallelism depth limit (two-parameter modes only). */
  readonly parDepth?: number;
}

/** One of seed 004's AI modes. */
export interface ModeSpec {
  /** Its name on the command line. */
  readonly name: string;
  /** 1: `(depth)`; 2: `(depth,parDepth)`. */
  readonly arity: 1 | 2;
  /** One line for the help text. */
  readonly description: string;
  /**
   * Searches a position through the engine (in a worker that opens the game from
   * `source`; the parallel modes on the pool).
   */
  readonly search: <S>(
    game: Game<S>,
    source: GameSource,
    state: S,
    params: ModeParams,
  ) => Effect.Effect<SearchResult, SearchError>;
  /** Its benchmark group: the parameter sets seed 004's `Benchmark.hs` runs. */
  readonly bench: readonly ModeParams[];
}

/** The deepest search a mode takes: the player-spec grammar's limit (`alphabeta:1000`). */
export const MAX_DEPTH = 1000;

/** A strategy with seed 004's parameters, through the engine (in a worker, interruptible). */
const run = <S>(
  strategy: Strategy,
  game: Game<S>,
  source: GameSource,
  state: S,
  p: ModeParams,
  params: Readonly<Record<string, number>>,
) => search({ strategy, game, source, state, options: { depth: p.depth, params } });

/** Seed 004's SeqMM: minimax, the root keeping the last of equal maxima (`maximumBy`). */
const seqMm = <S>(game: Game<S>, source: GameSource, state: S, p: ModeParams) =>
  run(seqMmStrategy, game, source, state, p, { lastmax: 1 });

/** Seed 004's SeqAB: alpha-beta in house order, the first best move (`runAB`). */
const seqAb = <S>(game: Game<S>, source: GameSource, state: S, p: ModeParams) =>
  run(seqAbStrategy, game, source, state, p, {});

/**
 * A parallel mode: the core strategy with seed 004's parDepth as `par`, or with
 * parDepth 0 the sequential search the seed falls back to. `lastmax` asks the root for
 * the last of equal maxima (`maximumBy`).
 */
const parallel = (
  name: string,
  sequential: ModeSpec["search"],
  lastmax: boolean,
) =>
<S>(game: Game<S>, source: GameSource, state: S, p: ModeParams) =>
  p.parDepth === 0
    ? sequential(game, source, state, p)
    : run(parallelStrategies[name], game, source, state, p, {
      par: p.parDepth ?? 1,
      ...(lastmax ? { lastmax: 1 } : {}),
    });

/** Seed 004's modes in its order. */
export const MODES: readonly ModeSpec[] = [
  {
    name: "seq_mm",
    arity: 1,
    description: "sequential minimax (SeqMM)",
    search: seqMm,
    bench: [{ depth: 9 }],
  },
  {
    name: "seq_ab",
    arity: 1,
    description: "sequential alpha-beta (SeqAB)",
    search: seqAb,
    bench: [{ depth: 9 }],
  },
  {
    name: "par_then_mm",
    arity: 2,
    description: "parallel minimax for parDepth plies, then minimax (ParThenMM)",
    search: parallel("par_then_mm", seqMm, true),
    bench: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((parDepth) => ({ depth: 9, parDepth })),
  },
  {
    name: "par_then_ab",
    arity: 2,
    description: "parallel minimax for parDepth plies, then alpha-beta (ParThenAB)",
    search: parallel("par_then_ab", seqAb, true),
    bench: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((parDepth) => ({ depth: 9, parDepth })),
  },
  {
    name: "young_bros",
    arity: 2,
    description: "young brothers wait: eldest child first, then the rest in parallel",
    search: parallel("young_bros", seqAb, false),
    bench: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((parDepth) => ({ depth: 9, parDepth })),
  },
];

/** A mode by name. */
export const modeByName = (name: string): ModeSpec | undefined =>
  MODES.find((m) => m.name === name);

/** Seed 004's message for an unknown mode. */
export const modeNamesMessage = (): string =>
  `AI Mode must be one of [${MODES.map((m) => m.name).join(", ")}]`;

/**
 * Reads a mode's parameters as seed 004 does (Haskell's `read`): an integer, optionally
 * in parentheses, for one-parameter modes (`9` or `(9)`); a pair `(9,2)` for the others.
 * Errors are seed 004's messages, and in their words the depth limit of every program,
 * `MAX_DEPTH`.
 *
 * @example
 * ```ts
 * import { modeByName, parseParams } from "./modes.ts";
 * const r = parseParams(modeByName("seq_mm")!, "(9)");
 * if (!("params" in r) || r.params.depth !== 9) throw new Error();
 * ```
 */
export const parseParams = (
  mode: ModeSpec,
  text: string,
): { readonly params: ModeParams } | { readonly error: string } => {
  const int = String.raw`\s*(-?\d+)\s*`;
  if (mode.arity === 1) {
    const m = new RegExp(`^\\s*(?:${int}|\\(${int}\\))\\s*$`).exec(text);
    if (m === null) return { error: `AI params must be specified as "(search_depth_limit)"` };
    const depth = Number(m[1] ?? m[2]);
    if (depth < 0) return { error: "search_depth_limit must be non-negative" };
    if (depth > MAX_DEPTH) return { error: `search_depth_limit must be at most ${MAX_DEPTH}` };
    return { params: { depth } };
  }
  const m = new RegExp(`^\\s*\\(${int},${int}\\)\\s*$`).exec(text);
  if (m === null) {
    return {
      error: `AI params must be specified as "(search_depth_limit,parallelism_depth_limit)"`,
    };
  }
  const depth = Number(m[1]), parDepth = Number(m[2]);
  if (depth < 0 || parDepth < 0) {
    return { error: "search_depth_limit and parallelism_depth_limit must be non-negative" };
  }
  if (depth > MAX_DEPTH || parDepth > MAX_DEPTH) {
    return {
      error: `search_depth_limit and parallelism_depth_limit must be at most ${MAX_DEPTH}`,
    };
  }
  return { params: { depth, parDepth } };
};
