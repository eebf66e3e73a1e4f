/**
 * The scripts' third-party specifiers, pinned in one place.
 *
 * @module
 */
export { parseArgs } from "jsr:@std/cli@^1.0.32/parse-args";
