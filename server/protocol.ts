/**
 * What the page and the server say to each other (`deno task serve`).
 *
 * The page talks HTTP for the list of games, to start or load a game and to save one,
 * and one WebSocket per open game (`/ws?game=ID&seat=TOKEN`) for everything that
 * happens in it. Every message from a browser is decoded with these Schemas (unknown
 * fields refused, sizes bounded); a message that does not decode gets an `Error` reply
 * and changes nothing. Messages from the server are plain JSON of the types below (the
 * page imports the types only, so its bundle holds no Schema).
 *
 * Positions are nodes of the game's session (`app/session.ts`): node 0 is the start,
 * every move adds a node; the page sends the node it sees (`at`) with a move, so a move
 * made on a position that has changed meanwhile is refused rather than misplayed.
 *
 * @module
 */
import { Schema } from "../core/deps.ts";
import type { OptionProblem } from "../core/plugin.ts";
import type { SessionResult } from "../app/session.ts";

/** The largest message a browser may send, in bytes (UTF-16 code units of the text). */
export const MAX_MESSAGE = 16 * 1024;

const Count = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0));
const NodeId = Count.check(Schema.isBetween({ minimum: 0, maximum: 10_000_000 }));
const Token = Schema.String.check(Schema.isMaxLength(64));

/** A move by its number in the game's encoding, played at node `at`. */
export const MoveMessage = Schema.TaggedStruct("Move", { at: NodeId, move: Count });
/** A move typed in the game's notation, played at node `at`. */
export const PlayMessage = Schema.TaggedStruct("Play", {
  at: NodeId,
  text: Schema.String.check(Schema.isMaxLength(200)),
});
/** Asks why a sequence of picks makes no legal move at node `at` (answer: `Refused`). */
export const ExplainMessage = Schema.TaggedStruct("Explain", {
  at: NodeId,
  picks: Schema.Array(Token).check(Schema.isMaxLength(8)),
});
/** Takes back moves to the previous position where a person here is to move. */
export const UndoMessage = Schema.TaggedStruct("Undo", {});
/** Replays what `Undo` took back. */
export const RedoMessage = Schema.TaggedStruct("Redo", {});
/** Shows node `node` and plays on from there (a new move there starts a variation). */
export const GoToMessage = Schema.TaggedStruct("GoTo", { node: NodeId });
/** Stops the AI that is thinking; it waits until `Resume` (a person may move for it). */
export const StopMessage = Schema.TaggedStruct("Stop", {});
/** The AI that is thinking plays the best move it has found so far. */
export const MoveNowMessage = Schema.TaggedStruct("MoveNow", {});
/** The AIs play again after `Stop` (or after the position was changed by hand). */
export const ResumeMessage = Schema.TaggedStruct("Resume", {});
/** Turns the engine's analysis of the current position on or off. */
export const AnalyseMessage = Schema.TaggedStruct("Analyse", { on: Schema.Boolean });
/** The pause between two AI moves when AIs play each other, in milliseconds. */
export const SpeedMessage = Schema.TaggedStruct("Speed", {
  ms: Count.check(Schema.isBetween({ minimum: 0, maximum: 60_000 })),
});

/**
 * In a game between people: asks the other player to take back this side's last move
 * (the other player answers with `TakebackAnswer`).
 */
export const TakebackMessage = Schema.TaggedStruct("Takeback", {});
/** In a game between people: accepts or declines the other player's takeback request. */
export const TakebackAnswerMessage = Schema.TaggedStruct("TakebackAnswer", {
  accept: Schema.Boolean,
});
/** Asks for the picture of node `node` (answer: `View`); changes nothing in the game. */
export const PeekMessage = Schema.TaggedStruct("Peek", { node: NodeId });

/** Everything a page may send over a game's WebSocket. */
export const ClientMessage = Schema.Union([
  MoveMessage,
  PlayMessage,
  ExplainMessage,
  UndoMessage,
  RedoMessage,
  GoToMessage,
  StopMessage,
  MoveNowMessage,
  ResumeMessage,
  AnalyseMessage,
  SpeedMessage,
  TakebackMessage,
  TakebackAnswerMessage,
  PeekMessage,
]);
/** A decoded message from a page. */
export type ClientMessage = typeof ClientMessage.Type;

