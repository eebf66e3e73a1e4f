/**
 * The tournament chart (`app/tournament/chart.ts`): one well-formed, self-contained SVG
 * whose rows follow the ratings, with a cell per pairing and every name escaped.
 */
import { assert, assertEquals, assertThrows, fc } from "../testing/deps.ts";
import { type ChartData, chartSvg } from "../app/tournament/chart.ts";
import { xmlProblem } from "../app/conformance.ts";

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** A round-robin of `players` with the given ratings; each pair's score from the Elo formula. */
const data = (
  players: string[],
  elo: number[],
  error: number[],
  anchor = 0,
  played = (_i: number, _j: number) => true,
): ChartData => {
  const n = players.length;
  const games = players.map((_, i) =>
    players.map((_, j) => (i !== j && played(i, j) ? 10 + i + j : 0))
  );
  const score = players.map((_, i) =>
    players.map((_, j) =>
      i !== j && played(i, j) ? 1 / (1 + Math.pow(10, (elo[j] - elo[i]) / 400)) : undefined
    )
  );
  return { title: `A test: ${n} players`, players, elo, error, anchor, score, games };
};

/** The problems of a chart as a web page would see them (empty when all is well). */
const problems = (svg: string): string[] => {
  const out: string[] = [];
  if (!svg.startsWith("<svg")) out.push("does not start with <svg");
  const root = /^<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  if (!/\sviewBox="[^"]+"/.test(root)) out.push("no viewBox");
  if (!/\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(root)) out.push("no xmlns");
  const xml = xmlProblem(svg);
  if (xml !== undefined) out.push(`not well-formed: ${xml}`);
  if (/<script/i.test(svg)) out.push("a <script>");
  if (/<foreignObject/i.test(svg)) out.push("a <foreignObject>");
  if (/\son[a-z]+\s*=/i.test(svg)) out.push("an event handler");
  if (/\s(?:xlink:)?href\s*=|url\(|@import/i.test(svg)) out.push("a reference");
  if (/NaN|Infinity|undefined/.test(svg)) out.push("NaN, Infinity or undefined in the text");
  return out;
};

/** The players' full names in the order of the chart's rows. */
const rowNames = (svg: string): string[] =>
  [...svg.matchAll(/<text class="player"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]);

const NASTY = [`<b>&"quoted"</b>`, "it's", "alphabeta:6", "a & b > c", "mcts:100,c=1.4"];

Deno.test("chartSvg: well-formed, self-contained, every name escaped", () => {
  const svg = chartSvg(data(NASTY, [0, 50, -20, 100, 10], [0, 30, 40, 35, 20]));
  assertEquals(problems(svg), []);
  for (const name of NASTY) assert(svg.includes(escape(name)), `${name} escaped`);
  assert(!svg.includes("<b>") && !svg.includes(`"quoted"`) && !svg.includes("it's"));
  assert(svg.includes("A test: 5 players"));
});

Deno.test("chartSvg: rows sorted by rating, best first; the anchor marked", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 20 }).chain((n) =>
        fc.record({
          elo: fc.array(fc.integer({ min: -800, max: 800 }), { minLength: n, maxLength: n }),
          error: fc.array(fc.double({ min: 0, max: 300, noNaN: true }), {
            minLength: n,
            maxLength: n,
          }),
          anchor: fc.integer({ min: 0, max: n - 1 }),
        })
      ),
      ({ elo, error, anchor }) => {
        const players = elo.map((_, i) => `p${i}`);
        const base = elo[anchor];
        const rel = elo.map((e) => e - base);
        const svg = chartSvg(
          data(players, rel, error.map((e, i) => (i === anchor ? 0 : e)), anchor),
        );
        assertEquals(problems(svg), []);
        // Independent: a stable sort by rating, highest first.
        const expected = players.map((p, i) => [p, rel[i], i] as const)
          .sort((a, b) => b[1] - a[1] || a[2] - b[2]).map(([p]) => p);
        assertEquals(rowNames(svg), expected);
        // The anchor's row, and only it, says so and is in bold.
        const figures = [...svg.matchAll(/<text class="figure"[^>]*>([^<]*)<\/text>/g)].map((m) =>
          m[1]
        );
        assertEquals(figures.length, players.length);
        assertEquals(
          figures.map((f, r) => [f === "0 (anchor)", rowNames(svg)[r]]).filter(([a]) => a),
          [
            [true, `p${anchor}`],
          ],
        );
        const bold = [
          ...svg.matchAll(/<text class="player"[^>]*font-weight="bold"><title>([^<]*)/g),
        ];
        assertEquals(bold.map((m) => m[1]), [`p${anchor}`]);
        assert(svg.includes(`Elo relative to p${anchor}`));
      },
    ),
    { numRuns: 60, seed: 170 },
  );
});

