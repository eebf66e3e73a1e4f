/**
 * The benchmark suites `deno task bench [SUITE]` runs, by name (each a module of the
 * shape `suite.ts` describes).
 *
 * @module
 */
import type { Suite } from "./suite.ts";

/** Suites by name; `core` runs when none is named. */
export const suites: Readonly<Record<string, () => Promise<Suite>>> = {
  core: () => import("./core_suite.ts"),
  kalah: () => import("./kalah_suite.ts"),
  "2048": () => import("./game2048_suite.ts"),
  pentago: () => import("./pentago_suite.ts"),
  domineering: () => import("./domineering_suite.ts"),
  tactics: () => import("./tactics_suite.ts"),
};
