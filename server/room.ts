/**
 * One game on the server, as an actor: one mailbox of commands (`RoomCommand`), its state
 * one value (`RoomState`, `room_state.ts`) replaced as each command is applied, and what
 * browsers see published from that value after each command (`room_view.ts`). Nothing
 * else changes the room: the browsers' messages, a review's verdicts, and the room's own
 * fibers (its runner, its AI's progress, its analysis) all come in as commands, in
 * order, so the room can be driven and tested without sockets (`sync` waits until every
 * command sent before it is applied).
 *
 * The runner is the match runner (`runGame`) on the session, in a fiber of its own: a
 * person is one more player Effect, whose move the room hands over when a browser that
 * holds the seat sends it; an AI is a search player whose search runs in the engine
 * service. The runner asks the room what it needs (a person's move, whether a stopped AI
 * may think, the move `MoveNow` plays) and reports each move, waiting until the room has
 * applied it. Taking back, replaying and jumping interrupt the runner (its AI's search
 * with it), change the session and start it again from there.
 *
 * Everything in a room lives in the room's scope: closing the room (its last browser
 * gone for a while, or the server stopping) interrupts its loop, its runner and its
 * analysis, and nothing else.
 *
 * @module
 */
import { Deferred, Effect, Fiber, Queue, Random } from "../core/deps.ts";
import { FiberSet } from "./deps.ts";
import { CHANCE, type Game, isOver, type Player } from "../core/game.ts";
import { type Played, runGame } from "../app/match.ts";
import { type Agent, agentFromSpec, type Choice } from "../app/players/agents.ts";
import type { PlayerSpec } from "../app/players/spec.ts";
import type { Terminal } from "../app/terminal.ts";
import type { SearchResult } from "../core/search/types.ts";
import { PluginFault, type SearchError, type SearchFailed } from "../core/errors.ts";
import type { GameSource } from "../core/source.ts";
import { type Progress, search } from "../core/engine/engine.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { goTo, redo, type Session, stateAt, undo } from "../app/session.ts";
import type { Offered } from "./catalog.ts";
import type { ClientMessage, GameEntry, SearchView } from "./protocol.ts";
import type { ClockView } from "../app/clock.ts";
import { exportTranscript, transcriptNumbers } from "../app/transcript.ts";
import type { LobbySeat, SavedRoom } from "./store.ts";
import {
  type AiSpec,
  type Annotation,
  canRun,
  type Conn,
  type Control,
  isFinished,
  isHuman,
  isLive,
  refusal,
  type RoomFacts,
  type RoomState,
  type Seat,
  type Side,
  sideOf,
} from "./room_state.ts";
import { faultLine, moverOf, RoomPublisher, searchView } from "./room_view.ts";

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

/** What a room is told from outside: by the browsers (through the server) and by a review. */
export type RoomCommand =
  /** A browser joins: it gets the position at once. */
  | { readonly _tag: "Join"; readonly conn: Conn }
  /** A browser leaves; with none left, the runner stops (its AI's search too). */
  | { readonly _tag: "Leave"; readonly conn: Conn }
  /** A browser's message (decoded), checked by `refusal` first. */
  | { readonly _tag: "Message"; readonly conn: Conn; readonly message: ClientMessage }
  /** The lobby's seat is taken (someone joined from the lobby, or came by the link). */
  | { readonly _tag: "Claim" }
  /** Review's verdict on a node's move (shown to every browser). */
  | { readonly _tag: "Annotate"; readonly node: number; readonly annotation: Annotation }
  /** Completes `done` once every command sent before it is applied. */
  | { readonly _tag: "Sync"; readonly done: Deferred.Deferred<void> };

