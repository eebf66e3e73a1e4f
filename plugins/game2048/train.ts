/**
 * Training an n-tuple network by TD(0) on afterstates (Szubert & Jaśkowski 2014): the
 * slider plays greedily by `reward + V(afterstate)` (`ntuple.ts` `bestSlide`); when the
 * game ends, its afterstates are updated from the last to the first (Yeh et al.'s
 * backward order), each towards the next slide's reward plus the next afterstate's new
 * value, the last towards 0: `V(s'_t) += alpha (r_{t+1} + V(s'_{t+1}) - V(s'_t))`, the
 * step split evenly over the board's features. A network with coherence accumulators
 * learns by temporal coherence instead (each weight at its own rate, `ntuple.ts`
 * `learn`), a new network may start optimistic (`sharedNetwork`'s `init`), and a share
 * of the games may start late, from positions of earlier games (`LateStarts`).
 *
 * Game `g` of a training with seed `S` draws its tiles from a generator seeded by `S` and
 * `g` alone, so one worker's training is reproducible, and one resumed from a checkpoint
 * after `g` games goes on exactly as if it had not stopped. Several workers share the
 * weights (a `SharedArrayBuffer`) and update them without locks, as Jaśkowski does: the
 * result is not bit-reproducible then.
 *
 * `trainNetwork` runs the workers (`train_worker.ts`), collects each game's score and
 * largest tile, pauses them all for a checkpoint (so that a checkpoint holds exactly the
 * games `0..games-1`), and stops them on request.
 *
 * @module
 */
import { fmix32 } from "../../core/hash.ts";
import {
  bestSlide,
  createNetwork,
  learn,
  newSlide,
  type NTupleNetwork,
  type NTupleShape,
  sharedFloats,
  stagesOf,
  stageWeightCount,
  weightCount,
} from "./ntuple.ts";
import type { TrainMeta } from "./weights.ts";

/** A game's outcome: the score, the largest tile's rank, and the number of slides. */
export interface GameResult {
  /** The score (sum of the merged tiles). */
  score: number;
  /** The largest tile's rank (11 for 2048). */
  maxRank: number;
  /** Slides played. */
  moves: number;
  /** True when the game started from a saved position (`LateStarts`), not the empty board. */
  late: boolean;
}

/** The afterstates of one game, grown as needed (one set per worker). */
export class Episode {
  /** Low words. */
  lo: Int32Array = new Int32Array(4096);
  /** High words. */
  hi: Int32Array = new Int32Array(4096);
  /** Each slide's reward. */
  reward: Float64Array = new Float64Array(4096);

  /** Makes room for `n` afterstates. */
  ensure(n: number): void {
    if (n <= this.lo.length) return;
    const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(2 * a.length);
      b.set(a);
      return b;
    };
    this.lo = grow(this.lo, (k) => new Int32Array(k));
    this.hi = grow(this.hi, (k) => new Int32Array(k));
    this.reward = grow(this.reward, (k) => new Float64Array(k));
  }
}

/** How many positions a `StartPool` keeps. */
export const POOL_SIZE = 1024;

/** The ranks whose first appearance in a game saves its position (8192 and 16384). */
const LATE_RANKS = [13, 14];

/**
 * Positions for late starts: a ring of the last `POOL_SIZE` boards (the board the slider
 * faces just after a game's largest tile first became 8192 or 16384), in one `Int32Array`
 * — `[count, next, lo, hi, lo, hi, ...]` — on a shared buffer, so that the main thread
 * can save a worker's pool in a checkpoint while the worker waits.
 */
export class StartPool {
  /** The pool's words. */
  readonly words: Int32Array;

  /** A pool over `buffer` (a new shared one by default), filled from `saved` if given. */
  constructor(
    buffer: ArrayBufferLike = new SharedArrayBuffer(4 * (2 + 2 * POOL_SIZE)),
    saved?: readonly number[],
  ) {
    this.words = new Int32Array(buffer);
    if (saved !== undefined) this.words.set(saved.slice(0, this.words.length));
  }

  /** The number of positions held. */
  get size(): number {
    return this.words[0];
  }

