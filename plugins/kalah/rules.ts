/**
 * Kalah's rules on plain arrays: sowing (with seed 000's shortcut for full laps),
 * captures under either seed's rule, extra turns, the end of the game with seed 000's
 * sweep, and both seeds' evaluations.
 *
 * A state is a plain array of `2n + 3` small integers, seed 004's layout plus the mover:
 *
 * ```text
 * index  0 .. n-1    south's houses, from south's left (seed 004's player 0)
 *        n           south's store
 *        n+1 .. 2n   north's houses, from north's left
 *        2n+1        north's store
 *        2n+2        the player to move: 0 south, 1 north
 * ```
 *
 * Sowing goes up the indices (counter-clockwise on the board), skipping the opponent's
 * store. House `i` faces house `2n - i`. A move is the house's number counted from the
 * mover's left, from 0 (`formatMove` shows it from 1): for south house `m` is index
 * `m`, for north it is index `n + 1 + m`.
 *
 * @module
 */

/** The two capture rules: seed 004 captures only a non-empty opposite house; seed 000 always. */
export type CaptureRule = "nonempty" | "always";

/** The two evaluations: seed 004's `util` and seed 000's store difference. */
export type EvalName = "util" | "store";

/** The parameters of a game of Kalah. */
export interface KalahConfig {
  /** Houses per side, n >= 1. */
  readonly pits: number;
  /** Stones per house at the start, m >= 0. */
  readonly stones: number;
  /** When a last stone in an empty own house captures. */
  readonly capture: CaptureRule;
  /** The evaluation `value` uses. */
  readonly eval: EvalName;
}

/** A Kalah state (see the module documentation for the layout). */
export type KalahState = readonly number[];

/** The classic game: Kalah(6, 4) with seed 004's capture rule and evaluation. */
export const CLASSIC: KalahConfig = { pits: 6, stones: 4, capture: "nonempty", eval: "util" };

/** South's store index for `n` houses. */
export const southStore = (n: number): number => n;
/** North's store index for `n` houses. */
export const northStore = (n: number): number => 2 * n + 1;
/** The index of the player-to-move entry for `n` houses. */
export const moverIndex = (n: number): number => 2 * n + 2;

/**
 * The start position: `stones` in every house, empty stores, south to move.
 *
 * @example
 * ```ts
 * import { initialState } from "./rules.ts";
 * const s = initialState(2, 3);
 * if (JSON.stringify(s) !== "[3,3,0,3,3,0,0]") throw new Error("layout");
 * ```
 */
export const initialState = (pits: number, stones: number): number[] => {
  // Built by pushing so that V8 keeps a packed array of small integers (fast to copy).
  const s: number[] = [];
  for (let i = 0; i < 2 * pits + 3; i++) s.push(i === pits || i > 2 * pits ? 0 : stones);
  return s;
};

/** The absolute index of the mover's house `m` (0-based from the mover's left). */
export const houseIndex = (n: number, mover: number, m: number): number =>
  mover === 0 ? m : n + 1 + m;

/** Sum of south's houses. */
export const southHouses = (s: ArrayLike<number>, n: number): number => {
  let t = 0;
  for (let i = 0; i < n; i++) t += s[i];
  return t;
};

/** Sum of north's houses. */
export const northHouses = (s: ArrayLike<number>, n: number): number => {
  let t = 0;
  for (let i = n + 1; i <= 2 * n; i++) t += s[i];
  return t;
};

/** True when either side's houses are all empty: the game is over (seed 004's `isTerm`). */
export const isOver = (s: ArrayLike<number>, n: number): boolean =>
  southHouses(s, n) === 0 || northHouses(s, n) === 0;

/**
 * Seed 004's `util`: south's houses and store minus north's. At the end of the game it
 * is the final margin.
 *
 * @example The start is level
 * ```ts
 * import { initialState, util } from "./rules.ts";
 * if (util(initialState(6, 4), 6) !== 0) throw new Error();
 * ```
 */
export const util = (s: ArrayLike<number>, n: number): number => {
  let t = 0;
  for (let i = 0; i <= n; i++) t += s[i];
  for (let i = n + 1; i <= 2 * n + 1; i++) t -= s[i];
  return t;
};

/**
 * Seed 000's `valueImpl` in this plugin's orientation: south's store minus north's
 * (seed 000's bob, who maximizes, is south here; see `seed000.ts`).
 */
export const storeDiff = (s: ArrayLike<number>, n: number): number => s[n] - s[2 * n + 1];