/** Who plays a side of a new game. */
export const SideSetup = Schema.Union([
  /** A person at this browser. */
  Schema.TaggedStruct("Here", {}),
  /** A person elsewhere: the server makes a link to send them. */
  Schema.TaggedStruct("Remote", {}),
  /**
   * A person from the lobby: the game is listed there, waiting, until someone joins it
   * (the first to join takes the side); a link to send is made as for `Remote`.
   */
  Schema.TaggedStruct("Lobby", {}),
  /** An AI: a strength name of the game (`"medium"`) or a player spec (`alphabeta:6`). */
  Schema.TaggedStruct("AI", { spec: Schema.String.check(Schema.isMaxLength(100)) }),
]);
/** A decoded side setup. */
export type SideSetup = typeof SideSetup.Type;

/** `POST /api/new`: a new game. */
export const NewGameRequest = Schema.Struct({
  /** The game's id (a built-in game, or a plugin named on the server's command line). */
  game: Token,
  /** The options as the form gives them (text or numbers; lists as comma-separated text). */
  options: Schema.Record(
    Token,
    Schema.Union([Schema.String.check(Schema.isMaxLength(200)), Schema.Number, Schema.Boolean]),
  ),
  /** Player 0's and player 1's side. */
  players: Schema.Tuple([SideSetup, SideSetup]),
  /** The seed of chance moves and random players (default: a fresh one, shown). */
  seed: Schema.optionalKey(Count.check(Schema.isBetween({ minimum: 0, maximum: 2 ** 31 }))),
  /** A time control (`5+3`, `10s`: `parseClock` in `app/clock.ts`); none: no clock. */
  clock: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(20))),
});
/** A decoded new-game request. */
export type NewGameRequest = typeof NewGameRequest.Type;

/** `POST /api/load`: a saved transcript (the JSON of `deno task play`'s saves), reviewed. */
export const LoadGameRequest = Schema.Struct({
  /** The transcript's JSON text. */
  transcript: Schema.String.check(Schema.isMaxLength(4 * 1024 * 1024)),
});
/** A decoded load request. */
export type LoadGameRequest = typeof LoadGameRequest.Type;

// ---------------------------------------------------------------------------------
// From the server (plain JSON)

/** One option of a game, for the new-game form. */
export interface OptionField {
  /** The option's name. */
  readonly name: string;
  /** What it is. */
  readonly description: string;
  /** The values it takes (`"an integer between 1 and 9"`). */
  readonly expected: string;
  /** Its default, as the form shows it. */
  readonly default: string;
  /** The choices, for an option with a few literal values. */
  readonly choices?: readonly string[];
  /** True for an option that tunes the AI rather than the game. */
  readonly advanced: boolean;
}

/** A game the server offers (`GET /api/games`). */
export interface GameEntry {
  /** Its id (`kalah`, or a plugin's id). */
  readonly id: string;
  /** Its name. */
  readonly name: string;
  /** One line about it. */
  readonly description: string;
  /** Its rules and notation. */
  readonly rules: string;
  /** Its options. */
  readonly options: readonly OptionField[];
  /** The AI strengths by name, weakest first (name, spec). */
  readonly strengths: readonly (readonly [string, string])[];
  /** The AI spec offered first. */
  readonly defaultOpponent: string;
  /** The names of its two players (`south`, `north`). */
  readonly players: readonly [string, string];
  /** True for a one-player game against chance (2048). */
  readonly solo: boolean;
}

/** The answer to `POST /api/new` and `POST /api/load`. */
export type NewGameResponse =
  | {
    readonly _tag: "Created";
    /** The game's id. */
    readonly game: string;
    /** This browser's seat token (the sides it plays; empty for none). */
    readonly seat: string;
    /** The link for the person elsewhere, when a side is `Remote`. */
    readonly invite?: string;
  }
  | {
    readonly _tag: "Refused";
    /** What is wrong, for a person. */
    readonly message: string;
    /** One entry per bad option, for the form to show next to its field. */
    readonly problems: readonly OptionProblem[];
  };

/** What an AI's search (or the analysis) says, from the mover's side. */
export interface SearchView {
  /** The depth reached (MCTS: the principal variation's length). */
  readonly depth: number;
  /** The value from the side to move's view (decisive values are ±2^40 and beyond). */
  readonly value: number;
  /** The value for a person: `+3`, `win in 5`, `loss in 2`, `draw`. */
  readonly valueText: string;
  /** From -1 (the mover loses) to 1 (the mover wins), for the value bar. */
  readonly bar: number;
  /** True when the value is proven. */
  readonly exact: boolean;
  /** The principal variation in notation. */
  readonly pv: readonly string[];
  /** Positions searched. */
  readonly nodes: number;
  /** Positions per second. */
  readonly nps: number;
  /** Milliseconds so far. */
  readonly ms: number;
  /** What else the strategy said of its choice (2048's endgame solver, ...), if anything. */
  readonly notes?: readonly string[];
}

