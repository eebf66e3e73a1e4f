/**
 * Kalah's fast path (`Game.fast`): the board in one `Int32Array`, sown in place by
 * `rules.ts`'s `sowAt` (the one sowing rule), the boards before each move kept on a
 * stack for `undo`. Every answer is the plain game's: the same moves in order, the same
 * ordering (`orderKalahMoves`'s, here in place: extra moves, then captures, each from
 * the right, then the rest), value and key (`hashInts` of the same numbers).
 *
 * @module
 */
import type { FastGame } from "../../core/game.ts";
import { hashInts } from "../../core/hash.ts";
import { isOver, type KalahState, MoveKind, moveKind, sowAt } from "./rules.ts";

/**
 * A cursor over Kalah with `n` houses a side; `value` is the game's evaluation.
 *
 * @example Play house 3 from the start and take it back
 * ```ts
 * import { kalahCursor } from "./cursor.ts";
 * import { initialState, util } from "./rules.ts";
 * const c = kalahCursor(6, false, (s) => util(s, 6));
 * c.reset(initialState(6, 4));
 * c.play(2); // the last stone lands in the store: south moves again
 * if (c.toMove() !== 0) throw new Error("an extra move");
 * c.undo();
 * if (c.moves(new Int32Array(6), 0) !== 6) throw new Error("back at the start");
 * ```
 */
export const kalahCursor = (
  n: number,
  captureAlways: boolean,
  value: (s: KalahState) => number,
): FastGame<KalahState> => {
  const w = 2 * n + 3, moverAt = 2 * n + 2;
  const board = new Int32Array(w);
  let stack = new Int32Array(w * 64), top = 0;
  const kinds = new Int8Array(n), ms = new Int32Array(n);
  const asState = board as unknown as KalahState;
  return {
    maxMoves: n,
    reset: (s) => {
      board.set(s);
      top = 0;
    },
    toMove: () => (board[moverAt] === 0 ? 0 : 1),
    moves: (out, at) => {
      const base = board[moverAt] === 0 ? 0 : n + 1, other = n + 1 - base;
      let theirs = 0;
      for (let i = 0; i < n; i++) theirs += board[other + i];
      if (theirs === 0) return 0;
      let k = 0;
      for (let i = 0; i < n; i++) if (board[base + i] > 0) out[at + k++] = i;
      return k;
    },
    order: (out, at, count) => {
      for (let i = 0; i < count; i++) {
        ms[i] = out[at + i];
        kinds[i] = moveKind(board, n, ms[i], captureAlways);
      }
      let k = at;
      for (let i = count - 1; i >= 0; i--) if (kinds[i] === MoveKind.Extra) out[k++] = ms[i];
      for (let i = count - 1; i >= 0; i--) if (kinds[i] === MoveKind.Capture) out[k++] = ms[i];
      for (let i = 0; i < count; i++) if (kinds[i] === MoveKind.Plain) out[k++] = ms[i];
    },
    play: (m) => {
      if (top + w > stack.length) {
        const grown = new Int32Array(stack.length * 2);
        grown.set(stack);
        stack = grown;
      }
      for (let i = 0; i < w; i++) stack[top + i] = board[i];
      top += w;
      const mover = board[moverAt];
      if (!sowAt(board as unknown as number[], 0, n, mover, m, captureAlways)) {
        board[moverAt] = 1 - mover;
      }
    },
    undo: () => {
      top -= w;
      for (let i = 0; i < w; i++) board[i] = stack[top + i];
    },
    over: () => isOver(board, n),
    value: () => value(asState),
    key: () => hashInts(board),
  };
};
