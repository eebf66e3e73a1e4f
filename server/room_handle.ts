/**
 * A room as the server's main thread holds it (see `room_link.ts`): its thread, its
 * browsers and its latest record. The main thread runs no game code: it forwards each
 * browser's messages to the room's thread and the thread's to each browser, runs the
 * searches the room asks for on the server's pool, and keeps the record the thread sends
 * whenever the room changes, for the store. A room's thread that runs out of memory or
 * crashes ends its room alone: its browsers are told, and its last record is kept.
 *
 * @module
 */
import { Effect, Fiber, Result } from "../core/deps.ts";
import { FiberSet } from "./deps.ts";
import { SearchFailed } from "../core/errors.ts";
import { type GameSource, isBuiltinUrl, pluginLabel } from "../core/source.ts";
import type { PluginLimits } from "../core/host/thread.ts";
import { coerceOption, OptionsError, PluginError } from "../core/plugin.ts";
import { WorkerPool } from "../core/parallel/pool.ts";
import type { Transcript } from "../app/transcript.ts";
import type { Offered } from "./catalog.ts";
import type { ClientMessage, ServerMessage } from "./protocol.ts";
import type { RoomLimits } from "./room.ts";
import type { Conn, Seat } from "./room_state.ts";
import type { RoomThreads } from "./room_threads.ts";
import type {
  FromRoom,
  RoomRecord,
  RoomStart,
  RoomThreadData,
  ToRoom,
  WireError,
} from "./room_link.ts";
import type { SavedRoom } from "./store.ts";

/** A room's thread, open on its game, not yet started. */
export interface OpenedRoom {
  /** The game's options as its plugin read them. */
  readonly options: unknown;
  /** True for a one-player game. */
  readonly solo: boolean;
  /** The game's source (the searches' workers open it). */
  readonly source: GameSource;
  /** Starts the room in its thread; why it could not, if it could not. */
  readonly start: (
    start: RoomStart,
    hooks: RoomHooks,
  ) => Effect.Effect<Result.Result<RoomHandle, string>>;
  /** Ends the thread (a room that will not start). */
  readonly close: () => void;
}

/** What a room tells the rooms that hold it. */
export interface RoomHooks {
  /** The room's record changed. */
  readonly changed: () => void;
  /** The room's thread ended by itself (out of memory, or crashed): why. */
  readonly ended: (why: string) => void;
  /** The clock (ms since the epoch). */
  readonly now: () => number;
}

/**
 * Opens a room's thread on the game of `offered` with the form's `raw` options (texts as
 * the command line reads them); fails as opening the game would, naming each bad option.
 */
export const openRoom = (
  threads: RoomThreads,
  offered: Offered,
  raw: Readonly<Record<string, unknown>>,
  plugins: PluginLimits,
  limits: RoomLimits,
  /** True when the room is likely a game between AIs (see `RoomThreads.acquire`). */
  low = false,
): Effect.Effect<OpenedRoom, OptionsError | PluginError> =>
  Effect.suspend(() => {
    const options = Object.fromEntries(
      Object.entries(raw)
        .filter(([, v]) => v !== "")
        .map(([k, v]) => [k, typeof v === "string" ? coerceOption(v) : v]),
    );
    const label = pluginLabel(offered.url);
    const data: RoomThreadData = {
      url: offered.url,
      specifier: offered.specifier,
      gameId: offered.entry.id,
      options,
      trusted: isBuiltinUrl(offered.url),
      label,
      plugins,
      limits,
    };
    let listener: (m: FromRoom) => void = () => {};
    let exited: (why: string) => void = () => {};
    let ended = false;
    const thread = threads.acquire(low);
    thread.listen({
      message: (m) => listener(m),
      exit: (why) => {
        ended = true;
        exited(why);
      },
    });
    const close = () => {
      if (ended) return;
      ended = true;
      thread.release();
    };
    return Effect.callback<OpenedRoom, OptionsError | PluginError>((resume) => {
      exited = (why) =>
        resume(Effect.fail(new PluginError({ message: `plugin ${label}: ${why}` })));
      listener = (m) => {
        if (m.type === "unopened") {
          close();
          return resume(Effect.fail(unwire(m.error)));
        }
        if (m.type !== "opened") return;
        resume(Effect.succeed({
          options: m.options,
          solo: m.solo,
          source: { url: offered.url, options },
          close,
          start: (start, hooks) =>
            Effect.callback<Result.Result<RoomHandle, string>>((started) => {
              if (ended) return started(Effect.succeed(Result.fail("its thread ended")));
              exited = (why) => started(Effect.succeed(Result.fail(why)));
              listener = (s) => {
                if (s.type === "unstarted") {
                  close();
                  return started(Effect.succeed(Result.fail(s.why)));
                }
                if (s.type !== "started") return;
                const handle = new RoomHandle(
                  start,
                  s.record,
                  offered,
                  { url: offered.url, options },
                  thread.post,
                  close,
                  hooks,
                );
                listener = (r) => handle.hear(r);
                exited = (why) => handle.died(why);
                started(Effect.succeed(Result.succeed(handle)));
              };
              // A game between AIs lowers its thread's priority (see `room_thread.ts`).
              if (start.sides.every((side) => side.kind === "ai")) thread.lower();
              thread.post({ type: "start", start });
            }),
        }));
      };
      thread.post({ type: "open", data });
      return Effect.sync(close);
    });
  });

