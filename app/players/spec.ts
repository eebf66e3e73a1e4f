/**
 * The player SPEC grammar used by every script:
 *
 * ```text
 * SPEC    = "human" | "random" | STRATEGY [":" BUDGET]
 * BUDGET  = DEPTH | TIME
 * DEPTH   = an integer >= 1, the search depth in plies        (alphabeta:6)
 *           for a strategy that counts iterations (its `budget` is
 *           "iterations", as MCTS's), the number of iterations (mcts:2000)
 * TIME    = a number with "ms" or "s", the time per move      (alphabeta:500ms, mcts:1s)
 * ```
 *
 * `mcts:2000` is the short form of an iteration budget: the spec's `iterations` (the
 * search's `SearchOptions.iterations`), never its `depth`, which is plies only; the
 * strategy says which it counts (`Strategy.budget`).
 *
 * Parameters follow as `,NAME=VALUE` (`young_bros:9,par=2`: Young Brothers Wait to depth 9,
 * parallel for the first 2 plies); each strategy declares the ones it takes and their
 * ranges (`Strategy.params`).
 *
 * STRATEGY is a built-in strategy (`minimax`, `alphabeta`, `expectimax`, ...), a
 * strategy the game adds (such as an exact solver), or `randombest` (a uniformly random
 * choice among the optimal moves at the depth, seed 003's `randomBestPlay`). Without a
 * budget a search gets one second per move.
 *
 * @module
 */
import { Result } from "../../core/deps.ts";
import type { SearchOptions, Strategy, StrategyParam } from "../../core/search/types.ts";

/** A parsed player spec. */
export type PlayerSpec =
  | { readonly kind: "human" }
  | { readonly kind: "random" }
  | {
    readonly kind: "search";
    readonly strategy: string;
    /** The search depth in plies (`alphabeta:6`). */
    readonly depth?: number;
    /** The iteration budget of a strategy that counts iterations (`mcts:2000`). */
    readonly iterations?: number;
    /** The time per move in milliseconds (`alphabeta:500ms`). */
    readonly timeMs?: number;
    /** Strategy parameters, from `,NAME=VALUE` suffixes (`young_bros:9,par=2`). */
    readonly params?: Readonly<Record<string, number>>;
  };

/** A search spec (`alphabeta:6`, `expectimax:50ms,slides=5`). */
export type SearchSpec = Extract<PlayerSpec, { readonly kind: "search" }>;

/**
 * The search options a search spec sets: its depth, iterations or time, and parameters.
 *
 * @example
 * ```ts
 * import { searchOptionsOf } from "./spec.ts";
 * const o = searchOptionsOf({ kind: "search", strategy: "alphabeta", timeMs: 50 });
 * if (o.timeMs !== 50 || "depth" in o) throw new Error();
 * ```
 */
export const searchOptionsOf = (spec: SearchSpec): SearchOptions => ({
  ...(spec.depth !== undefined ? { depth: spec.depth } : {}),
  ...(spec.iterations !== undefined ? { iterations: spec.iterations } : {}),
  ...(spec.timeMs !== undefined ? { timeMs: spec.timeMs } : {}),
  ...(spec.params !== undefined ? { params: spec.params } : {}),
});

/** The default time per move for a search spec without a budget. */
const DEFAULT_TIME_MS = 1000;

/** The spec grammar in one line, for messages. */
export const SPEC_GRAMMAR = "human | random | STRATEGY[:DEPTH | :TIMEms | :TIMEs][,NAME=VALUE]";

/**
 * Parses a player spec against the strategies by name: a number budget counts what the
 * strategy's `budget` says (plies or iterations), and parameters are checked against
 * its `params`.
 *
 * @example
 * ```ts
 * import { parseSpec } from "./spec.ts";
 * import { Result } from "../../core/deps.ts";
 * import { builtinStrategies } from "../../core/search/strategies.ts";
 * const r = parseSpec("alphabeta:500ms", builtinStrategies);
 * if (!Result.isSuccess(r) || r.success.kind !== "search" || r.success.timeMs !== 500) {
 *   throw new Error("bad parse");
 * }
 * ```
 */
export const parseSpec = (
  text: string,
  strategies: Readonly<Record<string, Strategy>>,
): Result.Result<PlayerSpec, string> => {
  const [t, ...paramTexts] = text.trim().toLowerCase().split(",");
  if (paramTexts.length === 0 && t === "human") return Result.succeed({ kind: "human" });
  if (paramTexts.length === 0 && t === "random") return Result.succeed({ kind: "random" });
  const parsed = parseBudget(t, text, strategies);
  if (Result.isFailure(parsed) || parsed.success.kind !== "search" || paramTexts.length === 0) {
    return parsed;
  }
  const name = parsed.success.strategy;
  const params = parseStrategyParams(name, strategies[name]?.params ?? {}, paramTexts);
  if (Result.isFailure(params)) return Result.fail(`'${text}': ${params.failure}`);
  return Result.succeed({ ...parsed.success, params: params.success });
};

const NUMBER = String.raw`-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?`;

