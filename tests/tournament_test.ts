/**
 * The tournament machinery (`app/tournament/`): the schedule, the openings, the runner
 * (concurrency, halts, faults retried and kept) and the tally (faulted games left out); and the output folder of the programs
 * (`app/series.ts`: resume, a cut-short line, another series refused).
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { openGame } from "../mod.ts";
import { makeGame } from "../core/plugin.ts";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, type Game, isOver, WIN_THRESHOLD } from "../core/game.ts";
import { replay } from "../app/match.ts";
import { type Agent, randomAgent, searchAgent } from "../app/players/agents.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import {
  bookOpenings,
  fixedOpenings,
  type Opening,
  type Openings,
  randomOpenings,
  START,
} from "../app/tournament/openings.ts";
import {
  distinctOpenings,
  pairCounter,
  resultsTally,
  tallyResults,
} from "../app/tournament/results.ts";
import {
  type Entrant,
  type GameRecord,
  OPENING_AGENT,
  runFixtures,
} from "../app/tournament/runner.ts";
import {
  fixtureAt,
  type Format,
  pairings,
  schedule,
  scheduleSize,
} from "../app/tournament/schedule.ts";
import { eloFromPentanomial } from "../app/tournament/stats.ts";
import type { Transcript } from "../app/transcript.ts";
import kalah from "../plugins/kalah/mod.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";
import { faultedGames, faultsText, retriedGames, tooManyFaults } from "../app/series.ts";
import { fileLines, openStore, type Store } from "../app/tournament/folder.ts";

// ---------------------------------------------------------------------------------
// Schedule

Deno.test("schedule: every pairing plays each round's opening twice, the sides swapped", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 7 }),
      fc.integer({ min: 1, max: 5 }),
      fc.constantFrom<Format>("round-robin", "gauntlet"),
      fc.integer({ min: 0, max: 1000 }),
      (n, rounds, format, seed) => {
        const ps = pairings(n, format);
        assertEquals(ps.length, format === "round-robin" ? (n * (n - 1)) / 2 : n - 1);
        if (format === "gauntlet") assert(ps.every(([a]) => a === 0));
        const fs = schedule(n, format, rounds, seed);
        assertEquals(fs.length, rounds * ps.length * 2);
        assertEquals(new Set(fs.map((f) => f.id)).size, fs.length, "ids are unique");
        assertEquals(fs.map((f) => f.seed), fs.map((_, i) => seed + i), "game i: seed + i");
        for (let i = 0; i < fs.length; i += 2) {
          const [x, y] = [fs[i], fs[i + 1]];
          assertEquals([x.round, x.pairing], [y.round, y.pairing]);
          assertEquals([x.swapped, y.swapped], [false, true]);
          assertEquals(x.seats, ps[x.pairing]);
          assertEquals([...y.seats].reverse(), [...x.seats]);
        }
        // A game is made from its index alone: the same in a schedule of a million rounds
        // (a cluster's plan keeps no list), so more rounds extend a tournament.
        const big = { players: n, format, rounds: 1_000_000, seed };
        assertEquals(scheduleSize(big), 1_000_000 * ps.length * 2);
        for (const [i, f] of fs.entries()) assertEquals(fixtureAt(big, i), f);
      },
    ),
  );
});

// ---------------------------------------------------------------------------------
// Openings

/** A two-player game that starts with a coin toss (a chance move), then 6 plies. */
const coinGame: Game<readonly [number, number]> = {
  id: "coin",
  players: ["a", "b"],
  initial: () => [0, -1],
  toMove: ([ply]) => (ply === 0 ? CHANCE : ((ply - 1) % 2) as 0 | 1),
  moves: ([ply]) => (ply === 0 || ply > 6 ? [] : [0, 1, 2]),
  chances: ([ply]) => (ply === 0 ? [{ move: 0, p: 0.5 }, { move: 1, p: 0.5 }] : []),
  play: ([ply, coin], m) => [ply + 1, ply === 0 ? m : coin],
  value: () => 0,
  outcome: ([ply]) => (ply > 6 ? { winner: null, margin: 0 } : undefined),
  formatMove: ([ply], m) => (ply === 0 ? `coin${m}` : `m${m}`),
  render: ([ply, coin]) => `ply ${ply}, coin ${coin}`,
  parseMove: (_s, t) => Result.succeed(Number(t.replace(/\D/g, ""))),
};