/** An options or plugin error from its message. */
const unwire = (e: WireError): OptionsError | PluginError =>
  e._tag === "OptionsError"
    ? new OptionsError(e as unknown as ConstructorParameters<typeof OptionsError>[0])
    : new PluginError({ message: e.message });

/** An open room, as the main thread holds it. */
export class RoomHandle {
  /** The room's id. */
  readonly id: string;
  /** The browsers connected. */
  readonly conns: Set<Conn> = new Set();
  /** When the room was made (ms since the epoch). */
  readonly createdAt: number;
  /** When the last browser left (ms since the epoch), for closing idle rooms. */
  idleSince: number;
  /** True once a browser has opened the game. */
  opened: boolean;
  private readonly seats: Map<string, Seat>;
  private readonly ids = new Map<Conn, number>();
  private readonly byId = new Map<number, Conn>();
  private nextConn = 0;
  private readonly asks = new Map<number, (v: RoomRecord | Transcript) => void>();
  private readonly kinds = new Map<number, "saved" | "transcript">();
  private nextAsk = 0;
  private readonly searches = new Map<number, Fiber.Fiber<void>>();
  /** Runs an effect in the room's scope (set when `run` starts). */
  private fork: (<A, E>(e: Effect.Effect<A, E>) => Fiber.Fiber<A, E>) | undefined;
  /** Searches asked for before `run` started. */
  private readonly waiting: Extract<FromRoom, { type: "search" }>[] = [];
  private ended = false;
  /** True once the lobby's seat was given from here (before the thread's record says so). */
  private claimed = false;

  constructor(
    start: RoomStart,
    /** The room's record as it started. */
    private record: RoomRecord,
    /** The game offered. */
    readonly offered: Offered,
    /** Where the game came from (the searches' workers open it). */
    readonly source: GameSource,
    private readonly post: (m: ToRoom) => void,
    private readonly end: () => void,
    private readonly hooks: RoomHooks,
  ) {
    this.id = start.id;
    this.createdAt = start.createdAt;
    this.idleSince = hooks.now();
    this.opened = start.restored?.opened ?? false;
    this.seats = new Map(start.seats.map((s) => [s.token, s]));
  }

  /** The seat a token holds in this room, if any. */
  seat(token: string | null): Seat | undefined {
    return token === null ? undefined : this.seats.get(token);
  }

  /** A browser joins: the room sends it the position. */
  join(conn: Conn): void {
    if (this.ended) return conn.send({ _tag: "Error", message: "this game has stopped" });
    const id = this.nextConn++;
    this.ids.set(conn, id);
    this.byId.set(id, conn);
    this.conns.add(conn);
    this.opened = true;
    const token = this.seatToken(conn);
    if (token !== null && token === this.record.saved.lobby?.seat) this.claimed = true;
    this.post({ type: "join", conn: id, seat: token });
  }

  /** The token of a connection's seat (the room's thread looks it up again). */
  private seatToken(conn: Conn): string | null {
    for (const [token, seat] of this.seats) if (seat === conn.seat) return token;
    return null;
  }

  /**
   * The seat a game offered in the lobby still offers there: none once someone took it
   * (from the lobby, or by the link), or when it is not a lobby's game.
   */
  lobbySeat(): string | undefined {
    const lobby = this.record.saved.lobby;
    if (lobby === undefined || lobby.taken || this.claimed || this.ended) return undefined;
    return lobby.seat;
  }

  /** Gives the lobby's seat to the one who asked first: its token, or none if it is gone. */
  claim(): string | undefined {
    const seat = this.lobbySeat();
    if (seat === undefined) return undefined;
    this.claimed = true;
    this.post({ type: "claim" });
    return seat;
  }

  /** A browser leaves. */
  leave(conn: Conn): void {
    const id = this.ids.get(conn);
    this.conns.delete(conn);
    if (this.conns.size === 0) this.idleSince = this.hooks.now();
    if (id === undefined) return;
    this.ids.delete(conn);
    this.byId.delete(id);
    if (!this.ended) this.post({ type: "leave", conn: id });
  }

  /** A browser's message, for the room to handle. */
  handle(conn: Conn, message: ClientMessage): void {
    const id = this.ids.get(conn);
    if (id !== undefined && !this.ended) this.post({ type: "message", conn: id, message });
  }

