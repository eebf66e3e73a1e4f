/**
 * What a room's browsers see, made from the room's state (`room_state.ts`): each
 * browser's `Position` (its sides, its moves, the nodes of the tree it has not seen), the
 * searches as the page shows them, and a fault's words. The publisher keeps only what
 * makes publishing cheap: what each browser was last sent, and the game's answers for
 * the last position viewed (each call into a user's game is a round trip to its plugin
 * thread).
 *
 * @module
 */
import { CHANCE, type Game, isOver, type Player, WIN, WIN_THRESHOLD } from "../core/game.ts";
import { PluginFault, type SearchError } from "../core/errors.ts";
import type { SearchResult } from "../core/search/types.ts";
import { type SearchInfo, searchInfo } from "../app/session.ts";
import { describeResult } from "../app/display.ts";
import type { GameResult } from "../app/match.ts";
import type { LegalMove, NodeView, SearchView, ServerMessage } from "./protocol.ts";
import {
  clockState,
  type Conn,
  isHuman,
  isLive,
  type RoomFacts,
  type RoomState,
} from "./room_state.ts";

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
export const searchView = (
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
export const faultLine = (e: PluginFault | SearchError): string =>
  e instanceof PluginFault
    ? `plugin ${e.plugin} ${e.fn}: ${e.cause instanceof Error ? e.cause.message : String(e.cause)}`
    : `search: ${e.message}`;

/** The side a value is shown for: the player to move (player 0 at a chance node). */
export const moverOf = (game: Game<unknown>, s: unknown): Player => {
  const tm = game.toMove(s);
  return tm === CHANCE ? 0 : tm;
};

/**
 * Publishes a room's state to its browsers. `publish` sends each browser its view (a view
 * that changed nothing for a browser is not sent again); `noteMove` keeps the game's words
 * on a move as it is played.
 */
export class RoomPublisher {
  /** What each browser has seen of the tree: node and review counts. */
  private readonly seen: WeakMap<Conn, { nodes: number; reviews: number }> = new WeakMap();
  /** The last position sent to each browser (without its nodes), to skip repeats. */
  private readonly lastSent: WeakMap<Conn, string> = new WeakMap();
  /** The game's words on each node's move, by node id (`noteOf`). */
  private readonly notes: Map<number, string> = new Map();
  /** The nodes annotated, in order (a browser's review count indexes it). */
  private readonly reviewed: number[] = [];
  /** The game's answers for the last position viewed, and what they are of (`sharedView`). */
  private lastView:
    | {
      readonly of: readonly unknown[];
      readonly tm: Shared["tm"];
      readonly legal: readonly LegalMove[];
      readonly game: GameFields;
    }
    | undefined;

  /**
   * @param facts what never changes in the room
   * @param now the clock (ms since the epoch)
   * @param report writes a plugin's fault to the server's log (once per fault)
   */
  constructor(
    private readonly facts: RoomFacts,
    private readonly now: () => number,
    private readonly report: (e: PluginFault) => void,
  ) {}

  /** Sends every browser its view of the position. */
  publish(s: RoomState): void {
    this.review(s);
    const shared = this.shared(s);
    for (const c of s.conns) {
      const p = this.position(s, c, shared);
      const text = JSON.stringify({ ...p, nodes: undefined });
      if (p.nodes.length === 0 && this.lastSent.get(c) === text) continue;
      this.lastSent.set(c, text);
      c.send(p);
    }
  }

  /** Keeps the game's words on node `id`'s move `m`, played from `before` to `after`. */
  noteMove(id: number, before: unknown, m: number, after: unknown): void {
    try {
      this.notes.set(id, this.facts.game.describeMove?.(before, m, after) || "");
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
      this.notes.set(id, "");
    }
  }

  /** Follows the annotations in the state (new ones are sent to each browser once). */
  private review(s: RoomState): void {
    if (s.annotations.size === this.reviewed.length) return;
    const known = new Set(this.reviewed);
    for (const id of s.annotations.keys()) if (!known.has(id)) this.reviewed.push(id);
  }

  /** The tree as the move list shows it. */
  private nodeView(s: RoomState, id: number): NodeView {
    const n = this.facts.session.nodes[id];
    const review = s.annotations.get(id);
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
  private nodeViews(s: RoomState, conn: Conn): { nodes: NodeView[]; full: boolean } {
    const nodes = this.facts.session.nodes;
    const total = s.nodes;
    const seen = this.seen.get(conn);
    this.seen.set(conn, { nodes: total, reviews: this.reviewed.length });
    if (seen === undefined) {
      return { nodes: nodes.slice(0, total).map((_, id) => this.nodeView(s, id)), full: true };
    }
    const ids = new Set<number>();
    for (let id = seen.nodes; id < total; id++) {
      ids.add(id);
      const parent = nodes[id].parent;
      if (parent >= 0) ids.add(parent);
    }
    for (const id of this.reviewed.slice(seen.reviews)) ids.add(id);
    return {
      nodes: [...ids].sort((a, b) => a - b).map((id) => this.nodeView(s, id)),
      full: false,
    };
  }

  /**
   * The game's words on node `id`'s move (`describeMove`; "" for none), asked once per
   * node in the room's thread: as the move is played, or, for nodes the room did not
   * see played (a loaded or restored game), for the whole tree at once.
   */
  private noteOf(id: number): string {
    const { game, session } = this.facts;
    if (id === 0 || game.describeMove === undefined) return "";
    const known = this.notes.get(id);
    if (known !== undefined) return known;
    try {
      // Depth first, without recursion: a game of 2048 is thousands of moves deep.
      const stack: [number, unknown][] = [[0, game.initial()]];
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        const [node, s] = top;
        for (const child of session.nodes[node].children) {
          const m = session.nodes[child].move;
          const after = game.play(s, m);
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

  /**
   * What every browser's view of the position shares (computed once per change). Where
   * the game's plugin fails (the position its game failed at: a page asks for its moves
   * again), the view says so and asks the game nothing.
   */
  private shared(s: RoomState): Shared {
    try {
      return this.sharedView(s);
    } catch (e) {
      if (!(e instanceof PluginFault)) throw e;
      this.report(e);
      const session = this.facts.session;
      const result = session.result?.reason === "error"
        ? session.result
        : { winner: null, margin: 0, reason: "error" as const, error: e.message };
      return {
        tm: null,
        legal: [],
        fields: {
          ...this.roomFields(s),
          text: `(the position cannot be shown: ${e.message})`,
          toMove: null,
          result: { ...result, text: resultText(this.facts.game, result) },
        },
      };
    }
  }

  /**
   * `shared`, asking the game once per position: a room publishes a position more than
   * once (a move, then the AI's thinking), and each call into the game's plugin thread is
   * a round trip the room's thread waits for.
   */
  private sharedView(st: RoomState): Shared {
    const { game, session } = this.facts;
    const s = st.position;
    const of = [s, st.before, st.node, session.result, st.stoppedAt];
    const known = this.lastView;
    if (known !== undefined && known.of.every((k, i) => k === of[i])) {
      return {
        tm: known.tm,
        legal: known.legal,
        fields: { ...this.roomFields(st), ...known.game },
      };
    }
    const node = session.nodes[st.node];
    const over = isOver(game, s);
    const tm = over ? null : game.toMove(s);
    const legal: LegalMove[] = tm === null || tm === CHANCE ? [] : game.moves(s).map((m) => ({
      move: m,
      notation: game.formatMove(s, m),
      picks: game.picture?.picks(s, m) ?? [],
    }));
    const view = st.node === 0 ? {} : { last: { move: node.move, by: node.by } };
    const note = st.before === undefined ? undefined : game.describeMove?.(st.before, node.move, s);
    const outcome = over ? game.outcome(s) : undefined;
    const result = outcome !== undefined
      ? { winner: outcome.winner, margin: outcome.margin, reason: "end" }
      : session.result !== undefined && st.node === st.stoppedAt
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
    return { tm, legal, fields: { ...this.roomFields(st), ...answers } };
  }

  /** What a view of the position says of the room, whatever the game answers. */
  private roomFields(s: RoomState): Omit<Shared["fields"], keyof GameFields> {
    const facts = this.facts;
    const session = facts.session;
    const clock = clockState(facts, s, this.now());
    return {
      game: facts.id,
      kind: facts.kind,
      options: session.options,
      seed: session.seed,
      players: session.players,
      ...(facts.loaded ? { loaded: true } : {}),
      current: s.node,
      thinking: s.thinking?.side ?? null,
      paused: s.paused,
      speed: s.speed,
      analysing: s.analysing,
      watchers: s.conns.size,
      pause: !isHuman(facts, 0) && !isHuman(facts, 1) && session.clock === undefined,
      ...(clock !== undefined ? { clock } : {}),
    };
  }

  /** The position as one browser sees it: its sides, its moves, the nodes it lacks. */
  private position(s: RoomState, conn: Conn, shared: Shared): Position {
    const { tm, legal, fields } = shared;
    const live = isLive(this.facts, s);
    const canMove = tm !== null && tm !== CHANCE &&
      (conn.seat?.sides[tm] === true ||
        (!isHuman(this.facts, tm) && s.paused && conn.seat !== undefined));
    return {
      _tag: "Position",
      ...fields,
      mine: [conn.seat?.sides[0] === true, conn.seat?.sides[1] === true],
      control: conn.seat !== undefined && !live,
      live,
      ...(s.takeback !== undefined ? { takeback: s.takeback } : {}),
      ...this.nodeViews(s, conn),
      nodeCount: s.nodes,
      legal: canMove ? legal : [],
    };
  }
}
