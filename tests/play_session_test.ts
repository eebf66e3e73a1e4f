/**
 * `deno task play` as a person meets it, in a subprocess with the task's permissions:
 * the in-game commands (undo across an AI reply and across a 2048 chance move, redo,
 * hint, board, rules, help, save), starting after `--moves`, saving automatically at the
 * end, on end of input and on Ctrl-C, and resuming with `--load`. Waits are for output
 * (handshakes), never for time.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../testing/deps.ts";
import { runTask, startTask } from "../testing/task.ts";

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

/** The file the last line says the game was saved to. */
const savedFile = (out: string): string => {
  const m = out.match(
    /Saved to (\S+)\. Resume: deno task play --load \1; review: deno task review \1\n$/,
  );
  assert(m !== null, `no resume line at the end:\n${out}`);
  return m[1];
};

const ttt = ["tictactoe", "--p1", "human", "--p2", "alphabeta:9", "--seed", "3"];

Deno.test("play: undo takes back the move and the AI's reply, redo replays them", async () => {
  const r = await runTask("play", ttt, { stdin: "b2\nundo\nredo\nundo\nundo\na1\n" });
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(r.stdout, "Taken back: now after move 0.");
  assertStringIncludes(r.stdout, "Replayed: now after move 2.");
  assertStringIncludes(r.stdout, "Nothing to undo.");
  assertStringIncludes(r.stdout, "X plays a1");
  const t = JSON.parse(await Deno.readTextFile(savedFile(r.stdout)));
  assertEquals(t.version, 2);
  assertEquals(t.moves.map((m: { notation: string }) => m.notation)[0], "a1");
  assertEquals(t.moves.length, 2, "a1 and the reply: the game as played");
  assertEquals(t.variations[0].notation, "b2", "the line taken back is kept");
  assertEquals(t.moves[1].agent, "alphabeta:9");
  assertEquals(t.moves[1].search.exact, true);
  assertEquals(t.result.reason, "end of input");
  noTrace(r.stdout + r.stderr);
});

Deno.test("play: undo in 2048 takes back the slide and the tile placed after it", async () => {
  const r = await runTask("play", ["2048", "--width", "2", "--height", "2", "--seed", "5"], {
    stdin: "?\n",
  });
  // The first legal slide, from the list `?` printed.
  const slide = r.stdout.match(/Legal moves: (\w+)/)?.[1];
  assert(slide !== undefined, r.stdout);
  const u = await runTask("play", ["2048", "--width", "2", "--height", "2", "--seed", "5"], {
    stdin: `${slide}\nundo\n`,
  });
  assertEquals(u.code, 0, u.stderr);
  const opening = (r.stdout.match(/^chance: /gm) ?? []).length;
  assert(opening >= 1, "the computer placed the opening tiles");
  assertStringIncludes(u.stdout, `Taken back: now after move ${opening}.`);
  const t = JSON.parse(await Deno.readTextFile(savedFile(u.stdout)));
  assertEquals(t.current, opening, "back before the slide and its tile");
  assertEquals(t.moves[opening + 1].by, "chance");
});

Deno.test("play: hint, board, rules and help answer without playing a move", async () => {
  const r = await runTask("play", ttt, { stdin: "hint\nboard\nrules\nhelp\nzz\n" });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /Hint: [abc][123] \(depth \d+( \(exact\))?, (X: 0|X wins in \d+ plies)/);
  for (const word of ["undo", "redo", "hint", "board", "rules", "save [FILE]", "quit"]) {
    assertStringIncludes(r.stdout, `\n  ${word}`);
  }
  assertStringIncludes(r.stdout, "Can't play 'zz': expected a cell");
  const t = JSON.parse(await Deno.readTextFile(savedFile(r.stdout)));
  assertEquals(t.moves, [], "no move was played");
});

Deno.test("play: --moves starts from a position; save writes it; --load resumes it", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/game.json`;
  const first = await runTask(
    "play",
    [...ttt, "--moves", "b2,a1", "--save", file],
    { stdin: `c3\nsave ${dir}/early.json\n` },
  );
  assertEquals(first.code, 0, first.stderr);
  assertStringIncludes(first.stdout, `Saved to ${dir}/early.json.`);
  assertEquals(savedFile(first.stdout), file);
  const t = JSON.parse(await Deno.readTextFile(file));
  assertEquals(t.moves.slice(0, 3).map((m: { notation: string }) => m.notation), [
    "b2",
    "a1",
    "c3",
  ]);
  assertEquals(t.result.reason, "end of input");
  // Resume: the players and the seed come from the file.
  const resumed = await runTask("play", ["--load", file], { stdin: "quit\n" });
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stdout, "X (human) vs O (alphabeta:9), seed 3");
  assertStringIncludes(resumed.stdout, "X gave up; O wins.");
  const again = JSON.parse(await Deno.readTextFile(savedFile(resumed.stdout)));
  assertEquals(again.moves.slice(0, 4), t.moves.slice(0, 4), "the game so far is kept");
  const early = JSON.parse(await Deno.readTextFile(`${dir}/early.json`));
  assertEquals(early.moves.length, 4, "save wrote the game as it stood");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("play --load: a missing, broken or foreign file is one clear line", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/broken.json`, "{");
  await Deno.writeTextFile(`${dir}/other.json`, JSON.stringify({ hello: 1 }));
  const illegal = {
    game: "tictactoe",
    options: {},
    seed: 1,
    players: ["human", "human"],
    moves: [{ by: 0, move: 4, notation: "b2", ms: 0 }, { by: 1, move: 4, notation: "b2", ms: 0 }],
    result: { winner: null, margin: 0, reason: "quit" },
  };
  await Deno.writeTextFile(`${dir}/illegal.json`, JSON.stringify(illegal));
  for (
    const [file, says] of [
      ["missing.json", "no such file"],
      ["broken.json", "not JSON"],
      ["other.json", "not a ply transcript"],
      ["illegal.json", "move 2 (b2) is not legal there"],
    ]
  ) {
    const r = await runTask("play", ["--load", `${dir}/${file}`]);
    assertEquals(r.code, 2, r.stdout + r.stderr);
    assertStringIncludes(r.stderr, `--load: ${dir}/${file}: ${says}`);
    noTrace(r.stdout + r.stderr);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("play: Ctrl-C at a person's prompt ends the game and saves it", async () => {
  const job = startTask(["play", ...ttt]);
  await job.waitFor("X to move");
  await job.type("b2\n");
  await job.waitFor("O plays");
  await job.waitFor("X to move (or help): ");
  await job.sigint();
  const { code, out, err } = await job.done;
  assertEquals(code, 130, err);
  assertStringIncludes(out, "Interrupted; the game stops here.");
  const t = JSON.parse(await Deno.readTextFile(savedFile(out)));
  assertEquals(t.moves[0].notation, "b2");
  assertEquals(t.result.reason, "interrupted");
  noTrace(out + err);
});

Deno.test("play: values are the mover's, labelled; a decisive one says who wins in how many plies", async () => {
  // After b2 a1 c3 the AI (O) is lost: X has a forced win.
  const r = await runTask("play", [...ttt, "--moves", "b2,b1,a1"], { stdin: "" });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /O plays c3 \[depth \d+ \(exact\), X wins in \d+ plies,/);
  const even = await runTask("play", ttt, { stdin: "b2\n" });
  assertMatch(even.stdout, /O plays [abc][123] \[depth \d+ \(exact\), O: 0,/);
});
