/**
 * The programs as a user meets them at a terminal, through `deno task` in a subprocess:
 * Ctrl-C (SIGINT to the process group, or the key typed into a pseudo-terminal) during
 * a search, a plugin that throws, a plugin that never returns. Every wait is for an
 * event (a line of output, the process's end), never for a time; a watchdog only turns
 * a hang into a failure.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { root } from "./tools/task.ts";

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

/** A program started in its own process group (as a terminal's foreground job). */
interface Job {
  /** Resolves once the output contains `text`. */
  readonly waitFor: (text: string) => Promise<void>;
  /** Sends SIGINT to the whole group, as a terminal's Ctrl-C does. */
  readonly sigint: () => Promise<void>;
  /** Types into the program's standard input. */
  readonly type: (text: string) => Promise<void>;
  /** The exit code and everything printed. */
  readonly done: Promise<{ code: number; out: string; err: string }>;
  /** True when no process of the group is left. */
  readonly groupGone: () => Promise<boolean>;
}

/**
 * Starts `deno task ARGS` with `setsid` (its own process group); with `pty`, inside
 * `script`, which gives it a pseudo-terminal (Ctrl-C is then the byte 0x03 typed).
 */
const start = (args: string[], pty = false): Job => {
  const task = [Deno.execPath(), "task", ...args];
  const quoted = task.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const argv = pty ? ["script", "-qfec", quoted, "/dev/null"] : task;
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  const child = new Deno.Command("setsid", {
    args: argv,
    cwd: root,
    clearEnv: true,
    env: { ...env, NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let out = "", err = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  const pump = async (stream: ReadableStream<Uint8Array>, into: (s: string) => void) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      into(chunk);
      for (const w of waiters.splice(0)) {
        if ((out + err).includes(w.text)) w.resolve();
        else waiters.push(w);
      }
    }
  };
  const reading = Promise.all([
    pump(child.stdout, (s) => (out += s)),
    pump(child.stderr, (s) => (err += s)),
  ]);
  // A watchdog: a program that hangs fails the test instead of hanging the suite.
  const watchdog = setTimeout(() => kill("KILL"), 120_000);
  const kill = async (signal: string) => {
    await new Deno.Command("kill", { args: [`-${signal}`, "--", `-${child.pid}`] }).output();
  };
  const done = (async () => {
    const status = await child.status;
    await reading;
    clearTimeout(watchdog);
    await writer.close().catch(() => {});
    return { code: status.code, out, err };
  })();
  return {
    waitFor: (text) =>
      (out + err).includes(text) ? Promise.resolve() : Promise.race([
        new Promise<void>((resolve) => waiters.push({ text, resolve })),
        done.then(() => {
          throw new Error(`the program ended before printing '${text}':\n${out}\n${err}`);
        }),
      ]),
    sigint: () => kill("INT"),
    type: (text) => writer.write(new TextEncoder().encode(text)),
    done,
    groupGone: async () =>
      !(await new Deno.Command("kill", { args: ["-0", "--", `-${child.pid}`], stderr: "null" })
        .output()).success,
  };
};

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
  assertStringIncludes(out, `Transcript written to ${file}`);
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

Deno.test("match --debug: a plugin's exception is shown with its stack; without, one line", async () => {
  const args = [
    "match",
    "./tests/fixtures/throwing.ts",
    "--p1",
    "random",
    "--p2",
    "alphabeta:2",
    "--games",
    "2",
  ];
  const plain = await start(args).done;
  assertEquals(plain.code, 1, plain.out + plain.err);
  assertStringIncludes(plain.err, "error: plugin ./tests/fixtures/throwing.ts failed in play()");
  noTrace(plain.out + plain.err);
  const debug = await start([...args, "--debug"]).done;
  assertEquals(debug.code, 1, debug.out + debug.err);
  assertStringIncludes(debug.err, "error: plugin ./tests/fixtures/throwing.ts failed in play()");
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
