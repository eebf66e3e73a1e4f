/**
 * The player SPEC grammar used by every script:
 *
 * ```text
 * SPEC    = "human" | "random" | STRATEGY [":" BUDGET]
 * BUDGET  = DEPTH | TIME
 * DEPTH   = an integer >= 0, the search depth in plies        (alphabeta:6)
 *           for `mcts`, the number of iterations (playouts)   (mcts:2000)
 * TIME    = a number with "ms" or "s", the time per move      (alphabeta:500ms, mcts:1s)
 * ```
 *
 * Parameters follow as `,NAME=VALUE` (`young_bros:9,par=2`: Young Brothers Wait to depth 9,
 * parallel for the first 2 plies).
 *
 * STRATEGY is a built-in strategy (`minimax`, `alphabeta`, `expectimax`, ...), a
 * strategy the game adds (such as an exact solver), or `randombest` (a uniformly random
 * choice among the optimal moves at the depth, seed 003's `randomBestPlay`). Without a
 * budget a search gets one second per move.
 *
 * @module
 */
import { Result } from "../deps.ts";

/** A parsed player spec. */
export type PlayerSpec =
  | { readonly kind: "human" }
  | { readonly kind: "random" }
  | {
    readonly kind: "search";
    readonly strategy: string;
    readonly depth?: number;
    readonly timeMs?: number;
    /** Strategy parameters, from `,NAME=VALUE` suffixes (`young_bros:9,par=2`). */
    readonly params?: Readonly<Record<string, number>>;
  };

/** The default time per move for a search spec without a budget. */
export const DEFAULT_TIME_MS = 1000;

/** The spec grammar in one line, for messages. */
export const SPEC_GRAMMAR = "human | random | STRATEGY[:DEPTH | :TIMEms | :TIMEs][,NAME=VALUE]";

/**
 * Parses a player spec against the known strategy names.
 *
 * @example
 * ```ts
 * import { parseSpec } from "./spec.ts";
 * import { Result } from "../deps.ts";
 * const r = parseSpec("alphabeta:500ms", ["alphabeta"]);
 * if (!Result.isSuccess(r) || r.success.kind !== "search" || r.success.timeMs !== 500) {
 *   throw new Error("bad parse");
 * }
 * ```
 */
export const parseSpec = (
  text: string,
  strategies: readonly string[],
): Result.Result<PlayerSpec, string> => {
  const [t, ...paramTexts] = text.trim().toLowerCase().split(",");
  if (paramTexts.length === 0 && t === "human") return Result.succeed({ kind: "human" });
  if (paramTexts.length === 0 && t === "random") return Result.succeed({ kind: "random" });
  const params = parseParams(paramTexts);
  if (Result.isFailure(params)) return Result.fail(`${params.failure} in '${text}'`);
  const parsed = parseBudget(t, text, strategies);
  if (Result.isFailure(parsed) || parsed.success.kind !== "search" || paramTexts.length === 0) {
    return parsed;
  }
  return Result.succeed({ ...parsed.success, params: params.success });
};

/** Reads strategy parameters `NAME=NUMBER` (the parts after commas in a spec). */
export const parseParams = (
  texts: readonly string[],
): Result.Result<Readonly<Record<string, number>>, string> => {
  const params: Record<string, number> = {};
  for (const p of texts) {
    const m = /^([a-z_][a-z0-9_]*)=(-?\d+(?:\.\d+)?)$/.exec(p.trim().toLowerCase());
    if (m === null) return Result.fail(`bad parameter '${p}': expected NAME=NUMBER, as in par=2`);
    params[m[1]] = Number(m[2]);
  }
  return Result.succeed(params);
};

const parseBudget = (
  t: string,
  text: string,
  strategies: readonly string[],
): Result.Result<PlayerSpec, string> => {
  const [name, budget, ...rest] = t.split(":");
  const known = ["randombest", ...strategies];
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
  // For mcts the number is an iteration count, so it may be large.
  const maxBudget = name === "mcts" ? 100_000_000 : 1000;
  if (/^\d+$/.test(budget) && Number(budget) <= maxBudget) {
    return Result.succeed({ kind: "search", strategy: name, depth: Number(budget) });
  }
  return Result.fail(
    `bad budget '${budget}' in '${text}': expected a depth 0-1000 (alphabeta:6), ` +
      "an iteration count for mcts (mcts:2000), or a time such as 500ms or 2s",
  );
};

/** Writes a spec back as text. */
export const formatSpec = (spec: PlayerSpec): string => {
  if (spec.kind !== "search") return spec.kind;
  const budget = spec.depth !== undefined
    ? String(spec.depth)
    : spec.timeMs! % 1000 === 0
    ? `${spec.timeMs! / 1000}s`
    : `${spec.timeMs}ms`;
  const params = Object.entries(spec.params ?? {}).map(([k, v]) => `,${k}=${v}`).join("");
  return `${spec.strategy}:${budget}${params}`;
};
