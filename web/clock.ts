/**
 * The clocks of a clocked game on the page: each side's time left beside its name, the
 * running side's counting down between the server's messages. The server decides when a
 * time runs out (the page only shows it); a `Position` says each side's time left at the
 * start of the turn and how long the running clock has run, so the page counts on from
 * when it received it.
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

/** Ticks the running clock: every element `[data-clock=SIDE]` in `root` shows its side's time. */
export const clocks = (
  root: ParentNode,
): { readonly set: (clock: ClockState | undefined) => void } => {
  let clock: ClockState | undefined;
  let since = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const draw = () => {
    for (const e of root.querySelectorAll<HTMLElement>("[data-clock]")) {
      const side = e.dataset.clock === "1" ? 1 : 0;
      if (clock === undefined) continue;
      const left = leftNow(clock, side, performance.now() - since);
      e.textContent = clockText(left);
      e.classList.toggle("running", clock.running === side);
      e.classList.toggle("low", left < 10_000);
    }
  };
  return {
    set: (c) => {
      clock = c;
      since = performance.now();
      if (timer !== undefined) clearInterval(timer);
      timer = c?.running === null || c === undefined ? undefined : setInterval(draw, 100);
      draw();
    },
  };
};
