/**
 * Transcripts: a game session as JSON, the file `play --save` writes, `play --load` and
 * `review` read, and `runGame` returns. Version 2 keeps the main line in `moves` (as
 * version 1 did, so a version-1 reader and `replay` still see the game), with each
 * AI move's search, plus the variations tried and the current node; version-1 files
 * (no `version` field) still load.
 *
 * Nodes are numbered as `Session` numbers them on import: 0 is the start, 1..L the main
 * line's moves in order, then the variations in the order listed (each after its parent).
 *
 * @module
 */
import { Result, Schema } from "../core/deps.ts";
import { CHANCE, type Game, movesOf } from "../core/game.ts";
import type { TimeControl } from "./clock.ts";
import {
  mainLine,
  type MoveRecord,
  newSession,
  pathTo,
  type Session,
  type SessionResult,
} from "./session.ts";

/** The transcript version this module writes. */
const TRANSCRIPT_VERSION = 2;

/** One move of a transcript. */
export type TranscriptMove = MoveRecord;

/** A move off the main line: a transcript move and the node it was played from. */
export interface VariationMove extends TranscriptMove {
  /** The node it was played from (see the numbering above). */
  readonly parent: number;
}

/** How a game ended. */
export type GameResult = SessionResult;

/** A whole game: enough to replay it exactly, and (version 2) every line tried. */
export interface Transcript {
  /** 2 for this format; absent in version-1 files. */
  readonly version?: number;
  /** The game (plugin id or module specifier). */
  readonly game: string;
  /** The decoded game options. */
  readonly options: unknown;
  /** The random seed of the run. */
  readonly seed: number;
  /** The players' specs, player 0 first. */
  readonly players: readonly [string, string];
  /** The main line's moves in order, chance moves included. */
  readonly moves: readonly TranscriptMove[];
  /** How it ended (`"unfinished"` for a game still in progress). */
  readonly result: GameResult;
  /** The game's statistics of the final state, if it has any. */
  readonly stats?: Readonly<Record<string, number>>;
  /** Moves off the main line, each after its parent (version 2). */
  readonly variations?: readonly VariationMove[];
  /** The current node, when it is not the main line's last (version 2). */
  readonly current?: number;
  /**
   * How many numbers the seed's random stream had given when it was saved, for a resumed
   * game to continue it (absent in older files: the stream starts again).
   */
  readonly draws?: number;
  /** The time control of a clocked game (each move then records its mover's time left). */
  readonly clock?: TimeControl;
}

const ByField = Schema.Union([Schema.Literals([0, 1]), Schema.Literal(CHANCE)]);
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0));
const SearchField = Schema.Struct({
  value: Schema.Number,
  depth: Count,
  exact: Schema.Boolean,
  pv: Schema.Array(Schema.String),
  nodes: Schema.Number,
  timeMs: Schema.Number,
  notes: Schema.optional(Schema.Array(Schema.String)),
});
const moveFields = {
  by: ByField,
  move: Schema.Int,
  notation: Schema.String,
  ms: Schema.Number,
  agent: Schema.optional(Schema.String),
  search: Schema.optional(SearchField),
  clock: Schema.optional(Count),
};
const Millis = Schema.Int.check(Schema.isGreaterThan(0));
const ClockField = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("fischer"), baseMs: Millis, incrementMs: Count }),
  Schema.Struct({ kind: Schema.Literal("move"), moveMs: Millis }),
]);
const TranscriptShape = Schema.Struct({
  version: Schema.optional(Schema.Literals([1, 2])),
  game: Schema.String,
  options: Schema.Unknown,
  seed: Count,
  players: Schema.Tuple([Schema.String, Schema.String]),
  moves: Schema.Array(Schema.Struct(moveFields)),
  result: Schema.Struct({
    winner: Schema.NullOr(Schema.Literals([0, 1])),
    margin: Schema.Number,
    reason: Schema.String,
    by: Schema.optional(Schema.Literals([0, 1])),
    error: Schema.optional(Schema.String),
    adjudicated: Schema.optional(Schema.String),
  }),
  stats: Schema.optional(Schema.Record(Schema.String, Schema.Number)),
  variations: Schema.optional(Schema.Array(Schema.Struct({ parent: Count, ...moveFields }))),
  current: Schema.optional(Count),
  draws: Schema.optional(Count),
  clock: Schema.optional(ClockField),
});

const UNFINISHED: GameResult = { winner: null, margin: 0, reason: "unfinished" };

const moveOf = (n: Session["nodes"][number]): TranscriptMove => ({
  by: n.by,
  move: n.move,
  notation: n.notation,
  ms: n.ms,
  ...(n.agent !== undefined ? { agent: n.agent } : {}),
  ...(n.search !== undefined ? { search: n.search } : {}),
  ...(n.clock !== undefined ? { clock: n.clock } : {}),
});

