/**
 * Contracts of the match runner (`app/match.ts`): the agent whose turn it is is the one
 * asked (extra turns, chance moves, a solo game), chance outcomes come with their
 * probabilities, `replay` checks who moved, and `maxPlies` counts every ply.
 */
import { assert, assertEquals, assertThrows } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, type Game, type Player, type ToMove } from "../core/game.ts";
import { type Played, replay, runGame, type Transcript } from "../app/match.ts";
import { type Agent, randomAgent } from "../app/players/agents.ts";
import { kalahGame } from "../plugins/kalah/game.ts";
import { createGame } from "../plugins/game2048/rules.ts";
import { decodeTile } from "../plugins/game2048/rules.ts";

const kalah = kalahGame({ pits: 3, stones: 2, capture: "nonempty", eval: "util" });
const g2048 = createGame(3, 3, "gradient");

/** Plays a game to its end (or the limit) with the given agents. */
const play = <S>(
  game: Game<S>,
  agents: readonly [Agent<S>, Agent<S>],
  seed: number,
  maxPlies?: number,
): Played<S> =>
  Effect.runSync(
    runGame(game, agents, { seed, ...(maxPlies !== undefined ? { maxPlies } : {}) }),
  );

/** A random agent that records who was to move each time it was asked. */
const recording = <S>(): Agent<S> & { readonly asked: ToMove[] } => {
  const inner = randomAgent<S>();
  const asked: ToMove[] = [];
  return {
    name: "recording",
    asked,
    choose: (game, state) => {
      asked.push(game.toMove(state));
      return inner.choose(game, state);
    },
  };
};

Deno.test("match contract: the agent whose turn it is is asked (Kalah's extra turns)", () => {
  let extraTurns = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const a = recording<readonly number[]>(), b = recording<readonly number[]>();
    const { transcript } = play(kalah, [a, b], seed);
    assertEquals(transcript.result.reason, "end");
    assert(a.asked.every((p) => p === 0), `seed ${seed}: player 0's agent asked for ${a.asked}`);
    assert(b.asked.every((p) => p === 1), `seed ${seed}: player 1's agent asked for ${b.asked}`);
    const by = transcript.moves.map((m) => m.by);
    assertEquals(a.asked.length, by.filter((p) => p === 0).length);
    assertEquals(b.asked.length, by.filter((p) => p === 1).length);
    for (let i = 1; i < by.length; i++) if (by[i] === by[i - 1]) extraTurns++;
  }
  assert(extraTurns > 10, `the games had extra turns (${extraTurns})`);
});

Deno.test("match contract: in a solo chance game (2048 3x3) only player 0 is asked", () => {
  for (let seed = 1; seed <= 5; seed++) {
    const a = recording<readonly number[]>(), b = recording<readonly number[]>();
    const { transcript } = play(g2048, [a, b], seed);
    assertEquals(transcript.result.reason, "end");
    assertEquals(b.asked, []);
    assert(a.asked.every((p) => p === 0));
    const by = transcript.moves.map((m) => m.by);
    assertEquals(a.asked.length, by.filter((p) => p === 0).length);
    assert(by.filter((p) => p === CHANCE).length > 0);
  }
});

/** |count - n p| within 5 standard deviations of the binomial. */
const assertFrequency = (count: number, n: number, p: number, what: string) => {
  const sd = Math.sqrt(n * p * (1 - p));
  assert(
    Math.abs(count - n * p) <= 5 * sd,
    `${what}: ${count} of ${n}, expected ${(n * p).toFixed(1)} ± ${(5 * sd).toFixed(1)}`,
  );
};

/** A game of `n` chance moves in a row, each drawn from `outcomes`; then it is over. */
const dice = (
  n: number,
  outcomes: readonly number[],
): Game<readonly number[]> => ({
  id: "dice",
  players: ["A", "B"],
  initial: () => [0],
  toMove: (s) => (s[0] < n ? CHANCE : 0),
  moves: () => [],
  chances: (s) => (s[0] < n ? outcomes.map((p, move) => ({ move, p })) : []),
  play: (s, _m) => [s[0] + 1],
  outcome: (s) => (s[0] < n ? undefined : { winner: null, margin: 0 }),
  value: () => 0,
  render: (s) => `${s[0]}\n`,
  formatMove: (_s, m) => `face ${m}`,
  parseMove: (_s, t) => Result.succeed(Number(t)),
});

