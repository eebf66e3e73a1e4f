/**
 * Exact endgames for 4x4 2048: the last squeeze before a new largest tile, solved.
 *
 * Late in a game the large tiles stand in a chain, each next to the one of half its value
 * (16384, 8192, ..., 256 along a snake); the chain collapses into a tile of twice the
 * largest as soon as a tile equal to its smallest (the tail) comes to stand beside the
 * tail. The cells outside the chain, the region, have to make that tile while the chain
 * stays where it is. With the chain long, the region is small (8 or 9 cells), and the
 * whole game left in it can be searched to its end: the probability of making the tile
 * beside the tail is an expectimax over every slide that keeps the chain in place and
 * every tile the computer may place, memoized per position, as in macroxue's 2048-ai
 * (whose published figures these solves reproduce: see the plugin's FIGURES.md). A network or
 * a heuristic searched a few slides deep plays these positions by feel; the solver plays
 * them exactly, for its goal.
 *
 * - **The chain** (`chainOf`): from the largest tile (the first in reading order among
 *   equals), each step to a neighbour holding the next smaller rank (the first in the
 *   order left, right, up, down), as long as there is one. Its last cell is the tail.
 *   The solver holds the shortest start of it whose region is small enough (9 cells by
 *   default): the smaller tiles beyond it move with the region, which leaves the best play
 *   more slides than holding them too (and counts the merges that bring them up to the
 *   tail), for a table of about the same size; a start that needs more than the budget
 *   gives way to the next longer one. Where two neighbours hold the next smaller rank
 *   the chain branches (`chainsOf`): each start of that length is solved and the best
 *   wins, so the solver does not drop a goal one slide away for the other branch's.
 *   Where no chain fits, chains that skip a rank may be held instead (`solve`'s `gaps`,
 *   `,gaps=G` in the search's spec; off by default; behind a 16384 or more only,
 *   `GAP_TOP_RANK`): after a collapse the tiles often go on from the new tail a rank too
 *   low (16384 8192 4096 2048, then 512 256 128 ...).
 * - **The goal**: after a slide, a tile of the tail's rank on a cell beside the tail
 *   that is not in the chain, or the tail itself merged one rank up in place.
 * - **The moves**: the slides that leave every chain cell as it was (a slide that merges
 *   into the tail in place reaches the goal). The position's value is the probability of
 *   reaching the goal under the best such slides; a position with none is lost (0).
 *
 * The solver keeps what it solved per chain (so interleaved games and successive moves
 * share it), up to a budget of positions per chain (`endgameBudget`: 2^23 for up to 9 free
 * cells, `ENDGAME_LARGE_BUDGET`, 117 million, for 10 behind a tail of 128 or more); a chain
 * whose region needs more is given up, and not tried again until the solver is asked
 * about a position without a fitting chain (the phase is over: another game, or the chain
 * broke; interleaved games may so try a chain again). A chain's positions stand in layers
 * by the sum of the region's tiles: a slide keeps the sum and a new tile adds 2 or 4, so a
 * position's placements reach only the next two layers, and the search works in a few
 * layers at a time, each a small table of its own, where one table of the whole solve
 * spread every lookup over gigabytes (and doubled in one piece as it grew). The tables
 * hold probabilities of completed subtrees only, so a solve that is stopped (deadline,
 * interruption) leaves them correct and the next call goes on from there.
 * A chain is solved in its own frame (`frameOf`): the board turned or mirrored so that
 * its cells are the least of the 8 symmetric ways to lay them, so the same chain in
 * another corner or orientation (another game's) finds its positions solved; the root's
 * slides are tried in the game's order, so ties go as they would without the frame.
 * What a phase solved stays for the next phases and games as far as the table's room
 * allows (`keepTables`), and a budget bounds what a phase adds: a game's chains come back
 * in the next game, whose solves then need a few percent of the positions (the plugin's
 * FIGURES.md, "Tables kept over games").
 * Everything per node is plain code on the compact board of `board.ts`; nothing is
 * allocated per node.
 *
 * @module
 */
import { ROW_LEFT, ROW_RIGHT, slideBoard, transposeHi, transposeLo } from "./board.ts";
import { P_FOUR, P_TWO } from "./rules.ts";

/** The largest region (cells outside the chain) the fast expectimax solves by default. */
export const ENDGAME_REGION = 9;

/** Positions a chain's solve may store before it is given up, for a region of at most 9 cells. */
export const ENDGAME_BUDGET = 1 << 23;

/**
 * Positions a chain over a region of 10 cells or more may store (7 * 2^24, 117 million):
 * a region of 10 cells, holding 16384 down to 512, took 6 to 99 million (the plugin's
 * FIGURES.md).
 */
export const ENDGAME_LARGE_BUDGET = 7 << 24;

/**
 * The slots a budget of `positions` may take over every chain's layers: a layer grows by
 * a quarter when three quarters full, so a grown one is at least 60% full, plus room for
 * the layers still at their first size.
 */
const slotsFor = (positions: number): number => Math.ceil((positions * 5) / 3) + (1 << 20);

/**
 * The smallest largest tile (a 16384) behind which the solver holds chains with a gap
 * (`solve`'s `gaps`). Before it the network's own play builds the board better than a
 * solve for one goal: held from a 256 on, gapped chains (256 64 32 16 8 4) took over
 * the game from its 250th slide and lost all three of the first games of a series they
 * changed (the plugin's FIGURES.md, "Chains with a gap").
 */
export const GAP_TOP_RANK = 14;

/**
 * Positions each of the two chains of a solve through the whole chain's goal may store
 * (`solve`'s `through`; 12 * 2^24, 201 million), their layers taking at most the slots of
 * one and a half times that together (6 GB): a ten-cell region behind 16384 8192 4096 2048
 * 1024 256 took 141 and 134 million, 4.9 GB (the plugin's FIGURES.md).
 */
export const THROUGH_BUDGET = 12 << 24;

