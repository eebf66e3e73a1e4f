/**
 * `deno task train 2048 [--net NAME] [--games N] [--hours H] [--workers W] [--out FILE]`
 *
 * Trains 2048's n-tuple network by TD(0) on afterstates (`plugins/game2048/train.ts`),
 * optionally by temporal coherence (`--tc`) and from an optimistic start (`--init V`), on
 * worker threads sharing the weights, with a progress line, a checkpoint every few
 * minutes, and on Ctrl-C a last checkpoint. Run again with the same `--out` to resume:
 * the games go on from the checkpoint's count. `--chart FILE` writes the training curve
 * as an SVG.
 *
 * @module
 */
import { Effect } from "../../../core/deps.ts";
import { Terminal } from "../../../app/terminal.ts";
import { writeFileAtomic } from "../../../app/files.ts";
import { MAX_STAGES, SHAPES, stagesOf, weightCount } from "../ntuple.ts";
import {
  greedyGames,
  growthProblem,
  sharedNetwork,
  summarize,
  trainNetwork,
  type TrainTick,
  withCoherence,
  withStages,
  withTuples,
} from "../train.ts";
import { loadWeights, saveWeights, type TrainMeta, WeightsError } from "../weights.ts";
import { curveSvg } from "../train_chart.ts";
import {
  intFlag,
  numberFlag,
  parseCommandLine,
  runMain,
  UsageError,
  userPath,
  workersFromArgs,
} from "../../../app/cli.ts";
import { num, StatusLine } from "../../../app/display.ts";

const USAGE = `Usage: deno task train 2048 [--net NAME] [--games N] [--hours H] [--workers W]
                        [--out FILE] [--seed S] [--alpha A] [--checkpoint MIN]
                        [--window N] [--chart FILE] [--init V] [--tc] [--late P]
                        [--stages S] [--from PACKED]
       deno task train 2048 --greedy N [--out FILE] [--chart FILE]
       deno task train 2048 --pack PACKED [--keep K] [--out FILE]
Trains 2048's n-tuple network (TD(0) on afterstates) and writes it to FILE, which
deno task match 2048 --eval ntuple --weights FILE then plays with.

  --net NAME        4x6: four 6-tuples, 268 MB (the strong one, default); 5x4: five
                    4-tuples, 1.3 MB (Szubert & Jaskowski 2014); 8x6: Matsuzaki's eight
                    6-tuples, 537 MB; 9x6: 4x6 and the five tuples of 8x6 it lacks,
                    604 MB. On a resumed training, a NAME that has every tuple of the
                    file's network and more grows it: the new tuples start at 0
  --games N         stop after N games in all (counting the checkpoint's)
  --hours H         stop after H hours of this sitting (default: until Ctrl-C or --games)
  --workers W       threads playing and learning (default: this machine's cores)
  --out FILE        the network's file (default out/2048-NET.weights); if it exists, the
                    training resumes from it
  --seed S          the tiles' seed for a new training (default: a fresh one, printed)
  --alpha A         the learning rate (default 0.1; given on a resumed training, it
                    replaces the checkpoint's from there on)
  --init V          optimistic initialization of a new network: every board starts
                    worth V (0-1000000; Guei et al. 2022 use 320000; default 0)
  --tc              learn by temporal coherence (a rate per weight, |E|/A; the file keeps
                    the accumulators: 3 times its size); on a resumed TD training, TC
                    from there on (alpha 1 unless --alpha is given)
  --late P          late starts: a share P (0-0.9) of the games start from a position
                    where an earlier game first made 8192 or 16384, to train the late
                    game more (default 0; given on a resumed training, from there on);
                    the figures count only the games from the empty board
  --stages S        multi-stage weights (Yeh et al. 2017): 1 (default), 2 (one set of
                    tables before the first 16384, one after) or 3 (and one more from
                    16384 and 8192 together); the file grows S times. On a resumed
                    training, more stages than the file has adds them, each a copy of
                    its last stage (weight promotion), from there on
  --checkpoint MIN  minutes between checkpoints (default 5)
  --window N        games per point of the curve and of the progress figures (default 1000)
  --chart FILE      also write the training curve there (SVG)
  --from PACKED     start --out (a new file) from the network of PACKED (a packed one,
                    or any network file): its weights, seed, games and curve, with
                    fresh coherence accumulators when it learned by --tc
  --greedy N        train nothing: play N games greedily (one ply) with the network of
                    --out, on tiles no training game had, and report the tiles reached
  --pack PACKED     train nothing: write the network of --out to PACKED as a packed
                    network (weights rounded to 16-bit multiples of 8, deflated; no
                    coherence accumulators), small enough to keep or ship
  --keep K          with --pack: keep only the K weights that learned most (by their
                    coherence accumulators), the others 0
Every FILE (and the default out/) is relative to the directory you run the task from.
Ctrl-C finishes the games in play, writes a checkpoint and says how to resume (exit code
130). With one worker a training is reproducible; several workers update the shared
weights without locks, which is faster but not bit-reproducible.
`;

