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
import { clockText, leftNow } from "./clock_time.ts";

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
