/**
 * Bad input, every program: each mistake gets a one-line message naming the flag (and
 * the range it takes) and exit code 2, with nothing lost; good input that looked odd
 * (negative numbers, a list of one) is read as meant.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { parseSpec } from "../app/players/spec.ts";
import { coerceOption, loadPlugin, makeGame } from "../core/plugin.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import type { Strategy } from "../core/search/types.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import {
  checkSavePath,
  checkSearchFlags,
  parseCommandLine,
  strategiesFor,
  strategyFlag,
  type UsageError,
} from "../app/cli.ts";
import { runScript } from "../testing/run.ts";
import { root, runTask } from "../testing/task.ts";

const noTrace = (text: string) => {
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);
};

/** Runs each case and checks: exit code 2, the message, no stack trace, no game started. */
const refused = async (cases: readonly (readonly [string, readonly string[], string])[]) => {
  for (const [script, args, expected] of cases) {
    const r = await runScript(script, [...args]);
    const what = `${script} ${args.join(" ")}: ${r.stdout}${r.stderr}`;
    assertEquals(r.code, 2, what);
    assertStringIncludes(r.stderr, expected, what);
    assertEquals(r.stdout, "", what);
    noTrace(r.stderr);
  }
};

const usageError = <A>(effect: Effect.Effect<A, UsageError>): string => {
  const r = Effect.runSync(Effect.result(effect));
  if (Result.isSuccess(r)) throw new Error("expected a usage error");
  return r.failure.message;
};

const kalahStrategies = async () =>
  strategiesFor((await Effect.runPromise(loadPlugin("kalah", builtins))).plugin);

Deno.test("negative numbers are values: --pits -3, --seed -1, --games -5, --depth -1 give ranges", async () => {
  await refused([
    ["scripts/play.ts", ["kalah", "--pits", "-3"], "--pits: expected a value between 1 and 100"],
    ["scripts/play.ts", ["nim", "--seed", "-1"], "--seed must be an integer from 0 to 2147483647"],
    ["scripts/match.ts", ["nim", "--games", "-5"], "--games must be an integer from 1 to"],
    ["scripts/analyze.ts", ["nim", "--depth", "-1"], "--depth must be an integer from 0 to 1000"],
  ]);
  const p = Effect.runSync(
    parseCommandLine(["kalah", "--pits", "-3", "--seed", "-1"], { string: ["seed"], boolean: [] }),
  );
  assertEquals(p.gameOptions, { pits: -3 });
  assertEquals(p.flags.seed, "-1");
  assertEquals(p.positional, ["kalah"]);
});

Deno.test("integers are decimal: --board 0x10 and 1e1 are refused, not read as 16 and 10", async () => {
  await refused([
    ["scripts/play.ts", ["domineering", "--board", "0x10"], "--board: width and height must be 1"],
    ["scripts/play.ts", ["domineering", "--board", "1e1"], "--board: expected WxH"],
    ["scripts/play.ts", ["kalah", "--pits", "1e1"], "--pits"],
    ["scripts/play.ts", ["kalah", "--pits", "0x6"], "--pits"],
  ]);
  assertEquals(coerceOption("0x10"), "0x10");
  assertEquals(coerceOption("1e1"), "1e1");
  assertEquals(coerceOption("-2.5"), -2.5);
  const p = Effect.runSync(parseCommandLine(["domineering", "--board", "0x10"], FLAGLESS));
  assertEquals(p.gameOptions, { board: "0x10" });
});

const FLAGLESS = { string: [], boolean: [] } as const;

Deno.test("nim --heaps 5 is one heap; --heaps '' and 3,,5 are refused naming --heaps", async () => {
  const r = await runScript("scripts/play.ts", [
    "nim",
    "--heaps",
    "5",
    "--p1",
    "random",
    "--p2",
    "random",
    "--seed",
    "1",
  ]);
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "1: ooooo (5)\n\n");
  assert(!r.stdout.includes("2: "), r.stdout);
  await refused([
    ["scripts/play.ts", ["nim", "--heaps", ""], "--heaps (item 1)"],
    ["scripts/play.ts", ["nim", "--heaps", "3,,5"], "--heaps (item 2)"],
    ["scripts/play.ts", ["nim", "--heaps", "3,4,"], "--heaps (item 3)"],
  ]);
});

