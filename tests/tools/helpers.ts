/**
 * Helpers shared by the tests: reaching random positions of any game, and solving them.
 *
 * @module
 */
import { CHANCE, type Game } from "../../core/game.ts";
import { makeRng } from "../../core/rng.ts";

/** A random reachable position: up to `plies` random moves (chance included) from the start. */
export const randomPosition = <S>(game: Game<S>, seed: number, plies: number): S => {
  const rng = makeRng(seed);
  let s = game.initial();
  for (let i = 0; i < plies; i++) {
    const ms = game.toMove(s) === CHANCE ? game.chances(s).map((c) => c.move) : game.moves(s);
    if (ms.length === 0) break;
    s = game.play(s, ms[rng.int(ms.length)]);
  }
  return s;
};

/**
 * A reference: plain memoized minimax to the end (small chance-free games only). A
 * finished position is worth `leaf(s)`; a child's value passes through `step` on its
 * way up (to move decisive values one ply further, say).
 */
export const solveToEnd = <S>(
  game: Game<S>,
  leaf: (s: S) => number,
  step: (v: number) => number = (v) => v,
): (s: S) => number => {
  const memo = new Map<string, number>();
  const solve = (s: S): number => {
    const k = JSON.stringify(s);
    const known = memo.get(k);
    if (known !== undefined) return known;
    const ms = game.moves(s);
    let v: number;
    if (ms.length === 0) v = leaf(s);
    else {
      const vs = ms.map((m) => step(solve(game.play(s, m))));
      v = game.toMove(s) === 0 ? Math.max(...vs) : Math.min(...vs);
    }
    memo.set(k, v);
    return v;
  };
  return solve;
};

/** The exact final margin of a position for player 0 under perfect play (`solveToEnd`). */
export const exactMargin = <S>(game: Game<S>): (s: S) => number =>
  solveToEnd(game, (s) => game.outcome(s)!.margin);
