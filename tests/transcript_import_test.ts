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
  mainLine as mainLineOf,
  pathTo,
  redo,
  type SearchInfo,
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
import { build, GAMES, humansArb, opArb, sessionArb } from "./tools/sessions.ts";

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

// ---------------------------------------------------------------------------------------
// Every refusal, by its exact message, and the round trip of a whole tree.

/** The games of the round trip: tic-tac-toe, Nim and Kalah (no chance moves). */
const TWO_PLAYER = [0, 1, 2] as const;

/** A session of one of `TWO_PLAYER`'s games with at least `min` main-line moves. */
const mainLineArb = (min: number) =>
  fc.record({
    g: fc.constantFrom(...TWO_PLAYER),
    ops: fc.array(opArb, { maxLength: 80, size: "max" }),
    humans: humansArb,
  }).filter(({ g, ops, humans }) => transcriptOf(g, ops, humans).t.moves.length >= min);

/** The failure of an import, or "imported" when it succeeded. */
const failureOf = (game: Game<unknown>, t: Transcript): string => {
  const r = importTranscript(game, t);
  return Result.isFailure(r) ? r.failure : "imported";
};

/** The failure of reading a value as a transcript, or "read" when it was read. */
const readFailure = (json: unknown): string => {
  const r = decodeTranscript(json);
  return Result.isFailure(r) ? r.failure : "read";
};

/** A move that breaks a record: the other player's, chance's, or a move the game has not. */
const brokenArb = fc.constantFrom("mover", "chance", "number", "fraction", "negative");
const breakMove = <M extends { readonly by: unknown; readonly move: number }>(
  m: M,
  how: string,
): M =>
  how === "mover"
    ? { ...m, by: m.by === 0 ? 1 : 0 }
    : how === "chance"
    ? { ...m, by: "chance" }
    : how === "number"
    ? { ...m, move: 1000 }
    : how === "fraction"
    ? { ...m, move: m.move + 0.5 }
    : { ...m, move: -1 };

