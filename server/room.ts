/**
 * One game on the server: its session, its players, the browsers watching it, and the
 * fibers that run it. The room's loop runs the match runner (`runGame`) on the session:
 * a person is one more player Effect, fed by the WebSocket of the browser that holds
 * the seat; an AI is a search player whose search runs in the engine service, its
 * progress streamed to every browser. Taking back, replaying and jumping interrupt the
 * runner (its AI's search with it), change the session and start it again from there.
 *
 * Everything in a room lives in the room's scope: closing the room (its last browser
 * gone for a while, or the server stopping) interrupts its loop, its search and its
 * analysis, and nothing else.
 *
 * @module
 */
import { Deferred, Effect, Fiber, Option, Queue, Random } from "../core/deps.ts";
import { FiberSet } from "./deps.ts";
import { CHANCE, type Game, isOver, type Player, WIN, WIN_THRESHOLD } from "../core/game.ts";
import { runGame } from "../app/match.ts";
import { type Agent, agentFromSpec, type Choice } from "../app/players/agents.ts";
import type { PlayerSpec } from "../app/players/spec.ts";
import type { Terminal } from "../app/terminal.ts";
import type { SearchResult } from "../core/search/types.ts";
import { PluginFault, type SearchError, type SearchFailed } from "../core/errors.ts";
import type { GameSource } from "../core/source.ts";
import { type Progress, search } from "../core/engine/engine.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import {
  goTo,
  redo,
  type SearchInfo,
  searchInfo,
  type Session,
  stateAt,
  undo,
} from "../app/session.ts";
import { describeResult } from "../app/display.ts";
import type { GameResult } from "../app/match.ts";
import type { Offered } from "./catalog.ts";
import type { GameEntry } from "./protocol.ts";
import type {
  ClientMessage,
  ClockState,
  LegalMove,
  NodeView,
  SearchView,
  ServerMessage,
} from "./protocol.ts";
import { type ClockView, describeClock, timeLeft } from "../app/clock.ts";
import { exportTranscript, transcriptNumbers } from "../app/transcript.ts";
import type { LobbySeat, SavedRoom } from "./store.ts";

/** Who plays a side: a person (here or elsewhere) or an AI by spec. */
export type Side =
  | { readonly kind: "human" }
  | { readonly kind: "ai"; readonly spec: AiSpec };

/** An AI's spec: a search or the random player. */
export type AiSpec = Exclude<PlayerSpec, { readonly kind: "human" }>;

/** A browser's right in a room: the sides it plays, and whether it may change the game. */
export interface Seat {
  /** The secret in the browser's link. */
  readonly token: string;
  /** The sides it plays. */
  readonly sides: readonly [boolean, boolean];
}

/** One browser's connection to a room. */
export interface Conn {
  /** Its seat; none for a spectator. */
  readonly seat: Seat | undefined;
  /** Sends a message to it (never blocks; a closed connection drops it). */
  readonly send: (m: ServerMessage) => void;
  /**
   * Sends a message already written as JSON (a room's thread writes its messages; the
   * main thread passes them on as they are). Without it, `send` gets the message read.
   */
  readonly sendText?: (text: string) => void;
}

/** A review's verdict on a move (from `deno task review`'s analysis pass). */
export type Annotation = NonNullable<NodeView["review"]>;

/** The limits a room keeps to. */
export interface RoomLimits {
  /** The most time an AI may think per move (ms); specs asking more are capped. */
  readonly aiMs: number;
  /** The most time the analysis spends on one position (ms). */
  readonly analysisMs: number;
}

/** What a room is made from. */
export interface RoomSetup {
  /** The room's id (in links). */
  readonly id: string;
  /** The game offered: its id on the server and the strategies its AIs may use. */
  readonly offered: RoomOffer;
  /** The game. */
  readonly game: Game<unknown>;
  /** Where the game came from: its searches run in the engine's workers, which open it. */
  readonly source: GameSource;
  /** The session to play on (new, or a loaded transcript's). */
  readonly session: Session;
  /** Who plays each side. */
  readonly sides: readonly [Side, Side];
  /** The seats (tokens) that play sides. */
  readonly seats: readonly Seat[];
  /** The limits. */
  readonly limits: RoomLimits;
  /** The clock (ms since the epoch; default `Date.now`), for the idle and open times. */
  readonly now?: () => number;
  /** When the room was made (default: now, or when the stored room was). */
  readonly createdAt?: number;
  /** What a room opened again after a restart was (its annotations by node id). */
  readonly restored?: Restored;
  /** True for a saved game loaded for review (`Position.loaded`). */
  readonly loaded?: boolean;
  /** Called whenever what the room stores (`saved`) may have changed. */
  readonly onChange?: () => void;
  /** A game offered in the lobby: the seat offered there (a stored room's `restored` wins). */
  readonly lobby?: LobbySeat;
}

/** What a room uses of the game offered: its id, and its AIs' strategies by name. */
export interface RoomOffer {
  /** The form's entry (its `id` names the game on the server). */
  readonly entry: Pick<GameEntry, "id">;
  /** Every strategy its AIs may use, by name. */
  readonly strategies: Offered["strategies"];
}

/** The state of a stored room besides its game and seats, as `Room` takes it back. */
export type Restored = Omit<SavedRoom, "id" | "game" | "transcript" | "seats">;

/** A person's move, waiting for the runner to ask for it. */
interface Pending {
  readonly conn: Conn;
  readonly at: number;
  readonly move: number;
}

