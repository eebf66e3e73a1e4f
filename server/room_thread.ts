/**
 * A room's thread (see `room_link.ts`): opens the room's game, runs the room (`Room`) on
 * it, and speaks with the server's main thread. A built-in game's code runs here; a
 * user's plugin runs in a sandboxed plugin thread of its own, which this thread calls
 * synchronously, each call watched (`core/host/game.ts`): a call that hangs holds up this
 * room only, for at most the call limit. The room's searches run on the server's worker
 * pool: this thread asks the main thread for each (`search`), hears its progress and its
 * result, and cancels it when the room interrupts it.
 *
 * @module
 */
import { setPriority } from "node:os";
import { Effect, Exit, Fiber, Result, Scope } from "../core/deps.ts";
import { Engine, poolTask } from "../core/engine/engine.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { ParallelUnavailable, type SearchError, SearchFailed } from "../core/errors.ts";
import { isOver } from "../core/game.ts";
import { hostGame } from "../core/host/game.ts";
import { ownerPort } from "../core/host/inside.ts";
import { declaredPlugin, type GamePlugin, openGameWith } from "../core/plugin.ts";
import type { Progress } from "../core/parallel/protocol.ts";
import type { SearchResult } from "../core/search/types.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { mainLine, newSession, type Session, stateAt } from "../app/session.ts";
import { exportTranscript, importTranscript, type Transcript } from "../app/transcript.ts";
import { analyseMove, exactSolver, lineOf } from "../app/review.ts";
import { annotationOf } from "./annotation.ts";
import { Room } from "./room.ts";
import type { Conn } from "./room_state.ts";
import type {
  FromRoom,
  RoomControl,
  RoomRecord,
  RoomStart,
  RoomThreadData,
  ToRoom,
  WireError,
} from "./room_link.ts";

const owner = ownerPort();
const post = (m: FromRoom) => owner.post(m);

/** An error as a message carries it. */
const wire = (e: unknown): WireError => {
  const r = e as Record<string, unknown>;
  return {
    ...Object.fromEntries(
      ["plugin", "problems", "known", "strategy", "trace"].filter((k) => r?.[k] !== undefined)
        .map((k) => [k, r[k]]),
    ),
    _tag: typeof r?._tag === "string" ? r._tag : "Error",
    message: e instanceof Error || typeof r?.message === "string" ? String(r.message) : String(e),
  };
};

// ---------------------------------------------------------------------------------
// The engine: searches on the main thread's pool

interface Asked {
  readonly onProgress?: (p: Progress) => void;
  readonly resume: (e: Effect.Effect<SearchResult, SearchError>) => void;
}
const searches = new Map<number, Asked>();
let nextSearch = 0;

/** The engine of this room: every search runs on the server's pool, asked for by message. */
const engine = Engine.of({
  search: (request, onProgress) =>
    request.strategy._tag === "Parallel"
      ? Effect.fail(
        new ParallelUnavailable({
          strategy: request.strategy.name,
          message: `${request.strategy.name} runs from the command line, not on the server`,
        }),
      )
      : Effect.callback<SearchResult, SearchError>((resume) => {
        const id = nextSearch++;
        searches.set(id, { resume, ...(onProgress !== undefined ? { onProgress } : {}) });
        post({
          type: "search",
          id,
          task: poolTask(request.strategy.name, request.state, request.options),
        });
        return Effect.sync(() => {
          if (searches.delete(id)) post({ type: "cancel", id });
        });
      }),
});

/** The main thread's word on a search: its progress, its result or its failure. */
const answered = (m: Extract<ToRoom, { type: "progress" | "done" | "failed" }>): void => {
  const asked = searches.get(m.id);
  if (asked === undefined) return;
  if (m.type === "progress") return asked.onProgress?.(m.progress);
  searches.delete(m.id);
  if (m.type === "done") return asked.resume(Effect.succeed(m.result));
  const { _tag, message, trace, strategy } = m.error;
  asked.resume(Effect.fail(
    _tag === "ParallelUnavailable"
      ? new ParallelUnavailable({ strategy: String(strategy), message })
      : new SearchFailed({ message, ...(typeof trace === "string" ? { trace } : {}) }),
  ));
};