/**
 * Sows the mover's house `m` in place (`b` is a state array; its mover entry is left
 * alone) and returns true when the mover gets an extra turn.
 *
 * Full laps are added at once (seed 000's quotient and remainder), so the cost is
 * O(board), whatever the number of stones. When a side is empty afterwards the game is
 * over and each side's houses go to its own store (seed 000's sweep). `sowNaive` is the
 * stone-by-stone reference it is tested against.
 */
export const sowInPlace = (
  b: number[],
  n: number,
  mover: number,
  m: number,
  captureAlways: boolean,
): boolean => sowAt(b, 0, n, mover, m, captureAlways);

/**
 * `sowInPlace` on the board that starts at `b[off]` (a stack of boards in one array, as
 * the fast searches of `fast.ts` keep them): the one implementation of the sowing rule
 * that play and the searches share.
 */
export const sowAt = (
  b: number[],
  off: number,
  n: number,
  mover: number,
  m: number,
  captureAlways: boolean,
): boolean => {
  const width = 2 * n + 2;
  const own = mover === 0 ? n : 2 * n + 1;
  const skip = mover === 0 ? 2 * n + 1 : n;
  let pos = mover === 0 ? m : n + 1 + m;
  const g = b[off + pos];
  b[off + pos] = 0;
  const lap = 2 * n + 1;
  let rest = g - 1;
  if (rest >= lap) {
    const q = Math.floor(rest / lap);
    rest -= q * lap;
    for (let i = 0; i < width; i++) if (i !== skip) b[off + i] += q;
  }
  for (let k = 0; k < rest; k++) {
    if (++pos === width) pos = 0;
    if (pos === skip && ++pos === width) pos = 0;
    b[off + pos]++;
  }
  if (++pos === width) pos = 0;
  if (pos === skip && ++pos === width) pos = 0;
  let extra = false;
  if (pos === own) {
    b[off + own]++;
    extra = true;
  } else if (b[off + pos] === 0 && (mover === 0 ? pos < n : pos > n)) {
    const opp = off + 2 * n - pos;
    if (captureAlways || b[opp] > 0) {
      b[off + own] += b[opp] + 1;
      b[opp] = 0;
    } else b[off + pos] = 1;
  } else b[off + pos]++;
  // The end of the game: each side keeps its own stones.
  let south = 0, north = 0;
  for (let i = off; i < off + n; i++) south += b[i];
  for (let i = off + n + 1; i <= off + 2 * n; i++) north += b[i];
  if (south === 0 || north === 0) {
    b[off + n] += south;
    b[off + 2 * n + 1] += north;
    for (let i = off; i < off + n; i++) b[i] = 0;
    for (let i = off + n + 1; i <= off + 2 * n; i++) b[i] = 0;
  }
  return extra;
};

/** What a sowing did besides moving stones: filled in by `sowNaive` when asked. */
export interface SowReport {
  /**
   * The stones a capture put in the mover's store (the last stone and the opposite
   * house's), 0 without a capture.
   */
  captured: number;
}

/**
 * Sows stone by stone (the seeds' literal procedure, O(stones)): the readable reference
 * that `sowAt`, `moveKind` and the solvers' shortcuts are tested against. Same contract
 * as `sowInPlace`; `report` (when given) learns what the capture took.
 */
export const sowNaive = (
  b: number[],
  n: number,
  mover: number,
  m: number,
  captureAlways: boolean,
  report?: SowReport,
): boolean => {
  const store = mover === 0 ? southStore(n) : northStore(n);
  const opponentsStore = mover === 0 ? northStore(n) : southStore(n);
  let pit = houseIndex(n, mover, m);
  let hand = b[pit];
  b[pit] = 0;
  // One stone in each pit counter-clockwise, passing the opponent's store by.
  while (hand > 0) {
    pit = (pit + 1) % (2 * n + 2);
    if (pit !== opponentsStore) {
      b[pit]++;
      hand--;
    }
  }
  // The last stone in an empty house of the mover's own side captures the opposite one.
  const ownSide = mover === 0 ? pit < n : pit > n && pit < 2 * n + 1;
  let captured = 0;
  if (ownSide && b[pit] === 1) {
    const opposite = 2 * n - pit;
    if (captureAlways || b[opposite] > 0) {
      captured = b[opposite] + 1;
      b[store] += captured;
      b[opposite] = 0;
      b[pit] = 0;
    }
  }
  if (report !== undefined) report.captured = captured;
  // A side is empty: the game is over and each side's stones go to its own store.
  if (southHouses(b, n) === 0 || northHouses(b, n) === 0) {
    for (let i = 0; i < n; i++) {
      b[southStore(n)] += b[i];
      b[i] = 0;
    }
    for (let i = n + 1; i <= 2 * n; i++) {
      b[northStore(n)] += b[i];
      b[i] = 0;
    }
  }
  return pit === store;
};

