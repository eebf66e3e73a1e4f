/**
 * A quick program's entry starts its game's thread before it loads the program
 * (`prestartGame`, `prestartPluginThread`): the game then opens on that thread, with the
 * data the program gives it; a thread started for other options is ended, not kept idle.
 * Proved by counts (`earlyThreads`) and by the games' answers, never by timing.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { runTask } from "../testing/task.ts";
import { Effect, Exit, Scope } from "../core/deps.ts";
import { hostGame } from "../core/host/game.ts";
import { RULES_MODULE } from "../core/host/entry.ts";
import { DEFAULT_LIMITS, earlyThreads, prestartPluginThread } from "../core/host/thread.ts";
import { builtins } from "../plugins/registry.ts";

const nim = builtins.nim.url;
const host = (url: string, options: Record<string, unknown>, memoryMb = DEFAULT_LIMITS.memoryMb) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make();
    const hosted = yield* Scope.provide(scope)(hostGame({
      source: { url, options },
      label: "nim",
      trusted: true,
      limits: { ...DEFAULT_LIMITS, memoryMb },
    }));
    return { hosted, scope };
  });

Deno.test("a game's thread started early is taken by the first game of its plugin, with its options", async () => {
  const before = earlyThreads();
  prestartPluginThread(RULES_MODULE, { plugin: nim, trusted: true, limits: DEFAULT_LIMITS });
  // A second early start of the same module while one waits starts nothing.
  prestartPluginThread(RULES_MODULE, { plugin: nim, trusted: true, limits: DEFAULT_LIMITS });
  assertEquals(earlyThreads().started, before.started + 1);
  const { hosted, scope } = await Effect.runPromise(host(nim, { heaps: [1, 2] }));
  assertEquals(earlyThreads().taken, before.taken + 1);
  // The options were the caller's, sent when it took the thread: heaps 1,2 have 3 moves.
  assertEquals(hosted.game.moves(hosted.game.initial()).length, 3);
  await Effect.runPromise(Scope.close(scope, Exit.void));
  // The next game gets a thread of its own.
  const next = await Effect.runPromise(host(nim, {}));
  assertEquals(earlyThreads().taken, before.taken + 1);
  assertEquals(next.hosted.game.moves(next.hosted.game.initial()).length, 12);
  await Effect.runPromise(Scope.close(next.scope, Exit.void));
});

Deno.test("a game's thread started early for other limits is ended, and the game opens on its own", async () => {
  const before = earlyThreads();
  prestartPluginThread(RULES_MODULE, { plugin: nim, trusted: true, limits: DEFAULT_LIMITS });
  const { hosted, scope } = await Effect.runPromise(host(nim, { heaps: [2] }, 512));
  assertEquals(earlyThreads().started, before.started + 1);
  assertEquals(earlyThreads().taken, before.taken);
  assertEquals(hosted.game.moves(hosted.game.initial()).length, 2);
  await Effect.runPromise(Scope.close(scope, Exit.void));
  // Nothing waits any more: the next game of the same options starts its own thread too.
  const again = await Effect.runPromise(host(nim, {}));
  assertEquals(earlyThreads().taken, before.taken);
  await Effect.runPromise(Scope.close(again.scope, Exit.void));
});

Deno.test("a user's plugin started early runs sandboxed in that thread; a broken one is named", async () => {
  const limits = DEFAULT_LIMITS;
  const user = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).href;
  const before = earlyThreads();
  prestartPluginThread(RULES_MODULE, { plugin: user("connect4.ts"), trusted: false, limits });
  const moves = await Effect.runPromise(Effect.scoped(Effect.map(
    hostGame({
      source: { url: user("connect4.ts"), options: {} },
      label: "./connect4.ts",
      trusted: false,
      limits,
    }),
    ({ game }) => game.moves(game.initial()).length,
  )));
  assertEquals(moves, 7);
  assertEquals(earlyThreads().taken, before.taken + 1);
  prestartPluginThread(RULES_MODULE, { plugin: user("broken_plugin.ts"), trusted: false, limits });
  const r = await Effect.runPromise(Effect.scoped(Effect.result(
    hostGame({
      source: { url: user("broken_plugin.ts"), options: {} },
      label: "./broken.ts",
      trusted: false,
      limits,
    }),
  )));
  assertEquals(earlyThreads().taken, before.taken + 2);
  assert(r._tag === "Failure");
  assertStringIncludes(r.failure.message, "is not a ply plugin");
});

Deno.test("deno task play and analyze start their game early and play it as before", async () => {
  const played = await runTask("play", [
    "nim",
    "--heaps",
    "1,2",
    "--p1",
    "random",
    "--p2",
    "random",
  ]);
  assertEquals(played.code, 0, played.stderr);
  assertStringIncludes(played.stdout, "wins");
  const analyzed = await runTask("analyze", ["nim", "--heaps", "1,2", "--depth", "4"]);
  assertEquals(analyzed.code, 0, analyzed.stderr);
  assertStringIncludes(analyzed.stdout, "best move");
  // Flags first: nothing starts early, and the usage error is the program's.
  const wrong = await runTask("analyze", ["--depth", "x", "nim"]);
  assertEquals(wrong.code, 2);
  assertStringIncludes(wrong.stderr, "--depth must be an integer");
});
