/**
 * A user's plugin's answers are checked: the game its `create()` returns must have the
 * protocol's members (`gameProblems`), a guarded game's `moves`, `chances` and `outcome`
 * answers must keep the protocol (`core/guard.ts`), and a module that does not load is
 * named as the plugin's fault. Each hostile fixture runs through the programs as a user
 * runs them: one line naming the plugin and what is wrong, no stack, no internal error.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertStringIncludes,
  assertThrows,
  fc,
} from "../testing/deps.ts";
import { runTask } from "../testing/task.ts";
import type { Ran } from "../testing/run.ts";
import { chancesProblem, guardGame, movesProblem } from "../core/guard.ts";
import { PluginFault } from "../core/errors.ts";
import { gameProblems } from "../core/plugin.ts";
import { nimGame } from "../plugins/nim/mod.ts";

/** The user-facing checks of a program that refused a plugin: `code`, the line, no stack. */
const refused = (r: Ran, code: number, line: string | RegExp) => {
  assertEquals(r.code, code, r.stderr);
  if (typeof line === "string") assertStringIncludes(r.stderr, `error: ${line}\n`);
  else assertMatch(r.stderr, new RegExp(`^error: ${line.source}$`, "m"));
  assert(!r.stderr.includes("internal error"), r.stderr);
  assert(!/^\s+at /m.test(r.stderr), `a stack trace:\n${r.stderr}`);
};

const play = (plugin: string) => runTask("play", [plugin, "--p1", "random", "--p2", "random"]);
const analyze = (plugin: string) => runTask("analyze", [plugin, "--depth", "2"]);

Deno.test("a game without a required member is refused in one line naming it", async () => {
  const line = "plugin ./tests/fixtures/incomplete.ts: the game its create() returned is not " +
    "a ply game: players is 2, not the two players' names; outcome is missing (a function)";
  refused(await play("tests/fixtures/incomplete.ts"), 2, line);
  refused(await analyze("tests/fixtures/incomplete.ts"), 2, line);
});

Deno.test("moves() that lists a move twice is the plugin's fault, in play and in a search", async () => {
  // The repeated move is the first legal one after the first move, which the players pick.
  const line =
    /plugin \.\/tests\/fixtures\/dupes\.ts failed in moves\(\): move \d+ is listed twice/;
  refused(await play("tests/fixtures/dupes.ts"), 1, line);
  refused(await analyze("tests/fixtures/dupes.ts"), 1, line);
});

Deno.test("chances() summing to 0.9 is the plugin's fault, in play and in a search", async () => {
  const line =
    "plugin ./tests/fixtures/short_chances.ts failed in chances(): the probabilities sum to 0.9, not 1";
  refused(await play("tests/fixtures/short_chances.ts"), 1, line);
  refused(await analyze("tests/fixtures/short_chances.ts"), 1, line);
});

