/**
 * A tournament's results from its finished games: W/D/L per pairing and per side, game
 * pairs (pentanomial counts), Elo differences with intervals and likelihood of
 * superiority, maximum-likelihood ratings, and the games that repeated another.
 *
 * @module
 */
import { hashInts } from "../../core/hash.ts";
import type { GameRecord } from "./runner.ts";
import { OPENING_AGENT } from "./runner.ts";
import {
  type EloEstimate,
  eloFromPentanomial,
  eloFromWdl,
  fitRatings,
  type PairingScore,
  type Pentanomial,
  type Ratings,
  type Wdl,
} from "./stats.ts";

/** One pairing's results, from its first player's view. */
export interface PairingResult {
  /** The two players (indices): `a` first, the view of every count. */
  readonly players: readonly [number, number];
  /** Games played. */
  readonly games: number;
  /** `a`'s wins, draws and losses. */
  readonly wdl: Wdl;
  /** The same with `a` playing the game's first player, then its second. */
  readonly bySide: readonly [Wdl, Wdl];
  /**
   * Complete game pairs (one opening, sides swapped), by `a`'s points in the pair; a pair
   * with a faulted game is left out.
   */
  readonly pentanomial: Pentanomial;
  /** Pairs left out because one of their games (or both) faulted. */
  readonly faultedPairs: number;
  /**
   * Elo of `a` over `b`: from the game pairs when there are any (the two games of a pair
   * share an opening and are not independent), otherwise from the games.
   */
  readonly elo: EloEstimate;
  /** The same from the games as if they were independent (for comparison). */
  readonly eloGames: EloEstimate;
}

/** A player's totals. */
export interface PlayerResult {
  /** The player's name (spec). */
  readonly name: string;
  /** Games played. */
  readonly games: number;
  /** Points (a win 1, a draw ½). */
  readonly points: number;
  /** Its wins, draws and losses over all games. */
  readonly wdl: Wdl;
  /** Mean milliseconds per move it chose. */
  readonly msPerMove: number;
}

/** A game whose moves and players are those of an earlier game. */
export interface Repeat {
  /** The game. */
  readonly id: string;
  /** The earlier game it repeats. */
  readonly sameAs: string;
}

/** Everything a tournament reports. */
export interface TournamentResults {
  /** The players' totals, in the tournament's order. */
  readonly players: readonly PlayerResult[];
  /** Every pairing that played. */
  readonly pairings: readonly PairingResult[];
  /** Ratings fitted by maximum likelihood, anchored on `anchor` (Elo 0). */
  readonly ratings: Ratings & { readonly anchor: number };
  /** `score[i][j]`: i's points against j per game; undefined when they did not meet. */
  readonly score: readonly (readonly (number | undefined)[])[];
  /** `games[i][j]`: games between i and j. */
  readonly games: readonly (readonly number[])[];
  /** Games in all (faulted games left out). */
  readonly total: number;
  /** Results by seat: the first player's wins, draws, the second player's wins. */
  readonly seats: { readonly first: number; readonly draws: number; readonly second: number };
  /** Games stopped at the move limit (counted as draws). */
  readonly moveLimit: number;
  /** Games ended early by `--adjudicate` (their adjudicated results counted). */
  readonly adjudicated: number;
  /** Games that repeated an earlier one move for move. */
  readonly repeated: readonly Repeat[];
  /** Mean plies per game (chance moves and openings included). */
  readonly meanPlies: number;
  /** Distinct openings among the games (faulted ones included): the same on a rerun. */
  readonly distinctOpenings: number;
}

/** A game's opening, as one text: its moves played as `opening`. */
const openingOf = (r: GameRecord): string =>
  r.transcript.moves.filter((m) => m.agent === OPENING_AGENT).map((m) => m.move).join(",");

/** The distinct openings the games started from (their moves played as `opening`). */
export const distinctOpenings = (records: readonly GameRecord[]): number =>
  new Set(records.map(openingOf)).size;

const emptyWdl = (): { wins: number; draws: number; losses: number } => ({
  wins: 0,
  draws: 0,
  losses: 0,
});

/** The points (0, ½ or 1) of the entrant playing `seat` in a game. */
const pointsOf = (record: GameRecord, seat: 0 | 1): number => {
  const w = record.transcript.result.winner;
  return w === null ? 0.5 : w === seat ? 1 : 0;
};

