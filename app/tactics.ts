/**
 * Tactical positions, as plain data, for testing searches: positions from seeded random
 * games where a short tactic decides, each labelled with its correct moves by an exact
 * search to a short horizon. `deno task tactics` writes them as a suite (JSON lines) and
 * checks a strategy against one.
 *
 * The kinds (exclusive, in this order of priority), for the player to move (the mover):
 * - `win1`: a move wins at once (the game is over after it, the mover the winner).
 * - `win2`: no move wins at once, but one forces a win within 3 plies (the mover's move,
 *   the opponent's reply, the mover's winning move; with extra turns any 3 plies).
 * - `block`: neither, but the opponent threatens to win at once: after some move, the
 *   opponent is to move and has a move that wins at once. Not every move loses.
 *
 * The labels are exact within the horizon `depth` (3 plies unless asked, counting the
 * move itself; `Infinity` solves to the end): for `win1` and `win2` the correct moves are
 * those after which the mover still forces a win within the horizon; for `block` those
 * after which the opponent cannot force a win within it (the moves that stop the threat,
 * and do not lose to a short follow-up). "Forces a win" is plain AND/OR search over the
 * protocol (`forcedWin`): whoever `toMove` names moves, so extra turns count as plies of
 * the same player, and at a chance node every outcome must win. A position where every
 * move is correct, or none, is no test and is left out.
 *
 * The horizon sees wins and losses, not what lies beyond it. Where it matters (a game
 * that ranks wins by margin, as Kalah: a search may rightly prefer a bigger win later,
 * or, when every move loses, a smaller loss), draw positions with `exact`: each is
 * solved to the end too and kept only when the short tactic is the whole story. That is
 * for small games; larger ones (Pentago) use the horizon alone.
 *
 * Positions are stored as their moves from the start in the game's notation
 * (`formatMove`), so a suite is readable and survives changes of a plugin's move
 * encoding; `tacticState` replays them, checking every move.
 *
 * A one-player game against chance (2048) has no opponent, so no tactics: `generateTactics`
 * refuses it.
 *
 * @module
 */
import { Result, Schema } from "../core/deps.ts";
import { CHANCE, type Game, other, pickChance, type Player } from "../core/game.ts";
import { makeRng } from "../core/rng.ts";
import type { SearchOptions, SequentialStrategy } from "../core/search/types.ts";

/** The kinds of tactical position. */
export type TacticKind = "win1" | "win2" | "block";

/** Every kind, in the order suites list them. */
export const TACTIC_KINDS: readonly TacticKind[] = ["win1", "block", "win2"];

/** The horizon of the labels unless asked: 3 plies (own, opponent, own). */
export const DEFAULT_TACTICS_DEPTH = 3;

/** The most nodes one labelling question (`forcedWin`'s call) may visit by default. */
export const DEFAULT_MAX_NODES = 50_000_000;

/** The most positions a search to the end keeps (a JavaScript Map holds about 16M). */
const MAX_MEMO = 4_000_000;

/** One tactical position: how to reach it, and its correct moves. */
export interface TacticalPosition {
  /** What decides it. */
  readonly kind: TacticKind;
  /** The moves from the start, chance moves included, in the game's notation. */
  readonly moves: readonly string[];
  /** The mover's name (`game.players`). */
  readonly toMove: string;
  /** The correct moves, in the game's notation, in the game's move order. */
  readonly correct: readonly string[];
  /** How many legal moves the mover has (a random move is right `correct/legal` times). */
  readonly legal: number;
}

/** A suite: where its positions come from, and the positions. */
export interface TacticsSuite {
  /** The game (plugin id, path or URL, as it was loaded). */
  readonly game: string;
  /** The game's decoded options. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The seed of the random games. */
  readonly seed: number;
  /** The horizon of the labels in plies (`Infinity`: to the end). */
  readonly depth: number;
  /** The positions. */
  readonly positions: readonly TacticalPosition[];
}

/** How `generateTactics` collects positions. */
export interface TacticsOptions {
  /** The seed of the random games. */
  readonly seed: number;
  /** How many positions of each kind (fewer when the games run out first). */
  readonly count: number;
  /** The kinds wanted (default all). */
  readonly kinds?: readonly TacticKind[];
  /** The horizon of the labels in plies, at least 3 (default 3; `Infinity`: to the end). */
  readonly depth?: number;
  /** The most random games played (default `200 * count`). */
  readonly games?: number;
  /** Only positions this many plies or fewer before the end of their game (default all). */
  readonly lastPlies?: number;
  /** The most nodes one labelling search may visit (default `DEFAULT_MAX_NODES`). */
  readonly maxNodes?: number;
  /**
   * Also solve each position to the end, and keep it only when its correct moves at the
   * horizon are exactly the moves that keep its game-theoretic result (a win, or not a
   * loss for `block`): positions where the short tactic is the whole story. For small
   * games only (tic-tac-toe, Nim, small Kalah or Domineering boards).
   */
  readonly exact?: boolean;
}

