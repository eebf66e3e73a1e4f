/**
 * Players as effects. A player looks at a position and yields a choice: a move, or a
 * stop (it gave up, or its input ended). Randomness comes from Effect's `Random`, so a
 * game is replayable from its seed; a human reads lines from the `Terminal` service.
 *
 * @module
 */
import { Effect, Option, Random, Result } from "../../core/deps.ts";
import type { Game, Player } from "../../core/game.ts";
import { randomIndex } from "../../core/rng.ts";
import type { SearchResult, Strategy } from "../../core/search/types.ts";
import { DEFAULT_TT_MB, TranspositionTable } from "../../core/search/tt.ts";
import { alphabetaStrategy } from "../../core/search/strategies.ts";
import { type Progress, search } from "../../core/engine/engine.ts";
import type { SearchError } from "../../core/errors.ts";
import type { GameSource } from "../../core/source.ts";
import { Terminal } from "../terminal.ts";
import { type ClockView, thinkingTime } from "../clock.ts";
import { formatSpec, type PlayerSpec, searchOptionsOf } from "./spec.ts";

/** What a player decided. */
export type Choice =
  | {
    readonly _tag: "Move";
    /** The chosen move. */
    readonly move: number;
    /** The search behind it, for AI players. */
    readonly search?: SearchResult;
  }
  | {
    readonly _tag: "Stop";
    /** Why the player stopped: `"gave up"`, `"quit"`, `"end of input"`, ... */
    readonly reason: string;
  }
  /** A person takes back moves to their previous turn (see `undo` in `session.ts`). */
  | { readonly _tag: "Undo" }
  /** A person replays what they took back. */
  | { readonly _tag: "Redo" };

/**
 * A player: a name and an effect that chooses a move in a position. It fails only when
 * its search cannot run (a worker failed, a plugin threw or did not stop). Interrupting
 * it stops its search.
 */
export interface Agent<S, R = never> {
  /** How the player is shown (its spec, such as `alphabeta:6`). */
  readonly name: string;
  /** True for a person: `undo` goes back to a position where a person is to move. */
  readonly human?: boolean;
  /**
   * Chooses a move for the player to move in `state`; in a clocked game `clock` says its
   * time left (a search player thinks within it).
   */
  readonly choose: (
    game: Game<S>,
    state: S,
    clock?: ClockView,
  ) => Effect.Effect<Choice, SearchError, R>;
}

const move = (m: number, search?: SearchResult): Choice =>
  search === undefined ? { _tag: "Move", move: m } : { _tag: "Move", move: m, search };

/** A player that picks a legal move uniformly at random (seeded through `Random`). */
export const randomAgent = <S>(): Agent<S> => ({
  name: "random",
  choose: (game, state) =>
    Effect.gen(function* () {
      const ms = game.moves(state);
      if (ms.length === 0) return { _tag: "Stop", reason: "no legal move" } as const;
      return move(ms[yield* randomIndex(ms.length)]);
    }),
});

/** Options of search players. */
export interface AgentOptions {
  /**
   * Where the game came from (`OpenedGame.source`): the engine then searches in a worker
   * that opens the same game, and parallel strategies can run. Without it a sequential
   * search runs on the calling thread, and a parallel one fails (`ParallelUnavailable`).
   */
  readonly source?: GameSource;
  /**
   * Size of the player's transposition table in MB (default 64), made on first use in
   * shared memory, so that the engine's worker keeps it from move to move.
   */
  readonly ttMb?: number;
  /** A table to use instead (a match reuses one per player, cleared between games). */
  readonly tt?: TranspositionTable;
  /** Hears the search's progress while the player thinks (`play`'s status line). */
  readonly onProgress?: (p: Progress) => void;
  /** True when someone waits for this player's moves: its searches go first in the pool. */
  readonly priority?: boolean;
}

/** A seed for a search's own random choices, drawn from Effect's `Random`. */
const searchSeed = Random.nextIntBetween(0, 2 ** 31 - 1, { halfOpen: true });

/** How much a search player may spend per move. */
export interface Budget {
  /** Depth in plies. */
  readonly depth?: number;
  /** MCTS's iterations (`mcts:2000`). */
  readonly iterations?: number;
  /** Time per move in milliseconds. */
  readonly timeMs?: number;
  /** Strategy parameters (such as `par` for the parallel strategies). */
  readonly params?: Readonly<Record<string, number>>;
}