Deno.test("a stray positional names itself in every program that takes positionals", async () => {
  await refused([
    ["scripts/analyze.ts", ["tictactoe", "--json", "extra"], "unexpected argument 'extra'"],
    ["scripts/play.ts", ["nim", "extra"], "unexpected argument 'extra'"],
    ["scripts/match.ts", ["nim", "extra"], "unexpected argument 'extra'"],
    [
      "plugins/game2048/scripts/testrun.ts",
      ["minimax", "2", "2", "1", "extra"],
      "unexpected argument 'extra'",
    ],
    [
      "plugins/domineering/scripts/render.ts",
      ["domineering", "extra"],
      "unexpected argument 'extra'",
    ],
    ["plugins/kalah/scripts/kalah_db.ts", ["extra"], "unexpected argument 'extra'"],
  ]);
  const spec = { string: [], boolean: ["json"] };
  assertEquals(
    usageError(parseCommandLine(["tictactoe", "--json", "extra"], spec)),
    "unexpected argument 'extra' (--json takes no value)",
  );
  assertEquals(
    usageError(parseCommandLine(["nim", "--heaps", "1", "--heaps", "2"], spec)),
    "--heaps is given more than once",
  );
});

Deno.test("player specs: unknown and out-of-range parameters and zero budgets are refused", async () => {
  const all = await kalahStrategies();
  const err = (text: string) => {
    const r = parseSpec(text, all);
    if (Result.isSuccess(r)) throw new Error(`'${text}' should not parse`);
    return r.failure;
  };
  assertStringIncludes(err("alphabeta:5,foo=1"), "unknown parameter 'foo': alphabeta takes no");
  assertStringIncludes(err("mcts:5,foo=1"), "unknown parameter 'foo': mcts takes c (0-100)");
  assertStringIncludes(err("par_then_mm:3,ttmb=8"), "par_then_mm takes par (0-64)");
  assertStringIncludes(err("young_bros:5,par=-1"), "par must be an integer from 0 to 64, got -1");
  assertStringIncludes(err("young_bros:5,par=1.5"), "par must be an integer from 0 to 64");
  assertStringIncludes(err("mcts:100,c=-5"), "c must be a number from 0 to 100, got -5");
  assertStringIncludes(err("mcts:0"), "an iteration count from 1 to");
  assertStringIncludes(err("alphabeta:0"), "a depth from 1 to 1000");
  assertStringIncludes(err("randombest:0"), "a depth from 1 to 1000");
  assertStringIncludes(err("young_bros:5,par=1,par=2"), "par is given twice");
  const ok = parseSpec("young_bros:5,par=2,ttmb=8", all);
  assert(Result.isSuccess(ok) && ok.success.kind === "search");
  assertEquals(ok.success.params, { par: 2, ttmb: 8 });
  await refused([
    ["scripts/play.ts", ["nim", "--p1", "alphabeta:5,foo=1"], "--p1: 'alphabeta:5,foo=1': unknown"],
    ["scripts/match.ts", ["nim", "--p2", "mcts:0"], "--p2: bad budget '0' in 'mcts:0'"],
  ]);
});

Deno.test("every strategy declares the parameters it reads, with sane ranges", async () => {
  const every: Strategy[] = [...Object.values(allStrategies)];
  for (const id of builtinIds) {
    const { plugin } = await Effect.runPromise(loadPlugin(id, builtins));
    every.push(...Object.values(plugin.strategies ?? {}));
  }
  for (const s of every) {
    for (const [name, p] of Object.entries(s.params ?? {})) {
      assert(p.min <= p.max && p.description !== "", `${s.name}.${name}`);
    }
  }
  const declared = (name: string) => Object.keys(allStrategies[name].params ?? {}).sort();
  assertEquals(declared("mcts"), ["c"]);
  assertEquals(declared("par_then_mm"), ["lastmax", "par"]);
  assertEquals(declared("par_then_ab"), ["lastmax", "par", "ttmb"]);
  assertEquals(declared("young_bros"), ["par", "ttmb"]);
  assertEquals(declared("lazy_smp"), ["ttmb"]);
  const g2048 = (await Effect.runPromise(loadPlugin("2048", builtins))).plugin;
  assertEquals(Object.keys(g2048.strategies?.expectimax.params ?? {}).sort(), [
    "cutoff",
    "endgame",
    "slides",
  ]);
  const kalah = (await Effect.runPromise(loadPlugin("kalah", builtins))).plugin;
  assertEquals(Object.keys(kalah.strategies?.seq_mm.params ?? {}), ["lastmax"]);
});

Deno.test("analyze's --strategy parameters are checked (strategyFlag)", async () => {
  const all = await kalahStrategies();
  const chosen = Effect.runSync(strategyFlag("young_bros,par=2", all));
  assertEquals([chosen.name, chosen.params], ["young_bros", { par: 2 }]);
  assertStringIncludes(
    usageError(strategyFlag("young_bros,par=-1", all)),
    "--strategy: par must be an integer from 0 to 64, got -1",
  );
  assertStringIncludes(
    usageError(strategyFlag("alphabeta,foo=1", all)),
    "--strategy: unknown parameter 'foo'",
  );
  assertStringIncludes(usageError(strategyFlag("magic", all)), "--strategy must be one of");
});