/** What a room is told by its own fibers: its runner, its AIs' searches, its analysis. */
type Internal =
  /** The runner played a move into the session; `done` lets it go on once applied. */
  | {
    readonly _tag: "Moved";
    readonly node: number;
    readonly before: unknown;
    readonly move: number;
    readonly state: unknown;
    readonly done: Deferred.Deferred<void>;
  }
  /** Run `run` of the runner ended (interrupted, or the game stopped there). */
  | { readonly _tag: "Ran"; readonly run: number; readonly played: Played<unknown> }
  /** A side's turn begins (its clock runs from now). */
  | { readonly _tag: "Turn"; readonly side: Player }
  /** The runner asks for a side's move (`Asked`). */
  | { readonly _tag: "Ask"; readonly asked: Asked }
  /** Think `think` of an AI begins; `now` gets the move `MoveNow` plays. */
  | {
    readonly _tag: "Thinking";
    readonly run: number;
    readonly side: Player;
    readonly think: number;
    readonly now: Deferred.Deferred<Choice>;
  }
  /** An iteration of think `think`'s search completed. */
  | { readonly _tag: "Iteration"; readonly think: number; readonly result: SearchResult }
  /** Analysis `analysis` of node `node` found `search` (and maybe a verdict per move). */
  | {
    readonly _tag: "Analysed";
    readonly analysis: number;
    readonly node: number;
    readonly search: SearchView;
    readonly verdicts?: readonly { move: number; verdict: "win" | "draw" | "loss" }[];
  };

/**
 * The runner's question for a side's move. For a person: their move. For an AI (`ai`):
 * undefined when it may think now, or, while the AIs are stopped, a person's move for it.
 */
interface Asked {
  /** The runner's run that asks (a question of an interrupted run lapses). */
  readonly run: number;
  readonly side: Player;
  readonly ai: boolean;
  readonly reply: Deferred.Deferred<Choice | undefined>;
}

/** Answers the runner's question. */
const answer = (asked: Asked, choice: Choice | undefined): void => {
  Deferred.doneUnsafe(asked.reply, Effect.succeed(choice));
};

/** A `Refused` reply's words. */
const refused = (conn: Conn, reason: string): void => conn.send({ _tag: "Refused", reason });

/** A game on the server (see the module's doc). */
export class Room {
  /** The room's id. */
  readonly id: string;
  /** The game. */
  readonly game: Game<unknown>;
  /** The session (the runner plays into it; the controls move in it). */
  readonly session: Session;
  /** When the room was made (ms since the epoch). */
  readonly createdAt: number;
  /** What never changes in the room. */
  private readonly facts: RoomFacts;
  /** The room's state now. */
  private state: RoomState;
  /** The state last published (`settle`). */
  private published: RoomState | undefined;
  /** The commands to apply, in order. */
  private readonly mailbox: Queue.Queue<RoomCommand | Internal>;
  private readonly publisher: RoomPublisher;
  private readonly offered: RoomOffer;
  private readonly source: GameSource;
  private readonly seats: Map<string, Seat>;
  private readonly limits: RoomLimits;
  private readonly now: () => number;
  private readonly onChange: () => void;
  /** The AI players (none for a person's side), made once so each keeps its table. */
  private readonly ais: readonly [Agent<unknown, Terminal>?, Agent<unknown, Terminal>?];
  /** The runner's run now: its number and what interrupts it. */
  private running:
    | { readonly run: number; readonly interrupt: Deferred.Deferred<void> }
    | undefined;
  private runs = 0;
  /** The runner's questions waiting for an answer, by side. */
  private asked: [Asked | undefined, Asked | undefined] = [undefined, undefined];
  /** What the thinking AI's `MoveNow` completes. */
  private moveNow: Deferred.Deferred<Choice> | undefined;
  /** The number of the AI's think now (its progress names it). */
  private thinks = 0;
  /** The analysis now: its number and fiber. */
  private analysis: { readonly id: number; readonly fiber: Fiber.Fiber<unknown> } | undefined;
  private analyses = 0;
  /** Runs an effect in the room's scope (set when `run` starts). */
  private fork: (<A, E>(e: Effect.Effect<A, E>) => Fiber.Fiber<A, E>) | undefined;
  /** Effects to run in the room's scope once it runs. */
  private readonly waiting: Effect.Effect<unknown, unknown>[] = [];
  /** The faults written to standard error (each once). */
  private readonly reported: Set<string> = new Set();

