/**
 * The server's games: making a room from the new-game form or a saved transcript (every
 * input checked, each problem named), finding it by id, saving it, and keeping it across
 * a restart. Each room runs as one fiber of a `FiberMap` keyed by its id: removing the
 * key interrupts the room's loop and everything it runs.
 *
 * With a store (`store.ts`), every room is stored as it changes (a writer fiber stores the
 * latest state of the rooms that changed, in one transaction), a room nobody watches for
 * `idleMs` sleeps (its thread ended, its state stored), and `find` opens a sleeping or
 * stored room again where it was, whoever asks first: after a restart, every game opens
 * when its page comes back.
 *
 * @module
 */
import { Deferred, Effect, Result } from "../core/deps.ts";
import { freshSeed } from "../app/players/agents.ts";
import { formatSpec, parseSpec } from "../app/players/spec.ts";
import { describeClock, parseClock } from "../app/clock.ts";
import { decodeTranscript, type Transcript } from "../app/transcript.ts";
import { DEFAULT_STRENGTHS, type OptionsError, type PluginError } from "../core/plugin.ts";
import type { Offered } from "./catalog.ts";
import { type OpenedRoom, openRoom, type RoomHandle } from "./room_handle.ts";
import { RoomThreads } from "./room_threads.ts";
import type { RoomStart } from "./room_link.ts";
import { DEFAULT_LIMITS as PLUGIN_LIMITS, type PluginLimits } from "../core/host/thread.ts";
import type {
  GameEntry,
  JoinResponse,
  LoadGameRequest,
  Lobby,
  LobbyGame,
  NewGameRequest,
  NewGameResponse,
  SideSetup,
  WatchGame,
} from "./protocol.ts";
import type { RoomLimits } from "./room.ts";
import type { Seat, Side } from "./room_state.ts";
import type { RoomStore, SavedRoom } from "./store.ts";

/** The server's limits (flags of `deno task serve`). */
export interface ServerLimits extends RoomLimits {
  /**
   * The most games in play at once: finished games, and games no browser opened within
   * `openMs` of their start, do not count (they make way when the server is full).
   */
  readonly maxGames: number;
  /** A game no browser opened within this long (ms) of its start stops counting. */
  readonly openMs: number;
  /** The games (new or loaded) one client address may start per minute. */
  readonly gamesPerMinute: number;
  /** A room no browser has watched for this long (ms) is closed (with a store: it sleeps). */
  readonly idleMs: number;
  /** The time per position of a loaded game's review pass (ms). */
  readonly reviewMs: number;
  /** The games' plugin threads: the call limit, heap limit and a user's plugin's grants. */
  readonly plugins: PluginLimits;
  /** A stored game nobody changed for this long (ms) is forgotten. */
  readonly keepMs: number;
}

/** What a socket is told of a game this server does not have. */
const NO_SUCH_GAME = "no such game on this server (it may have been closed)";

/** Default limits. */
export const DEFAULT_LIMITS: ServerLimits = {
  maxGames: 100,
  openMs: 60_000,
  gamesPerMinute: 30,
  aiMs: 30_000,
  analysisMs: 30_000,
  idleMs: 2 * 60_000,
  reviewMs: 300,
  plugins: PLUGIN_LIMITS,
  keepMs: 30 * 24 * 3_600_000,
};

/** Where rooms run: a fiber per room id (a `FiberMap`: stopping an id interrupts it). */
export interface RoomRunner {
  /** Starts a room's fiber under its id. */
  readonly start: (id: string, effect: Effect.Effect<never>) => void;
  /** Interrupts the fiber of an id. */
  readonly stop: (id: string) => void;
}

/** A random token for game ids and seats: 128 random bits, as 32 hexadecimal digits. */
export const token = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0"))
    .join("");

/** The most games the lobby lists of each kind (waiting, to watch). */
const LOBBY_SIZE = 50;

const refused = (message: string): NewGameResponse => ({ _tag: "Refused", message, problems: [] });

/** How long the writer waits after the store failed before it tries again (ms). */
const RETRY_STORE_MS = 1000;