Deno.test("random openings: seeded, distinct, legal, and not decided (exactly, where small)", () => {
  const ttt = tictactoe.create({});
  const small = Effect.runSync(makeGame(kalah, { pits: 3, stones: 2 })).game as Game<unknown>;
  for (const [game, plies] of [[ttt, 5], [small, 4]] as [Game<unknown>, number][]) {
    const take = (seed: number, n: number) => {
      const openings = randomOpenings(game, plies, seed);
      return Array.from({ length: n }, (_, i) => Effect.runSync(openings.at(i)));
    };
    const a = take(7, 20);
    assertEquals(take(7, 20), a, "the same seed, the same openings");
    assertEquals(take(7, 5), a.slice(0, 5), "the first ones whatever the number of rounds");
    assert(JSON.stringify(take(8, 20)) !== JSON.stringify(a), "another seed, others");
    assertEquals(new Set(a.map((o) => o.moves.join())).size, 20, "distinct");
    for (const o of a) {
      assertEquals(o.moves.length, plies);
      let end = game.initial();
      for (const m of o.moves) {
        const legal = game.toMove(end) === CHANCE
          ? game.chances(end).map((c) => c.move)
          : game.moves(end);
        assert(legal.includes(m), `${o.notation.join(" ")} is legal`);
        end = game.play(end, m);
      }
      assert(!isOver(game, end));
      // Independently of the generator's alpha-beta: plain minimax finds nothing decided.
      const v = minimaxSearch(game, end, { depth: 2 }, "expect").value;
      assert(Math.abs(v) < WIN_THRESHOLD, `${o.notation.join(" ")} is decided: ${v}`);
      if (game === ttt) {
        // Tic-tac-toe after 5 plies is small: solved to its end, it is a draw.
        const exact = minimaxSearch(game, end, { depth: 9 }, "expect");
        assert(exact.exact && exact.value === 0, `${o.notation.join(" ")}: ${exact.value}`);
      }
    }
  }
  // A game with chance: openings draw its outcomes too.
  const coinOpenings = randomOpenings(coinGame, 3, 1);
  const coins = Array.from({ length: 10 }, (_, i) => Effect.runSync(coinOpenings.at(i)));
  assertEquals(new Set(coins.map((o) => o.notation[0])), new Set(["coin0", "coin1"]));
  // Fewer distinct openings than asked: the ones there are, repeated in order.
  const few = randomOpenings(coinGame, 1, 1);
  const at = (o: Openings, r: number) => Effect.runSync(o.at(r));
  assertEquals(at(few, 2), at(few, 0));
  assertEquals(at(few, 3), at(few, 1));
  assertEquals(new Set([0, 1, 2, 3].map((r) => at(few, r).notation.join())).size, 2);
  assertEquals(at(randomOpenings(ttt, 0, 1), 3), START);
});

Deno.test("book openings: one line each, comments skipped, a bad move named by file and line", () => {
  const game = tictactoe.create({});
  const ok = bookOpenings(game, "# a comment\nb2, a1\n\na1 c3 b1\n", "book.txt");
  assert(Result.isSuccess(ok));
  assertEquals(ok.success.map((o: Opening) => o.notation.join(" ")), ["b2 a1", "a1 c3 b1"]);
  const bad = bookOpenings(game, "b2 a1\nb2 b2\n", "book.txt");
  assert(Result.isFailure(bad));
  assertStringIncludes(bad.failure, "book.txt:2: move 2 'b2'");
  const over = bookOpenings(game, "a1 b1 a2 b2 a3\n", "book.txt");
  assert(Result.isFailure(over) && over.failure.includes("book.txt:1: the game is over"));
  assert(Result.isFailure(bookOpenings(game, "# nothing\n", "empty.txt")));
});

// ---------------------------------------------------------------------------------
// The runner

const ttt = tictactoe.create({});
const entrant = (name: string, make: () => Agent<unknown>): Entrant<unknown, never> => ({
  name,
  agent: () => make(),
});
const ENTRANTS = [
  entrant("alphabeta:9", () => searchAgent(alphabetaStrategy, { depth: 9 })),
  entrant("alphabeta:1", () => searchAgent(alphabetaStrategy, { depth: 1 })),
  entrant("random", () => randomAgent()),
];
const OPENINGS = randomOpenings(ttt, 2, 3);

