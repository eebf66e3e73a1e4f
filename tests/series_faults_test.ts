/**
 * A faulty game is one result, not the end of a series: `match`, `tournament` and `sprt`
 * as a user runs them (`deno task` in a subprocess) on small hostile plugins. A game that
 * fails is played once more, then kept as faulted (its moves so far and the reason),
 * listed, and left out of the results; more than `--max-faults` stop the series.
 *
 * `tests/fixtures/faulty.ts` throws in moves() late in every game whose coin (its first,
 * chance, move) fell tails: a book line "tails" or "heads" decides which games fault.
 * `tests/fixtures/flaky.ts` fails once per process (a transient fault).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { runTask, startTask } from "../testing/task.ts";

const FAULTY = "./tests/fixtures/faulty.ts";
const BOOM = `plugin ${FAULTY} failed in moves(): boom: tails, and 3 stones or fewer left`;

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

/** The records of a games file. */
const gamesIn = async (dir: string) =>
  (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "").map((l) =>
    JSON.parse(l)
  );

/** A temporary folder holding a book of `lines`, removed after `f`. */
const withBook = async (lines: string[], f: (dir: string, book: string) => Promise<void>) => {
  const dir = await Deno.makeTempDir({ prefix: "ply-faults-" });
  try {
    await Deno.writeTextFile(`${dir}/book.txt`, lines.join("\n") + "\n");
    await f(dir, `${dir}/book.txt`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
};

interface Faulted {
  id: string;
  round: number;
  opening: string;
  players: [string, string];
  plies: number;
  reason: string;
  transcript?: string;
}

Deno.test("tournament: the faulted games listed and kept, the ratings over the rest; a rerun keeps them", async () => {
  await withBook(["tails", "heads"], async (dir, book) => {
    const out = `${dir}/rr`;
    const args = [
      FAULTY,
      ...["--players", "alphabeta:2", "alphabeta:1", "random"],
      ...["--book", book, "--rounds", "2", "--out", out],
    ];
    const r = await runTask("tournament", [...args, "--json"]);
    assertEquals(r.code, 0, r.stderr);
    noTrace(r.stderr);
    const j = JSON.parse(r.stdout);
    // Round 0 opens with tails: its six games fault (each played twice); round 1's finish.
    assertEquals([j.games, j.scheduled, j.results.total], [6, 12, 6]);
    const faulted: Faulted[] = j.faulted;
    assertEquals(faulted.map((f) => f.id), [
      "r0-p0-a",
      "r0-p0-b",
      "r0-p1-a",
      "r0-p1-b",
      "r0-p2-a",
      "r0-p2-b",
    ]);
    assertEquals(j.retried, []);
    for (const f of faulted) {
      assertEquals([f.round, f.opening, f.reason], [0, "tails", BOOM]);
      assert(f.plies >= 2, "the coin and a move at least");
      assertEquals(f.transcript, `${out}/faulted/${f.id}.json`);
      const t = JSON.parse(await Deno.readTextFile(f.transcript!));
      assertEquals(t.result.reason, "error");
      assertEquals(t.moves.length, f.plies);
      assertEquals(t.players, f.players);
    }
    assertEquals(faulted[0].players, ["alphabeta:2", "alphabeta:1"]);
    assertEquals(faulted[1].players, ["alphabeta:1", "alphabeta:2"], "sides swapped");
    // Every player played its four games of round 1; each pairing's round-0 pair is out.
    assertEquals(j.results.players.map((p: { games: number }) => p.games), [4, 4, 4]);
    for (const p of j.results.pairings) {
      assertEquals(
        [p.games, p.faultedPairs, p.pentanomial.reduce((a: number, b: number) => a + b)],
        [
          2,
          1,
          1,
        ],
      );
    }
    const kept = await gamesIn(out);
    assertEquals(kept.length, 12);
    assertEquals(kept.filter((g) => g.fault !== undefined).length, 6);

    // Rerun: nothing to play (the faulted games are results too), the same report.
    const again = await runTask("tournament", args);
    assertEquals(again.code, 0, again.stderr);
    assertStringIncludes(again.stdout, "resuming: 12 games already played");
    assertStringIncludes(again.stdout, "6 of 12 games (and 6 faulted)");
    assertStringIncludes(again.stdout, "faulted games (failed twice, left out of the results): 6");
    assertStringIncludes(
      again.stdout,
      `r0-p1-b: opening 'tails', random as first, alphabeta:2 as second, after ${
        faulted[3].plies
      } plies: ${BOOM} (moves in ${out}/faulted/r0-p1-b.json)`,
    );
    assertStringIncludes(again.stdout, "pairs 0 0 0 0 1 (1 left out: a game of theirs faulted)");
  });
});

Deno.test("match: faulted games listed and left out; --max-faults stops with one line, the results so far kept", async () => {
  await withBook(["tails", "heads"], async (_dir, book) => {
    const r = await runTask("match", [
      FAULTY,
      ...["--p1", "alphabeta:2", "--p2", "random", "--games", "4", "--book", book],
    ]);
    assertEquals(r.code, 0, r.stderr);
    assertStringIncludes(r.stdout, "2 games (and 2 faulted), 1 pairs (1 left out");
    assertStringIncludes(r.stdout, "faulted games (failed twice, left out of the results): 2");
    assertStringIncludes(r.stdout, "(--out DIR keeps their moves)");
    assertStringIncludes(
      r.stdout,
      "r0-p0-a: opening 'tails', alphabeta:2 as first, random as second",
    );
    assertStringIncludes(
      r.stdout,
      "r0-p0-b: opening 'tails', random as first, alphabeta:2 as second",
    );
    assertStringIncludes(r.stdout, BOOM);
    assert(!r.stderr.includes("error:"), r.stderr);
  });
  // heads first: the first pair finishes, then every game faults.
  await withBook(["heads", "tails", "tails"], async (dir, book) => {
    const args = [
      FAULTY,
      ...["--p1", "alphabeta:2", "--p2", "random", "--games", "6", "--book", book],
      ...["--concurrency", "1"],
    ];
    const zero = await runTask("match", [...args, "--max-faults", "0"]);
    assertEquals(zero.code, 1, zero.stderr);
    assertStringIncludes(
      zero.stderr,
      `error: 1 game faulted (more than --max-faults 0); the last: ${BOOM}\n`,
    );
    noTrace(zero.stderr);
    assertStringIncludes(zero.stdout, "2 games (and 1 faulted), 1 pairs (1 left out");
    assertStringIncludes(zero.stdout, "r1-p0-a: opening 'tails'");

    const out = `${dir}/m`;
    const one = await runTask("match", [...args, "--max-faults", "1", "--out", out, "--json"]);
    assertEquals(one.code, 1, one.stderr);
    const line = `error: 2 games faulted (more than --max-faults 1); the last: ${BOOM}`;
    assertStringIncludes(one.stderr, line + "\n");
    const j = JSON.parse(one.stdout);
    assertEquals([j.games, j.faulted.length, j.error], [2, 2, line.slice("error: ".length)]);
    assertEquals(j.faulted.map((f: Faulted) => f.id), ["r1-p0-a", "r1-p0-b"]);
    assertEquals(JSON.parse(await Deno.readTextFile(`${out}/results.json`)), j);
    assertEquals((await gamesIn(out)).length, 4, "the third pair never started");
    // Resumed, the series is already past its limit: nothing more is played.
    const again = await runTask("match", [...args, "--max-faults", "1", "--out", out]);
    assertEquals(again.code, 1, again.stderr);
    assertStringIncludes(again.stderr, line + "\n");
    assertEquals((await gamesIn(out)).length, 4);
    // A higher limit: the series goes on to its end.
    const more = await runTask("match", [...args, "--max-faults", "10", "--out", out]);
    assertEquals(more.code, 0, more.stderr);
    assertStringIncludes(more.stdout, "2 games (and 4 faulted)");
  });
  for (const bad of ["-1", "x"]) {
    const r = await runTask("match", ["nim", "--max-faults", bad]);
    assertEquals(r.code, 2, r.stderr);
    assertStringIncludes(
      r.stderr,
      `error: --max-faults must be an integer from 0 to 1000000, got '${bad}'`,
    );
  }
});

Deno.test("match on a terminal: the progress line counts the faulted games, the first one included", async () => {
  await withBook(["tails", "heads"], async (_dir, book) => {
    const job = startTask([
      "match",
      FAULTY,
      ...["--p1", "random", "--p2", "random", "--games", "2", "--book", book],
      ...["--concurrency", "1"],
    ], true);
    // Both games fault: the line is drawn after the first (then at most ten times a second).
    const { code, out } = await job.done;
    assertEquals(code, 0, out);
    assertStringIncludes(out, "game 1/2: random 0-0-0 random, 1 faulted");
    assertStringIncludes(out, "0 games (and 2 faulted)");
    noTrace(out);
  });
});

Deno.test("match: a transient fault passes on the retry and counts as a finished game", async () => {
  const args = [
    "./tests/fixtures/flaky.ts",
    ...["--p1", "random", "--p2", "random", "--games", "4", "--openings", "none"],
    ...["--concurrency", "1", "--max-faults", "0"],
  ];
  const r = await runTask("match", [...args, "--json"]);
  assertEquals(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assertEquals([j.games, j.faulted, j.pentanomial.reduce((a: number, b: number) => a + b)], [
    4,
    [],
    2,
  ]);
  assertEquals(j.retried, [{
    id: "r0-p0-a",
    reason: "plugin ./tests/fixtures/flaky.ts failed in moves(): boom: a passing fault",
  }]);
  const text = await runTask("match", args);
  assertEquals(text.code, 0, text.stderr);
  assertStringIncludes(
    text.stdout,
    "failed once and passed on the retry: 1 game (r0-p0-a; the first: plugin " +
      "./tests/fixtures/flaky.ts failed in moves(): boom: a passing fault)",
  );
});

Deno.test("sprt: a pair with a faulted game is left out whole", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ply-faults-" });
  try {
    // No openings: each game's coin comes from its seed; at seed 2 some pairs lose one
    // game, some both, some none. Bounds too wide to decide in 8 pairs.
    const r = await runTask("sprt", [
      FAULTY,
      ...["--new", "random", "--base", "random", "--openings", "none", "--seed", "2"],
      ...["--max-games", "16", "--alpha", "0.001", "--beta", "0.001", "--elo1", "100"],
      ...["--concurrency", "1", "--out", dir, "--json"],
    ]);
    assertEquals(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assertEquals(j.verdict, null);
    const faulted: Faulted[] = j.faulted;
    const rounds = new Map<number, number>();
    for (const f of faulted) rounds.set(f.round, (rounds.get(f.round) ?? 0) + 1);
    const halves = [...rounds.values()].filter((n) => n === 1).length;
    assert(halves > 0 && halves < rounds.size, "pairs with one and with two faulted games");
    assertEquals(j.games + faulted.length, 16);
    assertEquals(j.faultedPairs, rounds.size);
    assertEquals(j.pairs + j.faultedPairs, 8);
    assertEquals(j.pentanomial.reduce((a: number, b: number) => a + b), j.pairs);
    assertEquals(j.games, 2 * j.pairs + halves, "the other game of a half pair is not paired");
    // The pairs counted are exactly those of the rounds without a fault.
    const pent = [0, 0, 0, 0, 0];
    const byRound = Map.groupBy(await gamesIn(dir), (g) => g.round as number);
    for (const [round, games] of byRound) {
      if (rounds.has(round)) continue;
      const points = games.map((g) => {
        const w = g.transcript.result.winner;
        return w === null ? 0.5 : g.seats[w] === 0 ? 1 : 0; // the new player is entrant 0
      });
      pent[(points[0] + points[1]) * 2]++;
    }
    assertEquals(j.pentanomial, pent);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