/** The games open on a server, and (with a store) the games kept while nobody watches. */
export class Rooms {
  private readonly rooms = new Map<string, RoomHandle>();
  /** The rooms whose stored record is behind: `flush` stores their state as it is then. */
  private readonly dirty = new Set<string>();
  /** Rooms put to sleep whose last state the store does not hold yet. */
  private readonly sleeping = new Map<string, SavedRoom>();
  /** Stored rooms being opened again (each once, whoever asks). */
  private readonly waking = new Map<string, Deferred.Deferred<RoomHandle, string>>();
  /** Completes when there is something to store (the writer waits for it). */
  private pending: Deferred.Deferred<void> = Deferred.makeUnsafe<void>();
  /** The rooms' threads. */
  private readonly threads: RoomThreads;

  constructor(
    /** The games offered, by id. */
    readonly games: ReadonlyMap<string, Offered>,
    /** The limits. */
    readonly limits: ServerLimits,
    private readonly runner: RoomRunner,
    /** The clock (ms since the epoch): tests pass their own. */
    private readonly now: () => number = Date.now,
    /**
     * Where rooms are kept across a restart, and while nobody watches them (none: a room
     * nobody watches is closed for good).
     */
    private readonly store?: RoomStore,
  ) {
    this.threads = new RoomThreads(limits.plugins);
  }

  /** Ends the rooms' threads that wait for a room (when the server stops). */
  shutdown(): void {
    this.threads.shutdown();
  }

  /** Notes that a room's stored record is behind. */
  private changed(id: string): void {
    if (this.store === undefined) return;
    this.dirty.add(id);
    Deferred.doneUnsafe(this.pending, Effect.void);
  }

  /**
   * Stores every room that changed since the last time (each as it is now, all in one
   * transaction). What could not be stored stays to be stored.
   */
  flush(): Effect.Effect<void, string> {
    return Effect.suspend(() => {
      const store = this.store;
      if (store === undefined || this.dirty.size === 0) return Effect.void;
      const ids = [...this.dirty];
      this.dirty.clear();
      const saved = ids.flatMap((id) => this.rooms.get(id)?.saved() ?? this.sleeping.get(id) ?? []);
      return store.save(saved).pipe(
        Effect.mapError((e) => e.message),
        Effect.tap(() =>
          Effect.sync(() => {
            for (const r of saved) if (this.sleeping.get(r.id) === r) this.sleeping.delete(r.id);
          })
        ),
        Effect.onError(() => Effect.sync(() => ids.forEach((id) => this.dirty.add(id)))),
      );
    });
  }

  /**
   * Stores every room as it is now: each open room's record brought up to date by its
   * thread first (what the last moment changed is kept at a stop).
   */
  flushAll(): Effect.Effect<void, string> {
    return Effect.forEach(
      [...this.rooms.values()],
      (room) => Effect.andThen(room.sync(), Effect.sync(() => this.changed(room.id))),
      {
        concurrency: "unbounded",
        discard: true,
      },
    ).pipe(Effect.andThen(this.flush()));
  }

  /**
   * The writer: stores the rooms as they change, for as long as it runs. When the store
   * fails (a full disk, a database away), it says so once on standard error, keeps every
   * game in memory, and tries again every second until the store takes them.
   */
  persist(): Effect.Effect<never> {
    return Effect.gen({ self: this }, function* () {
      let failing: string | undefined;
      while (true) {
        yield* Deferred.await(this.pending);
        this.pending = Deferred.makeUnsafe<void>();
        const r = yield* Effect.result(this.flush());
        if (Result.isSuccess(r)) {
          if (failing !== undefined) console.error("ply serve: the games are stored again");
          failing = undefined;
          continue;
        }
        if (failing !== r.failure) {
          console.error(
            `ply serve: cannot store the games (${r.failure}); they go on in memory and ` +
              "storing is tried again every second",
          );
        }
        failing = r.failure;
        yield* Effect.sleep(RETRY_STORE_MS);
        Deferred.doneUnsafe(this.pending, Effect.void);
      }
    });
  }

