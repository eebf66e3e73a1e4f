/**
 * A room asks its game for a position's view once (`Room.sharedView`): on the server each
 * call into the game is a round trip to its plugin thread that the main thread waits for,
 * and a room broadcasts a position more than once (a move, then the AI's thinking, a
 * watcher joining). Counted on a game whose every call is recorded.
 */
import { assertEquals } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
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
  room.join({ seat: room.seat("t"), send: (m) => got[0].push(m) });
  const once = { ...calls };
  assertEquals(once.render, 1);
  assertEquals(once.formatMove, 12, "each of the 12 legal moves named once");
  // A second watcher, and the room's own broadcasts: the same view, no new call.
  room.join({ seat: undefined, send: (m) => got[1].push(m) });
  room.broadcast();
  assertEquals(calls, once);
  const text = (m: ServerMessage | undefined) =>
    m?._tag === "Position" ? [m.text, m.legal.length, m.watchers] : undefined;
  assertEquals(text(got[0].at(-1)), [text(got[1][0])![0], 12, 2]);
  assertEquals(text(got[1][0]), [text(got[0][0])![0], 0, 2], "a spectator gets no moves");
});
