/**
 * The games of a tournament, in the order they start: round by round, each round one
 * opening for every pairing, played twice with the sides swapped (a game pair).
 *
 * @module
 */

/** Who meets whom: everyone everyone (`round-robin`), or the first player everyone else. */
export type Format = "round-robin" | "gauntlet";

/** The formats by name. */
export const FORMATS: readonly Format[] = ["round-robin", "gauntlet"];

/** One game of a tournament. */
export interface Fixture {
  /**
   * A stable name: round, pairing and which game of the pair (`r3-p1-b`: round 3, the
   * second pairing, sides swapped). A rerun finds the finished games by it.
   */
  readonly id: string;
  /** The round (from 0); round r plays opening r. */
  readonly round: number;
  /** The pairing (an index into `pairings`). */
  readonly pairing: number;
  /** The entrants playing player 0 and player 1 (indices into the players). */
  readonly seats: readonly [number, number];
  /** True for the pair's second game, the sides swapped. */
  readonly swapped: boolean;
  /** The seed of the game's chance moves and random choices: the series' seed + the index. */
  readonly seed: number;
}

/** The pairings of a format: entrant index pairs, the first the one shown first. */
export const pairings = (players: number, format: Format): readonly [number, number][] => {
  const out: [number, number][] = [];
  for (let a = 0; a < players; a++) {
    for (let b = a + 1; b < players; b++) {
      if (format === "round-robin" || a === 0) out.push([a, b]);
    }
  }
  return out;
};

/** What makes a tournament's schedule: players, format, rounds and the first game's seed. */
export interface ScheduleSpec {
  /** How many entrants. */
  readonly players: number;
  /** Who meets whom. */
  readonly format: Format;
  /** How many rounds (each round one opening, every pairing twice). */
  readonly rounds: number;
  /** The seed of game 0 (game i has `seed + i`). */
  readonly seed: number;
}

/** How many games a schedule has. */
export const scheduleSize = (spec: ScheduleSpec): number =>
  spec.rounds * pairings(spec.players, spec.format).length * 2;

/**
 * Game `index` of a schedule, made from its index alone (a cluster's runner needs one
 * game of a schedule of a million, not the million): round by round, each pairing's
 * game pair, the second with the sides swapped.
 */
export const fixtureAt = (
  spec: ScheduleSpec,
  index: number,
  ps: readonly (readonly [number, number])[] = pairings(spec.players, spec.format),
): Fixture => {
  const round = Math.floor(index / (ps.length * 2));
  const pairing = Math.floor(index / 2) % ps.length;
  const swapped = index % 2 === 1;
  const [a, b] = ps[pairing];
  return {
    id: `r${round}-p${pairing}-${swapped ? "b" : "a"}`,
    round,
    pairing,
    seats: swapped ? [b, a] : [a, b],
    swapped,
    seed: spec.seed + index,
  };
};

/**
 * Every game of a tournament in the order they start (`fixtureAt` of each index); game i
 * has the seed `seed + i` (the two games of a pair share their opening, not their random
 * choices).
 */
export const schedule = (
  players: number,
  format: Format,
  rounds: number,
  seed: number,
): readonly Fixture[] => {
  const spec = { players, format, rounds, seed };
  const ps = pairings(players, format);
  return Array.from({ length: scheduleSize(spec) }, (_, i) => fixtureAt(spec, i, ps));
};

/** The games of a one-player game against chance: one player, game i with seed `seed + i`. */
export const soloSchedule = (games: number, seed: number): readonly Fixture[] =>
  Array.from({ length: games }, (_, i) => ({
    id: `g${i}`,
    round: i,
    pairing: 0,
    seats: [0, 0] as const,
    swapped: false,
    seed: seed + i,
  }));