Deno.test("match contract: chance outcomes are drawn with their probabilities", () => {
  // A custom chance game: 4000 draws of four outcomes.
  const ps = [0.5, 0.3, 0.15, 0.05];
  const n = 4000;
  const { transcript } = play(dice(n, ps), [randomAgent(), randomAgent()], 7);
  assertEquals(transcript.moves.length, n);
  for (const [face, p] of ps.entries()) {
    const count = transcript.moves.filter((m) => m.move === face).length;
    assertFrequency(count, n, p, `face ${face}`);
  }
  // 2048 on a 3x3 grid: a new tile is a 2 with probability 0.9, a 4 with 0.1.
  let twos = 0, tiles = 0;
  for (let seed = 1; tiles < 2000; seed++) {
    const { transcript } = play(g2048, [randomAgent(), randomAgent()], seed);
    for (const m of transcript.moves) {
      if (m.by !== CHANCE) continue;
      tiles++;
      if (decodeTile(m.move).value === 2) twos++;
    }
  }
  assertFrequency(twos, tiles, 0.9, "2048's twos");
});

/** A transcript with one move's `by` replaced. */
const withBy = (t: Transcript, i: number, by: ToMove): Transcript => ({
  ...t,
  moves: t.moves.map((m, j) => (j === i ? { ...m, by } : m)),
});

Deno.test("match contract: replay accepts the true movers and refuses a wrong `by`", () => {
  const other = (p: Player): Player => (p === 0 ? 1 : 0);
  // Kalah: with extra turns, the same move number is legal for either side.
  for (let seed = 1; seed <= 10; seed++) {
    const { transcript, final } = play(kalah, [randomAgent(), randomAgent()], seed);
    assertEquals(replay(kalah, transcript), final);
    assertEquals(replay(kalah, JSON.parse(JSON.stringify(transcript))), final);
    transcript.moves.forEach((m, i) => {
      const wrong = withBy(transcript, i, other(m.by as Player));
      assertThrows(() => replay(kalah, wrong), RangeError, `move ${i + 1}`);
    });
  }
  // 2048: a chance move claimed by a player, and a player's move claimed by chance.
  const { transcript, final } = play(g2048, [randomAgent(), randomAgent()], 3);
  assertEquals(replay(g2048, transcript), final);
  const chanceAt = transcript.moves.findIndex((m) => m.by === CHANCE);
  const playerAt = transcript.moves.findIndex((m) => m.by === 0);
  assertThrows(() => replay(g2048, withBy(transcript, chanceAt, 0)), RangeError);
  assertThrows(() => replay(g2048, withBy(transcript, chanceAt, 1)), RangeError);
  assertThrows(() => replay(g2048, withBy(transcript, playerAt, CHANCE)), RangeError);
  assertThrows(() => replay(g2048, withBy(transcript, playerAt, 1)), RangeError);
});

Deno.test("match contract: maxPlies counts every ply, chance plies included", () => {
  // 2048 3x3: the game starts with a chance move, and one follows every slide.
  const full = play(g2048, [randomAgent(), randomAgent()], 5).transcript;
  assert(full.moves.length > 30);
  for (let limit = 0; limit <= 30; limit++) {
    const { transcript, final } = play(g2048, [randomAgent(), randomAgent()], 5, limit);
    assertEquals(transcript.moves.length, limit, `maxPlies ${limit}`);
    assertEquals(transcript.result.reason, "move limit");
    // The same game, cut: the same moves as the full one, and it replays.
    assertEquals(
      transcript.moves,
      full.moves.slice(0, limit).map((m, i) => ({
        ...m,
        ms: transcript.moves[i].ms,
      })),
    );
    assertEquals(replay(g2048, transcript), final);
  }
  // A game of chance moves only: the limit stops it too.
  const { transcript } = play(dice(50, [0.5, 0.5]), [randomAgent(), randomAgent()], 1, 7);
  assertEquals(transcript.moves.length, 7);
  assertEquals(transcript.result.reason, "move limit");
  // A game that ends on its last allowed ply ends as usual.
  const ends = play(dice(7, [0.5, 0.5]), [randomAgent(), randomAgent()], 1, 7).transcript;
  assertEquals(ends.result.reason, "end");
});