/**
 * The nodes in transcript order: the main line, then every variation depth first (each
 * node after its parent, siblings in the session's order).
 */
const transcriptOrder = (session: Session): number[] => {
  const main = mainLine(session);
  const order = [...main];
  const visit = (id: number) => {
    order.push(id);
    for (const c of session.nodes[id].children) visit(c);
  };
  for (const m of main) for (const c of session.nodes[m].children.slice(1)) visit(c);
  return order;
};

/**
 * The number each node of a session has in its transcript: the id the node gets in the
 * session that `importTranscript` makes of `exportTranscript(session)`.
 */
export const transcriptNumbers = (session: Session): Map<number, number> =>
  new Map(transcriptOrder(session).map((id, i) => [id, i]));

/** A session as a (version 2) transcript. */
export const exportTranscript = (session: Session): Transcript => {
  const order = transcriptOrder(session);
  const number = new Map(order.map((id, i) => [id, i]));
  const main = mainLine(session);
  const variations = order.slice(main.length).map((id): VariationMove => {
    const n = session.nodes[id];
    return { parent: number.get(n.parent)!, ...moveOf(n) };
  });
  const current = number.get(session.current)!;
  return {
    version: TRANSCRIPT_VERSION,
    game: session.game,
    options: session.options,
    seed: session.seed,
    players: [session.players[0], session.players[1]],
    moves: main.slice(1).map((id) => moveOf(session.nodes[id])),
    result: session.result ?? UNFINISHED,
    ...(session.stats !== undefined ? { stats: session.stats } : {}),
    ...(variations.length > 0 ? { variations } : {}),
    ...(current !== main.length - 1 ? { current } : {}),
    ...(session.draws !== undefined && session.draws > 0 ? { draws: session.draws } : {}),
    ...(session.clock !== undefined ? { clock: session.clock } : {}),
  };
};

/** Checks a JSON value's shape as a transcript; the error names the first problems. */
export const decodeTranscript = (json: unknown): Result.Result<Transcript, string> => {
  const r = Schema.decodeUnknownResult(TranscriptShape, { errors: "all" })(json);
  if (Result.isSuccess(r)) return Result.succeed(r.success as Transcript);
  return Result.fail(
    `not a ply transcript: ${r.failure.message.split("\n").slice(0, 4).join("; ")}`,
  );
};

/**
 * Rebuilds the session a transcript records, checking every move against the game's
 * rules (its mover and its legality where it was played). Fails with a message naming
 * the first move that does not fit.
 */
export const importTranscript = <S>(
  game: Game<S>,
  transcript: Transcript,
): Result.Result<Session, string> => {
  const session = newSession(transcript);
  const states: S[] = [game.initial()];
  const add = (parent: number, m: TranscriptMove, what: string): string | undefined => {
    if (!Number.isInteger(parent) || parent < 0 || parent >= session.nodes.length) {
      return `${what} (${m.notation}) comes from node ${parent}, which is not before it`;
    }
    const s = states[parent];
    if (game.toMove(s) !== m.by || !movesOf(game, s).includes(m.move)) {
      return `${what} (${m.notation}) is not legal there`;
    }
    const id = session.nodes.length;
    session.nodes.push({ parent, ...m, children: [], next: -1 });
    session.nodes[parent].children.push(id);
    states.push(game.play(s, m.move));
    return undefined;
  };
  for (const [i, m] of transcript.moves.entries()) {
    const problem = add(i, m, `move ${i + 1}`);
    if (problem !== undefined) return Result.fail(problem);
  }
  for (const [i, v] of (transcript.variations ?? []).entries()) {
    const { parent, ...m } = v;
    const problem = add(parent, m, `variation move ${i + 1}`);
    if (problem !== undefined) return Result.fail(problem);
  }
  const current = transcript.current ?? transcript.moves.length;
  if (!Number.isInteger(current) || current < 0 || current >= session.nodes.length) {
    return Result.fail(`the current node ${current} is not in the transcript`);
  }
  const path = pathTo(session, current);
  for (let i = 0; i + 1 < path.length; i++) session.nodes[path[i]].next = path[i + 1];
  // Elsewhere `redo` follows the main continuation.
  for (const n of session.nodes) if (n.next === -1 && n.children.length > 0) n.next = n.children[0];
  session.current = current;
  if (transcript.result.reason !== UNFINISHED.reason) session.result = transcript.result;
  if (transcript.stats !== undefined) session.stats = transcript.stats;
  if (transcript.draws !== undefined) session.draws = transcript.draws;
  return Result.succeed(session);
};
