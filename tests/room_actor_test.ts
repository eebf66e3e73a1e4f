/**
 * A room as an actor, driven by its commands alone (no socket, no server, no thread):
 * each test posts `RoomCommand`s and reads what the room sends its connections. Every
 * wait is a handshake on a message (`position`) or on the mailbox (`sync`: every command
 * before it applied), never a timer.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { Effect, Fiber } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { inProcessEngine } from "../core/engine/engine.ts";
import { offer } from "../server/catalog.ts";
import { newSession } from "../app/session.ts";
import { Room } from "../server/room.ts";
import type { Seat, Side } from "../server/room_state.ts";
import type { ClientMessage } from "../server/protocol.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { browser, type TestConn } from "../testing/room_conn.ts";

const human: Side = { kind: "human" };
const random: Side = { kind: "ai", spec: { kind: "random" } };

/** A tic-tac-toe room with these sides and seats, running until `close`. */
const ticTacToeRoom = async (sides: readonly [Side, Side], seats: readonly Seat[]) => {
  const offered = await Effect.runPromise(offer("tictactoe"));
  const room = new Room({
    id: "r",
    offered,
    game: ticTacToeGame() as Game<unknown>,
    source: { url: offered.url, options: {} },
    session: newSession({
      game: "tictactoe",
      options: {},
      seed: 7,
      players: sides.map((s) => s.kind === "human" ? "human" : "random") as [string, string],
    }),
    sides,
    seats,
    limits: { aiMs: 1000, analysisMs: 1000 },
  });
  const running = Effect.runFork(Effect.provide(room.run(), inProcessEngine));
  const join = (token: string | null): TestConn => {
    const b = browser(room.seat(token));
    room.post({ _tag: "Join", conn: b.conn });
    return b;
  };
  const say = (b: TestConn, message: ClientMessage) =>
    room.post({ _tag: "Message", conn: b.conn, message });
  const sync = () => Effect.runPromise(room.sync());
  const close = () => Effect.runPromise(Fiber.interrupt(running));
  return { room, join, say, sync, close };
};

/** Node 1..n's moves in the room's session, as notation. */
const line = (room: Room): string[] => room.session.nodes.slice(1).map((n) => n.notation);

Deno.test("room: a person's moves, a stale move, a spectator's move and a bad move are answered", async () => {
  const r = await ticTacToeRoom([human, human], [{ token: "both", sides: [true, true] }]);
  try {
    const me = r.join("both");
    const watcher = r.join(null);
    const start = await me.position((p) => p.legal.length === 9);
    assertEquals(start.mine, [true, true]);
    assertEquals((await watcher.position(() => true)).legal, [], "a spectator gets no moves");
    r.say(watcher, { _tag: "Move", at: 0, move: start.legal[0].move });
    r.say(me, { _tag: "Play", at: 0, text: "b2" });
    const one = await me.position((p) => p.current === 1);
    r.say(me, { _tag: "Play", at: 0, text: "a1" });
    const b2 = start.legal.find((m) => m.notation === "b2")!.move;
    r.say(me, { _tag: "Move", at: 1, move: b2 });
    r.say(me, { _tag: "Play", at: 1, text: "b2" });
    await r.sync();
    assertEquals(watcher.refusals(), ["you are watching this game; you cannot change it"]);
    assertEquals(me.refusals(), [
      "the position changed; try again",
      "that is not a legal move here",
      "b2 is taken",
    ]);
    assertEquals(line(r.room), ["b2"]);
    assertEquals(one.legal.length, 8);
    assertEquals(watcher.got.filter((m) => m._tag === "Position").at(-1)?.current, 1);
  } finally {
    await r.close();
  }
});

Deno.test("room: a move that comes before the runner asks for it is played; the next one waits for the position", async () => {
  const r = await ticTacToeRoom([human, human], [{ token: "both", sides: [true, true] }]);
  try {
    // Posted together, before the room has applied anything: the first move reaches the
    // room before its runner asks for it; the second was made at a position not reached.
    const me = browser(r.room.seat("both"));
    r.room.post({ _tag: "Join", conn: me.conn });
    r.say(me, { _tag: "Play", at: 0, text: "a1" });
    r.say(me, { _tag: "Play", at: 1, text: "b1" });
    await me.position((p) => p.current === 1);
    await r.sync();
    assertEquals(line(r.room), ["a1"]);
    assertEquals(me.refusals(), ["the position changed; try again"]);
  } finally {
    await r.close();
  }
});

