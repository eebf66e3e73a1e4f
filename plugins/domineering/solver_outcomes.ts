/**
 * Published outcome classes of empty Domineering rectangles, with their sources: the
 * regression table for the solver (the fast rows in `tests/domineering_outcomes_test.ts`,
 * all of them in `deno task bench domineering --table`).
 *
 * Sources:
 * - [BUH] D. M. Breuker, J. W. H. M. Uiterwijk, H. J. van den Herik, "Solving 8x8
 *   Domineering", Theoretical Computer Science 230 (2000) 195-206: 8x8 is a first-player
 *   win; the small squares in its table.
 * - [LMR] M. Lachmann, C. Moore, I. Rapaport, "Who wins Domineering on rectangular
 *   boards?", More Games of No Chance, MSRI Publications 42 (2002): the small squares and
 *   9x9 (a first-player win), and the 5x5 second-player win.
 * - [B] N. Bullock, "Domineering: solving large combinatorial search spaces", ICGA Journal
 *   25(2) (2002) 67-84 (M.Sc. thesis, University of Alberta, 2002): 9x9 and 10x10 are
 *   first-player wins (Obsequi); the rectangles up to 2x15, 3x13, 4x12, 5x10, 6x8 and 7x8
 *   are the regression list of Bullock's program (`obsequi/Check` in its sources, as
 *   published at github.com/nathanbullock/obsequi), which agrees with [BUH]'s tables.
 * - [U] J. W. H. M. Uiterwijk, "11x11 Domineering is solved: the first player wins",
 *   Computers and Games 2016, LNCS 10068: 11x11 (MUDoS).
 *
 * A square's class is "the first player wins" or "the second player wins" (a square is its
 * own transpose); a rectangle's may also be "H wins" or "V wins", whoever starts.
 *
 * @module
 */

/** An outcome class: the first or second player wins, or H / V whoever starts. */
export type OutcomeClass = "1st" | "2nd" | "H" | "V";

/** One published result. */
export interface PublishedOutcome {
  /** Columns. */
  readonly width: number;
  /** Rows. */
  readonly height: number;
  /** The class. */
  readonly outcome: OutcomeClass;
  /** Where it is published (keys of the module notes' sources). */
  readonly source: string;
}

/**
 * The published table: every rectangle of Bullock's regression list (the boards Obsequi
 * checks itself against, [B]; rows x columns there, `width` = columns here, both
 * orientations: transposing a board swaps H and V), with the squares' other sources, and
 * the big squares.
 */