/** A node of the game's tree, as the move list shows it. */
export interface NodeView {
  /** The node's id (its index). */
  readonly id: number;
  /** The parent's id (-1 for the start). */
  readonly parent: number;
  /** The move's number (-1 for the start), for a page to save the moves it holds. */
  readonly move: number;
  /** The move in notation ("" for the start). */
  readonly notation: string;
  /**
   * The game's words on the move (`describeMove`), when it has some: Kalah's `extra turn`
   * or `captures 7`, 2048's `2 at (1,3)` for a tile (the page shows a chance move by them).
   */
  readonly note?: string;
  /** Who moved. */
  readonly by: 0 | 1 | "chance";
  /** The children, the main continuation first. */
  readonly children: readonly number[];
  /** The AI's search behind the move, if an AI played it. */
  readonly search?: SearchView;
  /** Review's verdict on a person's move: how much worse than the best it was. */
  readonly review?: {
    /** The best move in the position before, in notation. */
    readonly best: string;
    /** How much worse than the best the move was (mover's value units; at least 0). */
    readonly loss: number;
    /** True when the move is marked (whatever its severity). */
    readonly mistake: boolean;
    /** Why it is marked (`turns a win into a draw`), or what it is (`the best move`). */
    readonly text: string;
    /** How bad a marked move is (absent in annotations stored before severities). */
    readonly severity?: "inaccuracy" | "mistake" | "blunder";
    /** True when both values are proven (the exact solver's, or searched to the end). */
    readonly exact?: boolean;
    /** The best value and the move's, from the mover's side, for a person (`win in 3`). */
    readonly bestText?: string;
    readonly playedText?: string;
    /**
     * The position's value before and after the move from player 0's side, from -1 (lost)
     * to 1 (won), as the value bar shows values: the review's graph.
     */
    readonly bars?: readonly [number, number];
  };
}

/** The clocks of a clocked game, as a page shows them. */
export interface ClockState {
  /** The time control in words (`5 min + 3 s a move`). */
  readonly text: string;
  /** Each side's time left at the start of the current turn, in milliseconds. */
  readonly left: readonly [number, number];
  /** The side whose clock runs now; null when none does (the game is over, or waits). */
  readonly running: 0 | 1 | null;
  /** How long the running clock has run this turn when the message was sent (ms). */
  readonly elapsed: number;
}

/** A game in the lobby waiting for an opponent (`GET /api/lobby`). */
export interface LobbyGame {
  /** The game's id on this server (`POST /api/lobby/ID/join` takes its free side). */
  readonly game: string;
  /** The game offered (its entry's id) and its name. */
  readonly kind: string;
  readonly name: string;
  /** Its options as decoded (the page shows them as `name value`). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Its time control in words, if it has a clock. */
  readonly clock?: string;
  /** The side the joiner plays (its name), and who is waiting (the other side's name). */
  readonly side: string;
  readonly host: string;
  /** When it was made (ms since the epoch). */
  readonly createdAt: number;
}

/** A game being played that anyone may watch (`GET /api/lobby`). */
export interface WatchGame {
  /** The game's id on this server (`/?game=ID` watches it). */
  readonly game: string;
  readonly kind: string;
  readonly name: string;
  /** Who plays (the players' specs: `human`, `alphabeta:6`), player 0 first. */
  readonly players: readonly [string, string];
  /** The sides' names (`X`, `O`). */
  readonly sides: readonly [string, string];
  /** Moves played so far on the main line. */
  readonly moves: number;
  /** Its time control in words, if it has a clock. */
  readonly clock?: string;
  /** How many browsers watch it. */
  readonly watchers: number;
}

/** `GET /api/lobby`: the games waiting for an opponent and the games to watch. */
export interface Lobby {
  readonly waiting: readonly LobbyGame[];
  readonly watching: readonly WatchGame[];
}

/** The answer to `POST /api/lobby/ID/join`. */
export type JoinResponse =
  | { readonly _tag: "Joined"; readonly game: string; readonly seat: string }
  | { readonly _tag: "Refused"; readonly message: string };

