/**
 * Players as effects: the human player with scripted input (valid, invalid, illegal,
 * `quit`, end of input), seeded random players, random-among-best, search players, and
 * the match runner's transcripts.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { runGame } from "../app/match.ts";
import { humanAgent, randomAgent, randomBestAgent, searchAgent } from "../app/players/agents.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { scriptedTerminal } from "../app/terminal.ts";
import { ticTacToeGame } from "../plugins/tictactoe/mod.ts";
import { nimGame } from "../plugins/nim/mod.ts";
import { bestMoves, evaluate, gameTree, scoredTree, takeTree } from "../core/tree.ts";
import { raceGame } from "./fixtures/race.ts";

const ttt = ticTacToeGame();

const humanVs = (lines: string[], seed = 1) => {
  const term = scriptedTerminal(lines);
  const played = Effect.runSync(
    runGame(ttt, [humanAgent(), searchAgent(alphabetaStrategy, { depth: 9 })], { seed }).pipe(
      Effect.provide(term.layer),
    ),
  );
  return { ...played, output: term.output() };
};

Deno.test("human: a typed move is played, a bad one re-prompts with the reason", () => {
  const { transcript, output } = humanVs(["b2", "zz", "b2", "9", "quit"]);
  assertEquals(transcript.moves[0].notation, "b2");
  assertStringIncludes(output, "Can't play 'zz': expected a cell a1-c3");
  assertStringIncludes(output, "Can't play 'b2': b2 is taken");
  assertEquals(transcript.moves.filter((m) => m.by === 0).map((m) => m.notation), ["b2", "c1"]);
  assertEquals(transcript.result, { winner: 1, margin: 0, reason: "quit", by: 0 });
});

Deno.test("human: end of input ends the game cleanly, nothing lost", () => {
  const { transcript, output } = humanVs(["a1"]);
  assertEquals(transcript.moves.length, 2, "the human's move and the AI's reply were played");
  assertEquals(transcript.result.reason, "end of input");
  assertEquals(transcript.result.winner, null);
  assertStringIncludes(output, "Legal moves:");
});

Deno.test("human: blank lines are ignored and ? lists the moves", () => {
  const { output, transcript } = humanVs(["", "?", "help", "b2", "quit"]);
  assertEquals(transcript.moves[0].notation, "b2");
  assertEquals((output.match(/Legal moves:/g) ?? []).length >= 3, true);
});

Deno.test("human vs perfect play: the AI never loses tic-tac-toe", () => {
  // A human who always plays the first legal move still cannot beat alpha-beta.
  const lines = Array.from({ length: 9 }, () => "");
  const first = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];
  const { transcript } = humanVs(first.concat(lines));
  assert(transcript.result.winner !== 0);
});

Deno.test("random players are seeded: same seed, same game; another seed, another", () => {
  const g = nimGame({ heaps: [5, 6, 7], misere: false });
  const run = (seed: number) =>
    Effect.runSync(runGame(g, [randomAgent(), randomAgent()], { seed })).transcript.moves
      .map((m) => m.move);
  assertEquals(run(11), run(11));
  const others = [12, 13, 14, 15].map(run);
  assert(others.some((o) => JSON.stringify(o) !== JSON.stringify(run(11))));
});

Deno.test("random-among-best (seed 003) only plays optimal moves, and varies them", () => {
  const g = nimGame({ heaps: [1, 2, 3], misere: false });
  const s = g.initial(); // xor 0: every move loses, so every move is optimal
  const all = bestMoves(evaluate(g, takeTree(6, gameTree(g, s)))).map((e) => e.move);
  const picks = new Set<number>();
  for (let seed = 0; seed < 30; seed++) {
    const c = Effect.runSync(
      randomBestAgent(6).choose(g, s).pipe(Effect.provide(scriptedTerminal([]).layer)),
    );
    assert(c._tag === "Move" && all.includes(c.move));
    picks.add(c._tag === "Move" ? c.move : -1);
  }
  // Run under different seeds of the match runner to see several choices.
  for (let seed = 0; seed < 20; seed++) {
    const t = Effect.runSync(runGame(g, [randomBestAgent(6), randomAgent()], { seed })).transcript;
    picks.add(t.moves[0].move);
    assert(all.includes(t.moves[0].move));
  }
  assert(picks.size > 1, "the choice among best moves is random");
  assertEquals(scoredTree(g, s).label.toMove, 0);
});

Deno.test("a search player wins Nim from a winning position against random", () => {
  const g = nimGame({ heaps: [3, 4, 5], misere: false });
  for (let seed = 0; seed < 5; seed++) {
    const { transcript } = Effect.runSync(
      runGame(g, [searchAgent(alphabetaStrategy, { depth: 12 }), randomAgent()], { seed }),
    );
    assertEquals(transcript.result.winner, 0);
  }
});

Deno.test("the match runner samples chance moves and records them", () => {
  const g = raceGame(6);
  const { transcript } = Effect.runSync(runGame(g, [randomAgent(), randomAgent()], { seed: 4 }));
  assert(transcript.moves.some((m) => m.by === "chance"));
  assertEquals(transcript.result.reason, "end");
});

Deno.test("an illegal move ends the game, with the reason recorded (seed 003)", () => {
  const cheat = {
    name: "cheat",
    choose: () => Effect.succeed({ _tag: "Move" as const, move: 99 }),
  };
  const { transcript } = Effect.runSync(runGame(ttt, [cheat, randomAgent()], { seed: 1 }));
  assertEquals(transcript.result, { winner: 1, margin: 0, reason: "illegal move", by: 0 });
  assertEquals(transcript.moves.length, 0);
});

Deno.test("a move limit stops an endless game", () => {
  const g = nimGame({ heaps: [30, 30], misere: false });
  const { transcript } = Effect.runSync(
    runGame(g, [randomAgent(), randomAgent()], { seed: 1, maxPlies: 3 }),
  );
  assertEquals(transcript.result.reason, "move limit");
  assertEquals(transcript.moves.length, 3);
});
