/**
 * No game code runs on a program's main thread (`core/host/`), as users run the
 * programs: hostile plugins (`tests/fixtures/hostile/`, Nim 3,4,5 whose one function
 * loops, throws, allocates without end or reads a file once 10 or fewer stones are left)
 * end their game with one line naming the plugin, the function and the limit, never a
 * stack trace nor a hung program; a person's game is kept; a user's plugin is sandboxed
 * unless `--plugin-allow` grants it. And a hosted game answers exactly as the game does
 * in process. The limits are the proof of a hang (a call that does not return is only
 * ever known by its limit): they are a second, and the hostile calls never return.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { runTask } from "../testing/task.ts";
import { withServe } from "../testing/browser.ts";
import { connect, isPosition, post } from "../testing/ws_client.ts";
import { Effect, Layer } from "../core/deps.ts";
import { hostGame } from "../core/host/game.ts";
import { DEFAULT_LIMITS } from "../core/host/thread.ts";
import { Limits } from "../core/host/limits.ts";
import { liveEngine, search } from "../core/engine/engine.ts";
import { workerPoolLayer } from "../core/parallel/pool.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { openGameWith } from "../core/plugin.ts";
import { openGame } from "../app/games.ts";
import { builtinIds } from "../plugins/registry.ts";
import { CHANCE, type Game } from "../core/game.ts";
import { PluginFault } from "../core/errors.ts";

const hostile = (fn: string) => `./tests/fixtures/hostile/${fn}.ts`;
const randoms = ["--p1", "random", "--p2", "random", "--seed", "1", "--call-limit", "1"];

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

/** A failed game: exit 1, one line naming the plugin and the function, no trace. */
const failedIn = (r: { code: number; stderr: string }, fn: string, why: string) => {
  assertEquals(r.code, 1, r.stderr);
  assertStringIncludes(
    r.stderr,
    `error: plugin ./tests/fixtures/hostile/${fn}.ts failed in ${fn}(): ${why}`,
  );
  noTrace(r.stderr);
};

Deno.test("play: a looping moves(), play() or render() ends the game at the call limit", async () => {
  for (const fn of ["moves", "play", "render"]) {
    const r = await runTask("play", [hostile(fn), ...randoms]);
    failedIn(r, fn, "it did not return within 1 s (--call-limit changes it)");
  }
});

Deno.test("play: a throwing parseMove() ends a person's game, which is kept", async () => {
  const r = await runTask("play", [
    hostile("parseMove"),
    "--mode",
    "throw",
    "--p1",
    "human",
    "--p2",
    "human",
  ], {
    stdin: "1-3\n2-4\n3-1\n",
  });
  failedIn(r, "parseMove", "boom");
  const saved = r.stdout.match(/Saved to (\S+\.json)\./);
  assert(saved !== null, r.stdout);
  const moves = JSON.parse(Deno.readTextFileSync(saved[1])).moves.map((m: { notation: string }) =>
    m.notation
  );
  // 1-3 leaves 9 stones: the next move's parse throws.
  assertEquals(moves, ["1-3"]);
});

Deno.test("play: a plugin that allocates without end fails alone, at its memory limit", async () => {
  const r = await runTask("play", [
    hostile("moves"),
    "--mode",
    "oom",
    "--memory",
    "128",
    ...randoms.slice(0, 6),
    "--call-limit",
    "600",
  ]);
  failedIn(r, "moves", "it ran out of memory (limit 128 MB; --memory changes it)");
});

Deno.test("a user's plugin reads no file unless --plugin-allow read grants it", async () => {
  const refused = await runTask("play", [hostile("moves"), "--mode", "read", ...randoms]);
  failedIn(refused, "moves", 'Requires read access to "/etc/hostname"');
  const granted = await runTask("play", [
    hostile("moves"),
    "--mode",
    "read",
    "--plugin-allow",
    "read",
    ...randoms,
  ]);
  failedIn(granted, "moves", "read a file");
  const wrong = await runTask("play", ["nim", "--plugin-allow", "disk"]);
  assertEquals(wrong.code, 2);
  assertStringIncludes(
    wrong.stderr,
    "--plugin-allow takes some of read, write, net, env, run, ffi, sys",
  );
});