  /**
   * The room of an id: open, or opened again from the store (a game nobody watched, or
   * one from before a restart) at its position; or why there is none.
   */
  find(id: string): Effect.Effect<Result.Result<RoomHandle, string>> {
    return Effect.gen({ self: this }, function* () {
      const open = this.rooms.get(id);
      if (open !== undefined) return Result.succeed(open);
      const store = this.store;
      if (store === undefined || !/^[0-9a-f]{32}$/.test(id)) return Result.fail(NO_SUCH_GAME);
      const already = this.waking.get(id);
      if (already !== undefined) return yield* Effect.result(Deferred.await(already));
      const woken = Deferred.makeUnsafe<RoomHandle, string>();
      this.waking.set(id, woken);
      const r = yield* Effect.result(Effect.gen({ self: this }, function* () {
        const kept = this.sleeping.get(id);
        const saved = kept !== undefined
          ? Result.succeed(kept)
          : yield* Effect.mapError(store.get(id), (e) => `the games' store failed: ${e.message}`);
        if (saved === undefined) return yield* Effect.fail(NO_SUCH_GAME);
        if (Result.isFailure(saved)) {
          return yield* Effect.fail(`this game's record cannot be read: ${saved.failure}`);
        }
        return yield* this.reopen(saved.success);
      }));
      this.waking.delete(id);
      Deferred.doneUnsafe(
        woken,
        Result.isSuccess(r) ? Effect.succeed(r.success) : Effect.fail(r.failure),
      );
      if (Result.isFailure(r) && r.failure !== NO_SUCH_GAME) {
        console.error(`ply serve: game ${id} cannot be opened again: ${r.failure}`);
      }
      return r;
    });
  }

  /** Opens a stored room again (its thread started, its moves replayed there). */
  private reopen(saved: SavedRoom): Effect.Effect<RoomHandle, string> {
    return Effect.gen({ self: this }, function* () {
      const t = saved.transcript;
      const offered = this.games.get(saved.game) ??
        [...this.games.values()].find((o) => o.specifier === t.game);
      if (offered === undefined) {
        return yield* Effect.fail(
          `its game (${saved.game}) is not offered by this server; start serve with its plugin`,
        );
      }
      const sides: Side[] = [];
      for (const name of t.players) {
        if (name === "human") {
          sides.push({ kind: "human" });
          continue;
        }
        const spec = parseSpec(name, offered.strategies);
        if (Result.isFailure(spec)) return yield* Effect.fail(`player ${name}: ${spec.failure}`);
        if (spec.success.kind === "human") sides.push({ kind: "human" });
        else sides.push({ kind: "ai", spec: spec.success });
      }
      const made = yield* Effect.mapError(
        this.openThread(
          offered,
          t.options as Record<string, string | number | boolean>,
          sides.every((s) => s.kind === "ai"),
        ),
        (e) => e.message,
      );
      const { id, game: _game, transcript, seats, ...restored } = saved;
      const room = yield* this.open(offered, made, {
        id,
        sides: [sides[0], sides[1]],
        seats,
        createdAt: restored.createdAt,
        session: { _tag: "Transcript", transcript },
        restored,
      });
      if (Result.isFailure(room)) {
        return yield* Effect.fail(`its moves no longer fit the game: ${room.failure}`);
      }
      return room.success;
    });
  }

  /** Opens a room's thread on a game (the server's limits for it). */
  private openThread(
    offered: Offered,
    options: Readonly<Record<string, unknown>>,
    ais = false,
  ): Effect.Effect<OpenedRoom, OptionsError | PluginError> {
    return openRoom(this.threads, offered, options, this.limits.plugins, {
      aiMs: this.limits.aiMs,
      analysisMs: this.limits.analysisMs,
    }, ais);
  }

  /** How many games the store holds, by game (none without a store). */
  stored(): Effect.Effect<ReadonlyMap<string, number>, string> {
    return this.store === undefined
      ? Effect.succeed(new Map())
      : Effect.mapError(this.store.counts, (e) => e.message);
  }

  /** Forgets the stored games that nobody changed for `keepMs`; says so on standard error. */
  purge(): Effect.Effect<void> {
    const store = this.store;
    if (store === undefined) return Effect.void;
    return store.purge(this.now() - this.limits.keepMs).pipe(
      Effect.tap((n) =>
        n > 0
          ? Effect.sync(() =>
            console.error(`ply serve: forgot ${n} games nobody opened for ${this.keepText()}`)
          )
          : Effect.void
      ),
      Effect.catch((e) => Effect.sync(() => console.error(`ply serve: ${e.message}`))),
      Effect.asVoid,
    );
  }