/**
 * The smallest tail (a 256) whose merges `collapseSlide` plays: the tails of the ten-cell
 * phases behind a 16384 (16384 ... 512, or 256 after a gap). Below it the merges are the
 * region's, which the solver plays better for its goal: merging every pair of small
 * tiles beside a chain's tail, from a snake of twelve tiles over four cells, lost the game
 * in seven slides where the solve gave 0.52.
 */
export const COLLAPSE_TAIL_RANK = 8;

/** The smallest tail (a 128) whose chain may take the whole table over a larger region. */
export const LARGE_TAIL_RANK = 7;

/**
 * Positions a chain's solve may store before it is given up: `ENDGAME_BUDGET` for a
 * region of up to 9 cells (`ENDGAME_REGION`), the whole table for a larger one whose
 * tail is at least a 128 (a region of 10 cells, holding 16384 down to 512, took 6 to 99
 * million: the plugin's FIGURES.md). A larger region with a smaller tail, early in a game,
 * keeps `ENDGAME_BUDGET`: its solves that finish need a few million positions, the others
 * would run minutes to the whole table's and be given up all the same.
 */
export const endgameBudget = (region: number, tailRank: number): number =>
  region <= ENDGAME_REGION || tailRank < LARGE_TAIL_RANK ? ENDGAME_BUDGET : ENDGAME_LARGE_BUDGET;

/** A chain of large tiles (see the module notes), on a compact board. */
export interface Chain {
  /** Its cells (`y * 4 + x`), from the largest tile to the tail. */
  readonly cells: readonly number[];
  /** Each cell's rank (the tile `2^rank`), from the largest tile to the tail. */
  readonly ranks: readonly number[];
  /** The rank of its largest tile. */
  readonly topRank: number;
  /** The tail's rank: the goal is a tile of this rank beside the tail. */
  readonly tailRank: number;
  /** The cells beside the tail outside the chain. */
  readonly goalCells: readonly number[];
  /** The number of cells outside the chain. */
  readonly region: number;
}

/** The rank in cell `i` (0 empty) of the compact board `lo`, `hi`. */
const rankAt = (lo: number, hi: number, i: number): number =>
  i < 8 ? (lo >>> (4 * i)) & 15 : (hi >>> (4 * (i - 8))) & 15;

/** Each cell's neighbours, in the order left, right, up, down. */
const NEIGHBOURS: readonly (readonly number[])[] = Array.from({ length: 16 }, (_, i) => {
  const x = i & 3, y = i >> 2, out: number[] = [];
  if (x > 0) out.push(i - 1);
  if (x < 3) out.push(i + 1);
  if (y > 0) out.push(i - 4);
  if (y < 3) out.push(i + 4);
  return out;
});

/**
 * The chain of compact board `lo`, `hi` (see the module notes), of at most `most` tiles
 * (its first ones); `undefined` on an empty board.
 *
 * @example A snake of eight tiles along the top two rows
 * ```ts
 * import { packCells } from "./board.ts";
 * import { chainOf } from "./endgame.ts";
 * const [lo, hi] = packCells([
 *   2048, 4096, 8192, 16384,
 *   1024, 512, 256, 128,
 *   2, 2, 2, 4,
 *   0, 0, 2, 2,
 * ])!;
 * const chain = chainOf(lo, hi)!;
 * if (chain.cells.length !== 8 || chain.tailRank !== 7 || chain.region !== 8) throw new Error();
 * if (chain.goalCells.join() !== "11") throw new Error(); // the cell below the 128
 * if (chainOf(lo, hi, 7)!.goalCells.join() !== "7,10") throw new Error(); // by the 256
 * ```
 */
export const chainOf = (lo: number, hi: number, most = 16): Chain | undefined => {
  const first = largestCell(lo, hi);
  if (first < 0) return undefined;
  const cells = [first];
  let used = 1 << first, at = first, rank = rankAt(lo, hi, first);
  while (rank > 1 && cells.length < most) {
    const next = NEIGHBOURS[at].find((n) =>
      (used & (1 << n)) === 0 && rankAt(lo, hi, n) === rank - 1
    );
    if (next === undefined) break;
    cells.push(next);
    used |= 1 << next;
    at = next;
    rank--;
  }
  return chainAlong(cells, cells.map((c) => rankAt(lo, hi, c)));
};

/**
 * Every chain of exactly `length` tiles from the largest tile (see `chainOf`): where two
 * neighbours hold the next smaller rank, a chain goes on through either. In the order of
 * `chainOf`'s choices (left, right, up, down), so its chain comes first when it is that
 * long; none when no path is. With `gaps` > 0, the chains that skip exactly that many
 * ranks instead, each a step from a tile to a neighbour two ranks lower (after a
 * collapse the chain often goes on so: 16384 8192 4096 2048, then 512 256 128 beside the
 * 2048, where the 1024 merged away).
 *
 * @example Two 8s beside the 16: the chain ends in either
 * ```ts
 * import { packCells } from "./board.ts";
 * import { chainsOf } from "./endgame.ts";
 * const [lo, hi] = packCells([
 *   128, 256, 128, 32,
 *   64, 32, 16, 8,
 *   4, 2, 8, 2,
 *   2, 8, 4, 2,
 * ])!;
 * const tails = chainsOf(lo, hi, 6).map((c) => c.cells[5]);
 * if (tails.join() !== "7,10") throw new Error();
 * ```
 */
export const chainsOf = (lo: number, hi: number, length: number, gaps = 0): Chain[] => {
  const first = largestCell(lo, hi), out: Chain[] = [];
  if (first < 0) return out;
  const cells = [first], ranks = [rankAt(lo, hi, first)];
  const walk = (used: number, at: number, rank: number, skips: number): void => {
    if (cells.length === length) {
      if (skips === 0) out.push(chainAlong([...cells], [...ranks]));
      return;
    }
    for (let step = 1; step <= (skips > 0 ? 2 : 1); step++) {
      if (rank - step < 1) return;
      for (const n of NEIGHBOURS[at]) {
        if ((used & (1 << n)) !== 0 || rankAt(lo, hi, n) !== rank - step) continue;
        cells.push(n);
        ranks.push(rank - step);
        walk(used | (1 << n), n, rank - step, skips - step + 1);
        cells.pop();
        ranks.pop();
      }
    }
  };
  walk(1 << first, first, ranks[0], gaps);
  return out;
};

