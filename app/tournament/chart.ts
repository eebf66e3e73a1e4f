/**
 * The chart of a tournament as one self-contained SVG: the ratings with their 95% error
 * bars on an Elo axis, and beside them the score matrix. A pure function of its data: the
 * same data gives the same bytes.
 *
 * @module
 */

/** What the chart shows. */
export interface ChartData {
  /** The heading, e.g. "Kalah(6, 4): round-robin, 1200 games". */
  readonly title: string;
  /** The players' names (player specs such as `alphabeta:6`), made for 2 to 20 players. */
  readonly players: readonly string[];
  /** The ratings (the anchor at 0). */
  readonly elo: readonly number[];
  /**
   * 95% half-widths (0 for the anchor); an infinite one draws a bar open at the axis' end
   * (an arrow). A rating that is not finite is drawn at the axis' end, marked ∞.
   */
  readonly error: readonly number[];
  /** The player the ratings are anchored on. */
  readonly anchor: number;
  /** score[i][j]: points of i against j as a fraction (0..1), undefined when they did not play (and i === j). */
  readonly score: readonly (readonly (number | undefined)[])[];
  /** games[i][j]: games between i and j. */
  readonly games: readonly (readonly number[])[];
}

/** Text for XML: `&`, `<`, `>`, `"` and `'` escaped. */
const escapeXml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** A coordinate with at most one decimal; throws on a non-finite one (a bug here). */
const num = (x: number): string => {
  if (!Number.isFinite(x)) throw new Error(`chartSvg: a coordinate is ${x}`);
  const r = Math.round(x * 10) / 10;
  return String(r === 0 ? 0 : r);
};

/** An Elo figure for people: whole numbers, a sign, ∞ for the unbounded. */
const eloText = (x: number, signed: boolean): string => {
  if (Number.isNaN(x)) return "?";
  if (!Number.isFinite(x)) return x < 0 ? "−∞" : signed ? "+∞" : "∞";
  const r = Math.round(x);
  if (r === 0) return "0";
  return r > 0 ? `${signed ? "+" : ""}${r}` : `−${-r}`;
};

/** The step of a round grid (1, 2 or 5 times a power of ten) giving about `count` ticks. */
const tickStep = (span: number, count: number): number => {
  const raw = span / count;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / power;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power;
};

/** Red (0) through white (½) to green (1). */
const cellColour = (s: number): string => {
  const red = [214, 69, 65], white = [255, 255, 255], green = [46, 158, 84];
  const t = Math.min(1, Math.max(0, s));
  const [from, to, u] = t < 0.5 ? [red, white, t * 2] : [white, green, t * 2 - 1];
  const c = from.map((x, k) => Math.round(x + (to[k] - x) * u));
  return `#${c.map((x) => x.toString(16).padStart(2, "0")).join("")}`;
};

/** A name shortened to `max` characters (an ellipsis at the end). */
const shorten = (s: string, max: number): string =>
  [...s].length <= max ? s : [...s].slice(0, max - 1).join("") + "…";

const FONT = 'font-family="sans-serif"';
const MAX_NAME = 30;

/**
 * A self-contained SVG (no scripts, no outside references, fonts as generic families): on
 * the left, ratings as dots with 95% error bars on an Elo axis, players sorted best first,
 * the anchor marked; on the right, the score matrix (rows and columns in the same order;
 * each cell its score in %, coloured from red (0) through white (50) to green (100), and
 * games in small type). Names longer than 30 characters are shortened on the chart and
 * given whole in a tooltip (`<title>`); every cell has a tooltip too.
 *
 * @throws RangeError when the arrays' lengths disagree with the players' or the anchor is
 * not one of them.
 * @example
 * ```ts
 * import { chartSvg } from "./chart.ts";
 * const svg = chartSvg({
 *   title: "Nim: 20 games",
 *   players: ["alphabeta:4", "random"],
 *   elo: [0, -120],
 *   error: [0, 80],
 *   anchor: 0,
 *   score: [[undefined, 0.7], [0.3, undefined]],
 *   games: [[0, 20], [20, 0]],
 * });
 * if (!svg.startsWith("<svg") || !svg.includes("random")) throw new Error();
 * ```
 */
