/**
 * The page's texts, without the DOM: numbers of a search, who is to move, review marks.
 *
 * @module
 */
import type { NodeView, SearchView, ServerMessage } from "../server/protocol.ts";
import { SEVERITIES, severityOf } from "./marks.ts";

/** The `Position` message. */
export type Position = Extract<ServerMessage, { readonly _tag: "Position" }>;

/** Decided values are `±2^40` and beyond; a loss of half that or more is decisive. */
export const DECISIVE = 2 ** 39;

/** A count for people: `950`, `12.3k`, `4.56M`. */
export const formatCount = (n: number): string => {
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 1e6) return `${(n / 1e3).toPrecision(3)}k`;
  if (a < 1e9) return `${(n / 1e6).toPrecision(3)}M`;
  return `${(n / 1e9).toPrecision(3)}G`;
};

/** Milliseconds for people: `850 ms`, `2.4 s`. */
export const formatMs = (ms: number): string =>
  ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** The value bar's fill, from 0 (the mover loses) to 1 (the mover wins); `bar` is -1..1. */
export const barFill = (bar: number): number =>
  Number.isFinite(bar) ? Math.min(1, Math.max(0, (bar + 1) / 2)) : 0.5;

/** The small note after an AI's move in the move list: `+3 d6`. */
export const searchNote = (s: SearchView): string => `${s.valueText} d${s.depth}`;

/**
 * A reviewed move's mark: `?!` for an inaccuracy, `?` for a mistake, `??` for a blunder
 * (in an annotation without a severity: a mistake that gave away at least `DECISIVE`),
 * nothing for a move not marked.
 */
export const reviewMark = (review: NodeView["review"]): string => {
  const s = severityOf(review, DECISIVE);
  return SEVERITIES.find((x) => x.severity === s)?.mark ?? "";
};

/** A side's name: the game's name for it (`south`), or `player N` before the game is known. */
export const sideName = (
  names: readonly string[] | undefined,
  side: 0 | 1,
): string => names?.[side] ?? `player ${side + 1}`;

/**
 * Who plays side `side`: "you", or the player's spec (`alphabeta:6`, `remote`); in a
 * saved game loaded for review, the name the transcript gives (this browser moves for
 * both, but did not play them).
 */
export const playerOf = (pos: Position, side: 0 | 1): string =>
  pos.mine[side] && pos.loaded !== true ? "you" : pos.players[side];

/** The status line: the result, or who is to move and what they are doing. */
export const statusText = (
  pos: Position,
  names: readonly string[] | undefined,
): string => {
  if (pos.result !== undefined) return pos.result.text;
  if (pos.toMove === null) return "the game is over";
  if (pos.toMove === "chance") return "chance to move";
  const side = pos.toMove;
  const who = sideName(names, side);
  if (pos.mine[side] && pos.loaded !== true) return `${who} to move: your move`;
  if (pos.paused) return `${who} (${pos.players[side]}) to move: paused (resume, or move for it)`;
  if (pos.thinking === side) return `${who} (${pos.players[side]}) is thinking`;
  return `${who} (${pos.players[side]}) to move`;
};
