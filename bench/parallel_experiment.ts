/**
 * Seed 004's experiment, for any game (default Kalah(6, 4) from the start): every mode
 * at a fixed depth (default 9), worker counts 1..cores, parDepth 1..9, mean time over
 * repeated runs; a table of nodes, times and speed-ups over seq_mm and seq_ab; the same
 * as JSON, and SVG charts of time against parDepth per worker count (the seed's figures
 * 3-5). Then the comparison at the depth where one sequential alpha-beta search takes
 * about a second: speed-up per worker count.
 *
 * Sequential baselines use the same engines the workers run (`minimaxEngine`,
 * `alphabetaEngine` with a transposition table and move ordering), so speed-ups compare
 * like with like. Worker start-up is excluded (a warm-up search runs first).
 *
 * @module
 */
import { Effect } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { openGame } from "../app/games.ts";
import { defaultWorkers, workerPoolLayer } from "../core/parallel/pool.ts";
import { parallelStrategies } from "../core/parallel/strategies.ts";
import type { GameSource } from "../core/source.ts";
import { alphabetaEngine } from "../core/search/alphabeta.ts";
import { minimaxEngine } from "../core/search/minimax.ts";
import { runStrategy } from "../core/engine/strategies.ts";
import { TranspositionTable } from "../core/search/tt.ts";

/** What the experiment measures. */
export interface ExperimentOptions {
  /** Game id or module (default `kalah`). */
  readonly game: string;
  /** Game options. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Search depth (default 9). */
  readonly depth: number;
  /** Worker counts to try. */
  readonly workers: readonly number[];
  /** parDepths to try. */
  readonly parDepths: readonly number[];
  /** Also find the ~1 s depth and measure speed-up per worker there. */
  readonly second: boolean;
  /** Runs per configuration (mean time). */
  readonly runs: number;
  /** Where to write JSON and SVG files (directory). */
  readonly out: string;
}

/** One measured configuration. */
export interface Row {
  /** Mode name. */
  readonly mode: string;
  /** Worker count (0 for sequential). */
  readonly workers: number;
  /** parDepth (0 for none). */
  readonly parDepth: number;
  /** Search depth. */
  readonly depth: number;
  /** Root value (all modes must agree). */
  readonly value: number;
  /** Nodes of one run. */
  readonly nodes: number;
  /** Mean wall time in ms. */
  readonly ms: number;
  /** Best (smallest) wall time in ms: the steadier figure on a shared machine. */
  readonly best: number;
  /** Median wall time in ms. */
  readonly median: number;
}

const progress = (text: string) => {
  if (Deno.stderr.isTerminal()) Deno.stderr.writeSync(new TextEncoder().encode(`\r\x1b[K${text}`));
};

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b), h = s.length >> 1;
  return s.length % 2 === 1 ? s[h] : (s[h - 1] + s[h]) / 2;
};

/** The row of a configuration from the wall times of its runs. */
const timedRow = (config: Omit<Row, "ms" | "best" | "median">, times: number[]): Row => ({
  ...config,
  ms: mean(times),
  best: Math.min(...times),
  median: median(times),
});

/**
 * Times the sequential baselines: a fresh engine per run, and an emptied table (allocated
 * once, outside the timing, as a worker keeps its own), so each run starts cold.
 */
const sequential = <S>(
  game: Game<S>,
  state: S,
  depth: number,
  runs: number,
  modes: readonly ("seq_mm" | "seq_ab")[] = ["seq_mm", "seq_ab"],
) => {
  const rows: Row[] = [];
  const tt = game.key ? new TranspositionTable(32) : undefined;
  for (const mode of modes) {
    const times: number[] = [];
    let value = 0, nodes = 0;
    for (let r = -1; r < runs; r++) { // run -1 warms the JIT up and is not timed
      progress(`${mode} depth ${depth}: run ${r + 1}/${runs}`);
      tt?.clear();
      const t0 = performance.now();
      if (mode === "seq_mm") {
        const e = minimaxEngine(game, {}, "min");
        value = e.search(state, depth, 0);
        nodes = e.counter.nodes;
      } else {
        const e = alphabetaEngine(game, { tt: tt ?? false }, "min");
        value = e.search(state, depth, -Infinity, Infinity, 0);
        nodes = e.counter.nodes;
      }
      if (r >= 0) times.push(performance.now() - t0);
    }
    rows.push(timedRow({ mode, workers: 0, parDepth: 0, depth, value, nodes }, times));
  }
  return rows;
};

