/**
 * Seed 000's Kalaha functions, ported to the letter on the seed's own state layout and
 * player booleans, and the mapping between that layout and this plugin's.
 *
 * Seed 000's state is `[alice's houses, alice's store, bob's houses, bob's store]`;
 * alice is `false`, bob is `true`, and `valueImpl` (bob's store minus alice's) is what
 * bob maximizes. The plugin's player 0 maximizes, so **bob is south (player 0) and
 * alice is north (player 1)**: the plugin's state is the seed's with the halves swapped
 * (`fromSeed000` / `toSeed000`), and `valueImpl` equals the plugin's `store` evaluation.
 * Seed 000's rules are the plugin's with `capture: "always"`.
 *
 * @module
 */

/** Seed 000's `Kalaha PitCount StoneCount`. */
export interface Kalaha {
  /** Houses per side. */
  readonly pitCount: number;
  /** Stones per house at the start. */
  readonly stoneCount: number;
}

/** Seed 000's `Player`: alice is `false`, bob is `true`. */
export type Player000 = boolean;

/** Seed 000's alice (`False`). */
export const alice: Player000 = false;
/** Seed 000's bob (`True`), who maximizes `valueImpl`. */
export const bob: Player000 = true;

/**
 * Seed 000's `startStateImpl`: each side is `pitCount` houses of `stoneCount` stones and
 * an empty store.
 */
export const startStateImpl = (k: Kalaha): number[] => {
  const side = [...new Array<number>(k.pitCount).fill(k.stoneCount), 0];
  return [...side, ...side];
};

/** Seed 000's `movesImpl`: the indexes of the player's non-empty houses. */
export const movesImpl = (k: Kalaha, player: Player000, state: readonly number[]): number[] => {
  const offset = player ? k.pitCount + 1 : 0;
  const out: number[] = [];
  for (let i = offset; i < offset + k.pitCount; i++) if (state[i] > 0) out.push(i);
  return out;
};

/** Seed 000's `valueImpl`: bob's store minus alice's. */
export const valueImpl = (k: Kalaha, state: readonly number[]): number =>
  state[2 * k.pitCount + 1] - state[k.pitCount];

/**
 * Seed 000's `moveImpl`: grab the stones, add the full round trips at once
 * (`(grabbed - 1) quotRem (boardSize - 1)`), sow the remainder, then the last stone
 * (extra turn in the own store; a capture in an empty own house, whatever the opposite
 * house holds), then `cleanupIfGameOver` (bob's final score is `2nm` minus alice's, as
 * in the seed). Returns the next player and the new state.
 */
export const moveImpl = (
  k: Kalaha,
  player: Player000,
  startState: readonly number[],
  startPosition: number,
): [Player000, number[]] => {
  const n = k.pitCount;
  const boardSize = 2 * n + 2;
  const [ownStore, opponentStore] = player === bob ? [2 * n + 1, n] : [n, 2 * n + 1];
  const state = startState.slice();
  const grabbed = state[startPosition];
  if (!(grabbed > 0)) throw new RangeError(`house ${startPosition} is empty`);
  state[startPosition] = 0;
  const numRoundtrips = Math.trunc((grabbed - 1) / (boardSize - 1));
  const stonesToSowe = (grabbed - 1) % (boardSize - 1);
  for (let i = 0; i < boardSize; i++) state[i] += numRoundtrips;
  state[opponentStore] -= numRoundtrips;
  const positionAfter = (p: number): number => {
    let q = (p + 1) % boardSize;
    while (q === opponentStore) q = (q + 1) % boardSize;
    return q;
  };
  let position = positionAfter(startPosition);
  for (let i = 0; i < stonesToSowe; i++) {
    state[position]++;
    position = positionAfter(position);
  }
  let next: Player000;
  const onOwnSide = position < ownStore && position >= ownStore - n;
  if (position === ownStore) {
    state[position]++;
    next = player;
  } else if (state[position] === 0 && onOwnSide) {
    const otherSidePit = boardSize - 2 - position;
    const stones = state[otherSidePit];
    state[otherSidePit] = 0;
    state[ownStore] += stones + 1;
    next = !player;
  } else {
    state[position]++;
    next = !player;
  }
  return [next, cleanupIfGameOver(k, state)];
};

