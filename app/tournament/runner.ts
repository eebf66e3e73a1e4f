/**
 * Plays the games of a tournament, several at once: each game a fiber running `runGame`
 * from its opening, each player's search in the engine service. A finished game is
 * handed over at once (the program appends it to its file); a halt (Ctrl-C, a decided
 * SPRT, a plugin's fault) abandons the games in progress and starts no other.
 *
 * @module
 */
import { Deferred, Effect } from "../../core/deps.ts";
import type { Game } from "../../core/game.ts";
import { runGame } from "../match.ts";
import type { Agent } from "../players/agents.ts";
import { TranspositionTable } from "../../core/search/tt.ts";
import { newSession, playMove } from "../session.ts";
import type { Transcript } from "../transcript.ts";
import type { Openings } from "./openings.ts";
import type { Fixture } from "./schedule.ts";

/** A competitor: its name (its spec) and how to make its player for one game. */
export interface Entrant<S, R> {
  /** The name shown (the player's spec, such as `alphabeta:6`). */
  readonly name: string;
  /** A fresh player for one game, given a transposition table to use (cleared). */
  readonly agent: (tt: TranspositionTable | undefined) => Agent<S, R>;
}

/** A finished game, as the tournament's file keeps it (one JSON line). */
export interface GameRecord {
  /** The fixture's id (`r3-p1-b`). */
  readonly id: string;
  /** The round; the game started from opening `round`. */
  readonly round: number;
  /** The pairing's index. */
  readonly pairing: number;
  /** The entrants playing player 0 and player 1 (indices into the players). */
  readonly seats: readonly [number, number];
  /** The game's seed. */
  readonly seed: number;
  /** Milliseconds from the game's start to its end. */
  readonly ms: number;
  /** The whole game (opening moves included, marked as played by `opening`). */
  readonly transcript: Transcript;
}

/** What a run plays. */
export interface RunPlan<S, R> {
  /** The game. */
  readonly game: Game<S>;
  /** The game's id or module specifier, for the transcripts. */
  readonly gameId: string;
  /** The decoded options, for the transcripts. */
  readonly options: unknown;
  /** The competitors. */
  readonly entrants: readonly Entrant<S, R>[];
  /** The games to play (those already played left out). */
  readonly fixtures: readonly Fixture[];
  /** The openings; a fixture of round r starts from `openings.at(r)`. */
  readonly openings: Openings;
  /** A game reaching this many plies stops as `"move limit"` (and counts as a draw). */
  readonly maxPlies: number;
  /** Transposition table size per player in MB (tables are reused from game to game). */
  readonly ttMb: number;
}

/** How a run goes. */
export interface RunControl<R> {
  /** Games at once. */
  readonly concurrency: number;
  /**
   * Hears each finished game as it finishes (the program records it here); true stops
   * the run (a decided SPRT).
   */
  readonly onGame: (record: GameRecord) => Effect.Effect<boolean, never, R>;
  /** Completes when the run must stop: games in progress are abandoned, not recorded. */
  readonly halt: Effect.Effect<void>;
}

/** How a run ended. */
export interface RunEnd {
  /** True when some game was not recorded (a halt, or a fault, stopped the run). */
  readonly halted: boolean;
  /** A plugin's fault or a search that could not run, which stopped the run. */
  readonly fault?: { readonly message: string; readonly trace?: string; readonly id: string };
}

/** The agent string an opening's moves carry in a transcript. */
export const OPENING_AGENT = "opening";

/**
 * Plays `plan`'s fixtures, `control.concurrency` at once, in their order. It does not
 * fail: a game that ends in a fault halts the run and is reported in `RunEnd`.
 */
export const runFixtures = <S, R>(
  plan: RunPlan<S, R>,
  control: RunControl<R>,
): Effect.Effect<RunEnd, never, R> =>
  Effect.gen(function* () {
    const stop = yield* Deferred.make<void>();
    let halted = false;
    let recorded = 0;
    let fault: RunEnd["fault"];
    // A halt ends every game in progress (runGame's interruption abandons the move being
    // chosen), and no game starts after it.
    const halt = Effect.raceFirst(control.halt, Deferred.await(stop));
    const stopAll = Effect.andThen(
      Effect.sync(() => (halted = true)),
      Deferred.succeed(stop, undefined),
    );
    yield* Effect.forkScoped(Effect.andThen(control.halt, stopAll));
    const free: TranspositionTable[] = [];
    const table = () => {
      if (plan.game.key === undefined) return undefined;
      const t = free.pop() ?? TranspositionTable.shared(plan.ttMb);
      t.clear();
      return t;
    };
    const playOne = (f: Fixture) =>
      Effect.gen(function* () {
        if (halted) return;
        const { game } = plan;
        const names = [plan.entrants[f.seats[0]].name, plan.entrants[f.seats[1]].name] as const;
        const session = newSession({
          game: plan.gameId,
          options: plan.options,
          seed: f.seed,
          players: names,
        });
        const opening = plan.openings.at(f.round);
        let state = game.initial();
        for (const [i, m] of opening.moves.entries()) {
          playMove(session, {
            by: game.toMove(state),
            move: m,
            notation: opening.notation[i],
            agent: OPENING_AGENT,
          });
          state = game.play(state, m);
        }
        const tables = [table(), table()];
        const players = [
          plan.entrants[f.seats[0]].agent(tables[0]),
          plan.entrants[f.seats[1]].agent(tables[1]),
        ] as const;
        const t0 = performance.now();
        const played = yield* runGame(game, players, {
          gameId: plan.gameId,
          options: plan.options,
          seed: f.seed,
          maxPlies: plan.maxPlies,
          session,
          interruption: halt,
        });
        for (const t of tables) if (t !== undefined) free.push(t);
        const { result } = played.transcript;
        if (result.reason === "interrupted") return;
        if (result.reason === "error") {
          if (fault === undefined) {
            fault = {
              message: result.error ?? "a search failed",
              id: f.id,
              ...(played.trace !== undefined ? { trace: played.trace } : {}),
            };
          }
          yield* stopAll;
          return;
        }
        recorded++;
        const enough = yield* control.onGame({
          id: f.id,
          round: f.round,
          pairing: f.pairing,
          seats: f.seats,
          seed: f.seed,
          ms: Math.round(performance.now() - t0),
          transcript: played.transcript,
        });
        if (enough) yield* stopAll;
      });
    yield* Effect.forEach(plan.fixtures, playOne, {
      concurrency: Math.max(1, control.concurrency),
      discard: true,
    });
    return { halted: recorded < plan.fixtures.length, ...(fault !== undefined ? { fault } : {}) };
  }).pipe(Effect.scoped);
