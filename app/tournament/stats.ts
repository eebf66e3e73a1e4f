/**
 * The statistics of a tournament: Elo differences with 95% intervals and likelihood of
 * superiority from W/D/L counts (trinomial, games independent) or game-pair counts
 * (pentanomial, pairs independent), fishtest's pentanomial GSPRT, and ratings of many
 * players fitted by maximum likelihood (as Ordo does), anchored on one player.
 *
 * Pure math: no Effect, no I/O. The Elo model is the logistic one everywhere: a player
 * `d` Elo stronger scores `1 / (1 + 10^(-d/400))` on average, a draw counting ½.
 *
 * Sources:
 * - cutechess-cli, `projects/lib/src/elo.cpp` (the trinomial score, its variance and
 *   interval; commit 5e84232be4546aaedc9d87a96c91867a1da06ada);
 * - fishtest, `server/fishtest/stats/stat_util.py` (`get_elo`: the pentanomial variance and
 *   LOS) and `server/fishtest/stats/LLRcalc.py` (`LLR_logistic`, `MLE_expected`,
 *   `regularize`), commit b8eecff220b562a0dc2c4e68d1fa02521e06d72c; the theory in
 *   M. Van den Bergh, "A note on the maximum likelihood estimate of a multinomial with a
 *   constrained expectation value" (https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf);
 * - A. Wald, "Sequential tests of statistical hypotheses" (1945), for the SPRT bounds;
 * - D. R. Hunter, "MM algorithms for generalized Bradley–Terry models" (2004), and
 *   L. R. Ford (1957) for when the maximum-likelihood ratings exist; R. Coulom's BayesElo
 *   for the virtual-draw prior.
 *
 * @module
 */

/** Wins, draws, losses of one player (or one side) against another. */
export interface Wdl {
  /** Games won. */
  readonly wins: number;
  /** Games drawn. */
  readonly draws: number;
  /** Games lost. */
  readonly losses: number;
}

/**
 * Game-pair counts: index k holds the pairs where the player scored k/2 points out of 2
 * (LL, LD, DD or WL, WD, WW).
 */
export type Pentanomial = readonly [number, number, number, number, number];

/** The normal quantile of 97.5%: a 95% two-sided interval is the mean ± Z95·σ. */
export const Z95 = 1.959964;

/**
 * The Elo difference that scores `score` (0..1) on average: `-400·log10(1/s − 1)`;
 * `+Infinity` at 1 and `-Infinity` at 0.
 *
 * @throws RangeError when `score` is not in [0, 1].
 * @example
 * ```ts
 * import { eloFromScore } from "./stats.ts";
 * if (Math.abs(eloFromScore(0.75) - 190.848501887865) > 1e-9) throw new Error();
 * ```
 */
export const eloFromScore = (score: number): number => {
  if (!(score >= 0 && score <= 1)) throw new RangeError(`a score is in [0, 1], not ${score}`);
  return -400 * Math.log10(1 / score - 1);
};

/**
 * The average score (0..1) of a player `elo` Elo stronger: `1 / (1 + 10^(−elo/400))`
 * (1 at `+Infinity`, 0 at `-Infinity`).
 *
 * @example
 * ```ts
 * import { scoreFromElo } from "./stats.ts";
 * if (scoreFromElo(0) !== 0.5) throw new Error();
 * ```
 */
export const scoreFromElo = (elo: number): number => 1 / (1 + Math.pow(10, -elo / 400));

/**
 * The complementary error function, to about 1e-15 relative: for x < 2.5 as 1 − erf(x)
 * with the series erf(x) = 2/√π·e^(−x²)·Σ 2ⁿx^(2n+1)/(1·3·…·(2n+1)) (all terms positive),
 * beyond it the continued fraction erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + …))))
 * (Abramowitz and Stegun 7.1.6 and 7.1.14), evaluated with Lentz's method.
 *
 * @example
 * ```ts
 * import { erfc } from "./stats.ts";
 * if (Math.abs(erfc(1) - 0.15729920705028513) > 1e-15) throw new Error();
 * ```
 */