const runAll = (concurrency: number, halt: Effect.Effect<void> = Effect.never) => {
  const records: GameRecord[] = [];
  const end = Effect.runPromise(
    runFixtures({
      game: ttt as Game<unknown>,
      gameId: "tictactoe",
      options: {},
      entrants: ENTRANTS,
      fixtures: schedule(3, "round-robin", 2, 11),
      openings: OPENINGS,
      maxPlies: 100,
      ttMb: 1,
    }, {
      concurrency,
      halt,
      onGame: (r) => Effect.sync(() => records.push(r) < 0),
    }),
  );
  return { records, end };
};

Deno.test("runner: every game played from its opening, the same games at any concurrency", async () => {
  const one = runAll(1), three = runAll(3);
  assertEquals((await one.end).halted, false);
  assertEquals((await three.end).halted, false);
  assertEquals(one.records.length, 12);
  const byId = (rs: GameRecord[]) =>
    Object.fromEntries(rs.map((r) => [r.id, r.transcript.moves.map((m) => m.notation).join(" ")]));
  assertEquals(byId(three.records), byId(one.records));
  for (const r of one.records) {
    const t = r.transcript;
    assertEquals(t.players, [ENTRANTS[r.seats[0]].name, ENTRANTS[r.seats[1]].name]);
    const opening = Effect.runSync(OPENINGS.at(r.round));
    assertEquals(t.moves.slice(0, 2).map((m) => m.notation), [...opening.notation]);
    assert(t.moves.slice(0, 2).every((m) => m.agent === OPENING_AGENT));
    assert(t.moves.slice(2).every((m) => m.agent !== OPENING_AGENT));
    assert(isOver(ttt, replay(ttt, t)), "each transcript replays to its end");
    assertEquals(t.result.reason, "end");
  }
});

Deno.test("runner: a stop abandons the games in progress and starts no other", async () => {
  const stopAt = async (concurrency: number, after: number) => {
    const records: GameRecord[] = [];
    let made = 0; // players made: two per game started
    // Each move yields first, so that games in progress take turns as searches in workers do.
    const counted = ENTRANTS.map((e) => ({
      ...e,
      agent: () => {
        made++;
        const inner = e.agent(undefined);
        return {
          ...inner,
          choose: (g: Game<unknown>, s: unknown) =>
            Effect.andThen(Effect.yieldNow, inner.choose(g, s)),
        };
      },
    }));
    const end = await Effect.runPromise(
      runFixtures({
        game: ttt as Game<unknown>,
        gameId: "tictactoe",
        options: {},
        entrants: counted,
        fixtures: schedule(3, "round-robin", 2, 11),
        openings: OPENINGS,
        maxPlies: 100,
        ttMb: 1,
      }, {
        concurrency,
        halt: Effect.never,
        // A game asks to stop (as a decided SPRT does).
        onGame: (r) => Effect.sync(() => records.push(r) === after),
      }),
    );
    return { end, records, games: made / 2 };
  };
  const one = await stopAt(1, 3);
  assertEquals(one.end.halted, true);
  assertEquals(one.records.length, 3, "one at a time: the third game's stop ends the series");
  assertEquals(one.games, 3, "no game started after it");
  // Two at a time: the game in progress when the first ends is abandoned, not recorded.
  const two = await stopAt(2, 1);
  assertEquals(two.records.length, 1);
  assertEquals(two.games, 2);
});

Deno.test("runner: a game that fails is retried once, then kept as faulted; the run goes on", async () => {
  const loaded = await Effect.runPromise(openGame("./tests/fixtures/throwing.ts"));
  const records: GameRecord[] = [];
  const traces: (string | undefined)[] = [];
  let made = 0; // players made: two per attempt
  const counted = (name: string) =>
    entrant(name, () => {
      made++;
      return randomAgent();
    });
  const run = (stopAfter: number) =>
    Effect.runPromise(
      runFixtures({
        game: loaded.game,
        gameId: loaded.specifier,
        options: {},
        entrants: [counted("random"), counted("r2")],
        fixtures: schedule(2, "round-robin", 3, 1),
        openings: fixedOpenings([START]),
        maxPlies: 100,
        ttMb: 1,
      }, {
        concurrency: 2,
        halt: Effect.never,
        onGame: (r, trace) =>
          Effect.sync(() => (traces.push(trace), records.push(r) === stopAfter)),
      }),
    );
  // Every game of throwing.ts throws: each is played twice, then handed over as faulted.
  const end = await run(-1);
  assertEquals(end.halted, false);
  assertEquals(end.fault, undefined, "the run was not stopped");
  assertEquals(records.length, 6);
  assertEquals(made, 6 * 2 * 2, "two players per attempt, two attempts per game");
  for (const r of records) {
    assertStringIncludes(r.fault ?? "", "failed in play(): boom: the heaps fell over");
    assert(!r.fault!.includes("\n"), "one line");
    assertEquals(r.retried, undefined);
    assertEquals(r.transcript.result.reason, "error");
    assert(r.transcript.moves.length >= 1, "the moves before the fault are kept");
  }
  assert(traces.every((t) => t !== undefined && t.includes("throwing.ts")), "the stacks");
  // onGame stopping on a faulted game: the run ends there, naming it.
  records.length = 0;
  const stopped = await run(1);
  assertEquals(stopped.halted, true);
  assertEquals(records.length, 1);
  assertEquals(stopped.fault?.id, records[0].id);
  assertStringIncludes(stopped.fault?.message ?? "", "boom: the heaps fell over");
});