/**
 * The chains of `chainsOf` (exactly `length` tiles, skipping exactly `skips` ranks) that
 * the solver may hold (`EndgameSolver.solve`): a tail above a 2, and a gap only behind a
 * largest tile of 16384 or more (`GAP_TOP_RANK`).
 */
export const solverChains = (lo: number, hi: number, length: number, skips: number): Chain[] =>
  chainsOf(lo, hi, length, skips).filter((c) =>
    c.tailRank >= 2 && (skips === 0 || c.topRank >= GAP_TOP_RANK)
  );

/** The cell of the largest tile (the first in reading order among equals), -1 if none. */
const largestCell = (lo: number, hi: number): number => {
  let first = -1, top = 0;
  for (let i = 0; i < 16; i++) {
    const r = rankAt(lo, hi, i);
    if (r > top) {
      top = r;
      first = i;
    }
  }
  return first;
};

/** The chain along `cells` (each next one beside it) holding tiles of `ranks`. */
const chainAlong = (cells: readonly number[], ranks: readonly number[]): Chain => {
  let used = 0;
  for (const c of cells) used |= 1 << c;
  const tail = cells[cells.length - 1];
  return {
    cells,
    ranks,
    topRank: ranks[0],
    tailRank: ranks[ranks.length - 1],
    goalCells: NEIGHBOURS[tail].filter((n) => (used & (1 << n)) === 0),
    region: 16 - cells.length,
  };
};

/** What the solver found for a position. */
export interface EndgameAnswer {
  /** The slide to play (0-3: left, right, up, down). */
  readonly move: number;
  /** The probability of reaching the goal with the best play from here. */
  readonly probability: number;
  /** The chain held in place. */
  readonly chain: Chain;
  /** Positions stored for this chain so far (its whole solve, over every call). */
  readonly positions: number;
  /**
   * The chain's gap is just before its tail and its goal was valued through the whole
   * chain's (`solve`'s `through`): the probability is of the tail merged one rank up in
   * place and then the whole chain's goal.
   */
  readonly through?: boolean;
  /** The goal was on the board, and the slide merges it into the tail (`collapseSlide`). */
  readonly collapse?: boolean;
}

/** Thrown inside a solve whose chain needs more positions than the budget. */
class OverBudget extends Error {}

/** Slots of a layer's first table. */
const LAYER_MIN = 256;

/**
 * One layer of a chain's solved positions: those whose region holds the same tile sum.
 * Open addressing with linear probing; slot i is the three words 3i..3i+2: the board's
 * two words (both 0: free, as no board with a chain is empty) and its value (float32).
 */
class Layer {
  size: number;
  count = 0;
  words: Int32Array;
  values: Float32Array;
  constructor(size: number) {
    this.size = size;
    this.words = new Int32Array(size * 3);
    this.values = new Float32Array(this.words.buffer);
  }
}