Deno.test("a plugin module with a syntax error is named as the plugin's fault", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ply-syntax-" });
  try {
    const path = `${dir}/broken.ts`;
    await Deno.writeTextFile(path, 'export default { id: "x",\n  name: "y" "z" };\n');
    for (const r of [await play(path), await analyze(path)]) {
      refused(
        r,
        2,
        `plugin file://${path} could not be loaded: SyntaxError: Expected ',', got 'string literal ` +
          `("z", "z")' (at file://${path}:2:13)`,
      );
      assert(!r.stderr.includes("Content-Type"), "no HTTP hint for a file");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a URL plugin served as text/html is named, with a hint about the Content-Type", async () => {
  const source = await Deno.readFile(new URL("./fixtures/race.ts", import.meta.url));
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    () => new Response(source, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  try {
    const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/race.ts`;
    const r = await play(url);
    refused(
      r,
      2,
      `plugin ${url} could not be loaded: SyntaxError: Expected ',', got 'Game' (at ${url}:10:15); ` +
        "if it is served over HTTP, check that the server sends it as JavaScript/TypeScript " +
        "(Content-Type)",
    );
  } finally {
    ac.abort();
    await server.finished;
  }
});

Deno.test("movesProblem: distinct non-negative integers pass; a repeat is named", () => {
  const seen = new Set<number>();
  // Short lists are checked pairwise, longer ones with the reusable set: both sizes.
  for (const size of [{ maxLength: 16 }, { minLength: 17, maxLength: 80 }]) {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat({ max: 1000 }), size),
        fc.nat(),
        fc.nat(),
        (moves, pick, at) => {
          assertEquals(movesProblem(moves, seen), undefined);
          if (moves.length === 0) return;
          const twice = moves[pick % moves.length];
          const listed = [...moves];
          listed.splice(at % (moves.length + 1), 0, twice);
          assertEquals(movesProblem(listed, seen), `move ${twice} is listed twice`);
          assertEquals(seen.size, 0, "the reusable set is left empty");
        },
      ),
    );
  }
  assertEquals(movesProblem([0, 2.5], seen), "item 2 is 2.5, not a move (a non-negative integer)");
  assertEquals(movesProblem([-1], seen), "item 1 is -1, not a move (a non-negative integer)");
  assertEquals(movesProblem(["a"], seen), 'item 1 is "a", not a move (a non-negative integer)');
  assertEquals(movesProblem(undefined, seen), "returned undefined, not an array of moves");
});

Deno.test("chancesProblem: probabilities summing to 1 pass; otherwise the sum is named", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 40 }),
      fc.double({ min: 0.5, max: 0.999, noNaN: true }),
      (weights, short) => {
        const total = weights.reduce((a, b) => a + b, 0);
        const chances = weights.map((w, move) => ({ move, p: w / total }));
        assertEquals(chancesProblem(chances), undefined);
        const scaled = chances.map((c) => ({ move: c.move, p: c.p * short }));
        assertStringIncludes(chancesProblem(scaled) ?? "", "the probabilities sum to ");
      },
    ),
  );
  assertEquals(
    chancesProblem([{ move: 0, p: 1.5 }, { move: 1, p: -0.5 }]),
    "move 1 has probability -0.5, not a number from 0 to 1",
  );
  assertEquals(
    chancesProblem([{ move: 0, p: NaN }]),
    "move 0 has probability NaN, not a number from 0 to 1",
  );
  assertEquals(chancesProblem([], false), undefined);
  assertEquals(chancesProblem([], true), "no outcomes at a chance node");
});

Deno.test("a guarded game's wrong answers are PluginFaults naming the function", () => {
  const nim = nimGame({ heaps: [1, 2], misere: false });
  const fault = (f: () => unknown, fn: string, message: string) => {
    const e = assertThrows(f, PluginFault);
    assertEquals([e.fn, e.message], [fn, `plugin ./my.ts failed in ${fn}(): ${message}`]);
  };
  const s = nim.initial();
  const dupes = guardGame({ ...nim, moves: () => [1, 2, 1] }, "./my.ts");
  fault(() => dupes.moves(s), "moves", "move 1 is listed twice");
  const early = guardGame({ ...nim, outcome: () => ({ winner: 0, margin: 0 }) }, "./my.ts");
  fault(
    () => early.outcome(s),
    "outcome",
    "reported an outcome at a position that still has moves (3 of them)",
  );
  // At the end the same answer is right.
  const end = nim.play(nim.play(s, nim.moves(s)[0]), nim.moves(nim.play(s, nim.moves(s)[0]))[0]);
  const last = nim.moves(end).length === 0 ? end : nim.play(end, nim.moves(end)[0]);
  assertEquals(nim.moves(last).length, 0);
  assertEquals(early.outcome(last), { winner: 0, margin: 0 });
  const chance = guardGame(
    { ...nim, toMove: () => "chance", chances: () => [{ move: 0, p: 0.9 }] },
    "./my.ts",
  );
  fault(() => chance.chances(s), "chances", "the probabilities sum to 0.9, not 1");
  // Right answers pass unchanged.
  const guarded = guardGame(nim, "./my.ts");
  assertEquals(guarded.moves(s), nim.moves(s));
  assertEquals(guarded.outcome(s), undefined);
});

Deno.test("gameProblems: every missing or wrong member, one line; prototype members count", () => {
  const nim = nimGame({ heaps: [1, 2], misere: false });
  assertEquals(gameProblems(nim), undefined);
  assertEquals(gameProblems(Object.create(nim)), undefined);
  const { moves: _, ...noMoves } = nim;
  assertEquals(gameProblems(noMoves), "moves is missing (a function)");
  assertEquals(
    gameProblems({ ...nim, id: 3, value: 0, key: "k", picture: { svg: () => "" } }),
    'id is 3, not a string; value() is 0, not a function; key() is "k", not a function; ' +
      "picture is an object, not an object with functions svg and picks",
  );
  assertEquals(gameProblems(undefined), "it is undefined, not a game (an object)");
});