/** A legal move at the current node, with the ways to point at it. */
export interface LegalMove {
  /** The move's number. */
  readonly move: number;
  /** Its notation. */
  readonly notation: string;
  /** Its pick sequences (`Picture.picks`); empty for a game without a picture. */
  readonly picks: readonly (readonly string[])[];
}

/** Everything the server says over a game's WebSocket. */
export type ServerMessage =
  | {
    /** The whole picture of the game; sent on connect and after every change. */
    readonly _tag: "Position";
    /** The game's id on this server. */
    readonly game: string;
    /** The game (its entry's id) and its decoded options. */
    readonly kind: string;
    readonly options: unknown;
    readonly seed: number;
    /** The players' names (specs), player 0 first. */
    readonly players: readonly [string, string];
    /**
     * True for a saved game loaded for review: its players are the transcript's, named
     * as they are even though this browser moves for both.
     */
    readonly loaded?: boolean;
    /** Which sides this browser plays. */
    readonly mine: readonly [boolean, boolean];
    /** True when this browser may change the game (undo, jump, stop, speed). */
    readonly control: boolean;
    /**
     * True while a game between people (each side at its own browser) goes on: no seat
     * may undo, jump, stop or analyse, and no analysis reaches anyone; a takeback is a
     * request the other player answers. False once the game has ended.
     */
    readonly live: boolean;
    /** The side whose takeback request waits for the other player's answer, if any. */
    readonly takeback?: 0 | 1;
    /**
     * The tree's nodes this browser has not seen as they are now: with `full`, all of
     * them (the first `Position`); otherwise only the new and changed ones, each to be
     * put at its `id` (a long game costs each message only what changed).
     */
    readonly nodes: readonly NodeView[];
    /** True when `nodes` is the whole tree (replace, do not merge). */
    readonly full: boolean;
    /** How many nodes the tree has (ids 0 to nodeCount - 1). */
    readonly nodeCount: number;
    /** The position shown (a node id). */
    readonly current: number;
    /** The position as SVG (a game with a picture), and always as text. */
    readonly svg?: string;
    readonly text: string;
    /** Who is to move; null when the game is over. */
    readonly toMove: 0 | 1 | "chance" | null;
    /** The legal moves (empty when it is not a person here to move). */
    readonly legal: readonly LegalMove[];
    /** What the last move did beyond its notation ("extra turn"). */
    readonly lastNote?: string;
    /** How the game ended, if it did. */
    readonly result?: SessionResult & { readonly text: string };
    /**
     * At a finished position, the board's tokens that decided it (`Picture.decisive`:
     * tic-tac-toe's three in a row), marked `decisive` on the board; absent when none.
     */
    readonly decisive?: readonly string[];
    /**
     * True when AIs play each other without a clock: the pause between their moves (`Speed`)
     * applies, and the page offers it (in a game with a person, or with a clock, it does not).
     */
    readonly pause: boolean;
    /** The side whose AI is thinking, if one is. */
    readonly thinking: 0 | 1 | null;
    /** True after `Stop`: the AIs wait for `Resume`. */
    readonly paused: boolean;
    /** The pause between AI moves (ms). */
    readonly speed: number;
    /** True while the analysis runs. */
    readonly analysing: boolean;
    /** How many browsers watch (players and spectators). */
    readonly watchers: number;
    /** The clocks, in a clocked game. */
    readonly clock?: ClockState;
  }
  | {
    /** The thinking AI's search so far. */
    readonly _tag: "Progress";
    readonly side: 0 | 1;
    readonly node: number;
    readonly search: SearchView;
  }
  | {
    /** The engine's view of node `node` (the current one). */
    readonly _tag: "Analysis";
    readonly node: number;
    readonly search: SearchView;
    /** Per legal move, when every one was solved exactly: the mover's result. */
    readonly verdicts?: readonly {
      readonly move: number;
      readonly verdict: "win" | "draw" | "loss";
    }[];
  }
  | {
    /** The picture of node `node` (the answer to `Peek`): the position as it was there. */
    readonly _tag: "View";
    readonly node: number;
    readonly svg?: string;
    readonly text: string;
  }
  | {
    /** A move or a pick sequence was refused (nothing changed). */
    readonly _tag: "Refused";
    readonly reason: string;
    /** The picks refused, when it was a pointing. */
    readonly picks?: readonly string[];
  }
  | {
    /** A message could not be read or is not allowed (nothing changed). */
    readonly _tag: "Error";
    readonly message: string;
  };