Deno.test("chartSvg: a cell for each pair, its score in % and its games", () => {
  const players = ["a", "b", "c", "d"];
  const d = data(players, [0, 100, -50, 30], [0, 20, 20, 20], 0, (i, j) => i + j !== 3);
  const svg = chartSvg(d);
  assertEquals(problems(svg), []);
  const cells = [...svg.matchAll(/<g class="cell"><title>([^<]*)<\/title>(.*?)<\/g>/g)];
  assertEquals(cells.length, 4 * 3);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      if (i === j) continue;
      const mine = cells.filter((m) => m[1].startsWith(`${players[i]} against ${players[j]}:`));
      assertEquals(mine.length, 1, `${i} against ${j}`);
      const s = d.score[i][j];
      if (s === undefined) {
        assert(mine[0][1].endsWith("not played"));
        continue;
      }
      const texts = [...mine[0][2].matchAll(/>([^<>]+)<\/text>/g)].map((m) => m[1]);
      assertEquals(texts, [String(Math.round(s * 100)), String(d.games[i][j])]);
    }
  }
});

Deno.test("chartSvg: cells coloured red at 0, white at 50%, green at 100%", () => {
  const d: ChartData = {
    title: "colours",
    players: ["x", "y", "z"],
    elo: [0, 0, 0],
    error: [0, 10, 10],
    anchor: 0,
    score: [[undefined, 0, 0.5], [1, undefined, 0.5], [0.5, 0.5, undefined]],
    games: [[0, 4, 4], [4, 0, 4], [4, 4, 0]],
  };
  const fill = (who: string) =>
    new RegExp(`<title>${who}:[^<]*</title><rect[^>]*fill="(#[0-9a-f]{6})"`).exec(chartSvg(d))?.[1];
  const rgb = (hex: string) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const [r0, g0, b0] = rgb(fill("x against y")!);
  assert(r0 > 150 && r0 > g0 + 80 && r0 > b0 + 80, `red: ${fill("x against y")}`);
  assertEquals(fill("x against z"), "#ffffff");
  const [r1, g1, b1] = rgb(fill("y against x")!);
  assert(g1 > 120 && g1 > r1 + 60 && g1 > b1 + 40, `green: ${fill("y against x")}`);
});

Deno.test("chartSvg: 2 and 12 players, a long name, unbounded errors", () => {
  const long = "a-very-long-player-specification:depth=12,time=5000,threads=4,book=<none>";
  const twelve = Array.from({ length: 12 }, (_, i) => (i === 5 ? long : `alphabeta:${i + 1}`));
  const cases: ChartData[] = [
    data(["alphabeta:6", "random"], [0, -300], [0, 120], 0),
    data(["alphabeta:6", "random"], [0, -300], [0, Infinity], 0),
    data(["alphabeta:6", "random"], [0, 0], [0, 0], 1),
    data(
      twelve,
      twelve.map((_, i) => i * 35 - 200),
      twelve.map(() => 70),
      3,
      (i, j) => (i + j) % 7 !== 0,
    ),
    data(
      twelve,
      twelve.map((_, i) => 500 - i * 90),
      twelve.map((_, i) => (i % 3 === 0 ? Infinity : 90)),
      0,
    ),
    data(["a", "b", "c"], [Infinity, 0, -Infinity], [Infinity, 0, NaN], 1),
  ];
  for (const d of cases) {
    const svg = chartSvg(d);
    assertEquals(problems(svg), [], d.title);
    for (const name of d.players) assert(svg.includes(escape(name)), name);
    assertEquals(rowNames(svg).length, d.players.length);
  }
  // An unbounded bar ends in an arrow at the axis' end, and the figure says ∞.
  const open = chartSvg(cases[1]);
  assert(open.includes("± ∞"));
  assert(/<path d="M[\d.]+ [\d.]+l-?6 -4v8z"/.test(open));
});

Deno.test("chartSvg: deterministic, and the data are checked", () => {
  const d = data(NASTY, [0, 50, -20, 100, 10], [0, 30, 40, 35, 20], 2);
  assertEquals(chartSvg(d), chartSvg(structuredClone(d)));
  assertThrows(() => chartSvg({ ...d, elo: [0, 1] }), RangeError, "elo");
  assertThrows(() => chartSvg({ ...d, anchor: 5 }), RangeError, "anchor");
  assertThrows(() => chartSvg({ ...d, games: d.games.map((row) => row.slice(1)) }), RangeError);
});
