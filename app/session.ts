/**
 * A game session: one game, its options, seed and players, and the tree of positions
 * reached — every move played with its notation, who played it and the AI's search
 * behind it — with a current node. The terminal (`play`, `review`) and the web page
 * drive the same model: play a move, undo back to a human's turn, redo, go to any
 * node, branch (a new move from an earlier node keeps the old line as a variation),
 * and export to / import from the transcript JSON that `runGame` writes.
 *
 * A session is plain data (it survives `JSON.stringify` and `structuredClone`). The
 * operations change it in place, as the match runner extends it ply by ply; take a
 * `structuredClone` for a snapshot.
 *
 * The tree is a list of nodes; node 0 is the start position. A node's first child is
 * its main continuation and the others are variations; the main line is the chain of
 * first children from the start. `next` remembers the child last visited, so that
 * `redo` retraces what `undo` took back.
 *
 * @module
 */
import { CHANCE, type Game, movesOf, type Player, type ToMove } from "../core/game.ts";
import type { SearchResult } from "../core/search/types.ts";

/** A game's time control (`app/clock.ts` reads, writes and keeps it). */
export type TimeControl =
  | {
    /** Fischer's: a base time each, and an increment after every move. */
    readonly kind: "fischer";
    /** Each side's time at the start, in milliseconds. */
    readonly baseMs: number;
    /** Milliseconds added to the mover's clock after each of its moves. */
    readonly incrementMs: number;
  }
  | {
    /** A fixed time for every move. */
    readonly kind: "move";
    /** Milliseconds each move may take. */
    readonly moveMs: number;
  };

/** What an AI's search said about the move it chose (kept with the move). */
export interface SearchInfo {
  /** The value from player 0's side (decisive values carry their distance). */
  readonly value: number;
  /** The depth reached in plies (MCTS: the principal variation's length). */
  readonly depth: number;
  /** True when the value is proven (the search saw every line to its end). */
  readonly exact: boolean;
  /** The principal variation in the game's notation, the chosen move first. */
  readonly pv: readonly string[];
  /** Positions searched. */
  readonly nodes: number;
  /** Milliseconds the search took. */
  readonly timeMs: number;
  /** What else the strategy said of its choice (`SearchResult.notes`), when it said anything. */
  readonly notes?: readonly string[];
}

/** A move as a session and a transcript record it. */
export interface MoveRecord {
  /** Who moved: a player or chance. */
  readonly by: ToMove;
  /** The move (plugin encoding). */
  readonly move: number;
  /** The move in the game's notation. */
  readonly notation: string;
  /** Milliseconds the player took (0 for chance and for moves given up front). */
  readonly ms: number;
  /** The player's spec (`human`, `alphabeta:6`, ...), when known. */
  readonly agent?: string;
  /** The search behind an AI's move. */
  readonly search?: SearchInfo;
  /**
   * In a clocked game, the mover's time left after the move in milliseconds (its
   * increment added): the clocks at a node are read off its path (`timeLeft`, `clock.ts`).
   */
  readonly clock?: number;
}

/**
 * One position of the tree, with the move that led to it. Node 0, the start, has
 * parent -1, move -1, notation "" and `by` chance (unused).
 */
export interface SessionNode extends MoveRecord {
  /** The node this move was played from; -1 for the start. */
  readonly parent: number;
  /** The positions played from here: the main continuation first, then variations. */
  readonly children: number[];
  /** The child last visited (-1 for none): where `redo` goes. */
  next: number;
}

/** Why a game stopped, as the match runner reports it (see `GameResult`). */
export interface SessionResult {
  /** The winner, or null for a draw or an unfinished game. */
  readonly winner: Player | null;
  /** The final margin from player 0's view (0 for unfinished games). */
  readonly margin: number;
  /** `"end"`, or why it stopped (`"quit"`, `"interrupted"`, `"end of input"`, ...). */
  readonly reason: string;
  /** The player who stopped or moved illegally, if any. */
  readonly by?: Player;
  /** With reason `"error"`: what went wrong. */
  readonly error?: string;
  /** With reason `"adjudicated"`: the rule that settled it (`--adjudicate`). */
  readonly adjudicated?: string;
}

/** A game in progress or finished, with every line tried. */
export interface Session {
  /** The game (plugin id or module specifier). */
  readonly game: string;
  /** The decoded game options. */
  readonly options: unknown;
  /** The seed for chance moves and random players. */
  seed: number;
  /** The players' specs, player 0 first. */
  players: [string, string];
  /** The tree; node 0 is the start position. */
  readonly nodes: SessionNode[];
  /** The node shown and played from. */
  current: number;
  /** How the game last stopped, if it did. */
  result?: SessionResult;
  /** The game's statistics of the final state, if it has any. */
  stats?: Readonly<Record<string, number>>;
  /**
   * How many numbers the seed's random stream has given so far (chance moves, random
   * players, searches' seeds), so that a resumed game continues the stream; absent: 0.
   */
  draws?: number;
  /** The time control, in a clocked game. */
  readonly clock?: TimeControl;
}

/** What `newSession` needs. */
export interface SessionSetup {
  /** The game (plugin id or module specifier). */
  readonly game: string;
  /** The decoded game options. */
  readonly options: unknown;
  /** The seed. */
  readonly seed: number;
  /** The players' specs, player 0 first. */
  readonly players: readonly [string, string];
  /** The time control, for a clocked game. */
  readonly clock?: TimeControl;
}

const startNode = (): SessionNode => ({
  parent: -1,
  by: CHANCE,
  move: -1,
  notation: "",
  ms: 0,
  children: [],
  next: -1,
});

