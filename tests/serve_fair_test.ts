/**
 * `deno task serve` keeps games between people fair and its limits unabusable, as a
 * hostile client finds them: WebSocket and HTTP clients against the real server started
 * as a user starts it. Every wait is a handshake on a message or a count (no timing
 * windows, no real waits for the "unopened for a minute" clock: `--open-within 0`).
 */
import { assert, assertEquals, assertMatch } from "../testing/deps.ts";
import { withServe } from "../testing/browser.ts";
import { connect, type GameClient, isPosition, post, tagged } from "../testing/ws_client.ts";
import type { ServerMessage } from "../server/protocol.ts";

const here = { _tag: "Here" } as const;
const remote = { _tag: "Remote" } as const;

/** A game between two people: the host's and the invited player's sockets, and a spectator. */
const peopleGame = async (url: string) => {
  const created = await post(url, "/api/new", {
    game: "tictactoe",
    options: {},
    players: [here, remote],
    seed: 5,
  });
  assert(created._tag === "Created" && created.invite !== undefined, JSON.stringify(created));
  const guestSeat = new URL(created.invite, url).searchParams.get("seat")!;
  const host = await connect(url, created.game, created.seat);
  const guest = await connect(url, created.game, guestSeat);
  const spy = await connect(url, created.game);
  return { created, guestSeat, host, guest, spy };
};

/** Sends a message and waits for its refusal; nothing else may change meanwhile. */
const refused = async (c: GameClient, m: Record<string, unknown>): Promise<string> => {
  const from = c.received.length;
  const nodes = c.position().nodeCount;
  const current = c.position().current;
  c.send(m);
  const reply = await c.next(
    (r): r is ServerMessage =>
      r._tag === "Refused" || r._tag === "Error" || r._tag === "Analysis" ||
      (r._tag === "Position" && (r.nodeCount !== nodes || r.current !== current)),
    from,
  );
  assert(reply._tag === "Refused", `${JSON.stringify(m)} was not refused: ${reply._tag}`);
  return reply.reason;
};

const engineTags = new Set(["Analysis", "Progress"]);

Deno.test("serve: a game between people is fair; the engine opens when it ends", async () => {
  await withServe([], async (served) => {
    const { created, guestSeat, host, guest, spy } = await peopleGame(served.url);
    // The ids carry 128 random bits (32 hexadecimal digits): no guessing a watch link.
    for (const id of [created.game, created.seat, guestSeat]) assertMatch(id, /^[0-9a-f]{32}$/);
    assertEquals(new Set([created.game, created.seat, guestSeat]).size, 3);
    const start = host.position();
    assert(start.live, "a game between people is live");
    assertEquals(start.control, false);
    assertEquals(guest.position().mine, [false, true]);

    // Each seat moves for its side only.
    assertMatch(await refused(guest, { _tag: "Move", at: 0, move: start.legal[0].move }), /move/);
    host.send({ _tag: "Play", at: 0, text: "a1" });
    for (const c of [host, guest, spy]) await c.next(isPosition((p) => p.current === 1), 0);

    // Neither seat (nor a spectator) rewinds, replays, stops or analyses the live game.
    for (const c of [guest, host]) {
      assertMatch(await refused(c, { _tag: "Undo" }), /takeback/);
      assertMatch(await refused(c, { _tag: "GoTo", node: 0 }), /not rewound/);
      assertMatch(await refused(c, { _tag: "Redo" }), /not rewound/);
      assertMatch(await refused(c, { _tag: "Analyse", on: true }), /no analysis/);
      assertMatch(await refused(c, { _tag: "Stop" }), /no AI/);
    }
    assertMatch(await refused(spy, { _tag: "Analyse", on: true }), /watching/);
    assertMatch(await refused(spy, { _tag: "GoTo", node: 0 }), /watching/);
    // A look at an earlier position is for the asker only and changes nothing.
    const from = guest.received.length;
    guest.send({ _tag: "Peek", node: 0 });
    const view = await guest.next(tagged("View"), from);
    assertEquals(view.node, 0);
    assertEquals(guest.position().current, 1);
    assertEquals(host.received.filter((m) => m._tag === "View").length, 0);

    // Play to the end: X takes the a column.
    for (const [at, text] of ["b1", "a2", "b2", "a3"].entries()) {
      const mover = at % 2 === 0 ? guest : host;
      mover.send({ _tag: "Play", at: at + 1, text });
      await mover.next(isPosition((p) => p.current === at + 2), 0);
    }
    const end = await host.next(isPosition((p) => p.result !== undefined), 0);
    assertEquals(end.live, false, "the game has ended: everything opens");
    // No engine's word reached anyone's socket while the game went on.
    for (const c of [host, guest, spy]) {
      assertEquals(c.received.filter((m) => engineTags.has(m._tag)).map((m) => m._tag), []);
    }
    // After the game, the host may go back and analyse.
    host.send({ _tag: "GoTo", node: 3 });
    await host.next(isPosition((p) => p.current === 3));
    host.send({ _tag: "Analyse", on: true });
    const a = await host.next(tagged("Analysis"));
    assertEquals(a.node, 3);
    await guest.next(tagged("Analysis"));
    for (const c of [host, guest, spy]) await c.close();
  });
});

