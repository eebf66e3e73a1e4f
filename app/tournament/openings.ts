/**
 * Openings of a tournament: the first plies of its games, each played twice with the
 * sides swapped, so that deterministic players play distinct games. An opening is a
 * seeded random sequence of a few plies (chance moves included) that is not already
 * decided (`decided`: an exact search where the rest of the game is small enough, a
 * deeper one elsewhere), or a line of a book file.
 *
 * @module
 */
import { CHANCE, type Game, isOver, pickChance, WIN_THRESHOLD } from "../../core/game.ts";
import { makeRng, type Rng } from "../../core/rng.ts";
import { expectimaxStrategy } from "../../core/search/strategies.ts";
import { search } from "../../core/engine/engine.ts";
import type { SearchError } from "../../core/errors.ts";
import type { GameSource } from "../../core/source.ts";
import { Deferred, Effect, Result } from "../../core/deps.ts";

/** An opening: its moves from the start, in the plugin's encoding and in notation. */
export interface Opening {
  /** The moves, chance moves included. */
  readonly moves: readonly number[];
  /** The same moves in the game's notation. */
  readonly notation: readonly string[];
}

/** How the openings of a tournament are made (the `--openings`/`--book` flags). */
export type OpeningSource =
  | { readonly kind: "none" }
  | { readonly kind: "random"; readonly plies: number }
  | { readonly kind: "book"; readonly file: string };

/** The openings when none is asked for: four random plies. */
export const DEFAULT_OPENINGS: OpeningSource = { kind: "random", plies: 4 };

/**
 * The search that rejects an opening already decided: alpha-beta (chance nodes
 * averaged) to `minDepth` plies, then one ply deeper at a time until its value is exact
 * (it reached the end of every line: the game is small enough to be solved from there),
 * a side is found to win by force, its nodes reach `nodes`, or it reaches `maxDepth`.
 * Nodes, not time, bound it: the same seed gives the same openings on any machine.
 */
export const OPENING_CHECK = { minDepth: 2, maxDepth: 64, nodes: 20_000 } as const;

/** The empty opening: every game from the start. */
export const START: Opening = { moves: [], notation: [] };

/**
 * True when the position is over, or the check's search (`OPENING_CHECK`, through the
 * engine: in a worker of the pool when `source` is given) finds it won by force for a
 * side: such an opening would decide the game before the players choose anything. The
 * verdict is exact where the search reached every leaf.
 */
export const decided = <S>(
  game: Game<S>,
  state: S,
  source?: GameSource,
): Effect.Effect<boolean, SearchError> =>
  Effect.gen(function* () {
    if (isOver(game, state)) return true;
    for (let depth = OPENING_CHECK.minDepth;; depth++) {
      const r = yield* search({
        strategy: expectimaxStrategy,
        game,
        state,
        ...(source !== undefined ? { source } : {}),
        options: { depth },
      });
      if (Math.abs(r.value) >= WIN_THRESHOLD) return true;
      if (r.exact || r.nodes >= OPENING_CHECK.nodes || depth >= OPENING_CHECK.maxDepth) {
        return false;
      }
    }
  });

/** One random line of `plies` plies from the start, or undefined if the game ends first. */
const randomLine = <S>(game: Game<S>, plies: number, rng: Rng): Opening | undefined => {
  let state = game.initial();
  const moves: number[] = [];
  const notation: string[] = [];
  for (let i = 0; i < plies; i++) {
    let m: number;
    if (game.toMove(state) === CHANCE) m = pickChance(game.chances(state), rng.next());
    else {
      const legal = game.moves(state);
      if (legal.length === 0) return undefined;
      m = legal[rng.int(legal.length)];
    }
    notation.push(game.formatMove(state, m));
    moves.push(m);
    state = game.play(state, m);
  }
  return { moves, notation };
};

