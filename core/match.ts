/**
 * The match runner (seed 003's `runGame`): alternates the players through extra turns
 * and chance moves (sampled from the seeded `Random`), and stops when the game ends,
 * when a player stops (gives up, or its input ended), or on an illegal move. It returns
 * a transcript that serializes to JSON and replays to the same final state.
 *
 * @module
 */
import { Effect, Option, Random } from "./deps.ts";
import { faultTrace, PluginFault, type SearchFailed } from "./errors.ts";
import { CHANCE, type Game, movesOf, pickChance, type Player, type ToMove } from "./game.ts";
import type { Agent, Choice } from "./players/agents.ts";
import type { SearchResult } from "./search/types.ts";

/** One move of a transcript. */
export interface TranscriptMove {
  /** Who moved: a player or chance. */
  readonly by: ToMove;
  /** The move (plugin encoding). */
  readonly move: number;
  /** The move in the game's notation. */
  readonly notation: string;
  /** Milliseconds the player took (0 for chance). */
  readonly ms: number;
}

/** How a game ended. */
export interface GameResult {
  /** The winner, or null for a draw or an unfinished game. */
  readonly winner: Player | null;
  /** The final margin from player 0's view (0 for unfinished games). */
  readonly margin: number;
  /**
   * `"end"` for a finished game; else why it stopped: `"quit"`, `"illegal move"`,
   * `"interrupted"` (Ctrl-C), `"error"` (a plugin failed, or a search could not run), ...
   */
  readonly reason: string;
  /** The player who stopped or moved illegally, if any. */
  readonly by?: Player;
  /** With reason `"error"`: what went wrong, for the user. */
  readonly error?: string;
}

/** A whole game: enough to replay it exactly. */
export interface Transcript {
  /** The game (plugin id or module specifier). */
  readonly game: string;
  /** The decoded game options. */
  readonly options: unknown;
  /** The random seed of the run. */
  readonly seed: number;
  /** The players' specs, player 0 first. */
  readonly players: readonly [string, string];
  /** The moves in order, chance moves included. */
  readonly moves: readonly TranscriptMove[];
  /** How it ended. */
  readonly result: GameResult;
  /** The game's statistics of the final state, if it has any. */
  readonly stats?: Readonly<Record<string, number>>;
}

/** What the runner reports as the game goes (for display). */
export type GameEvent<S> =
  | { readonly _tag: "Start"; readonly state: S }
  | {
    readonly _tag: "Moved";
    readonly by: ToMove;
    readonly move: number;
    readonly notation: string;
    readonly state: S;
    readonly search?: SearchResult;
  }
  | { readonly _tag: "End"; readonly state: S; readonly result: GameResult };

/** Options of a run. */
export interface RunOptions<S, R> {
  /** The game's id or specifier, for the transcript. */
  readonly gameId?: string;
  /** The decoded options, for the transcript. */
  readonly options?: unknown;
  /** The seed for chance moves and random players. */
  readonly seed: number;
  /**
   * Stop after this many plies, chance moves included (default 100000), recorded as
   * `"move limit"`; a game that ends on its last ply ends as usual.
   */
  readonly maxPlies?: number;
  /** The start position (default the game's initial one). */
  readonly start?: S;
  /** Called with every event (printing boards, progress). */
  readonly onEvent?: (e: GameEvent<S>) => Effect.Effect<void, never, R>;
  /** Checked before every move; true stops the game as `"interrupted"`. */
  readonly interrupted?: Effect.Effect<boolean, never, R>;
  /**
   * Completes when the game must stop (Ctrl-C): a player's move in progress is abandoned
   * (its search interrupted) and the game ends as `"interrupted"`.
   */
  readonly interruption?: Effect.Effect<void, never, R>;
}

/** The outcome of `runGame`. */
export interface Played<S> {
  /** The transcript. */
  readonly transcript: Transcript;
  /** The final state. */
  readonly final: S;
  /** With reason `"error"`: the stack of the plugin's exception, for `--debug`. */
  readonly trace?: string;
}

/** A plugin's exception or a failed search, as the reason a game stopped. */
const faultResult = (e: PluginFault | SearchFailed): GameResult => ({
  winner: null,
  margin: 0,
  reason: "error",
  error: e.message,
});

/**
 * Plays a game between two players. It does not fail: a plugin's exception (thrown by
 * a guarded game, see `guardGame`) or a search that cannot run ends the game with reason
 * `"error"`, and the transcript keeps every move played before.
 *
 * @example Two random players finish a game of tic-tac-toe
 * ```ts
 * import { runGame } from "./match.ts";
 * import { randomAgent } from "./players/agents.ts";
 * import tictactoe from "../plugins/tictactoe.ts";
 * import { Effect } from "./deps.ts";
 * const game = tictactoe.create({});
 * const { transcript } = Effect.runSync(runGame(game, [randomAgent(), randomAgent()], { seed: 1 }));
 * if (transcript.result.reason !== "end") throw new Error("unfinished");
 * ```
 */
