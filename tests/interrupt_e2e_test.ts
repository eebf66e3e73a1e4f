/**
 * The programs as a user meets them at a terminal, through `deno task` in a subprocess:
 * Ctrl-C (SIGINT to the process group, or the key typed into a pseudo-terminal) during
 * a search, a plugin that throws, a plugin that never returns. Every wait is for an
 * event (a line of output, the process's end), never for a time; a watchdog only turns
 * a hang into a failure.
 */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";
import { startTask as start } from "../testing/task.ts";

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

Deno.test("analyze: Ctrl-C during a long search prints the best so far, exits 130, leaves nothing", async () => {
  const job = start(["analyze", "kalah", "--depth", "40", "--jsonl"]);
  await job.waitFor(`"type":"iteration"`); // the search runs (in its worker)
  await job.sigint();
  const { code, out, err } = await job.done;
  assertEquals(code, 130, err);
  const last = JSON.parse(out.trim().split("\n").at(-1)!);
  assertEquals(last.type, "result");
  assertEquals(last.interrupted, true);
  assertEquals(last.complete, false);
  assert(typeof last.bestMove === "string" && last.depth >= 1, out);
  noTrace(err);
  assert(await job.groupGone(), "no process of the program is left");
});

Deno.test("play: Ctrl-C typed while the AI thinks ends the game as interrupted; --save keeps it", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  const job = start([
    "play",
    "pentago",
    "--p1",
    "alphabeta:1000",
    "--p2",
    "random",
    "--seed",
    "1",
    "--save",
    file,
  ], true);
  await job.waitFor("seed 1");
  await job.waitFor("+-------+-------+"); // the board is shown: the AI is to move
  await job.type("\x03");
  const { code, out } = await job.done;
  assertEquals(code, 130, out);
  assertStringIncludes(out, "Interrupted; the game stops here.");
  assertStringIncludes(out, `Saved to ${file}.`);
  noTrace(out);
  const t = JSON.parse(await Deno.readTextFile(file));
  assertEquals(t.result.reason, "interrupted");
  assertEquals(t.moves.length, 0);
  await Deno.remove(file);
});

Deno.test("match: Ctrl-C reports the finished games and exits 130", async () => {
  const job = start([
    "match",
    "kalah",
    "--p1",
    "alphabeta:300ms",
    "--p2",
    "alphabeta:300ms",
    "--games",
    "10",
  ]);
  // The match has begun (its first game takes seconds): interrupt it.
  await job.waitFor("Playing 10 games");
  await job.sigint();
  const { code, out, err } = await job.done;
  assertEquals(code, 130, err);
  assertStringIncludes(out, "(interrupted)");
  assert(/Kalah: [01] games \(interrupted\)/.test(out), out);
  noTrace(err);
});

Deno.test("play: a plugin that throws is named with its function; exit 1; the moves are kept", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  const job = start([
    "play",
    "./tests/fixtures/throwing.ts",
    "--p1",
    "random",
    "--p2",
    "alphabeta:2",
    "--seed",
    "3",
    "--save",
    file,
  ]);
  const { code, out, err } = await job.done;
  assertEquals(code, 1, out + err);
  assertStringIncludes(
    err,
    "error: plugin ./tests/fixtures/throwing.ts failed in play(): boom: the heaps fell over",
  );
  noTrace(out + err);
  const t = JSON.parse(await Deno.readTextFile(file));
  assertEquals(t.result.reason, "error");
  assert(t.moves.length >= 1, "the moves before the fault are kept");
  await Deno.remove(file);
});

Deno.test("play: a plugin that never returns is abandoned after its time budget, named", async () => {
  const job = start([
    "play",
    "./tests/fixtures/looping.ts",
    "--p1",
    "alphabeta:1s",
    "--p2",
    "random",
    "--seed",
    "1",
  ]);
  const { code, out, err } = await job.done;
  assertEquals(code, 1, out + err);
  assertStringIncludes(err, "error: plugin ./tests/fixtures/looping.ts did not stop: moves()");
  noTrace(out + err);
});

Deno.test("match --debug: a plugin's exception that stops the match is shown with its stack; without, one line", async () => {
  const args = [
    "match",
    "./tests/fixtures/throwing.ts",
    "--p1",
    "random",
    "--p2",
    "alphabeta:2",
    "--games",
    "2",
    "--max-faults",
    "0",
  ];
  const plain = await start(args).done;
  assertEquals(plain.code, 1, plain.out + plain.err);
  // The default openings (random:4) meet the fault while they are made.
  const line = "error: 1 game faulted (more than --max-faults 0); the last: plugin " +
    "./tests/fixtures/throwing.ts failed in play(): boom: the heaps fell over (making the opening)";
  assertStringIncludes(plain.err, line);
  noTrace(plain.out + plain.err);
  const debug = await start([...args, "--debug"]).done;
  assertEquals(debug.code, 1, debug.out + debug.err);
  assertStringIncludes(debug.err, line);
  assert(/at .*tests\/fixtures\/throwing\.ts:\d+:\d+/.test(debug.err), debug.err);
});

Deno.test("kalah onemove: Ctrl-C stops a long search (in its worker) and exits 130", async () => {
  const job = start(["kalah", "onemove", "seq_mm", "(40)"]);
  await job.waitFor("Initializing Board...");
  await job.sigint();
  const { code, out, err } = await job.done;
  assertEquals(code, 130, out + err);
  assertStringIncludes(out, "Interrupted: the search stopped before choosing a move.");
  noTrace(out + err);
  assert(await job.groupGone(), "no process of the program is left");
});

Deno.test("testrun: Ctrl-C stops the tree search (in its worker) and exits 130", async () => {
  const job = start(["testrun", "expectimax", "4", "4", "20", "--seed", "1"]);
  await job.waitFor("seed 1");
  await job.sigint();
  const { code, out, err } = await job.done;
  assertEquals(code, 130, out + err);
  assertStringIncludes(out, "Stopped after 0 slides");
  noTrace(out + err);
  assert(await job.groupGone(), "no process of the program is left");
});

Deno.test("bench --attempt: Ctrl-C during a search keeps the state and where it was, exits 130", async () => {
  const dir = await Deno.makeTempDir();
  const state = `${dir}/9x9.json`;
  try {
    // A 9x9 reply takes minutes to solve: the signal comes while the searches run.
    const job = start([
      "bench",
      "domineering",
      "--attempt",
      "9x9",
      "--state",
      state,
      "--workers",
      "2",
      "--tt-bits",
      "16",
    ]);
    await job.waitFor("searches settled before");
    await job.sigint();
    const { code, out, err } = await job.done;
    assertEquals(code, 130, err);
    assertStringIncludes(out, "9x9: stopped by Ctrl-C; at H a2 (1/72) V: 0/");
    noTrace(err);
    assert(await job.groupGone(), "no process of the program is left");
    const saved = JSON.parse(await Deno.readTextFile(state));
    assertEquals(saved.runs, 1);
    assert(saved.at.startsWith("H a2 (1/72)") && saved.ms > 0, JSON.stringify(saved));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
