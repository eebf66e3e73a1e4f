/**
 * The match runner (seed 003's `runGame`): alternates the players through extra turns
 * and chance moves (sampled from the seeded `Random`, continued where a resumed session's
 * `draws` left it), and stops when the game ends,
 * when a player stops (gives up, or its input ended), or on an illegal move. It returns
 * a transcript that serializes to JSON and replays to the same final state.
 *
 * @module
 */
import { Effect, Random } from "../core/deps.ts";
import { faultTrace, PluginFault, type SearchError } from "../core/errors.ts";
import { CHANCE, type Game, movesOf, pickChance, type Player, type ToMove } from "../core/game.ts";
import type { Agent, Choice } from "./players/agents.ts";
import type { SearchResult } from "../core/search/types.ts";
import {
  newSession,
  playMove,
  plyOf,
  redo,
  searchInfo,
  type Session,
  stateAt,
  undo,
} from "./session.ts";
import { exportTranscript, type GameResult, type Transcript } from "./transcript.ts";
import { afterMove, type ClockView, type TimeControl, timeLeft } from "./clock.ts";

export type { GameResult, Transcript, TranscriptMove } from "./transcript.ts";

/** What the runner reports as the game goes (for display). */
export type GameEvent<S> =
  | { readonly _tag: "Start"; readonly state: S }
  | {
    readonly _tag: "Moved";
    readonly by: ToMove;
    readonly move: number;
    readonly notation: string;
    /** The position the move was played in. */
    readonly before: S;
    readonly state: S;
    readonly search?: SearchResult;
  }
  | {
    /** A player took moves back (`undo`) or replayed them (`redo`). */
    readonly _tag: "Navigated";
    readonly command: "undo" | "redo";
    /** False when there was nothing to take back or replay (nothing changed). */
    readonly done: boolean;
    readonly state: S;
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
   * The time control of a new session (a given `session` keeps its own): a side whose
   * time runs out loses, reason `"time"`; AI players think within their time.
   */
  readonly clock?: TimeControl;
  /**
   * Stop after this many plies, chance moves included (default 100000), recorded as
   * `"move limit"`; a game that ends on its last ply ends as usual.
   */
  readonly maxPlies?: number;
  /**
   * The session to continue from its current node (a loaded game, or moves given up
   * front); it is extended in place. Default: a new session at the start.
   */
  readonly session?: Session;
  /**
   * Looked at before each player's move (`--adjudicate`: `app/tournament/adjudicate.ts`),
   * with the position and the move just played (its mover and search; `undefined` before
   * the first move of this run): a result ends the game there.
   */
  readonly adjudicate?: (
    state: S,
    last: { readonly by: ToMove; readonly search?: SearchResult } | undefined,
  ) => Effect.Effect<GameResult | undefined, SearchError, R>;
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
  /** The transcript (the session exported). */
  readonly transcript: Transcript;
  /** The session, with every move played and taken back. */
  readonly session: Session;
  /** The final state. */
  readonly final: S;
  /** With reason `"error"`: the stack of the plugin's exception, for `--debug`. */
  readonly trace?: string;
  /** With reason `"error"`: the plugin's fault or the search's error that stopped the game. */
  readonly fault?: PluginFault | SearchError;
}

/** A plugin's exception or a failed search, as the reason a game stopped. */
const faultResult = (e: PluginFault | SearchError): GameResult => ({
  winner: null,
  margin: 0,
  reason: "error",
  error: e.message,
});

/**
 * The random stream of `seed` (Effect's seeded `Random`, whose every number is one
 * `nextDoubleUnsafe`), `skip` numbers on, counting the numbers it has given.
 */
const countedStream = (seed: number, skip: number) => {
  const inner = Effect.runSync(Random.withSeed(Effect.service(Random.Random), seed));
  let n = 0;
  const nextDoubleUnsafe = () => {
    n++;
    return inner.nextDoubleUnsafe();
  };
  for (let i = 0; i < skip; i++) nextDoubleUnsafe();
  const random: Random.Random = {
    nextDoubleUnsafe,
    // As Effect's own: one number, scaled to the safe integers.
    nextIntUnsafe: () =>
      Math.floor(
        nextDoubleUnsafe() * (Number.MAX_SAFE_INTEGER - Number.MIN_SAFE_INTEGER + 1),
      ) + Number.MIN_SAFE_INTEGER,
  };
  return { random, draws: () => n };
};