/** A change of the position or of the room, applied between two runs of the runner. */
type Control =
  /** Takes back to where a person (`by`: that side only, an accepted takeback) is to move. */
  | { readonly _tag: "Undo"; readonly conn: Conn; readonly by?: Player }
  | { readonly _tag: "Redo"; readonly conn: Conn }
  | { readonly _tag: "GoTo"; readonly conn: Conn; readonly node: number };

/** A `Position` message. */
type Position = Extract<ServerMessage, { readonly _tag: "Position" }>;

/** What every browser's view of a position shares; each adds its sides, moves and nodes. */
interface Shared {
  readonly tm: Position["toMove"];
  readonly legal: readonly LegalMove[];
  readonly fields: Omit<
    Position,
    "_tag" | "mine" | "control" | "live" | "nodes" | "full" | "nodeCount" | "legal"
  >;
}

/** What a view of the position says of the game (the rest is the room's own). */
type GameFields = Pick<
  Shared["fields"],
  "svg" | "text" | "toMove" | "lastNote" | "result" | "decisive"
>;

/** The bar's scale for values that are not decisive: `v / (|v| + BAR_SCALE)`. */
const BAR_SCALE = 10;

/** A value as the value bar (and the review's graph) shows it: from -1 (lost) to 1 (won). */
export const barOf = (v: number): number =>
  Math.abs(v) >= WIN_THRESHOLD ? Math.sign(v) : v / (Math.abs(v) + BAR_SCALE);

/** A search's figures as the page shows them, from `mover`'s side. */
const searchView = (
  game: Game<unknown>,
  state: unknown,
  r: SearchResult,
  mover: Player,
): SearchView => infoView(searchInfo(game, state, r), mover);

/** A search as a session keeps it, as the page shows it from `mover`'s side. */
const infoView = (info: SearchInfo, mover: Player): SearchView => {
  const v = mover === 0 ? info.value : -info.value;
  return {
    depth: info.depth,
    value: v,
    valueText: valueText(v, info.exact),
    bar: barOf(v),
    exact: info.exact,
    pv: info.pv,
    nodes: info.nodes,
    nps: info.timeMs > 0 ? Math.round(info.nodes / (info.timeMs / 1000)) : 0,
    ms: Math.round(info.timeMs),
    ...(info.notes !== undefined ? { notes: info.notes } : {}),
  };
};

/** A value from the mover's side for a person: `+3`, `-0.25`, `draw`, `win in 5`. */
export const valueText = (v: number, exact: boolean): string => {
  if (Math.abs(v) >= WIN_THRESHOLD) {
    const plies = Math.round(Math.abs(Math.abs(v) - WIN));
    return `${v > 0 ? "win" : "loss"}${plies > 0 ? ` in ${plies}` : ""}`;
  }
  if (exact && v === 0) return "draw";
  return `${v > 0 ? "+" : ""}${Number.isInteger(v) ? v : v.toFixed(2)}`;
};

/** How a game ended, for a person; a plugin's fault names the plugin, function and reason. */
const resultText = (game: Game<unknown>, r: GameResult): string =>
  r.reason === "error" && r.error !== undefined
    ? `The game stops here: ${r.error}.`
    : describeResult(game, r);

/** The board's tokens that decided a finished position (`Picture.decisive`), if any. */
const decisiveOf = (
  game: Game<unknown>,
  s: unknown,
  over: boolean,
): { readonly decisive?: readonly string[] } => {
  const tokens = over ? game.picture?.decisive?.(s) ?? [] : [];
  return tokens.length > 0 ? { decisive: [...tokens] } : {};
};

/** A fault as the server's log line says it: `plugin NAME FUNCTION: REASON`. */
const faultLine = (e: PluginFault | SearchError): string =>
  e instanceof PluginFault
    ? `plugin ${e.plugin} ${e.fn}: ${e.cause instanceof Error ? e.cause.message : String(e.cause)}`
    : `search: ${e.message}`;

/** The side a value is shown for: the player to move (player 0 at a chance node). */
const moverOf = (game: Game<unknown>, s: unknown): Player => {
  const tm = game.toMove(s);
  return tm === CHANCE ? 0 : tm;
};

/**
 * A game on the server. Its methods are called from the connections' fibers; its loop
 * (`run`) is the room's own fiber.
 */
export class Room {
  /** The room's id. */
  readonly id: string;
  /** The game offered. */
  readonly offered: RoomOffer;
  /** The game. */
  readonly game: Game<unknown>;
  /** Where the game came from (its searches run in the engine's workers). */
  readonly source: GameSource;
  /** The session (changed in place). */
  readonly session: Session;
  /** The browsers connected. */
  readonly conns: Set<Conn> = new Set();
  /** The clock (ms since the epoch). */
  readonly now: () => number;
  /** When the room was made (ms since the epoch). */
  readonly createdAt: number;
  /** When the last browser left (ms since the epoch), for closing idle rooms. */
  idleSince: number;
  /** True once a browser has opened the game. */
  opened = false;
  /** Review's verdicts by node id (a loaded game). */
  readonly annotations: Map<number, Annotation> = new Map();
  /** True for a saved game loaded for review. */
  private readonly loaded: boolean;
  /** The nodes annotated, in order (what each browser has seen is a count of them). */
  private readonly reviewed: number[] = [];
  /** The game's words on each node's move, by node id (`noteOf`). */
  private readonly notes: Map<number, string> = new Map();
  /** What each browser has seen of the tree: node and review counts. */
  private readonly seen: WeakMap<Conn, { nodes: number; reviews: number }> = new WeakMap();
  /** The last position sent to each browser (without its nodes), to skip repeats. */
  private readonly lastSent: WeakMap<Conn, string> = new WeakMap();