/** The slot of position `lo`, `hi` in `layer`, or `~slot` of the free slot where it would go. */
const findIn = (layer: Layer, lo: number, hi: number): number => {
  const size = layer.size, w = layer.words;
  let h = Math.imul(lo ^ (lo >>> 16), 0x9e3779b1) ^ Math.imul(hi ^ (hi >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0x2c1b3c6d);
  // The hash's top 21 bits scaled to the size (exact in a double for sizes below 2^32).
  let s = Math.floor(((h >>> 11) * size) / 2097152);
  for (;;) {
    const a = w[s * 3], b = w[s * 3 + 1];
    if (a === lo && b === hi) return s;
    if ((a | b) === 0) return ~s;
    if (++s === size) s = 0;
  }
};

/**
 * The exact endgame solver, with its table of solved positions (see the module notes).
 * One solver runs one solve at a time; its table is kept from one call to the next.
 *
 * @example macroxue's snake: a new 256 beside the 256, for a 65536
 * ```ts
 * import { packCells } from "./board.ts";
 * import { EndgameSolver } from "./endgame.ts";
 * const [lo, hi] = packCells([
 *   4096, 8192, 16384, 32768,
 *   2048, 1024, 512, 256,
 *   2, 2, 2, 4,
 *   0, 0, 2, 2,
 * ])!;
 * const answer = new EndgameSolver().solve(lo, hi, 8)!;
 * if (answer.move !== 1 || Math.abs(answer.probability - 0.1246) > 0.001) throw new Error();
 * ```
 */
export class EndgameSolver {
  /** Nodes (slider and computer positions) visited, over every call. */
  nodes = 0;
  readonly #fixedBudget: number | undefined;
  readonly #fixedSlots: number | undefined;
  // The running chain's count at which it goes over its budget (its base plus its budget).
  #limit = 0;
  // Slots every chain's layers may take together: enough for the largest budget asked so
  // far, and at least `#minSlots` (`keepTables`).
  #maxSlots = 0;
  #minSlots = 0;
  #slots = 0;
  #stored = 0;
  // Chains by key (frozen cells and their tiles), numbered from 1; their stored positions
  // and their layers (by the region's tile sum, in twos).
  readonly #chains = new Map<string, number>();
  readonly #counts: number[] = [0];
  readonly #budgets: number[] = [0];
  // Per chain: its count when the phase began (the budget bounds what a phase adds), and
  // when it was last solved (on the clock below: the order in which chains make room).
  readonly #bases: number[] = [0];
  readonly #usedAt: number[] = [0];
  #clock = 0;
  // The clock when the phase began: chains solved since are this phase's (none: the
  // clock has not moved since, and no phase is running).
  #phaseStart = 0;
  readonly #layersOf: (Layer | undefined)[][] = [[]];
  readonly #givenUp = new Set<string>();
  // The running solve: its chain's number and layers, frozen words, the tail, the goal cells.
  #id = 0;
  #layers: (Layer | undefined)[] = [];
  #maskLo = 0;
  #maskHi = 0;
  #frozenLo = 0;
  #frozenHi = 0;
  #restLo = 0;
  #restHi = 0;
  #tail = 0;
  #tailRank = 0;
  #goals: readonly number[] = [];
  // In a solve through the whole chain's goal (`#solveThrough`): the whole chain's number,
  // frozen words and budget, and the goal cells (the same cells, one rank up).
  #next: { id: number; frozenLo: number; frozenHi: number; limit: number } | undefined;
  #nextGoals: readonly number[] = [];
  // The two chains' numbers while a solve through the whole chain's goal runs, else 0.
  #through: [number, number] = [0, 0];
  #poll: (() => void) | undefined = undefined;
  #move = -1;

  /**
   * A solver that gives up a chain after `budget` positions (default `endgameBudget`), its
   * layers taking at most `slots` slots together (default: enough for the largest budget
   * asked for so far, 12 bytes a slot).
   */
  constructor(budget?: number, slots?: number) {
    this.#fixedBudget = budget;
    this.#fixedSlots = slots;
  }

  /**
   * The best slide of slider position `lo`, `hi` and its probability of reaching the
   * goal, holding the shortest chain (its first tiles) whose region has at most
   * `maxRegion` cells, or the next longer one when that was given up (over the budget).
   * Where the chain branches (two neighbours of the next smaller rank, `chainsOf`), each
   * chain of that length is solved and the best answer wins (the first among equals): the
   * goal of one may be a slide away while the other's is far. Where no chain without a
   * gap is answered, chains skipping one rank, then two, up to `gaps`, are tried the same
   * way (`chainsOf`; default 0: none), behind a largest tile of 16384 or more only
   * (`GAP_TOP_RANK`). `undefined` when the solver does not take the
   * position: every chain leaves more than `maxRegion` cells, the tail is a 2, a goal is
   * already on the board, or no slide changes it. `poll` is called every 4,096 nodes and
   * may throw to stop the solve (what it solved stays stored).
   *
   * With `through`, a chain whose one gap is just before its tail (16384 8192 4096 2048
   * 1024 256: the 512 missing) does not stop at its goal: the tail merged one rank up in
   * place makes the whole chain (16384 ... 1024 512), whose own goal follows in the same
   * solve, so each way to the first goal is valued by the chance of the second from the
   * region it leaves (a tile beside the tail is no goal by itself then: the slide that
   * merges it into the tail is). The whole chain's positions are its own solve's, shared
   * with it. Both chains may store `THROUGH_BUDGET` positions (unless the solver was made
   * with a budget); where that is not enough, the chain is solved for its own goal. Where
   * such a chain and one held for its own goal branch at the same length, their chances
   * still compete as they are, though the one is of the farther goal: a plain chain wins
   * unless even the farther chance is higher, which favours the nearer goal. It is rare
   * enough to leave so: no first or last board of a phase in the complete kept run
   * (`lab/game2048/data/2048-e10-g1t1.jsonl`, 3,496 boards) has two chains of one length.
   */
  solve(
    lo: number,
    hi: number,
    maxRegion: number,
    poll?: () => void,
    gaps = 0,
    through = false,
  ): EndgameAnswer | undefined {
    // The shortest chain whose region fits: every longer one holds more tiles still.
    const shortest = Math.max(1, 16 - maxRegion);
    let fits = false;
    for (let skips = 0; skips <= gaps; skips++) {
      for (let length = shortest; length <= 16; length++) {
        const chains = solverChains(lo, hi, length, skips);
        if (chains.length === 0) break;
        fits = true;
        let best: EndgameAnswer | undefined;
        for (const chain of chains) {
          const answer = (through && gapBeforeTail(chain)
            ? this.#solveThrough(chain, lo, hi, poll)
            : undefined) ?? this.#solveHolding(chain, lo, hi, poll);
          if (answer === "goal") {
            return undefined;
          }
          if (
            answer !== undefined && (best === undefined || answer.probability > best.probability)
          ) {
            best = answer;
          }
        }
        if (best !== undefined) return best;
      }
    }
    // No chain fits at all: the phase of the chains given up is over (another game, or
    // the chain broke), and a later position holding one of them tries it again.
    if (!fits) this.#endPhase();
    return undefined;
  }

  /**
   * The answer holding `chain`: `undefined` when it was given up (now or before) or no
   * slide changes the position, `"goal"` when its goal is already on the board.
   */
  #solveHolding(
    chain: Chain,
    lo: number,
    hi: number,
    poll: (() => void) | undefined,
  ): EndgameAnswer | "goal" | undefined {
    const f = frameOf(chain, lo, hi);
    const [maskLo, maskHi] = chainMask(f.chain);
    const key = `${maskLo},${maskHi},${f.lo & maskLo},${f.hi & maskHi}`;
    if (this.#givenUp.has(key)) return undefined;
    this.#begin(f.chain, key, maskLo, maskHi, f.lo, f.hi);
    if (this.#isGoal(f.lo, f.hi)) return "goal";
    return this.#run(chain, key, lo, hi, f, poll);
  }

  /**
   * The answer holding `chain`, whose one gap is just before its tail, through the whole
   * chain's goal (`solve`'s `through`): `undefined` when either chain was given up (now or
   * before) or no slide changes the position.
   */
  #solveThrough(
    chain: Chain,
    lo: number,
    hi: number,
    poll: (() => void) | undefined,
  ): EndgameAnswer | undefined {
    const f = frameOf(chain, lo, hi);
    const [maskLo, maskHi] = chainMask(f.chain);
    // The whole chain: the same cells, the tail one rank up.
    const tail = f.chain.cells[f.chain.cells.length - 1];
    const up = tail < 8 ? [f.lo + (1 << (4 * tail)), f.hi] : [f.lo, f.hi + (1 << (4 * (tail - 8)))];
    const whole = chainAlong(f.chain.cells, [...chain.ranks.slice(0, -1), chain.tailRank + 1]);
    const wholeKey = `${maskLo},${maskHi},${up[0] & maskLo},${up[1] & maskHi}`;
    const key = `${maskLo},${maskHi},${f.lo & maskLo},${f.hi & maskHi},through`;
    if (this.#givenUp.has(key) || this.#givenUp.has(wholeKey)) return undefined;
    // Numbered first, so that numbering the other cannot clear it (`#begin`).
    this.#begin(whole, wholeKey, maskLo, maskHi, up[0], up[1]);
    const next = { id: this.#id, frozenLo: this.#frozenLo, frozenHi: this.#frozenHi, limit: 0 };
    this.#begin(f.chain, key, maskLo, maskHi, f.lo, f.hi);
    if (this.#chains.get(wholeKey) !== next.id) return undefined;
    // Both chains take the larger budget, for this solve and the whole chain's own after it.
    if (this.#fixedBudget === undefined) {
      this.#budgets[next.id] = Math.max(this.#budgets[next.id], THROUGH_BUDGET);
      this.#budgets[this.#id] = THROUGH_BUDGET;
      this.#limit = this.#bases[this.#id] + THROUGH_BUDGET;
      this.#maxSlots = this.#fixedSlots ??
        Math.max(this.#maxSlots, slotsFor((THROUGH_BUDGET * 3) / 2));
    }
    next.limit = this.#bases[next.id] + this.#budgets[next.id];
    this.#nextGoals = this.#goals;
    this.#goals = [];
    this.#next = next;
    this.#through = [this.#id, next.id];
    try {
      const answer = this.#run(chain, key, lo, hi, f, poll);
      return answer === undefined ? undefined : { ...answer, through: true };
    } finally {
      this.#next = undefined;
      this.#through = [0, 0];
      // Over the budget in the whole chain's positions: they start again in its own solve.
      if (this.#counts[next.id] > next.limit) this.#drop(next.id);
    }
  }

  /**
   * The running solve of `chain` (`#begin` made it so, in frame `f`) from `lo`, `hi` (in
   * the game's frame).
   */
  #run(
    chain: Chain,
    key: string,
    lo: number,
    hi: number,
    f: Frame,
    poll: (() => void) | undefined,
  ): EndgameAnswer | undefined {
    this.#poll = poll;
    try {
      const k = regionHalfSum(f.lo & ~this.#maskLo, f.hi & ~this.#maskHi);
      const probability = this.#root(lo, hi, k, f.map);
      const move = this.#move;
      return move < 0 ? undefined : { move, probability, chain, positions: this.#counts[this.#id] };
    } catch (e) {
      // A solve deeper than the thread's stack (a RangeError, as in a solve through the
      // whole chain's goal from a region with far to go) is given up as one over budget:
      // its tables hold completed subtrees only.
      if (!(e instanceof OverBudget || e instanceof RangeError)) throw e;
      // Over the budget with positions kept from earlier phases: solved again without them.
      if (e instanceof OverBudget && this.#dropKept()) {
        return this.#run(chain, key, lo, hi, f, poll);
      }
      this.#giveUp(key);
      return undefined;
    } finally {
      this.#poll = undefined;
    }
  }

  /**
   * Drops the running chains' layers (the whole chain's too, in a solve through its goal)
   * when one of them holds positions kept from an earlier phase; false when none does.
   */
  #dropKept(): boolean {
    const next = this.#next;
    if (this.#bases[this.#id] === 0 && (next === undefined || this.#bases[next.id] === 0)) {
      return false;
    }
    this.#drop(this.#id);
    this.#layers = this.#layersOf[this.#id];
    this.#limit = this.#budgets[this.#id];
    if (next !== undefined) {
      this.#drop(next.id);
      next.limit = this.#budgets[next.id];
    }
    return true;
  }

  /**
   * The root: slider position `lo`, `hi` in the game's frame, as `#slider` (the first of
   * the best slides in the game's order, left to `#move`), each slide's afterstate valued
   * in the solve's frame (`map`).
   */
  #root(lo: number, hi: number, k: number, map: Int8Array): number {
    if ((++this.nodes & 4095) === 0 && this.#poll !== undefined) this.#poll();
    const out = new Int32Array(2);
    let best = 0, move = -1;
    for (let d = 0; d < 4 && best !== 1; d++) {
      slideBoard(lo, hi, d, out);
      if (out[0] === lo && out[1] === hi) continue;
      const [a, b] = mapBoard(out[0], out[1], map);
      const v = this.#afterSlide(a, b, k);
      if (move < 0 || v > best) {
        best = v;
        move = d;
      }
    }
    this.#move = move;
    return best;
  }

  /** Positions stored, over every chain. */
  get stored(): number {
    return this.#stored;
  }

  /** Slots the layers take, over every chain (12 bytes each). */
  get slots(): number {
    return this.#slots;
  }

  /**
   * Lets the layers take at least `bytes` together (12 bytes a slot; unless the solver was
   * made with its slots fixed), so that the chains of earlier phases stay for the next
   * ones: a game's chains come back in the next game, whose solves then find most of their
   * positions solved (the plugin's FIGURES.md, "Tables kept over games").
   */
  keepTables(bytes: number): void {
    this.#minSlots = Math.max(this.#minSlots, Math.floor(bytes / 12));
    if (this.#fixedSlots === undefined) this.#maxSlots = Math.max(this.#maxSlots, this.#minSlots);
  }

  /**
   * A position without a fitting chain ends the phase: the chains given up may be tried
   * again, and each chain's budget bounds what the next phase adds to its table.
   */
  #endPhase(): void {
    this.#givenUp.clear();
    if (this.#clock === this.#phaseStart) return;
    this.#phaseStart = this.#clock;
    for (let id = 1; id < this.#counts.length; id++) this.#bases[id] = this.#counts[id];
  }

  /** Makes `chain` the running solve's, numbering it when new. */
  #begin(chain: Chain, key: string, maskLo: number, maskHi: number, lo: number, hi: number) {
    let id = this.#chains.get(key);
    if (id === undefined) {
      if (this.#counts.length > 0xffff) this.#clear();
      id = this.#counts.length;
      this.#chains.set(key, id);
      this.#counts.push(0);
      this.#budgets.push(this.#fixedBudget ?? endgameBudget(chain.region, chain.tailRank));
      this.#layersOf.push([]);
      this.#bases.push(0);
      this.#usedAt.push(0);
    }
    this.#id = id;
    this.#layers = this.#layersOf[id];
    this.#usedAt[id] = ++this.#clock;
    this.#limit = this.#bases[id] + this.#budgets[id];
    this.#maxSlots = this.#fixedSlots ??
      Math.max(this.#maxSlots, slotsFor(this.#budgets[id]), this.#minSlots);
    this.#maskLo = maskLo;
    this.#maskHi = maskHi;
    this.#frozenLo = lo & maskLo;
    this.#frozenHi = hi & maskHi;
    const tail = chain.cells[chain.cells.length - 1];
    this.#tail = tail;
    this.#tailRank = chain.tailRank;
    // The chain without its tail, for the slide that merges into the tail in place.
    const tailMask = 15 << (4 * (tail & 7));
    this.#restLo = tail < 8 ? maskLo & ~tailMask : maskLo;
    this.#restHi = tail < 8 ? maskHi : maskHi & ~tailMask;
    this.#goals = chain.goalCells;
  }

  #isGoal(lo: number, hi: number): boolean {
    const goals = this.#goals, rank = this.#tailRank;
    for (let i = 0; i < goals.length; i++) if (rankAt(lo, hi, goals[i]) === rank) return true;
    return false;
  }

  /** The value of afterstate `a`, `b` (a slide was made; region sum `k` twos): 0 if it broke the chain. */
  #afterSlide(a: number, b: number, k: number): number {
    if ((a & this.#maskLo) !== this.#frozenLo || (b & this.#maskHi) !== this.#frozenHi) {
      // Only a merge into the tail in place, the rest of the chain untouched, is allowed.
      const inPlace = (a & this.#restLo) === (this.#frozenLo & this.#restLo) &&
        (b & this.#restHi) === (this.#frozenHi & this.#restHi) &&
        rankAt(a, b, this.#tail) === this.#tailRank + 1;
      return !inPlace ? 0 : this.#next === undefined ? 1 : this.#wholeAfter(a, b, k);
    }
    return this.#isGoal(a, b) ? 1 : this.#computer(a, b, k);
  }

  /**
   * In a solve through the whole chain's goal: the value of afterstate `a`, `b`, whose
   * slide merged a tile into the tail in place (region sum `k` twos before it), for the
   * whole chain. Its positions are the whole chain's, in that chain's own layers (so a
   * layer's recursion still adds to the next two layers of its own chain only).
   */
  #wholeAfter(a: number, b: number, k: number): number {
    const next = this.#next!;
    const id = this.#id, frozenLo = this.#frozenLo, frozenHi = this.#frozenHi;
    const limit = this.#limit, goals = this.#goals;
    this.#id = next.id;
    this.#layers = this.#layersOf[next.id];
    this.#frozenLo = next.frozenLo;
    this.#frozenHi = next.frozenHi;
    this.#limit = next.limit;
    this.#tailRank++;
    this.#goals = this.#nextGoals;
    this.#next = undefined;
    try {
      // The tile merged into the tail has left the region.
      return this.#isGoal(a, b) ? 1 : this.#computer(a, b, k - (1 << (this.#tailRank - 2)));
    } finally {
      this.#next = next;
      this.#id = id;
      this.#layers = this.#layersOf[id];
      this.#frozenLo = frozenLo;
      this.#frozenHi = frozenHi;
      this.#limit = limit;
      this.#tailRank--;
      this.#goals = goals;
    }
  }

  /**
   * A slider position whose region's tiles sum to `k` twos: the best slide's value (0 when
   * none keeps the chain); the slide is left in `#move` (the first best, or the first that
   * changes the board; -1 if none).
   */
  #slider(lo: number, hi: number, k: number): number {
    if ((++this.nodes & 4095) === 0 && this.#poll !== undefined) this.#poll();
    // The four slides (board.ts slideBoard, inlined: the transposition made once).
    const L = ROW_LEFT, R = ROW_RIGHT;
    const a0 = L[lo & 0xffff] | (L[lo >>> 16] << 16), b0 = L[hi & 0xffff] | (L[hi >>> 16] << 16);
    const a1 = R[lo & 0xffff] | (R[lo >>> 16] << 16), b1 = R[hi & 0xffff] | (R[hi >>> 16] << 16);
    const tl = transposeLo(lo, hi), th = transposeHi(lo, hi);
    let sl = L[tl & 0xffff] | (L[tl >>> 16] << 16), sh = L[th & 0xffff] | (L[th >>> 16] << 16);
    const a2 = transposeLo(sl, sh), b2 = transposeHi(sl, sh);
    sl = R[tl & 0xffff] | (R[tl >>> 16] << 16);
    sh = R[th & 0xffff] | (R[th >>> 16] << 16);
    const a3 = transposeLo(sl, sh), b3 = transposeHi(sl, sh);
    // The first of the best; a certain goal (1) ends the search. (A first legal slide takes
    // `move < 0`: its value, 0 or more, is the best so far.)
    let best = 0, move = -1;
    if (a0 !== lo || b0 !== hi) {
      best = this.#afterSlide(a0, b0, k);
      move = 0;
    }
    if (best !== 1 && (a1 !== lo || b1 !== hi)) {
      const v = this.#afterSlide(a1, b1, k);
      if (move < 0 || v > best) {
        best = v;
        move = 1;
      }
    }
    if (best !== 1 && (a2 !== lo || b2 !== hi)) {
      const v = this.#afterSlide(a2, b2, k);
      if (move < 0 || v > best) {
        best = v;
        move = 2;
      }
    }
    if (best !== 1 && (a3 !== lo || b3 !== hi)) {
      const v = this.#afterSlide(a3, b3, k);
      if (move < 0 || v > best) {
        best = v;
        move = 3;
      }
    }
    this.#move = move;
    return best;
  }

  /**
   * An afterstate (the computer to place a tile) whose region's tiles sum to `k` twos: the
   * mean over the placements. Its layer `k` holds it once solved; the placements lead to
   * layers `k + 1` and `k + 2` only, so the free slot found before their solve is the one
   * to fill after it.
   */
  #computer(lo: number, hi: number, k: number): number {
    ++this.nodes;
    let layer = this.#layers[k];
    if (layer === undefined) layer = this.#newLayer(k);
    let slot = findIn(layer, lo, hi);
    if (slot >= 0) return layer.values[slot * 3 + 2];
    let v = 0, free = 0;
    for (let i = 0; i < 32; i += 4) {
      if (((lo >>> i) & 15) === 0) {
        free++;
        v += P_TWO * this.#slider(lo | (1 << i), hi, k + 1) +
          P_FOUR * this.#slider(lo | (2 << i), hi, k + 2);
      }
      if (((hi >>> i) & 15) === 0) {
        free++;
        v += P_TWO * this.#slider(lo, hi | (1 << i), k + 1) +
          P_FOUR * this.#slider(lo, hi | (2 << i), k + 2);
      }
    }
    v = free === 0 ? 0 : v / free;
    if (++this.#counts[this.#id] > this.#limit) throw new OverBudget();
    if (layer.count >= (layer.size >>> 2) * 3) {
      layer = this.#layers[k] = this.#grown(layer);
      slot = findIn(layer, lo, hi);
    }
    const at = ~slot * 3, w = layer.words;
    w[at] = lo;
    w[at + 1] = hi;
    layer.values[at + 2] = v;
    layer.count++;
    this.#stored++;
    return v;
  }

  /** A new layer `k` for the running chain, within the slots the budget allows. */
  #newLayer(k: number): Layer {
    this.#reserve(LAYER_MIN);
    this.#slots += LAYER_MIN;
    // Filled up to `k` (an array with holes far apart would turn into a dictionary).
    const layers = this.#layers;
    while (layers.length <= k) layers.push(undefined);
    return layers[k] = new Layer(LAYER_MIN);
  }

  /** `layer` moved into a quarter more slots (a new array: the old one is dropped). */
  #grown(layer: Layer): Layer {
    const size = layer.size + (layer.size >>> 2);
    this.#reserve(size - layer.size);
    const out = new Layer(size), w = layer.words, vs = layer.values;
    const ow = out.words, ov = out.values;
    for (let s = 0; s < layer.size; s++) {
      const lo = w[s * 3], hi = w[s * 3 + 1];
      if ((lo | hi) === 0) continue;
      const at = ~findIn(out, lo, hi) * 3;
      ow[at] = lo;
      ow[at + 1] = hi;
      ov[at + 2] = vs[s * 3 + 2];
    }
    out.count = layer.count;
    this.#slots += size - layer.size;
    return out;
  }

  /**
   * Makes room for `more` slots: past the largest table, the other chains' layers are
   * dropped, and a running chain that fills it alone is given up. The chains of earlier
   * phases go first, the last solved first: they come back in the next game in the order
   * they came, so the one solved last is needed last (where dropping the least recently
   * solved would drop each just before it comes back, once a game's chains fill the
   * table). Then this phase's, the least recently solved first.
   */
  #reserve(more: number): void {
    while (this.#slots + more > this.#maxSlots) {
      let victim = 0, earlier = false;
      for (let id = 1; id < this.#layersOf.length; id++) {
        // In a solve through the whole chain's goal, both chains' layers are the running solve's.
        if (id === this.#id || id === this.#through[0] || id === this.#through[1]) continue;
        if (this.#layersOf[id].length === 0) continue;
        const used = this.#usedAt[id], past = used <= this.#phaseStart;
        if (
          victim === 0 || (past && !earlier) ||
          (past === earlier && (past ? used > this.#usedAt[victim] : used < this.#usedAt[victim]))
        ) [victim, earlier] = [id, past];
      }
      if (victim === 0) throw new OverBudget();
      this.#drop(victim);
    }
  }

  /** Drops chain `id`'s layers and positions. */
  #drop(id: number): void {
    for (const layer of this.#layersOf[id]) {
      if (layer === undefined) continue;
      this.#slots -= layer.size;
      this.#stored -= layer.count;
    }
    this.#layersOf[id] = [];
    this.#counts[id] = 0;
    this.#bases[id] = 0;
  }

  /** Gives a chain up: its positions leave the table, and it is not tried again this phase. */
  #giveUp(key: string): void {
    this.#givenUp.add(key);
    this.#drop(this.#id);
    this.#layers = this.#layersOf[this.#id];
  }

  /** Forgets every chain (when their numbers run out). */
  #clear(): void {
    this.#chains.clear();
    this.#counts.length = 1;
    this.#budgets.length = 1;
    this.#layersOf.length = 1;
    this.#bases.length = 1;
    this.#usedAt.length = 1;
    this.#slots = 0;
    this.#stored = 0;
  }
}

/**
 * The slide that merges a tile beside a chain's tail into the tail in place, the rest of
 * the chain untouched, for the shortest chain from a 16384 or more (`GAP_TOP_RANK`; with
 * at most `gaps` gaps) whose tail, a 256 or more (`COLLAPSE_TAIL_RANK`), has a tile of its
 * rank beside it and such a slide; its probability is 1 and it stores nothing. Played again after each merge, it collapses a
 * whole chain tile by tile into its largest, and closes a gap (16384 8192 4096 2048 512
 * 256, a 256 beside the 256: a 512 beside the 512, then a 1024 beside the 2048). The
 * search plays it before any solve with `,through=1` (`expectimax.ts`): the solver values
 * such a goal at 1 and leaves the merges to the network, which may make them elsewhere.
 *
 * @example A 256 beside the 256: left merges it in place; then down, the two 512s
 * ```ts
 * import { packCells } from "./board.ts";
 * import { collapseSlide } from "./endgame.ts";
 * const [lo, hi] = packCells([
 *   16384, 0, 0, 0,
 *   8192, 0, 4, 0,
 *   4096, 256, 256, 2,
 *   2048, 512, 4, 4,
 * ])!;
 * if (collapseSlide(lo, hi, 1)?.move !== 0 || collapseSlide(lo, hi, 0) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export const collapseSlide = (lo: number, hi: number, gaps: number): EndgameAnswer | undefined => {
  const out = new Int32Array(2);
  for (let length = 2; length <= 16; length++) {
    let any = false;
    for (let skips = 0; skips <= gaps; skips++) {
      const chains = chainsOf(lo, hi, length, skips);
      any ||= chains.length > 0;
      for (const chain of chains) {
        if (chain.topRank < GAP_TOP_RANK || chain.tailRank < COLLAPSE_TAIL_RANK) continue;
        if (!chain.goalCells.some((c) => rankAt(lo, hi, c) === chain.tailRank)) continue;
        const [maskLo, maskHi] = chainMask(chain);
        const tail = chain.cells[length - 1];
        const tailMask = 15 << (4 * (tail & 7));
        const restLo = tail < 8 ? maskLo & ~tailMask : maskLo;
        const restHi = tail < 8 ? maskHi : maskHi & ~tailMask;
        for (let move = 0; move < 4; move++) {
          slideBoard(lo, hi, move, out);
          const [a, b] = out;
          if (
            (a & restLo) === (lo & restLo) && (b & restHi) === (hi & restHi) &&
            rankAt(a, b, tail) === chain.tailRank + 1
          ) return { move, probability: 1, chain, positions: 0, collapse: true };
        }
      }
    }
    if (!any) return undefined;
  }
  return undefined;
};

/** The 8 symmetries of the board, as maps of cells (`y * 4 + x`), the identity first. */
const SYMMETRIES: readonly Int8Array[] = [false, true].flatMap((flip) =>
  [0, 1, 2, 3].map((turns) =>
    Int8Array.from({ length: 16 }, (_, i) => {
      let x = i & 3, y = i >> 2;
      if (flip) [x, y] = [y, x];
      for (let t = 0; t < turns; t++) [x, y] = [3 - y, x];
      return y * 4 + x;
    })
  )
);

/**
 * The frame a chain is solved in: the board turned or mirrored (`map`, cell to cell) so
 * that the chain's cells, in order, are the least sequence of the 8 symmetries (its
 * largest tile in the top left corner, the next one to its right), where the same chain
 * in any corner and orientation finds the same positions solved.
 */
interface Frame {
  /** Each cell's cell in the frame. */
  readonly map: Int8Array;
  /** The chain in the frame. */
  readonly chain: Chain;
  /** The board in the frame. */
  readonly lo: number;
  /** The board in the frame. */
  readonly hi: number;
}

/** The frame of `chain` on board `lo`, `hi` (see `Frame`). */
const frameOf = (chain: Chain, lo: number, hi: number): Frame => {
  let map = SYMMETRIES[0], cells = chain.cells;
  for (const m of SYMMETRIES) {
    const mapped = chain.cells.map((c) => m[c]);
    const i = mapped.findIndex((c, j) => c !== cells[j]);
    if (i >= 0 && mapped[i] < cells[i]) [map, cells] = [m, mapped];
  }
  if (map === SYMMETRIES[0]) return { map, chain, lo, hi };
  const [a, b] = mapBoard(lo, hi, map);
  return { map, chain: chainAlong(cells, chain.ranks), lo: a, hi: b };
};

/** Board `lo`, `hi` with each cell's tile moved to `map`'s cell for it. */
const mapBoard = (lo: number, hi: number, map: Int8Array): [number, number] => {
  let a = 0, b = 0;
  for (let i = 0; i < 16; i++) {
    const r = rankAt(lo, hi, i), j = map[i];
    if (j < 8) a |= r << (4 * j);
    else b |= r << (4 * (j - 8));
  }
  return [a, b];
};

/** The masks of `chain`'s cells on a compact board (`lo`, `hi` words). */
const chainMask = (chain: Chain): [number, number] => {
  let maskLo = 0, maskHi = 0;
  for (const c of chain.cells) {
    if (c < 8) maskLo |= 15 << (4 * c);
    else maskHi |= 15 << (4 * (c - 8));
  }
  return [maskLo, maskHi];
};

/** Whether `chain`'s one gap is just before its tail (16384 ... 1024 256: the 512 missing). */
export const gapBeforeTail = (chain: Chain): boolean => {
  const r = chain.ranks, n = r.length;
  if (n < 2 || r[n - 2] !== r[n - 1] + 2) return false;
  for (let i = 1; i < n - 1; i++) if (r[i - 1] !== r[i] + 1) return false;
  return true;
};

/** The sum of a board's tiles in twos (`lo`, `hi` with the chain's cells cleared). */
const regionHalfSum = (lo: number, hi: number): number => {
  let k = 0;
  for (let i = 0; i < 32; i += 4) {
    const a = (lo >>> i) & 15, b = (hi >>> i) & 15;
    if (a !== 0) k += 1 << (a - 1);
    if (b !== 0) k += 1 << (b - 1);
  }
  return k;
};
