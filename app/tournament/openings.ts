/**
 * Openings of a tournament: the first plies of its games, each played twice with the
 * sides swapped, so that deterministic players play distinct games. An opening is a
 * seeded random sequence of a few plies (chance moves included) that a shallow search
 * does not find lost for either side, or a line of a book file.
 *
 * @module
 */
import { CHANCE, type Game, isOver, pickChance, WIN_THRESHOLD } from "../../core/game.ts";
import { makeRng, type Rng } from "../../core/rng.ts";
import { alphabetaSearch } from "../../core/search/alphabeta.ts";
import { Result } from "../../core/deps.ts";

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

/** The depth of the search that rejects an opening already decided (in plies). */
export const OPENING_CHECK_DEPTH = 2;

/** The empty opening: every game from the start. */
export const START: Opening = { moves: [], notation: [] };

/**
 * True when the shallow search proves the position decided (or it is over): such an
 * opening would decide the game before the players choose anything.
 */
const decided = <S>(game: Game<S>, state: S): boolean => {
  if (isOver(game, state)) return true;
  const r = alphabetaSearch(game, state, { depth: OPENING_CHECK_DEPTH, tt: false }, "expect");
  return Math.abs(r.value) >= WIN_THRESHOLD;
};

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
  return decided(game, state) ? undefined : { moves, notation };
};

/** The openings of a series, made as the rounds need them: round r plays `at(r)`. */
export interface Openings {
  /** The opening of round `round` (from 0). */
  readonly at: (round: number) => Opening;
  /** How many distinct openings the rounds asked for so far have used. */
  readonly distinct: () => number;
}

/** A fixed list of openings (a book, or the start alone), taken in order and repeated. */
export const fixedOpenings = (list: readonly Opening[]): Openings => {
  let used = 0;
  return {
    at: (round) => {
      used = Math.max(used, Math.min(list.length, round + 1));
      return list[round % list.length];
    },
    distinct: () => new Set(list.slice(0, used).map((o) => o.moves.join())).size,
  };
};

/**
 * Distinct random openings of `plies` plies from `seed`, made as the rounds ask for them
 * (the first n are the same whatever the number of rounds). When the game has no more
 * distinct playable openings (a small game, few plies: 1000 tries in a row found no new
 * one), the ones found are repeated in order.
 */
export const randomOpenings = <S>(game: Game<S>, plies: number, seed: number): Openings => {
  if (plies === 0) return fixedOpenings([START]);
  const rng = makeRng(seed);
  const seen = new Set<string>();
  const found: Opening[] = [];
  let exhausted = false;
  const more = () => {
    // Each try costs a shallow search.
    for (let misses = 0; misses < 1000; misses++) {
      const o = randomLine(game, plies, rng);
      const key = o?.moves.join(",");
      if (o === undefined || seen.has(key!)) continue;
      seen.add(key!);
      found.push(o);
      return;
    }
    exhausted = true;
  };
  let used = 0;
  return {
    at: (round) => {
      while (found.length <= round && !exhausted) more();
      if (found.length === 0) found.push(START);
      const i = found.length > round ? round : round % found.length;
      used = Math.max(used, Math.min(found.length, round + 1));
      return found[i];
    },
    distinct: () => used,
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