/**
 * "Forces a win" over the protocol: `wins(s, p, d)` is true when player `p` wins within
 * `d` plies whatever the others do (at `p`'s nodes some move, at the opponent's every
 * move, at chance nodes every outcome). With `d = Infinity` results are memoized by
 * position (`key`, else the state as JSON), for small games solved to the end. Throws a
 * `RangeError` when one call visits more than `maxNodes` nodes, or the memo outgrows
 * 4 million positions (the game is too big to solve to the end).
 *
 * @example Tic-tac-toe: X (player 0) on a3 and b3 wins at once on c3
 * ```ts
 * import { forcedWin } from "./tactics.ts";
 * import { playAll } from "../core/game.ts";
 * import tictactoe from "../plugins/tictactoe/mod.ts";
 * const g = tictactoe.create({});
 * const s = playAll(g, g.initial(), [0, 3, 1, 4]); // X a3 b3, O a2 b2; X to move
 * const wins = forcedWin(g);
 * if (!wins(s, 0, 1)) throw new Error("X wins at once");
 * if (wins(s, 1, 2)) throw new Error("O cannot win before X does");
 * ```
 */
export const forcedWin = <S>(
  game: Game<S>,
  maxNodes: number = DEFAULT_MAX_NODES,
): (s: S, p: Player, d: number) => boolean => {
  let nodes = 0, active = 0;
  // Infinity only: bit 0/1 = known for player 0/1, bit 2/3 = the answer.
  const memo = new Map<string | number, number>();
  const id = (s: S): string | number => game.key?.(s) ?? JSON.stringify(s);
  const tooBig = (what: string) =>
    new RangeError(
      `labelling a position took ${what}: ${game.id} is too big for this horizon ` +
        "(give a smaller depth, or do not solve to the end)",
    );
  const wins = (s: S, p: Player, d: number): boolean => {
    if (active === 0) nodes = 0;
    active++;
    try {
      return search(s, p, d);
    } finally {
      active--;
    }
  };
  const search = (s: S, p: Player, d: number): boolean => {
    if (++nodes > maxNodes) throw tooBig(`more than ${maxNodes} nodes`);
    // The game is over exactly when it has an outcome (so a leaf needs no move list).
    const o = game.outcome(s);
    if (o !== undefined) return o.winner === p;
    if (d <= 0) return false;
    const tm = game.toMove(s);
    const ms = tm === CHANCE ? undefined : game.moves(s);
    const k = d === Infinity ? id(s) : undefined;
    if (k !== undefined) {
      const bits = memo.get(k) ?? 0;
      if ((bits & (1 << p)) !== 0) return (bits & (4 << p)) !== 0;
    }
    let r: boolean;
    if (ms === undefined) r = game.chances(s).every((c) => search(game.play(s, c.move), p, d - 1));
    else if (tm === p) r = ms.some((m) => search(game.play(s, m), p, d - 1));
    else r = ms.every((m) => search(game.play(s, m), p, d - 1));
    if (k !== undefined) {
      if (memo.size >= MAX_MEMO) throw tooBig(`more than ${MAX_MEMO} positions in memory`);
      memo.set(k, (memo.get(k) ?? 0) | (1 << p) | (r ? 4 << p : 0));
    }
    return r;
  };
  return wins;
};

/** A position's kind and correct moves (moves in the plugin's encoding). */
export interface TacticLabel {
  /** What decides it. */
  readonly kind: TacticKind;
  /** The correct moves, in the game's move order. */
  readonly correct: readonly number[];
}

/**
 * Classifies a position (see the module notes): its kind and correct moves, or
 * `undefined` when no tactic decides it (or it is over, a chance node, or a position
 * where every move or none is correct). `wins` is a `forcedWin` to share between calls;
 * with `exact` (another, or the same), the position is kept only when solving to the
 * end gives the same correct moves.
 *
 * @example Tic-tac-toe: O must block c3
 * ```ts
 * import { classifyPosition } from "./tactics.ts";
 * import { playAll } from "../core/game.ts";
 * import tictactoe from "../plugins/tictactoe/mod.ts";
 * const g = tictactoe.create({});
 * const s = playAll(g, g.initial(), [0, 8, 1]); // X a3 b3, O c1: O to move
 * const label = classifyPosition(g, s);
 * if (label?.kind !== "block" || label.correct.join() !== "2") throw new Error("c3");
 * ```
 */
