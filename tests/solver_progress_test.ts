/**
 * Progress of the exact solvers and of the endgame database build (issue 12): every
 * MTD(f) pass (Kalah) or settled root move (Domineering) is an iteration carrying the
 * bounds proved so far, narrowing to the value; the solvers stop when asked; `analyze
 * --solve --jsonl` prints the bounds; `kalah-db` shows progress on a terminal only and
 * stops on Ctrl-C. Every wait is for an event (a line of output, an iteration, the end
 * of a process), never for a time.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../testing/deps.ts";
import { WIN } from "../core/game.ts";
import type { SearchResult } from "../core/search/types.ts";
import { kalahGame } from "../plugins/kalah/game.ts";
import type { KalahState } from "../plugins/kalah/rules.ts";
import { solveKalah, solverFor } from "../plugins/kalah/solve.ts";
import { KalahSolver } from "../plugins/kalah/solver.ts";
import { buildDbParallel } from "../plugins/kalah/db_build.ts";
import { domineeringGame, geometry } from "../plugins/domineering/board.ts";
import { board } from "../plugins/domineering/seed003.ts";
import { solvePosition } from "../plugins/domineering/mod.ts";
import { runTask, startTask } from "../testing/task.ts";

/** Bounds that narrow pass by pass and end on the value. */
const assertNarrowing = (its: readonly SearchResult[], final: SearchResult, what: string) => {
  assert(its.length >= 2, `${what}: ${its.length} iteration(s)`);
  for (let i = 0; i < its.length; i++) {
    const b = its[i].bounds;
    assert(b !== undefined, `${what}: iteration ${i + 1} has bounds`);
    assert(b.lower <= its[i].value && its[i].value <= b.upper, `${what}: guess within bounds`);
    assertEquals(its[i].depth, i + 1, `${what}: passes counted`);
    if (i === 0) continue;
    const a = its[i - 1].bounds!;
    assert(b.lower >= a.lower && b.upper <= a.upper, `${what}: ${JSON.stringify([a, b])}`);
    assert(b.upper - b.lower < a.upper - a.lower, `${what}: every pass narrows the bounds`);
    assert(its[i].nodes >= its[i - 1].nodes, `${what}: nodes so far never fall`);
  }
  const last = its.at(-1)!;
  assertEquals(last.bounds, { lower: final.value, upper: final.value }, what);
  assert(last.exact, what);
  assertEquals(final.bounds, last.bounds, what);
};

Deno.test("Kalah solve: one iteration per MTD(f) pass, bounds narrowing to the value (both sides)", () => {
  for (const capture of ["nonempty", "always"] as const) {
    const game = kalahGame({ pits: 4, stones: 3, capture, eval: "util" });
    const start = game.initial();
    // North to move, with stones in the stores: its bounds turn round into south's.
    let north: KalahState = game.play(start, 0);
    while (game.toMove(north) !== 1) north = game.play(north, game.moves(north)[0]);
    for (const s of [start, north]) {
      for (const guess of [undefined, -99, 99]) {
        const its: SearchResult[] = [];
        const r = solveKalah(game, s, { onIteration: (it) => its.push(it) }, {
          ttMb: 8,
          spotDbPositions: 20_000,
          ...(guess === undefined ? {} : { guess }),
        });
        assertNarrowing(its, r, `${capture} [${s}] guess ${guess}`);
      }
    }
  }
});

Deno.test("Kalah solve: a stop request after an iteration ends it with the bounds proved so far", () => {
  const game = kalahGame({ pits: 6, stones: 3, capture: "nonempty", eval: "util" });
  const options = { ttMb: 16, spotDbPositions: 0 };
  let seen = 0, polled = 0;
  const r = solveKalah(game, game.initial(), {
    onIteration: () => seen++,
    shouldStop: () => (polled++, seen > 0),
  }, options);
  assert(polled > 0 && seen >= 1);
  assert(!r.exact, "stopped before the end");
  // The bounds hold the value (the solver's own, from a fresh solve to the end).
  const exact = new KalahSolver({ pits: 6, captureAlways: false, ttMb: 16 })
    .solve(Array(12).fill(3)).value;
  assert(r.bounds !== undefined && r.bounds.lower <= exact && exact <= r.bounds.upper);
  assert(r.move !== undefined && game.moves(game.initial()).includes(r.move));
});