Deno.test("tactics: a looping moves() or play(), a throw or a hoard ends the program, named", async () => {
  // Nim 3,4,5 misbehaves with 10 stones or fewer left: every random game gets there.
  for (const fn of ["moves", "play"]) {
    const r = await runTask("tactics", [hostile(fn), "--count", "2", "--call-limit", "1"]);
    failedIn(r, fn, "it did not return within 1 s (--call-limit changes it)");
    assertEquals(r.stdout.includes('"format":"ply-tactics"'), false, r.stdout);
  }
  const threw = await runTask("tactics", [hostile("moves"), "--mode", "throw"]);
  failedIn(threw, "moves", "boom");
  const hoarded = await runTask("tactics", [
    hostile("moves"),
    "--mode",
    "oom",
    "--memory",
    "128",
    "--call-limit",
    "600",
  ]);
  failedIn(hoarded, "moves", "it ran out of memory (limit 128 MB; --memory changes it)");
});

Deno.test("analyze --depth: a search stuck in moves() is found by its silence", async () => {
  const r = await runTask("analyze", [hostile("moves"), "--depth", "6", "--call-limit", "2"]);
  assertEquals(r.code, 1, r.stderr);
  assertStringIncludes(
    r.stderr,
    "did not stop: moves() ran for over 2 s (--call-limit changes it)",
  );
  noTrace(r.stderr);
});

Deno.test("analyze: a search worker that runs out of memory or reads a file fails alone", async () => {
  const oom = await runTask("analyze", [
    hostile("moves"),
    "--depth",
    "6",
    "--mode",
    "oom",
    "--memory",
    "128",
    "--call-limit",
    "600",
  ]);
  assertEquals(oom.code, 1, oom.stderr);
  assertStringIncludes(
    oom.stderr,
    "error: plugin ./tests/fixtures/hostile/moves.ts ran out of memory (limit 128 MB; --memory changes it)",
  );
  noTrace(oom.stderr);
  const read = await runTask("analyze", [hostile("moves"), "--depth", "6", "--mode", "read"]);
  assertEquals(read.code, 1, read.stderr);
  assertStringIncludes(read.stderr, 'failed in moves(): Requires read access to "/etc/hostname"');
  noTrace(read.stderr);
});

Deno.test("limits: a wrong value names the flag and its range", async () => {
  for (
    const [flag, value, range] of [
      ["--call-limit", "0", "from 0.1 to 3600"],
      ["--memory", "12", "from 64 to 65536"],
    ]
  ) {
    const r = await runTask("analyze", ["nim", flag, value]);
    assertEquals(r.code, 2);
    assertStringIncludes(r.stderr, `${flag} must be`);
    assertStringIncludes(r.stderr, range);
  }
});

/** Plays a random line with both games side by side, comparing every answer. */
const agree = <S>(inProcess: Game<S>, hosted: Game<S>, picks: readonly number[]) => {
  let s = inProcess.initial();
  assertEquals(hosted.initial(), s);
  for (const pick of picks) {
    const to = inProcess.toMove(s);
    assertEquals(hosted.toMove(s), to);
    assertEquals(hosted.outcome(s), inProcess.outcome(s));
    assertEquals(hosted.value(s), inProcess.value(s));
    assertEquals(hosted.render(s), inProcess.render(s));
    assertEquals(hosted.key?.(s), inProcess.key?.(s));
    const moves = to === CHANCE ? inProcess.chances(s).map((c) => c.move) : inProcess.moves(s);
    if (to === CHANCE) assertEquals(hosted.chances(s), inProcess.chances(s));
    else assertEquals(hosted.moves(s), moves);
    if (moves.length === 0) return;
    const m = moves[pick % moves.length];
    if (to !== CHANCE) {
      const text = inProcess.formatMove(s, m);
      assertEquals(hosted.formatMove(s, m), text);
      assertEquals(hosted.parseMove(s, text), inProcess.parseMove(s, text));
      assertEquals(hosted.parseMove(s, "zz9"), inProcess.parseMove(s, "zz9"));
      assertEquals(hosted.picture?.svg(s), inProcess.picture?.svg(s));
    }
    const next = inProcess.play(s, m);
    assertEquals(hosted.play(s, m), next);
    s = next;
  }
};