  constructor(setup: RoomSetup) {
    this.id = setup.id;
    this.offered = setup.offered;
    this.game = setup.game;
    this.source = setup.source;
    this.session = setup.session;
    this.seats = new Map(setup.seats.map((s) => [s.token, s]));
    this.limits = setup.limits;
    this.now = setup.now ?? Date.now;
    this.onChange = setup.onChange ?? (() => {});
    const r = setup.restored;
    this.createdAt = r?.createdAt ?? setup.createdAt ?? this.now();
    const sides = setup.sides;
    this.facts = {
      id: setup.id,
      kind: setup.offered.entry.id,
      game: setup.game,
      session: setup.session,
      sides,
      loaded: setup.loaded === true || r?.loaded === true,
      contest: sides.every((s) => s.kind === "human") &&
        setup.seats.every((s) => !(s.sides[0] && s.sides[1])) &&
        setup.seats.filter((s) => s.sides[0] || s.sides[1]).length === 2,
    };
    this.state = {
      conns: new Set(),
      ...this.positionAt(),
      opened: r?.opened ?? false,
      idleSince: this.now(),
      paused: r?.paused ?? false,
      speed: r?.speed ?? 400,
      thinking: undefined,
      stoppedAt: r?.stopped === true ? this.session.current : -1,
      analysing: false,
      ended: r?.ended ?? false,
      takeback: undefined,
      lobby: r?.lobby ?? setup.lobby,
      turn: undefined,
      annotations: new Map(r?.annotations ?? []),
      controls: [],
      pending: [undefined, undefined],
    };
    this.publisher = new RoomPublisher(this.facts, this.now, (e) => this.report(e));
    const ai = (p: Player) => {
      const side = sides[p];
      return side.kind === "ai" ? this.aiPlayer(side.spec) : undefined;
    };
    this.ais = [ai(0), ai(1)];
    this.mailbox = Effect.runSync(Queue.unbounded<RoomCommand | Internal>());
  }

  /** Sends the room a command (applied in order by its loop, `run`). */
  post(command: RoomCommand): void {
    this.tell(command);
  }

  /** Waits until every command sent before it is applied (what tests wait on). */
  sync(): Effect.Effect<void> {
    return this.ask((done) => ({ _tag: "Sync", done }));
  }

  /** The seat a token holds in this room, if any. */
  seat(token: string | null): Seat | undefined {
    return token === null ? undefined : this.seats.get(token);
  }

  /** What the room stores of itself, as it is now (read back by `RoomSetup.restored`). */
  saved(): SavedRoom {
    const { session, state: s } = this;
    const numbers = transcriptNumbers(session);
    return {
      id: this.id,
      game: this.offered.entry.id,
      transcript: exportTranscript(session),
      seats: [...this.seats.values()],
      createdAt: this.createdAt,
      opened: s.opened,
      ended: s.ended,
      stopped: session.result !== undefined && s.stoppedAt === session.current,
      paused: s.paused,
      speed: s.speed,
      annotations: [...s.annotations].map(([id, a]) => [numbers.get(id) ?? id, a] as const),
      ...(s.lobby !== undefined ? { lobby: s.lobby } : {}),
      ...(this.facts.loaded ? { loaded: true } : {}),
    };
  }

  /** True when the game is over (or stopped for good by its plugin's fault). */
  finished(): boolean {
    return isFinished(this.facts, this.state);
  }

  /** Runs an effect in the room's scope (it ends when the room closes). */
  spawn(effect: Effect.Effect<unknown, unknown>): void {
    if (this.fork === undefined) this.waiting.push(effect);
    else this.fork(effect);
  }

  // ---------------------------------------------------------------------------
  // The loop

  /**
   * The room's life: applies its commands one at a time, in order. Never ends by itself;
   * interrupting it (closing the room's scope) stops everything the room runs.
   */
  run(): Effect.Effect<never> {
    return Effect.gen({ self: this }, function* () {
      this.fork = yield* FiberSet.makeRuntime<never, unknown, unknown>();
      for (const e of this.waiting.splice(0)) this.fork(e);
      this.settle();
      while (true) this.apply(yield* Queue.take(this.mailbox));
    }).pipe(Random.withSeed(this.session.seed), Effect.scoped) as Effect.Effect<never>;
  }