  /** `keepMs` in days (or hours). */
  private keepText(): string {
    const h = this.limits.keepMs / 3_600_000;
    return h >= 24 ? `${h / 24} days` : `${h} hours`;
  }

  /** The entries of the new-game form. */
  entries(): GameEntry[] {
    return [...this.games.values()].map((o) => o.entry);
  }

  /**
   * The lobby: the games waiting for an opponent (their host there, their seat free) and
   * the games going on that someone watches, newest first, at most `LOBBY_SIZE` of each.
   */
  lobby(): Lobby {
    const rooms = [...this.rooms.values()]
      .filter((r) => r.conns.size > 0 && !r.finished())
      .sort((a, b) => b.createdAt - a.createdAt);
    const waiting: LobbyGame[] = [];
    const watching: WatchGame[] = [];
    for (const room of rooms) {
      const { entry } = room.offered;
      const t = room.saved().transcript;
      const clock = t.clock === undefined ? {} : { clock: describeClock(t.clock) };
      const seat = room.lobbySeat();
      if (seat !== undefined) {
        if (waiting.length >= LOBBY_SIZE) continue;
        const free = room.seat(seat)?.sides[1] === true ? 1 : 0;
        waiting.push({
          game: room.id,
          kind: entry.id,
          name: entry.name,
          options: t.options as Record<string, unknown>,
          ...clock,
          side: entry.players[free],
          host: entry.players[1 - free],
          createdAt: room.createdAt,
        });
      } else if (watching.length < LOBBY_SIZE) {
        watching.push({
          game: room.id,
          kind: entry.id,
          name: entry.name,
          players: t.players,
          sides: entry.players,
          moves: t.moves.length,
          ...clock,
          watchers: room.conns.size,
        });
      }
    }
    return { waiting, watching };
  }

  /** Takes the free side of a game in the lobby: the seat's token, or why not. */
  joinFromLobby(id: string): JoinResponse {
    const room = this.rooms.get(id);
    const seat = room?.claim();
    if (room === undefined || seat === undefined) {
      return {
        _tag: "Refused",
        message: "this game is no longer waiting: someone joined it, or it ended",
      };
    }
    return { _tag: "Joined", game: id, seat };
  }

  /** The room with this id, if open. */
  get(id: string): RoomHandle | undefined {
    return this.rooms.get(id);
  }

  /** How many rooms are open. */
  get size(): number {
    return this.rooms.size;
  }

  /**
   * True when a room counts against `maxGames`: its game goes on, and a browser opened
   * it (or it is younger than `openMs`).
   */
  counts(room: RoomHandle, now: number = this.now()): boolean {
    if (room.finished()) return false;
    return room.opened || now - room.createdAt < this.limits.openMs;
  }

  /** How many rooms count against `maxGames`. */
  get playing(): number {
    const now = this.now();
    return [...this.rooms.values()].filter((r) => this.counts(r, now)).length;
  }

  /**
   * Closes a room: its fibers interrupted, its browsers disconnected, its game's thread
   * ended. With a store, the room sleeps: its last state is stored, and `find` opens it
   * again where it was.
   */
  close(id: string): void {
    const room = this.rooms.get(id);
    if (room !== undefined && this.store !== undefined) {
      this.sleeping.set(id, room.saved());
      this.changed(id);
    }
    this.rooms.delete(id);
    // The room's thread ends with its fiber.
    this.runner.stop(id);
  }

  /** Closes (with a store: puts to sleep) the rooms nobody watched for `idleMs`; their ids. */
  reap(now: number = this.now()): string[] {
    const idle = [...this.rooms.values()]
      .filter((r) => r.conns.size === 0 && now - r.idleSince >= this.limits.idleMs)
      .map((r) => r.id);
    for (const id of idle) this.close(id);
    return idle;
  }

