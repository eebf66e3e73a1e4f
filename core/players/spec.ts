/**
 * The player SPEC grammar used by every script:
 *
 * ```text
 * SPEC    = "human" | "random" | STRATEGY [":" BUDGET]
 * BUDGET  = DEPTH | TIME
 * DEPTH   = an integer >= 0, the search depth in plies        (alphabeta:6)
 * TIME    = a number with "ms" or "s", the time per move      (alphabeta:500ms, mcts:1s)
 * ```
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
  };

/** The default time per move for a search spec without a budget. */
export const DEFAULT_TIME_MS = 1000;

/** The spec grammar in one line, for messages. */
export const SPEC_GRAMMAR = "human | random | STRATEGY[:DEPTH | :TIMEms | :TIMEs]";

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
  const t = text.trim().toLowerCase();
  if (t === "human") return Result.succeed({ kind: "human" });
  if (t === "random") return Result.succeed({ kind: "random" });
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
  if (/^\d+$/.test(budget) && Number(budget) <= 1000) {
    return Result.succeed({ kind: "search", strategy: name, depth: Number(budget) });
  }
  return Result.fail(
    `bad budget '${budget}' in '${text}': expected a depth 0-1000 (alphabeta:6) ` +
      "or a time such as 500ms or 2s",
  );
};

/** Writes a spec back as text. */
export const formatSpec = (spec: PlayerSpec): string =>
  spec.kind !== "search"
    ? spec.kind
    : `${spec.strategy}:${
      spec.depth !== undefined
        ? spec.depth
        : `${spec.timeMs! % 1000 === 0 ? `${spec.timeMs! / 1000}s` : `${spec.timeMs}ms`}`
    }`;