  /** Puts a command in the mailbox. */
  private tell(command: RoomCommand | Internal): void {
    Queue.offerUnsafe(this.mailbox, command);
  }

  /** Sends a command that carries a reply, and waits for the reply. */
  private ask<A>(
    make: (reply: Deferred.Deferred<A>) => RoomCommand | Internal,
  ): Effect.Effect<A> {
    return Effect.suspend(() => {
      const reply = Deferred.makeUnsafe<A>();
      this.tell(make(reply));
      return Deferred.await(reply);
    });
  }

  /** Replaces the state with `patch` applied. */
  private set(patch: Partial<RoomState>): void {
    this.state = { ...this.state, ...patch };
  }

  /** Applies one command, then starts the runner if it can go on and publishes the state. */
  private apply(c: RoomCommand | Internal): void {
    try {
      this.applyOne(c);
    } catch (e) {
      // The game's plugin failed answering (its rules at this position): the room says so
      // and goes on; what the page sees of the position says it too.
      if (!(e instanceof PluginFault)) throw e;
      this.report(e);
      if (c._tag === "Message") refused(c.conn, `the game failed: ${e.message}`);
    }
    if (c._tag !== "Iteration" && c._tag !== "Analysed" && c._tag !== "Sync") this.settle();
    if (c._tag === "Sync") Deferred.doneUnsafe(c.done, Effect.void);
  }

  /** Between runs of the runner: the controls applied, the runner started where it can. */
  private settle(): void {
    if (this.running === undefined) {
      this.applyControls();
      let go: boolean;
      try {
        go = canRun(this.facts, this.state);
      } catch (e) {
        if (!(e instanceof PluginFault)) throw e;
        this.report(e);
        go = false;
      }
      if (go) this.startRun();
    }
    // The state is a value: when no command changed it, there is nothing new to publish.
    if (this.state === this.published) return;
    this.published = this.state;
    this.publish();
  }

  private applyOne(c: RoomCommand | Internal): void {
    switch (c._tag) {
      case "Join":
        return this.join(c.conn);
      case "Leave":
        return this.leave(c.conn);
      case "Message":
        return this.handle(c.conn, c.message);
      case "Claim":
        return this.claim();
      case "Annotate":
        return this.set({ annotations: new Map(this.state.annotations).set(c.node, c.annotation) });
      case "Sync":
        return;
      case "Moved":
        return this.moved(c);
      case "Ran":
        return this.ran(c.run, c.played);
      case "Turn":
        if (this.session.clock === undefined) return;
        return this.set({ turn: { node: this.state.node, side: c.side, at: this.now() } });
      case "Ask":
        return this.asking(c.asked);
      case "Thinking":
        if (this.running?.run !== c.run) return;
        this.moveNow = c.now;
        return this.set({ thinking: { side: c.side, think: c.think, last: undefined } });
      case "Iteration":
        return this.iteration(c.think, c.result);
      case "Analysed":
        if (this.analysis?.id !== c.analysis) return;
        return this.send({
          _tag: "Analysis",
          node: c.node,
          search: c.search,
          ...(c.verdicts !== undefined ? { verdicts: c.verdicts } : {}),
        });
    }
  }

  /** Writes a plugin's fault (or a search's error) to standard error, once per fault. */
  private report(e: PluginFault | SearchError): void {
    const line = `ply serve: room ${this.id}: ${faultLine(e)}`;
    if (this.reported.has(line)) return;
    this.reported.add(line);
    console.error(line);
  }

  // ---------------------------------------------------------------------------
  // The runner

