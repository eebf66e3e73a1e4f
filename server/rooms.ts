/**
 * The server's games: making a room from the new-game form or a saved transcript (every
 * input checked, each problem named), finding it by id, saving it, and closing rooms no
 * browser has watched for a while. Each room runs as one fiber of a `FiberMap` keyed by
 * its id: removing the key interrupts the room's loop and everything it runs.
 *
 * @module
 */
import { Effect, Result } from "../core/deps.ts";
import { isOver } from "../core/game.ts";
import { freshSeed } from "../app/players/agents.ts";
import { formatSpec, parseSpec } from "../app/players/spec.ts";
import { mainLine, newSession, type Session, stateAt } from "../app/session.ts";
import {
  decodeTranscript,
  exportTranscript,
  importTranscript,
  type Transcript,
} from "../app/transcript.ts";
import { DEFAULT_STRENGTHS } from "../core/plugin.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { analyseMove, lineOf } from "../app/review.ts";
import { createGame, type Offered, type RoomGame } from "./catalog.ts";
import { DEFAULT_LIMITS as PLUGIN_LIMITS, type PluginLimits } from "../core/host/thread.ts";
import type {
  GameEntry,
  LoadGameRequest,
  NewGameRequest,
  NewGameResponse,
  SideSetup,
} from "./protocol.ts";
import { Room, type RoomLimits, type Seat, type Side } from "./room.ts";

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
  /** A room no browser has watched for this long (ms) is closed. */
  readonly idleMs: number;
  /** The time per position of a loaded game's review pass (ms). */
  readonly reviewMs: number;
  /** The games' plugin threads: the call limit, heap limit and a user's plugin's grants. */
  readonly plugins: PluginLimits;
}

