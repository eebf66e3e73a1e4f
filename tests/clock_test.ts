/**
 * Clocks (`app/clock.ts`) and clocked games: reading a time control and writing it back,
 * each side's time left read off a session's path (undo, variations, extra turns), how long
 * an AI may think, flag fall in the match runner (a player who never answers loses on
 * time, whatever the machine's speed), each move's time left recorded exactly, transcripts
 * that keep the clocks, and `deno task play --clock` as a person runs it.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, type Game, type Player } from "../core/game.ts";
import {
  afterMove,
  CLOCK_GRAMMAR,
  type ClockView,
  describeClock,
  formatClock,
  formatTime,
  parseClock,
  startTime,
  thinkingTime,
  type TimeControl,
  timeLeft,
} from "../app/clock.ts";
import { runGame } from "../app/match.ts";
import { type Agent, clockedBudget, randomAgent } from "../app/players/agents.ts";
import { goTo, newSession, playMove } from "../app/session.ts";
import { decodeTranscript, exportTranscript, importTranscript } from "../app/transcript.ts";
import { describeResult } from "../app/display.ts";
import { kalahGame } from "../plugins/kalah/game.ts";
import { createGame } from "../plugins/game2048/rules.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";
import { runTask, startTask } from "../testing/task.ts";
import { clockText, leftNow } from "../web/clock_time.ts";

const ttt = tictactoe.create({});
const kalah = kalahGame({ pits: 3, stones: 2, capture: "nonempty", eval: "util" });

const ok = (text: string): TimeControl => {
  const r = parseClock(text);
  if (Result.isFailure(r)) throw new Error(r.failure);
  return r.success;
};
const refusal = (text: string): string => {
  const r = parseClock(text);
  if (Result.isSuccess(r)) throw new Error(`'${text}' was accepted`);
  return r.failure;
};

Deno.test("clock: time controls as players write them", () => {
  assertEquals(ok("5+3"), { kind: "fischer", baseMs: 300_000, incrementMs: 3000 });
  assertEquals(ok("5"), { kind: "fischer", baseMs: 300_000, incrementMs: 0 });
  assertEquals(ok(" 0.5+1.5 "), { kind: "fischer", baseMs: 30_000, incrementMs: 1500 });
  assertEquals(ok(".5+0"), { kind: "fischer", baseMs: 30_000, incrementMs: 0 });
  assertEquals(ok("10s"), { kind: "move", moveMs: 10_000 });
  assertEquals(ok("0.1S"), { kind: "move", moveMs: 100 });
  assertEquals(refusal("5x3"), `'5x3' is not a time control: ${CLOCK_GRAMMAR}`);
  assertEquals(refusal("-1+0"), `'-1+0' is not a time control: ${CLOCK_GRAMMAR}`);
  assertEquals(refusal("5+"), `'5+' is not a time control: ${CLOCK_GRAMMAR}`);
  assertEquals(
    refusal("0+3"),
    "'0+3' has a base time out of range: more than 0 and at most 1440 minutes",
  );
  assertEquals(
    refusal("1441"),
    "'1441' has a base time out of range: more than 0 and at most 1440 minutes",
  );
  assertEquals(refusal("5+3601"), "'5+3601' has an increment out of range: 0 to 3600 seconds");
  assertEquals(refusal("0.05s"), "'0.05s' is not a time a move from 0.1s to 3600s");
  assertEquals(refusal("3601s"), "'3601s' is not a time a move from 0.1s to 3600s");
  assertEquals(describeClock(ok("5+3")), "5 min + 3 s a move");
  assertEquals(describeClock(ok("3")), "3 min");
  assertEquals(describeClock(ok("10s")), "10 s a move");
  assertEquals(startTime(ok("5+3")), 300_000);
  assertEquals(startTime(ok("10s")), 10_000);
});

Deno.test("clock: a control written by formatClock reads back as itself", () => {
  const control = fc.oneof(
    fc.record({
      kind: fc.constant("fischer" as const),
      baseMs: fc.integer({ min: 1, max: 1440 * 60_000 }),
      incrementMs: fc.integer({ min: 0, max: 3_600_000 }),
    }),
    fc.record({
      kind: fc.constant("move" as const),
      moveMs: fc.integer({ min: 100, max: 3_600_000 }),
    }),
  );
  fc.assert(fc.property(control, (c) => {
    assertEquals(ok(formatClock(c)), c);
  }));
});

Deno.test("clock: times on a clock", () => {
  assertEquals(formatTime(0), "0:00.0");
  assertEquals(formatTime(-5), "0:00.0");
  assertEquals(formatTime(7_449), "0:07.4");
  assertEquals(formatTime(19_999), "0:19.9");
  assertEquals(formatTime(20_000), "0:20");
  assertEquals(formatTime(299_200), "4:59");
  assertEquals(formatTime(3_723_000), "1:02:03");
});

Deno.test("clock: the page shows a time as the terminal does, and counts down the running side only", () => {
  fc.assert(fc.property(fc.integer({ min: -1000, max: 100 * 3_600_000 }), (ms) => {
    assertEquals(clockText(ms), formatTime(ms));
  }));
  const c = { text: "", left: [60_000, 50_000] as const, running: 1 as const, elapsed: 2_000 };
  assertEquals(leftNow(c, 0, 5_000), 60_000);
  assertEquals(leftNow(c, 1, 5_000), 43_000);
  assertEquals(leftNow(c, 1, 60_000), 0);
  assertEquals(leftNow({ ...c, running: null }, 1, 5_000), 50_000);
});

Deno.test("clock: the time left after a move, and an AI's share of it", () => {
  const f = ok("1+2");
  assertEquals(afterMove(f, 60_000, 1_500.4), 60_500);
  assertEquals(afterMove(f, 1_000, 5_000), 0);
  assertEquals(afterMove(ok("3s"), 100, 2_000), 3_000);
  const view = fc.oneof(
    fc.record({
      control: fc.record({
        kind: fc.constant("fischer" as const),
        baseMs: fc.integer({ min: 1, max: 10_000_000 }),
        incrementMs: fc.integer({ min: 0, max: 3_600_000 }),
      }),
      leftMs: fc.integer({ min: 1, max: 10_000_000 }),
    }),
    fc.integer({ min: 100, max: 3_600_000 }).map((moveMs): ClockView => ({
      control: { kind: "move", moveMs },
      leftMs: moveMs,
    })),
  );
  fc.assert(fc.property(view, (v) => {
    const t = thinkingTime(v);
    assert(Number.isInteger(t) && t >= 1, `${t}`);
    // Never the whole clock: a margin stays for the search's start and its answer.
    if (v.leftMs >= 10) assert(t < v.leftMs, `${t} of ${v.leftMs}`);
    if (v.control.kind === "move") assert(t <= 0.8 * v.leftMs, `${t} of ${v.leftMs}`);
    else assert(t <= Math.max(1, v.leftMs / 2), `${t} of ${v.leftMs}`);
  }));
  // More time left or a larger increment never gives less thinking time.
  const base = { kind: "fischer", baseMs: 60_000, incrementMs: 0 } as const;
  assert(
    thinkingTime({ control: base, leftMs: 60_000 }) >
      thinkingTime({ control: base, leftMs: 6_000 }),
  );
  assert(
    thinkingTime({ control: { ...base, incrementMs: 2000 }, leftMs: 60_000 }) >
      thinkingTime({ control: base, leftMs: 60_000 }),
  );
});

Deno.test("clock: a search's budget under a clock keeps its depth and gets the clock's time", () => {
  const clock: ClockView = { control: ok("10s"), leftMs: 10_000 };
  assertEquals(clockedBudget({ depth: 9 }, undefined), { depth: 9 });
  assertEquals(clockedBudget({ depth: 9 }, clock), { depth: 9, timeMs: thinkingTime(clock) });
  assertEquals(clockedBudget({ timeMs: 50 }, clock), { timeMs: 50 });
  assertEquals(clockedBudget({ iterations: 500, timeMs: 60_000 }, clock), {
    iterations: 500,
    timeMs: thinkingTime(clock),
  });
});

Deno.test("clock: each side's time left is read off the path (extra turns, undo, variations)", () => {
  const s = newSession({
    game: "kalah",
    options: {},
    seed: 1,
    players: ["a", "b"],
    clock: ok("1+0"),
  });
  assertEquals([timeLeft(s, 0), timeLeft(s, 1)], [60_000, 60_000]);
  const m = (by: Player, clock: number) =>
    playMove(s, { by, move: 1 + clock % 5, notation: "", clock });
  const a1 = m(0, 59_000);
  const a2 = m(0, 58_000); // an extra turn: the same side again
  assertEquals([timeLeft(s, 0), timeLeft(s, 1)], [58_000, 60_000]);
  m(1, 50_000);
  assertEquals([timeLeft(s, 0), timeLeft(s, 1)], [58_000, 50_000]);
  goTo(s, a1); // back: the clocks as they were there
  assertEquals([timeLeft(s, 0), timeLeft(s, 1)], [59_000, 60_000]);
  const v = playMove(s, { by: 1, move: 4, notation: "", clock: 40_000 }); // a variation
  assertEquals(timeLeft(s, 1), 40_000);
  assertEquals(timeLeft(s, 1, a2), 60_000);
  assertEquals(timeLeft(s, 0, v), 59_000);
  playMove(s, { by: CHANCE, move: 0, notation: "" }); // chance has no clock
  assertEquals([timeLeft(s, 0), timeLeft(s, 1)], [59_000, 40_000]);
  const perMove = newSession({
    game: "x",
    options: {},
    seed: 1,
    players: ["a", "b"],
    clock: ok("3s"),
  });
  playMove(perMove, { by: 0, move: 1, notation: "", clock: 3000 });
  assertEquals(timeLeft(perMove, 0), 3000);
  const none = newSession({ game: "x", options: {}, seed: 1, players: ["a", "b"] });
  assertEquals(timeLeft(none, 0), Infinity);
});

/** An agent that never answers (a person who walked away, a search that hangs). */
const stuck = <S>(): Agent<S> => ({ name: "stuck", choose: () => Effect.never });

