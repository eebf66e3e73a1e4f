/**
 * Nim: any list of heaps; a move takes one or more stones from one heap. Under normal
 * play whoever takes the last stone wins; under misère play whoever takes it loses.
 *
 * Moves are written `heap-count`, heaps numbered from 1: `2-3` takes 3 from heap 2.
 *
 * The AI's strengths (`strengths`, weakest first):
 *
 * | strength  | player spec      | plays                                               |
 * | --------- | ---------------- | --------------------------------------------------- |
 * | `easy`    | `randombest:1`   | a random move, but it takes the last stone          |
 * | `medium`  | `alphabeta:4`    | looks four moves ahead                              |
 * | `strong`  | `alphabeta:3s`   | three seconds a move: perfect on small heaps        |
 * | `perfect` | `alphabeta:1000` | searches to the end (slow on heaps of hundreds)     |
 *
 * @module
 */
import { Effect, Result, Schema } from "../../core/deps.ts";
import { CHANCE, type Game, type Player, WIN } from "../../core/game.ts";
import { hashInts } from "../../core/hash.ts";
import { definePlugin } from "../../core/plugin.ts";
import { about } from "./about.ts";
import { LAST_STYLE, paintSpans } from "../view.ts";
import { nimPicture } from "./picture.ts";
import { withPicture } from "../svg.ts";

/** The style of the stones the last move took (dim red), with colour. */
const TAKEN_STYLE = "2;31";

/** Nim's options. */
export const NimOptions = Schema.Struct({
  heaps: Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 })))
    .check(Schema.isMinLength(1), Schema.isMaxLength(64))
    .annotate({ description: "the heap sizes" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed([3, 4, 5]))),
  misere: Schema.Boolean.annotate({ description: "misère play: taking the last stone loses" })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(false))),
});

/** Decoded Nim options. */
export type NimOptions = typeof NimOptions.Type;

/** A Nim state: the heap sizes, then the player to move. */
export type NimState = readonly number[];

/**
 * Builds Nim for the given heaps and play convention, with its picture for a web page
 * (`picture_nim.ts`).
 */
export const nimGame = (options: NimOptions): Game<NimState> => {
  const heaps = options.heaps;
  const n = heaps.length;
  const width = Math.max(1, ...heaps); // moves encode (heap, count) as heap * width + count - 1
  const encode = (heap: number, count: number) => heap * width + count - 1;
  const turn = (s: NimState) => s[n] as Player;
  const empty = (s: NimState) => {
    for (let i = 0; i < n; i++) if (s[i] > 0) return false;
    return true;
  };
  // At the end the player to move took nothing last: under normal play they lost.
  const winnerAtEnd = (s: NimState): Player => options.misere ? turn(s) : ((1 - turn(s)) as Player);
  const game: Game<NimState> = {
    id: "nim",
    players: ["first", "second"],
    initial: () => [...heaps, 0],
    toMove: turn,
    moves: (s) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) for (let k = 1; k <= s[i]; k++) out.push(encode(i, k));
      return out;
    },
    chances: () => [],
    play: (s, m) => {
      const next = s.slice();
      const heap = Math.floor(m / width);
      next[heap] -= (m % width) + 1;
      next[n] = 1 - s[n];
      return next;
    },
    outcome: (s) => {
      if (!empty(s)) return undefined;
      const w = winnerAtEnd(s);
      return { winner: w, margin: w === 0 ? 1 : -1 };
    },
    value: (s) => (empty(s) ? (winnerAtEnd(s) === 0 ? WIN : -WIN) : 0),
    render: (s, view) => {
      // The heap the last move took from, and how many: shown as dashes after the stones.
      const last = view?.last === undefined || view.last.by === CHANCE ? -1 : view.last.move;
      const heap = last < 0 ? -1 : Math.floor(last / width);
      const taken = (last % width) + 1;
      const line = (i: number) => {
        if (i !== heap) return `${i + 1}: ${"o".repeat(s[i])} (${s[i]})`;
        const plain = `${i + 1}: ${"o".repeat(s[i])}${"-".repeat(taken)} (${s[i]})`;
        if (view?.color !== true) return plain;
        const label = String(i + 1).length;
        return paintSpans(plain, [
          { at: 0, length: label, sgr: LAST_STYLE },
          { at: label + 2 + s[i], length: taken, sgr: TAKEN_STYLE },
        ]);
      };
      return Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n";
    },
    formatMove: (_s, m) => `${Math.floor(m / width) + 1}-${(m % width) + 1}`,
    parseMove: (s, text) => {
      const t = text.trim().toLowerCase();
      const mt = /^(\d+)\s*[-: ]\s*(\d+)$/.exec(t) ??
        /^take\s+(\d+)\s+from\s+(?:heap\s+)?(\d+)$/.exec(t);
      if (mt === null) {
        return Result.fail(`expected HEAP-COUNT such as "1-2" (take 2 from heap 1)`);
      }
      const [heap, count] = t.startsWith("take") ? [+mt[2], +mt[1]] : [+mt[1], +mt[2]];
      if (heap < 1 || heap > n) return Result.fail(`there is no heap ${heap}; heaps are 1-${n}`);
      if (count < 1 || count > s[heap - 1]) {
        return Result.fail(
          s[heap - 1] === 0
            ? `heap ${heap} is empty`
            : `heap ${heap} has ${s[heap - 1]}; take 1-${s[heap - 1]}`,
        );
      }
      return Result.succeed(encode(heap - 1, count));
    },
    key: hashInts,
  };
  return withPicture(nimPicture, game);
};

/** Nim's rules and notation, for a person (`rules` in `play`). */
export const NIM_RULES = `Nim: a few heaps of stones (--heaps, default 3,4,5). Players take turns; a
move takes one or more stones from a single heap. Normal play: whoever takes
the last stone wins. Misere play (--misere true): whoever takes it loses.
Moves: HEAP-COUNT, heaps numbered from 1: 2-3 takes 3 stones from heap 2
(also "2 3" or "take 3 from heap 2"). The board marks the stones just taken
with dashes.`;

/**
 * The AI's strengths, weakest first (see the module notes). A game of Nim lasts at most
 * as many plies as there are stones, so `alphabeta:1000` searches to the end.
 */
export const NIM_STRENGTHS: Readonly<Record<string, string>> = {
  easy: "randombest:1",
  medium: "alphabeta:4",
  strong: "alphabeta:3s",
  perfect: "alphabeta:1000",
};

/** The Nim plugin. */
export default definePlugin({
  ...about,
  options: NimOptions,
  create: nimGame,
  rules: NIM_RULES,
  strengths: NIM_STRENGTHS,
});
