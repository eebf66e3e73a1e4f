/**
 * Pointing at moves: the page's pick logic, without the DOM.
 *
 * A legal move is entered as one of its pick sequences (`LegalMove.picks`, from the
 * game's `Picture.picks`): tokens that are `data-pick` values of the board's elements
 * or keys (`key:ArrowUp`). The page keeps the tokens picked so far (the prefix). The
 * tokens that can come next are the targets; picking one extends the prefix, and a
 * prefix that is a whole sequence is that move. Picking anything else is sent to the
 * server to be explained (`Explain`), and picking a token already picked takes the
 * picks back to before it.
 *
 * @module
 */
import type { LegalMove } from "../server/protocol.ts";

/** The prefix of a token that is a key (`key:ArrowLeft`), as in `core/picture.ts`. */
export const KEY_PREFIX = "key:";

/** A legal move's verdict from the mover's view (the analysis of a solved position). */
export type Verdict = "win" | "draw" | "loss";

/** What picking a token does. */
export type PickOutcome =
  /** The picks make this move: send it. */
  | { readonly kind: "move"; readonly move: number }
  /** The picks so far become `prefix` (a token added, or taken back). */
  | { readonly kind: "prefix"; readonly prefix: readonly string[] }
  /** The picks make no legal move: ask the server why. */
  | { readonly kind: "explain"; readonly picks: readonly string[] };

const startsWith = (
  seq: readonly string[],
  prefix: readonly string[],
): boolean => seq.length >= prefix.length && prefix.every((t, i) => seq[i] === t);

/** The tokens that can follow `prefix` in some legal move's sequence. */
export const nextTokens = (
  legal: readonly LegalMove[],
  prefix: readonly string[],
): Set<string> => {
  const out = new Set<string>();
  for (const m of legal) {
    for (const seq of m.picks) {
      if (seq.length > prefix.length && startsWith(seq, prefix)) {
        out.add(seq[prefix.length]);
      }
    }
  }
  return out;
};

/** The move whose sequence is exactly `picks`, if any. */
export const moveOf = (
  legal: readonly LegalMove[],
  picks: readonly string[],
): number | undefined =>
  legal.find((m) => m.picks.some((seq) => seq.length === picks.length && startsWith(seq, picks)))
    ?.move;

/** What picking `token` after `prefix` does (see the module's doc). */
export const pick = (
  legal: readonly LegalMove[],
  prefix: readonly string[],
  token: string,
): PickOutcome => {
  if (nextTokens(legal, prefix).has(token)) {
    const picks = [...prefix, token];
    const move = moveOf(legal, picks);
    return move === undefined ? { kind: "prefix", prefix: picks } : { kind: "move", move };
  }
  const at = prefix.indexOf(token);
  if (at >= 0) return { kind: "prefix", prefix: prefix.slice(0, at) };
  return { kind: "explain", picks: [...prefix, token] };
};

const rank: Readonly<Record<Verdict, number>> = { loss: 0, draw: 1, win: 2 };

/**
 * The verdict each target token leads to: the best (for the mover) of the verdicts of
 * the legal moves whose sequences continue `prefix` with it. With an empty prefix, the
 * first token of each move's sequences.
 */
export const targetVerdicts = (
  legal: readonly LegalMove[],
  prefix: readonly string[],
  verdicts: ReadonlyMap<number, Verdict>,
): Map<string, Verdict> => {
  const out = new Map<string, Verdict>();
  for (const m of legal) {
    const v = verdicts.get(m.move);
    if (v === undefined) continue;
    for (const seq of m.picks) {
      if (seq.length <= prefix.length || !startsWith(seq, prefix)) continue;
      const t = seq[prefix.length];
      const had = out.get(t);
      if (had === undefined || rank[v] > rank[had]) out.set(t, v);
    }
  }
  return out;
};

/** The keys that appear in the legal moves' sequences (`ArrowUp`, ...), without the prefix. */
export const keysOf = (legal: readonly LegalMove[]): Set<string> => {
  const out = new Set<string>();
  for (const m of legal) {
    for (const seq of m.picks) {
      for (const t of seq) {
        if (t.startsWith(KEY_PREFIX)) out.add(t.slice(KEY_PREFIX.length));
      }
    }
  }
  return out;
};

/** The smallest drag, in CSS pixels, that counts as a swipe. */
export const SWIPE_MIN = 30;

/**
 * The arrow key a drag by (`dx`, `dy`) CSS pixels stands for (y grows downwards), or
 * undefined for a drag shorter than `SWIPE_MIN` (a click).
 */
export const swipeKey = (
  dx: number,
  dy: number,
  min = SWIPE_MIN,
): string | undefined => {
  if (Math.max(Math.abs(dx), Math.abs(dy)) <= min) return undefined;
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? "ArrowRight" : "ArrowLeft";
  return dy > 0 ? "ArrowDown" : "ArrowUp";
};
