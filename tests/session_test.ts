/**
 * The game session model (`app/session.ts`) and its transcripts (`app/transcript.ts`):
 * properties over random sessions of several games (undo then redo is the identity,
 * export then import is the identity, the main line replays to its last position,
 * branching keeps the old line), version-1 transcripts, refused transcripts, and the
 * match runner taking moves back for a person across an AI reply, a Kalah extra turn
 * and a 2048 chance move.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, type Game, type Player } from "../core/game.ts";
import { replay, runGame } from "../app/match.ts";
import { humanAgent, searchAgent } from "../app/players/agents.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { mainLine, newSession, pathTo, playMove, redo, stateAt, undo } from "../app/session.ts";
import { decodeTranscript, exportTranscript, importTranscript } from "../app/transcript.ts";
import { scriptedTerminal } from "../app/terminal.ts";
import { build, GAMES, sessionArb } from "./tools/sessions.ts";

Deno.test("session: undo then redo is the identity where a person is to move or a line ends", () => {
  fc.assert(
    fc.property(sessionArb, ({ g, ops, humans }) => {
      const { game } = GAMES[g];
      const session = build(game, ops, humans);
      const human = (p: Player) => humans.includes(p);
      const s = stateAt(game, session);
      const tm = game.toMove(s);
      const atHuman = tm !== CHANCE && human(tm);
      const atEnd = session.nodes[session.current].next === -1;
      if (!atHuman && !atEnd) return;
      const before = session.current;
      if (!undo(game, session, human)) {
        assertEquals(session.current, before, "a failed undo changes nothing");
        return;
      }
      assert(session.current !== before);
      const back = stateAt(game, session);
      const btm = game.toMove(back);
      assert(btm !== CHANCE && human(btm), "undo stops where a person is to move");
      assert(redo(game, session, human));
      assertEquals(session.current, before);
    }),
    { numRuns: 300 },
  );
});

Deno.test("session: export then import is the identity, and the main line replays", () => {
  fc.assert(
    fc.property(sessionArb, ({ g, ops, humans }) => {
      const { game } = GAMES[g];
      const session = build(game, ops, humans);
      const exported = exportTranscript(session);
      // Through JSON text, as a file holds it.
      const decoded = decodeTranscript(JSON.parse(JSON.stringify(exported)));
      assert(Result.isSuccess(decoded), Result.isFailure(decoded) ? decoded.failure : "");
      const imported = importTranscript(game, decoded.success);
      assert(Result.isSuccess(imported), Result.isFailure(imported) ? imported.failure : "");
      assertEquals(exportTranscript(imported.success), exported);
      assertEquals(imported.success.nodes.length, session.nodes.length, "every node kept");
      assertEquals(stateAt(game, imported.success), stateAt(game, session));
      const main = mainLine(session);
      assertEquals(replay(game, exported), stateAt(game, session, main[main.length - 1]));
    }),
    { numRuns: 300 },
  );
});

Deno.test("session: a different move from an earlier node is the new main line; the old one stays", () => {
  const game = GAMES[0].game;
  const session = newSession({ game: "tictactoe", options: {}, seed: 1, players: ["h", "h"] });
  const play = (text: string) => {
    const s = stateAt(game, session);
    const m = Result.getOrThrow(game.parseMove(s, text));
    return playMove(session, { by: game.toMove(s), move: m, notation: text });
  };
  play("a1");
  const old = play("b2");
  play("c3");
  assert(undo(game, session, () => true));
  assert(undo(game, session, () => true));
  const fresh = play("c1");
  assertEquals(mainLine(session).map((n) => session.nodes[n].notation), ["", "a1", "c1"]);
  assertEquals(pathTo(session, old).map((n) => session.nodes[n].notation), ["", "a1", "b2"]);
  assertEquals(session.nodes[session.nodes[fresh].parent].children, [fresh, old]);
  // The same move again follows the existing node.
  assert(undo(game, session, () => true));
  assertEquals(play("b2"), old);
  // A move inside a variation extends the variation.
  const deeper = play("a3");
  assertEquals(mainLine(session).map((n) => session.nodes[n].notation), ["", "a1", "c1"]);
  assertEquals(session.nodes[old].children.map((n) => session.nodes[n].notation), ["c3", "a3"]);
  assertEquals(session.nodes[old].children[1], deeper);
  const t = exportTranscript(session);
  assertEquals(t.moves.map((m) => m.notation), ["a1", "c1"]);
  assertEquals(t.variations?.map((v) => [v.parent, v.notation]), [[1, "b2"], [3, "c3"], [3, "a3"]]);
  assertEquals(t.current, 5);
});

Deno.test("transcript: a version-1 file loads; a broken or illegal one is refused by name", () => {
  const game = GAMES[0].game;
  const v1 = {
    game: "tictactoe",
    options: {},
    seed: 7,
    players: ["human", "alphabeta:9"],
    moves: [
      { by: 0, move: 4, notation: "b2", ms: 1200 },
      { by: 1, move: 0, notation: "a1", ms: 3 },
    ],
    result: { winner: null, margin: 0, reason: "end of input", by: 0 },
  };
  const t = Result.getOrThrow(decodeTranscript(v1));
  const session = Result.getOrThrow(importTranscript(game, t));
  assertEquals(session.current, 2);
  assertEquals(session.seed, 7);
  assertEquals(exportTranscript(session).moves, t.moves);
  const bad = decodeTranscript({ ...v1, moves: [{ by: 2, move: 4, notation: "b2", ms: 0 }] });
  assert(Result.isFailure(bad));
  assertStringIncludes(bad.failure, "not a ply transcript");
  const illegal = importTranscript(game, { ...t, moves: [t.moves[0], { ...t.moves[1], move: 4 }] });
  assertEquals(Result.isFailure(illegal) && illegal.failure, "move 2 (a1) is not legal there");
  const wrongBy = importTranscript(game, { ...t, moves: [{ ...t.moves[0], by: 1 }] });
  assertEquals(Result.isFailure(wrongBy) && wrongBy.failure, "move 1 (b2) is not legal there");
});

/** A person (player 0) against alpha-beta, typing `lines`. */
const versusAi = (game: Game<unknown>, lines: string[], depth = 2) => {
  const term = scriptedTerminal(lines);
  const played = Effect.runSync(
    runGame(game, [humanAgent(), searchAgent(alphabetaStrategy, { depth })], { seed: 3 }).pipe(
      Effect.provide(term.layer),
    ),
  );
  return { ...played, output: term.output() };
};