Deno.test("a hosted game answers every call as the game in process does", async () => {
  for (const id of builtinIds) {
    const { game, source } = await Effect.runPromise(openGame(id));
    await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
      const hosted = yield* hostGame({ source, label: id, trusted: true, limits: DEFAULT_LIMITS });
      fc.assert(
        fc.property(
          fc.array(fc.nat(1000), { maxLength: 40 }),
          (picks) => agree(game, hosted.game, picks),
        ),
        { numRuns: 15, seed: 62 },
      );
      assert(hosted.calls() > 100, `${id}: ${hosted.calls()} calls`);
    })));
  }
});

Deno.test("a hosted game's thread that hung is replaced: the next call is answered", async () => {
  const url = new URL("./fixtures/hostile/moves.ts", import.meta.url).href;
  await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
    const { game } = yield* hostGame({
      source: { url, options: {} },
      label: "./hostile.ts",
      trusted: false,
      limits: { ...DEFAULT_LIMITS, callLimitMs: 500 },
    });
    const late = [1, 1, 1, 0];
    const faults: string[] = [];
    for (let i = 0; i < 2; i++) {
      try {
        game.moves(late);
      } catch (e) {
        if (e instanceof PluginFault) faults.push(`${e.fn}: ${e.message}`);
      }
    }
    assertEquals(faults.length, 2);
    assertStringIncludes(
      faults[1],
      "moves: plugin ./hostile.ts failed in moves(): it did not return",
    );
    // The thread that answers now is a fresh one: the early position is fine.
    assertEquals(game.moves(game.initial()).length, 12);
  })));
});

Deno.test("serve: a game whose plugin hangs fails alone; another room plays to its end", async () => {
  await withServe([hostile("moves"), "--call-limit", "1"], async (served) => {
    const start = async (game: string) => {
      const created = await post(served.url, "/api/new", {
        game,
        options: {},
        players: [{ _tag: "AI", spec: "random" }, { _tag: "AI", spec: "random" }],
        seed: 5,
      });
      assert(created._tag === "Created", JSON.stringify(created));
      const c = await connect(served.url, created.game, created.seat);
      c.send({ _tag: "Speed", ms: 0 });
      return c;
    };
    const hung = await start("hostile-moves");
    const fine = await start("tictactoe");
    const failed = await hung.next(isPosition((p) => p.result !== undefined), 0);
    assertEquals(failed.result?.reason, "error");
    assertStringIncludes(
      JSON.stringify(failed.result),
      "failed in moves(): it did not return within 1 s",
    );
    const end = await fine.next(isPosition((p) => p.result !== undefined), 0);
    assertEquals(end.result?.reason, "end");
  });
});

Deno.test("match and tournament: a game whose plugin hangs is one faulted result; the series ends", async () => {
  const m = await runTask("match", [hostile("moves"), "--games", "2", "--call-limit", "1"]);
  assertEquals(m.code, 0, m.stderr);
  assertStringIncludes(m.stdout, "faulted games (failed twice, left out of the results): 2");
  assertStringIncludes(m.stdout, "failed in moves(): it did not return within 1 s");
  noTrace(m.stdout + m.stderr);
  const t = await runTask("tournament", [
    hostile("play"),
    "--players",
    "random",
    "alphabeta:2",
    "--rounds",
    "1",
    "--call-limit",
    "1",
  ]);
  assertEquals(t.code, 0, t.stderr);
  assertStringIncludes(t.stdout, "failed in play(): it did not return within 1 s");
  noTrace(t.stdout + t.stderr);
});

