/**
 * `deno task bench --compare REF`: the core benchmarks of a commit and of the working tree
 * side by side, from a temporary clone as a user's checkout (its temporary worktree gone at
 * the end); the table's shape, never its times; every wrong option named in one line.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../testing/deps.ts";
import { root, runTask } from "../testing/task.ts";
import { benchTimes, compareTable, median, parseCompareArgs } from "../bench/compare.ts";

Deno.test("bench --compare: options read, every wrong one named", () => {
  assertEquals(parseCompareArgs(["--compare", "main"]), {
    ref: "main",
    rounds: 5,
    filter: undefined,
  });
  assertEquals(parseCompareArgs(["--compare", "HEAD~1", "--rounds", "3", "--filter", "tt"]), {
    ref: "HEAD~1",
    rounds: 3,
    filter: "tt",
  });
  const wrong: [string[], string][] = [
    [["--compare"], "--compare needs a commit (REF)"],
    [
      ["--compare", "HEAD", "--rounds", "0"],
      "--rounds must be a whole number from 1 to 100, got '0'",
    ],
    [["--compare", "HEAD", "--rounds", "x"], "got 'x'"],
    [["--compare", "HEAD", "--rounds", "101"], "got '101'"],
    [["--compare", "HEAD", "--filter"], "--filter needs a text"],
    [["--compare", "HEAD", "--quick"], "unknown option '--quick' for --compare"],
  ];
  for (const [args, message] of wrong) {
    const r = parseCompareArgs(args);
    assert(typeof r === "string", args.join(" "));
    assertStringIncludes(r, message);
  }
});

Deno.test("bench --compare: medians, ratios per round and their range, one-sided benchmarks", () => {
  const json = (times: Record<string, number>) =>
    JSON.stringify({
      benches: Object.entries(times).map(([name, avg]) => ({ name, results: [{ ok: { avg } }] })),
    });
  assertEquals(benchTimes(json({ a: 10 })), new Map([["a", 10]]));
  assertEquals([median([3, 1, 2]), median([4, 1, 3, 2])], [2, 2.5]);
  const old = [benchTimes(json({ a: 1000, gone: 5 })), benchTimes(json({ a: 2000, gone: 5 }))];
  const now = [benchTimes(json({ a: 500, fresh: 7 })), benchTimes(json({ a: 3000, fresh: 7 }))];
  const [head, a, fresh, gone] = compareTable(old, now).toSorted((x, y) =>
    x.startsWith("benchmark") ? -1 : y.startsWith("benchmark") ? 1 : x.localeCompare(y)
  );
  assertStringIncludes(head, "new/old: median (min-max over rounds)");
  // Ratios 0.5 and 1.5: their median 1, their range 0.5-1.5; medians of the times 1.5 µs, 1.75 µs.
  assertMatch(a, /^a\s+1\.5 µs\s+1\.8 µs\s+1\.000x \(0\.500-1\.500\)$/);
  assertMatch(fresh, /^fresh\s+only in the working tree$/);
  assertMatch(gone, /^gone\s+only in REF$/);
});

Deno.test("bench --compare: from a clone, a commit against the working tree; its worktree removed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ply-compare-" });
  try {
    const clone = `${dir}/ply`;
    const git = (...args: string[]) => new Deno.Command("git", { args, cwd: clone }).output();
    const cloned = await new Deno.Command("git", { args: ["clone", "-q", root.pathname, clone] })
      .output();
    assertEquals(cloned.code, 0, new TextDecoder().decode(cloned.stderr));
    const r = await runTask("bench", [
      ...["--compare", "HEAD", "--rounds", "2", "--filter", "protocol step"],
    ], { cwd: clone });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertStringIncludes(r.stdout, "2 round(s), old = HEAD (");
    assertStringIncludes(r.stdout, "round 2 of 2");
    const rows = r.stdout.split("\n").filter((l) => /\d\.\d{3}x \(\d/.test(l));
    assert(rows.length >= 1, r.stdout);
    for (const row of rows) {
      assertMatch(row, /^protocol step.*µs\s+.*µs\s+\d+\.\d{3}x \(\d+\.\d{3}-\d+\.\d{3}\)$/);
    }
    const trees = new TextDecoder().decode((await git("worktree", "list")).stdout);
    assertEquals(trees.trim().split("\n").length, 1, `the temporary worktree is gone: ${trees}`);

    const unknown = await runTask("bench", ["--compare", "no-such-commit"], { cwd: clone });
    assertEquals(unknown.code, 2, unknown.stdout + unknown.stderr);
    assertStringIncludes(unknown.stderr, "no-such-commit");
    const bad = await runTask("bench", ["--compare", "HEAD", "--rounds", "0"], { cwd: clone });
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "--rounds must be a whole number from 1 to 100, got '0'");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
