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

/**
 * Every game of a tournament in the order they start; game i has the seed `seed + i`
 * (the two games of a pair share their opening, not their random choices).
 */
export const schedule = (
  players: number,
  format: Format,
  rounds: number,
  seed: number,
): readonly Fixture[] => {
  const ps = pairings(players, format);
  const out: Fixture[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [pairing, [a, b]] of ps.entries()) {
      for (const swapped of [false, true]) {
        out.push({
          id: `r${round}-p${pairing}-${swapped ? "b" : "a"}`,
          round,
          pairing,
          seats: swapped ? [b, a] : [a, b],
          swapped,
          seed: seed + out.length,
        });
      }
    }
  }
  return out;
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