Deno.test("a search worker that runs out of memory in a later search is reported too", async () => {
  const url = new URL("./fixtures/hostile/late_oom.ts", import.meta.url).href;
  const { game, source } = await Effect.runPromise(openGameWith({}, url));
  const limits = { ...DEFAULT_LIMITS, memoryMb: 128, callLimitMs: 600_000 };
  const engine = liveEngine.pipe(
    Layer.provideMerge(workerPoolLayer(1).pipe(Layer.provide(Layer.succeed(Limits, limits)))),
  );
  const run = (depth: number) =>
    Effect.result(search({
      strategy: alphabetaStrategy,
      game,
      source,
      state: game.initial(),
      options: { depth, tt: false },
    }));
  const [first, second] = await Effect.runPromise(
    Effect.all([run(2), run(8)]).pipe(Effect.provide(engine)),
  );
  assertEquals(first._tag, "Success");
  assert(second._tag === "Failure");
  assertStringIncludes(second.failure.message, "ran out of memory (limit 128 MB");
});

Deno.test("a user's plugin module loads in its thread only: --help, analyze, play, tactics and serve's form", async () => {
  // The fixture's module throws when it is loaded on a program's main thread.
  const plugin = hostile("main_thread");
  const help = await runTask("analyze", [plugin, "--help"]);
  assertEquals(help.code, 0, help.stderr);
  assertStringIncludes(help.stdout, "Off the main thread (main-thread): Nim, loaded only in");
  assertStringIncludes(help.stdout, "--size         the second heap; 1 | 2 (default 2)");
  const analyzed = await runTask("analyze", [plugin, "--size", "1", "--depth", "3"]);
  assertEquals(analyzed.code, 0, analyzed.stderr);
  assertStringIncludes(analyzed.stdout, "nodes: ");
  const played = await runTask("play", [plugin, ...randoms]);
  assertEquals(played.code, 0, played.stderr);
  // tactics writes a suite of it (the collection in its thread), then checks one on it.
  const dir = await Deno.makeTempDir({ prefix: "ply-isolation-" });
  try {
    const suite = `${dir}/suite.jsonl`;
    const made = await runTask("tactics", [plugin, "--count", "2", "--out", suite]);
    assertEquals(made.code, 0, made.stderr);
    assertStringIncludes(made.stdout, "main-thread, seed 1: 1 win1, 0 block, 1 win2");
    const checked = await runTask("tactics", ["--check", suite, "--strategy", "alphabeta:2"]);
    assertEquals(checked.code, 0, checked.stderr);
    assertStringIncludes(checked.stdout, "all          2/2  100.0%");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  await withServe([plugin], async (served) => {
    const games = await (await fetch(new URL("/api/games", served.url))).json() as {
      id: string;
      players: string[];
      options: unknown[];
    }[];
    const entry = games.find((g) => g.id === "main-thread");
    assert(entry !== undefined, JSON.stringify(games.map((g) => g.id)));
    assertEquals(entry.options, [{
      name: "size",
      description: "the second heap",
      expected: "1 | 2",
      default: "2",
      choices: ["1", "2"],
      advanced: false,
    }]);
    const created = await post(served.url, "/api/new", {
      game: "main-thread",
      options: { size: "1" },
      players: [{ _tag: "AI", spec: "random" }, { _tag: "AI", spec: "random" }],
      seed: 3,
    });
    assert(created._tag === "Created", JSON.stringify(created));
    const c = await connect(served.url, created.game, created.seat);
    c.send({ _tag: "Speed", ms: 0 });
    const end = await c.next(isPosition((p) => p.result !== undefined), 0);
    assertEquals(end.result?.reason, "end");
  });
});
