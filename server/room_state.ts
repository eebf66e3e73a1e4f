/**
 * A room's state as a value, and its rules: who may do what (`refusal`), whether a game
 * between people is live, whether the game can go on. The room (`room.ts`) holds one
 * `RoomState` at a time and replaces it as commands come in; what browsers see
 * (`room_view.ts`) is made from it. Nothing here runs an effect or talks to a browser.
 *
 * @module
 */
import { CHANCE, type Game, isOver, type Player } from "../core/game.ts";
import type { SearchResult } from "../core/search/types.ts";
import type { Session } from "../app/session.ts";
import type { PlayerSpec } from "../app/players/spec.ts";
import { describeClock, timeLeft } from "../app/clock.ts";
import type { ClientMessage, ClockState, NodeView, ServerMessage } from "./protocol.ts";
import type { LobbySeat } from "./store.ts";

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

/** A person's move that came before the runner asked for it. */
export interface Pending {
  /** Who sent it. */
  readonly conn: Conn;
  /** The node it was made at. */
  readonly at: number;
  /** The move. */
  readonly move: number;
}

/** A change of the position, applied while the runner does not run. */
export type Control =
  /** Takes back to where a person (`by`: that side only, an accepted takeback) is to move. */
  | { readonly _tag: "Undo"; readonly conn: Conn; readonly by?: Player }
  | { readonly _tag: "Redo"; readonly conn: Conn }
  | { readonly _tag: "GoTo"; readonly conn: Conn; readonly node: number };

/** What never changes in a room: its game, its sides, and who sits where. */
export interface RoomFacts {
  /** The room's id (in links). */
  readonly id: string;
  /** The game offered's id on the server (the form's entry). */
  readonly kind: string;
  /** The game. */
  readonly game: Game<unknown>;
  /**
   * The session: the tree of moves and the current node. The runner plays into it and the
   * controls move in it (`app/session.ts`); the room's state says where it stands.
   */
  readonly session: Session;
  /** Who plays each side. */
  readonly sides: readonly [Side, Side];
  /** True for a saved game loaded for review. */
  readonly loaded: boolean;
  /**
   * True for a game between people, each side at a browser of its own: while it goes on
   * (`live`), a seat only moves for its side, takes back by the other's consent, and
   * nobody gets the engine's view.
   */
  readonly contest: boolean;
}

/** A room's state: everything that changes, as one value. */
export interface RoomState {
  /** The browsers connected. */
  readonly conns: ReadonlySet<Conn>;
  /**
   * The node the room is at, and its position. The runner plays into the session before
   * it tells the room (`Moved`), so what browsers see follows this, not the session's own
   * current node, which may be a move ahead for a moment.
   */
  readonly node: number;
  /** The position at `node`. */
  readonly position: unknown;
  /** How many of the session's nodes the room has taken in (its tree as browsers see it). */
  readonly nodes: number;
  /** The position before the current node's move (undefined at the start). */
  readonly before: unknown;
  /** True once a browser has opened the game. */
  readonly opened: boolean;
  /** When the last browser left (ms since the epoch), for closing idle rooms. */
  readonly idleSince: number;
  /** True after `Stop`: the AIs wait for `Resume`. */
  readonly paused: boolean;
  /** The pause between AI moves (ms). */
  readonly speed: number;
  /**
   * The AI thinking now: its side, the think's number (its progress names it), and its
   * last completed iteration (what `MoveNow` plays).
   */
  readonly thinking:
    | { readonly side: Player; readonly think: number; readonly last: SearchResult | undefined }
    | undefined;
  /** The node where the runner last stopped for good (the end, or a plugin's fault). */
  readonly stoppedAt: number;
  /** True while the engine analyses the current position for the browsers. */
  readonly analysing: boolean;
  /** True once a game between people has ended (everything opens then, for good). */
  readonly ended: boolean;
  /** The side whose takeback request waits for the other player's answer. */
  readonly takeback: Player | undefined;
  /** A game offered in the lobby: its seat there, and whether someone took it. */
  readonly lobby: LobbySeat | undefined;
  /** In a clocked game, the turn whose clock runs: its node and when it began. */
  readonly turn: { readonly node: number; readonly side: Player; readonly at: number } | undefined;
  /** Review's verdicts by node id, in the order they came (each browser is sent the new ones). */
  readonly annotations: ReadonlyMap<number, Annotation>;
  /** The controls that came while the runner ran, to apply in order once it stopped. */
  readonly controls: readonly Control[];
  /** Each side's person's move that came before the runner asked for it. */
  readonly pending: readonly [Pending | undefined, Pending | undefined];
}

/** True when a side is played by a person. */
export const isHuman = (facts: RoomFacts, p: Player): boolean => facts.sides[p].kind === "human";

/** True while a game between people goes on (see `RoomFacts.contest`). */
export const isLive = (facts: RoomFacts, s: RoomState): boolean => facts.contest && !s.ended;

/** True when the game is over (or stopped for good by its plugin's fault). */
export const isFinished = (facts: RoomFacts, s: RoomState): boolean => {
  try {
    return isOver(facts.game, s.position) ||
      (facts.session.result !== undefined && s.stoppedAt === s.node);
  } catch {
    return true;
  }
};

/** True when the runner has something to do: a browser watches and the game goes on. */
export const canRun = (facts: RoomFacts, s: RoomState): boolean => {
  const { game, session } = facts;
  if (s.conns.size === 0) return false;
  if (s.paused && game.toMove(s.position) === CHANCE) return false;
  if (s.stoppedAt === s.node && session.result !== undefined) return false;
  return !isOver(game, s.position) || s.stoppedAt !== s.node;
};

/**
 * Why a browser may not send a message here, or undefined when it may: the one place
 * where the room's rules on who may do what are kept.
 */
export const refusal = (
  facts: RoomFacts,
  s: RoomState,
  conn: Conn,
  m: ClientMessage,
): string | undefined => {
  if (m._tag === "Explain" || m._tag === "Peek") return undefined;
  if (conn.seat === undefined) return "you are watching this game; you cannot change it";
  const live = isLive(facts, s);
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
};

/** The side a seat plays in a game between people (each seat plays one). */
export const sideOf = (conn: Conn): Player | undefined => {
  const sides = conn.seat?.sides;
  return sides?.[0] ? 0 : sides?.[1] ? 1 : undefined;
};

/** The clocks as a page shows them, in a clocked game, at time `now`. */
export const clockState = (
  facts: RoomFacts,
  s: RoomState,
  now: number,
): ClockState | undefined => {
  const { session } = facts;
  const control = session.clock;
  if (control === undefined) return undefined;
  const turn = s.turn;
  const running = turn !== undefined && turn.node === s.node &&
      session.result === undefined
    ? turn
    : undefined;
  return {
    text: describeClock(control),
    left: [timeLeft(session, 0), timeLeft(session, 1)],
    running: running?.side ?? null,
    elapsed: running === undefined ? 0 : Math.max(0, now - running.at),
  };
};