export const PUBLISHED: readonly PublishedOutcome[] = [
  { width: 1, height: 1, outcome: "2nd", source: "trivial" },
  { width: 1, height: 2, outcome: "V", source: "B" },
  { width: 2, height: 1, outcome: "H", source: "B" },
  { width: 1, height: 3, outcome: "V", source: "B" },
  { width: 3, height: 1, outcome: "H", source: "B" },
  { width: 1, height: 4, outcome: "V", source: "B" },
  { width: 2, height: 2, outcome: "1st", source: "BUH, LMR, B" },
  { width: 4, height: 1, outcome: "H", source: "B" },
  { width: 1, height: 5, outcome: "V", source: "B" },
  { width: 5, height: 1, outcome: "H", source: "B" },
  { width: 1, height: 6, outcome: "V", source: "B" },
  { width: 2, height: 3, outcome: "1st", source: "B" },
  { width: 3, height: 2, outcome: "1st", source: "B" },
  { width: 6, height: 1, outcome: "H", source: "B" },
  { width: 1, height: 7, outcome: "V", source: "B" },
  { width: 7, height: 1, outcome: "H", source: "B" },
  { width: 1, height: 8, outcome: "V", source: "B" },
  { width: 2, height: 4, outcome: "V", source: "B" },
  { width: 4, height: 2, outcome: "H", source: "B" },
  { width: 8, height: 1, outcome: "H", source: "B" },
  { width: 3, height: 3, outcome: "1st", source: "BUH, LMR, B" },
  { width: 2, height: 5, outcome: "H", source: "B" },
  { width: 5, height: 2, outcome: "V", source: "B" },
  { width: 2, height: 6, outcome: "1st", source: "B" },
  { width: 3, height: 4, outcome: "V", source: "B" },
  { width: 4, height: 3, outcome: "H", source: "B" },
  { width: 6, height: 2, outcome: "1st", source: "B" },
  { width: 2, height: 7, outcome: "1st", source: "B" },
  { width: 7, height: 2, outcome: "1st", source: "B" },
  { width: 3, height: 5, outcome: "V", source: "B" },
  { width: 5, height: 3, outcome: "H", source: "B" },
  { width: 2, height: 8, outcome: "V", source: "B" },
  { width: 4, height: 4, outcome: "1st", source: "BUH, B" },
  { width: 8, height: 2, outcome: "H", source: "B" },
  { width: 2, height: 9, outcome: "H", source: "B" },
  { width: 3, height: 6, outcome: "V", source: "B" },
  { width: 6, height: 3, outcome: "H", source: "B" },
  { width: 9, height: 2, outcome: "V", source: "B" },
  { width: 2, height: 10, outcome: "1st", source: "B" },
  { width: 4, height: 5, outcome: "H", source: "B" },
  { width: 5, height: 4, outcome: "V", source: "B" },
  { width: 10, height: 2, outcome: "1st", source: "B" },
  { width: 3, height: 7, outcome: "V", source: "B" },
  { width: 7, height: 3, outcome: "H", source: "B" },
  { width: 2, height: 11, outcome: "1st", source: "B" },
  { width: 11, height: 2, outcome: "1st", source: "B" },
  { width: 2, height: 12, outcome: "V", source: "B" },
  { width: 3, height: 8, outcome: "V", source: "B" },
  { width: 4, height: 6, outcome: "1st", source: "B" },
  { width: 6, height: 4, outcome: "1st", source: "B" },
  { width: 8, height: 3, outcome: "H", source: "B" },
  { width: 12, height: 2, outcome: "H", source: "B" },
  { width: 5, height: 5, outcome: "2nd", source: "BUH, LMR, B" },
  { width: 2, height: 13, outcome: "2nd", source: "B" },
  { width: 13, height: 2, outcome: "2nd", source: "B" },
  { width: 3, height: 9, outcome: "V", source: "B" },
  { width: 9, height: 3, outcome: "H", source: "B" },
  { width: 2, height: 14, outcome: "1st", source: "B" },
  { width: 4, height: 7, outcome: "H", source: "B" },
  { width: 7, height: 4, outcome: "V", source: "B" },
  { width: 14, height: 2, outcome: "1st", source: "B" },
  { width: 2, height: 15, outcome: "1st", source: "B" },
  { width: 3, height: 10, outcome: "V", source: "B" },
  { width: 5, height: 6, outcome: "V", source: "B" },
  { width: 6, height: 5, outcome: "H", source: "B" },
  { width: 10, height: 3, outcome: "H", source: "B" },
  { width: 15, height: 2, outcome: "1st", source: "B" },
  { width: 4, height: 8, outcome: "V", source: "B" },
  { width: 8, height: 4, outcome: "H", source: "B" },
  { width: 3, height: 11, outcome: "V", source: "B" },
  { width: 11, height: 3, outcome: "H", source: "B" },
  { width: 5, height: 7, outcome: "V", source: "B" },
  { width: 7, height: 5, outcome: "H", source: "B" },
  { width: 3, height: 12, outcome: "V", source: "B" },
  { width: 4, height: 9, outcome: "H", source: "B" },
  { width: 6, height: 6, outcome: "1st", source: "BUH, B" },
  { width: 9, height: 4, outcome: "V", source: "B" },
  { width: 12, height: 3, outcome: "H", source: "B" },
  { width: 3, height: 13, outcome: "V", source: "B" },
  { width: 13, height: 3, outcome: "H", source: "B" },
  { width: 4, height: 10, outcome: "V", source: "B" },
  { width: 5, height: 8, outcome: "V", source: "B" },
  { width: 8, height: 5, outcome: "H", source: "B" },
  { width: 10, height: 4, outcome: "H", source: "B" },
  { width: 6, height: 7, outcome: "H", source: "B" },
  { width: 7, height: 6, outcome: "V", source: "B" },
  { width: 4, height: 11, outcome: "H", source: "B" },
  { width: 11, height: 4, outcome: "V", source: "B" },
  { width: 5, height: 9, outcome: "V", source: "B" },
  { width: 9, height: 5, outcome: "H", source: "B" },
  { width: 4, height: 12, outcome: "V", source: "B" },
  { width: 6, height: 8, outcome: "V", source: "B" },
  { width: 8, height: 6, outcome: "H", source: "B" },
  { width: 12, height: 4, outcome: "H", source: "B" },
  { width: 7, height: 7, outcome: "1st", source: "BUH, LMR, B" },
  { width: 5, height: 10, outcome: "V", source: "B" },
  { width: 10, height: 5, outcome: "H", source: "B" },
  { width: 7, height: 8, outcome: "V", source: "B" },
  { width: 8, height: 7, outcome: "H", source: "B" },
  { width: 8, height: 8, outcome: "1st", source: "BUH, B" },
  { width: 9, height: 9, outcome: "1st", source: "LMR, B" },
  { width: 10, height: 10, outcome: "1st", source: "B" },
  { width: 11, height: 11, outcome: "1st", source: "U" },
];

/** The class from who wins moving first: H first, V first. */
export const outcomeOf = (hFirstWins: boolean, vFirstWins: boolean): OutcomeClass =>
  hFirstWins && vFirstWins ? "1st" : !hFirstWins && !vFirstWins ? "2nd" : hFirstWins ? "H" : "V";
