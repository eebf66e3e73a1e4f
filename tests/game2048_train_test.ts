/**
 * `deno task train 2048` as a user runs it: a training by game count written to a file,
 * reproducible with one worker and resumable (a training resumed halfway ends with the
 * very weights of one run straight through), Ctrl-C (a handshake on the progress line,
 * then SIGINT) keeping a checkpoint that a second run continues, usage errors naming the
 * option, a foreign file refused and not overwritten, and the match script's error for a
 * missing network; a packed network (`--pack`, `--keep`) that plays and that a new training
 * starts from (`--from`), and the packed 4x6 network that ships. Small networks (5x4, 1.3
 * MB) and a few hundred games: seconds each.
 */
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertMatch,
  assertStringIncludes,
} from "../testing/deps.ts";
import { loadWeights } from "../plugins/game2048/weights.ts";
import { DEFAULT_WEIGHTS } from "../plugins/game2048/mod.ts";
import { greedyGames, standardError, summarize } from "../plugins/game2048/train.ts";
import { runTask, startTask } from "../testing/task.ts";

const train = (args: string[]) => runTask("train", ["2048", "--net", "5x4", ...args]);

Deno.test("train by game count: reproducible with one worker, and a resumed run ends alike", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const whole = await train([
      "--games",
      "300",
      "--workers",
      "1",
      "--seed",
      "5",
      "--out",
      `${dir}/a.w`,
    ]);
    assertEquals(whole.code, 0, whole.stderr);
    assertStringIncludes(whole.stdout, "300 games trained");
    assertStringIncludes(whole.stdout, "seed 5");
    const half = await train([
      "--games",
      "120",
      "--workers",
      "1",
      "--seed",
      "5",
      "--out",
      `${dir}/b.w`,
    ]);
    assertEquals(half.code, 0, half.stderr);
    assertStringIncludes(half.stdout, "120 games trained");
    const rest = await train(["--games", "300", "--workers", "1", "--out", `${dir}/b.w`]);
    assertEquals(rest.code, 0, rest.stderr);
    assertStringIncludes(rest.stdout, "resuming");
    assertStringIncludes(rest.stdout, "120 games trained");
    assertStringIncludes(rest.stdout, "300 games trained (180 in this sitting");
    const a = loadWeights(`${dir}/a.w`), b = loadWeights(`${dir}/b.w`);
    assertEquals(a.meta.games, 300);
    assertEquals(b.meta.games, 300);
    assertEquals(b.net.weights, a.net.weights);
    // Two workers share the weights (lock-free: not reproducible, but every game counted).
    const two = await train(["--games", "400", "--workers", "2", "--out", `${dir}/a.w`]);
    assertEquals(two.code, 0, two.stderr);
    assertStringIncludes(two.stdout, "2 workers, up to 400 games");
    assertStringIncludes(two.stdout, "400 games trained (100 in this sitting");
    assertEquals(loadWeights(`${dir}/a.w`).meta.games, 400);
    // The network alone, greedy, on fresh tiles.
    const greedy = await train(["--greedy", "20", "--out", `${dir}/a.w`]);
    assertEquals(greedy.code, 0, greedy.stderr);
    assertStringIncludes(greedy.stdout, "5x4 network after 400 training games");
    assertStringIncludes(greedy.stdout, "20 greedy games (one ply): mean score ");
    assertMatch(greedy.stdout, /mean score [\d,]+ \(± [\d,]+\); reached 2048/);
    // Nothing left to do: said, and the file kept.
    const again = await train(["--games", "400", "--out", `${dir}/a.w`]);
    assertEquals(again.code, 0);
    assertStringIncludes(again.stdout, "nothing to do");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("train --init V --tc: optimistic, by temporal coherence, resumed with its accumulators", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const opts = ["--workers", "1", "--seed", "6", "--init", "100000", "--tc"];
    const whole = await train(["--games", "200", ...opts, "--out", `${dir}/a.w`]);
    assertEquals(whole.code, 0, whole.stderr);
    assertStringIncludes(
      whole.stdout,
      "alpha 1, every board starting at 100,000, temporal coherence",
    );
    const half = await train(["--games", "80", ...opts, "--out", `${dir}/b.w`]);
    assertEquals(half.code, 0, half.stderr);
    const rest = await train(["--games", "200", "--workers", "1", "--out", `${dir}/b.w`]);
    assertEquals(rest.code, 0, rest.stderr);
    assertStringIncludes(rest.stdout, "5x4 network (temporal coherence), seed 6, 80 games");
    const a = loadWeights(`${dir}/a.w`, true), b = loadWeights(`${dir}/b.w`, true);
    assertEquals(b.meta.init, 100000);
    assertEquals(b.meta.tc, true);
    assertEquals(b.net.weights, a.net.weights);
    assertEquals(b.net.coherence, a.net.coherence);
    const reinit = await train(["--games", "300", "--init", "5", "--out", `${dir}/b.w`]);
    assertEquals(reinit.code, 2);
    assertStringIncludes(reinit.stderr, "--init sets a new training");
    // TD so far, temporal coherence from a resumed game on.
    const td = await train([..."--games 50 --workers 1 --seed 6 --out".split(" "), `${dir}/c.w`]);
    assertEquals(td.code, 0, td.stderr);
    const tc = await train([
      ..."--games 90 --workers 2 --tc --late 0.3 --out".split(" "),
      `${dir}/c.w`,
    ]);
    assertEquals(tc.code, 0, tc.stderr);
    assertStringIncludes(tc.stdout, "temporal coherence from game 50 on");
    assertStringIncludes(tc.stdout, "learning rate 0.1 -> 1 from game 50");
    assertStringIncludes(tc.stdout, "late starts 0 -> 0.3 from game 50");
    const c = loadWeights(`${dir}/c.w`, true);
    assertEquals(c.meta.tc, true);
    // Late starts on, the workers' pools kept (empty: no game of this size made 8192).
    assertEquals(c.meta.late, 0.3);
    assertEquals(c.meta.starts?.length, 2);
    assert(c.net.coherence!.some((x) => x !== 0));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("train --stages: a new multi-stage network, stages added on a resume (never removed)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fresh = await train([
      ..."--games 30 --workers 1 --stages 2 --out".split(" "),
      `${dir}/a.w`,
    ]);
    assertEquals(fresh.code, 0, fresh.stderr);
    assertStringIncludes(fresh.stdout, "training a new 5x4 network of 2 stages (655,360 weights");
    assertEquals(loadWeights(`${dir}/a.w`).net.shape.stages, 2);
    const one = await train([..."--games 30 --workers 1 --tc --out".split(" "), `${dir}/b.w`]);
    assertEquals(one.code, 0, one.stderr);
    const before = loadWeights(`${dir}/b.w`, true).net;
    const more = await train([
      ..."--games 40 --workers 1 --stages 3 --out".split(" "),
      `${dir}/b.w`,
    ]);
    assertEquals(more.code, 0, more.stderr);
    assertStringIncludes(
      more.stdout,
      "stages 1 -> 3 from game 30 (each new stage a copy of stage 1)",
    );
    const after = loadWeights(`${dir}/b.w`, true);
    assertEquals(after.meta.stages, 3);
    assertEquals(after.net.weights.length, 3 * before.weights.length);
    // No game of a 5x4 network reaches 16384: the later stages are still the copies.
    const size = before.weights.length;
    assertEquals(after.net.weights.subarray(2 * size), before.weights);
    assertEquals(after.net.weights.subarray(size, 2 * size), before.weights);
    const resumed = await train(["--games", "50", "--workers", "1", "--out", `${dir}/b.w`]);
    assertEquals(resumed.code, 0, resumed.stderr);
    assertStringIncludes(resumed.stdout, "5x4 network of 3 stages (temporal coherence)");
    const fewer = await train(["--games", "60", "--stages", "2", "--out", `${dir}/b.w`]);
    assertEquals(fewer.code, 2);
    assertStringIncludes(fewer.stderr, "holds a network of 3 stages, and stages cannot be merged");
    // A network grows into a shape with every tuple it has (below, in the unit tests),
    // never into one that lacks some: the file is refused before any weight is made.
    const shrink = await runTask("train", ["2048", "--net", "9x6", "--out", `${dir}/b.w`]);
    assertEquals(shrink.code, 2);
    assertStringIncludes(
      shrink.stderr,
      "holds a 5x4 network and 9x6 lacks the tuple 0,1,2,3 of 5x4",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Ctrl-C writes a checkpoint and says how to resume; the resumed run continues the count", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const job = startTask([
      "train",
      "2048",
      "--net",
      "5x4",
      "--games",
      "2000000000",
      "--workers",
      "1",
      "--seed",
      "9",
      "--out",
      `${dir}/c.w`,
    ]);
    // The first progress line comes once games are done.
    await job.waitFor("/s, ");
    await job.sigint();
    const { code, out } = await job.done;
    assertEquals(code, 130);
    assertStringIncludes(out, "interrupted: ");
    assertStringIncludes(out, `checkpoint written to ${dir}/c.w`);
    assertStringIncludes(
      out,
      `resume with: deno task train 2048 --out ${dir}/c.w --games 2000000000`,
    );
    const saved = loadWeights(`${dir}/c.w`).meta;
    assert(saved.games > 0);
    const more = saved.games + 50;
    const reseeded = await train(["--games", String(more), "--seed", "3", "--out", `${dir}/c.w`]);
    assertEquals(reseeded.code, 2);
    assertStringIncludes(reseeded.stderr, "--seed sets a new training");
    const resumed = await train([
      "--games",
      String(more),
      "--alpha",
      "0.05",
      "--out",
      `${dir}/c.w`,
    ]);
    assertEquals(resumed.code, 0, resumed.stderr);
    assertStringIncludes(resumed.stdout, "learning rate 0.1 -> 0.05 from game");
    assertStringIncludes(resumed.stdout, `${saved.games.toLocaleString("en-US")} games trained`);
    assertEquals(loadWeights(`${dir}/c.w`).meta.games, more);
    assertEquals(loadWeights(`${dir}/c.w`).meta.seed, 9);
    assertEquals(loadWeights(`${dir}/c.w`).meta.alpha, 0.05);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("train: usage errors name the option; a foreign file is refused and kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string[], string][] = [
      [["--net", "3x3"], "--net must be one of 4x6, 5x4, 8x6, 9x6, got '3x3'"],
      [["--games", "0"], "--games must be an integer from 1 to"],
      [["--alpha", "x"], "--alpha must be a number from"],
      [["--init", "-1"], "--init must be a number from 0 to 1000000"],
      [["--late", "1"], "--late must be a number from 0 to 0.9"],
      [["--stages", "4"], "--stages must be an integer from 1 to 3"],
      [["--workers", "0"], "--workers must be an integer from 1 to 256"],
      [["--colour", "red"], "unknown option --colour"],
    ];
    for (const [args, message] of cases) {
      const r = await runTask("train", ["2048", ...args, "--out", `${dir}/u.w`]);
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assertStringIncludes(r.stderr, message);
    }
    const kalah = await runTask("train", ["kalah"]);
    assertEquals(kalah.code, 2);
    assertStringIncludes(kalah.stderr, "only 2048 has a network to train, not 'kalah'");
    const foreign = `${dir}/notes.txt`;
    await Deno.writeTextFile(foreign, "my notes, not a network\n");
    const r = await train(["--games", "10", "--out", foreign]);
    assertEquals(r.code, 2);
    assertStringIncludes(r.stderr, `${foreign}: not a 2048 n-tuple network`);
    assertStringIncludes(r.stderr, "not overwritten");
    assertEquals(await Deno.readTextFile(foreign), "my notes, not a network\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("match --eval ntuple: a missing network is an error naming the file and what to run", async () => {
  const r = await runTask("match", [
    "2048",
    "--eval",
    "ntuple",
    "--weights",
    "/nonexistent/net.weights",
    "--p1",
    "expectimax:1",
    "--games",
    "1",
  ]);
  assertEquals(r.code, 2, r.stderr);
  assertStringIncludes(r.stderr, "/nonexistent/net.weights: no such file");
  assertStringIncludes(r.stderr, "deno task train 2048 --out /nonexistent/net.weights");
});