  /** What the store keeps of the room, as its thread last said. */
  saved(): SavedRoom {
    return this.record.saved;
  }

  /** True when the game is over (or stopped for good), as its thread last said. */
  finished(): boolean {
    return this.record.finished;
  }

  /** Asks the room's thread, and waits for its answer (the last record if it ended). */
  private ask<T extends RoomRecord | Transcript>(what: "saved" | "transcript"): Effect.Effect<T> {
    return Effect.callback<T>((resume) => {
      if (this.ended) {
        return resume(
          Effect.succeed((what === "saved" ? this.record : this.record.saved.transcript) as T),
        );
      }
      const id = this.nextAsk++;
      this.asks.set(id, (v) => resume(Effect.succeed(v as T)));
      this.kinds.set(id, what);
      this.post({ type: "ask", id, what });
      return Effect.sync(() => {
        this.asks.delete(id);
        this.kinds.delete(id);
      });
    });
  }

  /** Brings the record up to date with the room (before the last store at a stop). */
  sync(): Effect.Effect<void> {
    return Effect.map(this.ask<RoomRecord>("saved"), (r) => {
      this.record = r;
    });
  }

  /** The game as a download gives it (a main line played to its end is finished). */
  transcript(): Effect.Effect<Transcript> {
    return this.ask<Transcript>("transcript");
  }

  /** A message from the room's thread. */
  hear(m: FromRoom): void {
    switch (m.type) {
      case "send": {
        const conn = this.byId.get(m.conn);
        if (conn?.sendText !== undefined) return conn.sendText(m.text);
        return conn?.send(JSON.parse(m.text) as ServerMessage);
      }
      case "record":
        this.record = m.record;
        return this.hooks.changed();
      case "answer": {
        const reply = this.asks.get(m.id);
        this.asks.delete(m.id);
        this.kinds.delete(m.id);
        if (m.value !== undefined && "saved" in m.value) this.record = m.value;
        return reply?.(m.value);
      }
      case "search":
        if (this.fork === undefined) this.waiting.push(m);
        else this.search(m);
        return;
      case "cancel": {
        const f = this.searches.get(m.id);
        this.searches.delete(m.id);
        if (f !== undefined && this.fork !== undefined) this.fork(Fiber.interrupt(f));
        return;
      }
    }
  }

  /** Runs a search the room asked for, on the server's pool; its progress and end go back. */
  private search({ id, task }: Extract<FromRoom, { type: "search" }>): void {
    const run = Effect.gen({ self: this }, function* () {
      const pool = yield* Effect.serviceOption(WorkerPool);
      if (pool._tag === "None") {
        return yield* new SearchFailed({ message: "this server has no engine for searches" });
      }
      return yield* pool.value.search(this.source, {
        ...task,
        onProgress: (progress) => {
          if (this.searches.has(id)) this.post({ type: "progress", id, progress });
        },
      });
    }).pipe(
      Effect.matchEffect({
        onSuccess: (result) => Effect.sync(() => this.post({ type: "done", id, result })),
        onFailure: (e) =>
          Effect.sync(() =>
            this.post({
              type: "failed",
              id,
              error: {
                _tag: e._tag,
                message: e.message,
                ...("trace" in e && e.trace !== undefined ? { trace: e.trace } : {}),
                ...("strategy" in e ? { strategy: e.strategy } : {}),
              },
            })
          ),
      }),
      Effect.ensuring(Effect.sync(() => this.searches.delete(id))),
    );
    this.searches.set(id, this.fork!(run));
  }

  /** The room's thread ended by itself: its browsers are told, its last record kept. */
  died(why: string): void {
    if (this.ended) return;
    this.ended = true;
    const message = `this game has stopped: ${why}; its moves are kept`;
    for (const conn of this.conns) conn.send({ _tag: "Error", message });
    this.unanswered();
    this.hooks.ended(why);
  }

  /** What was asked of the room's thread and will not be answered: its last record. */
  private unanswered(): void {
    for (const [id, reply] of this.asks) {
      reply(this.kinds.get(id) === "saved" ? this.record : this.record.saved.transcript);
    }
    this.asks.clear();
    this.kinds.clear();
  }

  /**
   * The room's life on the main thread: the searches it asks for run in its scope. Never
   * ends by itself; interrupting it ends the room's thread and its searches.
   */
  run(): Effect.Effect<never> {
    return Effect.gen({ self: this }, function* () {
      this.fork = yield* FiberSet.makeRuntime<never, unknown, unknown>();
      for (const m of this.waiting.splice(0)) this.search(m);
      return yield* Effect.never;
    }).pipe(
      Effect.ensuring(Effect.sync(() => {
        this.ended = true;
        this.unanswered();
        this.end();
      })),
      Effect.scoped,
    ) as Effect.Effect<never>;
  }
}