Deno.test("serve: a takeback is asked, declined, asked again and accepted", async () => {
  await withServe([], async (served) => {
    const { host, guest, spy } = await peopleGame(served.url);
    assertMatch(await refused(guest, { _tag: "Takeback" }), /no move of yours/);
    host.send({ _tag: "Play", at: 0, text: "b2" });
    await guest.next(isPosition((p) => p.current === 1), 0);
    assertMatch(await refused(host, { _tag: "TakebackAnswer", accept: true }), /no takeback/);
    host.send({ _tag: "Takeback" });
    await guest.next(isPosition((p) => p.takeback === 0), 0);
    assertMatch(await refused(host, { _tag: "Takeback" }), /waits for an answer/);
    assertMatch(await refused(host, { _tag: "TakebackAnswer", accept: true }), /no takeback/);
    assertMatch(await refused(spy, { _tag: "TakebackAnswer", accept: true }), /watching/);
    let from = host.received.length;
    guest.send({ _tag: "TakebackAnswer", accept: false });
    assertMatch((await host.next(tagged("Refused"), from)).reason, /declined/);
    const declined = await host.next(isPosition((p) => p.takeback === undefined), from);
    assertEquals(declined.current, 1);
    from = host.received.length;
    host.send({ _tag: "Takeback" });
    await guest.next(isPosition((p) => p.takeback === 0));
    guest.send({ _tag: "TakebackAnswer", accept: true });
    const back = await host.next(isPosition((p) => p.current === 0), from);
    assertEquals(back.takeback, undefined);
    assertEquals(back.legal.length, 9, "X is to move again");
    await spy.next(isPosition((p) => p.current === 0), 0);
    for (const c of [host, guest, spy]) await c.close();
  });
});

Deno.test("serve: 101 unopened games do not lock out the next user; opened ones count", async () => {
  const max = 10;
  await withServe([
    "--max-games",
    String(max),
    "--open-within",
    "0",
    "--games-per-minute",
    "1000",
  ], async (served) => {
    const nim = { game: "nim", options: {}, players: [here, here] };
    for (let i = 0; i < 101; i++) {
      const r = await post(served.url, "/api/new", nim);
      assert(r._tag === "Created", `game ${i + 1}: ${JSON.stringify(r)}`);
    }
    // The next user starts a game and plays it; so do the next ones, up to the limit.
    const players: GameClient[] = [];
    for (let i = 0; i < max; i++) {
      const r = await post(served.url, "/api/new", nim);
      assert(r._tag === "Created", `player ${i + 1}: ${JSON.stringify(r)}`);
      players.push(await connect(served.url, r.game, r.seat));
    }
    const first = players[0];
    first.send({ _tag: "Move", at: 0, move: first.position().legal[0].move });
    await first.next(isPosition((p) => p.current === 1), 0);
    // Games in play (opened, not over) do count.
    const full = await post(served.url, "/api/new", nim);
    assertEquals(full._tag, "Refused");
    assertEquals(full.status, 400);
    if (full._tag === "Refused") assertMatch(full.message, /10 games in play/);
    for (const c of players) await c.close();
  });
});

Deno.test("serve: new games per address are rate-limited (429, in words)", async () => {
  await withServe(["--games-per-minute", "2"], async (served) => {
    const nim = { game: "nim", options: {}, players: [here, here] };
    for (let i = 0; i < 2; i++) {
      assertEquals((await post(served.url, "/api/new", nim))._tag, "Created");
    }
    const r = await post(served.url, "/api/new", nim);
    assertEquals(r.status, 429);
    assert(r._tag === "Refused");
    assertMatch(r.message, /too many new games from your address: at most 2 a minute/);
    // Loading a game spends the same budget.
    assertEquals((await post(served.url, "/api/load", { transcript: "{}" })).status, 429);
  });
});