Deno.test("match --eval ntuple --weights FILE: a relative file is read from where the user is", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const made = await runTask(
      "train",
      ["2048", "--net", "5x4", "--games", "50", "--workers", "1", "--seed", "1", "--out", "n.w"],
      { cwd: dir, config: true },
    );
    assertEquals(made.code, 0, made.stderr);
    const r = await runTask(
      "match",
      [
        "2048",
        "--eval",
        "ntuple",
        "--weights",
        "n.w",
        "--p1",
        "expectimax:1",
        "--games",
        "1",
        "--json",
      ],
      { cwd: dir, config: true },
    );
    assertEquals(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assertEquals(out.finished, 1);
    assertEquals(out.options.weights, "n.w");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("train --pack: a packed network plays, and a new training starts from it with --from", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const made = await train(
      `--tc --games 300 --window 100 --workers 1 --seed 5 --out ${dir}/a.w`.split(" "),
    );
    assertEquals(made.code, 0, made.stderr);
    const packed = `${dir}/ship/a.packed`;
    const pack = await train(["--out", `${dir}/a.w`, "--pack", packed, "--keep", "2000"]);
    assertEquals(pack.code, 0, pack.stderr);
    const said = pack.stdout.match(
      /packed into [\d.]+ MB: ([\d,]+) weights \(multiples of 8; ([\d,]+) that learned least set to 0\)/,
    );
    assert(said !== null, pack.stdout);
    const kept = Number(said[1].replaceAll(",", ""));
    assert(kept <= 2000 && kept > 1000, pack.stdout);
    const loaded = loadWeights(packed);
    assertEquals(loaded.meta.games, 300);
    assertEquals(loaded.meta.packed?.pruned, Number(said[2].replaceAll(",", "")));
    assertEquals(loaded.net.weights.filter((w) => w !== 0).length, kept);
    // It plays: greedy, and under the match script.
    const greedy = await train(["--greedy", "10", "--out", packed]);
    assertEquals(greedy.code, 0, greedy.stderr);
    assertStringIncludes(greedy.stdout, "10 greedy games (one ply)");
    const match = await runTask(
      "match",
      `2048 --eval ntuple --weights ${packed} --p1 expectimax:1 --games 1 --json`.split(" "),
    );
    assertEquals(match.code, 0, match.stderr);
    assertEquals(JSON.parse(match.stdout).finished, 1);
    // A new training from it: its seed, its games and its curve, fresh accumulators.
    const from = await train(
      `--from ${packed} --games 400 --window 100 --workers 1 --out ${dir}/b.w`.split(" "),
    );
    assertEquals(from.code, 0, from.stderr);
    assertStringIncludes(from.stdout, `starting ${dir}/b.w from ${packed}`);
    assertStringIncludes(from.stdout, "temporal coherence with fresh accumulators from game 300");
    assertStringIncludes(from.stdout, "400 games trained (100 in this sitting");
    const b = loadWeights(`${dir}/b.w`, true);
    assertEquals([b.meta.games, b.meta.seed, b.meta.packed], [400, 5, undefined]);
    assert(b.net.coherence !== undefined);
    assertEquals([loaded.meta.history.length, b.meta.history.length], [3, 4]);
    // Mistakes: named, nothing overwritten.
    const cases: [string[], string][] = [
      [
        ["--from", packed, "--out", `${dir}/b.w`],
        `--from starts a new training file, but ${dir}/b.w exists`,
      ],
      [["--from", `${dir}/none.w`, "--out", `${dir}/c.w`], `${dir}/none.w: no such file`],
      [["--keep", "5", "--out", `${dir}/a.w`], "--keep goes with --pack"],
      [
        ["--pack", `${dir}/x.p`, "--keep", "0", "--out", `${dir}/a.w`],
        "--keep must be an integer from 1",
      ],
    ];
    for (const [args, message] of cases) {
      const r = await train(args);
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assertStringIncludes(r.stderr, message);
    }
    const td = await train(["--games", "20", "--workers", "1", "--out", `${dir}/td.w`]);
    assertEquals(td.code, 0, td.stderr);
    const r = await train(["--out", `${dir}/td.w`, "--pack", `${dir}/td.p`, "--keep", "10"]);
    assertEquals(r.code, 2);
    assertStringIncludes(
      r.stderr,
      "has none (trained without --tc): pack it whole, without --keep",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the networks that ship: packed 9x6 (--eval ntuple's default) and 4x6, far above random play", async () => {
  const shipped = (file: string) => loadWeights(new URL(`../${file}`, import.meta.url).pathname);
  for (
    const [file, name] of [[DEFAULT_WEIGHTS, "9x6"], ["plugins/game2048/nets/4x6.weights", "4x6"]]
  ) {
    const { net, meta } = shipped(file);
    assertEquals([net.shape.name, meta.net], [name, name]);
    assert(meta.packed !== undefined && meta.games > 0);
    // Three greedy games on tiles no training game had: random play scores about 1,000.
    const s = summarize(greedyGames(net, meta.seed, 3, 2 ** 31));
    assert(s.meanScore > 20_000, `${file}: mean score ${s.meanScore}`);
    assertEquals(s.reached[0], 1, `${file}: every game reaches 2048`);
  }
  // The match script reads it without --weights.
  const r = await runTask(
    "match",
    "2048 --eval ntuple --p1 expectimax:1 --games 1 --seed 3 --json".split(" "),
  );
  assertEquals(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assertEquals(out.finished, 1);
});

Deno.test("the standard error of a mean: the sample deviation over the root of the count", () => {
  // 1, 2, 3, 4: sample variance 5/3, so the error is sqrt(5/3 / 4).
  assertAlmostEquals(standardError([1, 2, 3, 4]), Math.sqrt(5 / 12), 1e-12);
  assertEquals(standardError([7]), 0);
  assertEquals(standardError([5, 5, 5]), 0);
});