const add = (t: { wins: number; draws: number; losses: number }, points: number) => {
  if (points === 1) t.wins++;
  else if (points === 0) t.losses++;
  else t.draws++;
};

/** The seat (0 or 1) entrant `p` held in a game. */
const seatOf = (r: GameRecord, p: number): 0 | 1 => (r.seats[0] === p ? 0 : 1);

/**
 * Game-pair counts kept as games come in (an SPRT tests them after every game). A pair
 * with a faulted game is left out whole: its other game alone is no pair (the two games
 * of a pair balance the opening and the first move).
 */
export interface PairCounter {
  /** Counts a game of the pairing (its pair is complete once both games are in). */
  readonly add: (record: GameRecord) => void;
  /** The complete pairs by `a`'s points in the pair (pairs with a faulted game left out). */
  readonly counts: () => Pentanomial;
  /** The pairs left out: those with a faulted game (the other one played or not). */
  readonly faulted: () => number;
}

/** A pair counter of one pairing, from entrant `a`'s view. */
export const pairCounter = (a: number): PairCounter => {
  const waiting = new Map<number, number>(); // round -> a's points in the pair's first game
  const spoiled = new Set<number>(); // rounds whose pair has a faulted game
  const pent: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  return {
    add: (r) => {
      // A faulted game spoils its pair: its other game, played before or after, waits
      // for a partner that never comes.
      if (r.fault !== undefined) {
        spoiled.add(r.round);
        waiting.delete(r.round);
        return;
      }
      const p = pointsOf(r, seatOf(r, a));
      const first = waiting.get(r.round);
      if (first === undefined) waiting.set(r.round, p);
      else {
        waiting.delete(r.round);
        pent[(first + p) * 2]++;
      }
    },
    counts: () => [...pent],
    faulted: () => spoiled.size,
  };
};

/** A game's place in the schedule: round, then pairing, then id. */
interface Placed {
  readonly id: string;
  readonly round: number;
  readonly pairing: number;
}

const bySchedule = (x: Placed, y: Placed): number =>
  x.round - y.round || x.pairing - y.pairing || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/**
 * A tournament's results kept as its games come in, in any order: counts per pairing,
 * per player and per seat, the pairs, the openings seen and a hash of each game's moves
 * (for repeats), never the records. Memory grows with the players, the rounds and a few
 * dozen bytes a game, not with the games' moves, so a series of any length can be
 * followed; `results()` gives at any time what `tallyResults` gives of the same games.
 */
export interface ResultsTally {
  /** Counts one finished or faulted game (each game once: the caller drops repeats of an id). */
  readonly add: (record: GameRecord) => void;
  /** The results of the games counted so far. */
  readonly results: () => TournamentResults;
}

