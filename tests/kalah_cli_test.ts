/**
 * Kalah's programs end to end: seed 004's `deno task kalah` (onemove, eve, pve with
 * piped input, benchmark, and its parameter errors with the seed's `die` status 1), the exact solver
 * through `deno task analyze kalah --solve`, and `deno task kalah-db` into a directory.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../testing/deps.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { kalahGame } from "../plugins/kalah/mod.ts";
import { runScript as run } from "../testing/run.ts";
import { runTask } from "../testing/task.ts";

const kalah = (args: string[], stdin = "") => run("plugins/kalah/scripts/kalah.ts", args, stdin);

Deno.test("kalah onemove: seq_mm names the last optimal house, seq_ab the first", async () => {
  const board = ["--pits", "5", "--stones", "3"];
  const [mm, ab] = await Promise.all([
    kalah(["onemove", "seq_mm", "(3)", ...board]),
    kalah(["onemove", "seq_ab", "3", ...board]),
  ]);
  const g = kalahGame({ pits: 5, stones: 3, capture: "nonempty", eval: "util" });
  const best = minimaxSearch(g, g.initial(), { depth: 3, allBest: true }).bestMoves!;
  assertEquals(best, [0, 1, 2]);
  // On the initial board (player 0 to move) the seed's board index is the move.
  assertEquals(mm.stdout, `Initializing Board...\nOptimal move is ${best.at(-1)}\n`, mm.stderr);
  assertEquals(ab.stdout, `Initializing Board...\nOptimal move is ${best[0]}\n`, ab.stderr);
});

/**
 * The lines of a seed 004 `eve` game that are not boards (the seed's board picture is
 * unreadable in its listing), from the houses its AIs picked as it prints them: the board
 * index + 1, so 1-6 for player 0 and 8-13 for player 1.
 */
const seedGame = (picks: number[], end: string): string =>
  "Initializing Board...\n" +
  picks.map((p) => `Player ${p <= 6 ? 0 : 1}'s turn.\nAI picked ${p}.\n`).join("") + end;

