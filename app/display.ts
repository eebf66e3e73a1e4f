/**
 * Text the programs print about games: results, searches, headers.
 *
 * @module
 */
import { type Game, type Player, WIN, WIN_THRESHOLD } from "../core/game.ts";
import type { GameResult } from "./match.ts";
import type { SearchResult } from "../core/search/types.ts";
import type { Progress } from "../core/engine/engine.ts";

/** A count with thousands separators. */
export const num = (n: number): string => Math.round(n).toLocaleString("en-US");

/**
 * A won game's margin in words, where the game counts one (`Game.marginUnit`): ` by 4
 * stones`, ` by 1 stone`; "" otherwise.
 */
const marginWords = (game: Game<unknown>, margin: number): string => {
  const unit = game.marginUnit;
  const n = Math.abs(margin);
  if (unit === undefined || unit === "" || n === 0) return "";
  return ` by ${num(n)} ${n === 1 ? unit.replace(/s$/, "") : unit}`;
};

/**
 * One line saying how a game ended, in words: `X wins.`, `A draw.`, `south wins by 4
 * stones.` (the margin where the game counts one, `Game.marginUnit`), `Game over:
 * slider scored 2,340.` (a solo game).
 */
export const describeResult = (game: Game<unknown>, r: GameResult): string => {
  const name = (p: 0 | 1) => game.players[p];
  switch (r.reason) {
    case "end":
      if (game.solo === true) return `Game over: ${name(0)} scored ${num(r.margin)}.`;
      if (r.winner === null) return "A draw.";
      return `${name(r.winner)} wins${marginWords(game, r.margin)}.`;
    case "quit":
    case "gave up":
      return `${name(r.by!)} gave up; ${name(r.winner!)} wins.`;
    case "time":
      return game.solo === true || r.winner === null
        ? `${name(r.by!)} ran out of time; the game stops here.`
        : `${name(r.by!)} ran out of time; ${name(r.winner)} wins.`;
    case "illegal move":
      return `${name(r.by!)} made an illegal move; ${name(r.winner!)} wins.`;
    case "end of input":
      return "Input ended; the game stops here.";
    case "interrupted":
      return "Interrupted; the game stops here.";
    case "error":
      return "The game stops here: a plugin failed or a search could not run.";
    case "adjudicated": {
      const how = r.adjudicated !== undefined ? ` (${r.adjudicated})` : "";
      return r.winner === null
        ? `Adjudicated a draw${how}.`
        : `Adjudicated: ${name(r.winner)} wins${how}.`;
    }
    default:
      return `The game stopped: ${r.reason}.`;
  }
};

/** True when a value says who wins (a proven win or loss), not a heuristic estimate. */
export const isDecisive = (v: number): boolean => v >= WIN_THRESHOLD || v <= -WIN_THRESHOLD;

/**
 * A value as a number from `side`'s point of view (`+6`, `-2`, `0`), or, when decisive,
 * who wins and in how many plies (`north wins in 5 plies`). `v` is from player 0's side,
 * as searches return it.
 */
export const sideValue = (game: Game<unknown>, v: number, side: Player): string => {
  if (isDecisive(v)) {
    const plies = Math.round(Math.abs(Math.abs(v) - WIN));
    return `${game.players[v > 0 ? 0 : 1]} wins` +
      (plies > 0 ? ` in ${plies} ${plies === 1 ? "ply" : "plies"}` : "");
  }
  const mine = side === 0 ? v : -v;
  const shown = Number.isInteger(mine) ? String(mine) : mine.toFixed(3);
  return `${mine > 0 ? "+" : ""}${shown}`;
};

/**
 * A value for a person: from `side`'s point of view and labelled with its name
 * (`north: +6`), or, when decisive, who wins and in how many plies (`north wins in 5
 * plies`). `v` is from player 0's side, as searches return it.
 */
export const valueFor = (game: Game<unknown>, v: number, side: Player): string =>
  isDecisive(v) ? sideValue(game, v, side) : `${game.players[side]}: ${sideValue(game, v, side)}`;

/**
 * A search's figures in one line: depth, value (from `side`'s point of view, see
 * `valueFor`), nodes, time.
 */
export const describeSearch = (game: Game<unknown>, r: SearchResult, side: Player): string =>
  `depth ${r.depth}${r.exact ? " (exact)" : ""}, ${valueFor(game, r.value, side)}, ` +
  `${num(r.nodes)} nodes, ${(r.timeMs / 1000).toFixed(2)} s`;

/**
 * A search in progress in one line: the last iteration's figures, and on a heartbeat the
 * time so far (`last`: the latest iteration, if any).
 */
export const describeProgress = (
  game: Game<unknown>,
  p: Progress,
  side: Player,
  last?: SearchResult,
): string =>
  p._tag === "Iteration"
    ? describeSearch(game, p.result, side)
    : `${(p.timeMs / 1000).toFixed(0)} s` +
      (last === undefined ? "" : ` (last: ${describeSearch(game, last, side)})`);

/**
 * A status line on standard error (a terminal): each `show` overwrites the last, and
 * `clear` erases it before other output.
 */
export class StatusLine {
  private shown = false;
  private readonly encoder = new TextEncoder();

  /** Shows `text` in place of the previous status. */
  show(text: string): void {
    this.write(`\r${text}\x1b[K`);
    this.shown = true;
  }

  /** Erases the status, if one is shown. */
  clear(): void {
    if (!this.shown) return;
    this.write("\r\x1b[K");
    this.shown = false;
  }

  private write(text: string): void {
    const bytes = this.encoder.encode(text);
    let off = 0;
    while (off < bytes.length) off += Deno.stderr.writeSync(bytes.subarray(off));
  }
}
