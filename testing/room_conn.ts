/**
 * A browser's connection to a room without a socket: it keeps what the room sends it and
 * can wait for a position (a handshake on the room's messages, never a timer).
 *
 * @module
 */
import type { Conn } from "../server/room_state.ts";
import type { ServerMessage } from "../server/protocol.ts";

/** A `Position` message. */
export type Position = Extract<ServerMessage, { readonly _tag: "Position" }>;

/** A connection that keeps its messages (`got`) and waits for a position (`position`). */
export interface TestConn {
  /** The connection, as a room takes it. */
  readonly conn: Conn;
  /** Every message sent to it, in order. */
  readonly got: ServerMessage[];
  /** The latest position that fits, now or when one comes. */
  readonly position: (fits: (p: Position) => boolean) => Promise<Position>;
  /** The reasons of the `Refused` messages sent to it, in order. */
  readonly refusals: () => string[];
}

/** A browser's connection with seat `seat` (undefined: a spectator). */
export const browser = (seat: Conn["seat"]): TestConn => {
  const got: ServerMessage[] = [];
  const waiting: { fits: (p: Position) => boolean; done: (p: Position) => void }[] = [];
  const conn: Conn = {
    seat,
    send: (m) => {
      got.push(m);
      if (m._tag !== "Position") return;
      for (const w of waiting.splice(0)) {
        if (w.fits(m)) w.done(m);
        else waiting.push(w);
      }
    },
  };
  const position = (fits: (p: Position) => boolean): Promise<Position> => {
    const seen = got.filter((m): m is Position => m._tag === "Position").findLast(fits);
    return seen !== undefined
      ? Promise.resolve(seen)
      : new Promise((done) => waiting.push({ fits, done }));
  };
  const refusals = () => got.flatMap((m) => m._tag === "Refused" ? [m.reason] : []);
  return { conn, got, position, refusals };
};