// ---------------------------------------------------------------------------------
// The rooms, one at a time

/** A room this thread holds: its messages, and how it ends. */
interface Hosted {
  /** Handles a message for the room. */
  readonly handle: (m: ToRoom) => void;
  /** Ends the room: its fibers interrupted, its game's plugin thread ended. */
  readonly close: () => Promise<void>;
}

/** Opens the game of `data` and holds its room; undefined (said) when it cannot be opened. */
const host = async (data: RoomThreadData): Promise<Hosted | undefined> => {
  const scope = Effect.runSync(Scope.make());
  const opened = await Effect.runPromise(Effect.result(
    data.trusted
      ? Effect.map(openGameWith({}, data.url, data.options), (o) => ({
        game: o.game,
        options: o.options,
        plugin: o.plugin,
      }))
      : Effect.map(
        Scope.provide(scope)(
          hostGame({
            source: { url: data.url, options: data.options },
            label: data.label,
            trusted: false,
            limits: data.plugins,
          }),
        ),
        (h) => ({
          game: h.game,
          options: h.options,
          plugin: declaredPlugin(h.plugin, data.label) as GamePlugin<unknown, unknown>,
        }),
      ),
  ));
  if (Result.isFailure(opened)) {
    await Effect.runPromise(Scope.close(scope, Exit.void));
    post({ type: "unopened", error: wire(opened.failure) });
    return undefined;
  }
  const { game, options, plugin } = opened.success;
  const source = { url: data.url, options: data.options };
  const offer = {
    entry: { id: data.gameId },
    strategies: { ...allStrategies, ...plugin.strategies },
  };
  let room: Room | undefined;
  let running: Fiber.Fiber<never> | undefined;
  let closed = false;
  const conns = new Map<number, Conn>();

  /** The room's record now. */
  const record = (r: Room): RoomRecord => ({ saved: r.saved(), finished: r.finished() });

  // What the room stores changed: its record goes to the main thread before the next
  // message to a browser (a browser that sees a move finds it in the record), or at the
  // end of this turn.
  let recordDue = false;
  const postRecord = () => {
    if (!recordDue) return;
    recordDue = false;
    if (room !== undefined && !closed) post({ type: "record", record: record(room) });
  };
  const changed = () => {
    if (recordDue) return;
    recordDue = true;
    setTimeout(postRecord, 0);
  };

  /** The game as a download gives it: a main line played to its end is finished. */
  const download = (session: Session): Transcript => {
    const t = exportTranscript(session);
    if (t.result.reason !== "unfinished") return t;
    const final = stateAt(game, session, mainLine(session).at(-1));
    const o = isOver(game, final) ? game.outcome(final) : undefined;
    return o === undefined
      ? t
      : { ...t, result: { winner: o.winner, margin: o.margin, reason: "end" } };
  };

  /**
   * The review pass of a loaded game: each person's move judged (the game's exact solver
   * first, as `deno task review` does), shown as found.
   */
  const review = (r: Room, settings: NonNullable<RoomStart["review"]>): Effect.Effect<void> => {
    const ids = mainLine(r.session).slice(1);
    const solver = exactSolver(game, plugin.strategies);
    const how = {
      strategy: { name: "alphabeta", strategy: alphabetaStrategy, params: {} },
      source,
      timeMs: settings.ms,
      margin: settings.margin,
      ...(solver !== undefined ? { exact: { solver, timeMs: settings.ms } } : {}),
    };
    return Effect.gen(function* () {
      for (const [i, step] of lineOf(game, r.session).entries()) {
        const a = yield* analyseMove(game, step, how);
        if (a !== undefined) {
          r.post({ _tag: "Annotate", node: ids[i], annotation: annotationOf(a) });
        }
      }
    }).pipe(Effect.ignore);
  };

  /** Makes the room (a new session, or a transcript's); why it cannot, if it cannot. */
  const start = (s: RoomStart): Room | string => {
    let session: Session;
    if (s.session._tag === "New") {
      session = newSession({
        game: data.specifier,
        options,
        seed: s.session.seed,
        players: [...s.session.players],
        ...(s.session.clock !== undefined ? { clock: s.session.clock } : {}),
      });
    } else {
      const imported = importTranscript(game, s.session.transcript);
      if (Result.isFailure(imported)) return imported.failure;
      session = imported.success;
    }
    const r = new Room({
      id: s.id,
      offered: offer,
      game,
      source,
      session,
      sides: s.sides,
      seats: s.seats,
      limits: data.limits,
      createdAt: s.createdAt,
      ...(s.restored !== undefined ? { restored: s.restored } : {}),
      ...(s.lobby !== undefined ? { lobby: { seat: s.lobby, taken: false } } : {}),
      onChange: changed,
      ...(s.review !== undefined ? { loaded: true } : {}),
    });
    if (s.review !== undefined) r.spawn(review(r, s.review));
    return r;
  };

  const handle = (m: ToRoom): void => {
    if (closed) return;
    if (m.type === "start") {
      const made = start(m.start);
      if (typeof made === "string") return post({ type: "unstarted", why: made });
      room = made;
      // A game between AIs gives way to the games people wait for: its thread runs at a
      // lower priority (Linux and macOS keep one per thread), set before it says it started.
      if (m.start.sides.every((side) => side.kind === "ai")) nice(AI_GAMES_NICE);
      post({ type: "started", record: record(made) });
      // The room runs once the main thread holds it: what it asks for reaches the room.
      running = Effect.runFork(Effect.provideService(made.run(), Engine, engine));
      return;
    }
    if (room === undefined) return;
    switch (m.type) {
      case "join": {
        const conn: Conn = {
          seat: room.seat(m.seat),
          send: (message) => {
            postRecord();
            if (!closed) post({ type: "send", conn: m.conn, text: JSON.stringify(message) });
          },
        };
        conns.set(m.conn, conn);
        return room.post({ _tag: "Join", conn });
      }
      case "claim":
        return room.post({ _tag: "Claim" });
      case "leave": {
        const conn = conns.get(m.conn);
        conns.delete(m.conn);
        if (conn !== undefined) room.post({ _tag: "Leave", conn });
        return;
      }
      case "message": {
        const conn = conns.get(m.conn);
        if (conn !== undefined) room.post({ _tag: "Message", conn, message: m.message });
        return;
      }
      case "ask":
        return post({
          type: "answer",
          id: m.id,
          value: m.what === "saved" ? record(room) : download(room.session),
        });
    }
  };
  post({ type: "opened", options, solo: game.solo === true });
  return {
    handle,
    close: async () => {
      closed = true;
      if (running !== undefined) await Effect.runPromise(Fiber.interrupt(running));
      await Effect.runPromise(Scope.close(scope, Exit.void));
    },
  };
};

/** How much lower a game between AIs runs than the games people play (a `nice` value). */
const AI_GAMES_NICE = 10;

/** This thread's priority now (a `nice` value). */
let priority = 0;

/** Lowers this thread's priority, where it can be set (else it stays as it is). */
const nice = (value: number): void => {
  if (value <= priority) return;
  try {
    setPriority(value);
    priority = value;
  } catch {
    // not allowed here: the thread keeps the program's priority
  }
};

// One room at a time: `open` makes one, `close` ends it, and the thread is ready for the
// next at once (the main thread's messages come in order; the room that ends says nothing
// more).
let current: Promise<Hosted | undefined> | undefined;
owner.listen((message) => {
  const m = message as ToRoom | RoomControl;
  if (m.type === "open") {
    current = host(m.data);
    return;
  }
  if (m.type === "close") {
    const ending = current;
    current = undefined;
    void ending?.then((hosted) => hosted?.close());
    return;
  }
  if (m.type === "progress" || m.type === "done" || m.type === "failed") return answered(m);
  void current?.then((hosted) => hosted?.handle(m));
});

// Every module is loaded: the pool may end this thread from now on (`FromRoom`'s "loaded").
post({ type: "loaded" });