export const erfc = (x: number): number => {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < 2.5) {
    const x2 = 2 * x * x;
    let term = x, sum = x;
    for (let n = 1; term > 1e-17 * sum; n++) {
      term *= x2 / (2 * n + 1);
      sum += term;
    }
    return 1 - 2 / Math.sqrt(Math.PI) * Math.exp(-x * x) * sum;
  }
  if (x > 27) return 0; // e^(−x²) underflows
  // Lentz: f = b0 + a1/(b1 + a2/(b2 + ...)) with b = x, a_n = n/2.
  const tiny = 1e-300;
  let f = x, c = x, d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : 1 / d;
    c = x + a / c;
    if (c === 0) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
};

/**
 * The standard normal distribution function Φ(q) = ½·erfc(−q/√2).
 *
 * @example
 * ```ts
 * import { normalCdf } from "./stats.ts";
 * if (Math.abs(normalCdf(1.959964) - 0.975) > 1e-7) throw new Error();
 * ```
 */
export const normalCdf = (q: number): number => 0.5 * erfc(-q / Math.SQRT2);

/**
 * The exact two-sided sign test: the probability that `a + b` fair coin flips fall at
 * least as unevenly as `a` against `b` (both tails, at most 1). For paired trials where
 * one side alone succeeded `a` times and the other alone `b` times (ties dropped): two
 * players' games on the same seeds, or runs from the same positions.
 *
 * @example
 * ```ts
 * import { signTest } from "./stats.ts";
 * if (signTest(3, 0) !== 0.25 || signTest(0, 0) !== 1) throw new Error();
 * ```
 */
export const signTest = (a: number, b: number): number => {
  const n = a + b, k = Math.min(a, b);
  // P(at most k heads of n), summed term by term: C(n, j+1) = C(n, j)·(n−j)/(j+1).
  let tail = 0, term = 2 ** -n;
  for (let j = 0; j <= k; j++) {
    tail += term;
    term = (term * (n - j)) / (j + 1);
  }
  return Math.min(1, 2 * tail);
};

/** An Elo difference with its 95% interval, likelihood of superiority, score and sample size. */
export interface EloEstimate {
  /** The Elo difference of the mean score (`eloFromScore(score)`). */
  readonly elo: number;
  /** The interval's lower end: `eloFromScore(score − Z95·σ)` (−Infinity at or below 0). */
  readonly low: number;
  /** The interval's upper end: `eloFromScore(score + Z95·σ)` (+Infinity at or above 1). */
  readonly high: number;
  /** The likelihood of superiority, Φ((score − ½)/σ). */
  readonly los: number;
  /** The mean score per game, 0..1. */
  readonly score: number;
  /** The sample size: games (W/D/L) or game pairs (pentanomial). */
  readonly n: number;
}

const checkCount = (what: string, x: number): void => {
  if (!(Number.isFinite(x) && x >= 0)) {
    throw new RangeError(`${what} must be a finite count >= 0, not ${x}`);
  }
};

/** What nothing tells: no difference, an unbounded interval, even odds. */
const EMPTY: EloEstimate = { elo: 0, low: -Infinity, high: Infinity, los: 0.5, score: 0.5, n: 0 };

/**
 * The estimate from a mean score `s` whose standard error is `se` over `n` samples. The
 * interval maps s ± Z95·se through `eloFromScore`, clamped to [0, 1]; LOS is Φ((s − ½)/se),
 * which is 1, ½ or 0 when se is 0 (s above, at or below ½).
 */
const estimate = (s: number, se: number, n: number): EloEstimate => {
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const los = se > 0 ? normalCdf((s - 0.5) / se) : s > 0.5 ? 1 : s < 0.5 ? 0 : 0.5;
  return {
    elo: eloFromScore(s),
    low: eloFromScore(clamp(s - Z95 * se)),
    high: eloFromScore(clamp(s + Z95 * se)),
    los,
    score: s,
    n,
  };
};

/**
 * The Elo difference from W/D/L counts, games taken as independent (the trinomial model of
 * cutechess-cli's `elo.cpp`): the mean score s = (W + D/2)/n, its per-game variance
 * v = (W(1 − s)² + D(½ − s)² + L·s²)/n, the standard error σ = √(v/n); the 95% interval
 * maps s ± 1.959964·σ through `eloFromScore` (cutechess prints the half-difference of the
 * same two ends). LOS is Φ((s − ½)/σ), the normal approximation fishtest's `get_elo` uses
 * (cutechess's 0.5 + 0.5·erf((W − L)/√(2(W + L))) is close to it but not equal). With no
 * games: elo 0, the interval (−Infinity, +Infinity), LOS ½, score ½, n 0.
 *
 * @throws RangeError on a negative or non-finite count.
 * @example
 * ```ts
 * import { eloFromWdl } from "./stats.ts";
 * const e = eloFromWdl({ wins: 30, draws: 40, losses: 30 });
 * if (e.elo !== 0 || e.los !== 0.5 || !(e.low < 0 && e.high > 0)) throw new Error();
 * ```
 */