/** The lines of a `deno task kalah eve` output that are not boards. */
const gameLines = (stdout: string): string =>
  stdout.split("\n").filter((l) =>
    /^(Initializing Board\.\.\.|Player [01]'s turn\.|AI picked \d+\.|Player [01] wins!|Tie!|Player 0 score: \d+ - Player 1 score: \d+)$/
      .test(l)
  ).map((l) => l + "\n").join("");

Deno.test("kalah onemove: seed 004's tie-breaks at the root, its board index", async () => {
  // Depth 1 from the start: houses 1-3 (indices 0-2) are worth 0, the others less.
  // maximumBy (seq_mm, par_then_mm, par_then_ab) keeps the last of equal maxima, index 2;
  // runAB (seq_ab, and par_then_ab with parDepth 0) the first, index 0.
  const cases: [string, string, number][] = [
    ["seq_mm", "(1)", 2],
    ["seq_ab", "(1)", 0],
    ["par_then_mm", "(1,1)", 2],
    ["par_then_mm", "(1,0)", 2],
    ["par_then_ab", "(1,1)", 2],
    ["par_then_ab", "(1,0)", 0],
    ["seq_mm", "9", 5],
    ["seq_ab", "9", 5],
  ];
  const runs = await Promise.all(
    cases.map(([mode, params]) => kalah(["onemove", mode, params, "--workers", "2"])),
  );
  runs.forEach((r, i) => {
    const [mode, params, index] = cases[i];
    assertEquals(r.code, 0, r.stderr);
    assertEquals(
      r.stdout,
      `Initializing Board...\nOptimal move is ${index}\n`,
      `${mode} ${params}`,
    );
  });
});

Deno.test("kalah eve: seed 004's games, move for move", async () => {
  // Printed by seed 004's program (its listing compiled with GHC 9.0), boards left out.
  const mm3 = seedGame(
    [3, 2, 8, 3, 10, 1, 9, 11, 2, 12, 1, 13, 3, 8, 6, 1, 9, 2, 10, 6, 3, 11, 5, 8, 2, 12, 3, 9, 6]
      .concat([4, 5, 4, 10, 3, 12, 11, 12, 2, 8, 4, 13]),
    "Tie!\nPlayer 0 score: 24 - Player 1 score: 24\n",
  );
  const cases: [string[], string][] = [
    [
      ["seq_mm", "2", "seq_mm", "1"],
      seedGame(
        [3, 2, 8, 3, 9, 10, 2, 12, 3, 13],
        "Player 0 wins!\nPlayer 0 score: 44 - Player 1 score: 4\n",
      ),
    ],
    [["seq_mm", "3", "seq_mm", "3"], mm3],
    [["par_then_mm", "(3,1)", "par_then_ab", "(3,2)"], mm3],
    [
      ["seq_ab", "3", "seq_ab", "3"],
      seedGame(
        [1, 8, 2, 4, 8, 3, 9, 2, 10, 3, 8, 1, 13, 1, 12, 1, 13],
        "Player 0 wins!\nPlayer 0 score: 33 - Player 1 score: 15\n",
      ),
    ],
  ];
  const runs = await Promise.all(cases.map(([args]) => kalah(["eve", ...args, "--workers", "2"])));
  runs.forEach((r, i) => {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(gameLines(r.stdout), cases[i][1], cases[i][0].join(" "));
  });
});

Deno.test("kalah onemove: depth 0 searches nothing (the seed's move -1)", async () => {
  const r = await kalah(["onemove", "seq_mm", "0"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "Initializing Board...\nOptimal move is -1 (depth 0 searches nothing)\n");
});

Deno.test("kalah: depths above 1000 are refused as every program does, status 1 as the seed dies", async () => {
  const cases: [string[], string][] = [
    [["onemove", "seq_mm", "99999"], "search_depth_limit must be at most 1000"],
    [["onemove", "seq_ab", "(1001)"], "search_depth_limit must be at most 1000"],
    [["onemove", "seq_mm", "123456789012345678901234567890"], "must be at most 1000"],
    [
      ["onemove", "par_then_ab", "(99999,1)"],
      "search_depth_limit and parallelism_depth_limit must be at most 1000",
    ],
    [["eve", "seq_mm", "3", "young_bros", "(9,5000)"], "must be at most 1000"],
  ];
  // A small board, so that a program that took the depth would end soon all the same.
  const board = ["--pits", "2", "--stones", "1"];
  const results = await Promise.all(cases.map(([args]) => kalah([...args, ...board])));
  results.forEach((r, i) => {
    const [args, message] = cases[i];
    assertEquals(r.code, 1, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assertStringIncludes(r.stderr, message);
    assertEquals(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  });
  const max = await kalah(["onemove", "seq_ab", "1000", ...board]);
  assertEquals(max.code, 0, max.stderr);
});

Deno.test("kalah: error lines are the seed's, 'Error: ' and its message", async () => {
  const cases: [string[], string][] = [
    [["onemove", "seq_mm", "-1"], "Error: search_depth_limit must be non-negative\n"],
    [
      ["onemove", "seq_ab", "(9,2)"],
      'Error: AI params must be specified as "(search_depth_limit)"\n',
    ],
    [
      ["onemove", "par_then_mm", "(9)"],
      'Error: AI params must be specified as "(search_depth_limit,parallelism_depth_limit)"\n',
    ],
    [
      ["onemove", "young_bros", "(-9,1)"],
      "Error: search_depth_limit and parallelism_depth_limit must be non-negative\n",
    ],
    [
      ["onemove", "minimax", "3"],
      "Error: AI Mode must be one of [seq_mm, seq_ab, par_then_mm, par_then_ab, young_bros]\n",
    ],
  ];
  const results = await Promise.all(cases.map(([args]) => kalah(args)));
  results.forEach((r, i) => {
    assertEquals(r.code, 1);
    assertEquals(r.stderr, cases[i][1]);
  });
  const [usage, workers, pits] = await Promise.all([
    kalah(["dance"]),
    kalah(["onemove", "seq_mm", "1", "--workers", "0"]),
    kalah(["onemove", "seq_mm", "1", "--pits", "0"]),
  ]);
  for (const r of [usage, workers, pits]) {
    assertEquals(r.code, 1);
    assertMatch(r.stderr, /^Error: /);
  }
  assertStringIncludes(usage.stderr, "\nUsage: deno task kalah pve AI_1_mode AI_1_params\n");
});

/** What the program printed on standard error, without `deno task`'s own `Task ...` line. */
const stderrOf = (text: string) => text.replace(/^Task kalah .*\n/, "");

Deno.test("deno task kalah: seed 004's parameter errors, its exact lines, status 1 as `die` gives", async () => {
  const cases: [string[], string][] = [
    [["onemove", "seq_mm", "-1"], "Error: search_depth_limit must be non-negative\n"],
    [["onemove", "seq_mm", "(-3)"], "Error: search_depth_limit must be non-negative\n"],
    [["pve", "seq_ab", "(9,2)"], 'Error: AI params must be specified as "(search_depth_limit)"\n'],
    [
      ["onemove", "seq_ab", "nine"],
      'Error: AI params must be specified as "(search_depth_limit)"\n',
    ],
    [
      ["onemove", "par_then_ab", "9"],
      'Error: AI params must be specified as "(search_depth_limit,parallelism_depth_limit)"\n',
    ],
    [
      ["onemove", "young_bros", "(9,-1)"],
      "Error: search_depth_limit and parallelism_depth_limit must be non-negative\n",
    ],
    [
      ["onemove", "minimax", "3"],
      "Error: AI Mode must be one of [seq_mm, seq_ab, par_then_mm, par_then_ab, young_bros]\n",
    ],
    [["eve", "seq_ab", "3", "seq_mm", "-2"], "Error: search_depth_limit must be non-negative\n"],
  ];
  // Sequentially: each is a `deno task` of its own, and the machine's cores are shared.
  for (const [args, line] of cases) {
    const r = await runTask("kalah", args);
    assertEquals(r.code, 1, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assertEquals(stderrOf(r.stderr), line, args.join(" "));
    assertEquals(r.stdout, "", args.join(" "));
  }
  // The command line's other mistakes end the same way: a bad program (with the usage),
  // a board option, and the flags read before the program (--workers, --call-limit).
  const others: [string[], string][] = [
    [["dance"], "Error: bad arguments for 'dance'\nUsage: deno task kalah pve AI_1_mode"],
    [["onemove", "seq_ab", "3", "--pits", "0"], "Error: bad options for kalah:\n  --pits"],
    [["onemove", "seq_ab", "3", "--workers", "0"], "Error: --workers"],
    [["onemove", "seq_ab", "3", "--call-limit", "x"], "Error: --call-limit"],
  ];
  for (const [args, start] of others) {
    const r = await runTask("kalah", args);
    assertEquals(r.code, 1, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assert(stderrOf(r.stderr).startsWith(start), `${args.join(" ")}: ${r.stderr}`);
    assert(!/\n\s+at .*:\d+:\d+/.test(r.stderr), r.stderr);
  }
});

Deno.test("kalah eve: AI against AI, a board after every move, winner and score", async () => {
  const r = await kalah(["eve", "seq_ab", "3", "seq_mm", "(2)", "--pits", "3", "--stones", "2"]);
  assertEquals(r.code, 0, r.stderr);
  assert(r.stdout.startsWith("Initializing Board...\n"));
  assertStringIncludes(r.stdout, "Player 0's turn.\nAI picked ");
  assertStringIncludes(r.stdout, "Player 1's turn.\nAI picked ");
  assertMatch(r.stdout, /(Player [01] wins!|Tie!)\nPlayer 0 score: \d+ - Player 1 score: \d+\n$/);
  const boards = r.stdout.split("+----------+").length - 1;
  const moves = r.stdout.split("AI picked").length - 1;
  assertEquals(boards, 2 * (moves + 1), "a board at the start and after every move");
});

Deno.test("kalah pve: piped moves, an invalid move re-asks, end of input stops", async () => {
  const r = await kalah(["pve", "seq_ab", "2", "--pits", "3", "--stones", "1"], "1\n9\n");
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "Valid Moves are: [1,2,3]");
  assertStringIncludes(r.stdout, "Invalid move.");
  const done = await kalah(["pve", "seq_mm", "1", "--pits", "2", "--stones", "1"], "2\n1\n1\n1\n");
  assertEquals(done.code, 0, done.stderr);
  assertMatch(done.stdout, /Player 0 score: \d+ - Player 1 score: \d+\n$/);
});

Deno.test("kalah benchmark: seed 004's groups by name, parallel groups included", async () => {
  const [r, par, none] = await Promise.all([
    kalah(["benchmark", "seq_ab", "--runs", "1", "--pits", "4", "--stones", "2"]),
    kalah([
      "benchmark",
      "young_bros/9/2",
      "--runs",
      "1",
      "--pits",
      "4",
      "--stones",
      "2",
      "--workers",
      "2",
    ]),
    kalah(["benchmark", "nothing"]),
  ]);
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "benchmarking seq_ab/9");
  assertStringIncludes(r.stdout, "M nodes/s");
  assert(!r.stdout.includes("seq_mm/9"));
  assertEquals(par.code, 0, par.stderr);
  assertStringIncludes(par.stdout, "benchmarking young_bros/9/2");
  assertStringIncludes(par.stdout, "2 workers");
  assertEquals(none.code, 1);
  assertStringIncludes(none.stderr, "no benchmark matches 'nothing'");
});

Deno.test("kalah onemove: the parallel modes pick the seed's move, young_bros an optimal one", async () => {
  const board = ["--pits", "4", "--stones", "4", "--workers", "2"];
  const runs = await Promise.all([
    kalah(["onemove", "par_then_mm", "(7,2)", ...board]),
    kalah(["onemove", "par_then_ab", "(7,1)", ...board]),
    kalah(["onemove", "young_bros", "(7,2)", ...board]),
  ]);
  const moves = runs.map((r) => {
    assertEquals(r.code, 0, r.stderr);
    return Number(/^Optimal move is (\d+)$/m.exec(r.stdout)?.[1]);
  });
  const g = kalahGame({ pits: 4, stones: 4, capture: "nonempty", eval: "util" });
  const root = minimaxSearch(g, g.initial(), { depth: 7, allBest: true });
  assertEquals(root.bestMoves, [0, 1, 2]);
  // maximumBy: the last of the equal maxima.
  assertEquals(moves.slice(0, 2), [2, 2]);
  // young_bros keeps the first best in its own move order: any optimal move.
  assert(root.bestMoves!.includes(moves[2]), `young_bros picked ${moves[2]}`);
});

Deno.test("analyze kalah --solve --json: the exact value, an optimal move, nodes, time", async () => {
  const rules = ["nonempty", "always"];
  const runs = await Promise.all(rules.map((capture) =>
    run("scripts/analyze.ts", [
      ...["kalah", "--pits", "3", "--stones", "3", "--capture", capture, "--solve", "--json"],
    ])
  ));
  for (const r of runs) {
    assertEquals(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assertEquals(out.strategy, "solve");
    assertEquals(out.exact, true);
    assertEquals(out.value, 2);
    assert(["1", "2", "3"].includes(out.bestMove));
    assert(out.nodes > 0 && out.timeMs >= 0);
  }
});

Deno.test("kalah-db: builds into a directory and refuses bad flags", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const r = await run("plugins/kalah/scripts/kalah_db.ts", [
      "--pits",
      "2",
      "--stones",
      "6",
      "--dir",
      dir,
    ]);
    assertEquals(r.code, 0, r.stderr);
    assertStringIncludes(r.stdout, "written to");
    const stat = await Deno.stat(`${dir}/kalah-p2-nonempty-s6.bin`);
    assertEquals(stat.size, 210); // C(6 + 4, 4) positions with at most 6 stones, 1 byte each
    const again = await run("plugins/kalah/scripts/kalah_db.ts", [
      "--pits",
      "2",
      "--stones",
      "6",
      "--dir",
      dir,
    ]);
    assertStringIncludes(again.stdout, "already built");
    const bad = await run("plugins/kalah/scripts/kalah_db.ts", [
      "--capture",
      "never",
      "--dir",
      dir,
    ]);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "--capture must be nonempty or always");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kalah-db: a directory it cannot write is refused before the build", async () => {
  for (const dir of ["/etc/passwd/x", "/etc/passwd"]) {
    const r = await run("plugins/kalah/scripts/kalah_db.ts", [
      "--pits",
      "2",
      "--stones",
      "3",
      "--dir",
      dir,
    ]);
    assertEquals(r.code, 2, r.stderr);
    assertStringIncludes(r.stderr, `cannot write the database to ${dir}`);
    assertEquals(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
    assertEquals(r.stdout, "", "nothing built");
  }
});