  private readonly sides: readonly [Side, Side];
  private readonly seats: Map<string, Seat>;
  private readonly limits: RoomLimits;
  /** The position at the current node (kept in step with `session.current`). */
  private state: unknown;
  /** The position before the current node's move (undefined at the start). */
  private before: unknown;
  private readonly moves: [Queue.Queue<Pending>, Queue.Queue<Pending>];
  private controls: Control[] = [];
  /** Completes to interrupt the runner (a control arrived, or every browser left). */
  private interrupt: Deferred.Deferred<void> = Deferred.makeUnsafe<void>();
  /** Completes to wake the loop while the runner is not running. */
  private wake: Deferred.Deferred<void> = Deferred.makeUnsafe<void>();
  /** Completes when the AIs may play again after `Stop`. */
  private resumed: Deferred.Deferred<void> = Deferred.makeUnsafe<void>();
  /** Completes when the thinking AI must play its best move so far. */
  private moveNow: Deferred.Deferred<void> = Deferred.makeUnsafe<void>();
  private paused: boolean;
  private speed: number;
  private thinking: Player | null = null;
  /** The node where the runner last stopped for good (the end, or a plugin's fault). */
  private stoppedAt: number;
  private analysing = false;
  /**
   * True for a game between people, each side at a browser of its own: while it goes
   * on (`live()`), a seat only moves for its side, takes back by the other's consent,
   * and nobody gets the engine's view.
   */
  private readonly contest: boolean;
  /** True once a game between people has ended (everything opens then, for good). */
  private ended: boolean;
  /** The side whose takeback request waits for the other player's answer. */
  private takeback: Player | undefined;
  /** The AI players (none for a person's side), made once so each keeps its table. */
  private readonly ais: readonly [Agent<unknown, Terminal>?, Agent<unknown, Terminal>?];
  /** The thinking AI's last completed iteration (what `MoveNow` plays). */
  private lastIteration: SearchResult | undefined;
  private analysis: Fiber.Fiber<unknown, unknown> | undefined;
  /** Runs an effect in the room's scope (set when `run` starts). */
  private fork: (<A, E>(e: Effect.Effect<A, E>) => Fiber.Fiber<A, E>) | undefined;
  /** Effects to run in the room's scope once it runs. */
  private readonly waiting: Effect.Effect<unknown, unknown>[] = [];
  private readonly onChange: () => void;
  /** The game's answers for the last position viewed, and what they are of (`sharedView`). */
  private lastView:
    | {
      readonly of: readonly unknown[];
      readonly tm: Shared["tm"];
      readonly legal: readonly LegalMove[];
      readonly game: GameFields;
    }
    | undefined;
  /** The faults written to standard error (each once). */
  private readonly reported: Set<string> = new Set();
  /** A game offered in the lobby: its seat there, and whether someone took it. */
  private lobby: LobbySeat | undefined;
  /** In a clocked game, the turn whose clock runs: its node and when it began. */
  private turn: { readonly node: number; readonly side: Player; readonly at: number } | undefined;

  constructor(setup: RoomSetup) {
    this.id = setup.id;
    this.offered = setup.offered;
    this.game = setup.game;
    this.source = setup.source;
    this.session = setup.session;
    this.sides = setup.sides;
    this.seats = new Map(setup.seats.map((s) => [s.token, s]));
    this.limits = setup.limits;
    this.now = setup.now ?? Date.now;
    this.onChange = setup.onChange ?? (() => {});
    const r = setup.restored;
    this.createdAt = r?.createdAt ?? setup.createdAt ?? this.now();
    this.idleSince = this.now();
    this.opened = r?.opened ?? false;
    this.ended = r?.ended ?? false;
    this.paused = r?.paused ?? false;
    this.speed = r?.speed ?? 400;
    this.lobby = r?.lobby ?? setup.lobby;
    this.loaded = setup.loaded === true || r?.loaded === true;
    this.stoppedAt = r?.stopped === true ? this.session.current : -1;
    for (const [id, a] of r?.annotations ?? []) {
      this.annotations.set(id, a);
      this.reviewed.push(id);
    }
    this.contest = this.sides.every((s) => s.kind === "human") &&
      setup.seats.every((s) => !(s.sides[0] && s.sides[1])) &&
      setup.seats.filter((s) => s.sides[0] || s.sides[1]).length === 2;
    this.setPosition();
    const ai = (p: Player) => {
      const side = this.sides[p];
      return side.kind === "ai" ? this.aiPlayer(p, side.spec) : undefined;
    };
    this.ais = [ai(0), ai(1)];
    this.moves = [
      Effect.runSync(Queue.unbounded<Pending>()),
      Effect.runSync(Queue.unbounded<Pending>()),
    ];
  }

  /** The seat a token holds in this room, if any. */
  seat(token: string | null): Seat | undefined {
    return token === null ? undefined : this.seats.get(token);
  }

  /** What the room stores of itself, as it is now (read back by `RoomSetup.restored`). */
  saved(): SavedRoom {
    const session = this.session;
    const numbers = transcriptNumbers(session);
    return {
      id: this.id,
      game: this.offered.entry.id,
      transcript: exportTranscript(session),
      seats: [...this.seats.values()],
      createdAt: this.createdAt,
      opened: this.opened,
      ended: this.ended,
      stopped: session.result !== undefined && this.stoppedAt === session.current,
      paused: this.paused,
      speed: this.speed,
      annotations: [...this.annotations].map(([id, a]) => [numbers.get(id) ?? id, a] as const),
      ...(this.lobby !== undefined ? { lobby: this.lobby } : {}),
      ...(this.loaded ? { loaded: true } : {}),
    };
  }

  /** True while a game between people goes on (see `contest`). */
  live(): boolean {
    return this.contest && !this.ended;
  }