/**
 * The budget of a search under a clock: its own, with a time budget no longer than the
 * clock allows (`thinkingTime`); a depth or an iteration count stays a bound of its own.
 *
 * @example
 * ```ts
 * import { clockedBudget } from "./agents.ts";
 * const b = clockedBudget({ depth: 9 }, { control: { kind: "move", moveMs: 1000 }, leftMs: 1000 });
 * if (b.depth !== 9 || b.timeMs === undefined || b.timeMs >= 1000) throw new Error();
 * ```
 */
export const clockedBudget = (budget: Budget, clock: ClockView | undefined): Budget => {
  if (clock === undefined) return budget;
  const allowed = thinkingTime(clock);
  return { ...budget, timeMs: Math.min(budget.timeMs ?? Infinity, allowed) };
};

/**
 * A search player: runs the strategy with the budget through the engine service (in
 * process when none is provided), preferring quick wins, and keeps one bounded
 * transposition table for the whole game. In a clocked game it thinks within its time
 * (`clockedBudget`).
 *
 * @example
 * ```ts
 * import { Effect } from "../../core/deps.ts";
 * import { searchAgent } from "./agents.ts";
 * import { alphabetaStrategy } from "../../core/search/strategies.ts";
 * import nim from "../../plugins/nim/mod.ts";
 * const game = nim.create({ heaps: [1, 2], misere: false });
 * const choice = Effect.runSync(searchAgent(alphabetaStrategy, { depth: 4 }).choose(game, game.initial()));
 * if (choice._tag !== "Move" || game.formatMove(game.initial(), choice.move) !== "2-1") {
 *   throw new Error("the winning move takes 1 from heap 2");
 * }
 * ```
 */
export const searchAgent = <S>(
  strategy: Strategy,
  budget: Budget,
  options: AgentOptions & { readonly name?: string } = {},
): Agent<S> => {
  let tt: TranspositionTable | undefined = options.tt;
  return {
    name: options.name ?? formatSpec({ kind: "search", strategy: strategy.name, ...budget }),
    choose: (game, state, clock) =>
      Effect.gen(function* () {
        if (game.moves(state).length === 0) {
          return { _tag: "Stop", reason: "no legal move" } as const;
        }
        const seed = yield* searchSeed;
        if (tt === undefined && game.key !== undefined) {
          tt = TranspositionTable.shared(options.ttMb ?? DEFAULT_TT_MB);
        }
        const r = yield* search({
          strategy,
          game,
          source: options.source,
          state,
          options: {
            ...clockedBudget(budget, clock),
            tt: tt ?? false,
            distance: true,
            seed,
            ...(options.priority === true ? { priority: true } : {}),
          },
        }, options.onProgress);
        return move(r.move ?? game.moves(state)[0], r);
      }),
  };
};

/**
 * Seed 003's `randomBestPlay`: a uniformly random choice among all optimal moves at the
 * depth (alpha-beta with every best root move kept).
 */
export const randomBestAgent = <S>(
  depth: number,
  options: Pick<AgentOptions, "source"> = {},
): Agent<S> => ({
  name: `randombest:${depth}`,
  choose: (game, state) =>
    Effect.gen(function* () {
      if (game.moves(state).length === 0) {
        return { _tag: "Stop", reason: "no legal move" } as const;
      }
      const r = yield* search({
        strategy: alphabetaStrategy,
        game,
        source: options.source,
        state,
        options: { depth, allBest: true, tt: false },
      });
      const best = r.bestMoves ?? [];
      if (best.length === 0) return { _tag: "Stop", reason: "no legal move" } as const;
      return move(best[yield* randomIndex(best.length)], r);
    }),
});

/** Words a human may type to give up. */
const QUIT = new Set(["quit", "exit", "resign", "q"]);

/** A command a program adds to the human player's prompt (`hint`, `save`, ...). */
export interface HumanCommand<S> {
  /** One line for `help`, such as `"hint     the AI's suggestion for you"`. */
  readonly help: string;
  /** Runs it in the position shown; `arg` is the rest of the line. */
  readonly run: (arg: string, state: S) => Effect.Effect<void, never, Terminal>;
}

/** Options of a human player. */
export interface HumanOptions<S> {
  /** Commands beside moves, by their word (lower case). */
  readonly commands?: Readonly<Record<string, HumanCommand<S>>>;
  /** False to leave out `undo` and `redo` (where nothing can take moves back). */
  readonly undo?: boolean;
}

/** Shows the legal moves when there are at most this many; else `?` does. */
const SHOWN_MOVES = 24;