/** A random agent that records the clock it was shown each time it was asked. */
const recording = <S>(): Agent<S> & { readonly shown: (ClockView | undefined)[] } => {
  const inner = randomAgent<S>();
  const shown: (ClockView | undefined)[] = [];
  return {
    name: "recording",
    shown,
    choose: (game, state, clock) => {
      shown.push(clock);
      return inner.choose(game, state);
    },
  };
};

const run = <S>(
  game: Game<S>,
  agents: readonly [Agent<S>, Agent<S>],
  clock?: TimeControl,
  seed = 1,
) => Effect.runPromise(runGame(game, agents, { seed, ...(clock !== undefined ? { clock } : {}) }));

Deno.test("clock: a side that never moves loses on time; the other side's clock is untouched", async () => {
  for (const p of [0, 1] as const) {
    const agents: [Agent<unknown>, Agent<unknown>] = p === 0
      ? [stuck(), randomAgent()]
      : [randomAgent(), stuck()];
    const { transcript } = await run(ttt as Game<unknown>, agents, ok("0.1s"));
    assertEquals(transcript.result, { winner: p === 0 ? 1 : 0, margin: 0, reason: "time", by: p });
    assertEquals(transcript.moves.length, p);
    assertEquals(transcript.clock, ok("0.1s"));
    assertEquals(
      describeResult(ttt as Game<unknown>, transcript.result),
      `${ttt.players[p]} ran out of time; ${ttt.players[1 - p]} wins.`,
    );
  }
  // Without a clock, the same stuck player is not flagged: the game is interrupted instead.
  const stop = Effect.runPromise(
    runGame(ttt as Game<unknown>, [stuck(), randomAgent()], { seed: 1, interruption: Effect.void }),
  );
  assertEquals((await stop).transcript.result.reason, "interrupted");
});