  /** True when the game is over (or stopped for good by its plugin's fault). */
  finished(): boolean {
    try {
      return isOver(this.game, this.state) ||
        (this.session.result !== undefined && this.stoppedAt === this.session.current);
    } catch {
      return true;
    }
  }

  /** True when a side is played by a person. */
  private human(p: Player): boolean {
    return this.sides[p].kind === "human";
  }

  // ---------------------------------------------------------------------------
  // The loop

  /**
   * The room's life: runs the runner on the session whenever the game can go on, applies
   * the controls between runs, and waits otherwise. Never ends by itself; interrupting
   * it (closing the room's scope) stops everything the room runs.
   */
  run(): Effect.Effect<never> {
    return Effect.gen({ self: this }, function* () {
      // deno-lint-ignore no-this-alias
      const self = this;
      self.fork = yield* FiberSet.makeRuntime<never, unknown, unknown>();
      for (const e of self.waiting.splice(0)) self.fork(e);
      while (true) {
        self.applyControls();
        self.broadcast();
        if (self.canRun()) {
          self.interrupt = Deferred.makeUnsafe<void>();
          const played = yield* runGame(self.game, [self.agent(0), self.agent(1)], {
            gameId: self.session.game,
            options: self.session.options,
            seed: self.session.seed,
            session: self.session,
            interruption: Deferred.await(self.interrupt),
            onEvent: (e) =>
              Effect.sync(() => {
                if (e._tag === "Moved") {
                  self.noteMove(self.session.current, e.before, e.move, e.state);
                  self.state = e.state;
                  self.before = e.before;
                  self.positionChanged();
                }
              }),
          });
          self.thinking = null;
          self.state = played.final;
          if (played.transcript.result.reason === "interrupted") delete self.session.result;
          else {
            self.stoppedAt = self.session.current;
            if (played.fault !== undefined) self.report(played.fault);
            self.positionChanged();
          }
        } else {
          self.wake = Deferred.makeUnsafe<void>();
          if (self.controls.length === 0) yield* Deferred.await(self.wake);
        }
      }
    }).pipe(Random.withSeed(this.session.seed), Effect.scoped) as Effect.Effect<never>;
  }

  /** Runs an effect in the room's scope (it ends when the room closes). */
  spawn(effect: Effect.Effect<unknown, unknown>): void {
    if (this.fork === undefined) this.waiting.push(effect);
    else this.fork(effect);
  }

  /** Writes a plugin's fault (or a search's error) to standard error, once per fault. */
  private report(e: PluginFault | SearchError): void {
    const line = `ply serve: room ${this.id}: ${faultLine(e)}`;
    if (this.reported.has(line)) return;
    this.reported.add(line);
    console.error(line);
  }

  /** True when the runner has something to do: a browser watches and the game goes on. */
  private canRun(): boolean {
    if (this.conns.size === 0) return false;
    if (this.paused && this.game.toMove(this.state) === CHANCE) return false;
    if (this.stoppedAt === this.session.current && this.session.result !== undefined) return false;
    return !isOver(this.game, this.state) || this.stoppedAt !== this.session.current;
  }

  /** The player Effect of a side. */
  private agent(p: Player): Agent<unknown> {
    const name = this.session.players[p];
    const ai = this.ais[p];
    if (ai === undefined) {
      return {
        name,
        human: true,
        choose: (_game, state) =>
          Effect.andThen(Effect.sync(() => this.clockStarts(p)), this.takeMove(p, state)),
      };
    }
    return {
      name,
      choose: (game, state, clock) =>
        Effect.gen({ self: this }, function* () {
          this.clockStarts(p);
          // AIs against each other play at the speed the watchers set (in a clocked game,
          // the clocks set it: a pause would be the AI's own time).
          if (!this.human(0) && !this.human(1) && this.speed > 0 && clock === undefined) {
            yield* Effect.sleep(this.speed);
          }
          if (this.paused) {
            // Stopped: wait for Resume, or for a person to move for the AI.
            const first = yield* Effect.raceFirst(
              Effect.as(Deferred.await(this.resumed), Option.none<Choice>()),
              Effect.map(this.takeMove(p, state), Option.some),
            );
            if (Option.isSome(first)) return first.value;
          }
          return yield* this.think(p, game, state, ai, clock);
        }),
    };
  }

  /** A side's turn begins: in a clocked game its clock runs from now (shown to everyone). */
  private clockStarts(p: Player): void {
    if (this.session.clock === undefined) return;
    this.turn = { node: this.session.current, side: p, at: this.now() };
    this.broadcast();
  }

  /** The clocks as a page shows them, in a clocked game. */
  private clockState(): ClockState | undefined {
    const control = this.session.clock;
    if (control === undefined) return undefined;
    const turn = this.turn;
    const running = turn !== undefined && turn.node === this.session.current &&
        this.session.result === undefined
      ? turn
      : undefined;
    return {
      text: describeClock(control),
      left: [timeLeft(this.session, 0), timeLeft(this.session, 1)],
      running: running?.side ?? null,
      elapsed: running === undefined ? 0 : Math.max(0, this.now() - running.at),
    };
  }

  /** An AI's player, its time per move capped by the room's limit; progress to every browser. */
  private aiPlayer(p: Player, spec: AiSpec): Agent<unknown, Terminal> {
    const capped: PlayerSpec = spec.kind === "random"
      ? spec
      : { ...spec, timeMs: Math.min(spec.timeMs ?? this.limits.aiMs, this.limits.aiMs) };
    return agentFromSpec(capped, this.offered.strategies, {
      source: this.source,
      // A person's opponent goes ahead of the searches of games between AIs.
      priority: this.human(0) || this.human(1),
      onProgress: (progress: Progress) => {
        if (progress._tag !== "Iteration" || this.thinking !== p) return;
        this.lastIteration = progress.result;
        this.send({
          _tag: "Progress",
          side: p,
          node: this.session.current,
          search: searchView(this.game, this.state, progress.result, p),
        });
      },
    });
  }

