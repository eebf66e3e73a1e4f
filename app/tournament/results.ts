/**
 * A tournament's results from its finished games: W/D/L per pairing and per side, game
 * pairs (pentanomial counts), Elo differences with intervals and likelihood of
 * superiority, maximum-likelihood ratings, and the games that repeated another.
 *
 * @module
 */
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

/** The distinct openings the games started from (their moves played as `opening`). */
export const distinctOpenings = (records: readonly GameRecord[]): number =>
  new Set(
    records.map((r) =>
      r.transcript.moves.filter((m) => m.agent === OPENING_AGENT).map((m) => m.move).join(",")
    ),
  ).size;

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

/**
 * The results of `records` among `names` (pairings as `pairings` lists them), ratings
 * anchored on `anchor`. Faulted games (`GameRecord.fault`) count nowhere, except that a
 * pair with one is left out of the pair counts (`faultedPairs`).
 */
export const tallyResults = (
  names: readonly string[],
  pairings: readonly (readonly [number, number])[],
  records: readonly GameRecord[],
  anchor: number,
): TournamentResults => {
  const n = names.length;
  // In schedule order, whatever order the games finished in (a repeat follows its original).
  records = [...records].sort((x, y) =>
    x.round - y.round || x.pairing - y.pairing || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)
  );
  const byPairing = pairings.map(() => [] as GameRecord[]);
  const pairs = pairings.map(([a]) => pairCounter(a));
  for (const r of records) {
    byPairing[r.pairing]?.push(r);
    pairs[r.pairing]?.add(r);
  }
  const openings = distinctOpenings(records);
  records = records.filter((r) => r.fault === undefined);

  const pairingResults: PairingResult[] = [];
  const scores: PairingScore[] = [];
  const score = names.map(() => names.map((): number | undefined => undefined));
  const games = names.map(() => names.map(() => 0));
  for (const [i, [a, b]] of pairings.entries()) {
    const rs = byPairing[i].filter((r) => r.fault === undefined);
    if (rs.length === 0) continue;
    const wdl = emptyWdl();
    const bySide = [emptyWdl(), emptyWdl()] as const;
    let points = 0;
    for (const r of rs) {
      const seat = seatOf(r, a);
      const p = pointsOf(r, seat);
      points += p;
      add(wdl, p);
      add(bySide[seat], p);
    }
    const pent = pairs[i].counts();
    const eloGames = eloFromWdl(wdl);
    const complete = pent.reduce((x, y) => x + y, 0);
    pairingResults.push({
      players: [a, b],
      games: rs.length,
      wdl,
      bySide,
      pentanomial: pent,
      faultedPairs: pairs[i].faulted(),
      elo: complete > 0 ? eloFromPentanomial(pent) : eloGames,
      eloGames,
    });
    scores.push({ a, b, games: rs.length, points });
    score[a][b] = points / rs.length;
    score[b][a] = 1 - points / rs.length;
    games[a][b] = games[b][a] = rs.length;
  }

  const players: PlayerResult[] = names.map((name, p) => {
    const wdl = emptyWdl();
    let moves = 0, ms = 0;
    for (const r of records) {
      if (r.seats[0] !== p && r.seats[1] !== p) continue;
      const seat = seatOf(r, p);
      add(wdl, pointsOf(r, seat));
      for (const m of r.transcript.moves) {
        if (m.by === seat && m.agent !== OPENING_AGENT) (moves++, ms += m.ms);
      }
    }
    const played = wdl.wins + wdl.draws + wdl.losses;
    return {
      name,
      games: played,
      points: wdl.wins + wdl.draws / 2,
      wdl,
      msPerMove: moves === 0 ? 0 : Math.round((ms / moves) * 100) / 100,
    };
  });

  const seats = { first: 0, draws: 0, second: 0 };
  let moveLimit = 0, adjudicated = 0, plies = 0;
  const seen = new Map<string, string>();
  const repeated: Repeat[] = [];
  for (const r of records) {
    const w = r.transcript.result.winner;
    if (w === 0) seats.first++;
    else if (w === 1) seats.second++;
    else seats.draws++;
    if (r.transcript.result.reason === "move limit") moveLimit++;
    if (r.transcript.result.reason === "adjudicated") adjudicated++;
    plies += r.transcript.moves.length;
    const key = `${r.seats.join(" ")}|${r.transcript.moves.map((m) => m.move).join(",")}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, r.id);
    else repeated.push({ id: r.id, sameAs: first });
  }

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
    games,
    total: records.length,
    seats,
    moveLimit,
    adjudicated,
    repeated,
    meanPlies: records.length === 0 ? 0 : Math.round((plies / records.length) * 100) / 100,
    distinctOpenings: openings,
  };
};
