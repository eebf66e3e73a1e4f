/**
 * The clocks' arithmetic on the page, without the DOM (a test imports it): a time as a
 * clock shows it, and a side's time left some time after the server said it.
 *
 * @module
 */
import type { ClockState } from "../server/protocol.ts";

/**
 * A time on a clock: `1:02:03` from an hour, `4:59` from 20 s, `0:07.4` below (as
 * `deno task play` shows it: `formatTime` in `app/clock.ts`, which a test holds equal).
 */
export const clockText = (ms: number): string => {
  const t = Math.max(0, ms);
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor(t / 60_000) % 60;
  const s = Math.floor(t / 1000) % 60;
  if (h > 0) return `${h}:${two(m)}:${two(s)}`;
  if (t >= 20_000) return `${m}:${two(s)}`;
  return `0:${two(s)}.${Math.floor(t / 100) % 10}`;
};

/** A side's time left `sinceMs` after the message that said `clock`. */
export const leftNow = (clock: ClockState, side: 0 | 1, sinceMs: number): number =>
  clock.running === side
    ? Math.max(0, clock.left[side] - clock.elapsed - sinceMs)
    : clock.left[side];
