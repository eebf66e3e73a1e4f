/**
 * Clocks: a game's time control, each side's time left, and how long an AI may think.
 *
 * Two kinds of control, as players know them: Fischer's (`5+3`: five minutes each, three
 * seconds added after every move the side makes, as on lichess) and a fixed time a move
 * (`10s`: every move within ten seconds). A side whose time runs out loses ("flag fall").
 *
 * The time left is not state of its own: each move of a clocked game records the mover's
 * time left after it (`MoveRecord.clock`, in milliseconds, the increment included), so
 * the clocks at any node of a session's tree are read off the path to it: undo, redo,
 * browsing and a resumed game all see the clocks as they were there.
 *
 * @module
 */
import { Result } from "../core/deps.ts";
import type { Player } from "../core/game.ts";
import { pathTo, type Session, type TimeControl } from "./session.ts";

export type { TimeControl } from "./session.ts";

/** The grammar of a time control, for help and messages. */
export const CLOCK_GRAMMAR =
  "MINUTES+SECONDS (5+3: 5 minutes each, 3 seconds added a move) or SECONDSs (10s: 10 seconds a move)";

/** The bounds of a control's numbers, as the messages name them. */
const MAX_MINUTES = 1440;
const MAX_SECONDS = 3600;
const MIN_MOVE_SECONDS = 0.1;

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const FISCHER = new RegExp(String.raw`^${NUMBER}(?:\+${NUMBER})?$`);
const PER_MOVE = new RegExp(String.raw`^${NUMBER}s$`);

/**
 * Reads a time control: `5+3`, `5` (no increment), `0.5+1`, `10s` (a move).
 *
 * @example
 * ```ts
 * import { parseClock } from "./clock.ts";
 * import { Result } from "../core/deps.ts";
 * const c = parseClock("5+3");
 * if (!Result.isSuccess(c) || c.success.kind !== "fischer" || c.success.baseMs !== 300_000) {
 *   throw new Error("5+3 is five minutes and three seconds a move");
 * }
 * ```
 */
export const parseClock = (text: string): Result.Result<TimeControl, string> => {
  const t = text.trim().toLowerCase();
  const bad = (why: string) => Result.fail(`'${text}' ${why}`);
  const perMove = PER_MOVE.exec(t);
  if (perMove !== null) {
    const s = Number(perMove[1]);
    if (s < MIN_MOVE_SECONDS || s > MAX_SECONDS) {
      return bad(`is not a time a move from ${MIN_MOVE_SECONDS}s to ${MAX_SECONDS}s`);
    }
    return Result.succeed({ kind: "move", moveMs: Math.round(s * 1000) });
  }
  const fischer = FISCHER.exec(t);
  if (fischer === null) return bad(`is not a time control: ${CLOCK_GRAMMAR}`);
  const minutes = Number(fischer[1]);
  const seconds = fischer[2] === undefined ? 0 : Number(fischer[2]);
  if (minutes <= 0 || minutes > MAX_MINUTES) {
    return bad(`has a base time out of range: more than 0 and at most ${MAX_MINUTES} minutes`);
  }
  if (seconds > MAX_SECONDS) {
    return bad(`has an increment out of range: 0 to ${MAX_SECONDS} seconds`);
  }
  return Result.succeed({
    kind: "fischer",
    baseMs: Math.round(minutes * 60_000),
    incrementMs: Math.round(seconds * 1000),
  });
};

/** A control as `parseClock` reads it back (`5+3`, `10s`). */
export const formatClock = (c: TimeControl): string =>
  c.kind === "move" ? `${c.moveMs / 1000}s` : `${c.baseMs / 60_000}+${c.incrementMs / 1000}`;

/** A control in players' words: `5 min + 3 s a move`, `10 s a move`. */
export const describeClock = (c: TimeControl): string =>
  c.kind === "move"
    ? `${c.moveMs / 1000} s a move`
    : `${c.baseMs / 60_000} min` + (c.incrementMs > 0 ? ` + ${c.incrementMs / 1000} s a move` : "");

/** A side's time at the start of the game, or of every move under a fixed time a move. */
export const startTime = (c: TimeControl): number => c.kind === "move" ? c.moveMs : c.baseMs;

/**
 * `player`'s time left at node `id` (default the current one) of a clocked session, in
 * milliseconds: what its last move on the way there left it, else its start time.
 */
export const timeLeft = (session: Session, player: Player, id = session.current): number => {
  const c = session.clock;
  if (c === undefined) return Infinity;
  if (c.kind === "move") return c.moveMs;
  const path = pathTo(session, id);
  for (let i = path.length - 1; i > 0; i--) {
    const n = session.nodes[path[i]];
    if (n.by === player && n.clock !== undefined) return n.clock;
  }
  return c.baseMs;
};

/** The mover's time left after a move that took `ms` with `left` on its clock. */
export const afterMove = (c: TimeControl, left: number, ms: number): number =>
  c.kind === "move" ? c.moveMs : Math.max(0, Math.round(left - ms + c.incrementMs));

/** What a side to move knows of its clock: the control and its time left. */
export interface ClockView {
  /** The game's time control. */
  readonly control: TimeControl;
  /** Milliseconds left on the mover's clock. */
  readonly leftMs: number;
}

/** Moves a game is assumed still to last, for dividing the time left. */
const MOVES_TO_GO = 25;

/**
 * How long an AI may think for its move: about a twenty-fifth of its time left plus most
 * of its increment, never more than half of what is left once a margin is kept for the
 * search's start and its answer; under a fixed time a move, most of it. At least 1 ms.
 *
 * @example
 * ```ts
 * import { thinkingTime } from "./clock.ts";
 * const t = thinkingTime({ control: { kind: "fischer", baseMs: 60_000, incrementMs: 0 }, leftMs: 60_000 });
 * if (t <= 0 || t > 30_000) throw new Error("a share of the time left");
 * ```
 */
export const thinkingTime = (view: ClockView): number => {
  const { control, leftMs } = view;
  const margin = Math.min(500, leftMs / 10);
  const usable = Math.max(0, leftMs - margin);
  const share = control.kind === "move"
    ? usable * 0.8
    : Math.min(usable / 2, usable / MOVES_TO_GO + control.incrementMs * 0.8);
  return Math.max(1, Math.floor(share));
};

/** A time on a clock: `1:02:03` from an hour, `4:59` from 20 s, `0:07.4` below. */
export const formatTime = (ms: number): string => {
  const t = Math.max(0, ms);
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor(t / 60_000) % 60;
  const s = Math.floor(t / 1000) % 60;
  if (h > 0) return `${h}:${two(m)}:${two(s)}`;
  if (t >= 20_000) return `${m}:${two(s)}`;
  return `0:${two(s)}.${Math.floor(t / 100) % 10}`;
};