Deno.test("Domineering solve: one iteration per root move settled; the bounds close on the value", () => {
  const moves = (g: ReturnType<typeof domineeringGame>) => g.moves(g.initial()).length;
  // 5x5, H first: a loss for H, so every root move is refuted (safe ones too with allBest).
  const lost = domineeringGame(geometry(board(5, 5).free, "H"));
  for (const allBest of [false, true]) {
    const its: SearchResult[] = [];
    const r = solvePosition(lost, lost.initial(), { allBest, onIteration: (it) => its.push(it) });
    assertEquals(r.value, WIN, "V wins");
    assert(its.length >= 2 && its.length <= moves(lost));
    its.forEach((it, i) => assertEquals(it.depth, i + 1));
    for (const it of its.slice(0, -1)) assertEquals(it.bounds, { lower: -WIN, upper: WIN });
    assertEquals(its.at(-1)!.bounds, { lower: WIN, upper: WIN });
  }
  // 4x4, H first: H wins; without allBest the solve ends at the first winning move.
  const won = domineeringGame(geometry(board(4, 4).free, "H"));
  const its: SearchResult[] = [];
  const r = solvePosition(won, won.initial(), { onIteration: (it) => its.push(it) });
  assertEquals(r.value, -WIN);
  assertEquals(its.at(-1)!.bounds, { lower: -WIN, upper: -WIN });
  assertEquals(its.at(-1)!.move, r.move);
});

Deno.test("Domineering solve: a stop request after an iteration ends it (not exact)", () => {
  const g = domineeringGame(geometry(board(8, 7).free, "H"));
  let seen = 0;
  const r = solvePosition(g, g.initial(), {
    allBest: true, // every root move, even after a win: plenty left after the first
    onIteration: () => seen++,
    shouldStop: () => seen > 0,
  });
  assertEquals(seen, 1);
  assert(!r.exact);
  assert(r.move !== undefined && g.moves(g.initial()).includes(r.move));
});