/** An empty tally of the games among `names`, pairings as `pairings` lists them. */
export const resultsTally = (
  names: readonly string[],
  pairings: readonly (readonly [number, number])[],
  anchor: number,
): ResultsTally => {
  const n = names.length;
  const perPairing = pairings.map(([a]) => ({
    wdl: emptyWdl(),
    bySide: [emptyWdl(), emptyWdl()] as const,
    points: 0,
    games: 0,
    pairs: pairCounter(a),
  }));
  const perPlayer = names.map(() => ({ wdl: emptyWdl(), moves: 0, ms: 0 }));
  const seats = { first: 0, draws: 0, second: 0 };
  let total = 0, moveLimit = 0, adjudicated = 0, plies = 0;
  const openings = new Set<string>();
  // Each game's moves, hashed: the first game seen of each, and the games of a hash seen
  // more than once (the original of a repeat is the earliest in schedule order).
  const firstOf = new Map<number, Placed>();
  const groups = new Map<number, Placed[]>();
  return {
    add: (r) => {
      const moves = r.transcript.moves;
      openings.add(openingOf(r));
      const pairing = perPairing[r.pairing];
      pairing?.pairs.add(r);
      if (r.fault !== undefined) return;
      total++;
      if (pairing !== undefined) {
        const seat = seatOf(r, pairings[r.pairing][0]);
        const p = pointsOf(r, seat);
        pairing.points += p;
        pairing.games++;
        add(pairing.wdl, p);
        add(pairing.bySide[seat], p);
      }
      for (const seat of [0, 1] as const) {
        const player = perPlayer[r.seats[seat]];
        if (player === undefined || (seat === 1 && r.seats[1] === r.seats[0])) continue;
        add(player.wdl, pointsOf(r, seat));
        for (const m of moves) {
          if (m.by === seat && m.agent !== OPENING_AGENT) (player.moves++, player.ms += m.ms);
        }
      }
      const w = r.transcript.result.winner;
      if (w === 0) seats.first++;
      else if (w === 1) seats.second++;
      else seats.draws++;
      if (r.transcript.result.reason === "move limit") moveLimit++;
      if (r.transcript.result.reason === "adjudicated") adjudicated++;
      plies += moves.length;
      // (Two different games share a hash with a chance of about n²/2⁵⁴: 2·10⁻⁶ for
      // 200,000 games, and then one is listed as a repeat it is not.)
      const key = hashInts([r.seats[0], r.seats[1], ...moves.map((m) => m.move)]);
      const placed: Placed = { id: r.id, round: r.round, pairing: r.pairing };
      const first = firstOf.get(key);
      if (first === undefined) firstOf.set(key, placed);
      else {
        const group = groups.get(key);
        if (group === undefined) groups.set(key, [first, placed]);
        else group.push(placed);
      }
    },
    results: () => {
      const pairingResults: PairingResult[] = [];
      const scores: PairingScore[] = [];
      const score = names.map(() => names.map((): number | undefined => undefined));
      const played = names.map(() => names.map(() => 0));
      for (const [i, [a, b]] of pairings.entries()) {
        const t = perPairing[i];
        if (t.games === 0) continue;
        const pent = t.pairs.counts();
        const eloGames = eloFromWdl(t.wdl);
        const complete = pent.reduce((x, y) => x + y, 0);
        pairingResults.push({
          players: [a, b],
          games: t.games,
          wdl: { ...t.wdl },
          bySide: [{ ...t.bySide[0] }, { ...t.bySide[1] }],
          pentanomial: pent,
          faultedPairs: t.pairs.faulted(),
          elo: complete > 0 ? eloFromPentanomial(pent) : eloGames,
          eloGames,
        });
        scores.push({ a, b, games: t.games, points: t.points });
        score[a][b] = t.points / t.games;
        score[b][a] = 1 - t.points / t.games;
        played[a][b] = played[b][a] = t.games;
      }
      const players: PlayerResult[] = names.map((name, p) => {
        const { wdl, moves, ms } = perPlayer[p];
        return {
          name,
          games: wdl.wins + wdl.draws + wdl.losses,
          points: wdl.wins + wdl.draws / 2,
          wdl: { ...wdl },
          msPerMove: moves === 0 ? 0 : Math.round((ms / moves) * 100) / 100,
        };
      });
      // Each repeat names the earliest game of its moves, listed in schedule order.
      const repeated: (Repeat & Placed)[] = [];
      for (const group of groups.values()) {
        const [original, ...rest] = [...group].sort(bySchedule);
        for (const g of rest) repeated.push({ ...g, sameAs: original.id });
      }
      repeated.sort(bySchedule);
      // No ratings yet while someone has not played, or groups have not met (early games).
      const unrated = { elo: names.map(() => 0), error: names.map(() => Infinity), prior: false };
      let ratings: Ratings = unrated;
      if (players.every((p) => p.games > 0)) {
        try {
          ratings = fitRatings(n, scores, anchor);
        } catch (e) {
          if (!(e instanceof RangeError)) throw e;
        }
      }
      return {
        players,
        pairings: pairingResults,
        ratings: { ...ratings, anchor },
        score,
        games: played,
        total,
        seats: { ...seats },
        moveLimit,
        adjudicated,
        repeated: repeated.map(({ id, sameAs }) => ({ id, sameAs })),
        meanPlies: total === 0 ? 0 : Math.round((plies / total) * 100) / 100,
        distinctOpenings: openings.size,
      };
    },
  };
};

/**
 * The results of `records` among `names` (pairings as `pairings` lists them), ratings
 * anchored on `anchor`: a tally (`resultsTally`) of them, in any order. Faulted games
 * (`GameRecord.fault`) count nowhere, except that a pair with one is left out of the pair
 * counts (`faultedPairs`).
 */
export const tallyResults = (
  names: readonly string[],
  pairings: readonly (readonly [number, number])[],
  records: readonly GameRecord[],
  anchor: number,
): TournamentResults => {
  const tally = resultsTally(names, pairings, anchor);
  for (const r of records) tally.add(r);
  return tally.results();
};
