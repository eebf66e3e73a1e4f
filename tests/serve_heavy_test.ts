/**
 * `deno task serve` with a heavy room: a Kalah game between two AIs that may think ten
 * minutes a move (a search that does not end by itself while the test runs) does not hold
 * up another room. The proof is the order of the replies, not their times: while the heavy
 * AI thinks (its progress seen), a person in another room moves and gets both their move
 * and the AI's answer; then the heavy AI is still thinking (`MoveNow` is accepted and makes
 * it move, where a finished search would be refused with "no AI is thinking").
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { withServe } from "../testing/browser.ts";
import { connect, isPosition, post, tagged } from "../testing/ws_client.ts";

const here = { _tag: "Here" } as const;
const ai = (spec: string) => ({ _tag: "AI", spec }) as const;

const created = async (url: string, body: unknown) => {
  const r = await post(url, "/api/new", body);
  if (r._tag !== "Created") throw new Error(`refused: ${r.message}`);
  return r;
};

Deno.test("serve: a heavy room does not hold up another room's replies", async () => {
  // Two workers: the heavy search takes one, the other room's AI searches on the other.
  await withServe(["--max-ai-time", "600s", "--workers", "2"], async (served) => {
    const heavy = await created(served.url, {
      game: "kalah",
      options: { pits: 8, stones: 8 },
      players: [ai("alphabeta:600s"), ai("alphabeta:600s")],
    });
    const h = await connect(served.url, heavy.game, heavy.seat);
    h.send({ _tag: "Speed", ms: 0 });
    await h.next(tagged("Progress"), 0);
    const thinking = h.position();
    assertEquals(thinking.current, 0);
    assertEquals(thinking.thinking, 0);

    const light = await created(served.url, {
      game: "kalah",
      options: {},
      players: [here, ai("alphabeta:2")],
    });
    const me = await connect(served.url, light.game, light.seat);
    const start = me.position();
    me.send({ _tag: "Move", at: 0, move: start.legal[0].move });
    // The person's move, then the AI's answer: the person is to move again.
    await me.next(isPosition((p) => p.current === 1), 0);
    const answered = await me.next(
      isPosition((p) => p.toMove === 0 && p.legal.length > 0 && p.nodes.some((n) => n.by === 1)),
      0,
    );
    assert(answered.current >= 2);
    await me.close();

    // The heavy AI has not moved and is still thinking: MoveNow makes it move.
    assertEquals(h.position().current, 0);
    assertEquals(h.position().thinking, 0);
    const from = h.received.length;
    h.send({ _tag: "MoveNow" });
    const moved = await h.next(isPosition((p) => p.current > 0), from);
    assertEquals(moved.nodes[1].by, 0);
    assertEquals(h.received.slice(from).filter((m) => m._tag === "Refused"), []);
    // Stop it before the room closes (its search is interrupted with the room anyway).
    h.send({ _tag: "Stop" });
    await h.close();
  });
});
