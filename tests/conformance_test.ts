/**
 * Every plugin passes the conformance suite (`app/conformance.ts`): one line per plugin
 * (and per option set worth covering). A user's plugin is checked the same way, by
 * `deno task check-plugin FILE` or `checkPlugin` from `plugin.ts`. The suite is shown to
 * catch broken plugins, each problem naming the plugin's function.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import {
  checkPlugin,
  type ConformanceOptions,
  type ConformanceReport,
  formatReport,
} from "../app/conformance.ts";
import { type Game, WIN } from "../core/game.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { valueFor } from "../app/display.ts";
import { formatValue } from "../app/cli.ts";
import nim from "../plugins/nim/mod.ts";
import subtraction from "./fixtures/subtraction.ts";

/** Registers the suite on one plugin module: a test that passes when every check does. */
const conformance = (
  label: string,
  load: () => Promise<unknown>,
  options: ConformanceOptions = {},
) =>
  Deno.test(`conformance ${label}`, async () => {
    const report = checkPlugin(await load(), label, options);
    assert(report.ok, formatReport(report));
  });

conformance("kalah", () => import("../plugins/kalah/mod.ts"));
conformance(
  "kalah 3x2 capture always, seed 000's store value and board",
  () => import("../plugins/kalah/mod.ts"),
  {
    options: { pits: 3, stones: 2, capture: "always", eval: "store", board: "plain" },
    searchDepth: 4,
  },
);
conformance("tictactoe", () => import("../plugins/tictactoe/mod.ts"));
conformance("nim", () => import("../plugins/nim/mod.ts"));
conformance("nim misère 1,2,3,1", () => import("../plugins/nim/mod.ts"), {
  options: { heaps: [1, 2, 3, 1], misere: true },
  searchDepth: 4,
});
conformance("race (chance test game)", () => import("./fixtures/race.ts"), {
  options: { goal: 5 },
  searchDepth: 4,
});
conformance("pentago", () => import("../plugins/pentago/mod.ts"), { searchDepth: 1 });
conformance("subtraction", () => import("./fixtures/subtraction.ts"), {
  options: { stones: 10, take: 3 },
  searchDepth: 4,
});
conformance("connect4 (README's worked example)", () => import("./fixtures/connect4.ts"), {
  searchDepth: 2,
});
conformance("connect4 4x4", () => import("./fixtures/connect4.ts"), {
  options: { columns: 4, rows: 4 },
  searchDepth: 4,
});
conformance("2048", () => import("../plugins/game2048/mod.ts"), { playouts: 8, searchDepth: 2 });
conformance("2048 3x2 monotone", () => import("../plugins/game2048/mod.ts"), {
  options: { width: 3, height: 2, eval: "monotone" },
  searchDepth: 4,
});
conformance("domineering 4x4", () => import("../plugins/domineering/mod.ts"), {
  options: { board: "4x4" },
});
conformance("domineering carpet 1, V first", () => import("../plugins/domineering/mod.ts"), {
  options: { shape: "carpet:1" },
  searchDepth: 4,
});

/** Nim 1,2 with one function replaced: a plugin module whose game is broken that way. */
const brokenNim = (change: Record<string, unknown>) => ({
  default: {
    ...nim,
    create: () => ({ ...nim.create({ heaps: [1, 2], misere: false }), ...change }),
  },
});

/** The failed checks of a report: each check's name and its problems' functions. */
const failures = (report: ConformanceReport) =>
  report.checks.filter((c) => c.problems.length > 0).map((c) => ({
    check: c.name,
    fns: c.problems.map((p) => p.fn),
  }));

const quick: ConformanceOptions = { playouts: 3, searchDepth: 2 };

Deno.test("the suite names the function of a broken notation, key, value or outcome", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ parseMove: () => ({ _tag: "Success", success: 0 }) }, "parseMove"],
    [{ key: () => Math.random() }, "key"],
    [{ value: () => NaN }, "value"],
    [{ outcome: () => undefined }, "outcome"],
    [{ orderMoves: (_s: unknown, ms: readonly number[]) => ms.slice(1) }, "orderMoves"],
    [{ moves: () => [0, 0] }, "moves"],
    [{ render: () => "" }, "render"],
  ];
  for (const [change, fn] of cases) {
    const report = checkPlugin(brokenNim(change), "./broken.ts", quick);
    assertEquals(report.ok, false, fn);
    const playouts = report.checks.find((c) => c.name.includes("random playouts"))!;
    assertEquals(playouts.problems.map((p) => p.fn), [fn], formatReport(report));
    assertStringIncludes(formatReport(report), `./broken.ts: ${fn}: `);
  }
});