  /** Starts a run of the runner from the current node. */
  private startRun(): void {
    if (this.fork === undefined) return;
    const run = ++this.runs;
    const interrupt = Deferred.makeUnsafe<void>();
    this.running = { run, interrupt };
    const session = this.session;
    this.fork(
      Effect.flatMap(
        runGame(this.game, [this.agent(0, run), this.agent(1, run)], {
          gameId: session.game,
          options: session.options,
          seed: session.seed,
          session,
          interruption: Deferred.await(interrupt),
          onEvent: (e) =>
            e._tag === "Moved"
              ? this.ask<void>((done) => ({
                _tag: "Moved",
                node: session.current,
                before: e.before,
                move: e.move,
                state: e.state,
                done,
              }))
              : Effect.void,
        }),
        (played) => Effect.sync(() => this.tell({ _tag: "Ran", run, played })),
      ),
    );
  }

  /** Interrupts the runner's run, if it runs (its questions lapse with it). */
  private interruptRun(): void {
    if (this.running !== undefined) Deferred.doneUnsafe(this.running.interrupt, Effect.void);
    this.asked = [undefined, undefined];
    this.moveNow = undefined;
  }

  /** The runner played a move: the room follows it, then lets the runner go on. */
  private moved(c: Extract<Internal, { _tag: "Moved" }>): void {
    this.publisher.noteMove(c.node, c.before, c.move, c.state);
    this.moveNow = undefined;
    this.set({
      node: c.node,
      nodes: this.session.nodes.length,
      position: c.state,
      before: c.before,
      thinking: undefined,
    });
    this.positionChanged();
    Deferred.doneUnsafe(c.done, Effect.void);
  }

  /** A run of the runner ended: interrupted (the room goes on from here) or stopped for good. */
  private ran(run: number, played: Played<unknown>): void {
    if (this.running?.run !== run) return;
    this.running = undefined;
    this.interruptRun();
    this.set({
      node: this.session.current,
      nodes: this.session.nodes.length,
      position: played.final,
      thinking: undefined,
    });
    if (played.transcript.result.reason === "interrupted") delete this.session.result;
    else {
      this.set({ stoppedAt: this.session.current });
      if (played.fault !== undefined) this.report(played.fault);
      this.positionChanged();
    }
  }

  /** The runner asks for a side's move: answered now, or when a browser sends it. */
  private asking(asked: Asked): void {
    if (this.running?.run !== asked.run) return;
    const p = asked.side;
    if (asked.ai && !this.state.paused) {
      return answer(asked, undefined);
    }
    const pending = this.state.pending[p];
    if (pending !== undefined) {
      this.setPending(p, undefined);
      if (this.usable(pending.at, pending.move)) {
        return answer(asked, { _tag: "Move", move: pending.move });
      }
      refused(pending.conn, "the position changed; try again");
    }
    this.asked[p] = asked;
  }

  /** True when `move` made at node `at` can be played now. */
  private usable(at: number, move: number): boolean {
    return at === this.state.node && this.game.moves(this.state.position).includes(move);
  }

  private setPending(p: Player, pending: RoomState["pending"][number]): void {
    const next: [typeof pending, typeof pending] = [...this.state.pending];
    next[p] = pending;
    this.set({ pending: next });
  }

  /** An iteration of the thinking AI's search: kept for `MoveNow`, sent to every browser. */
  private iteration(think: number, result: SearchResult): void {
    const thinking = this.state.thinking;
    if (thinking === undefined || thinking.think !== think) return;
    this.set({ thinking: { ...thinking, last: result } });
    this.send({
      _tag: "Progress",
      side: thinking.side,
      node: this.state.node,
      search: searchView(this.game, this.state.position, result, thinking.side),
    });
  }

