/**
 * A room asks its game for a position's view once (`RoomPublisher`): each call into a
 * user's game is a round trip to its plugin thread that the room's thread waits for, and
 * a room publishes a position more than once (a move, then the AI's thinking, a watcher
 * joining). Counted on a game whose every call is recorded, the room driven by its
 * commands alone (no socket).
 */
import { assertEquals } from "../testing/deps.ts";
import { Effect, Fiber } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { offer } from "../server/catalog.ts";
import { newSession } from "../app/session.ts";
import { Room } from "../server/room.ts";
import type { ServerMessage } from "../server/protocol.ts";
import { nimGame } from "../plugins/nim/mod.ts";

/** A game that counts its calls by function. */
const counted = <S>(game: Game<S>) => {
  const calls: Record<string, number> = {};
  const wrapped = Object.fromEntries(
    Object.entries(game).map(([k, v]) => [
      k,
      typeof v === "function"
        ? (...args: unknown[]) => {
          calls[k] = (calls[k] ?? 0) + 1;
          return v.apply(game, args);
        }
        : v,
    ]),
  ) as unknown as Game<S>;
  return { game: wrapped, calls };
};

Deno.test("a room asks its game for a position's view once, however often it is sent", async () => {
  const offered = await Effect.runPromise(offer("nim"));
  const { game, calls } = counted(nimGame({ heaps: [3, 4, 5], misere: false }));
  const options = { heaps: [3, 4, 5], misere: false };
  const room = new Room({
    id: "r",
    offered,
    game: game as Game<unknown>,
    source: { url: offered.url, options },
    session: newSession({ game: "nim", options, seed: 1, players: ["human", "human"] }),
    sides: [{ kind: "human" }, { kind: "human" }],
    seats: [{ token: "t", sides: [true, true] }],
    limits: { aiMs: 1000, analysisMs: 1000 },
  });
  const got: ServerMessage[][] = [[], []];
  const running = Effect.runFork(room.run());
  const host = { seat: room.seat("t"), send: (m: ServerMessage) => got[0].push(m) };
  room.post({ _tag: "Join", conn: host });
  await Effect.runPromise(room.sync());
  const once = { ...calls };
  assertEquals(once.render, 1);
  assertEquals(once.formatMove, 12, "each of the 12 legal moves named once");
  // A second watcher, and a change of the room's own (published again): no new call.
  room.post({ _tag: "Join", conn: { seat: undefined, send: (m) => got[1].push(m) } });
  room.post({ _tag: "Message", conn: host, message: { _tag: "Speed", ms: 100 } });
  await Effect.runPromise(room.sync());
  await Effect.runPromise(Fiber.interrupt(running));
  assertEquals(calls, once);
  assertEquals((got[0].at(-1) as { speed?: number }).speed, 100, "the change was published");
  const text = (m: ServerMessage | undefined) =>
    m?._tag === "Position" ? [m.text, m.legal.length, m.watchers] : undefined;
  assertEquals(text(got[0].at(-1)), [text(got[1][0])![0], 12, 2]);
  assertEquals(text(got[1][0]), [text(got[0][0])![0], 0, 2], "a spectator gets no moves");
});