/** The openings of a series, made as the rounds need them: round r plays `at(r)`. */
export interface Openings {
  /** The opening of round `round` (from 0); it fails when the check's search cannot run. */
  readonly at: (round: number) => Effect.Effect<Opening, SearchError>;
}

/** A fixed list of openings (a book, or the start alone), taken in order and repeated. */
export const fixedOpenings = (list: readonly Opening[]): Openings => ({
  at: (round) => Effect.succeed(list[round % list.length]),
});

/** How many tries in a row may find no new opening before the game is taken as exhausted. */
const MAX_MISSES = 1000;

/**
 * Distinct random openings of `plies` plies from `seed`, made as the rounds ask for them
 * (the first n are the same whatever the number of rounds, and whatever rounds ask
 * first), each checked by `decided` (its searches in the engine's workers when `source`
 * is given). When the game has no more distinct playable openings (a small game, few
 * plies: 1000 tries in a row found no new one), the ones found are repeated in order.
 */
export const randomOpenings = <S>(
  game: Game<S>,
  plies: number,
  seed: number,
  source?: GameSource,
): Openings => {
  if (plies === 0) return fixedOpenings([START]);
  const rng = makeRng(seed);
  const tried = new Set<string>(); // lines checked, kept or not (a line's verdict is fixed)
  const found: Opening[] = [];
  let exhausted = false;
  /** Finds the next opening (or finds there is none). */
  const more = Effect.gen(function* () {
    for (let misses = 0; misses < MAX_MISSES; misses++) {
      const o = randomLine(game, plies, rng);
      if (o === undefined) continue;
      const key = o.moves.join(",");
      if (tried.has(key)) continue;
      tried.add(key);
      let state = game.initial();
      for (const m of o.moves) state = game.play(state, m);
      if (yield* decided(game, state, source)) continue;
      found.push(o);
      return;
    }
    exhausted = true;
  });
  // One maker at a time: games starting at once ask together, and the openings must come
  // in the seed's order whoever asks first.
  let busy: Deferred.Deferred<void> | undefined;
  const alone = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.gen(function* () {
      while (busy !== undefined) yield* Deferred.await(busy);
      const mine = Deferred.makeUnsafe<void>();
      busy = mine;
      return yield* Effect.ensuring(
        effect,
        Effect.suspend(() => {
          busy = undefined;
          return Deferred.succeed(mine, undefined);
        }),
      );
    });
  return {
    at: (round) =>
      alone(Effect.gen(function* () {
        while (found.length <= round && !exhausted) yield* more;
        if (found.length === 0) found.push(START);
        return found[found.length > round ? round : round % found.length];
      })),
  };
};

/**
 * Reads a book: one opening per line, its moves in the game's notation separated by
 * commas or spaces; empty lines and lines starting with `#` are skipped. A move that
 * does not parse or is not legal is an error naming the line.
 */
export const bookOpenings = <S>(
  game: Game<S>,
  text: string,
  file: string,
): Result.Result<readonly Opening[], string> => {
  const openings: Opening[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    let state = game.initial();
    const moves: number[] = [];
    const notation: string[] = [];
    for (const word of line.split(/[\s,]+/).filter((w) => w !== "")) {
      const where = `${file}:${i + 1}: move ${moves.length + 1} '${word}'`;
      const parsed = game.parseMove(state, word);
      if (Result.isFailure(parsed)) return Result.fail(`${where}: ${parsed.failure}`);
      const m = parsed.success;
      const legal = game.toMove(state) === CHANCE
        ? game.chances(state).some((c) => c.move === m)
        : game.moves(state).includes(m);
      if (!legal) return Result.fail(`${where} is not legal there`);
      notation.push(game.formatMove(state, m));
      moves.push(m);
      state = game.play(state, m);
    }
    if (isOver(game, state)) return Result.fail(`${file}:${i + 1}: the game is over after it`);
    openings.push({ moves, notation });
  }
  if (openings.length === 0) return Result.fail(`${file} has no opening (one move list per line)`);
  return Result.succeed(openings);
};
