/**
 * The limits plugin threads get, as a service a program provides (`thread.ts` holds what
 * they are, with no Effect, so that a program's entry can start a plugin thread before it
 * loads Effect: `prestartPluginThread`).
 *
 * @module
 */
import { Context } from "../deps.ts";
import { DEFAULT_LIMITS, type PluginLimits } from "./thread.ts";

// The superclass as a variable of an explicit type: JSR's fast check reads no call there.
const LimitsKey: Context.Reference<PluginLimits> = Context.Reference<PluginLimits>(
  "ply/PluginLimits",
  { defaultValue: () => DEFAULT_LIMITS },
);

/**
 * The limits plugin threads get (a reference: `DEFAULT_LIMITS` unless a program provides
 * its own, as `runMain` does from `--call-limit`, `--memory` and `--plugin-allow`).
 */
export const Limits: Context.Reference<PluginLimits> = LimitsKey;