  /** An AI thinks; `MoveNow` plays its best move so far. */
  private think(
    p: Player,
    game: Game<unknown>,
    state: unknown,
    player: Agent<unknown, Terminal>,
    clock: ClockView | undefined,
  ): Effect.Effect<Choice, SearchFailed> {
    return Effect.gen({ self: this }, function* () {
      this.thinking = p;
      this.lastIteration = undefined;
      this.moveNow = Deferred.makeUnsafe<void>();
      this.broadcast();
      const now = Effect.map(Deferred.await(this.moveNow), (): Choice => {
        const last = this.lastIteration;
        const move = last?.move ?? game.moves(state)[0];
        return last === undefined ? { _tag: "Move", move } : { _tag: "Move", move, search: last };
      });
      // The AI never reads the terminal: its choice needs no Terminal service.
      const choose = player.choose(game, state, clock) as Effect.Effect<Choice, SearchFailed>;
      const choice = yield* Effect.raceFirst(choose, now);
      this.thinking = null;
      return choice;
    }).pipe(Effect.onInterrupt(() => Effect.sync(() => (this.thinking = null))));
  }
  /** Waits for a legal move of side `p` from a browser that may make it. */
  private takeMove(p: Player, state: unknown): Effect.Effect<Choice> {
    return Effect.gen({ self: this }, function* () {
      while (true) {
        const pending = yield* Queue.take(this.moves[p]);
        if (pending.at !== this.session.current) {
          pending.conn.send({ _tag: "Refused", reason: "the position changed; try again" });
          continue;
        }
        if (!this.game.moves(state).includes(pending.move)) {
          pending.conn.send({ _tag: "Refused", reason: "that is not a legal move here" });
          continue;
        }
        return { _tag: "Move", move: pending.move } as const;
      }
    });
  }

  /** Replays the current node's position and the one before it (after a jump). */
  private setPosition(): void {
    const { current, nodes } = this.session;
    this.state = stateAt(this.game, this.session);
    this.before = current === 0
      ? undefined
      : stateAt(this.game, this.session, nodes[current].parent);
  }

  /** Applies the controls that came in, in order. */
  private applyControls(): void {
    const controls = this.controls;
    this.controls = [];
    for (const c of controls) {
      const human = (p: Player) => this.human(p);
      let done: boolean;
      switch (c._tag) {
        case "Undo":
          done = undo(this.game, this.session, c.by === undefined ? human : (p) => p === c.by);
          if (!done) {
            c.conn.send({ _tag: "Refused", reason: "there is no move of yours to take back" });
          }
          break;
        case "Redo":
          done = redo(this.game, this.session, human);
          if (!done) c.conn.send({ _tag: "Refused", reason: "there is nothing to replay" });
          break;
        case "GoTo":
          if (c.node >= this.session.nodes.length) {
            c.conn.send({ _tag: "Refused", reason: `there is no position ${c.node}` });
            done = false;
          } else {
            goTo(this.session, c.node);
            done = true;
          }
          break;
      }
      if (!done) continue;
      this.setPosition();
      // Jumping to where an AI is to move, or chance whose outcome is known, waits for
      // Resume (the watcher is looking back; going forward follows the known outcome).
      const tm = this.game.toMove(this.state);
      const known = tm === CHANCE && this.session.nodes[this.session.current].children.length > 0;
      const ai = tm !== CHANCE && !this.human(tm);
      if (c._tag !== "Undo" && (ai || known) && !isOver(this.game, this.state)) {
        this.paused = true;
        this.resumed = Deferred.makeUnsafe<void>();
      }
      this.positionChanged();
    }
  }

  /**
   * After the current node changed: a pending takeback request lapses, a game between
   * people that ended opens for good, the analysis follows, every browser sees it.
   */
  private positionChanged(): void {
    this.takeback = undefined;
    if (this.contest && !this.ended && this.finished()) this.ended = true;
    if (this.analysing) this.startAnalysis();
    this.broadcast();
  }

  // ---------------------------------------------------------------------------
  // Browsers

  /** A browser joins: it gets the position at once. */
  join(conn: Conn): void {
    this.conns.add(conn);
    this.opened = true;
    const lobby = this.lobby;
    if (lobby !== undefined && !lobby.taken && conn.seat === this.seats.get(lobby.seat)) {
      this.claim();
    }
    this.broadcast();
    Deferred.doneUnsafe(this.wake, Effect.void);
  }

  /** The lobby's seat is taken (someone joined from the lobby, or came by the link). */
  claim(): void {
    if (this.lobby === undefined || this.lobby.taken) return;
    this.lobby = { ...this.lobby, taken: true };
    this.onChange();
  }

  /** A browser leaves; with none left, the runner stops (its AI's search too). */
  leave(conn: Conn): void {
    this.conns.delete(conn);
    if (this.conns.size === 0) {
      this.idleSince = this.now();
      Deferred.doneUnsafe(this.interrupt, Effect.void);
      this.stopAnalysis();
    } else this.broadcast();
  }

