/**
 * The training curve of an n-tuple network as an SVG (`deno task train 2048 --chart
 * FILE`): the shares of each window's games reaching 2048, 4096, 8192 and 16384 (left axis,
 * 0-100%) and the mean score (right axis), against the games trained.
 *
 * @module
 */
import { el, esc, svgDocument, text } from "../svg.ts";
import type { TrainMeta } from "./weights.ts";

const W = 640, H = 380, L = 56, R = 72, T = 34, B = 60;

/** Games as `250k`, `1.2M`. */
const short = (n: number): string =>
  n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : String(n);

/** A round step of about a fifth of `max`. */
const step = (max: number): number => {
  const raw = max / 5, p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw) ?? 10 * p;
};

/** The SVG of the curve in `meta.history` (an empty chart without points). */
export const curveSvg = (meta: TrainMeta): string => {
  const pts = meta.history;
  const maxGames = Math.max(1, ...pts.map((p) => p.games));
  const maxScore = Math.max(1, ...pts.map((p) => p.meanScore));
  const scoreStep = step(maxScore), scoreTop = Math.ceil(maxScore / scoreStep) * scoreStep;
  const x = (g: number) => L + ((W - L - R) * g) / maxGames;
  const y = (share: number) => H - B - (H - T - B) * share;
  const ys = (s: number) => H - B - ((H - T - B) * s) / scoreTop;
  const parts: string[] = [];
  parts.push(el("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" }));
  for (let k = 0; k <= 4; k++) {
    const yy = y(k / 4);
    parts.push(el("line", { x1: L, y1: yy, x2: W - R, y2: yy, stroke: "#ddd" }));
    parts.push(text(L - 22, yy, `${25 * k}%`, { "font-size": 11 }));
    parts.push(text(W - R + 30, yy, short(Math.round((scoreTop * k) / 4)), {
      "font-size": 11,
      fill: "#555",
    }));
  }
  const gStep = step(maxGames);
  for (let g = 0; g <= maxGames; g += gStep) {
    parts.push(text(x(g), H - B + 14, short(g), { "font-size": 11 }));
  }
  parts.push(text((L + W - R) / 2, H - B + 29, "games trained", { "font-size": 12 }));
  const series: [string, string, (i: number) => number][] = [
    ["2048", "#2e7d32", (i) => y(pts[i].reached[0])],
    ["4096", "#f9a825", (i) => y(pts[i].reached[1])],
    ["8192", "#1565c0", (i) => y(pts[i].reached[2])],
    ["16384", "#c62828", (i) => y(pts[i].reached[3])],
    ["mean score (right)", "#777", (i) => ys(pts[i].meanScore)],
  ];
  series.forEach(([name, colour, yOf], s) => {
    if (pts.length > 0) {
      const d = pts.map((p, i) =>
        `${i === 0 ? "M" : "L"}${x(p.games).toFixed(1)} ${yOf(i).toFixed(1)}`
      )
        .join(" ");
      parts.push(el("path", {
        d,
        fill: "none",
        stroke: colour,
        "stroke-width": 1.6,
        "stroke-dasharray": s === 4 ? "4 3" : undefined,
      }));
    }
    parts.push(el("line", {
      x1: L + 10 + 96 * s,
      y1: 16,
      x2: L + 30 + 96 * s,
      y2: 16,
      stroke: colour,
      "stroke-width": 2,
    }));
    parts.push(text(L + 36 + 96 * s, 16, name, { "font-size": 12, "text-anchor": "start" }));
  });
  parts.push(el(
    "text",
    { x: L, y: H - 6, "font-size": 10, fill: "#777" },
    esc(
      `${meta.net} network, seed ${meta.seed}, learning rate now ${meta.alpha}: share of each window's ` +
        `games reaching the tile, and their mean score`,
    ),
  ));
  return svgDocument(W, H, parts.join(""));
};