Deno.test("import: a main-line move that does not fit is refused by its number, the first one", () => {
  fc.assert(
    fc.property(mainLineArb(1), fc.nat(), brokenArb, fc.nat(), (s, pick, how, later) => {
      const { game } = GAMES[s.g];
      const { t } = transcriptOf(s.g, s.ops, s.humans);
      const i = pick % t.moves.length;
      const moves = t.moves.map((m, k) => (k === i ? breakMove(m, how) : m));
      const expected = `move ${i + 1} (${t.moves[i].notation}) is not legal there`;
      assertEquals(failureOf(game, { ...t, moves }), expected);
      // A second broken move after it: the first is named.
      const j = i + 1 + (later % Math.max(1, t.moves.length - i));
      if (j < t.moves.length) {
        const twice = moves.map((m, k) => (k === j ? breakMove(m, how) : m));
        assertEquals(failureOf(game, { ...t, moves: twice }), expected);
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("import: a move after the end of the game is refused by its number", () => {
  fc.assert(
    fc.property(mainLineArb(0), ({ g, ops, humans }) => {
      const { game } = GAMES[g];
      const { t } = transcriptOf(g, ops, humans);
      // A game played to its end, one more move after it.
      let s = game.initial();
      const moves = [];
      while (game.moves(s).length > 0) {
        const m = game.moves(s)[0];
        moves.push({ by: game.toMove(s), move: m, notation: game.formatMove(s, m), ms: 0 });
        s = game.play(s, m);
      }
      const full: Transcript = { ...t, moves, variations: [], current: undefined };
      assert(Result.isSuccess(importTranscript(game, full)), "the whole game imports");
      const extra = { ...moves[moves.length - 2], notation: "late" };
      assertEquals(
        failureOf(game, { ...full, moves: [...moves, extra] }),
        `move ${moves.length + 1} (late) is not legal there`,
      );
    }),
    { numRuns: 60 },
  );
});

Deno.test("import: a variation move that does not fit is refused by its number", () => {
  fc.assert(
    fc.property(
      sessionArb.filter(({ g, ops, humans }) =>
        g !== 3 && (transcriptOf(g, ops, humans).t.variations?.length ?? 0) > 0
      ),
      fc.nat(),
      brokenArb,
      ({ g, ops, humans }, pick, how) => {
        const { game } = GAMES[g];
        const { t } = transcriptOf(g, ops, humans);
        const variations = t.variations!;
        const i = pick % variations.length;
        const broken = variations.map((v, k) => (k === i ? breakMove(v, how) : v));
        assertEquals(
          failureOf(game, { ...t, variations: broken }),
          `variation move ${i + 1} (${variations[i].notation}) is not legal there`,
        );
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("import: another game's transcript is refused at its first move that does not fit", () => {
  const [ttt, nim, kalah] = [GAMES[0].game, GAMES[1].game, GAMES[2].game];
  const setup = { game: "tictactoe", options: {}, seed: 1, players: ["a", "b"] as const };
  const t: Transcript = {
    version: 2,
    ...setup,
    players: ["a", "b"],
    // Tic-tac-toe's corners: 9 is no Kalah(3, 2) pit, and Nim's second player cannot
    // open the game.
    moves: [
      { by: 0, move: 8, notation: "c3", ms: 0 },
      { by: 1, move: 0, notation: "a1", ms: 0 },
    ],
    result: { winner: null, margin: 0, reason: "unfinished" },
  };
  assert(Result.isSuccess(importTranscript(ttt, t)));
  assertEquals(failureOf(kalah, t), "move 1 (c3) is not legal there");
  assertEquals(
    failureOf(nim, { ...t, moves: [{ ...t.moves[0], by: 1 }] }),
    "move 1 (c3) is not legal there",
  );
});

Deno.test("decode: a wrong version, a negative or fractional number, each refused by name", () => {
  const t: Transcript = {
    version: 2,
    game: "nim",
    options: {},
    seed: 1,
    players: ["a", "b"],
    moves: [],
    result: { winner: null, margin: 0, reason: "unfinished" },
  };
  assertEquals(readFailure(t), "read");
  for (const version of [1, 2]) assertEquals(readFailure({ ...t, version }), "read");
  const { version: _, ...v1 } = t;
  assertEquals(readFailure(v1), "read", "a version-1 file has no version");
  for (const version of [0, 3]) {
    assertEquals(
      readFailure({ ...t, version }),
      'not a ply transcript: Expected 1 | 2;   at ["version"]',
    );
  }
  assertEquals(
    readFailure({ ...t, version: "2" }),
    'not a ply transcript: Expected 1 | 2 | undefined;   at ["version"]',
  );
  const negative = "Expected a value greater than or equal to 0";
  for (const field of ["draws", "current", "seed"]) {
    assertEquals(readFailure({ ...t, [field]: 0 }), "read", `${field} 0`);
    assertEquals(
      readFailure({ ...t, [field]: -1 }),
      `not a ply transcript: ${negative};   at ["${field}"]`,
    );
    assertEquals(
      readFailure({ ...t, [field]: 1.5 }),
      `not a ply transcript: Expected an integer;   at ["${field}"]`,
    );
  }
  assertEquals(
    readFailure({ ...t, variations: [{ parent: -1, by: 0, move: 0, notation: "x", ms: 0 }] }),
    `not a ply transcript: ${negative};   at ["variations"][0]["parent"]`,
  );
  assertEquals(
    readFailure({ ...t, moves: [{ by: "x", move: 0, notation: "x", ms: 0 }] }),
    'not a ply transcript: Expected 0 | 1 | "chance";   at ["moves"][0]["by"]',
  );
  assertEquals(
    readFailure({ ...t, result: { winner: 2, margin: 0, reason: "end" } }),
    'not a ply transcript: Expected 0 | 1;   at ["result"]["winner"]',
  );
  assertEquals(readFailure(7), "not a ply transcript: Expected object");
  // All the problems are checked; the message names the first two.
  assertEquals(
    readFailure({ ...t, version: 3, draws: -1, game: 1 }),
    'not a ply transcript: Expected 1 | 2;   at ["version"]; Expected string;   at ["game"]',
  );
  assertEquals(
    readFailure({ ...t, version: 3, draws: -1 }),
    'not a ply transcript: Expected 1 | 2;   at ["version"]; ' +
      `${negative};   at ["draws"]`,
  );
});

Deno.test("import: a version-1 transcript (main line only) ends at its last move", () => {
  const game = GAMES[1].game;
  let s = game.initial();
  const moves = [];
  for (let k = 0; k < 2; k++) {
    const m = game.moves(s)[0];
    moves.push({ by: game.toMove(s), move: m, notation: game.formatMove(s, m), ms: 3 });
    s = game.play(s, m);
  }
  const r = importTranscript(game, {
    game: "nim",
    options: {},
    seed: 4,
    players: ["human", "random"],
    moves,
    result: { winner: null, margin: 0, reason: "unfinished" },
  });
  assert(Result.isSuccess(r));
  assertEquals(r.success.current, 2);
  assertEquals(r.success.nodes.map((n) => n.next), [1, 2, -1]);
  assertEquals(r.success.seed, 4);
  assertEquals(r.success.players, ["human", "random"]);
  assertEquals(r.success.draws, undefined);
  assertEquals(r.success.result, undefined);
});

/** A search record for an AI's move. */
const searchArb = fc.record({
  value: fc.integer({ min: -100, max: 100 }),
  depth: fc.nat({ max: 9 }),
  exact: fc.boolean(),
  pv: fc.array(fc.constantFrom("1", "2", "a1"), { maxLength: 3 }),
  nodes: fc.nat(),
  timeMs: fc.nat(),
  notes: fc.option(fc.array(fc.constantFrom("book", "solved"), { minLength: 1, maxLength: 2 }), {
    nil: undefined,
  }),
});

/** What an AI adds to a move: its spec and its search, either, both or none. */
const extraArb = fc.record({
  agent: fc.option(fc.constantFrom("alphabeta:4", "random", "human"), { nil: undefined }),
  search: fc.option(searchArb, { nil: undefined }),
  ms: fc.nat({ max: 5000 }),
});

/** A session with AI records on its moves and the draws of its random stream. */
const richSessionArb = fc.record({
  g: fc.constantFrom(...TWO_PLAYER),
  ops: fc.array(opArb, { maxLength: 80, size: "max" }),
  humans: humansArb,
  extras: fc.array(extraArb, { maxLength: 40 }),
  draws: fc.oneof(fc.constant(undefined), fc.constant(0), fc.nat({ max: 1000 })),
  seed: fc.nat({ max: 2 ** 31 - 1 }),
}).map(({ g, ops, humans, extras, draws, seed }) => {
  const session = build(GAMES[g].game, ops, humans);
  session.seed = seed;
  session.players = ["alphabeta:4", "human"];
  for (let id = 1; id < session.nodes.length; id++) {
    const e = extras[id % Math.max(1, extras.length)];
    if (e === undefined) continue;
    const { agent: _a, search: _s, ...rest } = session.nodes[id];
    const { notes, ...search } = e.search ?? { notes: undefined };
    session.nodes[id] = {
      ...rest,
      ms: e.ms,
      ...(e.agent !== undefined ? { agent: e.agent } : {}),
      ...(e.search !== undefined
        ? { search: { ...(search as SearchInfo), ...(notes !== undefined ? { notes } : {}) } }
        : {}),
    };
  }
  if (draws !== undefined) session.draws = draws;
  return { g, session };
});

/** A node as a tree of what was played (numbering aside): its record and its children's. */
interface Shape {
  readonly record: Record<string, unknown>;
  readonly children: readonly Shape[];
}
const shape = (session: Session, id = 0): Shape => {
  const { parent: _p, children, next: _n, ...record } = session.nodes[id];
  return { record, children: children.map((c) => shape(session, c)) };
};

/** Where `next` points in node terms: the moves from the start to each node, and to its next. */
const nextByLine = (session: Session) =>
  new Map(
    session.nodes.map((n, id) => [
      JSON.stringify(line(session, id)),
      n.next === -1 ? null : line(session, n.next),
    ]),
  );

Deno.test("round trip: tree, records, current node, next and draws; a second trip changes nothing", () => {
  fc.assert(
    fc.property(richSessionArb, ({ g, session }) => {
      const { game } = GAMES[g];
      const t = exportTranscript(session);
      // The transcript's own fields: the current node only when off the main line's end,
      // the draws only when some were drawn.
      const main = mainLineOf(session);
      assertEquals(t.current === undefined, session.current === main[main.length - 1]);
      assertEquals(t.draws, (session.draws ?? 0) > 0 ? session.draws : undefined);
      assertEquals("draws" in t, (session.draws ?? 0) > 0);
      assertEquals(t.moves.length, main.length - 1);
      assertEquals(1 + t.moves.length + (t.variations?.length ?? 0), session.nodes.length);
      assertEquals("variations" in t, session.nodes.length > main.length);
      const imported = reimport(game, session);
      assertEquals(imported.nodes.length, session.nodes.length);
      assertEquals(shape(imported), shape(session));
      assertEquals(line(imported, imported.current), line(session, session.current));
      assertEquals(imported.seed, session.seed);
      assertEquals(imported.players, session.players);
      assertEquals(imported.draws, (session.draws ?? 0) > 0 ? session.draws : undefined);
      // Every node's parent holds it among its children, and nodes follow their parents.
      for (const [id, n] of imported.nodes.entries()) {
        if (id === 0) continue;
        assert(n.parent < id, `node ${id} after its parent`);
        assert(imported.nodes[n.parent].children.includes(id));
      }
      // Along the way to the current node, `next` is that way, as in the session after goTo.
      const visited = structuredClone(session);
      goTo(visited, session.current);
      const want = nextByLine(visited);
      const got = nextByLine(imported);
      for (const id of pathTo(session, session.current).slice(0, -1)) {
        const key = JSON.stringify(line(session, id));
        assertEquals(got.get(key), want.get(key), `next of ${key}`);
      }
      // Exported again, the same transcript; imported again, the same session, `next` too.
      const again = exportTranscript(imported);
      assertEquals(again, t);
      const twice = reimport(game, imported);
      assertEquals(twice, imported);
    }),
    { numRuns: 300 },
  );
});