export const chartSvg = (data: ChartData): string => {
  const n = data.players.length;
  for (
    const [what, a] of [["elo", data.elo], ["error", data.error], ["score", data.score], [
      "games",
      data.games,
    ]] as const
  ) {
    if (a.length !== n) {
      throw new RangeError(`chartSvg: ${what} has ${a.length} entries for ${n} players`);
    }
  }
  for (let i = 0; i < n; i++) {
    if (data.score[i].length !== n || data.games[i].length !== n) {
      throw new RangeError(`chartSvg: row ${i} of score or games does not have ${n} entries`);
    }
  }
  if (!(Number.isInteger(data.anchor) && data.anchor >= 0 && data.anchor < n)) {
    throw new RangeError(`chartSvg: the anchor ${data.anchor} is not a player`);
  }
  // Best first; NaN ratings last; ties in the players' order.
  const key = (i: number) => (Number.isNaN(data.elo[i]) ? -Infinity : data.elo[i]);
  const order = [...Array(n).keys()].sort((a, b) => key(b) - key(a) || a - b);

  // The Elo axis: every finite end of a bar and 0, padded, widened to round ticks.
  const ends = [0];
  for (let i = 0; i < n; i++) {
    const e = data.elo[i], err = Math.abs(data.error[i]);
    if (!Number.isFinite(e)) continue;
    ends.push(e);
    if (Number.isFinite(err)) ends.push(e - err, e + err);
  }
  let lo = Math.min(...ends), hi = Math.max(...ends);
  if (hi - lo < 20) {
    const mid = (lo + hi) / 2;
    lo = mid - 10;
    hi = mid + 10;
  }
  const step = tickStep(hi - lo, 5);
  lo = Math.floor((lo - (hi - lo) * 0.04) / step) * step;
  hi = Math.ceil((hi + (hi - lo) * 0.04) / step) * step;

  // Layout.
  const margin = 16, titleH = 40, headH = 40, rowH = 30, axisH = 34, legendH = 34;
  const rankW = 30, valueW = 96, plotW = 300, gap = 28, cellW = 48;
  const longest = Math.max(8, ...data.players.map((p) => [...shorten(p, MAX_NAME)].length));
  const nameW = Math.round(longest * 7 + 16);
  const nameX = margin + rankW, valueX = nameX + nameW + valueW - 8;
  const plotX = nameX + nameW + valueW, matrixX = plotX + plotW + gap;
  const top = titleH + headH;
  const matrixW = Math.max(n * cellW, 210); // room for the caption and the legend
  const titleW = 2 * margin + [...data.title].length * 10;
  const width = Math.max(matrixX + matrixW + margin, Math.round(titleW));
  const height = top + n * rowH + axisH + legendH + margin;
  const x = (e: number) => plotX + ((e - lo) / (hi - lo)) * plotW;
  const rowY = (r: number) => top + r * rowH;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" ${FONT} font-size="12" fill="#222">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/>`);
  out.push(
    `<text x="${margin}" y="26" font-size="17" font-weight="bold">${escapeXml(data.title)}</text>`,
  );
  // Captions.
  const capY = titleH + 18;
  out.push(
    `<text x="${plotX + plotW / 2}" y="${capY}" text-anchor="middle" font-weight="bold">` +
      `Elo, 95% interval</text>`,
  );
  out.push(
    `<text x="${valueX}" y="${capY}" text-anchor="end" fill="#666" font-size="11">Elo ± 95%</text>`,
  );
  // Zebra stripes across both panels.
  for (let r = 0; r < n; r++) {
    if (r % 2 === 1) {
      out.push(
        `<rect x="${margin}" y="${rowY(r)}" width="${
          width - 2 * margin
        }" height="${rowH}" fill="#f3f4f6"/>`,
      );
    }
  }
  // Grid and axis.
  const plotBottom = rowY(n);
  for (let t = lo; t <= hi + step / 2; t += step) {
    const tx = num(x(t));
    const zero = Math.abs(t) < step / 2;
    out.push(
      `<line x1="${tx}" y1="${top}" x2="${tx}" y2="${plotBottom}" stroke="${
        zero ? "#888" : "#ddd"
      }" stroke-width="1"${zero ? ' stroke-dasharray="4 3"' : ""}/>`,
    );
    out.push(
      `<text x="${tx}" y="${plotBottom + 16}" text-anchor="middle" font-size="11" fill="#444">${
        eloText(zero ? 0 : t, true)
      }</text>`,
    );
  }
  out.push(
    `<line x1="${plotX}" y1="${plotBottom}" x2="${
      plotX + plotW
    }" y2="${plotBottom}" stroke="#444"/>`,
  );
  out.push(
    `<text x="${plotX + plotW / 2}" y="${plotBottom + 30}" text-anchor="middle" font-size="11" ` +
      `fill="#666">Elo relative to ${
        escapeXml(shorten(data.players[data.anchor], MAX_NAME))
      }</text>`,
  );

  // The rows: rank, name, figures, bar and dot.
  order.forEach((i, r) => {
    const cy = rowY(r) + rowH / 2, ty = cy + 4;
    const name = data.players[i], shown = shorten(name, MAX_NAME);
    const isAnchor = i === data.anchor;
    out.push(
      `<text x="${margin + rankW - 8}" y="${ty}" text-anchor="end" fill="#666">${r + 1}</text>`,
    );
    out.push(
      `<text class="player" x="${nameX}" y="${ty}"${isAnchor ? ' font-weight="bold"' : ""}><title>${
        escapeXml(name)
      }</title>${escapeXml(shown)}</text>`,
    );
    const e = data.elo[i], err = Math.abs(data.error[i]);
    const figure = isAnchor
      ? "0 (anchor)"
      : `${eloText(e, true)} ± ${Number.isNaN(err) ? "?" : eloText(err, false)}`;
    out.push(`<text class="figure" x="${valueX}" y="${ty}" text-anchor="end">${figure}</text>`);
    if (Number.isNaN(e)) return;
    const ex = Number.isFinite(e) ? x(e) : e > 0 ? plotX + plotW : plotX;
    if (Number.isFinite(e) && !Number.isNaN(err) && err > 0) {
      const a = Number.isFinite(err) ? Math.max(plotX, x(e - err)) : plotX;
      const b = Number.isFinite(err) ? Math.min(plotX + plotW, x(e + err)) : plotX + plotW;
      out.push(
        `<line x1="${num(a)}" y1="${cy}" x2="${
          num(b)
        }" y2="${cy}" stroke="#3b6ea5" stroke-width="2"/>`,
      );
      for (
        const [end, open, dir] of [[a, x(e - err) < plotX, -1], [
          b,
          x(e + err) > plotX + plotW,
          1,
        ]] as const
      ) {
        out.push(
          open
            ? `<path d="M${num(end)} ${cy}l${-6 * dir} -4v8z" fill="#3b6ea5"/>` // an arrow: open-ended
            : `<line x1="${num(end)}" y1="${cy - 5}" x2="${num(end)}" y2="${
              cy + 5
            }" stroke="#3b6ea5" stroke-width="2"/>`,
        );
      }
    }
    out.push(
      isAnchor
        ? `<rect x="${num(ex - 5)}" y="${
          cy - 5
        }" width="10" height="10" fill="#fff" stroke="#222" stroke-width="2" transform="rotate(45 ${
          num(ex)
        } ${cy})"/>`
        : `<circle cx="${num(ex)}" cy="${cy}" r="4.5" fill="#1f3f66"/>`,
    );
  });

  // The score matrix.
  order.forEach((_, c) => {
    out.push(
      `<text x="${matrixX + c * cellW + cellW / 2}" y="${
        capY + 12
      }" text-anchor="middle" fill="#666">${c + 1}</text>`,
    );
  });
  out.push(
    `<text x="${matrixX + (n * cellW >= 180 ? (n * cellW) / 2 : 0)}" y="${capY - 4}" text-anchor="${
      n * cellW >= 180 ? "middle" : "start"
    }" font-weight="bold">` +
      `Score (row against column)</text>`,
  );
  order.forEach((i, r) => {
    order.forEach((j, c) => {
      const cx = matrixX + c * cellW, cy = rowY(r);
      if (i === j) {
        out.push(
          `<rect x="${cx + 1}" y="${cy + 1}" width="${cellW - 2}" height="${
            rowH - 2
          }" fill="#d9dbe0"/>`,
        );
        return;
      }
      const s = data.score[i][j], g = data.games[i][j];
      const who = `${escapeXml(data.players[i])} against ${escapeXml(data.players[j])}`;
      if (s === undefined || !Number.isFinite(s)) {
        out.push(
          `<g class="cell"><title>${who}: not played</title><rect x="${cx + 1}" y="${
            cy + 1
          }" width="${cellW - 2}" height="${rowH - 2}" fill="#fff" stroke="#e3e5e8"/>` +
            `<text x="${cx + cellW / 2}" y="${
              cy + rowH / 2 + 4
            }" text-anchor="middle" fill="#aaa">–</text></g>`,
        );
        return;
      }
      const pct = Math.round(s * 100);
      const strong = Math.abs(s - 0.5) > 0.36;
      const games = Number.isFinite(g) ? String(Math.round(g)) : "?";
      out.push(
        `<g class="cell"><title>${who}: ${(s * 100).toFixed(1)}% in ${games} games</title>` +
          `<rect x="${cx + 1}" y="${cy + 1}" width="${cellW - 2}" height="${rowH - 2}" fill="${
            cellColour(s)
          }"/>` +
          `<text x="${cx + cellW / 2}" y="${cy + 14}" text-anchor="middle" font-size="12"${
            strong ? ' fill="#fff" font-weight="bold"' : ""
          }>${pct}</text>` +
          `<text x="${cx + cellW / 2}" y="${cy + 25}" text-anchor="middle" font-size="8.5" fill="${
            strong ? "#fff" : "#666"
          }">${games}</text></g>`,
      );
    });
  });
  // The legend under the matrix: the colour scale.
  const legendY = plotBottom + 12, legendW = 200;
  for (let k = 0; k < 10; k++) {
    out.push(
      `<rect x="${num(matrixX + (k * legendW) / 10)}" y="${legendY}" width="${
        num(legendW / 10 + 0.5)
      }" height="8" fill="${cellColour((k + 0.5) / 10)}"/>`,
    );
  }
  out.push(
    `<text x="${matrixX}" y="${legendY + 20}" font-size="10" fill="#666">0%</text>`,
    `<text x="${matrixX + legendW}" y="${legendY + 20}" text-anchor="end" font-size="10" ` +
      `fill="#666">100%</text>`,
    `<text x="${matrixX}" y="${legendY + 34}" font-size="10" fill="#666">` +
      `score in %, games in small type</text>`,
  );
  out.push("</svg>");
  return out.join("\n") + "\n";
};