  /** A side's player from the form: a person, or an AI by strength name or spec. */
  private side(offered: Offered, setup: SideSetup, i: number): Result.Result<Side, string> {
    if (setup._tag !== "AI") return Result.succeed({ kind: "human" });
    const strengths = offered.plugin.strengths ?? DEFAULT_STRENGTHS;
    const named = setup.spec.trim().toLowerCase();
    const text = Object.hasOwn(strengths, named) ? strengths[named] : setup.spec;
    const r = parseSpec(text, offered.strategies);
    const who = offered.entry.players[i];
    if (Result.isFailure(r)) return Result.fail(`${who}: ${r.failure}`);
    const spec = r.success;
    if (spec.kind === "human") return Result.fail(`${who}: choose "here" or "remote" for a person`);
    if (spec.kind === "search" && offered.strategies[spec.strategy]?._tag === "Parallel") {
      return Result.fail(
        `${who}: ${spec.strategy} searches on several workers at once, which this server does ` +
          "not offer (each game's AI has one worker); deno task play runs it",
      );
    }
    if (spec.kind === "search" && spec.timeMs !== undefined && spec.timeMs > this.limits.aiMs) {
      return Result.fail(
        `${who}: ${formatSpec(spec)} thinks ${spec.timeMs / 1000} s per move; this server ` +
          `allows at most ${this.limits.aiMs / 1000} s (serve --max-ai-time)`,
      );
    }
    return Result.succeed({ kind: "ai", spec });
  }

  /**
   * Refuses a new room when `maxGames` games are in play. Otherwise, when the server
   * holds `maxGames` rooms, the unwatched ones that do not count (finished, or never
   * opened) close, the longest idle first, to make way.
   */
  private full(): string | undefined {
    if (this.rooms.size < this.limits.maxGames) return undefined;
    this.reap();
    const now = this.now();
    const rooms = [...this.rooms.values()];
    if (rooms.filter((r) => this.counts(r, now)).length >= this.limits.maxGames) {
      return `this server has ${this.limits.maxGames} games in play, its limit ` +
        "(serve --max-games); try again when one has ended";
    }
    const spare = rooms
      .filter((r) => r.conns.size === 0 && !this.counts(r, now))
      .sort((a, b) => a.idleSince - b.idleSince);
    for (const r of spare.slice(0, this.rooms.size - this.limits.maxGames + 1)) this.close(r.id);
    return undefined;
  }

  /**
   * Starts a room in its thread (a new one, or a stored one again) and its fiber here; or
   * why it could not start (its moves no longer fit the game).
   */
  private open(
    offered: Offered,
    made: OpenedRoom,
    start: Omit<RoomStart, "id" | "createdAt"> & {
      readonly id?: string;
      readonly createdAt?: number;
    },
  ): Effect.Effect<Result.Result<RoomHandle, string>> {
    return Effect.gen({ self: this }, function* () {
      const id = start.id ?? token();
      const started = yield* made.start(
        { ...start, id, createdAt: start.createdAt ?? this.now() },
        {
          changed: () => this.changed(id),
          ended: (why) => {
            console.error(`ply serve: room ${id}: plugin ${offered.specifier}: ${why}`);
            if (this.rooms.get(id) === room) this.close(id);
          },
          now: this.now,
        },
      );
      if (Result.isFailure(started)) return started;
      const room = started.success;
      this.rooms.set(id, room);
      this.changed(id);
      this.runner.start(id, room.run());
      return started;
    });
  }

