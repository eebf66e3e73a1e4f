/**
 * Plays the games of a tournament, several at once: each game a fiber running `runGame`
 * from its opening, each player's search in the engine service. A finished game is
 * handed over at once (the program appends it to its file). A game that fails (a plugin's
 * exception, a search that could not run) is played once more from the same opening with
 * the same seed (a transient fault then passes, a deterministic one fails again) and is
 * then handed over as faulted, its moves so far and the reason kept; the run goes on. A
 * halt (Ctrl-C, a decided SPRT, too many faults) abandons the games in progress and starts
 * no other.
 *
 * @module
 */
import { Deferred, Effect } from "../../core/deps.ts";
import type { Game } from "../../core/game.ts";
import { runGame } from "../match.ts";
import type { Agent } from "../players/agents.ts";
import { TranspositionTable } from "../../core/search/tt.ts";
import { newSession, playMove } from "../session.ts";
import { exportTranscript, type Transcript } from "../transcript.ts";
import { faultTrace, PluginFault, type SearchError } from "../../core/errors.ts";
import type { Openings } from "./openings.ts";
import type { Adjudicator } from "./adjudicate.ts";
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
  /**
   * The whole game (opening moves included, marked as played by `opening`); of a faulted
   * game, the moves played before the fault (its result's reason is `"error"`).
   */
  readonly transcript: Transcript;
  /**
   * Set when the game failed twice (it and its retry): the reason, in one line. A faulted
   * game is left out of every score, rating and pair count.
   */
  readonly fault?: string;
  /** Set when the game failed once and passed on its retry: the first attempt's reason. */
  readonly retried?: string;
}

/** The first line of a fault's message (a plugin's message may run over several). */
export const faultLine = (message: string): string => {
  const line = message.split("\n")[0].trim();
  return line === "" ? "a game failed" : line;
};

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
  /** With `--adjudicate`: a fresh adjudicator for each game (`adjudicate.ts`). */
  readonly adjudicate?: () => Adjudicator<S>;
}

/** How a run goes. */
export interface RunControl<R> {
  /** Games at once. */
  readonly concurrency: number;
  /**
   * Hears each finished or faulted game as it ends (the program records it here), with a
   * faulted game's stack (for `--debug`); true stops the run (a decided SPRT, too many
   * faults).
   */
  readonly onGame: (record: GameRecord, trace?: string) => Effect.Effect<boolean, never, R>;
  /** Completes when the run must stop: games in progress are abandoned, not recorded. */
  readonly halt: Effect.Effect<void>;
}

/** How a run ended. */
export interface RunEnd {
  /** True when some game was not recorded (a halt stopped the run). */
  readonly halted: boolean;
  /**
   * When the run stopped on a faulted game (its `onGame` said stop): why (the series'
   * message), the game, and the fault's stack.
   */
  readonly fault?: { readonly message: string; readonly trace?: string; readonly id: string };
}

/** The agent string an opening's moves carry in a transcript. */
export const OPENING_AGENT = "opening";

/**
 * Plays `plan`'s fixtures, `control.concurrency` at once, in their order. It does not
 * fail: a game that fails twice is handed to `onGame` as faulted (`GameRecord.fault`),
 * and `RunEnd.fault` names it when `onGame` stopped the run there.
 */
export const runFixtures = <S, R>(
  plan: RunPlan<S, R>,
  control: RunControl<R>,
): Effect.Effect<RunEnd, never, R> =>
  Effect.gen(function* () {
    const stop = yield* Deferred.make<void>();
    let halted = false;
    let recorded = 0;
    let stopFault: RunEnd["fault"];
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
    /**
     * One attempt at a fixture: the game played from its opening, its tables returned. A
     * plugin's fault outside a move (making the opening, replaying it) fails the game too.
     */
    const attempt = (f: Fixture) => {
      const { game } = plan;
      const names = [plan.entrants[f.seats[0]].name, plan.entrants[f.seats[1]].name] as const;
      const session = newSession({
        game: plan.gameId,
        options: plan.options,
        seed: f.seed,
        players: names,
      });
      const t0 = performance.now();
      const ms = () => Math.round(performance.now() - t0);
      let phase: string | undefined = "making the opening";
      const failed = (e: PluginFault | SearchError) => {
        const error = phase === undefined ? e.message : `${e.message} (${phase})`;
        session.result = { winner: null, margin: 0, reason: "error", error };
        return { transcript: exportTranscript(session), trace: faultTrace(e), ms: ms() };
      };
      return Effect.gen(function* () {
        const opening = yield* plan.openings.at(f.round);
        phase = "playing the opening";
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
        phase = undefined;
        const tables = [table(), table()];
        const players = [
          plan.entrants[f.seats[0]].agent(tables[0]),
          plan.entrants[f.seats[1]].agent(tables[1]),
        ] as const;
        const played = yield* runGame(game, players, {
          gameId: plan.gameId,
          options: plan.options,
          seed: f.seed,
          maxPlies: plan.maxPlies,
          ...(plan.adjudicate !== undefined ? { adjudicate: plan.adjudicate() } : {}),
          session,
          interruption: halt,
        });
        for (const t of tables) if (t !== undefined) free.push(t);
        return { transcript: played.transcript, trace: played.trace, ms: ms() };
      }).pipe(
        // A plugin's fault outside a move, or an opening's check that could not search:
        // the game fails there.
        Effect.catch((e) => Effect.succeed(failed(e))),
        Effect.catchDefect((d) =>
          d instanceof PluginFault ? Effect.succeed(failed(d)) : Effect.die(d)
        ),
      );
    };
    const playOne = (f: Fixture) =>
      Effect.gen(function* () {
        if (halted) return;
        let played = yield* attempt(f);
        let retried: string | undefined;
        if (played.transcript.result.reason === "error") {
          if (halted) return; // stopped meanwhile: not played, as a game in progress
          // Once more, the same opening and seed: a transient fault passes, a real one stays.
          retried = faultLine(played.transcript.result.error ?? "a search failed");
          played = yield* attempt(f);
        }
        const { result } = played.transcript;
        if (result.reason === "interrupted") return;
        const fault = result.reason === "error"
          ? faultLine(result.error ?? "a search failed")
          : undefined;
        recorded++;
        const enough = yield* control.onGame(
          {
            id: f.id,
            round: f.round,
            pairing: f.pairing,
            seats: f.seats,
            seed: f.seed,
            ms: played.ms,
            transcript: played.transcript,
            ...(fault !== undefined ? { fault } : retried !== undefined ? { retried } : {}),
          },
          played.trace,
        );
        if (enough && stopFault === undefined && fault !== undefined) {
          stopFault = {
            message: fault,
            id: f.id,
            ...(played.trace !== undefined ? { trace: played.trace } : {}),
          };
        }
        if (enough) yield* stopAll;
      });
    yield* Effect.forEach(plan.fixtures, playOne, {
      concurrency: Math.max(1, control.concurrency),
      discard: true,
    });
    return {
      halted: recorded < plan.fixtures.length,
      ...(stopFault !== undefined ? { fault: stopFault } : {}),
    };
  }).pipe(Effect.scoped);