export const eloFromWdl = (w: Wdl): EloEstimate => {
  checkCount("wins", w.wins);
  checkCount("draws", w.draws);
  checkCount("losses", w.losses);
  const n = w.wins + w.draws + w.losses;
  if (n === 0) return EMPTY;
  const s = (w.wins + w.draws / 2) / n;
  const v = (w.wins * (1 - s) ** 2 + w.draws * (0.5 - s) ** 2 + w.losses * s ** 2) / n;
  return estimate(s, Math.sqrt(v / n), n);
};

/**
 * The Elo difference from game-pair counts, pairs taken as independent (fishtest's
 * `stat_util.get_elo` on a pentanomial, without its regularization of empty cells): a pair
 * with k half points scores k/4 of its 2 points; s = Σ p_k·k/4 / N, the per-pair variance
 * v = Σ p_k (k/4 − s)² / N, the standard error σ = √(v/N); the interval and LOS as in
 * `eloFromWdl`. With no pairs: elo 0, the interval (−Infinity, +Infinity), LOS ½, n 0.
 *
 * @throws RangeError on a negative or non-finite count.
 * @example
 * ```ts
 * import { eloFromPentanomial } from "./stats.ts";
 * const e = eloFromPentanomial([0, 0, 10, 0, 0]); // ten even pairs: no doubt at all
 * if (e.elo !== 0 || e.low !== 0 || e.high !== 0 || e.n !== 10) throw new Error();
 * ```
 */
export const eloFromPentanomial = (p: Pentanomial): EloEstimate => {
  if (p.length !== 5) throw new RangeError(`a pentanomial has 5 counts, not ${p.length}`);
  p.forEach((x, k) => checkCount(`pentanomial[${k}]`, x));
  const n = p[0] + p[1] + p[2] + p[3] + p[4];
  if (n === 0) return EMPTY;
  let s = 0;
  for (let k = 0; k < 5; k++) s += p[k] * k / 4;
  s /= n;
  let v = 0;
  for (let k = 0; k < 5; k++) v += p[k] * (k / 4 - s) ** 2;
  v /= n;
  return estimate(s, Math.sqrt(v / n), n);
};

/** The bounds of a sequential probability ratio test on the log-likelihood ratio. */
export interface SprtBounds {
  /** At or below it, accept H0: `ln(β/(1−α))`. */
  readonly lower: number;
  /** At or above it, accept H1: `ln((1−β)/α)`. */
  readonly upper: number;
}

/**
 * Wald's bounds for type I error `alpha` (accepting H1 when H0 holds) and type II error
 * `beta`: lower = ln(β/(1−α)), upper = ln((1−β)/α).
 *
 * @throws RangeError unless 0 < α, 0 < β and α + β < 1.
 * @example
 * ```ts
 * import { sprtBounds } from "./stats.ts";
 * const b = sprtBounds(0.05, 0.05); // ±2.944
 * if (Math.abs(b.upper - Math.log(19)) > 1e-12 || b.lower !== -b.upper) throw new Error();
 * ```
 */
export const sprtBounds = (alpha: number, beta: number): SprtBounds => {
  if (!(alpha > 0 && beta > 0 && alpha + beta < 1)) {
    throw new RangeError(`SPRT needs 0 < alpha, 0 < beta, alpha + beta < 1: ${alpha}, ${beta}`);
  }
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
};

/**
 * The root x of the secular equation Σ p_i·d_i/(1 + x·d_i) = 0 where min d < 0 < max d:
 * f is decreasing from +∞ at −1/max d to −∞ at −1/min d, so the root is unique;
 * Newton's steps safeguarded by bisection, to machine precision.
 */
