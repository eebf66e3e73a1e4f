/**
 * The programs end to end, as a user runs them: piped input, exit codes, messages
 * without stack traces, JSON output.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { runScript } from "../testing/run.ts";

const noTrace = (text: string) => {
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);
};

Deno.test("play: piped moves, a bad move re-prompts, quit ends cleanly (exit 0)", async () => {
  const r = await runScript(
    "scripts/play.ts",
    ["tictactoe", "--p2", "alphabeta:9", "--seed", "3"],
    "b2\nxx\nquit\n",
  );
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "X plays b2");
  assertStringIncludes(r.stdout, "Can't play 'xx'");
  assertStringIncludes(r.stdout, "X gave up; O wins.");
  // A game with a person in it is saved, and the last line says how to resume it.
  const saved = r.stdout.match(/Saved to (\S+)\. Resume: deno task play --load \1; review: /);
  assert(saved !== null, r.stdout);
  const t = JSON.parse(await Deno.readTextFile(saved[1]));
  assertEquals([t.seed, t.players, t.result.reason], [3, ["human", "alphabeta:9"], "quit"]);
  assertEquals(t.moves[0].notation, "b2");
  noTrace(r.stdout + r.stderr);
});

Deno.test("play: end of input ends the game with exit code 0", async () => {
  const r = await runScript("scripts/play.ts", ["nim", "--heaps", "2,2"], "");
  assertEquals(r.code, 0);
  assertStringIncludes(r.stdout, "Input ended; the game stops here.");
});

Deno.test("play: AI against AI plays to the end; the transcript is saved", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  const args = ["nim", "--heaps", "1,2,3", "--p1", "random", "--p2", "alphabeta:10", "--seed", "9"];
  const r = await runScript("scripts/play.ts", [...args, "--save", file]);
  assertEquals(r.code, 0, r.stderr);
  const t = JSON.parse(await Deno.readTextFile(file));
  assertEquals(t.game, "nim");
  assertEquals(t.seed, 9);
  assertEquals(t.result.reason, "end");
  assertEquals(t.result.winner, 1, "Nim 1,2,3 is lost for the first player against perfect play");
  await Deno.remove(file);
});

Deno.test("play: the menu starts a game with one keypress", async () => {
  const r = await runScript("scripts/play.ts", [], "\n");
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "Press Enter to play");
  assertStringIncludes(r.stdout, "(human) vs");
  assertStringIncludes(r.stdout, "Input ended");
});

Deno.test("play: the menu chooses game, options and sides, re-asking bad answers", async () => {
  const r = await runScript(
    "scripts/play.ts",
    [],
    "99\nnim\n1,x\n1,2\nno\nfalse\nrandom\nchess\nrandombest:4\n",
  );
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "choose 1-");
  assertStringIncludes(r.stdout, "--heaps (item 2): expected number");
  assertStringIncludes(r.stdout, "--misere: expected boolean");
  assertStringIncludes(r.stdout, "unknown player 'chess'");
  assertStringIncludes(r.stdout, "first (random) vs second (randombest:4)");
});

Deno.test("bad flags: one clear message, exit code 2, no stack trace", async () => {
  const cases: [string, string[], string][] = [
    ["scripts/play.ts", ["chess"], "unknown game 'chess'"],
    ["scripts/play.ts", ["nim", "--heaps", "1,x"], "--heaps (item 2)"],
    ["scripts/play.ts", ["nim", "--p1", "alphabeta:x"], "--p1: bad budget 'x'"],
    ["scripts/play.ts", ["nim", "--seed", "x"], "--seed must be an integer from 0"],
    ["scripts/play.ts", ["./tests/fixtures/broken_plugin.ts"], "is not a ply plugin"],
    ["scripts/analyze.ts", ["nim", "--depth", "x"], "--depth must be an integer from 0 to 1000"],
    ["scripts/analyze.ts", ["tictactoe", "--moves", "a1,a1"], "move 2 'a1': a1 is taken"],
    ["scripts/analyze.ts", ["nim", "--strategy", "magic"], "--strategy must be one of"],
    ["scripts/match.ts", ["nim", "--games", "0"], "--games must be an integer from 1"],
    ["scripts/match.ts", ["nim", "--p1", "human"], "--p1: a series is between AIs"],
    ["scripts/bench.ts", ["chess"], "unknown suite 'chess'"],
    ["scripts/bench.ts", ["kalah", "--no-throughputs"], "unknown flag --no-throughputs; flags:"],
    ["scripts/bench.ts", ["2048", "--depth"], "--depth needs a value"],
    ["scripts/bench.ts", ["domineering", "--solve", "3x3", "--off", "spare"], "no solver switch"],
    ["scripts/bench.ts", ["domineering", "--solve", "3by3"], "expected WxH, got '3by3'"],
  ];
  for (const [script, args, expected] of cases) {
    const r = await runScript(script, args);
    assertEquals(r.code, 2, `${script} ${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assertStringIncludes(r.stderr, expected);
    noTrace(r.stderr);
  }
});

Deno.test("--help prints usage, the games and the spec grammar (exit 0)", async () => {
  for (const script of ["scripts/play.ts", "scripts/match.ts", "scripts/analyze.ts"]) {
    const r = await runScript(script, ["--help"]);
    assertEquals(r.code, 0);
    assertStringIncludes(r.stdout, "Usage: deno task");
    assertStringIncludes(r.stdout, "Player SPEC:");
    assertStringIncludes(r.stdout, "--plugin-allow L");
  }
  const b = await runScript("scripts/bench.ts", ["kalah", "--help"]);
  assertEquals(b.code, 0);
  assertStringIncludes(b.stdout, "Usage: deno task bench kalah [--quick]");
  const g = await runScript("scripts/play.ts", ["nim", "--help"]);
  assertStringIncludes(g.stdout, "--heaps");
  assertStringIncludes(g.stdout, "(default 3,4,5)");
  // An option without a schema default (2048's --weights) names none.
  const w = await runScript("scripts/play.ts", ["2048", "--help"]);
  assertStringIncludes(w.stdout, "--weights");
  assert(!w.stdout.includes("(default undefined)"), w.stdout);
});

Deno.test("analyze --json: best move, value, principal variation, nodes", async () => {
  const args = ["tictactoe", "--moves", "a1,b2,c3", "--depth", "9", "--all", "--json"];
  const r = await runScript("scripts/analyze.ts", args);
  assertEquals(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assertEquals(j.toMove, "O");
  assertEquals(j.value, 0);
  assertEquals(j.exact, true);
  assert(j.bestMoves.includes(j.bestMove));
  assert(!j.bestMoves.includes("a3"), "a corner loses for O here");
  assert(j.nodes > 0 && j.pv.length > 0);
});

Deno.test("analyze's text: the value names its side, mcts's its scale; chance has no best move", async () => {
  const text = async (args: string[]) => {
    const r = await runScript("scripts/analyze.ts", args);
    assertEquals(r.code, 0, r.stderr);
    return r.stdout;
  };
  // The side to move's view: after X's corner, O's centre is worth 0 to O, a draw.
  const ab = await text(["tictactoe", "--moves", "a1", "--depth", "9"]);
  assertStringIncludes(ab, "value for O: 0\n");
  // Kalah: the side to move is named, south at the start, north after south's house 1.
  const kalah = ["kalah", "--pits", "3", "--stones", "1", "--depth", "2"];
  assert(/value for south: [-+]?\d/.test(await text(kalah)));
  const north = await text([...kalah, "--moves", "1"]);
  assert(/\(north to move\)[^]*value for north: [-+]?\d/.test(north), north);
  const mcts = await text([
    "tictactoe",
    "--moves",
    "b2",
    "--strategy",
    "mcts",
    "--iterations",
    "500",
  ]);
  assert(
    /value for O: -?[\d.]+ \(mcts: O's mean playout result, from -1000 when every playout is lost to \+1000 when every one is won\)/
      .test(mcts),
    mcts,
  );
  const solo = await text([
    "2048",
    "--moves",
    "0:0=2",
    "--strategy",
    "mcts",
    "--iterations",
    "200",
  ]);
  assertStringIncludes(solo, "(mcts: the mean score of its playouts, from 0 for none to +1000");
  // 2048 opens with the computer's tile: no best move, and the command that goes on.
  const start = await text(["2048", "--depth", "2"]);
  assert(!start.includes("best move: none"), start);
  assertStringIncludes(
    start,
    "no best move: chance moves here, not a player (its move is drawn at random from 32 " +
      "outcomes, such as NewTile (0,0) 2: 2 at (0,0))",
  );
  assertStringIncludes(start, "value for slider: ");
  const hint = "To analyse slider's move, add chance's to --moves: deno task analyze 2048 " +
    "--moves 'NewTile (0,0) 2'\n";
  assertStringIncludes(start, hint);
  // The command it gives works: a comma inside a tile's parentheses is not a separator.
  const next = await text(["2048", "--moves", "NewTile (0,0) 2", "--depth", "2"]);
  assertStringIncludes(next, "(slider to move)");
  assert(/best move: [LRUD]\n/.test(next), next);
  const later = await text([
    "2048",
    "--width",
    "3",
    "--moves",
    "NewTile (0,0) 2,R",
    "--depth",
    "2",
  ]);
  assertStringIncludes(later, "--width 3 --moves 'NewTile (0,0) 2,R,NewTile (");
});

Deno.test("analyze --solve: the exact value of Nim", async () => {
  const r = await runScript("scripts/analyze.ts", ["nim", "--heaps", "3,4,5", "--solve", "--json"]);
  const j = JSON.parse(r.stdout);
  assertEquals(j.exact, true);
  assertEquals(j.bestMove, "1-2");
  assertStringIncludes(j.valueText, "first wins");
});

Deno.test("match --json: results per player and per pair, Elo, lengths, times", async () => {
  const args = ["tictactoe", "--p1", "alphabeta:9", "--p2", "random", "--games", "6", "--json"];
  const r = await runScript("scripts/match.ts", [...args, "--openings", "none", "--seed", "5"]);
  assertEquals(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assertEquals(j.games, 6);
  assertEquals(j.openings, "none");
  assertEquals(j.results.p1.losses, 0, "perfect play never loses from the start");
  assertEquals(j.results.p1.wins + j.results.p1.draws, 6);
  assertEquals(j.results.p2.wins, 0);
  assertEquals(j.pentanomial.reduce((a: number, b: number) => a + b, 0), 3, "3 game pairs");
  assertEquals(j.pentanomial.slice(0, 2), [0, 0], "no pair below a draw for perfect play");
  assert(
    j.results.p1.score95[0] <= j.results.p1.score && j.results.p1.score <= j.results.p1.score95[1],
  );
  assert(j.elo.low <= j.elo.elo && j.elo.elo <= j.elo.high);
  assert(j.meanPlies >= 5);
  assertEquals(r.stderr, "", "no progress line when the output is piped");
  // Deterministic: the same seeds give the same results.
  const again = JSON.parse(
    (await runScript("scripts/match.ts", [...args, "--openings", "none", "--seed", "5"])).stdout,
  );
  assertEquals(again.results.p1.wins, j.results.p1.wins);
  assertEquals(again.meanPlies, j.meanPlies);
});

Deno.test("match: deterministic players repeat their games from one start, not from openings", async () => {
  const args = [
    "kalah",
    "--pits",
    "4",
    "--stones",
    "3",
    "--p1",
    "alphabeta:3",
    "--p2",
    "alphabeta:2",
  ];
  const plain = await runScript("scripts/match.ts", [
    ...args,
    "--games",
    "6",
    "--openings",
    "none",
    "--json",
  ]);
  assertEquals(plain.code, 0, plain.stderr);
  const p = JSON.parse(plain.stdout);
  // Three pairs from the same start: the second and third repeat the first, game for game.
  assertEquals(p.repeated.map((x: { id: string; sameAs: string }) => `${x.id}=${x.sameAs}`), [
    "r1-p0-a=r0-p0-a",
    "r1-p0-b=r0-p0-b",
    "r2-p0-a=r0-p0-a",
    "r2-p0-b=r0-p0-b",
  ]);
  const text = await runScript("scripts/match.ts", [...args, "--games", "6", "--openings", "none"]);
  assertStringIncludes(text.stdout, "repeated games: 4");
  const opened = await runScript("scripts/match.ts", [...args, "--games", "6", "--json"]);
  const o = JSON.parse(opened.stdout);
  assertEquals(o.openings, "random:4");
  assertEquals(o.distinctOpenings, 3);
  assertEquals(o.repeated, [], "distinct openings give distinct games");
});

Deno.test("match on a solo game (2048): one player, no sides, the game's statistics", async () => {
  const args = ["2048", "--width", "3", "--height", "3", "--games", "3", "--seed", "2"];
  const r = await runScript("scripts/match.ts", [...args, "--p1", "expectimax:2", "--json"]);
  assertEquals(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assertEquals(j.players, { p1: "expectimax:2", p2: null });
  assertEquals(j.results, undefined, "no wins and losses against chance");
  assert(j.stats.score > 0 && j.stats.maxTile >= 8);
  assert(j.movesPerSecond > 0 && j.msPerMove >= 0);
  const two = await runScript("scripts/match.ts", [...args, "--p1", "random", "--p2", "random"]);
  assertEquals(two.code, 2);
  assertStringIncludes(two.stderr, "give only --p1");
});

Deno.test("bench --attempt: searches on two workers, paused by a count, resumed to the verdict", async () => {
  const dir = await Deno.makeTempDir();
  const state = `${dir}/7x7.json`;
  try {
    const attempt = (...more: string[]) =>
      runScript("scripts/bench.ts", ["domineering", "--workers", "2", ...more]);
    const on7x7 = (...more: string[]) => attempt("--attempt", "7x7", "--state", state, ...more);
    // The positions each run searched (its progress lines: the line, then the verdict).
    const searched = (out: string) =>
      out.split("\n").filter((l) => / wins \([\d,]+ nodes\); /.test(l)).map((l) =>
        l.trim().split(":")[0]
      );
    // A pause after three settled searches: a count, not a time.
    const first = await on7x7("--max-searches", "3");
    assertEquals(first.code, 0, first.stderr);
    assertStringIncludes(first.stdout, "paused after 3 searches");
    const saved = JSON.parse(await Deno.readTextFile(state));
    assertEquals(saved.searches, 3);
    assertEquals(searched(first.stdout).length, 3);
    assert(saved.nodes > 0 && saved.settled["/"] === undefined);
    const second = await on7x7();
    assertEquals(second.code, 0, second.stderr);
    assertStringIncludes(second.stdout, "3 searches settled before");
    // The settled positions are not searched again.
    const again = searched(second.stdout).filter((l) => searched(first.stdout).includes(l));
    assertEquals(again, []);
    assert(searched(second.stdout).length > 0);
    // The same verdict and move as one uninterrupted solve.
    const direct = await attempt("--solve", "7x7");
    const move = /move (\d+);/.exec(direct.stdout)?.[1];
    assertStringIncludes(direct.stdout, "the first player wins");
    assertStringIncludes(second.stdout, `7x7: the first player (H) wins with ${move} (`);
    assertStringIncludes((await on7x7()).stdout, "already settled");
    // Four moves deep (three moves `V b1 (1/20)` above each search `H a3`), a second-player win, V first: the verdict of the direct solve.
    const deep = await attempt(
      "--attempt",
      "5x5",
      "--first",
      "V",
      "--split",
      "4",
      "--state",
      `${dir}/5x5.json`,
    );
    assertEquals(deep.code, 0, deep.stderr);
    assertStringIncludes(
      (await attempt("--solve", "5x5", "--first", "V")).stdout,
      "the second player wins",
    );
    assertStringIncludes(deep.stdout, "5x5: the second player (H) wins;");
    assert(
      searched(deep.stdout).every((l) => l.split(" ").length === 3 * 3 + 2),
      "four moves deep",
    );
    // A board the move bounds decide at the start: no search, the right winner.
    const bounded = await attempt("--attempt", "6x1", "--state", `${dir}/6x1.json`);
    assertStringIncludes(
      bounded.stdout,
      "6x1: the first player (H) wins (the move bounds decide it)",
    );
    const bad = await on7x7("--max-searches", "0");
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "--max-searches takes a whole number from 1, got '0'");
    const odd = await on7x7("--split", "3");
    assertEquals(odd.code, 2);
    assertStringIncludes(odd.stderr, "--split takes 2, 4, 6 or 8, got '3'");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