Deno.test("clock: every move records its mover's time left, exactly as the rule says", async () => {
  for (const control of [ok("0.02+0.005"), ok("1+0"), ok("2s")]) {
    for (let seed = 1; seed <= 5; seed++) {
      const a = recording<readonly number[]>(), b = recording<readonly number[]>();
      const { transcript } = await run(kalah, [a, b], control, seed);
      assertEquals(transcript.result.reason, "end", `seed ${seed}`);
      assertEquals(transcript.clock, control);
      const left = [startTime(control), startTime(control)];
      const asked: number[][] = [[], []];
      for (const mv of transcript.moves) {
        const p = mv.by as Player;
        asked[p].push(left[p]);
        assertEquals(mv.clock, afterMove(control, left[p], mv.ms), `seed ${seed}`);
        left[p] = mv.clock!;
      }
      // What each player was shown is its time left at its turn.
      assertEquals(a.shown.map((c) => c?.leftMs), asked[0]);
      assertEquals(b.shown.map((c) => c?.leftMs), asked[1]);
      assert(a.shown.every((c) => c?.control === control));
    }
  }
  // Chance moves take no time off anyone (2048: the tiles have no clock).
  const g2048 = createGame(3, 3, "gradient");
  const { transcript } = await run(g2048, [randomAgent(), randomAgent()], ok("1+0"));
  const chance = transcript.moves.filter((m) => m.by === CHANCE);
  assert(chance.length > 2 && chance.every((m) => m.clock === undefined));
  assert(transcript.moves.filter((m) => m.by === 0).every((m) => m.clock !== undefined));
  // Without a clock nothing is recorded and nobody is shown one.
  const a = recording<readonly number[]>();
  const plain = await run(kalah, [a, randomAgent()]);
  assert(
    plain.transcript.clock === undefined &&
      plain.transcript.moves.every((m) => m.clock === undefined),
  );
  assert(a.shown.every((c) => c === undefined));
});