Deno.test("analyze --solve --jsonl: every pass is a JSON line with its bounds, narrowing to the value", async () => {
  const r = await runTask("analyze", [
    "kalah",
    "--pits",
    "4",
    "--stones",
    "3",
    "--solve",
    "--jsonl",
  ]);
  assertEquals(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const its = lines.filter((l) => l.type === "iteration");
  const result = lines.at(-1);
  assertEquals(result.type, "result");
  assertEquals(result.complete, true);
  assert(its.length >= 2, r.stdout);
  for (let i = 1; i < its.length; i++) {
    const [a, b] = [its[i - 1].bounds, its[i].bounds];
    assert(b.lower >= a.lower && b.upper <= a.upper && b.upper - b.lower < a.upper - a.lower);
  }
  assertEquals(its.at(-1).bounds, { lower: result.value, upper: result.value });
  assertEquals(result.bounds, { lower: result.value, upper: result.value });
});

Deno.test("analyze --solve --json: the winner beside the value, from a decisive value or the line's end", async () => {
  const winner = async (args: string[], mode = "--json") => {
    const r = await runTask("analyze", [...args, "--solve", mode]);
    assertEquals(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    return lines.filter((l) => l.type !== "heartbeat").map((l) =>
      l.exact ? [l.valueText, l.winner] : ["inexact", l.winner]
    );
  };
  // Domineering (the outcome classes of Breuker, Uiterwijk & van den Herik 2000):
  // 4x4 is a first-player win, 5x5 a second-player win, whoever starts.
  assertEquals(await winner(["domineering", "--board", "4x4"]), [["H wins", "H"]]);
  assertEquals(await winner(["domineering", "--board", "4x4", "--first", "V"]), [["V wins", "V"]]);
  assertEquals(await winner(["domineering", "--board", "5x5"]), [["V wins", "V"]]);
  // Progress: a lost position settles its moves one by one, proving nothing until the
  // last (no winner yet); the last line and the result name it.
  const lost = await winner(["domineering", "--board", "5x5"], "--jsonl");
  assert(lost.length >= 3, `${lost}`);
  assertEquals(lost.slice(0, -2).filter(([t, w]) => t !== "inexact" || w !== undefined), []);
  assertEquals(lost.slice(-2), [["V wins", "V"], ["V wins", "V"]]);
  // A margin: the player the line of play ends with a win for; tic-tac-toe is a draw.
  const kalah = await winner(["kalah", "--pits", "3", "--stones", "2"]);
  assertEquals(kalah, [["4", "south"]]);
  assertEquals(await winner(["tictactoe"]), [["0", null]]);
});

Deno.test("buildDbParallel: an abort stops the build; it rejects and terminates its workers", async () => {
  const stop = new AbortController();
  const levels: number[] = [];
  const building = buildDbParallel(
    6,
    false,
    12,
    2,
    (level) => {
      levels.push(level);
      if (level === 3) stop.abort();
    },
    undefined,
    { signal: stop.signal },
  );
  const e = await assertRejects(() => building);
  assert(e instanceof DOMException && e.name === "AbortError", String(e));
  assertEquals(levels, [0, 1, 2, 3]);
  // Aborted before it starts: no worker is even made.
  await assertRejects(() => buildDbParallel(2, false, 4, 2, undefined, undefined, stop));
  // A live worker keeps a process running: after an aborted build, one ends by itself.
  const url = new URL("../plugins/kalah/db_build.ts", import.meta.url).href;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { buildDbParallel } from ${JSON.stringify(url)};
       const stop = new AbortController();
       await buildDbParallel(6, false, 12, 2, (level) => level === 3 && stop.abort(), undefined,
         { signal: stop.signal }).catch((e) => console.log(e.name));`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 120_000); // a hang fails, not hangs
  const out = await child.output();
  clearTimeout(watchdog);
  assertEquals([out.code, new TextDecoder().decode(out.stdout).trim()], [0, "AbortError"]);
});

// ---------------------------------------------------------------------------------------
// Programs interrupted: a process group of its own, Ctrl-C as SIGINT or a typed byte.

Deno.test("analyze --solve: Ctrl-C stops the solver in its worker (exit 130, nothing left)", async () => {
  // Kalah(6, 4) takes far longer than its first heartbeat (the solver polls the stop flag).
  // A call limit of ten minutes: on a busy machine the watchdog must not end it first.
  const job = startTask([
    ...["analyze", "kalah", "--stones", "4", "--solve", "--jsonl"],
    ...["--call-limit", "600"],
  ]);
  await job.waitFor(`"type":"heartbeat"`);
  await job.sigint();
  const { code, out, err } = await job.done;
  assertEquals(code, 130, out + err);
  assert(!(out + err).includes("did not stop"), out + err);
  const last = JSON.parse(out.trim().split("\n").at(-1)!);
  assertEquals([last.type, last.interrupted, last.complete], ["result", true, false]);
  assert(await job.groupGone(), "no process of the program is left");
});

Deno.test("kalah-db: progress on a terminal, Ctrl-C stops the build (exit 130, nothing written)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // 52 million positions: seconds of work, far more than the first progress line.
    const args = ["kalah-db", "--pits", "6", "--stones", "17", "--workers", "1", "--dir", dir];
    const job = startTask(args, true);
    await job.waitFor("% of all"); // a progress line within a level
    await job.type("\x03");
    const { code, out } = await job.done;
    assertEquals(code, 130, out);
    assertStringIncludes(out, "  level   1:");
    assertStringIncludes(out, "nothing written");
    assertEquals([...Deno.readDirSync(dir)], [], "no file, not even a partial one");
    assert(await job.groupGone(), "no process of the program is left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kalah-db: no progress on a pipe; SIGINT there stops it too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const small = await runTask("kalah-db", ["--pits", "4", "--stones", "10", "--dir", dir]);
    assertEquals(small.code, 0, small.stderr);
    const lines = small.stdout.trimEnd().split("\n");
    assertEquals(lines.length, 2, small.stdout); // what it builds, then where it wrote it
    assertStringIncludes(lines[1], "written to");
    assert(!small.stdout.includes("\r") && !small.stdout.includes("level"), small.stdout);
    const job = startTask([
      "kalah-db",
      "--pits",
      "6",
      "--stones",
      "17",
      "--workers",
      "1",
      "--dir",
      dir,
    ]);
    await job.waitFor("Kalah endgame database"); // the build starts after this line
    await job.sigint();
    const { code, out, err } = await job.done;
    assertEquals(code, 130, out + err);
    assert(!(out + err).includes("level"), out + err);
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["kalah-p4-nonempty-s10.bin"]);
    assert(await job.groupGone(), "no process of the program is left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("analyze --solve on a terminal: an info line per pass, with its bounds", async () => {
  const job = startTask(["analyze", "kalah", "--pits", "4", "--stones", "3", "--solve"], true);
  const { code, out } = await job.done;
  assertEquals(code, 0, out);
  const info = out.split(/\r?\n|\r/).filter((l) => l.includes("info step"));
  assert(info.length >= 2, out);
  // South moves first: the values are south's.
  const line = /info step \d+ {2}bounds for south: [-+]?\d+\.\.[-+]?\d+ {2}guess [-+]?\d+ /;
  assert(info.every((l) => line.test(l)), out);
  assertStringIncludes(info.at(-1)!, "bounds for south: +6..+6");
  assertStringIncludes(out, "value for south: +6");
});

Deno.test("kalah solve: a database built on the spot ticks once a level (the watchdog's heartbeat)", () => {
  const g = kalahGame({ pits: 4, stones: 3, capture: "nonempty", eval: "util" });
  let ticks = 0;
  const setup = solverFor(g, 24, 8, undefined, () => ticks++);
  assertEquals(setup.dbSource, "built");
  assert(setup.db !== undefined);
  // One tick per level built, from the first non-trivial level to the largest.
  assert(ticks >= setup.db.maxStones - 1 && ticks <= setup.db.maxStones + 1, `${ticks}`);
  // Searching with a stop test passes it as the tick: it is polled while the table is built.
  let polls = 0;
  const fresh = kalahGame({ pits: 4, stones: 3, capture: "nonempty", eval: "util" });
  solveKalah(fresh, fresh.initial(), { shouldStop: () => (polls++, false), depth: 1 });
  assert(polls >= ticks, `${polls} polls, ${ticks} levels`);
});