const secularRoot = (d: readonly number[], p: readonly number[]): number => {
  let lo = -1 / Math.max(...d), hi = -1 / Math.min(...d);
  let x = 0;
  for (let i = 0; i < 200; i++) {
    let f = 0, df = 0;
    for (let k = 0; k < d.length; k++) {
      const t = d[k] / (1 + x * d[k]);
      f += p[k] * t;
      df -= p[k] * t * t;
    }
    if (f === 0) return x;
    if (f > 0) lo = x;
    else hi = x;
    let next = x - f / df;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-15 * Math.max(1, Math.abs(x)) || next === lo || next === hi) {
      return next;
    }
    x = next;
  }
  return x;
};

/**
 * The generalized log-likelihood ratio of H1 (score s1 = L(elo1)) against H0 (s0 = L(elo0))
 * for game-pair counts, logistic Elo: fishtest's `LLR_logistic` (`LLRcalc.py`). Empty
 * cells are first set to 1e-3 pairs (fishtest's `regularize`); with N the total and
 * p̂_k the frequencies of the pair scores a_k = k/4, the maximum-likelihood distribution with
 * mean s is q_k = p̂_k/(1 + x(a_k − s)), x the root of Σ p̂_k(a_k − s)/(1 + x(a_k − s)) = 0
 * (Van den Bergh, Proposition 1.1), and LLR = N·Σ p̂_k·ln(q1_k/q0_k).
 *
 * @throws RangeError on a negative or non-finite count, or an Elo bound that is not finite.
 * @example
 * ```ts
 * import { llrPentanomial } from "./stats.ts";
 * // fishtest's own example: LLR_logistic(-3, 1, [10789, 19328, 33806, 19402, 10543])
 * const llr = llrPentanomial([10789, 19328, 33806, 19402, 10543], -3, 1);
 * if (Math.abs(llr - 2.1310678117940807) > 1e-8) throw new Error(`${llr}`);
 * ```
 */
export const llrPentanomial = (p: Pentanomial, elo0: number, elo1: number): number => {
  if (p.length !== 5) throw new RangeError(`a pentanomial has 5 counts, not ${p.length}`);
  p.forEach((x, k) => checkCount(`pentanomial[${k}]`, x));
  if (!Number.isFinite(elo0) || !Number.isFinite(elo1)) {
    throw new RangeError(`SPRT Elo bounds must be finite: ${elo0}, ${elo1}`);
  }
  const counts = p.map((x) => (x === 0 ? 1e-3 : x));
  const n = counts.reduce((a, b) => a + b, 0);
  const freq = counts.map((x) => x / n);
  const logMle = (s: number): number[] => {
    if (!(s > 0 && s < 1)) throw new RangeError(`SPRT Elo bound too large: score ${s}`);
    const d = freq.map((_, k) => k / 4 - s);
    const x = secularRoot(d, freq);
    return d.map((dk) => -Math.log1p(x * dk)); // ln(q_k/p̂_k)
  };
  const l0 = logMle(scoreFromElo(elo0)), l1 = logMle(scoreFromElo(elo1));
  let llr = 0;
  for (let k = 0; k < 5; k++) llr += freq[k] * (l1[k] - l0[k]);
  return n * llr;
};

/**
 * The decision of a sequential test: "H0" when the LLR is at or below the lower bound,
 * "H1" at or above the upper one, `undefined` (go on) in between.
 *
 * @example
 * ```ts
 * import { sprtBounds, sprtVerdict } from "./stats.ts";
 * if (sprtVerdict(3, sprtBounds(0.05, 0.05)) !== "H1") throw new Error();
 * ```
 */
export const sprtVerdict = (llr: number, bounds: SprtBounds): "H0" | "H1" | undefined =>
  llr <= bounds.lower ? "H0" : llr >= bounds.upper ? "H1" : undefined;

/** Points scored by player a against player b over some games. */
export interface PairingScore {
  /** The player whose points these are (an index). */
  readonly a: number;
  /** The opponent (an index). */
  readonly b: number;
  /** Games played between them. */
  readonly games: number;
  /** Points of `a` (a win 1, a draw ½), 0..games; `b` scored games − points. */
  readonly points: number;
}

/** Ratings of the players of a tournament. */
export interface Ratings {
  /** Elo per player, the anchor at 0. */
  readonly elo: readonly number[];
  /**
   * Half-width of each player's 95% interval (0 for the anchor), from the inverse Fisher
   * information.
   */
  readonly error: readonly number[];
  /**
   * True when the maximum-likelihood estimate does not exist (a player won or lost every
   * game, or the players split into groups that never scored against each other) and a
   * prior of one virtual draw per pairing played was added, as BayesElo does.
   */
  readonly prior: boolean;
}

