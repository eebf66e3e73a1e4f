/**
 * The plugin threads' limits as every program's flags give them (`--call-limit`,
 * `--memory`, `--plugin-allow`), read without Effect, so that a program's entry can start
 * its game's thread before it loads the program (`prestart.ts`).
 *
 * @module
 */
import { parseArgs } from "./deps.ts";
import { DEFAULT_LIMITS, type Grant, GRANTS, type PluginLimits } from "../core/host/thread.ts";

/** The flags of the plugin threads' limits, which every program takes. */
export const LIMIT_FLAGS: readonly string[] = ["call-limit", "memory", "plugin-allow"];

/**
 * The plugin threads' limits from `--call-limit SECONDS` (0.1 to 3600, default 2),
 * `--memory MB` (64 to 65536, default 2048) and `--plugin-allow LIST` (permissions a
 * user's plugin gets: some of read, write, net, env, run, ffi, sys, or `all`; default
 * none), or a message naming the wrong flag and its range.
 *
 * @example
 * ```ts
 * import { limitsFromArgs } from "./limits.ts";
 * const l = limitsFromArgs(["--call-limit", "0.5", "--plugin-allow", "read,net"]);
 * if (typeof l === "string" || l.callLimitMs !== 500 || l.grants.length !== 2) throw new Error();
 * if (typeof limitsFromArgs(["--memory", "10"]) !== "string") throw new Error();
 * ```
 */
export const limitsFromArgs = (args: readonly string[]): PluginLimits | string => {
  const f = parseArgs([...args], { string: LIMIT_FLAGS }) as Record<string, unknown>;
  const text = (k: string) => typeof f[k] === "string" ? f[k] as string : undefined;
  const limit = text("call-limit");
  const seconds = limit === undefined ? DEFAULT_LIMITS.callLimitMs / 1000 : Number(limit);
  if (limit !== undefined && (!/^\d+(\.\d+)?$/.test(limit) || seconds < 0.1 || seconds > 3600)) {
    return `--call-limit must be a number of seconds from 0.1 to 3600, got '${limit}'`;
  }
  const memory = text("memory");
  const mb = memory === undefined ? DEFAULT_LIMITS.memoryMb : Number(memory);
  if (memory !== undefined && (!/^\d+$/.test(memory) || mb < 64 || mb > 65536)) {
    return `--memory must be an integer number of MB from 64 to 65536, got '${memory}'`;
  }
  const allow = text("plugin-allow");
  const asked = allow === undefined ? [] : allow === "all" ? [...GRANTS] : allow.split(",");
  const wrong = asked.find((g) => !(GRANTS as readonly string[]).includes(g));
  if (wrong !== undefined) {
    return `--plugin-allow takes some of ${GRANTS.join(", ")} (comma-separated) or all, ` +
      `got '${wrong}'`;
  }
  return { callLimitMs: Math.round(seconds * 1000), memoryMb: mb, grants: asked as Grant[] };
};
