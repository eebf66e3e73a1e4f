/**
 * `deno task bench --compare REF [--rounds N] [--filter TEXT]`: the core benchmarks
 * (`bench/core.bench.ts`, Deno's bench runner) of commit REF and of the working tree, run
 * alternately for N rounds (the order flipped every round), so that both see the same
 * machine load; prints per benchmark the median time of each side and the ratio new/old,
 * the median of the rounds' ratios with their range. REF is checked out into a temporary
 * `git worktree`, removed at the end, on Ctrl-C too.
 *
 * @module
 */

/** The benchmark file both sides run. */
export const CORE_BENCH = "bench/core.bench.ts";

/** What `--compare` was asked to do, or a one-line message naming the wrong option. */
export interface CompareOptions {
  /** The commit (any git revision) to compare the working tree with. */
  readonly ref: string;
  /** Rounds, each running both sides once. */
  readonly rounds: number;
  /** Only benchmarks whose name contains this text (`deno bench --filter`). */
  readonly filter?: string;
}

/** Reads `--compare REF [--rounds N] [--filter TEXT]`, or says which option is wrong. */
export const parseCompareArgs = (args: readonly string[]): CompareOptions | string => {
  let ref: string | undefined, rounds = 5, filter: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[i + 1];
      if (v === undefined || v.startsWith("--")) return undefined;
      i++;
      return v;
    };
    if (a === "--compare") {
      ref = value();
      if (ref === undefined) return "--compare needs a commit (REF), such as HEAD or main";
    } else if (a === "--rounds") {
      const v = value();
      if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100) {
        return `--rounds must be a whole number from 1 to 100${
          v === undefined ? "" : `, got '${v}'`
        }`;
      }
      rounds = Number(v);
    } else if (a === "--filter") {
      filter = value();
      if (filter === undefined) return "--filter needs a text (part of a benchmark's name)";
    } else {
      return `unknown option '${a}' for --compare; options: --compare REF, --rounds N, --filter TEXT`;
    }
  }
  if (ref === undefined) return "--compare needs a commit (REF)";
  return { ref, rounds, filter };
};

/** One benchmark's mean time (ns) in one run. */
type Times = Map<string, number>;

/** The benchmarks' mean times from `deno bench --json`'s output. */
export const benchTimes = (json: string): Times => {
  const report = JSON.parse(json) as {
    benches: { name: string; results: { ok?: { avg: number } }[] }[];
  };
  const times: Times = new Map();
  for (const b of report.benches) {
    const ok = b.results[0]?.ok;
    if (ok !== undefined) times.set(b.name, ok.avg);
  }
  return times;
};

