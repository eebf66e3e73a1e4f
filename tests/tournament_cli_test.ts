/**
 * `deno task tournament` and `deno task sprt` as a user runs them: through `deno task` in
 * a subprocess with the tasks' own permissions; Ctrl-C typed into a pseudo-terminal
 * once a game is recorded (a handshake on the progress line, never a time).
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { runTask, startTask } from "../testing/task.ts";

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

/** The records of a games file. */
const gamesIn = async (dir: string) =>
  (await Deno.readTextFile(`${dir}/games.jsonl`)).split("\n").filter((l) => l !== "").map((l) =>
    JSON.parse(l)
  );

const withDir = async (f: (dir: string) => Promise<void>) => {
  const dir = await Deno.makeTempDir({ prefix: "ply-tournament-" });
  try {
    await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
};

/** An SPRT between equal players: H0 within a few dozen games at these bounds. */
const EQUALS = [
  ...["kalah", "--pits", "3", "--stones", "2", "--new", "random", "--base", "random"],
  ...["--elo0", "0", "--elo1", "100"],
];
const TTT = ["tournament", "tictactoe", "--players", "alphabeta:9", "alphabeta:1", "random"];

Deno.test("tournament: a round-robin kept in a folder, resumed, extended, another refused", async () => {
  await withDir(async (dir) => {
    // After one ply of tic-tac-toe neither side is lost: perfect play cannot lose.
    const args = [...TTT.slice(1), "--openings", "random:1", "--out", dir];
    const r = await runTask("tournament", [...args, "--rounds", "2", "--json"]);
    assertEquals(r.code, 0, r.stderr);
    assert(!r.stderr.includes("\r"), "no progress line on a pipe");
    const j = JSON.parse(r.stdout);
    assertEquals([j.games, j.scheduled], [12, 12]);
    assertEquals(j.players, ["alphabeta:9", "alphabeta:1", "random"]);
    assertEquals(j.results.pairings.length, 3);
    const perfect = j.results.players[0];
    assertEquals(perfect.wdl.losses, 0, "perfect play never loses");
    assertEquals(j.results.ratings.anchor, 0);
    const games = await gamesIn(dir);
    assertEquals(games.length, 12);
    assertEquals(new Set(games.map((g) => g.id)).size, 12);
    for (const g of games) {
      assertEquals(g.transcript.players, [j.players[g.seats[0]], j.players[g.seats[1]]]);
      assertEquals(g.transcript.moves.slice(0, 2).map((m: { agent: string }) => m.agent), [
        "opening",
        g.transcript.players[1],
      ]);
    }
    const kept = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
    assertEquals(kept.results, j.results);
    const svg = await Deno.readTextFile(`${dir}/chart.svg`);
    assert(svg.startsWith("<svg") && svg.includes("alphabeta:9") && !svg.includes("NaN"));

    // The same command again: nothing left to play, the same results.
    const again = await runTask("tournament", [...args, "--rounds", "2"]);
    assertEquals(again.code, 0, again.stderr);
    assertStringIncludes(again.stdout, "resuming: 12 games already played");
    assertStringIncludes(again.stdout, "12 of 12 games");
    assertEquals((await gamesIn(dir)).length, 12);

    // More rounds: only the new games are played.
    const more = await runTask("tournament", [...args, "--rounds", "3"]);
    assertEquals(more.code, 0, more.stderr);
    assertStringIncludes(more.stdout, "18 of 18 games");
    const all = await gamesIn(dir);
    assertEquals(all.length, 18);
    assertEquals(new Set(all.map((g) => g.id)).size, 18);

    // Other players in the same folder: refused, the folder untouched.
    const other = await runTask("tournament", [
      "tictactoe",
      "--players",
      "alphabeta:9",
      "random",
      "--out",
      dir,
    ]);
    assertEquals(other.code, 2);
    assertStringIncludes(
      other.stderr,
      `holds another series (players ["alphabeta:9","alphabeta:1","random"] there`,
    );
    noTrace(other.stderr);
    assertEquals((await gamesIn(dir)).length, 18);
  });
});

Deno.test("tournament: a gauntlet from a book, anchored on a named player", async () => {
  await withDir(async (dir) => {
    const book = `${dir}/book.txt`;
    await Deno.writeTextFile(book, "# two openings\nb2 a1\na1, b2\n");
    const r = await runTask("tournament", [
      "tictactoe",
      "--players",
      "alphabeta:9",
      "alphabeta:2",
      "random",
      "--format",
      "gauntlet",
      "--rounds",
      "3",
      "--book",
      book,
      "--anchor",
      "random",
      "--out",
      dir,
      "--json",
    ]);
    assertEquals(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assertEquals(j.games, 12, "2 pairings × 3 rounds × 2");
    assertEquals(
      j.results.pairings.map((p: { players: number[] }) => p.players),
      [[0, 1], [0, 2]],
      "the first player meets each other",
    );
    assertEquals(j.results.ratings.anchor, 2);
    assertEquals(j.results.ratings.elo[2], 0);
    const firsts = (await gamesIn(dir)).map((g) =>
      g.transcript.moves.slice(0, 2).map((m: { notation: string }) => m.notation).join(" ")
    );
    // Rounds take the book's lines in order, again from the top when it runs out.
    assertEquals(new Set(firsts), new Set(["b2 a1", "a1 b2"]));
    assertEquals(j.distinctOpenings, 2);
  });
});

Deno.test("tournament: wrong flags are named with what they take; nothing runs", async () => {
  const cases: [string[], string][] = [
    [["tictactoe", "--players", "random"], "--players takes two or more specs"],
    [["tictactoe", "--players", "random", "random"], "--players names random twice"],
    [["tictactoe", "--players", "random", "minmax:3"], "--players (player 2)"],
    [["tictactoe", "--players", "random", "human"], "a series is between AIs"],
    [
      ["tictactoe", "--players", "random", "alphabeta:2", "--format", "swiss"],
      "--format must be one of round-robin, gauntlet",
    ],
    [
      ["tictactoe", "--players", "random", "alphabeta:2", "--anchor", "x"],
      "--anchor must be one of the players",
    ],
    [
      ["tictactoe", "--players", "random", "alphabeta:2", "--openings", "random:x"],
      "--openings must be random:PLIES",
    ],
    [
      ["tictactoe", "--players", "random", "alphabeta:2", "--book", "no-such-book.txt"],
      "--book: cannot read no-such-book.txt",
    ],
    [
      ["tictactoe", "--players", "random", "alphabeta:2", "--concurrency", "0"],
      "--concurrency must be an integer from 1",
    ],
    [["2048", "--players", "random", "expectimax:2"], "has one player (its opponent is chance)"],
  ];
  for (const [args, message] of cases) {
    const r = await runTask("tournament", args);
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assertStringIncludes(r.stderr, message);
    noTrace(r.stderr);
  }
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/book.txt`, "b2 a1\nb2 zz\n");
    const r = await runTask("tournament", [
      "tictactoe",
      "--players",
      "random",
      "alphabeta:2",
      "--book",
      `${dir}/book.txt`,
    ]);
    assertEquals(r.code, 2);
    assertStringIncludes(r.stderr, `--book: ${dir}/book.txt:2: move 2 'zz'`);
  });
});

Deno.test("tournament: Ctrl-C keeps every finished game; a rerun resumes where it stopped", async () => {
  await withDir(async (dir) => {
    // Far more games than could ever finish before the interruption.
    const args = [...TTT, "--rounds", "100000", "--openings", "none", "--out", dir];
    const job = startTask(args, true);
    await job.waitFor("/600000 games"); // the progress line: a game is recorded
    await job.type("\x03");
    const { code, out } = await job.done;
    assertEquals(code, 130, out);
    assertStringIncludes(out, "(interrupted)");
    noTrace(out);
    const kept = await gamesIn(dir); // every line whole
    assert(kept.length >= 1);
    assertEquals(new Set(kept.map((g) => g.id)).size, kept.length);
    assert(kept.every((g) => g.transcript.result.reason === "end"), "only finished games");
    const firstRounds = kept.filter((g) => Number(/^r(\d+)/.exec(g.id)![1]) < 3).length;
    // The rerun (of the first three rounds here) plays only what is missing.
    const rerun = await runTask("tournament", [
      ...TTT.slice(1),
      "--rounds",
      "3",
      "--openings",
      "none",
      "--out",
      dir,
    ]);
    assertEquals(rerun.code, 0, rerun.stderr);
    assertStringIncludes(rerun.stdout, `resuming: ${firstRounds} games already played`);
    assertStringIncludes(rerun.stdout, "18 of 18 games");
    const after = await gamesIn(dir);
    assertEquals(after.length, kept.length + 18 - firstRounds);
    assertEquals(new Set(after.map((g) => g.id)).size, after.length, "no game twice");
  });
});

Deno.test("sprt: H1 for a stronger player, H0 between equals; LLR and bounds reported", async () => {
  const strong = await runTask("sprt", [
    "tictactoe",
    "--new",
    "alphabeta:9",
    "--base",
    "random",
    "--elo0",
    "0",
    "--elo1",
    "20",
    "--json",
  ]);
  assertEquals(strong.code, 0, strong.stderr);
  const s = JSON.parse(strong.stdout);
  assertEquals(s.verdict, "H1");
  assert(s.llr >= s.bounds.upper, "it stopped at the crossing");
  assertEquals(s.pairs, s.pentanomial.reduce((a: number, b: number) => a + b, 0));
  assert(s.games >= 2 * s.pairs);
  const equal = await runTask("sprt", [
    ...EQUALS,
  ]);
  assertEquals(equal.code, 0, equal.stderr);
  assertStringIncludes(equal.stdout, "H0 accepted");
  assert(/LLR -\d+\.\d+ \[-2\.94, 2\.94\]/.test(equal.stdout), equal.stdout);
  const bad = await runTask("sprt", [
    "kalah",
    "--new",
    "random",
    "--base",
    "random",
    "--elo1",
    "-1",
  ]);
  assertEquals(bad.code, 2);
  assertStringIncludes(bad.stderr, "--elo1 must be above --elo0 (0), got -1");
});

Deno.test("sprt: the progress line on a terminal shows the LLR and its bounds", async () => {
  const job = startTask([
    "sprt",
    ...EQUALS,
  ], true);
  const { code, out } = await job.done;
  assertEquals(code, 0, out);
  assert(/\d+ games \(\d+ pairs\): LLR -?\d+\.\d\d \[-2\.94, 2\.94\]/.test(out), out);
});