  /** The player Effect of a side in run `run`: it asks the room for its move. */
  private agent(p: Player, run: number): Agent<unknown> {
    const name = this.session.players[p];
    const ai = this.ais[p];
    const ask = (isAi: boolean) =>
      this.ask<Choice | undefined>((reply) => ({
        _tag: "Ask",
        asked: { run, side: p, ai: isAi, reply },
      }));
    if (ai === undefined) {
      return {
        name,
        human: true,
        choose: () =>
          Effect.gen({ self: this }, function* () {
            this.tell({ _tag: "Turn", side: p });
            return (yield* ask(false))!;
          }),
      };
    }
    return {
      name,
      choose: (game, state, clock) =>
        Effect.gen({ self: this }, function* () {
          this.tell({ _tag: "Turn", side: p });
          // AIs against each other play at the speed the watchers set (in a clocked game,
          // the clocks set it: a pause would be the AI's own time).
          const speed = this.state.speed;
          if (!isHuman(this.facts, 0) && !isHuman(this.facts, 1) && speed > 0 && !clock) {
            yield* Effect.sleep(speed);
          }
          // Stopped, the room answers on Resume, or with a person's move for the AI.
          const given = yield* ask(true);
          if (given !== undefined) return given;
          return yield* this.think(run, p, game, state, ai, clock);
        }),
    };
  }

  /** An AI's player, its time per move capped by the room's limit; progress to the room. */
  private aiPlayer(spec: AiSpec): Agent<unknown, Terminal> {
    const capped: PlayerSpec = spec.kind === "random"
      ? spec
      : { ...spec, timeMs: Math.min(spec.timeMs ?? this.limits.aiMs, this.limits.aiMs) };
    return agentFromSpec(capped, this.offered.strategies, {
      source: this.source,
      // A person's opponent goes ahead of the searches of games between AIs.
      priority: isHuman(this.facts, 0) || isHuman(this.facts, 1),
      onProgress: (progress: Progress) => {
        if (progress._tag !== "Iteration") return;
        this.tell({ _tag: "Iteration", think: this.thinks, result: progress.result });
      },
    });
  }

  /** An AI thinks; `MoveNow` plays its best move so far. */
  private think(
    run: number,
    p: Player,
    game: Game<unknown>,
    state: unknown,
    player: Agent<unknown, Terminal>,
    clock: ClockView | undefined,
  ): Effect.Effect<Choice, SearchFailed> {
    return Effect.suspend(() => {
      const now = Deferred.makeUnsafe<Choice>();
      this.tell({ _tag: "Thinking", run, side: p, think: ++this.thinks, now });
      // The AI never reads the terminal: its choice needs no Terminal service.
      const choose = player.choose(game, state, clock) as Effect.Effect<Choice, SearchFailed>;
      return Effect.raceFirst(choose, Deferred.await(now));
    });
  }

  // ---------------------------------------------------------------------------
  // The position

  /** The session's current node, its position and the one before it (after a jump). */
  private positionAt(): Pick<RoomState, "node" | "nodes" | "position" | "before"> {
    const { current, nodes } = this.session;
    return {
      node: current,
      nodes: nodes.length,
      position: stateAt(this.game, this.session),
      before: current === 0 ? undefined : stateAt(this.game, this.session, nodes[current].parent),
    };
  }

  /** Applies the controls that came in, in order (the runner does not run). */
  private applyControls(): void {
    const controls = this.state.controls;
    if (controls.length === 0) return;
    this.set({ controls: [] });
    for (const c of controls) {
      const human = (p: Player) => isHuman(this.facts, p);
      let done: boolean;
      switch (c._tag) {
        case "Undo":
          done = undo(this.game, this.session, c.by === undefined ? human : (p) => p === c.by);
          if (!done) refused(c.conn, "there is no move of yours to take back");
          break;
        case "Redo":
          done = redo(this.game, this.session, human);
          if (!done) refused(c.conn, "there is nothing to replay");
          break;
        case "GoTo":
          if (c.node >= this.session.nodes.length) {
            refused(c.conn, `there is no position ${c.node}`);
            done = false;
          } else {
            goTo(this.session, c.node);
            done = true;
          }
          break;
      }
      if (!done) continue;
      this.set(this.positionAt());
      // Jumping to where an AI is to move, or chance whose outcome is known, waits for
      // Resume (the watcher is looking back; going forward follows the known outcome).
      const position = this.state.position;
      const tm = this.game.toMove(position);
      const known = tm === CHANCE && this.session.nodes[this.session.current].children.length > 0;
      const ai = tm !== CHANCE && !isHuman(this.facts, tm);
      if (c._tag !== "Undo" && (ai || known) && !isOver(this.game, position)) {
        this.set({ paused: true });
      }
      this.positionChanged();
    }
  }