Deno.test("room: a takeback between people is asked, declined, asked again and accepted; no engine while live", async () => {
  const r = await ticTacToeRoom([human, human], [
    { token: "x", sides: [true, false] },
    { token: "o", sides: [false, true] },
  ]);
  try {
    const x = r.join("x");
    const o = r.join("o");
    await x.position((p) => p.legal.length === 9);
    assert((await o.position(() => true)).live, "a game between people is live");
    r.say(o, { _tag: "Play", at: 0, text: "a1" });
    r.say(x, { _tag: "Play", at: 0, text: "a1" });
    await o.position((p) => p.current === 1 && p.legal.length === 8);
    for (
      const message of [
        { _tag: "Analyse", on: true },
        { _tag: "Undo" },
        { _tag: "GoTo", node: 0 },
        { _tag: "Stop" },
      ] as const
    ) r.say(x, message);
    r.say(o, { _tag: "TakebackAnswer", accept: true });
    r.say(x, { _tag: "Takeback" });
    r.say(x, { _tag: "Takeback" });
    await r.sync();
    assertEquals(o.refusals(), [
      "it is X's move",
      "there is no takeback request to answer",
    ]);
    assertEquals(x.refusals(), [
      "no analysis while a game between people goes on (it opens when the game ends)",
      "in a game between people, ask the other player for a takeback",
      "a game between people is not rewound; step back and forth on your own board",
      "there is no AI in this game",
      "your takeback request waits for an answer",
    ]);
    assertEquals((await o.position((p) => p.takeback === 0)).current, 1);
    r.say(o, { _tag: "TakebackAnswer", accept: false });
    await r.sync();
    assertEquals(x.refusals().at(-1), "O declined your takeback request");
    assertEquals((await x.position(() => true)).takeback, undefined);
    r.say(x, { _tag: "Takeback" });
    await o.position((p) => p.takeback === 0);
    r.say(o, { _tag: "TakebackAnswer", accept: true });
    const back = await x.position((p) => p.current === 0 && p.legal.length === 9);
    assertEquals(back.takeback, undefined);
    assert(!x.got.some((m) => m._tag === "Analysis"), "no analysis reached a player");
    // X plays on from the start: the game goes on.
    r.say(x, { _tag: "Play", at: 0, text: "b2" });
    await o.position((p) => p.current === 2 && p.legal.length === 8);
    assertEquals(r.room.session.nodes[r.room.session.current].notation, "b2");
  } finally {
    await r.close();
  }
});

Deno.test("room: Stop holds the AI, a person moves for it, Resume lets it play", async () => {
  const r = await ticTacToeRoom([human, random], [{ token: "x", sides: [true, false] }]);
  try {
    const x = r.join("x");
    await x.position((p) => p.legal.length === 9);
    r.say(x, { _tag: "Stop" });
    r.say(x, { _tag: "Play", at: 0, text: "a1" });
    // The AI is to move, stopped: the seat may move for it.
    const held = await x.position((p) => p.current === 1 && p.legal.length === 8);
    assert(held.paused);
    r.say(x, { _tag: "Play", at: 1, text: "c3" });
    await x.position((p) => p.current === 2 && p.legal.length === 7);
    r.say(x, { _tag: "Resume" });
    r.say(x, { _tag: "Play", at: 2, text: "a2" });
    // Resumed, the AI answers by itself.
    const answered = await x.position((p) => p.current === 4);
    assertEquals(line(r.room).slice(0, 3), ["a1", "c3", "a2"]);
    assertEquals(answered.paused, false);
    assertEquals(answered.legal.length, 5);
    assertEquals(x.refusals(), []);
  } finally {
    await r.close();
  }
});

Deno.test("room: with its last browser gone the runner stops; a browser back starts it where it was", async () => {
  const r = await ticTacToeRoom([human, random], [{ token: "x", sides: [true, false] }]);
  try {
    const x = r.join("x");
    await x.position((p) => p.legal.length === 9);
    r.say(x, { _tag: "Stop" });
    r.say(x, { _tag: "Play", at: 0, text: "b2" });
    await x.position((p) => p.current === 1);
    r.room.post({ _tag: "Leave", conn: x.conn });
    r.say(x, { _tag: "Resume" });
    await r.sync();
    // Resumed with nobody watching: nothing is played.
    assertEquals(line(r.room), ["b2"]);
    const y = r.join("x");
    const on = await y.position((p) => p.current === 2);
    const first = y.got[0];
    assert(first._tag === "Position" && first.full === true, "the whole tree, to a new browser");
    assertEquals([first.current, first.nodes.length], [1, 2]);
    assertEquals(on.watchers, 1);
  } finally {
    await r.close();
  }
});
