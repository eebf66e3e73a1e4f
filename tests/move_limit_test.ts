/**
 * The move limit (`runGame`'s `maxPlies`) counts the plies of the line actually played,
 * from the start to the current position: moves a person took back (`undo`) do not count,
 * moves replayed (`redo`) count again, and a loaded session's moves count from where it
 * stands. Random scripts of moves, undos and redos in Nim (two people) and 2048 (one
 * person, a chance move after each slide).
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { type Game, isOver } from "../core/game.ts";
import { makeGame } from "../core/plugin.ts";
import { runGame } from "../app/match.ts";
import type { Agent } from "../app/players/agents.ts";
import { newSession, playMove, plyOf, stateAt } from "../app/session.ts";
import nim from "../plugins/nim/mod.ts";
import game2048 from "../plugins/game2048/mod.ts";

const NIM = Effect.runSync(makeGame(nim, { heaps: [5, 6, 7] })).game as Game<unknown>;
const G2048 = Effect.runSync(makeGame(game2048, { width: 3, height: 3 })).game as Game<unknown>;

/** What the person does at a turn: a move (a pick among the legal ones), undo or redo. */
type Step = { readonly op: "move"; readonly pick: number } | { readonly op: "undo" | "redo" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.double({ min: 0, max: 0.999, noNaN: true }).map((pick) => ({
      op: "move" as const,
      pick,
    })),
  },
  { weight: 2, arbitrary: fc.constantFrom({ op: "undo" as const }, { op: "redo" as const }) },
);

/**
 * A person following `script` (one script for both seats, as two people at one
 * keyboard), then playing the first legal move once it is over.
 */
const person = (script: readonly Step[]): Agent<unknown> => {
  let next = 0;
  return {
    name: "human",
    human: true,
    choose: (game, state) =>
      Effect.sync(() => {
        const step = script[next++];
        if (step !== undefined && step.op !== "move") {
          return { _tag: step.op === "undo" ? "Undo" : "Redo" } as const;
        }
        const legal = game.moves(state);
        return { _tag: "Move", move: legal[Math.floor((step?.pick ?? 0) * legal.length)] } as const;
      }),
  };
};

Deno.test("move limit: the plies of the line played count, not the moves taken back", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(NIM, G2048),
      fc.array(stepArb, { maxLength: 40 }),
      fc.integer({ min: 0, max: 24 }),
      fc.integer({ min: 0, max: 1000 }),
      (game, script, maxPlies, seed) => {
        const p = person(script);
        const { session, transcript, final } = Effect.runSync(
          runGame(game, [p, p], { seed, maxPlies }),
        );
        const line = plyOf(session, session.current);
        const what = `${game.id}, limit ${maxPlies}, ${session.nodes.length - 1} moves in all`;
        assert(line <= maxPlies, `${what}: the line has ${line} plies`);
        if (transcript.result.reason === "move limit") {
          assertEquals(line, maxPlies, `${what}: stopped by the limit after ${line} plies`);
          assert(!isOver(game, final), `${what}: the game was over`);
        } else {
          assertEquals(transcript.result.reason, "end", what);
          assert(isOver(game, final), `${what}: ended, not over`);
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("move limit: a loaded session's moves count from its current position", () => {
  for (const game of [NIM, G2048]) {
    for (const [played, maxPlies] of [[3, 8], [5, 5], [6, 4], [0, 2]]) {
      const session = newSession({ game: game.id, options: {}, seed: 1, players: ["a", "b"] });
      for (let i = 0; i < played; i++) {
        const s = stateAt(game, session);
        const m = game.toMove(s) === "chance" ? game.chances(s)[0].move : game.moves(s)[0];
        playMove(session, { by: game.toMove(s), move: m, notation: game.formatMove(s, m) });
      }
      const nodes = session.nodes.length;
      const p = person([]);
      const { transcript } = Effect.runSync(runGame(game, [p, p], { seed: 2, maxPlies, session }));
      const what = `${game.id}: ${played} plies loaded, limit ${maxPlies}`;
      assertEquals(transcript.result.reason, "move limit", what);
      assertEquals(plyOf(session, session.current), Math.max(played, maxPlies), what);
      assertEquals(session.nodes.length, nodes + Math.max(0, maxPlies - played), what);
    }
  }
});
