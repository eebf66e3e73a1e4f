/**
 * `deno task bench [SUITE] [ARGS ...]`: runs a benchmark suite from `bench/suites.ts`
 * (default `core`) and prints its figures.
 *
 * @module
 */
import { checkSuiteArgs } from "../bench/suite.ts";
import { suites } from "../bench/suites.ts";

const USAGE = `Usage: deno task bench [SUITE] [ARGS ...]
Runs a benchmark suite and prints its figures (SUITE --help: its flags). The files a
suite reads or writes (--json FILE, --state FILE, --weights FILE, kalah's out/) are
relative to the directory you run it from.

Suites (default core):`;

if (import.meta.main) {
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