/** Seconds as `12 s`, `4:05` or `1:02:03`. */
const clock = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = String(m).padStart(h > 0 ? 2 : 1, "0"), ss = String(r).padStart(2, "0");
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
};

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** The progress line: games, speed, and the last window's figures. */
export const progressLine = (t: TrainTick): string =>
  `games ${num(t.games)} (${t.gamesPerSecond.toFixed(1)}/s, ${clock(t.ms)}${
    t.lateGames > 0 ? `; ${num(t.lateGames)} started late` : ""
  }): last ${num(t.window)}: mean score ${num(t.meanScore)}, 2048 ${pct(t.reached[0])}, 8192 ${
    pct(t.reached[2])
  }, 16384 ${pct(t.reached[3])}`;

/** The network of `file` (`loadWeights`), or undefined after printing why it cannot be read. */
const networkOrError = (file: string, training: boolean, typed: string) =>
  Effect.sync(() => {
    try {
      return loadWeights(file, training, typed);
    } catch (e) {
      if (!(e instanceof WeightsError)) throw e;
      console.error(`error: ${e.message}`);
      return undefined;
    }
  });

/** Makes the folder of file `path` (`what` names it in the error). */
const folderOf = (path: string, what: string) =>
  Effect.try({
    try: () => Deno.mkdirSync(path.replace(/[\\/][^\\/]*$/, "") || ".", { recursive: true }),
    catch: (e) =>
      new UsageError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` }),
  });

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, {
    string: [
      "net",
      "games",
      "hours",
      "workers",
      "out",
      "seed",
      "alpha",
      "checkpoint",
      "window",
      "chart",
      "greedy",
      "init",
      "late",
      "stages",
      "from",
      "pack",
      "keep",
    ],
    boolean: ["tc"],
    positionals: 1,
  });
  const term = yield* Terminal;
  if (flags.help === true) {
    yield* term.print(USAGE);
    return 0;
  }
  const extra = Object.keys(gameOptions).map((k) => `--${k}`);
  if (extra.length > 0) {
    return yield* new UsageError({ message: `unknown option ${extra.join(" ")}` });
  }
  if (positional[0] !== "2048") {
    return yield* new UsageError({
      message: positional[0] === undefined
        ? "name the game: deno task train 2048 (the only game with a network)"
        : `only 2048 has a network to train, not '${positional[0]}'`,
    });
  }
  const netName = typeof flags.net === "string" ? flags.net : "4x6";
  if (!Object.hasOwn(SHAPES, netName)) {
    return yield* new UsageError({
      message: `--net must be one of ${Object.keys(SHAPES).join(", ")}, got '${netName}'`,
    });
  }
  const games = flags.games === undefined
    ? undefined
    : yield* intFlag(flags, "games", 0, 1, 2 ** 31 - 1);
  const hours = flags.hours === undefined
    ? undefined
    : yield* numberFlag(flags, "hours", 0, 0.001, 10000);
  const workers = workersFromArgs(Deno.args);
  if (typeof workers === "string") return yield* new UsageError({ message: workers });
  const seedFlag = flags.seed === undefined
    ? undefined
    : yield* intFlag(flags, "seed", 0, 0, 2 ** 32 - 1);
  const tc = flags.tc === true;
  // Temporal coherence's rates |E|/A are at most 1: its meta rate is 1 (Jaśkowski 2018).
  const alpha = yield* numberFlag(flags, "alpha", tc ? 1 : 0.1, 1e-6, 10);
  const init = yield* numberFlag(flags, "init", 0, 0, 1_000_000);
  const late = yield* numberFlag(flags, "late", 0, 0, 0.9);
  const stages = yield* intFlag(flags, "stages", 1, 1, MAX_STAGES);
  const checkpointMin = yield* numberFlag(flags, "checkpoint", 5, 0.01, 1440);
  const window = yield* intFlag(flags, "window", 1000, 1, 1_000_000);
  const typed = typeof flags.out === "string" ? flags.out : `out/2048-${netName}.weights`;
  const out = userPath(typed);
  const chart = typeof flags.chart === "string" ? userPath(flags.chart) : undefined;

  if (flags.greedy !== undefined) {
    const n = yield* intFlag(flags, "greedy", 0, 1, 10_000_000);
    const loaded = yield* networkOrError(out, false, typed);
    if (loaded === undefined) return 2;
    if (chart !== undefined) writeFileAtomic(chart, curveSvg(loaded.meta));
    const t0 = performance.now();
    // Games 2^31 on: tiles that no training game (numbered from 0) had.
    const results = greedyGames(loaded.net, loaded.meta.seed, n, 2 ** 31);
    const ms = performance.now() - t0, s = summarize(results);
    const moves = results.reduce((a, r) => a + r.moves, 0);
    yield* term.print(
      `${typed}: ${loaded.meta.net} network after ${num(loaded.meta.games)} training games ` +
        `(${clock(loaded.meta.ms)})\n${num(n)} greedy games (one ply): mean score ${
          num(s.meanScore)
        } (± ${num(s.scoreError)}); reached 2048 ${pct(s.reached[0])}, 4096 ${
          pct(s.reached[1])
        }, 8192 ${pct(s.reached[2])}, 16384 ${pct(s.reached[3])}, 32768 ${pct(s.reached[4])}; ${
          num(moves / (ms / 1000))
        } moves/s\n`,
    );
    return 0;
  }

  if (flags.keep !== undefined && flags.pack === undefined) {
    return yield* new UsageError({ message: "--keep goes with --pack" });
  }
  if (flags.pack !== undefined) {
    if (typeof flags.pack !== "string") {
      return yield* new UsageError({ message: "--pack needs a file" });
    }
    const keep = flags.keep === undefined
      ? undefined
      : yield* intFlag(flags, "keep", 0, 1, 2 ** 31 - 1);
    const loaded = yield* networkOrError(out, true, typed);
    if (loaded === undefined) return 2;
    if (keep !== undefined && loaded.net.coherence === undefined) {
      return yield* new UsageError({
        message: `--keep ranks the weights by their coherence accumulators, and ${typed} ` +
          `has none (trained without --tc): pack it whole, without --keep`,
      });
    }
    const packed = userPath(flags.pack);
    yield* folderOf(packed, `--pack ${flags.pack}`);
    const bytes = yield* Effect.try({
      try: () => saveWeights(packed, loaded.net, loaded.meta, { keep }),
      catch: (e) =>
        new UsageError({
          message: `--pack ${flags.pack}: ${e instanceof Error ? e.message : String(e)}`,
        }),
    });
    // Read back: the figures reported are those of the file as written.
    const stored = loadWeights(packed, false, flags.pack);
    const kept = stored.net.weights.reduce((n, w) => (w === 0 ? n : n + 1), 0);
    yield* term.print(
      `${flags.pack}: the ${loaded.meta.net} network of ${typed} after ${
        num(loaded.meta.games)
      } games, packed into ${(bytes / 2 ** 20).toFixed(2)} MB: ${num(kept)} weights ` +
        `(multiples of ${stored.meta.packed!.unit}; ${
          num(stored.meta.packed!.pruned)
        } that learned least set to 0)\n`,
    );
    return 0;
  }

  // Resume from the file if it is there (or start it from --from); a foreign or damaged
  // file is never overwritten.
  let exists = false;
  try {
    exists = Deno.statSync(out).isFile;
  } catch {
    exists = false;
  }
  const from = typeof flags.from === "string" ? flags.from : undefined;
  if (flags.from !== undefined && from === undefined) {
    return yield* new UsageError({ message: "--from needs a file" });
  }
  if (from !== undefined && exists) {
    return yield* new UsageError({
      message: `--from starts a new training file, but ${typed} exists (resume it without ` +
        `--from, or give another --out)`,
    });
  }
  if (!exists) yield* folderOf(out, `--out ${typed}`);
  let meta: TrainMeta;
  let net;
  if (exists || from !== undefined) {
    const source = from ?? typed;
    try {
      const loaded = loadWeights(from === undefined ? out : userPath(from), true, source);
      net = loaded.net;
      // A packed network's note is not the training's: the checkpoints are whole.
      const { packed: _, ...rest } = loaded.meta;
      meta = rest;
    } catch (e) {
      if (!(e instanceof WeightsError)) throw e;
      yield* Effect.sync(() =>
        console.error(
          from === undefined
            ? `error: ${e.file}: ${e.problem}; not overwritten: move it away or give another --out`
            : `error: ${e.message}`,
        )
      );
      return 2;
    }
    const grows = flags.net !== undefined && meta.net !== netName;
    const cannot = grows ? growthProblem(net.shape, SHAPES[netName]) : undefined;
    if (cannot !== undefined) {
      return yield* new UsageError({
        message: `--net ${netName}, but ${typed} holds a ${meta.net} network and ${cannot} ` +
          `(resume it without --net, or give another --out)`,
      });
    }
    for (const flag of ["seed", "init"] as const) {
      if (flags[flag] !== undefined) {
        return yield* new UsageError({
          message: `--${flag} sets a new training; ${typed} resumes one (seed ${meta.seed})`,
        });
      }
    }
    yield* term.print(
      `${
        from === undefined ? "resuming" : `starting ${typed} from`
      } ${source}: ${meta.net} network${
        stagesOf(net.shape) > 1 ? ` of ${stagesOf(net.shape)} stages` : ""
      }${meta.tc ? " (temporal coherence)" : ""}, seed ${meta.seed}, ${
        num(meta.games)
      } games trained (${clock(meta.ms)})\n`,
    );
    if (from !== undefined && meta.tc === true && net.coherence === undefined) {
      // A packed network keeps no accumulators: they start afresh.
      yield* term.print(
        `temporal coherence with fresh accumulators from game ${num(meta.games)} on\n`,
      );
      net = withCoherence(net);
    } else if (tc && net.coherence === undefined) {
      // TD so far, temporal coherence from here on (Guei et al.'s "OTD+TC").
      yield* term.print(`temporal coherence from game ${num(meta.games)} on\n`);
      net = withCoherence(net);
      meta = { ...meta, tc };
    }
    if (grows) {
      yield* term.print(
        `tuples ${net.shape.tuples.length} -> ${
          SHAPES[netName].tuples.length
        }: ${meta.net} -> ${netName} from game ${num(meta.games)} (the new tuples start at 0)\n`,
      );
      net = withTuples(net, SHAPES[netName]);
      meta = { ...meta, net: netName };
    }
    const had = stagesOf(net.shape);
    if (flags.stages !== undefined && stages !== had) {
      if (stages < had) {
        return yield* new UsageError({
          message: `--stages ${stages}, but ${typed} holds a network of ${had} stages, and ` +
            `stages cannot be merged (resume it without --stages, or give another --out)`,
        });
      }
      yield* term.print(
        `stages ${had} -> ${stages} from game ${num(meta.games)} (each new stage a copy of ` +
          `stage ${had})\n`,
      );
      net = withStages(net, stages);
      meta = { ...meta, stages };
    }
    if ((flags.alpha !== undefined || tc) && alpha !== meta.alpha) {
      yield* term.print(`learning rate ${meta.alpha} -> ${alpha} from game ${num(meta.games)}\n`);
      meta = { ...meta, alpha };
    }
    if (flags.late !== undefined && late !== (meta.late ?? 0)) {
      yield* term.print(`late starts ${meta.late ?? 0} -> ${late} from game ${num(meta.games)}\n`);
      meta = { ...meta, late };
    }
  } else {
    const seed = seedFlag ?? (crypto.getRandomValues(new Uint32Array(1))[0]);
    const shape = { ...SHAPES[netName], stages };
    net = sharedNetwork(shape, { init, tc });
    meta = {
      net: netName,
      seed,
      alpha,
      init,
      tc,
      ...(stages > 1 ? { stages } : {}),
      ...(late > 0 ? { late } : {}),
      games: 0,
      moves: 0,
      ms: 0,
      history: [],
    };
    yield* term.print(
      `training a new ${netName} network${stages > 1 ? ` of ${stages} stages` : ""} (${
        num(weightCount(shape))
      } weights, ${
        (4 * weightCount(shape) / 2 ** 20).toFixed(1)
      } MB), seed ${seed}, alpha ${alpha}${
        init > 0 ? `, every board starting at ${num(init)}` : ""
      }${tc ? ", temporal coherence" : ""}${
        late > 0 ? `, late starts ${late}` : ""
      }, into ${typed}\n`,
    );
  }
  if (games !== undefined && meta.games >= games) {
    yield* term.print(`already ${num(meta.games)} games: nothing to do\n`);
    return 0;
  }
  yield* term.print(
    `${workers} worker${workers === 1 ? "" : "s"}${
      games === undefined ? "" : `, up to ${num(games)} games`
    }${hours === undefined ? "" : `, for ${hours} h`}; a checkpoint every ${checkpointMin} ` +
      `min; Ctrl-C saves one and stops\n`,
  );
  const live = Deno.stderr.isTerminal();
  const status = new StatusLine();
  let lastLine = 0, lines = 0;
  const onTick = (t: TrainTick) => {
    const line = progressLine(t);
    if (live) status.show(line);
    else {
      // On a pipe: a line after a second, then every 30 s.
      const now = performance.now();
      if (lines === 0 || now - lastLine >= 30_000) {
        console.log(line);
        lastLine = now;
        lines++;
      }
    }
  };
  const save = (m: TrainMeta) => {
    saveWeights(out, net, m);
    if (chart !== undefined) writeFileAtomic(chart, curveSvg(m));
  };
  const stopped = () => Effect.runSync(term.interrupted);
  const start = performance.now();
  const final = yield* Effect.promise(() =>
    trainNetwork({
      net,
      meta,
      workers,
      games,
      until: hours === undefined ? undefined : start + hours * 3_600_000,
      window,
      checkpointMs: checkpointMin * 60_000,
      save,
      onTick,
      stop: stopped,
    })
  );
  status.clear();
  const interrupted = stopped();
  const figures = final.history.at(-1);
  yield* term.print(
    `${interrupted ? "interrupted: " : ""}${num(final.games)} games trained (${
      num(final.games - meta.games)
    } in this sitting, ${clock(performance.now() - start)}); checkpoint written to ${typed}\n` +
      (figures === undefined
        ? ""
        : `last ${num(figures.window)} games: mean score ${num(figures.meanScore)}, 2048 ${
          pct(figures.reached[0])
        }, 8192 ${pct(figures.reached[2])}, 16384 ${pct(figures.reached[3])}\n`) +
      (interrupted || (games !== undefined && final.games < games)
        ? `resume with: deno task train 2048 --out ${typed}${
          games === undefined ? "" : ` --games ${games}`
        }\n`
        : "") +
      (chart === undefined ? "" : `training curve: ${flags.chart}\n`),
  );
  return 0;
});

if (import.meta.main) runMain(main, "deno task train 2048");