/**
 * Plays a game between two players. It does not fail: a plugin's exception (thrown by
 * a guarded game, see `guardGame`) or a search that cannot run ends the game with reason
 * `"error"`, and the transcript keeps every move played before.
 *
 * @example Two random players finish a game of tic-tac-toe
 * ```ts
 * import { runGame } from "./match.ts";
 * import { randomAgent } from "./players/agents.ts";
 * import tictactoe from "../plugins/tictactoe/mod.ts";
 * import { Effect } from "../core/deps.ts";
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
    const session = options.session ?? newSession({
      game: options.gameId ?? game.id,
      options: options.options ?? {},
      seed: options.seed,
      players: [players[0].name, players[1].name],
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
    });
    const human = (p: Player) => players[p].human === true;
    // The seed's random stream, from where the session left it.
    const stream = countedStream(options.seed, session.draws ?? 0);
    // The fault's stack, for `--debug` (not part of the transcript).
    let trace: string | undefined;
    let fault: PluginFault | SearchError | undefined;
    const errorResult = (e: PluginFault | SearchError): GameResult => {
      trace = faultTrace(e);
      fault = e;
      return faultResult(e);
    };
    let state = stateAt(game, session);
    let ply = plyOf(session, session.current);
    // The move just played, for the adjudicator.
    let last: { readonly by: ToMove; readonly search?: SearchResult } | undefined;
    /**
     * A player's choice; `"interrupted"` when the game was interrupted while it thought,
     * `"flag"` when its time ran out first.
     */
    const choose = (
      p: Player,
      clock: ClockView | undefined,
    ): Effect.Effect<Choice | "interrupted" | "flag", SearchError, R1 | R2 | R> => {
      const agent: Agent<S, R1 | R2> = players[p];
      let move: Effect.Effect<Choice | "interrupted" | "flag", SearchError, R1 | R2 | R> = agent
        .choose(game, state, clock);
      if (clock !== undefined) {
        move = Effect.raceFirst(move, Effect.as(Effect.sleep(clock.leftMs), "flag" as const));
      }
      return options.interruption === undefined
        ? move
        : Effect.raceFirst(move, Effect.as(options.interruption, "interrupted" as const));
    };
    /** Plays a move into the session and reports it. */
    const played = (
      by: ToMove,
      m: number,
      ms: number,
      search?: SearchResult,
      clock?: number,
    ) => {
      const before = state;
      const notation = game.formatMove(state, m);
      playMove(session, {
        by,
        move: m,
        notation,
        ms,
        ...(by === CHANCE ? {} : { agent: players[by].name }),
        ...(search !== undefined ? { search: searchInfo(game, state, search) } : {}),
        ...(clock !== undefined ? { clock } : {}),
      });
      state = game.play(state, m);
      ply++;
      last = { by, ...(search !== undefined ? { search } : {}) };
      session.draws = stream.draws();
      return emit({
        _tag: "Moved",
        by,
        move: m,
        notation,
        before,
        state,
        ...(search ? { search } : {}),
      });
    };
    /** One move (chance or a player's); a result when the game stops here. */
    const step: Effect.Effect<GameResult | undefined, never, R1 | R2 | R> = Effect.gen(
      function* (): Generator<
        Effect.Effect<unknown, SearchError, R1 | R2 | R>,
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
          if (ply >= maxPlies) return limit;
          yield* played(CHANCE, pickChance(game.chances(state), yield* Random.next), 0);
          return undefined;
        }
        const legal = game.moves(state);
        if (legal.length === 0) {
          const o = game.outcome(state) ?? { winner: null, margin: 0 };
          return { winner: o.winner, margin: o.margin, reason: "end" };
        }
        if (ply >= maxPlies) return limit;
        if (options.adjudicate !== undefined) {
          const settled = yield* options.adjudicate(state, last);
          if (settled !== undefined) return settled;
        }
        const control = session.clock;
        const clock = control === undefined
          ? undefined
          : { control, leftMs: timeLeft(session, tm) };
        const t0 = performance.now();
        const choice = yield* choose(tm, clock);
        const ms = performance.now() - t0;
        if (choice === "interrupted") {
          return { winner: null, margin: 0, reason: "interrupted", by: tm };
        }
        // Out of time, whether the clock fell first or the move came too late.
        if (choice === "flag" || (clock !== undefined && ms > clock.leftMs)) {
          return {
            winner: game.solo === true ? null : tm === 0 ? 1 : 0,
            margin: 0,
            reason: "time",
            by: tm,
          };
        }
        switch (choice._tag) {
          case "Stop": {
            const gaveUp = choice.reason === "quit" || choice.reason === "gave up";
            return gaveUp
              ? { winner: tm === 0 ? 1 : 0, margin: 0, reason: choice.reason, by: tm }
              : { winner: null, margin: 0, reason: choice.reason, by: tm };
          }
          case "Undo":
          case "Redo": {
            const done = choice._tag === "Undo"
              ? undo(game, session, human)
              : redo(game, session, human);
            if (done) {
              state = stateAt(game, session);
              ply = plyOf(session, session.current);
            }
            const command = choice._tag === "Undo" ? "undo" : "redo";
            yield* emit({ _tag: "Navigated", command, done, state });
            return undefined;
          }
        }
        if (!legal.includes(choice.move)) {
          return { winner: tm === 0 ? 1 : 0, margin: 0, reason: "illegal move", by: tm };
        }
        yield* played(
          tm,
          choice.move,
          ms,
          choice.search,
          clock === undefined ? undefined : afterMove(clock.control, clock.leftMs, ms),
        );
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
    while (result === undefined) {
      result = yield* Effect.provideService(step, Random.Random, stream.random);
    }
    const end = result;
    yield* emit({ _tag: "End", state, result: end }).pipe(
      Effect.catchDefect((d) => (d instanceof PluginFault ? Effect.void : Effect.die(d))),
    );
    session.result = end;
    delete session.stats;
    try {
      const stats = game.stats?.(state);
      if (stats !== undefined) session.stats = stats;
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
    }
    session.draws = stream.draws();
    const transcript = exportTranscript(session);
    return {
      transcript,
      session,
      final: state,
      ...(trace !== undefined ? { trace } : {}),
      ...(fault !== undefined ? { fault } : {}),
    };
  });

/**
 * Replays a transcript's moves from the start, checking each for legality; returns the
 * final state (a transcript replays to the state `runGame` ended in).
 *
 * @example
 * ```ts
 * import { Effect } from "../core/deps.ts";
 * import { replay, runGame } from "./match.ts";
 * import { randomAgent } from "./players/agents.ts";
 * import nim from "../plugins/nim/mod.ts";
 * const game = nim.create({ heaps: [2, 3], misere: false });
 * const { transcript, final } = Effect.runSync(
 *   runGame(game, [randomAgent(), randomAgent()], { seed: 5 }),
 * );
 * const again = replay(game, JSON.parse(JSON.stringify(transcript)));
 * if (JSON.stringify(again) !== JSON.stringify(final)) throw new Error("replays differ");
 * ```
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