  /** Adds a position, replacing the oldest when full. */
  add(lo: number, hi: number): void {
    const w = this.words, at = w[1];
    w[2 + 2 * at] = lo;
    w[3 + 2 * at] = hi;
    w[1] = (at + 1) % POOL_SIZE;
    if (w[0] < POOL_SIZE) w[0]++;
  }

  /** The pool's words up to its last position (what a checkpoint keeps). */
  saved(): number[] {
    return [...this.words.subarray(0, 2 + 2 * this.size)];
  }
}

/**
 * Late starts (in the spirit of Jaśkowski 2018's carousel shaping and Yeh et al. 2017's
 * staged training): a share of the training games start not from the empty board but
 * from a position of an earlier game where 8192 or 16384 first appeared, so that the
 * late game, which a fresh game reaches only after thousands of slides, is trained
 * more often.
 */
export interface LateStarts {
  /** The share of games that start late (when the pool has positions). */
  readonly share: number;
  /** The positions, which every game (fresh or late) adds to. */
  readonly pool: StartPool;
}

// The game's tile generator (mulberry32), in module variables: no closure per game.
let rngState = 0;
const random = (): number => {
  rngState = (rngState + 0x6d2b79f5) | 0;
  let t = Math.imul(rngState ^ (rngState >>> 15), 1 | rngState);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Seeds the generator for game `game` of a training seeded `seed`. */
const seedGame = (seed: number, game: number): void => {
  rngState = fmix32(
    fmix32(seed ^ 0x2048) ^ fmix32((game | 0) ^ 0x5bd1e995) ^
      Math.floor(game / 4294967296),
  );
};

/** Where the next tile goes: a random empty cell, a 2 (0.9) or a 4; `[lo, hi]` in `out`. */
const placeTile = (lo: number, hi: number, out: Int32Array): boolean => {
  let empty = 0;
  for (let i = 0; i < 32; i += 4) {
    if (((lo >>> i) & 15) === 0) empty++;
    if (((hi >>> i) & 15) === 0) empty++;
  }
  if (empty === 0) return false;
  let k = Math.floor(random() * empty);
  const rank = random() < 0.9 ? 1 : 2;
  out[0] = lo;
  out[1] = hi;
  for (let i = 0; i < 16; i++) {
    const word = i < 8 ? lo : hi, sh = 4 * (i & 7);
    if (((word >>> sh) & 15) !== 0) continue;
    if (k-- === 0) {
      out[i < 8 ? 0 : 1] = word | (rank << sh);
      return true;
    }
  }
  return false;
};

const slide = newSlide();
const board = new Int32Array(2);

/** The largest rank on a compact board. */
export const maxRankOf = (lo: number, hi: number): number => {
  let m = 0;
  for (let i = 0; i < 32; i += 4) m = Math.max(m, (lo >>> i) & 15, (hi >>> i) & 15);
  return m;
};

/**
 * Plays game `game` of a training seeded `seed` greedily with `net`, and when `alpha > 0`
 * updates the network by TD(0) on its afterstates, backwards (see the module notes).
 * The game starts as the protocol's, with one tile on the empty board, or with `late`
 * (a share above 0) and the seed's draw, from a position of its pool; either way its
 * positions where 8192 or 16384 first appear go to the pool. The score of a late game
 * counts from its start.
 */
export const playGame = (
  net: NTupleNetwork,
  seed: number,
  game: number,
  alpha: number,
  episode: Episode,
  result: GameResult,
  late?: LateStarts,
): GameResult => {
  seedGame(seed, game);
  let lo = 0, hi = 0, score = 0, t = 0, started = false;
  if (late !== undefined && late.share > 0) {
    const size = late.pool.size, r = random();
    if (r < late.share && size > 0) {
      const k = 2 + 2 * Math.floor(random() * size);
      lo = late.pool.words[k];
      hi = late.pool.words[k + 1];
      started = true;
    }
  }
  if (!started) {
    placeTile(0, 0, board);
    lo = board[0];
    hi = board[1];
  }
  let top = maxRankOf(lo, hi); // the largest rank so far
  for (;;) {
    bestSlide(net, lo, hi, slide);
    if (slide.dir < 0) break;
    episode.ensure(t + 1);
    episode.lo[t] = slide.lo;
    episode.hi[t] = slide.hi;
    episode.reward[t] = slide.reward;
    t++;
    score += slide.reward;
    placeTile(slide.lo, slide.hi, board);
    lo = board[0];
    hi = board[1];
    // Only a slide that scores 8192 or more can make a new 8192 or 16384.
    if (slide.reward >= 8192) {
      const m = maxRankOf(lo, hi);
      if (m > top) {
        top = m;
        if (late !== undefined && LATE_RANKS.includes(m)) late.pool.add(lo, hi);
      }
    }
  }
  if (alpha > 0) {
    const step = alpha / net.features;
    let target = 0;
    for (let i = t - 1; i >= 0; i--) {
      target = episode.reward[i] + learn(net, episode.lo[i], episode.hi[i], target, step);
    }
  }
  result.score = score;
  result.maxRank = maxRankOf(lo, hi);
  result.moves = t;
  result.late = started;
  return result;
};

/** The ranks of the tiles whose shares the training reports (2048 to 32768). */
export const MILESTONE_RANKS: readonly number[] = [11, 12, 13, 14, 15];

/**
 * The standard error of the mean of some numbers: their sample standard deviation over the
 * root of their count (0 for fewer than two).
 */
export const standardError = (xs: readonly number[]): number => {
  const n = xs.length;
  if (n < 2) return 0;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  return Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1) / n);
};