  /**
   * After the current node changed: a pending takeback request and moves made before
   * lapse, a game between people that ended opens for good, the analysis follows.
   */
  private positionChanged(): void {
    for (const p of [0, 1] as const) {
      const pending = this.state.pending[p];
      if (pending !== undefined && pending.at !== this.state.node) {
        this.setPending(p, undefined);
        refused(pending.conn, "the position changed; try again");
      }
    }
    this.set({ takeback: undefined });
    if (this.facts.contest && !this.state.ended && this.finished()) this.set({ ended: true });
    if (this.state.analysing) this.startAnalysis();
  }

  // ---------------------------------------------------------------------------
  // Browsers

  private join(conn: Conn): void {
    this.set({ conns: new Set(this.state.conns).add(conn), opened: true });
    const lobby = this.state.lobby;
    if (lobby !== undefined && !lobby.taken && conn.seat === this.seats.get(lobby.seat)) {
      this.claim();
    }
  }

  private claim(): void {
    const lobby = this.state.lobby;
    if (lobby === undefined || lobby.taken) return;
    this.set({ lobby: { ...lobby, taken: true } });
    this.onChange();
  }

  private leave(conn: Conn): void {
    const conns = new Set(this.state.conns);
    conns.delete(conn);
    this.set({ conns });
    if (conns.size > 0) return;
    this.set({ idleSince: this.now() });
    this.interruptRun();
    this.stopAnalysis();
  }