/** Reads strategy parameters `NAME=NUMBER` (the parts after commas in a spec), unchecked. */
export const parseParams = (
  texts: readonly string[],
): Result.Result<Readonly<Record<string, number>>, string> => {
  const params: Record<string, number> = {};
  for (const p of texts) {
    const m = new RegExp(`^([a-z_][a-z0-9_]*)=(${NUMBER})$`).exec(p.trim().toLowerCase());
    if (m === null) return Result.fail(`bad parameter '${p}': expected NAME=NUMBER, as in par=2`);
    if (Object.hasOwn(params, m[1])) return Result.fail(`parameter ${m[1]} is given twice`);
    params[m[1]] = Number(m[2]);
  }
  return Result.succeed(params);
};

/** A parameter's range in words: `an integer from 0 to 64`. */
const rangeOf = (p: StrategyParam): string =>
  `${p.integer === true ? "an integer" : "a number"} from ${p.min} to ${p.max}`;

/**
 * Reads strategy parameters and checks each against what the strategy accepts: an
 * unknown name is refused with the names it takes, a value outside its range with the
 * range.
 *
 * @example
 * ```ts
 * import { parseStrategyParams } from "./spec.ts";
 * import { Result } from "../../core/deps.ts";
 * const par = { min: 0, max: 64, integer: true, description: "parallel plies" };
 * const r = parseStrategyParams("young_bros", { par }, ["par=-1"]);
 * if (!Result.isFailure(r) || !r.failure.includes("from 0 to 64")) throw new Error();
 * ```
 */
export const parseStrategyParams = (
  strategy: string,
  accepted: Readonly<Record<string, StrategyParam>>,
  texts: readonly string[],
): Result.Result<Readonly<Record<string, number>>, string> => {
  const parsed = parseParams(texts);
  if (Result.isFailure(parsed)) return parsed;
  for (const [name, value] of Object.entries(parsed.success)) {
    const p = Object.hasOwn(accepted, name) ? accepted[name] : undefined;
    if (p === undefined) {
      const names = Object.entries(accepted).map(([n, q]) => `${n} (${q.min}-${q.max})`);
      return Result.fail(
        `unknown parameter '${name}': ${strategy} takes ${
          names.length === 0 ? "no parameters" : names.join(", ")
        }`,
      );
    }
    if ((p.integer === true && !Number.isInteger(value)) || !(value >= p.min && value <= p.max)) {
      return Result.fail(
        `${name} must be ${rangeOf(p)}, got ${value} (${strategy}: ${p.description})`,
      );
    }
  }
  return parsed;
};

const parseBudget = (
  t: string,
  text: string,
  strategies: Readonly<Record<string, Strategy>>,
): Result.Result<PlayerSpec, string> => {
  const [name, budget, ...rest] = t.split(":");
  const known = ["randombest", ...Object.keys(strategies)];
  if (!known.includes(name) || rest.length > 0) {
    return Result.fail(
      `unknown player '${text}': expected ${SPEC_GRAMMAR}, where STRATEGY is one of ${
        known.join(", ")
      }`,
    );
  }
  if (budget === undefined || budget === "") {
    return Result.succeed(
      name === "randombest"
        ? { kind: "search", strategy: name, depth: 4 }
        : { kind: "search", strategy: name, timeMs: DEFAULT_TIME_MS },
    );
  }
  const time = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(budget);
  if (time !== null) {
    const ms = Number(time[1]) * (time[2] === "s" ? 1000 : 1);
    if (ms <= 0) return Result.fail(`the time in '${text}' must be more than 0`);
    return Result.succeed({ kind: "search", strategy: name, timeMs: ms });
  }
  // An iteration count may be large (the strategy says what it counts); a budget is at
  // least 1. `randombest` searches to a depth.
  const iterative = Object.hasOwn(strategies, name) && strategies[name].budget === "iterations";
  const maxBudget = iterative ? MAX_ITERATIONS : MAX_DEPTH;
  if (/^\d+$/.test(budget) && Number(budget) >= 1 && Number(budget) <= maxBudget) {
    const n = Number(budget);
    return Result.succeed(
      iterative
        ? { kind: "search", strategy: name, iterations: n }
        : { kind: "search", strategy: name, depth: n },
    );
  }
  return Result.fail(
    `bad budget '${budget}' in '${text}': expected ` +
      (iterative
        ? `an iteration count from 1 to ${MAX_ITERATIONS} (${name}:2000)`
        : `a depth from 1 to ${MAX_DEPTH} (alphabeta:6)`) +
      ", or a time such as 500ms or 2s",
  );
};

/** The deepest depth budget a spec takes. */
const MAX_DEPTH = 1000;

/** The most iterations a spec takes (for a strategy that counts iterations, as `mcts`). */
const MAX_ITERATIONS = 100_000_000;

/** Writes a spec back as text. */
export const formatSpec = (spec: PlayerSpec): string => {
  if (spec.kind !== "search") return spec.kind;
  const budget = spec.depth !== undefined
    ? String(spec.depth)
    : spec.iterations !== undefined
    ? String(spec.iterations)
    : spec.timeMs! % 1000 === 0
    ? `${spec.timeMs! / 1000}s`
    : `${spec.timeMs}ms`;
  const params = Object.entries(spec.params ?? {}).map(([k, v]) => `,${k}=${v}`).join("");
  return `${spec.strategy}:${budget}${params}`;
};