/**
 * The figures of a series of games: mean score and its standard error, and the shares
 * reaching each milestone.
 */
export const summarize = (
  results: readonly { score: number; maxRank: number }[],
): { meanScore: number; scoreError: number; reached: number[] } => {
  const n = Math.max(1, results.length);
  return {
    meanScore: results.reduce((s, r) => s + r.score, 0) / n,
    scoreError: standardError(results.map((r) => r.score)),
    reached: MILESTONE_RANKS.map((k) => results.filter((r) => r.maxRank >= k).length / n),
  };
};

/**
 * Plays `games` greedy games with `net` (no learning), seeded `seed`, games `first` on:
 * the network's own strength at one ply.
 */
export const greedyGames = (
  net: NTupleNetwork,
  seed: number,
  games: number,
  first = 0,
): GameResult[] => {
  const episode = new Episode(), out: GameResult[] = [];
  for (let g = 0; g < games; g++) {
    out.push(
      playGame(net, seed, first + g, 0, episode, { score: 0, maxRank: 0, moves: 0, late: false }),
    );
  }
  return out;
};

/**
 * Trains `net` in this thread on games `first` to `first + games - 1` (the tests' and
 * a single sitting's path; `trainNetwork` runs workers), with late starts if given.
 */
export const trainGames = (
  net: NTupleNetwork,
  seed: number,
  alpha: number,
  first: number,
  games: number,
  late?: LateStarts,
): GameResult[] => {
  const episode = new Episode(), out: GameResult[] = [];
  for (let g = first; g < first + games; g++) {
    const result = { score: 0, maxRank: 0, moves: 0, late: false };
    out.push(playGame(net, seed, g, alpha, episode, result, late));
  }
  return out;
};

// -----------------------------------------------------------------------------------------
// Workers.

/** The control words the main thread and the workers share (an `Int32Array`). */
export const CONTROL = {
  /** `RUN`, `PAUSE` or `STOP`. */
  flag: 0,
  /** The next game to play (each worker claims one with `Atomics.add`). */
  next: 1,
  /** The first game not to play (-1: no end). */
  limit: 2,
  /** Words. */
  size: 4,
} as const;
/** Workers play. */
export const RUN = 0;
/** Workers finish their game, report, and wait. */
export const PAUSE = 1;
/** Workers finish their game, report, and end. */
export const STOP = 2;

/** What a worker is given. */
export interface WorkerSetup {
  /** The shared weights. */
  readonly weights: SharedArrayBuffer;
  /** The shared coherence accumulators (temporal coherence learning), if any. */
  readonly coherence?: SharedArrayBuffer;
  /** The shared control words. */
  readonly control: SharedArrayBuffer;
  /** The tuples. */
  readonly shape: NTupleShape;
  /** The training's seed. */
  readonly seed: number;
  /** The learning rate. */
  readonly alpha: number;
  /** The share of late starts (0: none). */
  readonly late: number;
  /** The worker's `StartPool` words. */
  readonly pool: SharedArrayBuffer;
}