  /** Handles one decoded message from a browser (checked by `refusal` first). */
  private handle(conn: Conn, m: ClientMessage): void {
    const no = refusal(this.facts, this.state, conn, m);
    if (no !== undefined) return refused(conn, no);
    switch (m._tag) {
      case "Explain":
        return refused(conn, this.explain(m.picks));
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
          return refused(conn, "a clocked game cannot be stopped: the clock would run on");
        }
        this.set({ paused: true });
        if (this.state.thinking !== undefined) this.interruptRun();
        return;
      case "Resume": {
        this.set({ paused: false });
        for (const p of [0, 1] as const) {
          const asked = this.asked[p];
          if (asked?.ai === true) {
            this.asked[p] = undefined;
            answer(asked, undefined);
          }
        }
        return;
      }
      case "MoveNow": {
        const thinking = this.state.thinking;
        const now = this.moveNow;
        if (thinking === undefined || now === undefined) return refused(conn, "no AI is thinking");
        const last = thinking.last;
        const move = last?.move ?? this.game.moves(this.state.position)[0];
        this.moveNow = undefined;
        Deferred.doneUnsafe(
          now,
          Effect.succeed(
            last === undefined ? { _tag: "Move", move } : { _tag: "Move", move, search: last },
          ),
        );
        return;
      }
      case "Analyse":
        this.set({ analysing: m.on });
        if (m.on) this.startAnalysis();
        else this.stopAnalysis();
        return;
      case "Speed":
        return this.set({ speed: m.ms });
    }
  }

  /** A player asks to take back their last move: the other player is asked. */
  private askTakeback(conn: Conn): void {
    const side = sideOf(conn);
    if (side === undefined) return refused(conn, "you play no side in this game");
    const takeback = this.state.takeback;
    if (takeback !== undefined) {
      return refused(
        conn,
        takeback === side
          ? "your takeback request waits for an answer"
          : "answer the other player's takeback request first",
      );
    }
    // Is there a move of this side to take back? (Tried on the session, then restored.)
    const at = this.session.current;
    const possible = undo(this.game, this.session, (p) => p === side);
    this.session.current = at;
    if (!possible) return refused(conn, "there is no move of yours to take back");
    this.set({ takeback: side });
  }

  /** The other player answers a takeback request. */
  private answerTakeback(conn: Conn, accept: boolean): void {
    const asker = this.state.takeback;
    const side = sideOf(conn);
    if (asker === undefined || side === undefined || side === asker) {
      return refused(conn, "there is no takeback request to answer");
    }
    this.set({ takeback: undefined });
    if (accept) return this.control({ _tag: "Undo", conn, by: asker });
    const by = this.game.players[side];
    for (const c of this.state.conns) {
      if (c.seat?.sides[asker] === true) refused(c, `${by} declined your takeback request`);
    }
  }

  /** Sends a browser the picture of a node; the game is not changed. */
  private peek(conn: Conn, id: number): void {
    const session = this.session;
    if (id >= this.state.nodes) return refused(conn, `there is no position ${id}`);
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
      refused(conn, `position ${id} cannot be shown: ${e.message}`);
    }
  }

  /** A control: kept, and the runner interrupted so that it is applied once it stopped. */
  private control(c: Control): void {
    this.set({ controls: [...this.state.controls, c] });
    this.interruptRun();
  }

  /** A person's move: checked, then handed to the runner (now, or when it asks). */
  private move(conn: Conn, m: Extract<ClientMessage, { readonly _tag: "Move" | "Play" }>): void {
    if (m.at !== this.state.node) return refused(conn, "the position changed; try again");
    const { game } = this;
    const position = this.state.position;
    const tm = game.toMove(position);
    if (tm === CHANCE || isOver(game, position)) return refused(conn, "no one is to move here");
    const mine = conn.seat?.sides[tm] === true;
    const forAi = !isHuman(this.facts, tm) && this.state.paused;
    if (!mine && !forAi) {
      return refused(
        conn,
        isHuman(this.facts, tm) ? `it is ${game.players[tm]}'s move` : "the AI is to move",
      );
    }
    let move: number;
    if (m._tag === "Play") {
      const parsed = game.parseMove(position, m.text);
      if (parsed._tag === "Failure") return refused(conn, parsed.failure);
      move = parsed.success;
    } else move = m.move;
    if (!game.moves(position).includes(move)) return refused(conn, "that is not a legal move here");
    const asked = this.asked[tm];
    if (asked !== undefined) {
      this.asked[tm] = undefined;
      return answer(asked, { _tag: "Move", move });
    }
    this.state.pending[tm]?.conn.send({
      _tag: "Refused",
      reason: "another move came first",
    });
    this.setPending(tm, { conn, at: m.at, move });
  }

  /** Why a sequence of picks makes no legal move here. */
  private explain(picks: readonly string[]): string {
    const generic = "not a legal move here";
    const picture = this.game.picture;
    if (picture?.refuse === undefined) return generic;
    try {
      return picture.refuse(this.state.position, picks) ?? generic;
    } catch {
      return generic;
    }
  }

  // ---------------------------------------------------------------------------
  // The engine's analysis

  private startAnalysis(): void {
    this.stopAnalysis();
    if (isLive(this.facts, this.state)) {
      // Never while people play each other (the Analyse message is refused too).
      return this.set({ analysing: false });
    }
    const position = this.state.position;
    if (this.fork === undefined || isOver(this.game, position)) return;
    const id = ++this.analyses;
    this.analysis = { id, fiber: this.fork(this.analyse(id, this.state.node, position)) };
  }

  private stopAnalysis(): void {
    const analysis = this.analysis;
    if (analysis === undefined) return;
    this.analysis = undefined;
    this.fork?.(Fiber.interrupt(analysis.fiber));
  }

  /**
   * Analyses a position: first, when every legal move can be solved within a small
   * budget, a verdict per move (win / draw / loss for the mover); then iterative
   * deepening that streams its iterations to the room.
   */
  private analyse(analysis: number, node: number, state: unknown): Effect.Effect<void> {
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
        this.tell({
          _tag: "Analysed",
          analysis,
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
  private send(m: Parameters<Conn["send"]>[0]): void {
    for (const c of this.state.conns) c.send(m);
  }

  /** Publishes the state to every browser (and has the room stored again). */
  private publish(): void {
    this.onChange();
    this.publisher.publish(this.state);
  }
}