Deno.test("clock: a transcript keeps the control and each move's time left", async () => {
  const { transcript } = await run(kalah, [randomAgent(), randomAgent()], ok("5+3"), 7);
  const json = JSON.parse(JSON.stringify(transcript));
  const decoded = decodeTranscript(json);
  assert(Result.isSuccess(decoded));
  const session = importTranscript(kalah, decoded.success);
  assert(Result.isSuccess(session));
  assertEquals(session.success.clock, ok("5+3"));
  assertEquals(exportTranscript(session.success), transcript);
  for (
    const bad of [{ kind: "fischer", baseMs: 0, incrementMs: 0 }, { kind: "move" }, {
      kind: "hourglass",
      moveMs: 5,
    }]
  ) {
    assert(Result.isFailure(decodeTranscript({ ...json, clock: bad })), JSON.stringify(bad));
  }
  assert(Result.isFailure(decodeTranscript({ ...json, moves: [{ ...json.moves[0], clock: -1 }] })));
});

Deno.test("clock: deno task play --clock: a person who does not move loses on time, and the game is saved", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const save = `${dir}/g.json`;
    // Standard input stays open and nobody types: only the clock can end the game.
    const job = startTask([
      "play",
      "tictactoe",
      "--p2",
      "alphabeta",
      "--clock",
      "0.5s",
      "--seed",
      "3",
      "--save",
      save,
    ]);
    const { code, out } = await job.done;
    assertEquals(code, 0, out);
    assertStringIncludes(out, "seed 3, clock 0.5 s a move\n");
    assertStringIncludes(out, "Clock: X 0:00.5, O 0:00.5\n");
    assertStringIncludes(out, "X to move (or help): \nX ran out of time; O wins.\n");
    const saved = JSON.parse(Deno.readTextFileSync(save));
    assertEquals(saved.result, { winner: 1, margin: 0, reason: "time", by: 0 });
    assertEquals(saved.clock, { kind: "move", moveMs: 500 });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("clock: deno task play --clock: moves show the clocks; a wrong control names itself", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const save = `${dir}/g.json`;
    const played = await runTask("play", [
      "tictactoe",
      "--p2",
      "random",
      "--clock",
      "10+5",
      "--seed",
      "1",
      "--save",
      save,
    ], {
      stdin: "b2\n",
    });
    assertStringIncludes(played.stdout, "Clock: X 10:00, O 10:00\n");
    const saved = JSON.parse(Deno.readTextFileSync(save));
    assertEquals(saved.clock, { kind: "fischer", baseMs: 600_000, incrementMs: 5000 });
    // X's move took a moment of its ten minutes and gained five seconds.
    const x = saved.moves[0];
    assertEquals(x.clock, afterMove(saved.clock, 600_000, x.ms));
    assertStringIncludes(played.stdout, `Clock: X ${formatTime(x.clock)}, O 10:00\n`);
    const wrong = await runTask("play", ["tictactoe", "--clock", "5x3"]);
    assertEquals(wrong.code, 2);
    assertStringIncludes(
      wrong.stderr,
      `\nerror: --clock: '5x3' is not a time control: ${CLOCK_GRAMMAR}\n`,
    );
    const loaded = await runTask("play", ["--load", save, "--clock", "1+0"]);
    assertEquals(loaded.code, 2);
    assertStringIncludes(loaded.stderr, "\nerror: --clock: a loaded game keeps its own clock\n");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