Deno.test("a plugin's exception is a problem naming the function that threw", () => {
  const report = checkPlugin(
    brokenNim({
      play: () => {
        throw new Error("boom");
      },
    }),
    "./throws.ts",
    quick,
  );
  const text = formatReport(report);
  assertStringIncludes(text, "./throws.ts: play: threw: boom in playout 1 after 0 plies");
  assertEquals(report.ok, false);
});

Deno.test("decisive values beyond WIN, or not exactly WIN at the end, are refused", () => {
  // Subtraction's way with a margin added, as "±WIN or beyond plus a margin" once read:
  // a 12-ply win would be shown as a win in 10 plies.
  const beyond = checkPlugin(
    brokenNim({
      value: (s: readonly number[]) => (s.slice(0, -1).every((h) => h === 0) ? WIN + 2 : 0),
    }),
    "./margin.ts",
    quick,
  );
  assertEquals(failures(beyond).map((f) => f.fns), [["value"]]);
  assertStringIncludes(formatReport(beyond), "gave (WIN + 2): a decisive value is ±WIN");
  const short = checkPlugin(
    brokenNim({
      value: (s: readonly number[]) => (s.slice(0, -1).every((h) => h === 0) ? -(WIN - 3) : 0),
    }),
    "./short.ts",
    quick,
  );
  assertStringIncludes(formatReport(short), "at the end it gave -(WIN - 3)");
});

Deno.test("a module that is not a plugin fails the first check and skips the others", () => {
  const report = checkPlugin({ notDefault: 1 }, "./nothing.ts");
  assertEquals(report.ok, false);
  assertEquals(report.checks.filter((c) => c.skipped !== undefined).length, 5);
  const text = formatReport(report);
  assertStringIncludes(text, "FAIL  the default export is a plugin");
  assertStringIncludes(text, "./nothing.ts: the module is not a ply plugin: it has no default");
  assertStringIncludes(text, "./nothing.ts: 1 of 6 checks failed");
  const badOptions = checkPlugin(brokenNim({}), "./nim.ts", { options: { heaps: "x" } });
  assertEquals(failures(badOptions), [{
    check: "the default export is a plugin and its options build a game",
    fns: ["create"],
  }]);
});

Deno.test("the same plugin gives the same report", () => {
  const a = checkPlugin(brokenNim({ key: () => Math.random() }), "./k.ts", quick);
  const b = checkPlugin(brokenNim({ key: () => Math.random() }), "./k.ts", quick);
  assertEquals(formatReport(a), formatReport(b));
});

Deno.test("a decisive value's words match its line: a win in 12 plies is said to be one", () => {
  // Subtraction 12, take 1: every line is 12 plies long, and the second player wins.
  const game = subtraction.create({ stones: 12, take: 1 }) as Game<unknown>;
  const r = alphabetaSearch(game, game.initial(), { depth: 30, distance: true });
  assertEquals(r.pv.length, 12);
  assertEquals(valueFor(game, r.value, 0), "second wins in 12 plies");
  assertEquals(formatValue(game, r.value), "second wins (in 12 plies)");
  // With a margin added beyond WIN (WIN + 2 at the end), the same line would read as a
  // win in 10 plies: the suite refuses such a value.
  const margin = { ...game, value: (s: unknown) => game.value(s) * (WIN + 2) / WIN };
  const wrong = alphabetaSearch(margin, game.initial(), { depth: 30, distance: true });
  assertEquals(formatValue(game, wrong.value), "second wins (in 10 plies)");
  const report = checkPlugin(
    { default: { ...subtraction, create: () => margin } },
    "./margin.ts",
    quick,
  );
  assertEquals(failures(report).map((f) => f.fns), [["value"]]);
});
