/**
 * The benchmark suites `deno task bench [SUITE]` runs, by name. A suite module exports
 * `run(args)`, prints its figures (with the command that reproduces them) and may write
 * JSON or SVG files under `out/`.
 *
 * @module
 */

/** A suite module. */
export interface Suite {
  /** Runs the suite with the remaining command-line arguments. */
  readonly run: (args: readonly string[]) => Promise<void>;
  /** One line for `--help`. */
  readonly description: string;
}

/** Suites by name; `core` runs when none is named. */
export const suites: Readonly<Record<string, () => Promise<Suite>>> = {
  core: () => import("./core_suite.ts"),
  kalah: () => import("./kalah_suite.ts"),
  "2048": () => import("./game2048_suite.ts"),
  pentago: () => import("./pentago_suite.ts"),
  domineering: () => import("./domineering_suite.ts"),
};
