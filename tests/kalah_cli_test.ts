/**
 * Kalah's programs end to end: seed 004's `deno task kalah` (onemove, eve, pve with
 * piped input, benchmark, and its parameter errors with exit code 2), the exact solver
 * through `deno task analyze kalah --solve`, and `deno task kalah-db` into a directory.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { runScript as run } from "./tools/helpers.ts";

const kalah = (args: string[], stdin = "") => run("scripts/kalah.ts", args, stdin);

Deno.test("kalah onemove: the optimal move on the initial board", async () => {
  const [r, mm, ab] = await Promise.all([
    kalah(["onemove", "seq_ab", "6"]),
    kalah(["onemove", "seq_mm", "(4)", "--pits", "4", "--stones", "3"]),
    kalah(["onemove", "seq_ab", "4", "--pits", "4", "--stones", "3"]),
  ]);
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "Initializing Board...\nOptimal move is ");
  assertEquals(mm.code, 0, mm.stderr);
  // Both searches pick the same house (the first best one).
  assertEquals(
    /Optimal move is (\d+)/.exec(mm.stdout)?.[1],
    /Optimal move is (\d+)/.exec(ab.stdout)?.[1],
  );
});

Deno.test("kalah: seed 004's parameter errors, exit code 2, no stack trace", async () => {
  const cases: [string[], string][] = [
    [["onemove", "seq_mm", "-1"], "search_depth_limit must be non-negative"],
    [["onemove", "seq_mm", "(-3)"], "search_depth_limit must be non-negative"],
    [["onemove", "seq_ab", "(9,2)"], 'AI params must be specified as "(search_depth_limit)"'],
    [["onemove", "seq_ab", "nine"], 'AI params must be specified as "(search_depth_limit)"'],
    [
      ["onemove", "par_then_ab", "9"],
      'AI params must be specified as "(search_depth_limit,parallelism_depth_limit)"',
    ],
    [
      ["onemove", "young_bros", "(9,-1)"],
      "search_depth_limit and parallelism_depth_limit must be non-negative",
    ],
    [["onemove", "minimax", "3"], "AI Mode must be one of [seq_mm, seq_ab, par_then_mm"],
    [["eve", "seq_ab", "3", "seq_mm", "-2"], "search_depth_limit must be non-negative"],
    [["dance"], "bad arguments"],
    [["onemove", "seq_ab", "3", "--pits", "0"], "--pits"],
  ];
  const results = await Promise.all(cases.map(([args]) => kalah(args)));
  results.forEach((r, i) => {
    const [args, message] = cases[i];
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assertStringIncludes(r.stderr, message);
    assert(!/\n\s+at .*:\d+:\d+/.test(r.stderr), r.stderr);
  });
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
  assertEquals(none.code, 2);
  assertStringIncludes(none.stderr, "no benchmark matches 'nothing'");
});

Deno.test("kalah onemove: the parallel modes pick a move as good as seq_ab's", async () => {
  const board = ["--pits", "4", "--stones", "3", "--workers", "2"];
  const runs = await Promise.all([
    kalah(["onemove", "seq_ab", "7", ...board]),
    kalah(["onemove", "par_then_mm", "(7,2)", ...board]),
    kalah(["onemove", "par_then_ab", "(7,1)", ...board]),
    kalah(["onemove", "young_bros", "(7,2)", ...board]),
  ]);
  const values = runs.map((r) => {
    assertEquals(r.code, 0, r.stderr);
    return /value (-?\d+)/.exec(r.stdout)?.[1];
  });
  assertEquals(new Set(values).size, 1, `every mode finds the same value: ${values.join(", ")}`);
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
    const r = await run("scripts/kalah_db.ts", ["--pits", "2", "--stones", "6", "--dir", dir]);
    assertEquals(r.code, 0, r.stderr);
    assertStringIncludes(r.stdout, "written to");
    const stat = await Deno.stat(`${dir}/kalah-p2-nonempty-s6.bin`);
    assertEquals(stat.size, 210); // C(6 + 4, 4) positions with at most 6 stones, 1 byte each
    const again = await run("scripts/kalah_db.ts", ["--pits", "2", "--stones", "6", "--dir", dir]);
    assertStringIncludes(again.stdout, "already built");
    const bad = await run("scripts/kalah_db.ts", ["--capture", "never", "--dir", dir]);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "--capture must be nonempty or always");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