/** What a worker reports: its finished games (flat: score, max rank, moves, late) and why. */
export interface WorkerReport {
  /** `games` (still playing), `paused`, or `done` (limit reached or stopped). */
  readonly kind: "games" | "paused" | "done";
  /** Score, max rank, slides and late start (1 or 0) of each game, one after the other. */
  readonly results: readonly number[];
}

/** Numbers per game in `WorkerReport.results`. */
export const REPORT_FIELDS = 4;

/** The training's progress, as the main thread sees it. */
export interface TrainTick {
  /** Games done (the checkpoint's count, and the ones since). */
  readonly games: number;
  /** Slides in all. */
  readonly moves: number;
  /** Milliseconds of training in all. */
  readonly ms: number;
  /** Games per second in this sitting. */
  readonly gamesPerSecond: number;
  /** Games of this sitting that started late. */
  readonly lateGames: number;
  /** The last window's figures. */
  readonly window: number;
  /** The last window's mean score. */
  readonly meanScore: number;
  /** Shares of the last window reaching 2048 ... 32768. */
  readonly reached: readonly number[];
}

/** A training: the shape, where it starts, and how it runs. */
export interface TrainOptions {
  /** The network (its weights on a `SharedArrayBuffer`). */
  readonly net: NTupleNetwork;
  /** Where it starts: the checkpoint's metadata (zero games for a fresh one). */
  readonly meta: TrainMeta;
  /** Worker threads. */
  readonly workers: number;
  /** Stop after this many games in all (undefined: until `stop`). */
  readonly games?: number;
  /** Stop at this time (`performance.now()`), if given. */
  readonly until?: number;
  /** Games per point of the training curve (and of the progress line's window). */
  readonly window: number;
  /** Milliseconds between checkpoints. */
  readonly checkpointMs: number;
  /** Saves a checkpoint (the weights are consistent: every worker paused). */
  readonly save: (meta: TrainMeta) => void;
  /** Called about every second. */
  readonly onTick?: (tick: TrainTick) => void;
  /** True once the training should stop (Ctrl-C): the workers finish their games, and a
   * checkpoint is saved. Polled five times a second. */
  readonly stop?: () => boolean;
}

/** How a new training's network starts. */
export interface NetworkStart {
  /**
   * Optimistic initialization (Guei, Chen & Wu 2022): every board starts worth `init`
   * (each weight `init / features`), so the greedy player is drawn to what it has not
   * seen yet; 0 (the default) starts from zero.
   */
  readonly init?: number;
  /** Learn by temporal coherence (the network carries its accumulators). */
  readonly tc?: boolean;
}

/**
 * `net` learning by temporal coherence from here on: its weights, with fresh (zero)
 * shared accumulators.
 */
export const withCoherence = (net: NTupleNetwork): NTupleNetwork =>
  createNetwork(net.shape, net.weights, sharedFloats(2 * net.weights.length));

/**
 * `net` with `stages` stages (at least as many as it has), on `SharedArrayBuffer`s: each
 * new stage starts as a copy of the network's last stage, weights and coherence
 * accumulators alike (Jaśkowski 2018's weight promotion, done once for every weight when
 * the stages are added), so the network values every board as before, and from here on
 * each stage learns from its own boards only.
 */
export const withStages = (net: NTupleNetwork, stages: number): NTupleNetwork => {
  const from = stagesOf(net.shape), size = stageWeightCount(net.shape);
  if (stages < from) throw new Error(`a network of ${from} stages cannot lose stages`);
  const weights = sharedFloats(stages * size);
  const coherence = net.coherence && sharedFloats(2 * stages * size);
  for (let k = 0; k < stages; k++) {
    const source = Math.min(k, from - 1);
    weights.set(net.weights.subarray(source * size, (source + 1) * size), k * size);
    coherence?.set(
      net.coherence!.subarray(2 * source * size, 2 * (source + 1) * size),
      2 * k * size,
    );
  }
  return createNetwork({ ...net.shape, stages }, weights, coherence);
};