Deno.test("runner: a fault that passes on the retry is a finished game, its first reason kept", async () => {
  const loaded = await Effect.runPromise(openGame("./tests/fixtures/flaky.ts"));
  const records: GameRecord[] = [];
  const end = await Effect.runPromise(
    runFixtures({
      game: loaded.game,
      gameId: loaded.specifier,
      options: {},
      entrants: [entrant("random", () => randomAgent()), entrant("r2", () => randomAgent())],
      fixtures: schedule(2, "round-robin", 2, 1),
      openings: fixedOpenings([START]),
      maxPlies: 100,
      ttMb: 1,
    }, {
      concurrency: 1,
      halt: Effect.never,
      onGame: (r) => Effect.sync(() => records.push(r) < 0),
    }),
  );
  assertEquals(end.halted, false);
  assertEquals(records.map((r) => r.fault), [undefined, undefined, undefined, undefined]);
  // The first game met the fault (once a process), its retry finished; the others did not.
  assertStringIncludes(records[0].retried ?? "", "boom: a passing fault");
  assertEquals(records.slice(1).map((r) => r.retried), [undefined, undefined, undefined]);
  assert(records.every((r) => r.transcript.result.reason === "end"));
});

// ---------------------------------------------------------------------------------
// The tally

/** A record of a game between entrants `seats` that `winner` won, with `moves`. */
const rec = (
  id: string,
  round: number,
  pairing: number,
  seats: [number, number],
  winner: 0 | 1 | null,
  moves = [id.length, round],
  reason = "end",
): GameRecord => ({
  id,
  round,
  pairing,
  seats,
  seed: round,
  ms: 1,
  transcript: {
    game: "x",
    options: {},
    seed: round,
    players: ["a", "b"],
    moves: moves.map((move) => ({ by: 0, move, notation: `${move}`, ms: 2 })),
    result: { winner, margin: 0, reason },
  } as Transcript,
});