export const classifyPosition = <S>(
  game: Game<S>,
  s: S,
  depth: number = DEFAULT_TACTICS_DEPTH,
  wins: (s: S, p: Player, d: number) => boolean = forcedWin(game),
  exact?: (s: S, p: Player, d: number) => boolean,
): TacticLabel | undefined => {
  const p = game.toMove(s);
  if (p === CHANCE) return undefined;
  const ms = game.moves(s);
  if (ms.length < 2) return undefined;
  const q = other(p);
  const after = ms.map((m) => game.play(s, m));
  const over = (t: S) => game.outcome(t) !== undefined;
  let kind: TacticKind | undefined;
  if (after.some((t) => over(t) && game.outcome(t)?.winner === p)) kind = "win1";
  else if (after.some((t) => wins(t, p, 2))) kind = "win2";
  else if (after.some((t) => game.toMove(t) === q && !over(t) && wins(t, q, 1))) kind = "block";
  if (kind === undefined) return undefined;
  const label = (solve: typeof wins, rest: number) =>
    kind === "block"
      ? ms.filter((_, i) => !solve(after[i], q, rest))
      : ms.filter((_, i) => solve(after[i], p, rest));
  const correct = label(wins, depth - 1);
  if (correct.length === 0 || correct.length === ms.length) return undefined;
  if (exact !== undefined && label(exact, Infinity).join() !== correct.join()) return undefined;
  return { kind, correct };
};

/** A position's identity for removing duplicates. */
const identity = <S>(game: Game<S>, s: S): string | number => game.key?.(s) ?? JSON.stringify(s);

/** A collection of tactical positions in progress, one random game at a time. */
export interface TacticsCollector {
  /** Plays and classifies one more random game; false once nothing more is wanted. */
  step(): boolean;
  /** The random games played so far. */
  readonly games: number;
  /** The positions so far, by kind (`TACTIC_KINDS` order), then as found. */
  positions(): TacticalPosition[];
}

/**
 * Starts collecting tactical positions from seeded random games (`generateTactics` runs
 * it to the end; a program runs it a game at a time, to stay interruptible). Throws a
 * `RangeError` for a one-player game, a horizon below 3 or a count below 1.
 */
export const tacticsCollector = <S>(
  game: Game<S>,
  options: TacticsOptions,
): TacticsCollector => {
  if (game.solo === true) {
    throw new RangeError(
      `${game.id} is played by one player against chance: there is no opponent, so no ` +
        "tactics (win in one, block, win in two)",
    );
  }
  const depth = options.depth ?? DEFAULT_TACTICS_DEPTH;
  if (!(depth >= 3)) throw new RangeError(`the horizon must be at least 3 plies, got ${depth}`);
  if (!(options.count >= 1)) throw new RangeError(`count must be at least 1`);
  const kinds = TACTIC_KINDS.filter((k) => (options.kinds ?? TACTIC_KINDS).includes(k));
  const wins = forcedWin(game, options.maxNodes);
  const exact = options.exact === true ? wins : undefined;
  const rng = makeRng(options.seed);
  const found = new Map<TacticKind, TacticalPosition[]>(kinds.map((k) => [k, []]));
  const seen = new Set<string | number>();
  const wanted = () => kinds.some((k) => found.get(k)!.length < options.count);
  const limit = options.games ?? 200 * options.count;
  let games = 0;
  const step = (): boolean => {
    if (games >= limit || !wanted()) return false;
    games++;
    // One random game to the end, its positions and moves.
    const states: S[] = [game.initial()];
    const moves: number[] = [];
    for (let s = states[0]; game.outcome(s) === undefined;) {
      const tm = game.toMove(s);
      let m: number;
      if (tm === CHANCE) m = pickChance(game.chances(s), rng.next());
      else {
        const ms = game.moves(s);
        if (ms.length === 0) break;
        m = ms[rng.int(ms.length)];
      }
      moves.push(m);
      s = game.play(s, m);
      states.push(s);
    }
    const from = options.lastPlies === undefined ? 0 : states.length - 1 - options.lastPlies;
    const candidates = new Map<TacticKind, [number, TacticLabel][]>(kinds.map((k) => [k, []]));
    for (let i = Math.max(0, from); i < states.length; i++) {
      const label = classifyPosition(game, states[i], depth, wins, exact);
      if (label !== undefined && candidates.has(label.kind)) {
        candidates.get(label.kind)!.push([i, label]);
      }
    }
    // One position of each kind still wanted, drawn among the game's.
    for (const kind of kinds) {
      const list = candidates.get(kind)!;
      if (list.length === 0 || found.get(kind)!.length >= options.count) continue;
      const [i, label] = list[rng.int(list.length)];
      const s = states[i];
      const k = identity(game, s);
      if (seen.has(k)) continue;
      seen.add(k);
      found.get(kind)!.push({
        kind,
        moves: notation(game, game.initial(), moves.slice(0, i)),
        toMove: game.players[game.toMove(s) as Player],
        correct: label.correct.map((m) => game.formatMove(s, m)),
        legal: game.moves(s).length,
      });
    }
    return wanted() && games < limit;
  };
  return {
    step,
    get games() {
      return games;
    },
    positions: () => kinds.flatMap((k) => found.get(k)!),
  };
};

