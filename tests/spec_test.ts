/**
 * The player SPEC grammar: specs, their mistakes, formatting; a strategy's parameters and
 * a budget taken from their minimum to their maximum inclusive, refused just beyond, and
 * integers only where declared.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Result } from "../core/deps.ts";
import type { GamePlugin } from "../core/plugin.ts";
import type { Strategy } from "../core/search/types.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { builtinStrategies } from "../core/search/strategies.ts";
import { formatSpec, parseSpec, parseStrategyParams } from "../app/players/spec.ts";
import { builtinList } from "../plugins/registry.ts";

const { minimax, alphabeta, expectimax, mcts } = builtinStrategies;
const names = { minimax, alphabeta, expectimax };
const ok = (t: string) => {
  const r = parseSpec(t, names);
  if (Result.isFailure(r)) throw new Error(r.failure);
  return r.success;
};
const err = (t: string) => {
  const r = parseSpec(t, names);
  if (Result.isSuccess(r)) throw new Error(`'${t}' should not parse`);
  return r.failure;
};

Deno.test("specs: human, random, depths, times", () => {
  assertEquals(ok("human"), { kind: "human" });
  assertEquals(ok(" Random "), { kind: "random" });
  assertEquals(ok("alphabeta:6"), { kind: "search", strategy: "alphabeta", depth: 6 });
  assertEquals(ok("alphabeta:500ms"), { kind: "search", strategy: "alphabeta", timeMs: 500 });
  assertEquals(ok("expectimax:1.5s"), { kind: "search", strategy: "expectimax", timeMs: 1500 });
  assertEquals(ok("minimax"), { kind: "search", strategy: "minimax", timeMs: 1000 });
  assertEquals(ok("randombest:3"), { kind: "search", strategy: "randombest", depth: 3 });
});

Deno.test("specs: mistakes say what was expected", () => {
  assertStringIncludes(err("chess:3"), "STRATEGY is one of randombest, minimax, alphabeta");
  assertStringIncludes(err("alphabeta:-1"), "expected a depth from 1 to 1000");
  assertStringIncludes(err("alphabeta:fast"), "or a time such as 500ms or 2s");
  assertStringIncludes(err("alphabeta:0ms"), "must be more than 0");
  assertStringIncludes(err("alphabeta:3:4"), "unknown player");
});

Deno.test("specs round-trip through formatSpec", () => {
  for (const t of ["human", "random", "alphabeta:6", "alphabeta:500ms", "mcts:2s", "minimax:1s"]) {
    const r = parseSpec(t, { ...names, mcts });
    if (Result.isFailure(r)) throw new Error(r.failure);
    assertEquals(formatSpec(r.success), t);
  }
});

/** A declared parameter and a value near or at one of its bounds. */
const paramArb = fc.record({
  min: fc.integer({ min: -50, max: 50 }),
  span: fc.integer({ min: 0, max: 100 }),
  integer: fc.boolean(),
  at: fc.constantFrom("min", "max", "middle"),
  offset: fc.constantFrom(-1, -0.5, -0.25, 0, 0.25, 0.5, 1),
});

Deno.test("property: a parameter is taken from its min to its max inclusive, integers where declared", () => {
  fc.assert(
    fc.property(paramArb, ({ min, span, integer, at, offset }) => {
      const max = min + span;
      const p = { min, max, integer, description: "a knob" };
      const value = (at === "min" ? min : at === "max" ? max : Math.floor((min + max) / 2)) +
        offset;
      const r = parseStrategyParams("s", { k: p }, [`k=${value}`]);
      const fits = value >= min && value <= max && (!integer || Number.isInteger(value));
      const what = `k=${value} for ${integer ? "an integer" : "a number"} from ${min} to ${max}`;
      if (fits) {
        assert(Result.isSuccess(r), `${what}: ${Result.isFailure(r) ? r.failure : ""}`);
        assertEquals(r.success, { k: value });
      } else {
        assert(Result.isFailure(r), `${what} was taken`);
        assertEquals(
          r.failure,
          `k must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got ${value} ` +
            "(s: a knob)",
        );
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("every strategy's parameters: min and max taken, just beyond them refused", async () => {
  const every: Record<string, Strategy> = { ...allStrategies };
  for (const [, entry] of builtinList) {
    const plugin = ((await entry.load()) as { default: GamePlugin<unknown, unknown> }).default;
    Object.assign(every, plugin.strategies ?? {});
  }
  let checked = 0;
  for (const [name, strategy] of Object.entries(every)) {
    for (const [param, p] of Object.entries(strategy.params ?? {})) {
      const spec = (v: number) => parseSpec(`${name}:3,${param}=${v}`, every);
      const step = p.integer === true ? 1 : (p.max - p.min) / 1000 || 0.001;
      for (const v of [p.min, p.max]) {
        const r = spec(v);
        assert(Result.isSuccess(r), `${name} ${param}=${v}: ${Result.isFailure(r) && r.failure}`);
        assert(r.success.kind === "search");
        assertEquals(r.success.params, { [param]: v });
      }
      for (const v of [p.min - step, p.max + step]) {
        const r = spec(v);
        assert(Result.isFailure(r), `${name} ${param}=${v} was taken`);
        assertStringIncludes(r.failure, `${param} must be`);
        assertStringIncludes(r.failure, `from ${p.min} to ${p.max}, got ${v}`);
      }
      if (p.integer === true && p.max > p.min) {
        assert(Result.isFailure(spec(p.min + 0.5)), `${name} ${param}=${p.min + 0.5} was taken`);
      }
      checked++;
    }
  }
  assert(checked >= 8, `only ${checked} parameters`);
});

Deno.test("specs: a budget from 1 to its maximum inclusive (depths to 1000, mcts to 100000000)", () => {
  const all = { ...names, mcts };
  const parse = (t: string) => parseSpec(t, all);
  assertEquals(
    parse("alphabeta:1"),
    Result.succeed({ kind: "search", strategy: "alphabeta", depth: 1 }),
  );
  assertEquals(
    parse("alphabeta:1000"),
    Result.succeed({ kind: "search", strategy: "alphabeta", depth: 1000 }),
  );
  assertEquals(
    parse("mcts:1"),
    Result.succeed({ kind: "search", strategy: "mcts", iterations: 1 }),
  );
  assertEquals(
    parse("mcts:100000000"),
    Result.succeed({ kind: "search", strategy: "mcts", iterations: 100_000_000 }),
  );
  for (
    const [t, range] of [
      ["alphabeta:1001", "a depth from 1 to 1000"],
      ["alphabeta:0", "a depth from 1 to 1000"],
      ["mcts:100000001", "an iteration count from 1 to 100000000"],
      ["mcts:0", "an iteration count from 1 to 100000000"],
    ]
  ) {
    const r = parse(t);
    assert(Result.isFailure(r), `${t} was taken`);
    assertStringIncludes(r.failure, range);
  }
});