/** The median of a non-empty list. */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A time in ns as µs or ms. */
const time = (ns: number): string =>
  ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`;

/** The comparison's table: one line per benchmark, from the rounds' times of each side. */
export const compareTable = (
  old: readonly Times[],
  now: readonly Times[],
): string[] => {
  const names = [
    ...new Set([...now.flatMap((t) => [...t.keys()]), ...old.flatMap((t) => [...t.keys()])]),
  ];
  const width = Math.max(9, ...names.map((n) => n.length));
  const lines = [
    `${"benchmark".padEnd(width)}  ${"old median".padStart(11)}  ${"new median".padStart(11)}  ` +
    "new/old: median (min-max over rounds)",
  ];
  for (const name of names) {
    const o = old.map((t) => t.get(name)).filter((x): x is number => x !== undefined);
    const n = now.map((t) => t.get(name)).filter((x): x is number => x !== undefined);
    if (o.length === 0 || n.length === 0) {
      lines.push(
        `${name.padEnd(width)}  ${o.length === 0 ? "only in the working tree" : "only in REF"}`,
      );
      continue;
    }
    const ratios: number[] = [];
    for (let r = 0; r < Math.min(old.length, now.length); r++) {
      const a = old[r].get(name), b = now[r].get(name);
      if (a !== undefined && b !== undefined) ratios.push(b / a);
    }
    lines.push(
      `${name.padEnd(width)}  ${time(median(o)).padStart(11)}  ${time(median(n)).padStart(11)}  ` +
        `${median(ratios).toFixed(3)}x (${Math.min(...ratios).toFixed(3)}-${
          Math.max(...ratios).toFixed(3)
        })`,
    );
  }
  return lines;
};

/** A failure to say in one line (exit 2). */
export class CompareError extends Error {}

const git = async (cwd: string, args: string[]) => {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  return {
    ok: out.success,
    stdout: new TextDecoder().decode(out.stdout).trim(),
    stderr: new TextDecoder().decode(out.stderr).trim(),
  };
};

/**
 * Runs the comparison from the repository at `root` (the working tree) and prints it;
 * throws `CompareError` for an unknown REF or a side whose benchmarks fail.
 */
export const runCompare = async (root: string, options: CompareOptions): Promise<void> => {
  const sha = await git(root, ["rev-parse", "--verify", "--quiet", `${options.ref}^{commit}`]);
  if (!sha.ok || sha.stdout === "") {
    throw new CompareError(`unknown REF '${options.ref}': not a commit of ${root}`);
  }
  const short = sha.stdout.slice(0, 10);
  const dir = await Deno.makeTempDir({ prefix: "ply-bench-compare-" });
  const tree = `${dir}/ref`;
  let child: Deno.ChildProcess | undefined;
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    await git(root, ["worktree", "remove", "--force", tree]);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await git(root, ["worktree", "prune"]);
  };
  const onSigint = () => {
    try {
      child?.kill("SIGKILL");
    } catch { /* already ended */ }
    remove().finally(() => {
      console.error("Interrupted: the temporary worktree is removed.");
      Deno.exit(130);
    });
  };
  Deno.addSignalListener("SIGINT", onSigint);
  try {
    const added = await git(root, ["worktree", "add", "--detach", tree, sha.stdout]);
    if (!added.ok) throw new CompareError(`cannot check out ${short}: ${added.stderr}`);
    try {
      await Deno.stat(`${tree}/${CORE_BENCH}`);
    } catch {
      throw new CompareError(`${options.ref} (${short}) has no ${CORE_BENCH} to compare with`);
    }
    const side = async (cwd: string, label: string): Promise<Times> => {
      const args = ["bench", "--json", "-A", "--unstable-worker-options", "--no-check"];
      if (options.filter !== undefined) args.push("--filter", options.filter);
      child = new Deno.Command(Deno.execPath(), {
        args: [...args, CORE_BENCH],
        cwd,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const out = await child.output();
      child = undefined;
      const text = new TextDecoder().decode(out.stdout);
      if (!out.success) {
        const why = new TextDecoder().decode(out.stderr).trim().split("\n").at(-1) ?? "";
        throw new CompareError(`the benchmarks of ${label} failed: ${why}`);
      }
      return benchTimes(text);
    };
    console.log(
      `deno task bench --compare ${options.ref}: ${CORE_BENCH}, ${options.rounds} round(s), ` +
        `old = ${options.ref} (${short}), new = the working tree, alternating` +
        (options.filter === undefined ? "" : `, benchmarks matching '${options.filter}'`),
    );
    const old: Times[] = [], now: Times[] = [];
    for (let r = 0; r < options.rounds; r++) {
      console.log(`round ${r + 1} of ${options.rounds}`);
      // Flipped every round, so that neither side always runs first.
      if (r % 2 === 0) {
        old.push(await side(tree, options.ref));
        now.push(await side(root, "the working tree"));
      } else {
        now.push(await side(root, "the working tree"));
        old.push(await side(tree, options.ref));
      }
    }
    if (now.every((t) => t.size === 0) && old.every((t) => t.size === 0)) {
      throw new CompareError(
        `no benchmark matches '${options.filter ?? ""}' in ${CORE_BENCH}`,
      );
    }
    for (const line of compareTable(old, now)) console.log(line);
    console.log("(ratio < 1: the working tree is faster; mean time per benchmark and round)");
  } finally {
    Deno.removeSignalListener("SIGINT", onSigint);
    await remove();
  }
};