Deno.test("tally: W/D/L per side, game pairs, seats, move-limit draws and repeats", () => {
  const names = ["A", "B", "C"];
  const ps = pairings(3, "round-robin"); // A-B, A-C, B-C
  const records = [
    // A-B: round 0, A wins both (a pair worth 2); round 1, A wins as first, draws as second.
    rec("r0-p0-a", 0, 0, [0, 1], 0),
    rec("r0-p0-b", 0, 0, [1, 0], 1),
    rec("r1-p0-a", 1, 0, [0, 1], 0, [1, 2, 3]),
    rec("r1-p0-b", 1, 0, [1, 0], null, [1, 2, 3], "move limit"),
    // A-C: one game only (its pair incomplete): C wins as first.
    rec("r0-p1-b", 0, 1, [2, 0], 0),
    // B-C: a pair, repeated move for move in round 1.
    rec("r0-p2-a", 0, 2, [1, 2], 1, [9, 9]),
    rec("r0-p2-b", 0, 2, [2, 1], 1, [8, 8]),
    rec("r1-p2-b", 1, 2, [2, 1], 1, [8, 8]),
    rec("r1-p2-a", 1, 2, [1, 2], 1, [9, 9]),
  ];
  const r = tallyResults(names, ps, records, 0);
  const ab = r.pairings.find((p) => p.players[0] === 0 && p.players[1] === 1)!;
  assertEquals(ab.wdl, { wins: 3, draws: 1, losses: 0 });
  assertEquals(ab.bySide, [{ wins: 2, draws: 0, losses: 0 }, { wins: 1, draws: 1, losses: 0 }]);
  assertEquals(ab.pentanomial, [0, 0, 0, 1, 1]);
  assertEquals(ab.elo, eloFromPentanomial([0, 0, 0, 1, 1]));
  const ac = r.pairings.find((p) => p.players[1] === 2 && p.players[0] === 0)!;
  assertEquals(ac.pentanomial, [0, 0, 0, 0, 0]);
  assertEquals(ac.elo, ac.eloGames, "no complete pair: the games' estimate");
  const bc = r.pairings.find((p) => p.players[0] === 1)!;
  assertEquals(bc.wdl, { wins: 2, draws: 0, losses: 2 });
  assertEquals(bc.pentanomial, [0, 0, 2, 0, 0]);
  assertEquals(r.seats, { first: 3, draws: 1, second: 5 });
  assertEquals(r.moveLimit, 1);
  assertEquals(r.adjudicated, 0);
  assertEquals(r.repeated, [{ id: "r1-p2-a", sameAs: "r0-p2-a" }, {
    id: "r1-p2-b",
    sameAs: "r0-p2-b",
  }]);
  assertEquals(r.players.map((p) => p.points), [3.5, 2.5, 3]);
  assertEquals(r.score[0][1], 3.5 / 4);
  assertEquals(r.score[1][0], 0.5 / 4);
  assertEquals(r.games[2][0], 1);
  assertEquals(r.total, 9);
  assertEquals(r.ratings.anchor, 0);
  assertEquals(r.ratings.elo[0], 0);
  // Early in a tournament: a player who has not played yet leaves everyone unrated.
  const early = tallyResults(names, ps, records.slice(0, 4), 0);
  assertEquals(early.ratings.error, [Infinity, Infinity, Infinity]);
  // Four players in two groups that never met (A-B and C-D only): no common scale either.
  const apart = tallyResults(
    ["A", "B", "C", "D"],
    [[0, 1], [2, 3]],
    [rec("r0-p0-a", 0, 0, [0, 1], 0), rec("r0-p1-a", 0, 1, [2, 3], null)],
    0,
  );
  assertEquals(apart.ratings.error.every((e) => e === Infinity), true);
});

// ---------------------------------------------------------------------------------
// The output folder

Deno.test("tally: faulted games count nowhere, and a pair with one is left out whole", () => {
  const names = ["A", "B"];
  const ps = pairings(2, "round-robin");
  const faulted = (r: GameRecord): GameRecord => ({ ...r, fault: "plugin ./x.ts failed" });
  const records = [
    rec("r0-p0-a", 0, 0, [0, 1], 0),
    rec("r0-p0-b", 0, 0, [1, 0], 1), // a whole pair: A scores 2
    rec("r1-p0-a", 1, 0, [0, 1], 0),
    faulted(rec("r1-p0-b", 1, 0, [1, 0], null)), // half a pair: r1 left out
    faulted(rec("r2-p0-a", 2, 0, [0, 1], null)),
    faulted(rec("r2-p0-b", 2, 0, [1, 0], null)), // both faulted
    faulted(rec("r3-p0-a", 3, 0, [0, 1], null)), // its other game not played
  ];
  const r = tallyResults(names, ps, records, 0);
  const [ab] = r.pairings;
  assertEquals(r.total, 3);
  assertEquals(ab.games, 3);
  assertEquals(ab.wdl, { wins: 3, draws: 0, losses: 0 }, "a faulted game is no draw");
  assertEquals(ab.pentanomial, [0, 0, 0, 0, 1]);
  assertEquals(ab.faultedPairs, 3);
  assertEquals(r.players.map((p) => p.games), [3, 3]);
  assertEquals(r.seats, { first: 2, draws: 0, second: 1 });
  // Counted as they come in, in any order, the same pairs.
  for (const order of [records, [...records].reverse()]) {
    const pc = pairCounter(0);
    for (const x of order) pc.add(x);
    assertEquals([pc.counts(), pc.faulted()], [[0, 0, 0, 0, 1], 3]);
  }
  // No faults: nothing left out.
  assertEquals(tallyResults(names, ps, records.slice(0, 2), 0).pairings[0].faultedPairs, 0);
});

