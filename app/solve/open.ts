/**
 * A solve opened: its game (in its plugin thread), its exact solver, its units and the
 * tree above them, its id, and how one unit is solved on the engine. The program
 * (`scripts/solve.ts`) and the cluster's runners (`cluster/solve.ts`) open a solve the
 * same way, so both find the same units and solve each alike.
 *
 * @module
 */
import { openHostedGame } from "../games.ts";
import { Effect } from "../../core/deps.ts";
import { search } from "../../core/engine/engine.ts";
import type { Game } from "../../core/game.ts";
import type { OpenedGame, OptionsError, PluginError } from "../../core/plugin.ts";
import type { SearchError } from "../../core/errors.ts";
import type { CodeId } from "../tournament/code.ts";
import type { Scope } from "../../core/deps.ts";
import type { TranspositionTable } from "../../core/search/tt.ts";
import { isBuiltinUrl } from "../../core/source.ts";
import { type ChosenStrategy, UsageError } from "../cli.ts";
import { exactSolver } from "../review.ts";
import { alphabetaStrategy } from "../../core/search/strategies.ts";
import { codeId } from "../tournament/code.ts";
import type { Settled } from "./store.ts";
import { type Split, splitTree, type Unit } from "./split.ts";

/** The most nodes the tree above the units may have. */
export const MAX_TREE = 200_000;

/** A short hash of a text (16 hex digits of SHA-256). */
export const shortHash = async (text: string): Promise<string> =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
    .slice(0, 8).map((b) => b.toString(16).padStart(2, "0")).join("");

/** A line of moves in the game's notation, from the start. */
export const notation = (game: Game<unknown>, moves: readonly number[]): string[] => {
  let s = game.initial();
  return moves.map((m) => {
    const t = game.formatMove(s, m);
    s = game.play(s, m);
    return t;
  });
};

/** A solve opened (`openSolve`). */
export interface OpenedSolve {
  /** The game as opened, in its plugin thread. */
  readonly opened: OpenedGame;
  /** The game. */
  readonly game: Game<unknown>;
  /** Its plugin (its name and strategies). */
  readonly plugin: OpenedGame["plugin"];
  /** The exact solver of the units. */
  readonly solver: ChosenStrategy;
  /**
   * True when the solver counts a win's distance (alpha-beta to the end does; a game's
   * own solver proves wins without one): how the tree above the units combines them.
   */
  readonly distance: boolean;
  /** The units and the tree above them. */
  readonly tree: Split<unknown>;
  /** The code that decides the result. */
  readonly code: CodeId;
  /** The solve's id: what decides its result (the game, its options, the code). */
  readonly id: string;
  /** Solves one unit exactly (`tt`: a table for the core solver, or none). */
  readonly solveUnit: (
    u: Unit<unknown>,
    tt: TranspositionTable | false,
  ) => Effect.Effect<Settled, UsageError | SearchError>;
}

/** Opens a solve of `specifier` (with its options) split `split` plies down. */
export const openSolve = (
  specifier: string,
  options: Record<string, unknown>,
  split: number,
): Effect.Effect<OpenedSolve, UsageError | PluginError | OptionsError, Scope.Scope> =>
  Effect.gen(function* () {
    const opened = yield* openHostedGame(specifier, options);
    const { game, plugin } = opened;
    const solver = exactSolver(game, plugin.strategies);
    if (solver === undefined) {
      return yield* new UsageError({
        message: `${specifier} cannot be solved: ${game.unsolvable}`,
      });
    }
    let tree: Split<unknown>;
    try {
      tree = splitTree(game, game.initial(), split, MAX_TREE);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      return yield* new UsageError({
        message: `--split ${split}: ${e.message}; give a smaller --split`,
      });
    }
    const code = yield* Effect.promise(() =>
      codeId(isBuiltinUrl(opened.source.url) ? undefined : opened.source.url)
    );
    const id = yield* Effect.promise(() =>
      shortHash(JSON.stringify({ game: plugin.name, options: opened.options, code }))
    );
    /** Solves one unit exactly. */
    const solveUnit = (u: Unit<unknown>, tt: TranspositionTable | false) =>
      Effect.gen(function* () {
        const r = yield* search({
          strategy: solver.strategy,
          game,
          source: opened.source,
          state: u.state,
          options: { depth: Infinity, distance: true, tt },
        });
        if (!r.exact) {
          return yield* new UsageError({
            message: `unit ${notation(game, u.line).join(" ") || "(the start)"}: the solver ` +
              `(${solver.name}) did not prove its value`,
          });
        }
        return { value: r.value, move: r.move, nodes: r.nodes, ms: r.timeMs } satisfies Settled;
      });
    const distance = solver.strategy === alphabetaStrategy;
    return { opened, game, plugin, solver, distance, tree, code, id, solveUnit };
  });