/** Default limits. */
export const DEFAULT_LIMITS: ServerLimits = {
  maxGames: 100,
  openMs: 60_000,
  gamesPerMinute: 30,
  aiMs: 30_000,
  analysisMs: 30_000,
  idleMs: 10 * 60_000,
  reviewMs: 300,
  plugins: PLUGIN_LIMITS,
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

const refused = (message: string): NewGameResponse => ({ _tag: "Refused", message, problems: [] });

/** The games open on a server. */
export class Rooms {
  private readonly rooms = new Map<string, Room>();
  /** Each room's way to end its game's plugin thread. */
  private readonly threads = new Map<string, () => Promise<void>>();

  constructor(
    /** The games offered, by id. */
    readonly games: ReadonlyMap<string, Offered>,
    /** The limits. */
    readonly limits: ServerLimits,
    private readonly runner: RoomRunner,
    /** The clock (ms since the epoch): tests pass their own. */
    private readonly now: () => number = Date.now,
  ) {}

  /** The entries of the new-game form. */
  entries(): GameEntry[] {
    return [...this.games.values()].map((o) => o.entry);
  }

  /** The room with this id, if open. */
  get(id: string): Room | undefined {
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
  counts(room: Room, now: number = this.now()): boolean {
    if (room.finished()) return false;
    return room.opened || now - room.createdAt < this.limits.openMs;
  }

  /** How many rooms count against `maxGames`. */
  get playing(): number {
    const now = this.now();
    return [...this.rooms.values()].filter((r) => this.counts(r, now)).length;
  }

  /** Closes a room: its fibers interrupted, its browsers disconnected. */
  close(id: string): void {
    this.rooms.delete(id);
    this.runner.stop(id);
    // The game's plugin thread ends with its room.
    void this.threads.get(id)?.();
    this.threads.delete(id);
  }

  /** Closes rooms that no browser has watched for `idleMs`; returns how many. */
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

  /** Opens a room: its fiber started, its seats made. */
  private open(
    offered: Offered,
    { opened: { game, source }, close }: RoomGame,
    session: Session,
    sides: readonly [Side, Side],
    seats: readonly Seat[],
  ): Room {
    const id = token();
    const room = new Room({
      id,
      offered,
      game,
      source,
      session,
      sides,
      seats,
      limits: this.limits,
      now: this.now,
    });
    this.rooms.set(id, room);
    this.threads.set(id, close);
    this.runner.start(id, room.run());
    return room;
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
      const made = yield* Effect.result(createGame(offered, request.options, this.limits.plugins));
      if (Result.isFailure(made)) {
        const e = made.failure;
        return { _tag: "Refused", message: e.message, problems: e.problems } as const;
      }
      const { game, options } = made.success.opened;
      const solo = game.solo === true;
      const setups = solo ? [request.players[0], request.players[0]] : request.players;
      const sides: Side[] = [];
      for (const [i, setup] of setups.entries()) {
        const side = this.side(offered, setup, i);
        if (Result.isFailure(side)) {
          yield* Effect.promise(made.success.close);
          return refused(side.failure);
        }
        sides.push(side.success);
      }
      const name = (s: Side) => s.kind === "human" ? "human" : formatSpec(s.spec);
      const seed = request.seed ?? freshSeed();
      const session = newSession({
        game: offered.specifier,
        options,
        seed,
        players: [name(sides[0]), name(sides[1])],
      });
      const here = setups.map((s) => s._tag === "Here") as [boolean, boolean];
      const remote = setups.map((s) => s._tag === "Remote") as [boolean, boolean];
      const seats: Seat[] = [{ token: token(), sides: here }];
      if (remote[0] || remote[1]) seats.push({ token: token(), sides: remote });
      const room = this.open(offered, made.success, session, [sides[0], sides[1]], seats);
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
        createGame(
          offered,
          transcript.options as Record<string, string | number | boolean>,
          this.limits.plugins,
        ),
      );
      if (Result.isFailure(made)) return refused(made.failure.message);
      const { game } = made.success.opened;
      const imported = importTranscript(game, transcript);
      if (Result.isFailure(imported)) {
        yield* Effect.promise(made.success.close);
        return refused(`the saved game does not fit: ${imported.failure}`);
      }
      const seat: Seat = { token: token(), sides: [true, true] };
      const room = this.open(offered, made.success, imported.success, [{ kind: "human" }, {
        kind: "human",
      }], [seat]);
      room.spawn(this.review(room));
      return { _tag: "Created", game: room.id, seat: seat.token } as const;
    });
  }

  /** The review pass of a loaded game: each person's move judged, shown as found. */
  private review(room: Room): Effect.Effect<void> {
    const game = room.game;
    const ids = mainLine(room.session).slice(1);
    const settings = {
      strategy: { name: "alphabeta", strategy: alphabetaStrategy, params: {} },
      source: room.source,
      timeMs: this.limits.reviewMs,
      margin: room.offered.plugin.mistakeMargin ?? 1,
    };
    return Effect.gen(function* () {
      for (const [i, step] of lineOf(game, room.session).entries()) {
        const a = yield* analyseMove(game, step, settings);
        if (a === undefined) continue;
        room.annotate(ids[i], {
          best: a.bestNotation,
          loss: a.loss,
          mistake: a.mistake !== undefined,
          text: a.mistake ?? (a.loss === 0 ? "best" : `${a.loss} worse than ${a.bestNotation}`),
        });
      }
    }).pipe(Effect.ignore);
  }

  /** The game as a transcript (the JSON `deno task play` saves). */
  transcript(id: string): Transcript | undefined {
    const room = this.rooms.get(id);
    if (room === undefined) return undefined;
    const t = exportTranscript(room.session);
    if (t.result.reason !== "unfinished") return t;
    // A game whose main line reached the end is finished, whatever interrupted it.
    const final = stateAt(room.game, room.session, mainLine(room.session).at(-1));
    const o = isOver(room.game, final) ? room.game.outcome(final) : undefined;
    return o === undefined
      ? t
      : { ...t, result: { winner: o.winner, margin: o.margin, reason: "end" } };
  }
}
