/**
 * Random game sessions for the property tests of `app/session.ts` and `app/transcript.ts`:
 * small games (tic-tac-toe, Nim, Kalah, 2048 with its chance moves) and random sequences
 * of plays, undos, redos and jumps, with the players a person plays.
 *
 * @module
 */
import { fc } from "../../testing/deps.ts";
import { Effect } from "../../core/deps.ts";
import { type Game, movesOf, type Player } from "../../core/game.ts";
import { type GamePlugin, makeGame } from "../../core/plugin.ts";
import {
  goTo,
  newSession,
  playMove,
  redo,
  type Session,
  stateAt,
  undo,
} from "../../app/session.ts";
import tictactoe from "../../plugins/tictactoe/mod.ts";
import nim from "../../plugins/nim/mod.ts";
import kalah from "../../plugins/kalah/mod.ts";
import game2048 from "../../plugins/game2048/mod.ts";

const make = <O, S>(plugin: GamePlugin<O, S>, options: Record<string, unknown>): Game<unknown> =>
  Effect.runSync(makeGame(plugin, options)).game as Game<unknown>;

/** The games the sessions are played in. */
export const GAMES: readonly { readonly label: string; readonly game: Game<unknown> }[] = [
  { label: "tictactoe", game: make(tictactoe, {}) },
  { label: "nim", game: make(nim, { heaps: [2, 3] }) },
  { label: "kalah(3,2)", game: make(kalah, { pits: 3, stones: 2 }) },
  { label: "2048 2x2", game: make(game2048, { width: 2, height: 2 }) },
];

/** An operation on a session, with random choices as numbers in [0, 1). */
export type Op =
  | { readonly op: "play"; readonly pick: number }
  | { readonly op: "undo" }
  | { readonly op: "redo" }
  | { readonly op: "goto"; readonly pick: number };

/** A pick spread evenly over [0, 1) (fast-check's doubles favour 0 and the bounds). */
const pickArb = fc.integer({ min: 0, max: 9999 }).map((n) => n / 10000);

/** Random operations: plays most often, then undos, jumps and redos. */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: pickArb.map((pick) => ({ op: "play" as const, pick })) },
  { weight: 3, arbitrary: fc.constant({ op: "undo" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "redo" as const }) },
  { weight: 2, arbitrary: pickArb.map((pick) => ({ op: "goto" as const, pick })) },
);

/** Which players a person plays. */
export const humansArb: fc.Arbitrary<readonly Player[]> = fc.constantFrom<readonly Player[]>(
  [0],
  [1],
  [0, 1],
);

/** Applies random operations to a new session of `game`. */
export const build = (
  game: Game<unknown>,
  ops: readonly Op[],
  humans: readonly Player[],
): Session => {
  const session = newSession({ game: game.id, options: {}, seed: 1, players: ["human", "ai"] });
  const human = (p: Player) => humans.includes(p);
  for (const o of ops) {
    if (o.op === "undo") undo(game, session, human);
    else if (o.op === "redo") redo(game, session, human);
    else if (o.op === "goto") goTo(session, Math.floor(o.pick * session.nodes.length));
    else {
      const s = stateAt(game, session);
      const ms = movesOf(game, s);
      if (ms.length === 0) continue;
      const m = ms[Math.floor(o.pick * ms.length)];
      const by = game.toMove(s);
      playMove(session, { by, move: m, notation: game.formatMove(s, m), ms: 1 });
    }
  }
  return session;
};

/**
 * A game (an index into `GAMES`), up to 80 operations, and the players a person plays.
 * The operations come in every length (fast-check's default size keeps arrays short)
 * and the picks spread evenly: sessions of 11 nodes on average, four in five with a
 * variation, the current node off the main line in two of five (short arrays of
 * 0-biased picks made three nodes on average, a variation in one session of fifty).
 */
export const sessionArb: fc.Arbitrary<
  { readonly g: number; readonly ops: readonly Op[]; readonly humans: readonly Player[] }
> = fc.record({
  g: fc.integer({ min: 0, max: GAMES.length - 1 }),
  ops: fc.array(opArb, { maxLength: 80, size: "max" }),
  humans: humansArb,
});