/**
 * Collects tactical positions from seeded random games: each game is played with
 * uniformly random moves (chance by its probabilities) to the end; its positions (the
 * last `lastPlies` only, if given) are classified, and one position of each kind still
 * wanted is drawn among them. Stops when every kind has `count` positions, or after
 * `games` games. The same game, options and seed give the same positions; they are
 * listed by kind (`TACTIC_KINDS` order), then as found. Throws a `RangeError` for a
 * one-player game, a horizon below 3 or a count below 1.
 *
 * @example Tic-tac-toe, three of each kind
 * ```ts
 * import { generateTactics } from "./tactics.ts";
 * import tictactoe from "../plugins/tictactoe/mod.ts";
 * const g = tictactoe.create({});
 * const ps = generateTactics(g, { seed: 1, count: 3 });
 * if (ps.length !== 9) throw new Error(`${ps.length} positions`);
 * ```
 */
export const generateTactics = <S>(
  game: Game<S>,
  options: TacticsOptions,
): TacticalPosition[] => {
  const collector = tacticsCollector(game, options);
  while (collector.step());
  return collector.positions();
};

/** A line of moves in the game's notation. */
const notation = <S>(game: Game<S>, from: S, line: readonly number[]): string[] => {
  let s = from;
  return line.map((m) => {
    const t = game.formatMove(s, m);
    s = game.play(s, m);
    return t;
  });
};

/** A position replayed: its state and correct moves in the plugin's encoding. */
export interface TacticState<S> {
  /** The position. */
  readonly state: S;
  /** Its correct moves. */
  readonly correct: readonly number[];
}

/**
 * Replays a position's moves from the start, each parsed and checked for legality, and
 * reads its correct moves; the error names the first move that does not fit.
 */
export const tacticState = <S>(
  game: Game<S>,
  position: TacticalPosition,
): Result.Result<TacticState<S>, string> => {
  let s = game.initial();
  for (const [i, text] of position.moves.entries()) {
    const m = game.parseMove(s, text);
    const legal = game.toMove(s) === CHANCE ? game.chances(s).map((c) => c.move) : game.moves(s);
    if (Result.isFailure(m)) return Result.fail(`move ${i + 1} '${text}': ${m.failure}`);
    if (!legal.includes(m.success)) return Result.fail(`move ${i + 1} '${text}' is not legal`);
    s = game.play(s, m.success);
  }
  if (game.toMove(s) === CHANCE || game.moves(s).length === 0) {
    return Result.fail("the position after the moves has no player to move");
  }
  const mover = game.players[game.toMove(s) as Player];
  if (mover !== position.toMove) {
    return Result.fail(`${mover} is to move after the moves, not ${position.toMove}`);
  }
  const correct: number[] = [];
  for (const text of position.correct) {
    const m = game.parseMove(s, text);
    if (Result.isFailure(m)) return Result.fail(`correct move '${text}': ${m.failure}`);
    correct.push(m.success);
  }
  return Result.succeed({ state: s, correct });
};

/** What a strategy did on one position. */
export interface TacticResult {
  /** The position's kind. */
  readonly kind: TacticKind;
  /** The move chosen (in notation), `undefined` if none. */
  readonly move: string | undefined;
  /** True when it is a correct move. */
  readonly solved: boolean;
  /** The search's nodes. */
  readonly nodes: number;
}

/**
 * Runs a strategy on a replayed position (in the calling thread) and says whether its
 * move is correct. `options` are the search's (budget, seed, ...).
 */
export const tryTactic = <S>(
  game: Game<S>,
  position: TacticalPosition,
  at: TacticState<S>,
  strategy: SequentialStrategy,
  options: SearchOptions,
): TacticResult => {
  const r = strategy.search(game, at.state, options);
  return judge(game, position, at, r.move, r.nodes);
};