/** The legal moves for a person: the plugin's help, or every move's notation. */
const movesText = <S>(game: Game<S>, state: S): string => {
  if (game.movesHelp !== undefined) return game.movesHelp(state);
  const ms = game.moves(state);
  return `Legal moves: ${ms.map((m) => game.formatMove(state, m)).join(" ")}`;
};

/**
 * A human at the terminal: reads a move, and re-prompts with the reason when it cannot
 * be read or is not legal. Beside moves it takes commands, listed by `help`: `?` or
 * `moves`, `undo`, `redo`, `quit`, and the program's own (`options.commands`). A line
 * that reads as a legal move is played even if its first word is a command; a leading
 * `:` (`:undo`) always means the command. End of input or Ctrl-C ends the game cleanly.
 */
export const humanAgent = <S>(options: HumanOptions<S> = {}): Agent<S, Terminal> => ({
  name: "human",
  human: true,
  choose: (game, state) =>
    Effect.gen(function* () {
      const term = yield* Terminal;
      const ms = game.moves(state);
      if (ms.length === 0) return { _tag: "Stop", reason: "no legal move" } as const;
      const me = game.players[game.toMove(state) as Player];
      const extra = options.commands ?? {};
      const undoable = options.undo !== false;
      const help = [
        "  MOVE     a move in the game's notation (? lists them)",
        "  ?, moves the legal moves",
        ...(undoable
          ? [
            "  undo     take back your last move (and the replies to it)",
            "  redo     replay what undo took back",
          ]
          : []),
        ...Object.values(extra).map((c) => `  ${c.help}`),
        "  quit     give up the game",
        "  help     this list",
        "A line that reads as a legal move is played; type :WORD for the command WORD.",
      ].join("\n");
      yield* term.print(
        ms.length <= SHOWN_MOVES
          ? `${movesText(game, state)}\n`
          : `${ms.length} legal moves; ? shows them, help lists the commands.\n`,
      );
      while (true) {
        const line = yield* term.readLine(`${me} to move (or help): `);
        if (Option.isNone(line)) {
          const reason = (yield* term.interrupted) ? "interrupted" : "end of input";
          return { _tag: "Stop", reason } as const;
        }
        const text = line.value.trim();
        if (text === "") continue;
        const forced = text.startsWith(":");
        const parsed = forced ? undefined : game.parseMove(state, text);
        if (parsed !== undefined && Result.isSuccess(parsed) && ms.includes(parsed.success)) {
          return move(parsed.success);
        }
        const [first, ...rest] = (forced ? text.slice(1) : text).split(/\s+/);
        const word = first.toLowerCase();
        const arg = rest.join(" ");
        if (QUIT.has(word)) return { _tag: "Stop", reason: "quit" } as const;
        if (word === "?" || word === "moves") {
          yield* term.print(`${movesText(game, state)}\n`);
          continue;
        }
        if (word === "help") {
          yield* term.print(`Commands:\n${help}\n`);
          continue;
        }
        if (undoable && word === "undo") return { _tag: "Undo" } as const;
        if (undoable && word === "redo") return { _tag: "Redo" } as const;
        const command = Object.hasOwn(extra, word) ? extra[word] : undefined;
        if (command !== undefined) {
          yield* command.run(arg, state);
          continue;
        }
        if (parsed === undefined) {
          yield* term.print(`No command '${first}'; help lists them.\n`);
        } else if (Result.isFailure(parsed)) {
          yield* term.print(`Can't play '${text}': ${parsed.failure}.\n`);
        } else {
          yield* term.print(`Can't play '${text}': not a legal move here.\n`);
        }
      }
    }),
});

/**
 * Builds the player a spec describes.
 *
 * @param strategies every strategy the game can use, by name.
 */
export const agentFromSpec = <S>(
  spec: PlayerSpec,
  strategies: Readonly<Record<string, Strategy>>,
  options: AgentOptions & { readonly human?: HumanOptions<S> } = {},
): Agent<S, Terminal> => {
  switch (spec.kind) {
    case "human":
      return humanAgent(options.human);
    case "random":
      return randomAgent();
    case "search":
      if (spec.strategy === "randombest") {
        return randomBestAgent(spec.depth ?? 4, { source: options.source });
      }
      return searchAgent(strategies[spec.strategy], searchOptionsOf(spec), {
        ...options,
        name: formatSpec(spec),
      });
  }
};

/** A new seed for a run where the user set none (shown, so the run can be replayed). */
export const freshSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0] % 1e9;