/** Times a parallel mode on a pool of `w` workers (warm-up excluded). */
const parallel = <S>(
  game: Game<S>,
  source: GameSource,
  state: S,
  mode: string,
  w: number,
  depth: number,
  parDepths: readonly number[],
  runs: number,
) =>
  Effect.gen(function* () {
    const strategy = parallelStrategies[mode];
    yield* runStrategy(strategy, game, state, {
      depth: Math.min(depth, 3),
      params: { par: 1 },
    }, source);
    const rows: Row[] = [];
    for (const par of mode === "lazy_smp" ? [0] : parDepths) {
      const times: number[] = [];
      let value = 0, nodes = 0;
      for (let r = 0; r < runs; r++) {
        progress(`${mode} workers ${w} parDepth ${par}: run ${r + 1}/${runs}`);
        const t0 = performance.now();
        const res = yield* runStrategy(strategy, game, state, { depth, params: { par } }, source);
        times.push(performance.now() - t0);
        value = res.value;
        nodes = res.nodes;
      }
      rows.push(timedRow({ mode, workers: w, parDepth: par, depth, value, nodes }, times));
    }
    return rows;
  }).pipe(Effect.provide(workerPoolLayer(w)));

/** An SVG line chart of time against parDepth, one line per worker count. */
export const chart = (mode: string, rows: readonly Row[], seqAb: number, seqMm: number): string => {
  const W = 640, H = 400, L = 70, R = 130, T = 40, B = 50;
  const pars = [...new Set(rows.map((r) => r.parDepth))].sort((a, b) => a - b);
  const workers = [...new Set(rows.map((r) => r.workers))].sort((a, b) => a - b);
  const maxMs = Math.max(...rows.map((r) => r.ms), seqAb) * 1.1;
  const x = (p: number) =>
    L + ((p - pars[0]) / Math.max(1, pars[pars.length - 1] - pars[0])) * (W - L - R);
  const y = (ms: number) => T + (1 - ms / maxMs) * (H - T - B);
  const colors = [
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
  ];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${
      W / 2
    }" y="20" text-anchor="middle" font-size="14">${mode}: mean time vs parDepth (depth ${
      rows[0]?.depth
    })</text>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="black"/>`,
    `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="black"/>`,
    `<text x="${(L + W - R) / 2}" y="${H - 12}" text-anchor="middle">parDepth</text>`,
    `<text x="16" y="${(T + H - B) / 2}" text-anchor="middle" transform="rotate(-90 16 ${
      (T + H - B) / 2
    })">mean time (ms)</text>`,
  ];
  for (const p of pars) {
    parts.push(`<text x="${x(p)}" y="${H - B + 16}" text-anchor="middle">${p}</text>`);
  }
  for (let i = 0; i <= 4; i++) {
    const ms = (maxMs * i) / 4;
    parts.push(`<text x="${L - 6}" y="${y(ms) + 4}" text-anchor="end">${ms.toFixed(0)}</text>`);
    parts.push(`<line x1="${L}" y1="${y(ms)}" x2="${W - R}" y2="${y(ms)}" stroke="#ddd"/>`);
  }
  for (const [label, ms, dash] of [["seq_ab", seqAb, "6 4"], ["seq_mm", seqMm, "2 3"]] as const) {
    if (ms <= maxMs) {
      parts.push(
        `<line x1="${L}" y1="${y(ms)}" x2="${W - R}" y2="${
          y(ms)
        }" stroke="black" stroke-dasharray="${dash}"/>`,
      );
      parts.push(`<text x="${W - R + 6}" y="${y(ms) + 4}">${label}</text>`);
    }
  }
  workers.forEach((w, i) => {
    const pts = rows.filter((r) => r.workers === w).sort((a, b) => a.parDepth - b.parDepth);
    const c = colors[i % colors.length];
    parts.push(
      `<polyline fill="none" stroke="${c}" stroke-width="2" points="${
        pts.map((r) => `${x(r.parDepth)},${y(r.ms)}`).join(" ")
      }"/>`,
    );
    for (const r of pts) {
      parts.push(`<circle cx="${x(r.parDepth)}" cy="${y(r.ms)}" r="3" fill="${c}"/>`);
    }
    parts.push(
      `<text x="${W - R + 6}" y="${T + 16 * i + 30}" fill="${c}">${w} worker${
        w > 1 ? "s" : ""
      }</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
};

/** Runs the experiment and prints the table; returns the rows. */
export const runExperiment = (o: ExperimentOptions): Promise<Row[]> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const { game, source } = yield* openGame(o.game, o.options);
      const state = game.initial();
      const rows: Row[] = [...sequential(game, state, o.depth, o.runs)];
      for (const mode of Object.keys(parallelStrategies)) {
        for (const w of o.workers) {
          rows.push(
            ...(yield* parallel(game, source, state, mode, w, o.depth, o.parDepths, o.runs)),
          );
        }
      }
      progress("");
      const seqMm = rows.find((r) => r.mode === "seq_mm")!;
      const seqAb = rows.find((r) => r.mode === "seq_ab")!;
      const bad = rows.filter((r) => r.value !== seqMm.value);
      console.log(
        `seed 004's experiment: ${o.game} ${JSON.stringify(o.options)}, depth ${o.depth}, ` +
          `mean of ${o.runs} runs, ${defaultWorkers()} cores${
            bad.length ? `; VALUE MISMATCH in ${bad.length} rows` : "; every mode agrees"
          } (value ${seqMm.value})`,
      );
      console.log(
        "mode          workers parDepth        nodes    mean ms   vs seq_mm   vs seq_ab",
      );
      for (const r of rows) {
        console.log(
          `${r.mode.padEnd(13)} ${String(r.workers || "-").padStart(7)} ${
            String(r.parDepth || "-").padStart(8)
          } ${String(r.nodes).padStart(12)} ${r.ms.toFixed(1).padStart(10)} ${
            (seqMm.ms / r.ms).toFixed(2).padStart(10)
          }x ${(seqAb.ms / r.ms).toFixed(2).padStart(10)}x`,
        );
      }
      const best = (mode: string) =>
        rows.filter((r) => r.mode === mode).reduce((a, b) => (b.ms < a.ms ? b : a));
      for (const mode of Object.keys(parallelStrategies)) {
        const b = best(mode);
        console.log(
          `best ${mode}: ${b.workers} workers, parDepth ${b.parDepth || "-"}: ${
            b.ms.toFixed(1)
          } ms, ` +
            `${(seqMm.ms / b.ms).toFixed(2)}x seq_mm, ${(seqAb.ms / b.ms).toFixed(2)}x seq_ab`,
        );
      }
      yield* Effect.promise(() => Deno.mkdir(o.out, { recursive: true }));
      yield* Effect.promise(() =>
        Deno.writeTextFile(`${o.out}/seed004.json`, JSON.stringify({ ...o, rows }, null, 1))
      );
      for (const mode of ["par_then_mm", "par_then_ab", "young_bros"]) {
        const svg = chart(mode, rows.filter((r) => r.mode === mode), seqAb.ms, seqMm.ms);
        yield* Effect.promise(() => Deno.writeTextFile(`${o.out}/seed004_${mode}.svg`, svg));
      }
      console.log(
        `wrote ${o.out}/seed004.json and ${o.out}/seed004_{par_then_mm,par_then_ab,young_bros}.svg`,
      );

      if (o.second) {
        // The depth where one sequential alpha-beta search takes about a second.
        let d = o.depth, one = seqAb;
        while (one.ms < 700 && d < 40) {
          d++;
          one = sequential(game, state, d, 1, ["seq_ab"])[0];
          progress(`seq_ab depth ${d}: ${one.ms.toFixed(0)} ms`);
        }
        progress("");
        const runs = Math.max(o.runs, 5);
        const base = sequential(game, state, d, runs, ["seq_ab"])[0];
        console.log(
          `\nat depth ${d}, seq_ab takes ${base.best.toFixed(0)} ms at best, ` +
            `${base.ms.toFixed(0)} ms on average (${runs} runs; times on this machine vary up ` +
            `to 2x between identical runs, so best and median times are compared):`,
        );
        for (const mode of ["par_then_ab", "young_bros", "lazy_smp"]) {
          const pars = mode === "lazy_smp" ? [0] : [1, 2, 3, 4];
          let one = NaN, oneMedian = NaN;
          for (const w of o.workers) {
            const rs = yield* parallel(game, source, state, mode, w, d, pars, runs);
            const b = rs.reduce((a, x) => (x.best < a.best ? x : a));
            if (w === 1) [one, oneMedian] = [b.best, b.median];
            const ok = rs.every((x) => x.value === base.value);
            console.log(
              `  ${mode.padEnd(12)} ${w} worker${w > 1 ? "s" : " "} parDepth ${
                b.parDepth || "-"
              }: best ${b.best.toFixed(0).padStart(5)} ms (median ${
                b.median.toFixed(0).padStart(5)
              })  ${(base.best / b.best).toFixed(2)}x seq_ab, ${
                (one / b.best).toFixed(2)
              }x its 1-worker time (medians: ${(oneMedian / b.median).toFixed(2)}x)${
                ok ? "" : "  VALUE MISMATCH"
              }`,
            );
            rows.push(...rs);
          }
        }
        yield* Effect.promise(() =>
          Deno.writeTextFile(`${o.out}/seed004.json`, JSON.stringify({ ...o, rows }, null, 1))
        );
      }
      return rows;
    }),
  );