Deno.test("analyze: --depth with --time, and --all with a strategy that cannot, are refused", async () => {
  const all = await kalahStrategies();
  assertStringIncludes(
    usageError(checkSearchFlags({ depth: "3", time: "1s" }, "alphabeta", all)),
    "--depth and --time cannot be combined",
  );
  assertStringIncludes(
    usageError(checkSearchFlags({ solve: true, depth: "3" }, "solve", all)),
    "--solve searches to the end",
  );
  const mcts = usageError(checkSearchFlags({ all: true }, "mcts", all));
  assertStringIncludes(mcts, "--all needs a strategy that lists every optimal move");
  assertStringIncludes(mcts, "minimax, alphabeta, expectimax");
  usageError(checkSearchFlags({ all: true }, "young_bros", all));
  for (const able of ["alphabeta", "minimax", "expectimax", "solve", "seq_mm"]) {
    Effect.runSync(checkSearchFlags({ all: true, depth: "3" }, able, all));
  }
});

Deno.test("--save works through deno task play; a path that cannot be written is refused first", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/game.json`;
  const game = ["nim", "--heaps", "1,2", "--p1", "random", "--p2", "random", "--seed", "4"];
  const r = await runTask("play", [...game, "--save", file]);
  assertEquals(r.code, 0, r.stderr);
  noTrace(r.stderr);
  assertEquals(JSON.parse(await Deno.readTextFile(file)).seed, 4);
  for (
    const [save, expected] of [[`${file}/x.json`, `cannot make the folder ${file}`], [
      dir,
      "is a directory",
    ]]
  ) {
    const bad = await runTask("play", [...game, "--save", save]);
    assertEquals(bad.code, 2, bad.stderr);
    assertStringIncludes(bad.stderr, `--save ${save}: ${expected}`);
    assert(!bad.stdout.includes("Nim"), "the game must not start");
    noTrace(bad.stderr);
  }
  // The check leaves nothing behind.
  Effect.runSync(checkSavePath(`${dir}/new.json`));
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["game.json"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task resolves a plugin path (and --save) against the user's directory", async () => {
  const plugins = new URL("plugins/nim/", root);
  const r = await runTask("play", ["./mod.ts", "--p1", "random", "--p2", "random", "--seed", "2"], {
    cwd: plugins,
  });
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "Nim: first (random) vs second (random), seed 2");
  const dir = await Deno.makeTempDir();
  const elsewhere = await runTask("play", [
    new URL("plugins/nim/mod.ts", root).pathname,
    "--p1",
    "random",
    "--p2",
    "random",
    "--save",
    "out.json",
  ], { cwd: dir, config: true });
  assertEquals(elsewhere.code, 0, elsewhere.stderr);
  assertEquals((await Deno.stat(`${dir}/out.json`)).isFile, true);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("play asks first for the side that moves first, labelled (Domineering: H)", async () => {
  const ask = async (first: string) => {
    const r = await runScript("scripts/play.ts", [], `domineering\n2x2\n\n${first}\n\n\n`);
    assertEquals(r.code, 0, r.stderr);
    return r.stdout;
  };
  const h = await ask("");
  assert(h.indexOf("  H (moves first) [") < h.indexOf("  V [human]: "), h);
  assertStringIncludes(h, "V (human) vs H (");
  const v = await ask("V");
  assert(v.indexOf("  V (moves first) [human]: ") < v.indexOf("  H ["), v);
});

Deno.test("README's Playing section says who --p1 and --p2 are and who moves first", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", root));
  assertStringIncludes(readme, "`--p1` is the game's player 0 and `--p2` its player 1");
  for (const id of builtinIds) {
    const { plugin } = await Effect.runPromise(loadPlugin(id, builtins));
    const { game } = await Effect.runPromise(makeGame(plugin, {}));
    const row = new RegExp(`^\\s*\\| \`${id}\`\\s*\\|([^|]*)\\|([^|]*)\\|([^|]*)\\|`, "m")
      .exec(readme);
    assert(row !== null, `no row for ${id}`);
    const [p0, p1, first] = row.slice(1).map((c) => c.trim());
    assertEquals(p0, game.players[0], id);
    if (game.solo !== true) assertEquals(p1, game.players[1], id);
    const mover = game.toMove(game.initial());
    if (mover !== "chance") assert(first.startsWith(game.players[mover]), `${id}: ${first}`);
  }
});