/** The verdict on a move chosen at a replayed position. */
export const judge = <S>(
  game: Game<S>,
  position: TacticalPosition,
  at: TacticState<S>,
  move: number | undefined,
  nodes: number,
): TacticResult => ({
  kind: position.kind,
  move: move === undefined ? undefined : game.formatMove(at.state, move),
  solved: move !== undefined && at.correct.includes(move),
  nodes,
});

/** The share solved, per kind and in all. */
export interface TacticsScore {
  /** Per kind present: solved and total. */
  readonly byKind: Readonly<Partial<Record<TacticKind, { solved: number; total: number }>>>;
  /** Solved in all. */
  readonly solved: number;
  /** Positions in all. */
  readonly total: number;
}

/** Adds up results per kind. */
export const scoreTactics = (results: readonly TacticResult[]): TacticsScore => {
  const byKind: Partial<Record<TacticKind, { solved: number; total: number }>> = {};
  for (const kind of TACTIC_KINDS) {
    const of = results.filter((r) => r.kind === kind);
    if (of.length > 0) {
      byKind[kind] = { solved: of.filter((r) => r.solved).length, total: of.length };
    }
  }
  return { byKind, solved: results.filter((r) => r.solved).length, total: results.length };
};

// ---------------------------------------------------------------------------------------
// Suites as JSON lines: a header line, then one position per line.

/** The `format` field of a suite's header line. */
export const TACTICS_FORMAT = "ply-tactics";

const Kind = Schema.Literals(["win1", "win2", "block"]);
const Header = Schema.Struct({
  format: Schema.Literal(TACTICS_FORMAT),
  version: Schema.Literal(1),
  game: Schema.String,
  options: Schema.Record(Schema.String, Schema.Unknown),
  seed: Schema.Int,
  depth: Schema.Union([Schema.Int, Schema.Literal("end")]),
});
const Position = Schema.Struct({
  kind: Kind,
  moves: Schema.Array(Schema.String),
  toMove: Schema.String,
  correct: Schema.Array(Schema.String),
  legal: Schema.Int,
});

/** A suite as JSON lines: the header (game, options, seed, depth), then the positions. */
export const suiteToJsonl = (suite: TacticsSuite): string =>
  [
    {
      format: TACTICS_FORMAT,
      version: 1,
      game: suite.game,
      options: suite.options,
      seed: suite.seed,
      depth: suite.depth === Infinity ? "end" : suite.depth,
    },
    ...suite.positions,
  ].map((x) => JSON.stringify(x)).join("\n") + "\n";

/**
 * Reads a suite written by `suiteToJsonl`; the error names the line and what was wrong.
 *
 * @example
 * ```ts
 * import { parseSuite, suiteToJsonl } from "./tactics.ts";
 * import { Result } from "../core/deps.ts";
 * const text = suiteToJsonl({ game: "nim", options: {}, seed: 1, depth: 3, positions: [] });
 * const back = parseSuite(text);
 * if (!Result.isSuccess(back) || back.success.game !== "nim") throw new Error();
 * if (!Result.isFailure(parseSuite("{}\n"))) throw new Error("not a suite");
 * ```
 */
export const parseSuite = (text: string): Result.Result<TacticsSuite, string> => {
  const lines = text.split("\n").map((l, i) => [i + 1, l.trim()] as const)
    .filter(([, l]) => l !== "");
  if (lines.length === 0) return Result.fail("empty: not a tactics suite");
  const decoded: unknown[] = [];
  for (const [n, l] of lines) {
    try {
      decoded.push(JSON.parse(l));
    } catch {
      return Result.fail(`line ${n}: not JSON`);
    }
  }
  const problem = (n: number, e: Schema.SchemaError) =>
    `line ${n}: ${e.message.split("\n").slice(0, 3).join("; ")}`;
  const h = Schema.decodeUnknownResult(Header)(decoded[0]);
  if (Result.isFailure(h)) {
    return Result.fail(
      `not a tactics suite (${TACTICS_FORMAT} version 1): ` + problem(1, h.failure),
    );
  }
  const positions: TacticalPosition[] = [];
  for (let i = 1; i < decoded.length; i++) {
    const p = Schema.decodeUnknownResult(Position)(decoded[i]);
    if (Result.isFailure(p)) return Result.fail(problem(lines[i][0], p.failure));
    positions.push(p.success);
  }
  const { game, options, seed, depth } = h.success;
  return Result.succeed({
    game,
    options,
    seed,
    depth: depth === "end" ? Infinity : depth,
    positions,
  });
};
