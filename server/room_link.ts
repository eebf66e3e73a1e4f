/**
 * What the server's main thread and a room's thread (`room_thread.ts`) say to each other.
 * A room runs in a thread of its own: its session, its players and its game's code (a
 * built-in game's in that thread, a user's plugin in a sandboxed thread of its own that
 * the room's thread calls), so that nothing a game does, slow or stuck, holds up the
 * main thread or another room. The main thread keeps the sockets, the store and the
 * engine: it forwards each browser's messages to the room, the room's to each browser,
 * runs the searches the room asks for on the server's worker pool, and keeps the room's
 * latest record to store. Every message is plain data.
 *
 * @module
 */
import type { TimeControl } from "../app/clock.ts";
import type { PluginLimits } from "../core/host/thread.ts";
import type { SearchTask } from "../core/parallel/pool.ts";
import type { Progress } from "../core/parallel/protocol.ts";
import type { SearchResult } from "../core/search/types.ts";
import type { Transcript } from "../app/transcript.ts";
import type { ClientMessage } from "./protocol.ts";
import type { Restored, RoomLimits } from "./room.ts";
import type { Seat, Side } from "./room_state.ts";
import type { SavedRoom } from "./store.ts";

/** What a room's thread opens a room with: the game to open and the limits. */
export interface RoomThreadData {
  /** The plugin's module URL. */
  readonly url: string;
  /** The specifier a transcript names. */
  readonly specifier: string;
  /** The game's id on this server (the form's entry). */
  readonly gameId: string;
  /** The game's options (as the form gave them, numbers and lists read). */
  readonly options: Readonly<Record<string, unknown>>;
  /** True for a built-in game: its code runs in the room's thread itself. */
  readonly trusted: boolean;
  /** How messages name the plugin. */
  readonly label: string;
  /** A user's plugin's thread: call limit, heap limit and grants. */
  readonly plugins: PluginLimits;
  /** The room's limits. */
  readonly limits: RoomLimits;
}

/** How a room starts, once its game is open: a new session or a transcript's. */
export interface RoomStart {
  /** The room's id. */
  readonly id: string;
  /** Who plays each side. */
  readonly sides: readonly [Side, Side];
  /** The seats. */
  readonly seats: readonly Seat[];
  /** When the room was made (ms since the epoch). */
  readonly createdAt: number;
  /** A new game (its seed and players' names), or a saved game's moves. */
  readonly session:
    | {
      readonly _tag: "New";
      readonly seed: number;
      readonly players: readonly [string, string];
      /** The time control, for a clocked game. */
      readonly clock?: TimeControl;
    }
    | { readonly _tag: "Transcript"; readonly transcript: Transcript };
  /** A stored room's own state, when it is opened again. */
  readonly restored?: Restored;
  /** A new game offered in the lobby: the token of the seat offered there. */
  readonly lobby?: string;
  /** A loaded game's review pass: the time per position and the mistake margin. */
  readonly review?: { readonly ms: number; readonly margin: number };
}

/** An error as a message carries it: its tag, message and fields. */
export type WireError =
  & { readonly _tag: string; readonly message: string }
  & Readonly<
    Record<string, unknown>
  >;

/** What the main thread says to a room's thread between rooms: the next room's game, or its end. */
export type RoomControl =
  | { readonly type: "open"; readonly data: RoomThreadData }
  | { readonly type: "close" };

/** What the main thread says to a room's thread. */
export type ToRoom =
  | { readonly type: "start"; readonly start: RoomStart }
  | { readonly type: "join"; readonly conn: number; readonly seat: string | null }
  | { readonly type: "leave"; readonly conn: number }
  /** The lobby's seat was given to someone (`POST /api/lobby/ID/join`). */
  | { readonly type: "claim" }
  | { readonly type: "message"; readonly conn: number; readonly message: ClientMessage }
  | { readonly type: "progress"; readonly id: number; readonly progress: Progress }
  | { readonly type: "done"; readonly id: number; readonly result: SearchResult }
  | { readonly type: "failed"; readonly id: number; readonly error: WireError }
  /** Asks for the room's record (`saved`) or its transcript as a download gives it. */
  | { readonly type: "ask"; readonly id: number; readonly what: "saved" | "transcript" };

/** The room's record as the main thread keeps it. */
export interface RoomRecord {
  /** What the store keeps. */
  readonly saved: SavedRoom;
  /** True when the game is over (or stopped for good by its plugin's fault). */
  readonly finished: boolean;
}

/** What a room's thread says to the main thread. */
export type FromRoom =
  /**
   * The thread's modules are loaded: it may be ended from now on. (Deno 2.9 panics when a
   * thread is terminated during the lazy load of one of Deno's own modules, which a thread
   * that is starting does: `terminate_execution` aborts the load.)
   */
  | { readonly type: "loaded" }
  /** The game is open: its options as the plugin read them, and whether it is solo. */
  | { readonly type: "opened"; readonly options: unknown; readonly solo: boolean }
  /** The game could not be opened (an options or plugin error). */
  | { readonly type: "unopened"; readonly error: WireError }
  /** The room started, with its record (or `why` it could not: moves that no longer fit). */
  | { readonly type: "started"; readonly record: RoomRecord }
  | { readonly type: "unstarted"; readonly why: string }
  /** A message for a browser, as JSON (`ServerMessage`). */
  | { readonly type: "send"; readonly conn: number; readonly text: string }
  /** The room changed: its record now. */
  | { readonly type: "record"; readonly record: RoomRecord }
  | { readonly type: "answer"; readonly id: number; readonly value: RoomRecord | Transcript }
  | { readonly type: "search"; readonly id: number; readonly task: Omit<SearchTask, "onProgress"> }
  | { readonly type: "cancel"; readonly id: number };
