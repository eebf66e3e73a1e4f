/**
 * `deno task bench [SUITE] [ARGS ...]`: runs a benchmark suite from `bench/suites.ts`
 * (default `core`) and prints its figures.
 *
 * @module
 */
import { checkSuiteArgs } from "../bench/suite.ts";
import { suites } from "../bench/suites.ts";
import { CompareError, parseCompareArgs, runCompare } from "../bench/compare.ts";

const USAGE = `Usage: deno task bench [SUITE] [ARGS ...]
       deno task bench --compare REF [--rounds N] [--filter TEXT]
Runs a benchmark suite and prints its figures (SUITE --help: its flags). The files a
suite reads or writes (--json FILE, --state FILE, --weights FILE, kalah's out/) are
relative to the directory you run it from.

--compare REF runs the core benchmarks (bench/core.bench.ts) of commit REF and of the
working tree alternately, N rounds (default 5), and prints their medians and the ratios
new/old with their range over the rounds; --filter TEXT keeps the benchmarks whose name
contains TEXT.

Suites (default core):`;

if (import.meta.main && Deno.args.includes("--compare")) {
  const options = parseCompareArgs(Deno.args);
  if (typeof options === "string") {
    console.error(`error: ${options}`);
    Deno.exit(2);
  }
  try {
    await runCompare(decodeURIComponent(new URL("..", import.meta.url).pathname), options);
  } catch (e) {
    if (!(e instanceof CompareError)) throw e;
    console.error(`error: ${e.message}`);
    Deno.exit(2);
  }
} else if (import.meta.main) {
  const [name = "core", ...rest] = Deno.args;
  if (name === "--help" || name === "-h") {
    console.log(USAGE);
    for (const [n, load] of Object.entries(suites)) {
      console.log(`  ${n.padEnd(14)} ${(await load()).description}`);
    }
    Deno.exit(0);
  }
  const load = suites[name];
  if (load === undefined) {
    console.error(`error: unknown suite '${name}'; suites: ${Object.keys(suites).join(", ")}`);
    Deno.exit(2);
  }
  const suite = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(`Usage: deno task bench ${name} ${suite.flags.usage ?? ""}`.trimEnd());
    console.log(suite.description);
    Deno.exit(0);
  }
  const problems = checkSuiteArgs(suite.flags, rest);
  if (problems.length > 0) {
    for (const p of problems) console.error(`error: ${p}`);
    Deno.exit(2);
  }
  try {
    await suite.run(rest);
  } catch (e) {
    // A bad flag value (a suite's RangeError) is the user's mistake: one line, no trace.
    if (!(e instanceof RangeError)) throw e;
    console.error(`error: ${e.message}`);
    Deno.exit(2);
  }
}