/** A tuple's cells as one string: two tuples are the same when their keys are. */
const tupleKey = (t: readonly number[]): string => t.join(",");

/**
 * Why a network of shape `from` cannot grow into `to` (a tuple of `from` that `to` lacks:
 * a network never loses tuples), or undefined when it can.
 */
export const growthProblem = (from: NTupleShape, to: NTupleShape): string | undefined => {
  const wanted = new Set(to.tuples.map(tupleKey));
  const lost = from.tuples.find((t) => !wanted.has(tupleKey(t)));
  return lost && `${to.name} lacks the tuple ${lost.join(",")} of ${from.name}`;
};

/**
 * `net` grown into `shape` (which has every tuple of `net`'s, in any order, and more), on
 * `SharedArrayBuffer`s, with `net`'s stages: each tuple `net` has keeps its tables (and
 * coherence accumulators), each new one starts at zero with fresh accumulators, so the
 * network values every board as before and the new tuples learn from there on (weight
 * promotion for tuples, as `withStages` for stages). Throws when `shape` lacks a tuple.
 */
export const withTuples = (net: NTupleNetwork, shape: NTupleShape): NTupleNetwork => {
  const problem = growthProblem(net.shape, shape);
  if (problem !== undefined) throw new Error(problem);
  const grown = { ...shape, stages: stagesOf(net.shape) };
  const weights = sharedFloats(weightCount(grown));
  const coherence = net.coherence && sharedFloats(2 * weightCount(grown));
  const oldSize = stageWeightCount(net.shape), newSize = stageWeightCount(grown);
  const oldAt = new Map<string, number>();
  let at = 0;
  for (const t of net.shape.tuples) {
    oldAt.set(tupleKey(t), at);
    at += 16 ** t.length;
  }
  for (let k = 0; k < stagesOf(grown); k++) {
    let to = 0;
    for (const t of grown.tuples) {
      const from = oldAt.get(tupleKey(t)), n = 16 ** t.length;
      if (from !== undefined) {
        const a = k * oldSize + from, b = k * newSize + to;
        weights.set(net.weights.subarray(a, a + n), b);
        coherence?.set(net.coherence!.subarray(2 * a, 2 * (a + n)), 2 * b);
      }
      to += n;
    }
  }
  return createNetwork(grown, weights, coherence);
};

/**
 * A network on `SharedArrayBuffer`s for `shape`: its weights (`init / features` each)
 * and, with `tc`, its coherence accumulators (`withCoherence`).
 */
export const sharedNetwork = (shape: NTupleShape, start: NetworkStart = {}): NTupleNetwork => {
  const net = createNetwork(shape, sharedFloats(weightCount(shape)));
  if (start.init) net.weights.fill(start.init / net.features);
  return start.tc ? withCoherence(net) : net;
};

/**
 * Trains with `options.workers` workers until `games` games in all, `until`, or
 * `stop`, saving a checkpoint every `checkpointMs` and at the end; resolves to the last
 * metadata saved.
 */
