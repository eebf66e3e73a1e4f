/**
 * `mod.ts` and the scripts work from a URL: the repository is served on 127.0.0.1, a
 * fresh program imports `mod.ts` from there and plays a game (with a built-in plugin and
 * with a plugin loaded by URL), and a script runs straight from its URL.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { runCommand } from "../testing/run.ts";
import { serveRepository as serve } from "../testing/serve.ts";

/** `deno run` with permission to import and read, of `target` (a file or a URL). */
const denoRun = (target: string, ...args: string[]) =>
  runCommand(Deno.execPath(), ["run", "--allow-import", "--allow-read", target, ...args], {
    cwd: Deno.cwd(),
    env: { NO_COLOR: "1" },
    stdin: "",
  });

Deno.test("mod.ts imports from a URL and plays games; a plugin loads by URL", async () => {
  const { base, close } = serve();
  try {
    const program = await Deno.makeTempFile({ suffix: ".ts" });
    await Deno.writeTextFile(
      program,
      `import { Effect } from "npm:effect@4.1.0";
import { alphabetaStrategy, openGame, randomAgent, replay, runGame, searchAgent } from "${base}/mod.ts";
const { game } = await Effect.runPromise(openGame("nim", { heaps: [1, 2, 3] }));
const { transcript, final } = Effect.runSync(
  runGame(game, [randomAgent(), searchAgent(alphabetaStrategy, { depth: 10 })], { seed: 3 }),
);
const race = await Effect.runPromise(openGame("${base}/tests/fixtures/race.ts", { goal: 4 }));
const raced = Effect.runSync(runGame(race.game, [randomAgent(), randomAgent()], { seed: 1 }));
console.log(JSON.stringify({
  winner: transcript.result.winner,
  replays: JSON.stringify(replay(game, transcript)) === JSON.stringify(final),
  race: race.game.id,
  raceEnd: raced.transcript.result.reason,
}));
`,
    );
    const r = await denoRun(program);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(JSON.parse(r.stdout.trim()), {
      winner: 1,
      replays: true,
      race: "race",
      raceEnd: "end",
    });
    await Deno.remove(program);
  } finally {
    await close();
  }
});

Deno.test("a script runs from its URL", async () => {
  const { base, close } = serve();
  try {
    const r = await denoRun(`${base}/scripts/analyze.ts`, "tictactoe", "--depth", "9", "--json");
    assertEquals(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assertEquals(j.value, 0);
    assert(j.nodes > 0);
    const bad = await denoRun(`${base}/scripts/play.ts`, "chess");
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.stderr, "unknown game 'chess'");
  } finally {
    await close();
  }
});