/** Seed 000's `cleanupIfGameOver` (a helper of `moveImpl`). */
const cleanupIfGameOver = (k: Kalaha, state: number[]): number[] => {
  const n = k.pitCount;
  const aliceSide = state.slice(0, n + 1), bobSide = state.slice(n + 1);
  const empty = (side: number[]) => side.slice(0, n).every((x) => x === 0);
  if (!empty(aliceSide) && !empty(bobSide)) return state;
  const aliceFinalScore = aliceSide.reduce((a, b) => a + b, 0);
  const bobFinalScore = 2 * n * k.stoneCount - aliceFinalScore;
  const emptyPits = new Array<number>(n).fill(0);
  return [...emptyPits, aliceFinalScore, ...emptyPits, bobFinalScore];
};

/**
 * Seed 000's `showGameImpl`: three lines (bob's houses reversed with bob's store on the
 * left of the middle line, alice's houses below with alice's store on the right), every
 * number left-padded to the width of `2nm`, words joined by one space, and each line
 * ended by a newline (`unlines`).
 *
 * @example The seed's `Kalaha 6 6` example
 * ```ts
 * import { showGameImpl } from "./seed000.ts";
 * const text = showGameImpl({ pitCount: 6, stoneCount: 6 }, [3, 0, 1, 0, 0, 0, 27, 4, 1, 0, 0, 6, 10, 20]);
 * if (text.split("\n")[0] !== "   10  6  0  0  1  4") throw new Error(text);
 * ```
 */
export const showGameImpl = (k: Kalaha, state: readonly number[]): string => {
  const n = k.pitCount;
  const maxLength = String(2 * n * k.stoneCount).length;
  const cells = state.slice(0, 2 * n + 2).map((v) => String(v).padStart(maxLength, " "));
  const aliceSide = cells.slice(0, n), aliceKalaha = cells[n];
  const bobSide = cells.slice(n + 1, 2 * n + 1), bobKalaha = cells[2 * n + 1];
  const emptySlot = " ".repeat(maxLength);
  const line1 = [emptySlot, ...bobSide.reverse()];
  const line2 = [bobKalaha, ...new Array<string>(n).fill(emptySlot), aliceKalaha];
  const line3 = [emptySlot, ...aliceSide];
  return [line1, line2, line3].map((l) => l.join(" ") + "\n").join("");
};

/**
 * The plugin's state for a seed 000 state and player to move: bob's half first (bob is
 * south, player 0), then alice's, then the mover.
 */
export const fromSeed000 = (k: Kalaha, state: readonly number[], player: Player000): number[] => {
  const n = k.pitCount;
  return [...state.slice(n + 1, 2 * n + 2), ...state.slice(0, n + 1), player === bob ? 0 : 1];
};

/** Seed 000's state and player to move for a plugin state (the inverse of `fromSeed000`). */
export const toSeed000 = (k: Kalaha, s: readonly number[]): [Player000, number[]] => {
  const n = k.pitCount;
  return [s[2 * n + 2] === 0 ? bob : alice, [...s.slice(n + 1, 2 * n + 2), ...s.slice(0, n + 1)]];
};

/** The plugin's move (house from the mover's left, from 0) for a seed 000 board index. */
export const moveFromSeed000 = (k: Kalaha, position: number): number =>
  position > k.pitCount ? position - k.pitCount - 1 : position;

/** The seed 000 board index of the plugin's move `m` for a player. */
export const moveToSeed000 = (k: Kalaha, player: Player000, m: number): number =>
  player === bob ? k.pitCount + 1 + m : m;