/** A new game of Nim, both sides played here. */
const nimHere = async (url: string) => {
  const created = await post(url, "/api/new", { game: "nim", options: {}, players: [here, here] });
  assert(created._tag === "Created");
  return created;
};

Deno.test("serve: an oversize frame closes its socket with 1009; others go on", async () => {
  await withServe([], async (served) => {
    const created = await nimHere(served.url);
    const player = await connect(served.url, created.game, created.seat);
    const url = new URL(`/ws?game=${created.game}`, served.url);
    url.protocol = "ws:";
    for (const size of [16 * 1024 + 1, 1024 * 1024]) {
      const ws = new WebSocket(url);
      const closed = new Promise<CloseEvent>((resolve) => (ws.onclose = resolve));
      await new Promise((resolve) => (ws.onopen = resolve));
      ws.send("x".repeat(size));
      const e = await closed;
      assertEquals(e.code, 1009, `a frame of ${size} characters`);
    }
    // The player's socket is untouched.
    player.send({ _tag: "Move", at: 0, move: player.position().legal[0].move });
    await player.next(isPosition((p) => p.current === 1), 0);
    await player.close();
  });
});

/**
 * Reads from `conn` after the bytes `got` until `enough` says all the bytes so far suffice,
 * or the server closes; all of them.
 */
const readUntil = async (
  conn: Deno.Conn,
  from: Uint8Array,
  enough: (bytes: Uint8Array) => boolean,
): Promise<Uint8Array> => {
  let got = from;
  const buf = new Uint8Array(4096);
  while (!enough(got)) {
    const n = await conn.read(buf);
    if (n === null) break;
    const next = new Uint8Array(got.length + n);
    next.set(got);
    next.set(buf.subarray(0, n), got.length);
    got = next;
  }
  return got;
};

Deno.test("serve: a frame announcing 60 MB is refused from its header (1009), before its payload", async () => {
  await withServe([], async (served) => {
    const created = await nimHere(served.url);
    const { hostname, port } = new URL(served.url);
    const conn = await Deno.connect({ hostname, port: Number(port) });
    // The failure bound of a server that would wait for the 60 MB (never the pass condition).
    const bound = setTimeout(() => conn.close(), 60_000);
    try {
      const key = btoa("0123456789abcdef");
      await conn.write(new TextEncoder().encode(
        `GET /ws?game=${created.game} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\n` +
          "Sec-WebSocket-Version: 13\r\n\r\n",
      ));
      const text = (b: Uint8Array) => new TextDecoder().decode(b);
      const head = await readUntil(conn, new Uint8Array(0), (b) => text(b).includes("\r\n\r\n"));
      assertMatch(text(head), /^HTTP\/1\.1 101 /);
      // Whatever the server says first (the game's position) is skipped over; then a text
      // frame whose header announces 60 MB (masked, as a client's must be), 10 bytes of it.
      const frame = new Uint8Array(14);
      frame[0] = 0x81;
      frame[1] = 0x80 | 127;
      new DataView(frame.buffer).setBigUint64(2, BigInt(60 * 1024 * 1024));
      await conn.write(frame);
      await conn.write(new Uint8Array(10));
      // The close frame (opcode 8) with its code, answered without the rest of the frame.
      const frames = await readUntil(conn, head, (b) => closeCode(b) !== undefined);
      assertEquals(closeCode(frames), 1009);
    } finally {
      clearTimeout(bound);
      try {
        conn.close();
      } catch {
        // (closed by the bound)
      }
    }
  });
});

/** The code of the first close frame among a server's unmasked frames, if one has come. */
const closeCode = (bytes: Uint8Array): number | undefined => {
  // After the HTTP head.
  const end = new TextDecoder("latin1").decode(bytes).indexOf("\r\n\r\n");
  let at = end >= 0 ? end + 4 : 0;
  while (at + 2 <= bytes.length) {
    const opcode = bytes[at] & 0x0f;
    let len = bytes[at + 1] & 0x7f, body = at + 2;
    if (len === 126) {
      if (at + 4 > bytes.length) return undefined;
      len = (bytes[at + 2] << 8) | bytes[at + 3];
      body = at + 4;
    } else if (len === 127) {
      if (at + 10 > bytes.length) return undefined;
      len = Number(new DataView(bytes.buffer, bytes.byteOffset + at + 2, 8).getBigUint64(0));
      body = at + 10;
    }
    if (body + len > bytes.length) return undefined;
    if (opcode === 8) return len >= 2 ? (bytes[body] << 8) | bytes[body + 1] : 1005;
    at = body + len;
  }
  return undefined;
};