/**
 * The state after the mover plays house `m` (pure: a new array).
 *
 * @example South's third house in Kalah(6, 4) ends in the store: south moves again
 * ```ts
 * import { initialState, play } from "./rules.ts";
 * const s = play(initialState(6, 4), 6, 2, false);
 * if (JSON.stringify(s) !== "[4,4,0,5,5,5,1,4,4,4,4,4,4,0,0]") throw new Error();
 * ```
 */
export const play = (s: KalahState, n: number, m: number, captureAlways: boolean): number[] => {
  const b = s.slice();
  const mover = s[2 * n + 2];
  if (!sowInPlace(b, n, mover, m, captureAlways)) b[2 * n + 2] = 1 - mover;
  return b;
};

/**
 * The mover's legal houses (0-based from the mover's left), in order; none when either
 * side is empty. For up to 16 houses the arrays are shared per set of non-empty houses
 * (no allocation per node): callers must not modify them.
 */
export const movesFor = (n: number): (s: ArrayLike<number>) => readonly number[] => {
  const cached = n <= 16;
  const table: (readonly number[])[] = [];
  if (cached) {
    for (let mask = 0; mask < 1 << n; mask++) {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) if (mask & (1 << i)) ms.push(i);
      table.push(Object.freeze(ms));
    }
  }
  const none: readonly number[] = Object.freeze([]);
  return (s) => {
    const mover = s[2 * n + 2];
    const base = mover === 0 ? 0 : n + 1;
    const other = mover === 0 ? n + 1 : 0;
    let theirs = 0;
    for (let i = 0; i < n; i++) theirs += s[other + i];
    if (theirs === 0) return none;
    if (cached) {
      let mask = 0;
      for (let i = 0; i < n; i++) if (s[base + i] > 0) mask |= 1 << i;
      return table[mask];
    }
    const ms: number[] = [];
    for (let i = 0; i < n; i++) if (s[base + i] > 0) ms.push(i);
    return ms;
  };
};

/** What a move does, for move ordering and display. */
export const MoveKind = {
  /** Anything else. */
  Plain: 0,
  /** The last stone lands in an empty own house and captures. */
  Capture: 1,
  /** The last stone lands in the mover's store: an extra turn. */
  Extra: 2,
} as const;

/** One of the `MoveKind` values. */
export type MoveKind = (typeof MoveKind)[keyof typeof MoveKind];

/** Classifies the mover's house `m` without playing it. */
export const moveKind = (
  s: ArrayLike<number>,
  n: number,
  m: number,
  captureAlways: boolean,
): MoveKind => {
  const base = s[2 * n + 2] === 0 ? 0 : n + 1;
  const g = s[base + m];
  const lap = 2 * n + 1;
  if (g === 0) return MoveKind.Plain;
  // Positions from the mover's side: own houses 0..n-1, the store n, the opponent's after.
  const land = (m + g) % lap;
  if (land === n) return MoveKind.Extra;
  // Without a full lap the landing house is empty before the last stone when it was
  // empty at the start, or when it is the emptied start house itself (g = 2n + 1).
  if (land < n && g <= lap && (land === m || s[base + land] === 0)) {
    // A sowing that wrapped around (land <= m) dropped a stone in the opposite house.
    if (captureAlways || land <= m || s[2 * n - (base + land)] > 0) return MoveKind.Capture;
  }
  return MoveKind.Plain;
};

let kinds = new Int8Array(16);

/**
 * Kalah move ordering: extra-turn moves first (nearest the store first, which keeps the
 * others' counts), then captures, then the rest in house order.
 */
export const orderKalahMoves = (
  s: ArrayLike<number>,
  n: number,
  ms: readonly number[],
  captureAlways: boolean,
): number[] => {
  // One array per call: the kinds go to a scratch buffer, then three passes fill it.
  if (kinds.length < ms.length) kinds = new Int8Array(2 * ms.length);
  for (let i = 0; i < ms.length; i++) kinds[i] = moveKind(s, n, ms[i], captureAlways);
  const out: number[] = [];
  for (let i = ms.length - 1; i >= 0; i--) if (kinds[i] === MoveKind.Extra) out.push(ms[i]);
  for (let i = ms.length - 1; i >= 0; i--) if (kinds[i] === MoveKind.Capture) out.push(ms[i]);
  for (let i = 0; i < ms.length; i++) if (kinds[i] === MoveKind.Plain) out.push(ms[i]);
  return out;
};
