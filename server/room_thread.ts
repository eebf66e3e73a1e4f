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
import { Effect, Exit, Result, Scope } from "../core/deps.ts";
import { Engine, poolTask } from "../core/engine/engine.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { ParallelUnavailable, type SearchError, SearchFailed } from "../core/errors.ts";
import { isOver } from "../core/game.ts";
import { hostGame } from "../core/host/game.ts";
import { ownerPort, threadData } from "../core/host/inside.ts";
import { declaredPlugin, type GamePlugin, openGameWith } from "../core/plugin.ts";
import type { Progress } from "../core/parallel/protocol.ts";
import type { SearchResult } from "../core/search/types.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { mainLine, newSession, type Session, stateAt } from "../app/session.ts";
import { exportTranscript, importTranscript, type Transcript } from "../app/transcript.ts";
import { analyseMove, lineOf } from "../app/review.ts";
import { type Conn, Room } from "./room.ts";
import type {
  FromRoom,
  RoomRecord,
  RoomStart,
  RoomThreadData,
  ToRoom,
  WireError,
} from "./room_link.ts";

const data = threadData<RoomThreadData>();
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

// ---------------------------------------------------------------------------------
// The game

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
  post({ type: "unopened", error: wire(opened.failure) });
} else {
  const { game, options, plugin } = opened.success;
  const source = { url: data.url, options: data.options };
  const offer = {
    entry: { id: data.gameId },
    strategies: { ...allStrategies, ...plugin.strategies },
  };
  let room: Room | undefined;
  const conns = new Map<number, Conn>();
  /** Joins and messages that came before the room started (none, as the main thread waits). */
  const early: ToRoom[] = [];

  /** The room's record now. */
  const record = (r: Room): RoomRecord => ({ saved: r.saved(), finished: r.finished() });

  // What the room stores changed: its record goes to the main thread before the next
  // message to a browser (a browser that sees a move finds it in the record), or at the
  // end of this turn.
  let recordDue = false;
  const postRecord = () => {
    if (!recordDue) return;
    recordDue = false;
    if (room !== undefined) post({ type: "record", record: record(room) });
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

  /** The review pass of a loaded game: each person's move judged, shown as found. */
  const review = (r: Room, settings: NonNullable<RoomStart["review"]>): Effect.Effect<void> => {
    const ids = mainLine(r.session).slice(1);
    const how = {
      strategy: { name: "alphabeta", strategy: alphabetaStrategy, params: {} },
      source,
      timeMs: settings.ms,
      margin: settings.margin,
    };
    return Effect.gen(function* () {
      for (const [i, step] of lineOf(game, r.session).entries()) {
        const a = yield* analyseMove(game, step, how);
        if (a === undefined) continue;
        r.annotate(ids[i], {
          best: a.bestNotation,
          loss: a.loss,
          mistake: a.mistake !== undefined,
          text: a.mistake ?? (a.loss === 0 ? "best" : `${a.loss} worse than ${a.bestNotation}`),
        });
      }
    }).pipe(Effect.ignore);
  };

  const start = (s: RoomStart): string | undefined => {
    let session: Session;
    if (s.session._tag === "New") {
      session = newSession({
        game: data.specifier,
        options,
        seed: s.session.seed,
        players: [...s.session.players],
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
      onChange: changed,
    });
    room = r;
    if (s.review !== undefined) r.spawn(review(r, s.review));
    return undefined;
  };

  const handle = (m: ToRoom): void => {
    switch (m.type) {
      case "start": {
        const why = start(m.start);
        if (why !== undefined || room === undefined) {
          return post({ type: "unstarted", why: why ?? "it did not start" });
        }
        post({ type: "started", record: record(room) });
        // The room runs once the main thread holds it: what it asks for reaches the room.
        Effect.runFork(Effect.provideService(room.run(), Engine, engine));
        for (const e of early.splice(0)) handle(e);
        return;
      }
      case "progress":
        return searches.get(m.id)?.onProgress?.(m.progress);
      case "done":
      case "failed": {
        const asked = searches.get(m.id);
        if (asked === undefined) return;
        searches.delete(m.id);
        if (m.type === "done") return asked.resume(Effect.succeed(m.result));
        const { _tag, message, trace, strategy } = m.error;
        return asked.resume(Effect.fail(
          _tag === "ParallelUnavailable"
            ? new ParallelUnavailable({ strategy: String(strategy), message })
            : new SearchFailed({ message, ...(typeof trace === "string" ? { trace } : {}) }),
        ));
      }
    }
    if (room === undefined) {
      early.push(m);
      return;
    }
    switch (m.type) {
      case "join": {
        const conn: Conn = {
          seat: room.seat(m.seat),
          send: (message) => {
            postRecord();
            post({ type: "send", conn: m.conn, message });
          },
        };
        conns.set(m.conn, conn);
        return room.join(conn);
      }
      case "leave": {
        const conn = conns.get(m.conn);
        conns.delete(m.conn);
        if (conn !== undefined) room.leave(conn);
        return;
      }
      case "message": {
        const conn = conns.get(m.conn);
        if (conn !== undefined) room.handle(conn, m.message);
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
  owner.listen((m) => handle(m as ToRoom));
  post({ type: "opened", options, solo: game.solo === true });
}

/** Ends the game's plugin thread, if any, when this thread ends. */
addEventListener("unload", () => Effect.runFork(Scope.close(scope, Exit.void)));