  /**
   * Why a browser may not send a message here, or undefined when it may: the one place
   * where the room's rules on who may do what are kept.
   */
  private refusal(conn: Conn, m: ClientMessage): string | undefined {
    if (m._tag === "Explain" || m._tag === "Peek") return undefined;
    if (conn.seat === undefined) return "you are watching this game; you cannot change it";
    const live = this.live();
    switch (m._tag) {
      case "Move":
      case "Play":
        return undefined;
      case "Takeback":
      case "TakebackAnswer":
        return live ? undefined : "takebacks are asked for in a game between people only";
      case "Analyse":
        return live && m.on
          ? "no analysis while a game between people goes on (it opens when the game ends)"
          : undefined;
      case "Undo":
        return live ? "in a game between people, ask the other player for a takeback" : undefined;
      case "Redo":
      case "GoTo":
        return live
          ? "a game between people is not rewound; step back and forth on your own board"
          : undefined;
      case "Stop":
      case "Resume":
      case "MoveNow":
      case "Speed":
        return live ? "there is no AI in this game" : undefined;
    }
  }

  /** Handles one decoded message from a browser (checked by `refusal` first). */
  handle(conn: Conn, m: ClientMessage): void {
    const refuse = (reason: string) => conn.send({ _tag: "Refused", reason });
    const no = this.refusal(conn, m);
    if (no !== undefined) return refuse(no);
    switch (m._tag) {
      case "Explain":
        return refuse(this.explain(m.picks));
      case "Peek":
        return this.peek(conn, m.node);
      case "Move":
      case "Play":
        return this.move(conn, m);
      case "Takeback":
        return this.askTakeback(conn);
      case "TakebackAnswer":
        return this.answerTakeback(conn, m.accept);
      case "Undo":
      case "Redo":
        return this.control({ _tag: m._tag, conn });
      case "GoTo":
        return this.control({ _tag: "GoTo", conn, node: m.node });
      case "Stop":
        if (this.session.clock !== undefined) {
          return refuse("a clocked game cannot be stopped: the clock would run on");
        }
        this.paused = true;
        this.resumed = Deferred.makeUnsafe<void>();
        if (this.thinking !== null) Deferred.doneUnsafe(this.interrupt, Effect.void);
        return this.broadcast();
      case "Resume":
        this.paused = false;
        Deferred.doneUnsafe(this.resumed, Effect.void);
        Deferred.doneUnsafe(this.wake, Effect.void);
        return this.broadcast();
      case "MoveNow":
        if (this.thinking === null) return refuse("no AI is thinking");
        Deferred.doneUnsafe(this.moveNow, Effect.void);
        return;
      case "Analyse":
        this.analysing = m.on;
        if (m.on) this.startAnalysis();
        else this.stopAnalysis();
        return this.broadcast();
      case "Speed":
        this.speed = m.ms;
        return this.broadcast();
    }
  }

  /** The side a seat plays in a game between people (each seat plays one). */
  private sideOf(conn: Conn): Player | undefined {
    const sides = conn.seat?.sides;
    return sides?.[0] ? 0 : sides?.[1] ? 1 : undefined;
  }

  /** A player asks to take back their last move: the other player is asked. */
  private askTakeback(conn: Conn): void {
    const refuse = (reason: string) => conn.send({ _tag: "Refused", reason });
    const side = this.sideOf(conn);
    if (side === undefined) return refuse("you play no side in this game");
    if (this.takeback !== undefined) {
      return refuse(
        this.takeback === side
          ? "your takeback request waits for an answer"
          : "answer the other player's takeback request first",
      );
    }
    // Is there a move of this side to take back? (Tried on the session, then restored.)
    const at = this.session.current;
    const possible = undo(this.game, this.session, (p) => p === side);
    this.session.current = at;
    if (!possible) return refuse("there is no move of yours to take back");
    this.takeback = side;
    this.broadcast();
  }

  /** The other player answers a takeback request. */
  private answerTakeback(conn: Conn, accept: boolean): void {
    const asker = this.takeback;
    const side = this.sideOf(conn);
    if (asker === undefined || side === undefined || side === asker) {
      return conn.send({ _tag: "Refused", reason: "there is no takeback request to answer" });
    }
    this.takeback = undefined;
    const by = this.game.players[side];
    if (accept) {
      this.control({ _tag: "Undo", conn, by: asker });
    } else {
      for (const c of this.conns) {
        if (c.seat?.sides[asker] === true) {
          c.send({ _tag: "Refused", reason: `${by} declined your takeback request` });
        }
      }
      this.broadcast();
    }
  }

  /** Sends a browser the picture of a node; the game is not changed. */
  private peek(conn: Conn, id: number): void {
    const session = this.session;
    if (id >= session.nodes.length) {
      return conn.send({ _tag: "Refused", reason: `there is no position ${id}` });
    }
    try {
      const game = this.game;
      const s = stateAt(game, session, id);
      const node = session.nodes[id];
      const view = id === 0 ? {} : { last: { move: node.move, by: node.by } };
      conn.send({
        _tag: "View",
        node: id,
        ...(game.picture !== undefined ? { svg: game.picture.svg(s, view) } : {}),
        text: game.render(s, view),
      });
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
      conn.send({ _tag: "Refused", reason: `position ${id} cannot be shown: ${e.message}` });
    }
  }

  /** A control: recorded, and the runner interrupted so that the loop applies it. */
  private control(c: Control): void {
    this.controls.push(c);
    Deferred.doneUnsafe(this.interrupt, Effect.void);
    Deferred.doneUnsafe(this.wake, Effect.void);
  }

