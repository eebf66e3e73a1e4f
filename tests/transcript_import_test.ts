/**
 * Importing a transcript (`app/transcript.ts`) gives back the session that was exported:
 * its current node (the same moves lead to it), how the game ended or that it did not,
 * its statistics, and where `redo` goes (back along the way to the current node, the
 * main continuation elsewhere). A current node or a variation's parent outside the
 * transcript is refused by name, the last node accepted; `goTo` takes exactly the
 * session's nodes.
 */
import { assert, assertEquals, assertThrows, fc } from "../testing/deps.ts";
import { Result } from "../core/deps.ts";
import type { Game, Player } from "../core/game.ts";
import {
  goTo,
  pathTo,
  redo,
  type Session,
  type SessionResult,
  stateAt,
  undo,
} from "../app/session.ts";
import {
  decodeTranscript,
  exportTranscript,
  importTranscript,
  type Transcript,
} from "../app/transcript.ts";
import { build, GAMES, sessionArb } from "./tools/sessions.ts";

/** How a game stopped, as `runGame` records it; undefined for a game still going on. */
const resultArb: fc.Arbitrary<SessionResult | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({
    winner: fc.constantFrom(0 as const, 1 as const, null),
    margin: fc.integer({ min: -40, max: 40 }),
    reason: fc.constantFrom("end", "quit", "gave up", "move limit", "interrupted", "end of input"),
  }),
  fc.record({
    winner: fc.constant(null),
    margin: fc.constant(0),
    reason: fc.constant("error"),
    by: fc.constantFrom(0 as const, 1 as const),
    error: fc.constant("plugin ./x.ts failed in value(): boom"),
  }),
);

const statsArb = fc.option(
  fc.dictionary(fc.constantFrom("score", "maxTile", "reached2048"), fc.integer()),
  { nil: undefined },
);

/** Through JSON text, as a file holds it, then decoded and imported. */
const reimport = (game: Game<unknown>, session: Session): Session => {
  const decoded = decodeTranscript(JSON.parse(JSON.stringify(exportTranscript(session))));
  assert(Result.isSuccess(decoded), Result.isFailure(decoded) ? decoded.failure : "");
  const imported = importTranscript(game, decoded.success);
  assert(Result.isSuccess(imported), Result.isFailure(imported) ? imported.failure : "");
  return imported.success;
};

/** The moves from the start to node `id` (node numbers differ between sessions). */
const line = (session: Session, id: number) =>
  pathTo(session, id).slice(1).map((n) => session.nodes[n].move);

/** The transcript of a random session, and the number of nodes it holds. */
const transcriptOf = (g: number, ops: Parameters<typeof build>[1], humans: readonly Player[]) => {
  const t = exportTranscript(build(GAMES[g].game, ops, humans));
  return { t, nodes: 1 + t.moves.length + (t.variations?.length ?? 0) };
};

Deno.test("import: the current node, the result (or none) and the statistics come back", () => {
  fc.assert(
    fc.property(sessionArb, resultArb, statsArb, ({ g, ops, humans }, result, stats) => {
      const { game } = GAMES[g];
      const session = build(game, ops, humans);
      if (result !== undefined) session.result = result;
      if (stats !== undefined) session.stats = stats;
      const imported = reimport(game, session);
      assertEquals(line(imported, imported.current), line(session, session.current));
      assertEquals(stateAt(game, imported), stateAt(game, session));
      // An unfinished game comes back unfinished: no result at all.
      assertEquals(imported.result, session.result);
      assertEquals(imported.stats, session.stats);
    }),
    { numRuns: 300 },
  );
});

Deno.test("import: redo goes back to the current node along its way, elsewhere the main line", () => {
  fc.assert(
    fc.property(sessionArb, ({ g, ops, humans }) => {
      const { game } = GAMES[g];
      const imported = reimport(game, build(game, ops, humans));
      const way = pathTo(imported, imported.current);
      for (const [id, n] of imported.nodes.entries()) {
        const k = way.indexOf(id);
        const expected = k >= 0 && k + 1 < way.length
          ? way[k + 1]
          : n.children.length > 0
          ? n.children[0]
          : -1;
        assertEquals(n.next, expected, `node ${id}'s next`);
      }
      // As a person sees it: everything taken back, then replayed, passes the current
      // node's position and ends at the end of its main continuation.
      const all = () => true;
      while (undo(game, imported, all));
      const seen = [imported.current];
      while (redo(game, imported, all)) seen.push(imported.current);
      const end = seen[seen.length - 1];
      assert(pathTo(imported, end).includes(way[way.length - 1]), "redo passes the current node");
      assertEquals(imported.nodes[end].children.length, 0, "redo ends where the line ends");
    }),
    { numRuns: 300 },
  );
});

Deno.test("import: a current node outside the transcript is refused; the last one is taken", () => {
  fc.assert(
    fc.property(sessionArb, fc.nat({ max: 3 }), ({ g, ops, humans }, beyond) => {
      const { game } = GAMES[g];
      const { t, nodes } = transcriptOf(g, ops, humans);
      const last = importTranscript(game, { ...t, current: nodes - 1 });
      assert(Result.isSuccess(last), Result.isFailure(last) ? last.failure : "");
      assertEquals(last.success.current, nodes - 1);
      assertEquals(last.success.nodes.length, nodes);
      for (const current of [nodes + beyond, -1 - beyond, nodes - 0.5]) {
        const outside = importTranscript(game, { ...t, current });
        assertEquals(
          Result.isFailure(outside) && outside.failure,
          `the current node ${current} is not in the transcript`,
        );
      }
      // A file with such a node is refused as it is read, before any game sees it.
      for (const current of [-1 - beyond, nodes - 0.5]) {
        assert(Result.isFailure(decodeTranscript({ ...t, current })), `current ${current} read`);
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("import: a variation's parent must come before it: its own number, beyond, or none refused", () => {
  fc.assert(
    fc.property(
      sessionArb.filter(({ g, ops, humans }) =>
        (transcriptOf(g, ops, humans).t.variations?.length ?? 0) > 0
      ),
      fc.nat(),
      fc.nat({ max: 2 }),
      ({ g, ops, humans }, pick, beyond) => {
        const { game } = GAMES[g];
        const { t } = transcriptOf(g, ops, humans);
        const variations = t.variations!;
        const i = pick % variations.length;
        const own = 1 + t.moves.length + i;
        for (const parent of [own + beyond, -1 - beyond, own - 0.5]) {
          const broken: Transcript = {
            ...t,
            variations: variations.map((v, k) => (k === i ? { ...v, parent } : v)),
          };
          const r = importTranscript(game, broken);
          assertEquals(
            Result.isFailure(r) && r.failure,
            `variation move ${i + 1} (${
              variations[i].notation
            }) comes from node ${parent}, which is not before it`,
          );
        }
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("goTo: every node of the session, none beyond", () => {
  fc.assert(
    fc.property(sessionArb, ({ g, ops, humans }) => {
      const { game } = GAMES[g];
      const session = build(game, ops, humans);
      const n = session.nodes.length;
      goTo(session, n - 1);
      assertEquals(session.current, n - 1);
      for (const bad of [n, n + 1, -1, 0.5]) {
        assertThrows(() => goTo(session, bad), RangeError, `no node ${bad} in this session`);
      }
      assertEquals(session.current, n - 1, "a refused goTo changes nothing");
    }),
    { numRuns: 100 },
  );
});