/** ln 10 / 400: d(score)/d(Elo) = C·p(1 − p). */
const C = Math.LN10 / 400;

/** ln(1 + e^x) without overflow. */
const softplus = (x: number): number =>
  x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));

/** Cholesky factor L (lower, row-major, n×n) of a symmetric positive-definite matrix. */
const cholesky = (a: readonly number[], n: number): number[] => {
  const l = new Array<number>(n * n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
      if (i === j) {
        if (!(s > 0)) throw new RangeError("the ratings' information matrix is singular");
        l[i * n + i] = Math.sqrt(s);
      } else l[i * n + j] = s / l[j * n + j];
    }
  }
  return l;
};

/** Solves L·Lᵀ·x = b. */
const cholSolve = (l: readonly number[], n: number, b: readonly number[]): number[] => {
  const y = b.slice();
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) y[i] -= l[i * n + k] * y[k];
    y[i] /= l[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let k = i + 1; k < n; k++) y[i] -= l[k * n + i] * y[k];
    y[i] /= l[i * n + i];
  }
  return y;
};

/** The players reachable from `start` along `edge(i, j)`. */
const reach = (n: number, start: number, edge: (i: number, j: number) => boolean): boolean[] => {
  const seen = new Array<boolean>(n).fill(false);
  const stack = [start];
  seen[start] = true;
  while (stack.length > 0) {
    const i = stack.pop()!;
    for (let j = 0; j < n; j++) {
      if (!seen[j] && edge(i, j)) {
        seen[j] = true;
        stack.push(j);
      }
    }
  }
  return seen;
};

/**
 * Ratings by maximum likelihood in the logistic (Bradley–Terry) model with draws as half
 * points, as Ordo computes them: P(a beats b) = 1/(1 + 10^((r_b − r_a)/400)), maximizing
 * Σ points·ln p + (games − points)·ln(1 − p) over all pairings, `anchor` held at 0.
 * Newton's method with a backtracking line search (the log-likelihood is concave), until
 * the step is below 1e-10 Elo (or stops shrinking below 1e-7 Elo: rounding noise). Entries
 * for the same two players add up, in either order.
 *
 * The maximum exists iff the directed graph "i scored some points against j" is strongly
 * connected (Ford 1957; Hunter 2004, Assumption 1). If it is not, one virtual draw (1 game,
 * ½ point) is added to every pairing that has games and `prior` is true.
 *
 * Errors: the observed Fisher information (here equal to the expected one) with the
 * anchor's row and column deleted, I_ii = C²·Σ_j g_ij·p_ij(1 − p_ij), I_ij = −C²·g_ij·p_ij(1 − p_ij)
 * with C = ln10/400; `error[i]` = 1.959964·√((I⁻¹)_ii), 0 for the anchor.
 *
 * @throws RangeError when a player has no games (every player must play), when the players
 * split into groups that never played each other (their ratings are unrelated), on an
 * index out of range or a = b, or on games/points that are negative, not finite or
 * points > games.
 * @example
 * ```ts
 * import { eloFromScore, fitRatings } from "./stats.ts";
 * const r = fitRatings(2, [{ a: 0, b: 1, games: 100, points: 64 }], 1);
 * if (Math.abs(r.elo[0] - eloFromScore(0.64)) > 1e-9 || r.elo[1] !== 0) throw new Error();
 * ```
 */
