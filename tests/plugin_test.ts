/**
 * Plugins: loading by id, path and URL; a broken module names everything it lacks;
 * options decode with defaults, and bad options are all reported, by name and range.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { Cause, Effect, Exit, Option } from "../core/deps.ts";
import { coerceOption, loadPlugin, makeGame, optionHelp } from "../core/plugin.ts";
import { builtins } from "../plugins/registry.ts";
import { openGame } from "../mod.ts";

const failure = <A, E extends { message: string }>(e: Effect.Effect<A, E>): string => {
  const exit = Effect.runSyncExit(e as Effect.Effect<A, E>);
  assert(Exit.isFailure(exit), "expected a failure");
  const err = Cause.findErrorOption(exit.cause);
  assert(Option.isSome(err));
  return err.value.message;
};
const failureAsync = async <A, E extends { message: string }>(e: Effect.Effect<A, E>) => {
  const exit = await Effect.runPromiseExit(e);
  assert(Exit.isFailure(exit), "expected a failure");
  const err = Cause.findErrorOption(exit.cause);
  assert(Option.isSome(err));
  return err.value.message;
};

Deno.test("built-in plugins load by id", async () => {
  for (const id of Object.keys(builtins)) {
    const { plugin } = await Effect.runPromise(loadPlugin(id, builtins));
    assertEquals(plugin.id, id);
  }
});

Deno.test("a plugin loads from a relative path and from a file URL", async () => {
  const byPath = await Effect.runPromise(loadPlugin("./tests/fixtures/race.ts", builtins));
  assertEquals(byPath.plugin.id, "race");
  const url = new URL("./fixtures/race.ts", import.meta.url).href;
  const byUrl = await Effect.runPromise(openGame(url, { goal: 3 }));
  assertEquals(byUrl.game.id, "race");
  assertEquals(byUrl.options, { goal: 3 });
});

Deno.test("a broken plugin module names every problem", async () => {
  const msg = await failureAsync(loadPlugin("./tests/fixtures/broken_plugin.ts", builtins));
  assertStringIncludes(msg, "is not a ply plugin");
  for (const what of ["id", "name", "description", "options", "create"]) {
    assertStringIncludes(msg, `- ${what}:`);
  }
  const none = await failureAsync(loadPlugin("./tests/fixtures/no_default.ts", builtins));
  assertStringIncludes(none, "no default export");
  const missing = await failureAsync(loadPlugin("./tests/fixtures/nowhere.ts", builtins));
  assertStringIncludes(missing, "plugin ./tests/fixtures/nowhere.ts could not be loaded: ");
  const unknown = await failureAsync(loadPlugin("chess", builtins));
  assertStringIncludes(unknown, "unknown game 'chess'; built-in games:");
});

Deno.test("options: defaults, and every bad option named with its range", async () => {
  const { plugin } = await Effect.runPromise(loadPlugin("nim", builtins));
  const ok = Effect.runSync(makeGame(plugin, {}));
  assertEquals(ok.options, { heaps: [3, 4, 5], misere: false });
  const msg = failure(makeGame(plugin, { heaps: [3, -1], misere: "maybe", size: 3 }));
  assertStringIncludes(msg, "--size: unknown option");
  assertStringIncludes(msg, "--heaps (item 2): expected a value between 0 and 1000");
  assertStringIncludes(msg, "--misere: expected boolean");
  assertStringIncludes(msg, "(options of nim: --heaps, --misere)");
});

Deno.test("options help lists names, descriptions, accepted values and defaults", async () => {
  const { plugin } = await Effect.runPromise(loadPlugin("nim", builtins));
  const help = optionHelp(plugin);
  assertEquals(help.map((h) => h.name), ["heaps", "misere"]);
  assertEquals(help[0].default, [3, 4, 5]);
  assertStringIncludes(help[0].description, "heap sizes");
  assertEquals(help[1].expected, "true or false");
  assertEquals(
    help[0].expected,
    "a comma-separated list of an integer between 0 and 1000 (length at least 1, length at most 64)",
  );
});

Deno.test("command-line option values are coerced: numbers, booleans, lists", () => {
  assertEquals(coerceOption("6"), 6);
  assertEquals(coerceOption("true"), true);
  assertEquals(coerceOption("3,4,5"), [3, 4, 5]);
  assertEquals(coerceOption("5x5"), "5x5");
  assertEquals(coerceOption("-2"), -2);
});
