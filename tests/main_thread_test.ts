/**
 * A program's main thread loads no plugin, a built-in's no more than a user's: `runMain`
 * makes any load there a defect (`refusePluginsOnThisThread`), so every test that runs a
 * program proves its paths clean; these tests prove the guard itself, and that what the
 * programs read instead (the registry's names, the catalog thread's declarations and
 * option checks) says what the plugins say.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { runCommand } from "../testing/run.ts";
import { root, runTask } from "../testing/task.ts";
import { Effect } from "../core/deps.ts";
import { declarePlugin, loadPlugin } from "../core/plugin.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import { builtinCatalog } from "../app/catalog.ts";

Deno.test("after refusePluginsOnThisThread, loading a plugin is a defect naming the program", async () => {
  const code = `
    import { Effect, Exit } from "./core/deps.ts";
    import { loadPlugin, refusePluginsOnThisThread } from "./core/plugin.ts";
    import { builtins } from "./plugins/registry.ts";
    const before = await Effect.runPromiseExit(loadPlugin("nim", builtins));
    console.log("before", Exit.isSuccess(before));
    refusePluginsOnThisThread("deno task x");
    const after = await Effect.runPromiseExit(loadPlugin("tictactoe", builtins));
    console.log("after", Exit.isSuccess(after), String(after._tag === "Failure" ? after.cause : ""));
    // A word that names no game still says so: nothing is loaded for it.
    const unknown = await Effect.runPromiseExit(loadPlugin("chess", builtins));
    console.log("unknown", JSON.stringify(unknown));
  `;
  const r = await runCommand(Deno.execPath(), ["eval", "--ext=ts", code], {
    cwd: root,
    env: {},
    stdin: "",
  });
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "before true");
  assertStringIncludes(r.stdout, "after false");
  assertStringIncludes(r.stdout, "deno task x loaded plugin tictactoe on its main thread");
  assertStringIncludes(r.stdout, "unknown game 'chess'");
});

Deno.test("the registry's names and descriptions are the plugins' own", async () => {
  for (const id of builtinIds) {
    const { plugin } = await Effect.runPromise(loadPlugin(id, builtins));
    assertEquals(plugin.id, id);
    assertEquals(builtins[id].name, plugin.name);
    assertEquals(builtins[id].description, plugin.description);
  }
});

Deno.test("the catalog thread declares every built-in game and checks options as opening does", async () => {
  const { games, checked } = await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
    const catalog = yield* builtinCatalog;
    const good = yield* Effect.result(catalog.check("nim", { heaps: [1, 2], misere: true }));
    const bad = yield* Effect.result(catalog.check("nim", { heaps: [1, "x"], colour: 1 }));
    const unknown = yield* Effect.result(catalog.check("chess", {}));
    return { games: catalog.games, checked: { good, bad, unknown } };
  })));
  assertEquals(Object.keys(games).sort(), [...builtinIds].sort());
  for (const id of builtinIds) {
    const { plugin } = await Effect.runPromise(loadPlugin(id, builtins));
    assertEquals(games[id].plugin, declarePlugin(plugin));
  }
  assertEquals(games.kalah.players, ["south", "north"]);
  assertEquals(games["2048"].solo, true);
  assertEquals(games.nim.solo, false);
  assertEquals(checked.good._tag, "Success");
  assert(checked.bad._tag === "Failure" && checked.bad.failure._tag === "OptionsError");
  assertEquals(
    checked.bad.failure.problems.map((p) => [p.option, p.item ?? ""]).sort(),
    [["colour", ""], ["heaps", "2"]],
  );
  assert(checked.unknown._tag === "Failure" && checked.unknown.failure._tag === "PluginError");
  assertStringIncludes(checked.unknown.failure.message, "no built-in game 'chess'");
});

Deno.test("deno task play --help kalah and analyze kalah load no plugin on the main thread", async () => {
  const help = await runTask("play", ["kalah", "--help"]);
  assertEquals(help.code, 0, help.stderr);
  assertStringIncludes(help.stdout, "--pits");
  const analyzed = await runTask("analyze", ["kalah", "--depth", "2"]);
  assertEquals(analyzed.code, 0, analyzed.stderr);
  assertStringIncludes(analyzed.stdout, "best move");
});
