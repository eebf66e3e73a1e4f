/**
 * The web page over the network, in a real browser: two browser contexts (no shared
 * storage) play tic-tac-toe against each other, the second through the `#invite` link,
 * while a third context watches as a spectator; hostile WebSockets (a spectator's move,
 * malformed messages, to this game and to another) get an error reply and change
 * nothing the pages show. Every wait is a handshake.
 */
import { assert, assertEquals, assertNotEquals } from "../testing/deps.ts";
import { makeRng } from "../core/rng.ts";
import {
  gotoGame,
  nodeOf,
  openPage,
  type Page,
  pick,
  textOf,
  waitNode,
  withBrowser,
  withServe,
} from "../testing/browser.ts";
import { connect, isPosition, post } from "../testing/ws_client.ts";
import type { ServerMessage } from "../server/protocol.ts";
import {
  isOverOnPage,
  type Made,
  playByPicks,
  replayed,
  routeOf,
  startFromForm,
  waitMyTurn,
} from "../testing/page.ts";

const moveButtons = (page: Page) =>
  page.$$eval("#move-buttons button[data-move]", (es) => es.length);

Deno.test("web page: two browsers play over the network, a third watches; hostile sockets change nothing", async () => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      const contexts = await Promise.all([0, 1, 2].map(() => browser.createBrowserContext()));
      try {
        const [a, b, c] = await Promise.all(contexts.map(openPage));
        const opened = await startFromForm(a.page, served.url, {
          game: "tictactoe",
          sides: ["here", "remote"],
          seed: 31,
        });
        await a.page.waitForSelector("#invite[href]");
        const invite = await a.page.$eval("#invite", (e) => e.getAttribute("href") ?? "");
        const inviteUrl = new URL(invite, served.url).href;
        const remote = routeOf(inviteUrl);
        assertEquals(remote.id, opened.id, "the invite opens the same game");
        assert(remote.seat !== "" && remote.seat !== opened.seat, "the invite has its own seat");
        await gotoGame(b.page, inviteUrl);
        await gotoGame(c.page, new URL(`/?game=${opened.id}`, served.url).href);
        const pages = [a.page, b.page, c.page];

        // Hostile sockets: a spectator's move and malformed messages, to this game and
        // to another one; each gets its reply and nothing changes.
        const other = await post(served.url, "/api/new", {
          game: "nim",
          options: {},
          players: [{ _tag: "Here" }, { _tag: "Here" }],
        });
        assert(other._tag === "Created");
        const spy = await connect(served.url, opened.id);
        const speed = spy.position().speed;
        const evil = await connect(served.url, other.game, other.seat);
        for (
          const [socket, bad] of [
            [spy, { _tag: "Move", at: 0, move: 4 }],
            [spy, { _tag: "Undo" }],
            [spy, { _tag: "Speed", ms: 5 }],
            [spy, { _tag: "Stop" }],
            [spy, "not json"],
            [evil, { _tag: "Move", at: 0, move: 0, also: 1 }],
            [evil, "{".repeat(2_000)],
            [evil, { _tag: "Resign" }],
          ] as const
        ) {
          const from = socket.received.length;
          socket.send(bad as string);
          // The reply, or a change of the game (which fails the test at once).
          const reply = await socket.next(
            (m): m is ServerMessage =>
              m._tag === "Error" || m._tag === "Refused" ||
              (m._tag === "Position" &&
                (m.nodeCount > 1 || m.current !== 0 || m.speed !== speed || m.paused)),
            from,
          );
          assert(reply._tag !== "Position", `${JSON.stringify(bad).slice(0, 60)} changed the game`);
        }
        for (const p of pages) assertEquals(await nodeOf(p), 0, "a hostile message moved a page");
        assertEquals((await replayed(a.page)).transcript.moves.length, 0);

        // The two people alternate (tic-tac-toe: X here, O elsewhere) to the end.
        const rng = makeRng(31);
        const made: Made[] = [];
        for (let ply = 0; ply < 9; ply++) {
          const [mover, waiter] = ply % 2 === 0 ? [a.page, b.page] : [b.page, a.page];
          await waitMyTurn(mover);
          if (await isOverOnPage(mover)) break;
          assertEquals(await moveButtons(waiter), 0, "the side not to move has no move buttons");
          assertEquals(await moveButtons(c.page), 0, "a spectator has no move buttons");
          // A spectator's click is ignored: the next move made is the mover's.
          const cell = await c.page.$$eval("#board [data-pick]", (es) =>
            es.map((e) => e.getAttribute("data-pick")!));
          await pick(c.page, cell[ply % cell.length]);
          const m = await playByPicks(mover, rng);
          made.push(m);
          const node = await nodeOf(mover);
          for (const p of pages) {
            await waitNode(p, node);
          }
        }
        const r = await replayed(c.page);
        assertEquals(
          r.transcript.moves.map((m) =>
            m.notation
          ),
          made.map((m) => m.notation),
          "the game is the moves the two people made, in order",
        );
        const results = await Promise.all(
          pages.map((p) => p.$eval("body", (e) => e.getAttribute("data-result") ?? "")),
        );
        assertNotEquals(results[0], "", "the game ended");
        assertEquals(new Set(results).size, 1, "every page shows the same result");
        const status = await Promise.all(pages.map((p) => textOf(p, "#status")));
        assert(status.every((s) => s.trim() !== ""), status.join(" | "));

        // The other game was not touched and still plays.
        const before = evil.position();
        assertEquals(before.current, 0);
        evil.send({ _tag: "Play", at: 0, text: before.legal[0].notation });
        await evil.next(isPosition((p) => p.current === 1), 0);
        await spy.close();
        await evil.close();
        for (const w of [a, b, c]) assertEquals(w.problems, []);
      } finally {
        for (const context of contexts) await context.close();
      }
    }));
});