export const trainNetwork = async (options: TrainOptions): Promise<TrainMeta> => {
  const { net, workers, window } = options;
  const weights = net.weights.buffer;
  if (!(weights instanceof SharedArrayBuffer)) throw new Error("the weights must be shared");
  if (net.coherence !== undefined && !(net.coherence.buffer instanceof SharedArrayBuffer)) {
    throw new Error("the coherence accumulators must be shared");
  }
  const control = new Int32Array(new SharedArrayBuffer(4 * CONTROL.size));
  let meta = options.meta;
  // Each worker's late-start positions, from the checkpoint's (a pool beyond the number
  // of workers is dropped: the pools refill as games reach 8192).
  const pools = Array.from(
    { length: workers },
    (_, i) => new StartPool(undefined, meta.starts?.[i]),
  );
  control[CONTROL.flag] = RUN;
  control[CONTROL.next] = meta.games;
  control[CONTROL.limit] = options.games ?? -1;
  const start = performance.now(), startGames = meta.games, startMs = meta.ms;
  let games = meta.games, moves = meta.moves;
  // The last window's games (from the empty board: a late start's score is not a game's),
  // and the curve's points added since the checkpoint.
  const recent: { score: number; maxRank: number }[] = [];
  let lateGames = 0;
  const history = [...meta.history];
  let sinceWindow = 0;
  let waiting: (() => void) | undefined;
  let settled = 0; // workers paused or done since the last pause request
  let done = 0;
  const handles: Worker[] = [];
  const onReport = (r: WorkerReport) => {
    for (let i = 0; i < r.results.length; i += REPORT_FIELDS) {
      const g = { score: r.results[i], maxRank: r.results[i + 1] };
      games++;
      moves += r.results[i + 2];
      if (r.results[i + 3] === 1) {
        lateGames++;
        continue;
      }
      recent.push(g);
      if (recent.length > window) recent.shift();
      if (++sinceWindow === window) {
        sinceWindow = 0;
        const s = summarize(recent);
        history.push({
          games,
          ms: Math.round(startMs + performance.now() - start),
          window: recent.length,
          meanScore: Math.round(s.meanScore),
          reached: s.reached,
        });
      }
    }
    if (r.kind !== "games") {
      settled++;
      if (r.kind === "done") done++;
      if (settled === workers) waiting?.();
    }
  };
  const errors: unknown[] = [];
  for (let i = 0; i < workers; i++) {
    const w = new Worker(new URL("./train_worker.ts", import.meta.url), { type: "module" });
    w.onmessage = (e: MessageEvent<WorkerReport>) => onReport(e.data);
    w.onerror = (e) => {
      e.preventDefault();
      errors.push(e.message);
      onReport({ kind: "done", results: [] });
    };
    const setup: WorkerSetup = {
      weights,
      coherence: net.coherence?.buffer as SharedArrayBuffer | undefined,
      control: control.buffer as SharedArrayBuffer,
      shape: net.shape,
      seed: meta.seed,
      alpha: meta.alpha,
      late: meta.late ?? 0,
      pool: pools[i].words.buffer as SharedArrayBuffer,
    };
    w.postMessage(setup);
    handles.push(w);
  }
  const snapshot = (): TrainMeta => ({
    ...meta,
    games,
    moves,
    ms: Math.round(startMs + performance.now() - start),
    history: [...history],
    ...(meta.late || meta.starts !== undefined ? { starts: pools.map((p) => p.saved()) } : {}),
  });
  // Every worker paused (or done): the weights hold exactly games 0..games-1.
  const settle = (flag: number) =>
    new Promise<void>((resolve) => {
      settled = done;
      waiting = resolve;
      Atomics.store(control, CONTROL.flag, flag);
      Atomics.notify(control, CONTROL.flag); // a paused worker sees the new flag
      if (settled === workers) resolve();
    });
  const tick = () => {
    const s = summarize(recent);
    const secs = (performance.now() - start) / 1000;
    options.onTick?.({
      games,
      moves,
      ms: startMs + performance.now() - start,
      gamesPerSecond: secs > 0 ? (games - startGames) / secs : 0,
      lateGames,
      window: recent.length,
      meanScore: s.meanScore,
      reached: s.reached,
    });
  };
  let lastCheckpoint = performance.now();
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 200));
      const now = performance.now();
      const stopping = done === workers || options.stop?.() === true ||
        (options.until !== undefined && now >= options.until);
      if (stopping) break;
      if (Math.floor((now - start) / 1000) !== Math.floor((now - 200 - start) / 1000)) tick();
      if (now - lastCheckpoint >= options.checkpointMs) {
        await settle(PAUSE);
        meta = snapshot();
        options.save(meta);
        lastCheckpoint = performance.now();
        settled = done;
        Atomics.store(control, CONTROL.flag, RUN);
        Atomics.notify(control, CONTROL.flag);
      }
    }
    await settle(STOP);
    if (errors.length > 0) throw new Error(`a training worker failed: ${errors[0]}`);
    tick();
    meta = snapshot();
    options.save(meta);
    return meta;
  } finally {
    for (const w of handles) w.terminate();
  }
};