  /** A move from a browser: checked, then handed to the runner through the side's queue. */
  private move(
    conn: Conn,
    m: Extract<ClientMessage, { readonly _tag: "Move" | "Play" }>,
  ): void {
    const refuse = (reason: string) => conn.send({ _tag: "Refused", reason });
    if (m.at !== this.session.current) return refuse("the position changed; try again");
    const tm = this.game.toMove(this.state);
    if (tm === CHANCE || isOver(this.game, this.state)) return refuse("no one is to move here");
    const mine = conn.seat?.sides[tm] === true;
    const forAi = !this.human(tm) && this.paused;
    if (!mine && !forAi) {
      return refuse(
        this.human(tm) ? `it is ${this.game.players[tm]}'s move` : "the AI is to move",
      );
    }
    let move: number;
    if (m._tag === "Play") {
      const parsed = this.game.parseMove(this.state, m.text);
      if (parsed._tag === "Failure") return refuse(parsed.failure);
      move = parsed.success;
    } else move = m.move;
    if (!this.game.moves(this.state).includes(move)) {
      return refuse("that is not a legal move here");
    }
    Queue.offerUnsafe(this.moves[tm], { conn, at: m.at, move });
  }

  /** Why a sequence of picks makes no legal move here. */
  private explain(picks: readonly string[]): string {
    const generic = "not a legal move here";
    const picture = this.game.picture;
    if (picture?.refuse === undefined) return generic;
    try {
      return picture.refuse(this.state, picks) ?? generic;
    } catch {
      return generic;
    }
  }

  // ---------------------------------------------------------------------------
  // The engine's analysis

  private startAnalysis(): void {
    this.stopAnalysis();
    if (this.live()) {
      // Never while people play each other (the Analyse message is refused too).
      this.analysing = false;
      return;
    }
    if (this.fork === undefined || isOver(this.game, this.state)) return;
    this.analysis = this.fork(this.analyse(this.session.current, this.state));
  }

  private stopAnalysis(): void {
    if (this.analysis !== undefined) {
      const fiber = this.analysis;
      this.analysis = undefined;
      this.fork?.(Fiber.interrupt(fiber));
    }
  }

  /**
   * Analyses a position: first, when every legal move can be solved within a small
   * budget, a verdict per move (win / draw / loss for the mover); then iterative
   * deepening that streams its iterations.
   */
  private analyse(node: number, state: unknown): Effect.Effect<void> {
    const game = this.game;
    const mover = moverOf(game, state);
    const exactStrategy = this.offered.strategies.solve ?? alphabetaStrategy;
    return Effect.gen({ self: this }, function* () {
      let verdicts: { move: number; verdict: "win" | "draw" | "loss" }[] | undefined;
      const legal = game.toMove(state) === CHANCE ? [] : game.moves(state);
      if (legal.length > 0 && legal.length <= 64) {
        const each = Math.max(50, Math.floor(2000 / legal.length));
        const found: typeof verdicts = [];
        for (const m of legal) {
          const child = game.play(state, m);
          const r = yield* search({
            strategy: exactStrategy,
            game,
            source: this.source,
            state: child,
            options: { timeMs: each, distance: true },
          });
          if (!r.exact) break;
          const v = mover === 0 ? r.value : -r.value;
          found.push({ move: m, verdict: v > 0 ? "win" : v < 0 ? "loss" : "draw" });
        }
        if (found.length === legal.length) verdicts = found;
      }
      yield* search({
        strategy: alphabetaStrategy,
        game,
        source: this.source,
        state,
        options: { timeMs: this.limits.analysisMs, distance: true },
      }, (p) => {
        if (p._tag !== "Iteration") return;
        this.send({
          _tag: "Analysis",
          node,
          search: searchView(game, state, p.result, mover),
          ...(verdicts !== undefined ? { verdicts } : {}),
        });
      });
    }).pipe(Effect.ignore);
  }

  // ---------------------------------------------------------------------------
  // Messages

  /** Sends a message to every browser. */
  private send(m: ServerMessage): void {
    for (const c of this.conns) c.send(m);
  }

  /** Sends every browser its view of the position (and has the room stored again). */
  broadcast(): void {
    this.onChange();
    const shared = this.shared();
    for (const c of this.conns) {
      const p = this.position(c, shared);
      // A position that changed nothing for this browser is not sent again.
      const text = JSON.stringify({ ...p, nodes: undefined });
      if (p.nodes.length === 0 && this.lastSent.get(c) === text) continue;
      this.lastSent.set(c, text);
      c.send(p);
    }
  }

  /** The tree as the move list shows it. */
  private nodeView(id: number): NodeView {
    const n = this.session.nodes[id];
    const review = this.annotations.get(id);
    const note = this.noteOf(id);
    return {
      id,
      parent: n.parent,
      move: n.move,
      notation: n.notation,
      ...(note !== "" ? { note } : {}),
      by: n.by,
      children: n.children,
      ...(n.search !== undefined && n.by !== CHANCE ? { search: infoView(n.search, n.by) } : {}),
      ...(review !== undefined ? { review } : {}),
    };
  }

  /**
   * The nodes a browser has not seen as they are: all of them the first time, then the
   * new ones, their parents (whose children changed) and the newly reviewed ones. A long
   * game (2048's thousands of moves) so costs each message only what changed.
   */
  private nodeViews(conn: Conn): { nodes: NodeView[]; full: boolean } {
    const total = this.session.nodes.length;
    const seen = this.seen.get(conn);
    this.seen.set(conn, { nodes: total, reviews: this.reviewed.length });
    if (seen === undefined) {
      return { nodes: this.session.nodes.map((_, id) => this.nodeView(id)), full: true };
    }
    const ids = new Set<number>();
    for (let id = seen.nodes; id < total; id++) {
      ids.add(id);
      const parent = this.session.nodes[id].parent;
      if (parent >= 0) ids.add(parent);
    }
    for (const id of this.reviewed.slice(seen.reviews)) ids.add(id);
    return { nodes: [...ids].sort((a, b) => a - b).map((id) => this.nodeView(id)), full: false };
  }