  /** A new game from the form. */
  create(request: NewGameRequest): Effect.Effect<NewGameResponse> {
    return Effect.gen({ self: this }, function* () {
      const offered = this.games.get(request.game);
      if (offered === undefined) {
        return refused(
          `no game "${request.game}" on this server (it offers ${
            [...this.games.keys()].join(", ")
          })`,
        );
      }
      const busy = this.full();
      if (busy !== undefined) return refused(busy);
      const clock = request.clock === undefined || request.clock.trim() === ""
        ? undefined
        : parseClock(request.clock);
      if (clock !== undefined && Result.isFailure(clock)) {
        return {
          _tag: "Refused",
          message: `clock: ${clock.failure}`,
          problems: [{ option: "clock", problem: clock.failure }],
        };
      }
      const made = yield* Effect.result(
        this.openThread(offered, request.options, request.players.every((p) => p._tag === "AI")),
      );
      if (Result.isFailure(made)) {
        const e = made.failure;
        return {
          _tag: "Refused",
          message: e.message,
          problems: "problems" in e ? e.problems : [],
        } as const;
      }
      const solo = made.success.solo;
      const setups = solo ? [request.players[0], request.players[0]] : request.players;
      const sides: Side[] = [];
      for (const [i, setup] of setups.entries()) {
        const side = this.side(offered, setup, i);
        if (Result.isFailure(side)) {
          made.success.close();
          return refused(side.failure);
        }
        sides.push(side.success);
      }
      const name = (s: Side) => s.kind === "human" ? "human" : formatSpec(s.spec);
      const seed = request.seed ?? freshSeed();
      const here = setups.map((s) => s._tag === "Here") as [boolean, boolean];
      const remote = setups.map((s) => s._tag === "Remote" || s._tag === "Lobby") as [
        boolean,
        boolean,
      ];
      const lobby = setups.some((s) => s._tag === "Lobby");
      if (lobby && !(here[0] || here[1])) {
        made.success.close();
        return refused("a game in the lobby is between a person here and whoever joins it");
      }
      const seats: Seat[] = [{ token: token(), sides: here }];
      if (remote[0] || remote[1]) seats.push({ token: token(), sides: remote });
      const opened = yield* this.open(offered, made.success, {
        sides: [sides[0], sides[1]],
        seats,
        session: {
          _tag: "New",
          seed,
          players: [name(sides[0]), name(sides[1])],
          ...(clock !== undefined ? { clock: clock.success } : {}),
        },
        ...(lobby ? { lobby: seats[1].token } : {}),
      });
      if (Result.isFailure(opened)) return refused(opened.failure);
      const room = opened.success;
      return {
        _tag: "Created",
        game: room.id,
        seat: seats[0].token,
        ...(seats.length > 1 ? { invite: `/?game=${room.id}&seat=${seats[1].token}` } : {}),
      } as const;
    });
  }

  /**
   * A saved game, opened for review: both sides played here, and the main line analysed
   * move by move as `deno task review` does (the verdicts appear as they are found).
   */
  load(request: LoadGameRequest): Effect.Effect<NewGameResponse> {
    return Effect.gen({ self: this }, function* () {
      let json: unknown;
      try {
        json = JSON.parse(request.transcript);
      } catch (e) {
        return refused(`the file is not JSON: ${(e as Error).message}`);
      }
      const decoded = decodeTranscript(json);
      if (Result.isFailure(decoded)) return refused(decoded.failure);
      const transcript = decoded.success;
      const offered = [...this.games.values()].find((o) =>
        o.specifier === transcript.game || o.entry.id === transcript.game
      );
      if (offered === undefined) {
        return refused(
          `the saved game is ${transcript.game}, which this server does not offer ` +
            "(name its plugin on serve's command line)",
        );
      }
      const busy = this.full();
      if (busy !== undefined) return refused(busy);
      const made = yield* Effect.result(
        this.openThread(offered, transcript.options as Record<string, string | number | boolean>),
      );
      if (Result.isFailure(made)) return refused(made.failure.message);
      const seat: Seat = { token: token(), sides: [true, true] };
      const opened = yield* this.open(offered, made.success, {
        sides: [{ kind: "human" }, { kind: "human" }],
        seats: [seat],
        session: { _tag: "Transcript", transcript },
        review: { ms: this.limits.reviewMs, margin: offered.plugin.mistakeMargin ?? 1 },
      });
      if (Result.isFailure(opened)) {
        return refused(`the saved game does not fit: ${opened.failure}`);
      }
      return { _tag: "Created", game: opened.success.id, seat: seat.token } as const;
    });
  }

  /**
   * The game as a transcript (the JSON `deno task play` saves): an open room's, or a
   * stored one's as it was stored.
   */
  transcript(id: string): Effect.Effect<Transcript | undefined> {
    return Effect.gen({ self: this }, function* () {
      const room = this.rooms.get(id);
      if (room === undefined) {
        const kept = this.sleeping.get(id);
        if (kept !== undefined) return kept.transcript;
        if (this.store === undefined || !/^[0-9a-f]{32}$/.test(id)) return undefined;
        const saved = yield* Effect.orElseSucceed(this.store.get(id), () => undefined);
        return saved !== undefined && Result.isSuccess(saved)
          ? saved.success.transcript
          : undefined;
      }
      return yield* room.transcript();
    });
  }
}