Deno.test("property: the tally, in any order and game by game, is what the games say", () => {
  // A tournament's games with few distinct moves (so some repeat), some faulted, some
  // opened by the book; the tally of them shuffled, and of each prefix as it comes in,
  // against counts made here from the records themselves.
  const game = fc.record({
    winner: fc.constantFrom<0 | 1 | null>(0, 1, null),
    moves: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 2 }),
    opened: fc.integer({ min: 0, max: 2 }),
    ms: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 3, maxLength: 3 }),
    fault: fc.integer({ min: 0, max: 5 }).map((x) => x === 0),
    reason: fc.constantFrom("end", "move limit", "adjudicated"),
    present: fc.integer({ min: 0, max: 5 }), // 0: not played yet
  });
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 4 }),
      fc.integer({ min: 1, max: 3 }),
      fc.array(game, { minLength: 36, maxLength: 36 }),
      fc.infiniteStream(fc.nat()),
      (n, rounds, games, shuffle) => {
        const names = ["A", "B", "C", "D"].slice(0, n);
        const ps = pairings(n, "round-robin");
        const records: GameRecord[] = [];
        for (const [i, f] of schedule(n, "round-robin", rounds, 0).entries()) {
          const g = games[i % games.length];
          if (g.present === 0) continue;
          const r = rec(f.id, f.round, f.pairing, [...f.seats], g.winner, g.moves, g.reason);
          const moves = r.transcript.moves.map((m, i) => ({
            ...m,
            by: (i % 2) as 0 | 1,
            ms: g.ms[i],
            ...(i < g.opened ? { agent: OPENING_AGENT } : {}),
          }));
          records.push({
            ...r,
            ...(g.fault ? { fault: "plugin ./x.ts failed" } : {}),
            transcript: { ...r.transcript, moves },
          });
        }
        const order = [...records];
        const picks = shuffle[Symbol.iterator]();
        for (let i = order.length - 1; i > 0; i--) {
          const j = picks.next().value % (i + 1);
          [order[i], order[j]] = [order[j], order[i]];
        }
        const whole = tallyResults(names, ps, records, 0);
        assertEquals(tallyResults(names, ps, order, 0), whole, "the order does not count");
        const tally = resultsTally(names, ps, 0);
        order.forEach((r, i) => {
          tally.add(r);
          if (i % 7 === 0) {
            assertEquals(tally.results(), tallyResults(names, ps, order.slice(0, i + 1), 0));
          }
        });
        assertEquals(tally.results(), whole);

        const played = records.filter((r) => r.fault === undefined);
        assertEquals(whole.total, played.length);
        assertEquals(whole.distinctOpenings, distinctOpenings(records));
        assertEquals(
          whole.moveLimit,
          played.filter((r) => r.transcript.result.reason === "move limit").length,
        );
        assertEquals(
          whole.adjudicated,
          played.filter((r) => r.transcript.result.reason === "adjudicated").length,
        );
        const plies = played.reduce((t, r) => t + r.transcript.moves.length, 0);
        assertEquals(
          whole.meanPlies,
          played.length === 0 ? 0 : Math.round((plies / played.length) * 100) / 100,
        );
        const won = (w: 0 | 1 | null) =>
          played.filter((r) => r.transcript.result.winner === w).length;
        assertEquals(whole.seats, { first: won(0), draws: won(null), second: won(1) });
        for (const [p, player] of whole.players.entries()) {
          const mine = played.filter((r) => r.seats.includes(p));
          assertEquals(player.games, mine.length);
          const points = mine.reduce((t, r) => {
            const w = r.transcript.result.winner;
            return t + (w === null ? 0.5 : r.seats[w] === p ? 1 : 0);
          }, 0);
          assertEquals(player.points, points);
          const own = mine.flatMap((r) =>
            r.transcript.moves.filter((m) =>
              m.by === r.seats.indexOf(p) && m.agent !== OPENING_AGENT
            )
          );
          const ms = own.reduce((t, m) => t + m.ms, 0);
          assertEquals(
            player.msPerMove,
            own.length === 0 ? 0 : Math.round((ms / own.length) * 100) / 100,
          );
        }
        for (const pr of whole.pairings) {
          const i = ps.findIndex(([a, b]) => a === pr.players[0] && b === pr.players[1]);
          assertEquals(pr.games, played.filter((r) => r.pairing === i).length);
          const spoiled = new Set(
            records.filter((r) => r.pairing === i && r.fault !== undefined).map((r) => r.round),
          );
          assertEquals(pr.faultedPairs, spoiled.size);
          // By the seat the first of the two held: its wins, draws and losses there.
          for (const seat of [0, 1] as const) {
            const there = played.filter((r) => r.pairing === i && r.seats[seat] === pr.players[0]);
            const w = (x: 0 | 1 | null) =>
              there.filter((r) => r.transcript.result.winner === x).length;
            assertEquals(pr.bySide[seat], {
              wins: w(seat),
              draws: w(null),
              losses: w(seat === 0 ? 1 : 0),
            });
          }
        }
        // A repeat: the same seats and moves as a game earlier in the schedule, which it
        // names (the earliest of them); every other game is an original.
        const key = (r: GameRecord) => `${r.seats}|${r.transcript.moves.map((m) => m.move)}`;
        const want = played.flatMap((r, i) => {
          const first = played.find((x) => key(x) === key(r));
          return first !== undefined && played.indexOf(first) < i
            ? [{ id: r.id, sameAs: first.id }]
            : [];
        });
        assertEquals(whole.repeated, want);
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("series: more than --max-faults faulted games is one line; the faulted games listed", () => {
  assertEquals(
    tooManyFaults(11, 10, "plugin ./x.ts failed in moves(): boom"),
    "11 games faulted (more than --max-faults 10); the last: plugin ./x.ts failed in moves(): boom",
  );
  assertEquals(tooManyFaults(1, 0, "x"), "1 game faulted (more than --max-faults 0); the last: x");
  const opening = (r: GameRecord): GameRecord => ({
    ...r,
    fault: `${r.id} failed`,
    transcript: {
      ...r.transcript,
      moves: r.transcript.moves.map((m, i) => i === 0 ? { ...m, agent: OPENING_AGENT } : m),
    },
  });
  const records = [
    opening(rec("r1-p0-a", 1, 0, [0, 1], null, [7, 8, 9])),
    rec("r0-p0-a", 0, 0, [0, 1], 0),
    opening(rec("r0-p0-b", 0, 0, [1, 0], null, [5])),
    { ...rec("r2-p0-a", 2, 0, [0, 1], 1), retried: "boom once" },
  ];
  const list = faultedGames(records, { faultedFile: (id) => `out/faulted/${id}.json` });
  assertEquals(list, [
    {
      id: "r0-p0-b",
      round: 0,
      opening: "5",
      players: ["a", "b"],
      plies: 1,
      reason: "r0-p0-b failed",
      transcript: "out/faulted/r0-p0-b.json",
    },
    {
      id: "r1-p0-a",
      round: 1,
      opening: "7",
      players: ["a", "b"],
      plies: 3,
      reason: "r1-p0-a failed",
      transcript: "out/faulted/r1-p0-a.json",
    },
  ]);
  const text = faultsText(list, retriedGames(records), ["first", "second"]);
  assertStringIncludes(text, "faulted games (failed twice, left out of the results): 2\n");
  assertStringIncludes(
    text,
    "r0-p0-b: opening '5', a as first, b as second, after 1 plies: r0-p0-b failed " +
      "(moves in out/faulted/r0-p0-b.json)",
  );
  assertStringIncludes(text, "passed on the retry: 1 game (r2-p0-a; the first: boom once)");
  assertEquals(faultsText([], [], ["first", "second"]), "");
});

/** The games a folder keeps, read back through its stream. */
const kept = (store: Store): GameRecord[] => {
  const records: GameRecord[] = [];
  store.done.each((r) => records.push(r));
  return records;
};

Deno.test("output folder: games kept one per line, a cut-short line dropped, another series refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ply-series-" });
  try {
    const settings = { series: "tournament", players: ["a", "b"], seed: 1 };
    const store = Effect.runSync(Effect.scoped(openStore(dir, settings)));
    assertEquals(kept(store), []);
    const games = [rec("r0-p0-a", 0, 0, [0, 1], 0), rec("r0-p0-b", 0, 0, [1, 0], null)];
    for (const g of games) store.append(g);
    // A kill while writing the third line leaves half of it.
    const third = JSON.stringify(rec("r1-p0-a", 1, 0, [0, 1], 1));
    await Deno.writeTextFile(`${dir}/games.jsonl`, third.slice(0, 40), { append: true });
    const again = Effect.runSync(Effect.scoped(openStore(dir, settings)));
    assertEquals(kept(again), games);
    assertEquals([...again.done.ids], games.map((g) => g.id));
    assertEquals(
      (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "").length,
      2,
      "the cut-short line is gone from the file",
    );
    again.append(games[0]);
    // The same game twice (two processes once wrote into one folder): counted once.
    const twice = Effect.runSync(Effect.scoped(openStore(dir, settings)));
    assertEquals([kept(twice).length, twice.duplicates], [2, 1]);
    // Another series in the same folder: refused, naming what differs.
    const other = Effect.runSync(
      Effect.flip(Effect.scoped(openStore(dir, { ...settings, seed: 2 }))),
    );
    assertStringIncludes(other.message, "seed 1 there, 2 now");
    // A broken line in the middle is not guessed at.
    await Deno.writeTextFile(`${dir}/games.jsonl`, `{"id":1}\n${JSON.stringify(games[0])}\n`);
    const broken = Effect.runSync(Effect.flip(Effect.scoped(openStore(dir, settings))));
    assertStringIncludes(broken.message, "games.jsonl line 1 is not a game record");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("property: a file read in pieces gives the lines split gives, any piece size", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ply-lines-" });
  try {
    const path = `${dir}/lines.txt`;
    // Multi-byte characters cut between two pieces are decoded whole.
    const text = fc.array(fc.constantFrom("a", "\n", "é", "🙂", "\r", " "), { maxLength: 40 })
      .map((cs) => cs.join(""));
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 9 }), async (t, chunk) => {
        await Deno.writeTextFile(path, t);
        assertEquals([...fileLines(path, chunk)], t.split("\n"));
      }),
      { numRuns: 300 },
    );
    assertEquals([...fileLines(`${dir}/missing.txt`)], [""]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("output folder: a last record without its newline is kept, a cut one dropped with a repeat", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ply-series-" });
  try {
    const settings = { series: "tournament", players: ["a", "b"], seed: 1 };
    const open = () => Effect.runSync(Effect.scoped(openStore(dir, settings)));
    const [a, b, c] = [
      rec("r0-p0-a", 0, 0, [0, 1], 0),
      rec("r0-p0-b", 0, 0, [1, 0], null),
      rec("r1-p0-a", 1, 0, [0, 1], 1),
    ];
    open();
    const games = `${dir}/games.jsonl`;
    // A whole last record whose newline never reached the disk: kept, and the next game
    // appended after it goes on a line of its own.
    await Deno.writeTextFile(games, JSON.stringify(a) + "\n" + JSON.stringify(b));
    const first = open();
    assertEquals(kept(first), [a, b]);
    first.append(c);
    assertEquals(kept(first), [a, b], "what it held when opened, not the games added since");
    assertEquals(kept(open()), [a, b, c]);
    assertEquals(
      await Deno.readTextFile(games),
      [a, b, c].map((r) => JSON.stringify(r) + "\n").join(""),
    );
    // A repeated game and a last line cut short: the file is rewritten without either.
    await Deno.writeTextFile(games, JSON.stringify(a) + "\n" + JSON.stringify(b).slice(0, 30), {
      append: true,
    });
    const mended = open();
    assertEquals([kept(mended), mended.duplicates], [[a, b, c], 1]);
    assertEquals(
      await Deno.readTextFile(games),
      [a, b, c].map((r) => JSON.stringify(r) + "\n").join(""),
    );
    assertEquals([...mended.done.ids], [a.id, b.id, c.id]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("property: a games file read back holds each game once, its first record, in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ply-series-" });
  try {
    const settings = { series: "match", players: ["a", "b"], seed: 1 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ id: fc.integer({ min: 0, max: 5 }), winner: fc.constantFrom(0, 1, null) }),
          {
            maxLength: 20,
          },
        ),
        async (lines) => {
          const records = lines.map(({ id, winner }) =>
            rec(`r${id}-p0-a`, id, 0, [0, 1], winner as 0 | 1 | null)
          );
          await Deno.writeTextFile(
            `${dir}/games.jsonl`,
            records.map((r) => JSON.stringify(r) + "\n").join(""),
          );
          const store = Effect.runSync(Effect.scoped(openStore(dir, settings)));
          const first = records.filter((r, i) => records.findIndex((x) => x.id === r.id) === i);
          assertEquals(kept(store), first);
          assertEquals(store.duplicates, records.length - first.length);
          // The file now holds them once: read again, nothing more is dropped.
          const again = Effect.runSync(Effect.scoped(openStore(dir, settings)));
          assertEquals([kept(again), again.duplicates], [first, 0]);
        },
      ),
      { numRuns: 100 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