Deno.test("runGame: undo takes back a person's move and the AI's reply; redo replays them", () => {
  const game = GAMES[0].game;
  const { session, transcript, output } = versusAi(game, ["b2", "undo", "redo", "undo", "a1"], 9);
  // b2, reply; undo; redo (b2 and reply again); undo; a1, reply; end of input.
  assertEquals(transcript.moves.map((m) => m.by), [0, 1]);
  assertEquals(transcript.moves[0].notation, "a1");
  assertEquals(transcript.variations?.[0].notation, "b2", "the taken-back line is kept");
  assertEquals(transcript.variations?.length, 2);
  assertEquals(transcript.moves[1].agent, "alphabeta:9");
  assert(transcript.moves[1].search !== undefined, "the AI's search is kept");
  assertEquals(transcript.moves[1].search?.pv[0], transcript.moves[1].notation);
  assertEquals(session.nodes.length, 5);
  assertEquals(transcript.result.reason, "end of input");
  assert(output.split("o to move").length >= 1);
});

Deno.test("runGame: undo at the first move changes nothing and says so", () => {
  const game = GAMES[0].game;
  const term = scriptedTerminal(["undo"]);
  const events: string[] = [];
  Effect.runSync(
    runGame(game, [humanAgent(), searchAgent(alphabetaStrategy, { depth: 1 })], {
      seed: 1,
      onEvent: (e) =>
        Effect.sync(() => void (e._tag === "Navigated" && events.push(`${e.command} ${e.done}`))),
    }).pipe(Effect.provide(term.layer)),
  );
  assertEquals(events, ["undo false"]);
});

Deno.test("runGame: undo across a Kalah extra turn goes back one of the person's moves", () => {
  const game = GAMES[2].game; // Kalah(3, 2): south's house 2 ends in the store
  const s0 = game.initial();
  const extra = game.moves(s0).find((m) => game.toMove(game.play(s0, m)) === 0);
  assert(extra !== undefined, "some first move earns an extra turn");
  const first = game.formatMove(s0, extra);
  const { transcript } = versusAi(game, [first, "undo"]);
  // Back at the start: the extra-turn move is taken back, and kept for redo.
  assertEquals(transcript.moves.map((m) => m.notation), [first]);
  assertEquals(transcript.current, 0);
});

Deno.test("runGame: undo in 2048 takes back the slide and the tile placed after it", () => {
  const game = GAMES[3].game;
  const term = scriptedTerminal([]);
  // Find a first slide that is legal after the seeded opening tiles.
  const opening = Effect.runSync(
    runGame(game, [humanAgent(), humanAgent()], { seed: 5 }).pipe(Effect.provide(term.layer)),
  );
  const start = stateAt(game, opening.session);
  const slide = game.formatMove(start, game.moves(start)[0]);
  const run = scriptedTerminal([slide, "undo"]);
  const { session, transcript } = Effect.runSync(
    runGame(game, [humanAgent(), humanAgent()], { seed: 5 }).pipe(Effect.provide(run.layer)),
  );
  assertEquals(stateAt(game, session), start);
  const opened = opening.transcript.moves.length;
  assertEquals(transcript.moves.length, opened + 2, "the main line keeps the slide and its tile");
  assertEquals(transcript.moves[opened].notation, slide);
  assertEquals(transcript.moves[opened + 1].by, CHANCE);
  assertEquals(transcript.current, opened);
});