export const fitRatings = (
  players: number,
  scores: readonly PairingScore[],
  anchor: number,
): Ratings => {
  const n = players;
  if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`players must be >= 1, not ${n}`);
  if (!(Number.isInteger(anchor) && anchor >= 0 && anchor < n)) {
    throw new RangeError(`the anchor must be a player index in 0..${n - 1}, not ${anchor}`);
  }
  // games[i*n+j] (symmetric) and points[i*n+j] (i's points against j).
  const games = new Array<number>(n * n).fill(0);
  const points = new Array<number>(n * n).fill(0);
  for (const { a, b, games: g, points: pts } of scores) {
    for (const [what, i] of [["a", a], ["b", b]] as const) {
      if (!(Number.isInteger(i) && i >= 0 && i < n)) {
        throw new RangeError(`player ${what} must be an index in 0..${n - 1}, not ${i}`);
      }
    }
    if (a === b) throw new RangeError(`player ${a} cannot play itself`);
    checkCount(`games of ${a} against ${b}`, g);
    if (!(Number.isFinite(pts) && pts >= 0 && pts <= g)) {
      throw new RangeError(`points of ${a} against ${b} must be in 0..${g}, not ${pts}`);
    }
    games[a * n + b] += g;
    games[b * n + a] += g;
    points[a * n + b] += pts;
    points[b * n + a] += g - pts;
  }
  for (let i = 0; i < n; i++) {
    let g = 0;
    for (let j = 0; j < n; j++) g += games[i * n + j];
    if (g === 0) throw new RangeError(`player ${i} has no games`);
  }
  const played = (i: number, j: number) => games[i * n + j] > 0;
  const together = reach(n, 0, played);
  const apart = together.indexOf(false);
  if (apart >= 0) {
    throw new RangeError(
      `players 0 and ${apart} are in groups that never played each other: no common scale`,
    );
  }
  const beats = (i: number, j: number) => points[i * n + j] > 0;
  const strong = reach(n, 0, beats).every((x) => x) &&
    reach(n, 0, (i, j) => beats(j, i)).every((x) => x);
  if (!strong) {
    for (let k = 0; k < n * n; k++) {
      if (games[k] > 0) {
        games[k] += 1;
        points[k] += 0.5;
      }
    }
  }

  const free = [...Array(n).keys()].filter((i) => i !== anchor);
  const m = free.length;
  const r = new Array<number>(n).fill(0);
  const logLikelihood = (rr: readonly number[]): number => {
    let ll = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const g = games[i * n + j];
        if (g === 0) continue;
        const x = C * (rr[i] - rr[j]), pts = points[i * n + j];
        ll -= pts * softplus(-x) + (g - pts) * softplus(x);
      }
    }
    return ll;
  };
  /** The information matrix over the free players and the gradient of the log-likelihood. */
  const derivatives = (): { info: number[]; grad: number[] } => {
    const full = new Array<number>(n * n).fill(0);
    const gradFull = new Array<number>(n).fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const g = games[i * n + j];
        if (i === j || g === 0) continue;
        // p and q = 1 − p each computed directly, and the gradient as pts·q − (g − pts)·p
        // (= pts − g·p), so that lopsided pairings keep their precision.
        const p = scoreFromElo(r[i] - r[j]), q = scoreFromElo(r[j] - r[i]);
        const pts = points[i * n + j];
        gradFull[i] += C * (pts * q - (g - pts) * p);
        const w = C * C * g * p * q;
        full[i * n + i] += w;
        full[i * n + j] -= w;
      }
    }
    const info = new Array<number>(m * m);
    for (let u = 0; u < m; u++) {
      for (let v = 0; v < m; v++) info[u * m + v] = full[free[u] * n + free[v]];
    }
    return { info, grad: free.map((i) => gradFull[i]) };
  };

  let converged = m === 0, lastMove = Infinity;
  for (let iter = 0; iter < 200 && !converged; iter++) {
    const { info, grad } = derivatives();
    const step = cholSolve(cholesky(info, m), m, grad);
    const ll = logLikelihood(r);
    const tolerance = 1e-12 * (1 + Math.abs(ll));
    let t = 1;
    let next = r.slice();
    for (; t > 1e-12; t /= 2) {
      next = r.slice();
      free.forEach((i, u) => (next[i] += t * step[u]));
      if (logLikelihood(next) >= ll - tolerance) break;
    }
    const moved = Math.max(...free.map((i) => Math.abs(next[i] - r[i])));
    for (const i of free) r[i] = next[i];
    // Converged below 1e-10 Elo, or at the floating-point floor (the steps stop shrinking
    // once they are rounding noise; Newton's steps shrink quadratically until then).
    converged = moved < 1e-10 || (moved < 1e-7 && moved > lastMove / 4);
    lastMove = moved;
  }
  if (!converged) throw new Error("fitRatings: Newton's method did not converge");
  const error = new Array<number>(n).fill(0);
  if (m > 0) {
    const l = cholesky(derivatives().info, m);
    free.forEach((i, u) => {
      const unit = new Array<number>(m).fill(0);
      unit[u] = 1;
      error[i] = Z95 * Math.sqrt(cholSolve(l, m, unit)[u]);
    });
  }
  return { elo: r.map((x) => x + 0), error, prior: !strong };
};