  /**
   * The game's words on node `id`'s move (`describeMove`; "" for none), asked once per
   * node in the room's thread: as the move is played, or, for nodes the room did not
   * see played (a loaded or restored game), for the whole tree at once.
   */
  private noteOf(id: number): string {
    if (id === 0 || this.game.describeMove === undefined) return "";
    const known = this.notes.get(id);
    if (known !== undefined) return known;
    try {
      // Depth first, without recursion: a game of 2048 is thousands of moves deep.
      const stack: [number, unknown][] = [[0, this.game.initial()]];
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        const [node, s] = top;
        for (const child of this.session.nodes[node].children) {
          const m = this.session.nodes[child].move;
          const after = this.game.play(s, m);
          if (!this.notes.has(child)) this.noteMove(child, s, m, after);
          stack.push([child, after]);
        }
      }
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
      this.report(e);
    }
    if (!this.notes.has(id)) this.notes.set(id, "");
    return this.notes.get(id) ?? "";
  }

  /** Keeps the game's words on node `id`'s move `m`, played from `before` to `after`. */
  private noteMove(id: number, before: unknown, m: number, after: unknown): void {
    try {
      this.notes.set(id, this.game.describeMove?.(before, m, after) || "");
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
      this.notes.set(id, "");
    }
  }

  /** Records review's verdict on a node's move (shown to every browser). */
  annotate(id: number, annotation: Annotation): void {
    this.annotations.set(id, annotation);
    this.reviewed.push(id);
    this.broadcast();
  }

  /**
   * What every browser's view of the position shares (computed once per change). Where
   * the game's plugin fails (the position its game failed at: a page asks for its moves
   * again), the view says so and asks the game nothing.
   */
  private shared(): Shared {
    try {
      return this.sharedView();
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
      this.report(e);
      const session = this.session;
      const result = session.result?.reason === "error"
        ? session.result
        : { winner: null, margin: 0, reason: "error" as const, error: e.message };
      return {
        tm: null,
        legal: [],
        fields: {
          ...this.roomFields(),
          text: `(the position cannot be shown: ${e.message})`,
          toMove: null,
          result: { ...result, text: resultText(this.game, result) },
        },
      };
    }
  }

  /**
   * `shared`, asking the game once per position: a room broadcasts a position more than
   * once (a move, then the AI's thinking), and each call into the game's plugin thread is a
   * round trip the server's main thread waits for.
   */
  private sharedView(): Shared {
    const game = this.game;
    const s = this.state;
    const session = this.session;
    const of = [s, this.before, session.current, session.result, this.stoppedAt];
    const known = this.lastView;
    if (known !== undefined && known.of.every((k, i) => k === of[i])) {
      return { tm: known.tm, legal: known.legal, fields: { ...this.roomFields(), ...known.game } };
    }
    const node = session.nodes[session.current];
    const over = isOver(game, s);
    const tm = over ? null : game.toMove(s);
    const legal: LegalMove[] = tm === null || tm === CHANCE ? [] : game.moves(s).map((m) => ({
      move: m,
      notation: game.formatMove(s, m),
      picks: game.picture?.picks(s, m) ?? [],
    }));
    const view = session.current === 0 ? {} : { last: { move: node.move, by: node.by } };
    const note = this.before === undefined
      ? undefined
      : game.describeMove?.(this.before, node.move, s);
    const outcome = over ? game.outcome(s) : undefined;
    const result = outcome !== undefined
      ? { winner: outcome.winner, margin: outcome.margin, reason: "end" }
      : session.result !== undefined && session.current === this.stoppedAt
      ? session.result
      : undefined;
    const answers: GameFields = {
      ...(game.picture !== undefined ? { svg: game.picture.svg(s, view) } : {}),
      text: game.render(s, view),
      toMove: tm,
      ...(note ? { lastNote: note } : {}),
      ...(result !== undefined ? { result: { ...result, text: resultText(game, result) } } : {}),
      ...decisiveOf(game, s, over),
    };
    this.lastView = { of, tm, legal, game: answers };
    return { tm, legal, fields: { ...this.roomFields(), ...answers } };
  }

  /** What a view of the position says of the room, whatever the game answers. */
  private roomFields(): Omit<Shared["fields"], keyof GameFields> {
    const session = this.session;
    return {
      game: this.id,
      kind: this.offered.entry.id,
      options: session.options,
      seed: session.seed,
      players: session.players,
      ...(this.loaded ? { loaded: true } : {}),
      current: session.current,
      thinking: this.thinking,
      paused: this.paused,
      speed: this.speed,
      analysing: this.analysing,
      watchers: this.conns.size,
      pause: !this.human(0) && !this.human(1) && this.session.clock === undefined,
      ...(this.session.clock !== undefined ? { clock: this.clockState() } : {}),
    };
  }

  /** The position as one browser sees it: its sides, its moves, the nodes it lacks. */
  private position(conn: Conn, shared: Shared): Position {
    const { tm, legal, fields } = shared;
    const canMove = tm !== null && tm !== CHANCE &&
      (conn.seat?.sides[tm] === true ||
        (!this.human(tm) && this.paused && conn.seat !== undefined));
    return {
      _tag: "Position",
      ...fields,
      mine: [conn.seat?.sides[0] === true, conn.seat?.sides[1] === true],
      control: conn.seat !== undefined && !this.live(),
      live: this.live(),
      ...(this.takeback !== undefined ? { takeback: this.takeback } : {}),
      ...this.nodeViews(conn),
      nodeCount: this.session.nodes.length,
      legal: canMove ? legal : [],
    };
  }
}
