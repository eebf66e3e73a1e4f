/**
 * `deno task serve` as a browser's page talks to it, without a browser: HTTP and
 * WebSocket clients against the real server started as a user starts it. Every wait is a
 * handshake on a message (no timing windows).
 */
import { assert, assertEquals, assertMatch } from "../testing/deps.ts";
import { withServe } from "../testing/browser.ts";
import { connect, isPosition, post, tagged } from "../testing/ws_client.ts";
import { decodeTranscript, importTranscript } from "../app/transcript.ts";
import { Effect, Result } from "../core/deps.ts";
import { openGame } from "../mod.ts";

const here = { _tag: "Here" } as const;

/** Starts a game that must be accepted; its id and seat. */
const newGame = async (url: string, body: Record<string, unknown>) => {
  const created = await post(url, "/api/new", { options: {}, ...body });
  assert(created._tag === "Created", JSON.stringify(created));
  return created;
};
const ai = (spec: string) => ({ _tag: "AI", spec }) as const;

Deno.test("serve: games, options refused per field, strict bodies, same-origin only", async () => {
  await withServe([], async (served) => {
    const games = await (await fetch(new URL("/api/games", served.url))).json();
    assertEquals(
      games.map((g: { id: string }) => g.id).sort(),
      ["2048", "domineering", "kalah", "nim", "pentago", "tictactoe"],
    );
    const bad = await post(served.url, "/api/new", {
      game: "kalah",
      options: { pits: "0", stones: "x" },
      players: [here, ai("easy")],
    });
    assertEquals(bad._tag, "Refused");
    assertEquals(bad.status, 400);
    if (bad._tag === "Refused") {
      assertEquals(bad.problems.map((p) => p.option), ["pits", "stones"]);
    }
    const extra = await post(served.url, "/api/new", {
      game: "nim",
      options: {},
      players: [here, ai("easy")],
      admin: true,
    });
    assertEquals(extra._tag, "Refused");
    if (extra._tag === "Refused") assertMatch(extra.message, /admin/);
    const badSpec = await post(served.url, "/api/new", {
      game: "nim",
      options: {},
      players: [here, ai("alphabeta:99999s")],
    });
    assertEquals(badSpec._tag, "Refused");
    if (badSpec._tag === "Refused") assertMatch(badSpec.message, /at most 30 s/);
    const parallel = await post(served.url, "/api/new", {
      game: "nim",
      options: {},
      players: [here, ai("lazy_smp:4")],
    });
    assertEquals(parallel._tag, "Refused");
    if (parallel._tag === "Refused") assertMatch(parallel.message, /lazy_smp searches on several/);
    const cross = await post(served.url, "/api/new", {
      game: "nim",
      options: {},
      players: [here, here],
    }, { origin: "http://example.com" });
    assertEquals(cross._tag, "Refused");
    if (cross._tag === "Refused") assertMatch(cross.message, /this server's page/);
    assertEquals((await post(served.url, "/api/new", "{not json"))._tag, "Refused");
  });
});

Deno.test("serve: AI against AI plays to the end; the transcript replays", async () => {
  await withServe([], async (served) => {
    const created = await newGame(served.url, {
      game: "tictactoe",
      players: [ai("alphabeta:2"), ai("random")],
      seed: 7,
    });
    const c = await connect(served.url, created.game, created.seat);
    c.send({ _tag: "Speed", ms: 0 });
    const end = await c.next(isPosition((p) => p.result !== undefined), 0);
    assertEquals(end.result?.reason, "end");
    const text = await (await fetch(new URL(`/api/games/${created.game}/transcript`, served.url)))
      .text();
    const t = decodeTranscript(JSON.parse(text));
    assert(Result.isSuccess(t));
    assertEquals(t.success.seed, 7);
    assertEquals(t.success.result.reason, "end");
    const { game } = await Effect.runPromise(openGame("tictactoe"));
    assert(Result.isSuccess(importTranscript(game, t.success)));
    await c.close();
  });
});

Deno.test("serve: a person moves, is refused with reasons, takes back, jumps; spectators watch", async () => {
  await withServe([], async (served) => {
    const created = await newGame(served.url, {
      game: "tictactoe",
      players: [here, ai("alphabeta:2")],
      seed: 1,
    });
    const me = await connect(served.url, created.game, created.seat);
    const watcher = await connect(served.url, created.game);
    const start = me.position();
    assertEquals(start.current, 0);
    assertEquals(start.mine, [true, false]);
    assertEquals(start.legal.length, 9);
    assertEquals(watcher.position().legal.length, 0);
    assertEquals(watcher.position().control, false);
    // A spectator cannot move.
    watcher.send({ _tag: "Move", at: 0, move: start.legal[0].move });
    assertMatch((await watcher.next(tagged("Refused"))).reason, /watching/);
    // A move on a stale position is refused; a typed move is parsed.
    me.send({ _tag: "Play", at: 5, text: "b2" });
    assertMatch((await me.next(tagged("Refused"))).reason, /position changed/);
    me.send({ _tag: "Play", at: 0, text: "zz" });
    await me.next(tagged("Refused"));
    me.send({ _tag: "Play", at: 0, text: "b2" });
    // The AI answers: two moves later it is my turn again, at node 2.
    const mine = await me.next(isPosition((p) => p.current === 2 && p.legal.length === 7), 0);
    assertEquals(mine.nodes[1].notation, "b2");
    assert(mine.nodes[2].search !== undefined, "the AI's search is kept with its move");
    // The spectator saw the same.
    await watcher.next(isPosition((p) => p.current === 2), 0);
    // An illegal pick is explained by the game's picture.
    me.send({ _tag: "Explain", at: 2, picks: ["b2"] });
    assertMatch((await me.next(tagged("Refused"))).reason, /b2/);
    // Undo takes back my move and the AI's.
    me.send({ _tag: "Undo" });
    await me.next(isPosition((p) => p.current === 0 && p.legal.length === 9));
    // Another first move makes a variation; the old line stays in the tree.
    me.send({ _tag: "Play", at: 0, text: "a1" });
    const branched = await me.next(isPosition((p) => p.current === 4 && p.legal.length === 7));
    assertEquals(branched.nodes[0].children.length, 2);
    me.send({ _tag: "GoTo", node: 2 });
    await me.next(isPosition((p) => p.current === 2));
    await me.close();
    await watcher.close();
  });
});

Deno.test("serve: malformed messages get an error and change nothing; other games go on", async () => {
  await withServe([], async (served) => {
    const a = await newGame(served.url, {
      game: "nim",
      options: { heaps: "1,2" },
      players: [here, here],
    });
    const b = await newGame(served.url, { game: "tictactoe", players: [here, ai("alphabeta:1")] });
    const evil = await connect(served.url, a.game, a.seat);
    const other = await connect(served.url, b.game, b.seat);
    const before = evil.position();
    for (
      const bad of [
        "not json",
        { _tag: "Move", at: 0 },
        { _tag: "Move", at: 0, move: -1 },
        { _tag: "Move", at: 0, move: 1, extra: 1 },
        { _tag: "Hack" },
        { _tag: "GoTo", node: 1e12 },
        "x".repeat(2_000),
      ]
    ) {
      const from = evil.received.length;
      evil.send(bad);
      await evil.next(tagged("Error"), from);
    }
    evil.send({ _tag: "GoTo", node: 99 });
    await evil.next(tagged("Refused"));
    assertEquals(evil.position().current, before.current);
    assertEquals(evil.position().nodes.length, 1);
    // The other game still plays.
    other.send({ _tag: "Play", at: 0, text: "b2" });
    await other.next(isPosition((p) => p.current === 2), 0);
    await evil.close();
    await other.close();
  });
});

Deno.test("serve: stop, resume and move now steer a thinking AI", async () => {
  await withServe([], async (served) => {
    const created = await newGame(served.url, {
      game: "kalah",
      players: [here, ai("alphabeta:30s")],
    });
    const me = await connect(served.url, created.game, created.seat);
    me.send({ _tag: "Play", at: 0, text: "3" });
    // House 3's four stones end in the store: an extra turn, then the AI thinks.
    await me.next(isPosition((p) => p.current === 1 && p.legal.length > 0), 0);
    me.send({ _tag: "Play", at: 1, text: "1" });
    await me.next(tagged("Progress"));
    me.send({ _tag: "Stop" });
    const stopped = await me.next(isPosition((p) => p.paused && p.thinking === null));
    assertEquals(stopped.current, 2);
    // While stopped, the person may move for the AI.
    assert(stopped.legal.length > 0, "the AI's moves are offered while it is stopped");
    me.send({ _tag: "Resume" });
    await me.next(isPosition((p) => !p.paused && p.thinking === 1));
    await me.next(tagged("Progress"));
    me.send({ _tag: "MoveNow" });
    const moved = await me.next(isPosition((p) => p.current > 2 && p.thinking === null));
    assert(moved.nodes[3].search !== undefined);
    await me.close();
  });
});

Deno.test("serve: the analysis colours every move of a solvable position", async () => {
  await withServe([], async (served) => {
    const created = await newGame(served.url, {
      game: "tictactoe",
      players: [here, here],
    });
    const me = await connect(served.url, created.game, created.seat);
    for (const [at, text] of ["a1", "b2", "c3"].entries()) {
      me.send({ _tag: "Play", at, text });
      await me.next(isPosition((p) => p.current === at + 1), 0);
    }
    me.send({ _tag: "Analyse", on: true });
    const a = await me.next(
      (m): m is Extract<typeof m, { _tag: "Analysis" }> =>
        m._tag === "Analysis" && m.verdicts !== undefined && m.search.exact,
    );
    assertEquals(a.node, 3);
    // O to move after a1 b2 c3: a corner loses, an edge draws (exact minimax).
    const verdict = (n: string) =>
      a.verdicts!.find((v) => me.position().legal.find((l) => l.move === v.move)!.notation === n)
        ?.verdict;
    assertEquals(verdict("a3"), "loss");
    assertEquals(verdict("a2"), "draw");
    assertEquals(a.search.valueText, "draw");
    await me.close();
  });
});

Deno.test("serve: a saved game loads for review, every move judged", async () => {
  await withServe([], async (served) => {
    const created = await newGame(served.url, {
      game: "tictactoe",
      players: [here, here],
    });
    const me = await connect(served.url, created.game, created.seat);
    // X throws a win away at move 5 (c1 instead of completing a column).
    for (const [at, text] of ["a1", "b1", "a2", "b2", "c1"].entries()) {
      me.send({ _tag: "Play", at, text });
      await me.next(isPosition((p) => p.current === at + 1), 0);
    }
    await me.close();
    const text = await (await fetch(new URL(`/api/games/${created.game}/transcript`, served.url)))
      .text();
    const loaded = await post(served.url, "/api/load", { transcript: text });
    assert(loaded._tag === "Created", JSON.stringify(loaded));
    const review = await connect(served.url, loaded.game, loaded.seat);
    const judged = await review.next(
      isPosition((p) => p.nodes.filter((n) => n.review !== undefined).length === 5),
      0,
    );
    assertEquals(judged.current, 5);
    assert(judged.nodes[5].review!.mistake, "c1 lets a win go");
    assert(!judged.nodes[1].review!.mistake);
    const broken = await post(served.url, "/api/load", { transcript: "{}" });
    assertEquals(broken._tag, "Refused");
    await review.close();
  });
});

Deno.test("serve: jumping back to a chance move shows it; chance is not drawn again", async () => {
  await withServe([], async (served) => {
    const created = await newGame(served.url, {
      game: "2048",
      players: [here, here],
      seed: 3,
    });
    const me = await connect(served.url, created.game, created.seat);
    const start = await me.next(isPosition((p) => p.legal.length > 0), 0);
    me.send({ _tag: "Move", at: start.current, move: start.legal[0].move });
    // The slide, then chance's tile: the slider is to move again.
    const after = await me.next(
      isPosition((p) => p.current === start.current + 2 && p.legal.length > 0),
    );
    const slid = after.current - 1;
    assertEquals(after.nodes[slid].by, 0);
    me.send({ _tag: "GoTo", node: slid });
    const back = await me.next(isPosition((p) => p.current === slid));
    assert(back.paused, "a known chance outcome waits for Resume");
    assertEquals(back.nodeCount, after.nodeCount);
    me.send({ _tag: "GoTo", node: after.current });
    const again = await me.next(isPosition((p) => p.current === after.current));
    assertEquals(again.nodeCount, after.nodeCount);
    await me.close();
  });
});

Deno.test("serve: a plugin named on the command line gets a page: its text and its moves", async () => {
  await withServe(["tests/fixtures/subtraction.ts"], async (served) => {
    const games = await (await fetch(new URL("/api/games", served.url))).json();
    assert(games.some((g: { id: string }) => g.id === "subtraction"));
    const created = await newGame(served.url, {
      game: "subtraction",
      options: { take: "3" },
      players: [here, ai("alphabeta:4")],
    });
    const me = await connect(served.url, created.game, created.seat);
    const start = me.position();
    assertEquals(start.svg, undefined, "no picture: the page shows the text and buttons");
    assert(start.text.length > 0);
    assertEquals(start.legal.map((m) => m.picks), [[], [], []]);
    me.send({ _tag: "Move", at: 0, move: start.legal[0].move });
    await me.next(isPosition((p) => p.current === 2 && p.legal.length > 0), 0);
    await me.close();
  });
});