export const runGame = <S, R1, R2, R = never>(
  game: Game<S>,
  players: readonly [Agent<S, R1>, Agent<S, R2>],
  options: RunOptions<S, R>,
): Effect.Effect<Played<S>, never, R1 | R2 | R> =>
  Effect.gen(function* () {
    const emit = options.onEvent ?? (() => Effect.void);
    const maxPlies = options.maxPlies ?? 100_000;
    const moves: TranscriptMove[] = [];
    // The fault's stack, for `--debug` (not part of the transcript).
    let trace: string | undefined;
    const errorResult = (e: PluginFault | SearchFailed): GameResult => {
      trace = faultTrace(e);
      return faultResult(e);
    };
    let state = options.start ?? game.initial();
    /** A player's choice; `None` when the game was interrupted while it thought. */
    const choose = (p: Player): Effect.Effect<Option.Option<Choice>, SearchFailed, R1 | R2 | R> => {
      const agent: Agent<S, R1 | R2> = players[p];
      const move = Effect.map(agent.choose(game, state), (c) => Option.some(c));
      return options.interruption === undefined
        ? move
        : Effect.raceFirst(move, Effect.as(options.interruption, Option.none<Choice>()));
    };
    /** One move (chance or a player's); a result when the game stops here. */
    const step: Effect.Effect<GameResult | undefined, never, R1 | R2 | R> = Effect.gen(
      function* (): Generator<
        Effect.Effect<unknown, SearchFailed, R1 | R2 | R>,
        GameResult | undefined,
        unknown
      > {
        if (options.interrupted !== undefined && (yield* options.interrupted)) {
          return { winner: null, margin: 0, reason: "interrupted" };
        }
        const tm = game.toMove(state);
        // Every ply counts toward the limit, chance moves included.
        const limit: GameResult = { winner: null, margin: 0, reason: "move limit" };
        if (tm === CHANCE) {
          if (moves.length >= maxPlies) return limit;
          const m = pickChance(game.chances(state), yield* Random.next);
          const notation = game.formatMove(state, m);
          state = game.play(state, m);
          moves.push({ by: CHANCE, move: m, notation, ms: 0 });
          yield* emit({ _tag: "Moved", by: CHANCE, move: m, notation, state });
          return undefined;
        }
        const legal = game.moves(state);
        if (legal.length === 0) {
          const o = game.outcome(state) ?? { winner: null, margin: 0 };
          return { winner: o.winner, margin: o.margin, reason: "end" };
        }
        if (moves.length >= maxPlies) return limit;
        const t0 = performance.now();
        const chosen = yield* choose(tm);
        const ms = performance.now() - t0;
        if (Option.isNone(chosen)) {
          return { winner: null, margin: 0, reason: "interrupted", by: tm };
        }
        const choice = chosen.value;
        if (choice._tag === "Stop") {
          const gaveUp = choice.reason === "quit" || choice.reason === "gave up";
          return gaveUp
            ? { winner: tm === 0 ? 1 : 0, margin: 0, reason: choice.reason, by: tm }
            : { winner: null, margin: 0, reason: choice.reason, by: tm };
        }
        if (!legal.includes(choice.move)) {
          return { winner: tm === 0 ? 1 : 0, margin: 0, reason: "illegal move", by: tm };
        }
        const notation = game.formatMove(state, choice.move);
        state = game.play(state, choice.move);
        moves.push({ by: tm, move: choice.move, notation, ms });
        yield* emit({
          _tag: "Moved",
          by: tm,
          move: choice.move,
          notation,
          state,
          ...(choice.search ? { search: choice.search } : {}),
        });
        return undefined;
      },
    ).pipe(
      // A plugin's exception, or a search that could not run, stops the game here.
      Effect.catch((e) => Effect.succeed(errorResult(e))),
      Effect.catchDefect((d) =>
        d instanceof PluginFault ? Effect.succeed(errorResult(d)) : Effect.die(d)
      ),
    );
    let result: GameResult | undefined = yield* Effect.as(emit({ _tag: "Start", state }), undefined)
      .pipe(
        Effect.catchDefect((d) =>
          d instanceof PluginFault ? Effect.succeed(errorResult(d)) : Effect.die(d)
        ),
      );
    while (result === undefined) result = yield* step;
    const end = result;
    yield* emit({ _tag: "End", state, result: end }).pipe(
      Effect.catchDefect((d) => (d instanceof PluginFault ? Effect.void : Effect.die(d))),
    );
    let stats: Readonly<Record<string, number>> | undefined;
    try {
      stats = game.stats?.(state);
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
    }
    const transcript: Transcript = {
      game: options.gameId ?? game.id,
      options: options.options ?? {},
      seed: options.seed,
      players: [players[0].name, players[1].name],
      moves,
      result: end,
      ...(stats ? { stats } : {}),
    };
    return { transcript, final: state, ...(trace !== undefined ? { trace } : {}) };
  }).pipe(Random.withSeed(options.seed));

/**
 * Replays a transcript's moves from the start, checking each for legality; returns the
 * final state (a transcript replays to the state `runGame` ended in).
 */
export const replay = <S>(game: Game<S>, transcript: Transcript, start?: S): S => {
  let state = start ?? game.initial();
  transcript.moves.forEach((m, i) => {
    if (game.toMove(state) !== m.by || !movesOf(game, state).includes(m.move)) {
      throw new RangeError(`transcript move ${i + 1} (${m.notation}) is not legal there`);
    }
    state = game.play(state, m.move);
  });
  return state;
};
