/**
 * What a benchmark suite is: a module that exports `run(args)`, prints its figures (with
 * the command that reproduces them) and may write JSON or SVG files under `out/`; its
 * description; and the flags it takes, checked before it runs.
 *
 * @module
 */

/** The flags a suite takes (checked before it runs, so a mistyped flag names itself). */
export interface SuiteFlags {
  /** Flags without a value (`--quick`). */
  readonly boolean?: readonly string[];
  /** Flags followed by a value (`--depth 9`). */
  readonly value?: readonly string[];
  /** The flags as `--help` shows them. */
  readonly usage?: string;
}

/** A suite module. */
export interface Suite {
  /** Runs the suite with the remaining command-line arguments. */
  readonly run: (args: readonly string[]) => Promise<void>;
  /** One line for `--help`. */
  readonly description: string;
  /** The flags it takes. */
  readonly flags: SuiteFlags;
}

/** The problems with a suite's arguments (empty when there are none). */
export const checkSuiteArgs = (flags: SuiteFlags, args: readonly string[]): string[] => {
  const problems: string[] = [];
  const known = [...(flags.boolean ?? []), ...(flags.value ?? [])];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--")) continue;
    const name = a.slice(2);
    if (flags.value?.includes(name)) {
      if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
        problems.push(`--${name} needs a value`);
      }
    } else if (!flags.boolean?.includes(name)) {
      problems.push(
        `unknown flag --${name}` +
          (known.length > 0 ? `; flags: ${known.map((f) => `--${f}`).join(", ")}` : "; none"),
      );
    }
  }
  return problems;
};