/** A session at the start position with no moves. */
export const newSession = (setup: SessionSetup): Session => ({
  game: setup.game,
  options: setup.options,
  seed: setup.seed,
  players: [setup.players[0], setup.players[1]],
  nodes: [startNode()],
  current: 0,
  ...(setup.clock !== undefined ? { clock: setup.clock } : {}),
});

/** The node ids from the start to `id`, both included. */
export const pathTo = (session: Session, id: number): number[] => {
  const path: number[] = [];
  for (let n = id; n !== -1; n = session.nodes[n].parent) path.push(n);
  return path.reverse();
};

/** The main line: node ids from the start along first children, the start included. */
export const mainLine = (session: Session): number[] => {
  const line = [0];
  for (let n = session.nodes[0]; n.children.length > 0; n = session.nodes[n.children[0]]) {
    line.push(n.children[0]);
  }
  return line;
};

/** True when node `id` lies on the main line. */
const onMainLine = (session: Session, id: number): boolean => {
  for (let n = id; n !== 0; n = session.nodes[n].parent) {
    if (session.nodes[session.nodes[n].parent].children[0] !== n) return false;
  }
  return true;
};

/** The number of moves from the start to node `id` (its ply). */
export const plyOf = (session: Session, id: number): number => pathTo(session, id).length - 1;

/**
 * The position at node `id` (default the current one), replayed from `start` (default
 * the game's initial position).
 */
export const stateAt = <S>(
  game: Game<S>,
  session: Session,
  id: number = session.current,
  start: S = game.initial(),
): S => {
  let s = start;
  for (const n of pathTo(session, id).slice(1)) s = game.play(s, session.nodes[n].move);
  return s;
};

/** A search result as the session keeps it: the PV in notation, played from `state`. */
export const searchInfo = <S>(game: Game<S>, state: S, r: SearchResult): SearchInfo => {
  const pv: string[] = [];
  let s = state;
  for (const m of r.pv) {
    if (!movesOf(game, s).includes(m)) break;
    pv.push(game.formatMove(s, m));
    s = game.play(s, m);
  }
  return {
    value: r.value,
    depth: r.depth,
    exact: r.exact,
    pv,
    nodes: r.nodes,
    timeMs: r.timeMs,
    ...(r.notes !== undefined && r.notes.length > 0 ? { notes: r.notes } : {}),
  };
};

/** A move to add to a session (`ms` defaults to 0). */
export type NewMove = Omit<MoveRecord, "ms"> & { readonly ms?: number };

/**
 * Plays a move at the current node and makes its result current. The same move played
 * again follows the existing node (its record is kept); a new move from a node on the
 * main line becomes the main continuation (the old one a variation), and a new move
 * inside a variation extends that variation. Legality is the caller's to check.
 * Returns the node.
 */
export const playMove = (session: Session, m: NewMove): number => {
  const from = session.current;
  const here = session.nodes[from];
  const known = here.children.find((c) => session.nodes[c].move === m.move);
  if (known !== undefined) {
    here.next = known;
    session.current = known;
    return known;
  }
  const id = session.nodes.length;
  session.nodes.push({
    parent: from,
    by: m.by,
    move: m.move,
    notation: m.notation,
    ms: m.ms ?? 0,
    ...(m.agent !== undefined ? { agent: m.agent } : {}),
    ...(m.search !== undefined ? { search: m.search } : {}),
    ...(m.clock !== undefined ? { clock: m.clock } : {}),
    children: [],
    next: -1,
  });
  // (A first child needs no check: it is both the main continuation and the last.)
  if (here.children.length > 0 && onMainLine(session, from)) here.children.unshift(id);
  else here.children.push(id);
  here.next = id;
  session.current = id;
  return id;
};

/** Makes node `id` current, and remembers the way to it for `redo`. */
export const goTo = (session: Session, id: number): void => {
  if (!Number.isInteger(id) || id < 0 || id >= session.nodes.length) {
    throw new RangeError(`no node ${id} in this session`);
  }
  const path = pathTo(session, id);
  for (let i = 0; i + 1 < path.length; i++) session.nodes[path[i]].next = path[i + 1];
  session.current = id;
};

/** Which players a person plays (undo and redo stop where one of them is to move). */
export type IsHuman = (p: Player) => boolean;

const humanToMove = <S>(game: Game<S>, s: S, human: IsHuman): boolean => {
  const tm = game.toMove(s);
  return tm !== CHANCE && human(tm);
};

/**
 * Takes back moves up to the previous position where a human is to move (a human's
 * move and the AI's and chance's replies after it). Returns false, changing nothing,
 * when there is no such position.
 */
export const undo = <S>(game: Game<S>, session: Session, human: IsHuman): boolean => {
  const path = pathTo(session, session.current);
  const states = [game.initial()];
  for (const n of path.slice(1)) {
    states.push(game.play(states[states.length - 1], session.nodes[n].move));
  }
  for (let i = path.length - 2; i >= 0; i--) {
    if (humanToMove(game, states[i], human)) {
      session.current = path[i];
      return true;
    }
  }
  return false;
};

/**
 * Replays what `undo` took back: follows the remembered moves to the next position
 * where a human is to move, or to the end of the line. Returns false when there is
 * nothing to redo.
 */
export const redo = <S>(game: Game<S>, session: Session, human: IsHuman): boolean => {
  let id = session.current;
  if (session.nodes[id].next === -1) return false;
  let s = stateAt(game, session, id);
  while (session.nodes[id].next !== -1) {
    id = session.nodes[id].next;
    s = game.play(s, session.nodes[id].move);
    if (humanToMove(game, s, human)) break;
  }
  session.current = id;
  return true;
};
