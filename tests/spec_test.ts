/** The player SPEC grammar. */
import { assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { Result } from "../core/deps.ts";
import { formatSpec, parseSpec } from "../app/players/spec.ts";

const names = ["minimax", "alphabeta", "expectimax"];
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
    const r = parseSpec(t, [...names, "mcts"]);
    if (Result.isFailure(r)) throw new Error(r.failure);
    assertEquals(formatSpec(r.success), t);
  }
});
