/**
 * The built-in games' pictures for a web page (`Game.picture`, `core/picture.ts`).
 *
 * For every game, over seeded random positions (fast-check): each legal move's pick
 * sequences map back to exactly that move through `moveForPicks`, a reference that reads
 * a sequence by the token formats the pictures document (a cell's notation, `h-k` for
 * Nim's stones, `south 3` for Kalah's houses, a domino's two cells, a cell and a twist,
 * an arrow key) and asks the game's notation parser; and every sequence that reference
 * maps to a legal move is among that move's picks (nothing a player could point at is
 * missing). The pictures' geometry matches the tokens (Nim's `h-k` is the k-th stone from
 * the top; Kalah's houses lie where the play board puts them; Domineering's cells by
 * column and row). Refusals give the documented reasons (a taken cell, an empty or the
 * opponent's house, a covered cell, no room for a domino, a slide that moves nothing),
 * the last move is marked where it was made, pictures stay small and use no inline
 * styles, and the guard names `picture.svg` / `picture.picks` / `picture.refuse` when a
 * plugin's picture throws. The conformance suite's own picture check
 * (`pictureProblems`) is shown to catch broken pictures.
 */
import { assert, assertEquals, assertStringIncludes, assertThrows, fc } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { PluginFault } from "../core/errors.ts";
import { CHANCE, type Game, type RenderOptions, type ToMove } from "../core/game.ts";
import { guardGame } from "../core/guard.ts";
import { KEY_PREFIX, type Picture } from "../core/picture.ts";
import { type GamePlugin, makeGame } from "../core/plugin.ts";
import domineering from "../plugins/domineering/mod.ts";
import game2048 from "../plugins/game2048/mod.ts";
import kalah from "../plugins/kalah/mod.ts";
import nim from "../plugins/nim/mod.ts";
import pentago from "../plugins/pentago/mod.ts";
import { landingCell } from "../plugins/pentago/notation.ts";
import { fromCells, NO_TWIST, type PentagoState, toCells } from "../plugins/pentago/rules.ts";
import { el, esc, LAST_COLOUR, overlay, svgDocument, text } from "../plugins/svg.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";
import { pickTokens, pictureProblems, xmlProblem } from "../app/conformance.ts";
import { randomPosition } from "./tools/helpers.ts";

// deno-lint-ignore no-explicit-any
type AnyPlugin = GamePlugin<any, any>;

const build = (plugin: AnyPlugin, options: Record<string, unknown> = {}): Game<unknown> =>
  Effect.runSync(makeGame(plugin, options)).game as Game<unknown>;

const pictureOf = <S>(game: Game<S>): Picture<S> => {
  assert(game.picture !== undefined, `${game.id} has no picture`);
  return game.picture;
};

/** The move a text makes in the game's notation, or `undefined`. */
const parsed = <S>(game: Game<S>, s: S, text: string): number | undefined => {
  const r = game.parseMove(s, text);
  return Result.isSuccess(r) ? r.success : undefined;
};

const KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].map((k) => `${KEY_PREFIX}${k}`);

/** A Domineering cell token (`b3`, or `2:3`) as (x, y). */
const cellXY = (t: string): [number, number] | undefined => {
  const l = /^([a-z])(\d+)$/.exec(t), n = /^(-?\d+):(-?\d+)$/.exec(t);
  if (l) return ["abcdefghijklmnopqrstuvwxyz".indexOf(l[1]) + 1, Number(l[2])];
  return n ? [Number(n[1]), Number(n[2])] : undefined;
};
const xyToken = (t: string, [x, y]: [number, number]) =>
  /:/.test(t) ? `${x}:${y}` : `${"abcdefghijklmnopqrstuvwxyz"[x - 1]}${y}`;

/**
 * The reference: the move a pick sequence enters, read by each picture's documented
 * token format and the game's own notation parser (`undefined`: no move).
 */
const moveForPicks = <S>(game: Game<S>, s: S, seq: readonly string[]): number | undefined => {
  switch (game.id) {
    case "tictactoe":
      return seq.length === 1 && /^[abc][123]$/.test(seq[0]) ? parsed(game, s, seq[0]) : undefined;
    case "nim": {
      const t = seq.length === 1 ? /^(\d+)-(\d+)$/.exec(seq[0]) : null;
      return t === null ? undefined : parsed(game, s, `${t[1]}-${t[2]}`);
    }
    case "kalah": {
      const t = seq.length === 1 ? /^(south|north) (\d+)$/.exec(seq[0]) : null;
      if (t === null || game.players[game.toMove(s) as 0 | 1] !== t[1]) return undefined;
      return parsed(game, s, t[2]);
    }
    case "domineering": {
      if (seq.length !== 2) return undefined;
      const [a, b] = seq.map(cellXY);
      if (a === undefined || b === undefined) return undefined;
      const across = game.players[game.toMove(s) as 0 | 1] === "H";
      const [lo, hi] = (across ? a[0] < b[0] : a[1] < b[1]) ? [a, b] : [b, a];
      const adjacent = across
        ? lo[1] === hi[1] && hi[0] === lo[0] + 1
        : lo[0] === hi[0] && hi[1] === lo[1] + 1;
      return adjacent ? parsed(game, s, xyToken(seq[0], lo)) : undefined;
    }
    case "pentago": {
      if (!/^[a-f][1-6]$/.test(seq[0])) return undefined;
      if (seq.length === 1) {
        const m = parsed(game, s, seq[0]);
        return m !== undefined && m >= NO_TWIST ? m : undefined; // a placement that wins
      }
      if (seq.length !== 2 || !/^(nw|ne|sw|se) (cw|ccw)$/.test(seq[1])) return undefined;
      const m = parsed(game, s, `${seq[0]} ${seq[1]}`);
      return m !== undefined && m < NO_TWIST ? m : undefined;
    }
    case "2048": {
      const d = seq.length === 1 ? KEYS.indexOf(seq[0]) : -1;
      return d < 0 ? undefined : parsed(game, s, ["left", "right", "up", "down"][d]);
    }
  }
  throw new Error(`no reference for ${game.id}`);
};

/** The sequences a player could form in `s`: single tokens, and pairs where a game has them. */
const candidates = <S>(game: Game<S>, s: S): string[][] => {
  const tokens = [...new Set(pickTokens(pictureOf(game).svg(s)))];
  const out: string[][] = [...tokens, ...KEYS].map((t) => [t]);
  if (game.id === "domineering") {
    for (const a of tokens) for (const b of tokens) if (a !== b) out.push([a, b]);
  }
  if (game.id === "pentago") {
    const twists = tokens.filter((t) => t.includes(" "));
    for (const a of tokens.filter((t) => !t.includes(" "))) {
      for (const b of twists) out.push([a, b]);
    }
  }
  return out;
};

const SEP = "\u0000";

/** Every pick sequence maps back to its move, and every sequence that makes a move is listed. */
const checkPicks = <S>(game: Game<S>, s: S): void => {
  if (game.toMove(s) === CHANCE) return;
  const picture = pictureOf(game);
  const listed = new Map<string, number>();
  for (const m of game.moves(s)) {
    const sequences = picture.picks(s, m);
    assert(sequences.length > 0, `move ${game.formatMove(s, m)} has no picks`);
    for (const seq of sequences) {
      assertEquals(
        moveForPicks(game, s, seq),
        m,
        `${seq.join(" ")} should enter ${game.formatMove(s, m)}`,
      );
      listed.set(seq.join(SEP), m);
    }
  }
  for (const seq of candidates(game, s)) {
    const m = moveForPicks(game, s, seq);
    if (m === undefined) continue;
    assertEquals(listed.get(seq.join(SEP)), m, `${seq.join(" ")} enters a move but is not listed`);
  }
};

/**
 * Random positions of a game (fast-check seeds), each checked by `check`, with a random
 * number `pick` to choose something in it.
 */
const forPositions = (
  game: Game<unknown>,
  maxPlies: number,
  check: (s: unknown, pick: number) => void,
  numRuns = 25,
): void =>
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 0, max: maxPlies }),
      fc.nat(),
      (seed, plies, pick) => check(randomPosition(game, seed, plies), pick),
    ),
    { numRuns },
  );

interface Case {
  readonly label: string;
  readonly plugin: AnyPlugin;
  readonly options?: Record<string, unknown>;
  readonly maxPlies: number;
}

const CASES: readonly Case[] = [
  { label: "tictactoe", plugin: tictactoe, maxPlies: 9 },
  { label: "nim", plugin: nim, maxPlies: 12 },
  {
    label: "nim misère 1,2,3,1",
    plugin: nim,
    options: { heaps: [1, 2, 3, 1], misere: true },
    maxPlies: 7,
  },
  { label: "nim 25,0,12", plugin: nim, options: { heaps: [25, 0, 12] }, maxPlies: 10 },
  { label: "kalah 3x2", plugin: kalah, options: { pits: 3, stones: 2 }, maxPlies: 20 },
  { label: "kalah", plugin: kalah, maxPlies: 60 },
  { label: "domineering 4x4", plugin: domineering, options: { board: "4x4" }, maxPlies: 8 },
  { label: "domineering 5x3", plugin: domineering, options: { board: "5x3" }, maxPlies: 7 },
  {
    label: "domineering carpet 1",
    plugin: domineering,
    options: { shape: "carpet:1" },
    maxPlies: 4,
  },
  {
    label: "domineering cells off a-z",
    plugin: domineering,
    options: { shape: "cells:(-1,0) (0,0) (1,0) (-1,1) (0,1) (1,1)" },
    maxPlies: 3,
  },
  { label: "pentago", plugin: pentago, maxPlies: 36 },
  { label: "pentago dedupe", plugin: pentago, options: { dedupe: true }, maxPlies: 36 },
  { label: "2048", plugin: game2048, maxPlies: 300 },
  { label: "2048 3x2", plugin: game2048, options: { width: 3, height: 2 }, maxPlies: 40 },
];

for (const c of CASES) {
  Deno.test(`picture ${c.label}: every move's picks enter it, and every way in is listed`, () => {
    const game = build(c.plugin, c.options);
    forPositions(
      game,
      c.maxPlies,
      (s) => checkPicks(game, s),
      c.label.startsWith("pentago") ? 8 : 25,
    );
  });

  Deno.test(`picture ${c.label}: small, one token per element, no inline style, conformant`, () => {
    const game = build(c.plugin, c.options);
    forPositions(game, c.maxPlies, (s) => {
      const svg = pictureOf(game).svg(s);
      assert(svg.length < 50_000, `${svg.length} characters`);
      assert(!/\sstyle=/.test(svg), "no inline style");
      const tokens = pickTokens(svg);
      assertEquals(new Set(tokens).size, tokens.length, "a token names one element");
      // The pickable elements are shapes the page can restyle.
      for (const m of svg.matchAll(/<(\w+)\b[^>]*\sdata-pick=/g)) {
        assert(["rect", "circle", "path", "ellipse", "polygon"].includes(m[1]), m[1]);
      }
      assertEquals(pictureProblems(game, s), []);
    }, 10);
  });
}

// ---------------------------------------------------------------------------------------
// Shapes of a picture, to check where things are drawn.

interface Shape {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
}

const shapesOf = (svg: string): Shape[] =>
  [...svg.matchAll(/<(rect|circle|path)\b([^>]*?)\/?>/g)].map((m) => ({
    name: m[1],
    attrs: Object.fromEntries([...m[2].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  }));

const centreOf = (sh: Shape): [number, number] => {
  const a = (k: string) => Number(sh.attrs[k]);
  return sh.name === "circle"
    ? [a("cx"), a("cy")]
    : [a("x") + a("width") / 2, a("y") + a("height") / 2];
};

const containsPoint = (sh: Shape, [px, py]: [number, number]): boolean => {
  const a = (k: string) => Number(sh.attrs[k]);
  if (sh.name === "circle") return Math.hypot(px - a("cx"), py - a("cy")) <= a("r");
  return px >= a("x") && px <= a("x") + a("width") && py >= a("y") && py <= a("y") + a("height");
};

const pickShape = (svg: string, token: string): Shape => {
  const found = shapesOf(svg).find((sh) => sh.attrs["data-pick"] === esc(token));
  assert(found !== undefined, `no element for ${token}`);
  return found;
};

const lastMarks = (svg: string): Shape[] =>
  shapesOf(svg).filter((sh) => sh.attrs.stroke === LAST_COLOUR);

/** Random (position before, move, who, position after) of a game, for last-move checks. */
const forMoves = (
  game: Game<unknown>,
  maxPlies: number,
  check: (before: unknown, m: number, by: ToMove, after: unknown) => void,
  numRuns = 25,
): void =>
  forPositions(game, maxPlies, (s, pick) => {
    const by = game.toMove(s);
    const ms = by === CHANCE ? game.chances(s).map((x) => x.move) : game.moves(s);
    if (ms.length > 0) check(s, ms[pick % ms.length], by, game.play(s, ms[pick % ms.length]));
  }, numRuns);

const view = (move: number, by: ToMove): RenderOptions => ({ last: { move, by } });

Deno.test("picture tictactoe: the last mark is ringed; a taken cell is refused", () => {
  const game = build(tictactoe);
  const picture = pictureOf(game);
  forMoves(game, 8, (_before, m, by, after) => {
    assert(!picture.svg(after).includes(LAST_COLOUR), "no mark without a last move");
    const svg = picture.svg(after, view(m, by));
    const cell = game.formatMove(after, m);
    const marks = lastMarks(svg);
    assertEquals(marks.length, 1);
    assert(containsPoint(marks[0], centreOf(pickShape(svg, cell))), `the ring is not on ${cell}`);
  });
  forPositions(game, 8, (s) => {
    const cells = s as number[];
    const over = game.moves(s).length === 0;
    for (let i = 0; i < 9; i++) {
      const name = `${"abc"[i % 3]}${3 - Math.floor(i / 3)}`;
      if (over) assertEquals(picture.refuse!(s, [name]), "the game is over");
      else if (cells[i] !== 0) assertEquals(picture.refuse!(s, [name]), `${name} is taken`);
    }
  });
});

Deno.test("picture nim: stone h-k is the k-th from the top; taken stones marked; empty heap refused", () => {
  const game = build(nim, { heaps: [3, 4, 5, 0] });
  const picture = pictureOf(game);
  forPositions(game, 8, (s) => {
    const heaps = s as number[];
    const svg = picture.svg(s);
    for (let h = 0; h < 4; h++) {
      const stones = shapesOf(svg).filter((sh) => sh.attrs["data-pick"]?.startsWith(`${h + 1}-`));
      // Top to bottom: 1, 2, ... (smaller y is higher).
      const order = stones.sort((a, b) => centreOf(a)[1] - centreOf(b)[1])
        .map((sh) => sh.attrs["data-pick"]);
      assertEquals(order, Array.from({ length: heaps[h] }, (_, k) => `${h + 1}-${k + 1}`));
      if (game.moves(s).length === 0) {
        assertEquals(picture.refuse!(s, [`heap ${h + 1}`]), "the game is over");
      } else if (heaps[h] === 0) {
        assertEquals(picture.refuse!(s, [`heap ${h + 1}`]), `heap ${h + 1} is empty`);
      }
    }
  });
  forMoves(game, 8, (before, m, by, after) => {
    const [heap, count] = game.formatMove(before, m).split("-").map(Number);
    const svg = picture.svg(after, view(m, by));
    const ghosts = lastMarks(svg);
    assertEquals(ghosts.length, count, "one dashed ring a stone taken");
    const plate = pickShape(svg, `heap ${heap}`);
    for (const g of ghosts) {
      const [x] = centreOf(g);
      assert(x >= Number(plate.attrs.x) && x <= Number(plate.attrs.x) + Number(plate.attrs.width));
    }
  });
});

Deno.test("picture kalah: houses where the play board has them; last house ringed; refusals", () => {
  for (const options of [{ pits: 3, stones: 2 }, {}]) {
    const game = build(kalah, options);
    const picture = pictureOf(game);
    const n = (options as { pits?: number }).pits ?? 6;
    forPositions(game, 30, (s) => {
      const st = s as number[];
      const svg = picture.svg(s);
      const south = (k: number) => centreOf(pickShape(svg, `south ${k}`));
      const north = (k: number) => centreOf(pickShape(svg, `north ${k}`));
      for (let k = 1; k < n; k++) {
        assert(south(k)[0] < south(k + 1)[0], "south's houses run left to right");
        assert(north(k)[0] > north(k + 1)[0], "north's houses run right to left");
      }
      for (let k = 1; k <= n; k++) {
        assert(north(k)[1] < south(k)[1], "north above south");
        assertEquals(north(k)[0], south(n + 1 - k)[0], "north's k faces south's n+1-k");
      }
      const mover = st[2 * n + 2];
      const over = game.moves(s).length === 0;
      for (let k = 1; k <= n; k++) {
        const mine = mover === 0 ? `south ${k}` : `north ${k}`;
        const theirs = mover === 0 ? `north ${k}` : `south ${k}`;
        if (over) {
          assertEquals(picture.refuse!(s, [mine]), "the game is over");
          continue;
        }
        assertEquals(
          picture.refuse!(s, [theirs]),
          `that house is ${mover === 0 ? "north" : "south"}'s`,
        );
        const stones = st[mover === 0 ? k - 1 : n + k];
        if (stones === 0) assertEquals(picture.refuse!(s, [mine]), `house ${k} is empty`);
      }
    }, 15);
    forMoves(game, 30, (_before, m, by, after) => {
      const svg = picture.svg(after, view(m, by));
      const house = pickShape(svg, `${by === 0 ? "south" : "north"} ${m + 1}`);
      const marks = lastMarks(svg);
      assertEquals(marks.length, 1);
      assert(containsPoint(marks[0], centreOf(house)), "the ring is on the house sown");
    }, 15);
  }
});

Deno.test("picture domineering: cells by column and row, last domino outlined, refusals", () => {
  for (const options of [{ board: "4x4" }, { board: "5x3" }, { shape: "carpet:1" }]) {
    const game = build(domineering, options);
    const picture = pictureOf(game);
    forPositions(game, 6, (s) => {
      const svg = picture.svg(s);
      const tokens = pickTokens(svg);
      const centres = new Map(tokens.map((t) => [t, centreOf(pickShape(svg, t))]));
      for (const a of tokens) {
        for (const b of tokens) {
          const [pa, pb] = [cellXY(a)!, cellXY(b)!];
          const [ca, cb] = [centres.get(a)!, centres.get(b)!];
          if (pa[0] < pb[0]) assert(ca[0] < cb[0], `${a} left of ${b}`);
          if (pa[1] < pb[1]) assert(ca[1] > cb[1], `${a} below ${b}`);
        }
      }
      const legal = game.moves(s);
      const across = game.players[game.toMove(s) as 0 | 1] === "H";
      // The cells some legal domino covers, from the reference.
      const usable = new Set<string>();
      for (const m of legal) {
        const t = game.formatMove(s, m);
        const [x, y] = cellXY(t)!;
        usable.add(t).add(xyToken(t, across ? [x + 1, y] : [x, y + 1]));
      }
      const st = s as number[];
      const g = (game as unknown as { geometry: { width: number; x0: number; y0: number } })
        .geometry;
      for (const t of tokens) {
        const [x, y] = cellXY(t)!;
        const free = ((st[y - g.y0] >>> (x - g.x0)) & 1) === 1;
        const why = picture.refuse!(s, [t]);
        if (legal.length === 0) assertEquals(why, "the game is over");
        else if (!free) assertEquals(why, `${t} is covered`);
        else if (!usable.has(t)) {
          assertEquals(why, `no room for a ${across ? "horizontal" : "vertical"} domino at ${t}`);
        } else assertEquals(why, undefined, `${t} starts a move`);
      }
    }, 15);
    forMoves(game, 6, (before, m, by, after) => {
      const svg = picture.svg(after, view(m, by));
      const [a, b] = picture.picks(before, m)[0];
      const marks = lastMarks(svg);
      assertEquals(marks.length, 1);
      for (const t of [a, b]) {
        assert(containsPoint(marks[0], centreOf(pickShape(svg, t))), `the outline misses ${t}`);
      }
      // The domino drawn over the two cells is the mover's colour (H blue, V orange).
      const colour = game.players[by as 0 | 1] === "H" ? "#3b6fb6" : "#e07b24";
      const dominoes = shapesOf(svg).filter((sh) => sh.attrs.fill === colour);
      assert(
        dominoes.some((d) =>
          containsPoint(d, centreOf(pickShape(svg, a))) &&
          containsPoint(d, centreOf(pickShape(svg, b)))
        ),
        "a domino of the mover's colour covers both cells",
      );
    }, 15);
  }
});

Deno.test("picture pentago: the marble's landing cell ringed, the twist outlined; a taken cell refused", () => {
  const game = build(pentago);
  const picture = pictureOf(game);
  forMoves(game, 30, (_before, m, by, after) => {
    const svg = picture.svg(after, view(m, by));
    const cell = pickShape(
      svg,
      "abcdef"[landingCell(m) % 6] + (6 - Math.floor(landingCell(m) / 6)),
    );
    const marks = lastMarks(svg);
    assert(marks.some((mk) => mk.name === "circle" && containsPoint(mk, centreOf(cell))));
    if (m < NO_TWIST) {
      const arrow = pickShape(svg, game.formatMove(after, m).split(" ").slice(1).join(" "));
      assert(marks.some((mk) => mk.name === "path" && mk.attrs.d === arrow.attrs.d), "twist");
    } else assertEquals(marks.length, 1, "a winning placement has no twist to mark");
  }, 15);
  forPositions(game, 30, (s) => {
    const st = s as PentagoState;
    const over = game.moves(s).length === 0;
    const board = toCells(st);
    for (let cell = 0; cell < 36; cell++) {
      const name = "abcdef"[cell % 6] + (6 - Math.floor(cell / 6));
      const taken = board[cell] !== 0;
      const why = picture.refuse!(st, [name]);
      if (over) assertEquals(why, "the game is over");
      else if (taken) assertEquals(why, `${name} is taken`);
      else assertEquals(why, undefined);
    }
    if (!over) assertStringIncludes(picture.refuse!(st, ["ne cw"]) ?? "", "place a marble first");
  }, 10);
});

Deno.test("picture pentago: a winning placement is its cell alone, and its cell has no twist", () => {
  // White (o) has a4 b4 c4 d4 and is to move: e4 or... the row 4 is cells 12-17.
  const cells = new Array(36).fill(0);
  for (const c of [12, 13, 14, 15]) cells[c] = 1;
  for (const c of [0, 1, 30, 35]) cells[c] = 2;
  for (const options of [{}, { dedupe: true }]) {
    const game = build(pentago, options) as unknown as Game<PentagoState>;
    const s = fromCells(cells);
    const picture = pictureOf(game);
    const e4 = game.moves(s).find((m) => m === NO_TWIST + 16)!;
    assertEquals(picture.picks(s, e4), [["e4"]]);
    for (const m of game.moves(s)) {
      for (const seq of picture.picks(s, m)) {
        if (m !== e4) assert(seq[0] !== "e4", `${seq.join(" ")} starts with the winning cell`);
      }
    }
    assertEquals(pictureProblems(game, s), []);
    checkPicks(game, s);
  }
});

Deno.test("picture 2048: arrow keys; the new tile outlined; a key that moves nothing refused", () => {
  for (const options of [{}, { width: 3, height: 2 }]) {
    const game = build(game2048, options);
    const picture = pictureOf(game);
    const w = (options as { width?: number }).width ?? 4;
    forMoves(game, 200, (_before, m, by, after) => {
      const svg = picture.svg(after, view(m, by));
      const marks = lastMarks(svg);
      if (by !== CHANCE) {
        assertEquals(marks.length, 0, "a slide marks no tile");
        return;
      }
      const tileMatch = /^NewTile \((\d+),(\d+)\)/.exec(game.formatMove(_before, m))!;
      const cell = Number(tileMatch[2]) * w + Number(tileMatch[1]);
      const tiles = shapesOf(svg).filter((sh) => sh.name === "rect" && sh.attrs.rx === "4");
      // Tiles in reading order: columns left to right, rows top to bottom.
      tiles.forEach((a, i) => {
        tiles.forEach((b, j) => {
          if (i % w < j % w) assert(centreOf(a)[0] < centreOf(b)[0], `cell ${i} left of ${j}`);
          if (Math.floor(i / w) < Math.floor(j / w)) {
            assert(centreOf(a)[1] < centreOf(b)[1], `cell ${i} above ${j}`);
          }
        });
      });
      assertEquals(marks.length, 1);
      assert(containsPoint(marks[0], centreOf(tiles[cell])), "the outline is on the new tile");
    }, 20);
    forPositions(game, 200, (s) => {
      const legal = game.moves(s);
      ["left", "right", "up", "down"].forEach((word, d) => {
        const why = picture.refuse!(s, [KEYS[d]]);
        if (game.toMove(s) === CHANCE) assertEquals(why, "the computer places a tile now");
        else if (legal.length === 0) assertStringIncludes(why ?? "", "the game is over");
        else if (!legal.includes(d)) assertEquals(why, `nothing moves ${word}`);
        else assertEquals(why, undefined);
      });
      assertEquals(pickTokens(picture.svg(s)), [], "2048 is played by keys only");
    }, 20);
  }
});

// ---------------------------------------------------------------------------------------
// The guard, and the conformance suite's picture check.

Deno.test("guard: a picture that throws is a PluginFault naming picture.svg, .picks, .refuse", () => {
  const game = build(tictactoe) as Game<number[]>;
  const boom = () => {
    throw new Error("boom");
  };
  const broken: Game<number[]> = {
    ...game,
    picture: { svg: boom, picks: boom, refuse: boom },
  };
  const guarded = guardGame(broken, "tictactoe");
  const s = guarded.initial();
  for (
    const [fn, call] of [
      ["picture.svg", () => guarded.picture!.svg(s)],
      ["picture.picks", () => guarded.picture!.picks(s, 0)],
      ["picture.refuse", () => guarded.picture!.refuse!(s, ["a1"])],
    ] as const
  ) {
    const e = assertThrows(call, PluginFault);
    assertEquals(e.fn, fn);
    assertEquals(e.plugin, "tictactoe");
  }
  // A working picture passes through the guard unchanged.
  const fine = guardGame(game, "tictactoe");
  assertEquals(fine.picture!.svg(s), game.picture!.svg(s));
  assertEquals(fine.picture!.picks(s, 4), [["b2"]]);
});

Deno.test("svg helpers: values and text escaped, tokens read back", () => {
  const token = `a"b'<c>&d`;
  const svg = svgDocument(
    10,
    10,
    el("rect", { x: 0.123, y: 1, width: 2, height: 3, "data-pick": token }) +
      overlay(text(1, 1, token)),
  );
  assertEquals(xmlProblem(svg), undefined);
  assertEquals(pickTokens(svg), [token]);
  assertStringIncludes(svg, 'x="0.12"');
  assertStringIncludes(svg, '<g pointer-events="none">');
  assertStringIncludes(svg, ">a&quot;b&#39;&lt;c&gt;&amp;d</text>");
});

Deno.test("pictureProblems catches broken pictures", () => {
  const game = build(tictactoe) as Game<number[]>;
  const good = game.picture!;
  const s = game.play(game.initial(), 4); // X on b2
  assertEquals(pictureProblems(game, s), []);
  const withPicture = (p: Partial<Picture<number[]>>): Game<number[]> => ({
    ...game,
    picture: { ...good, ...p },
  });
  const cases: [Partial<Picture<number[]>>, string][] = [
    [{ svg: () => '<svg xmlns="http://www.w3.org/2000/svg"></svg>' }, "viewBox"],
    [{ svg: () => "<div></div>" }, "start with <svg"],
    [{ svg: (x) => good.svg(x).replace("</svg>", "<script>alert(1)</script></svg>") }, "<script>"],
    [{ svg: (x) => good.svg(x).replace("</svg>", "<g></svg>") }, "well-formed"],
    [{ svg: (x) => good.svg(x).replace("<rect", '<rect onclick="x()"') }, "event handlers"],
    [
      { svg: (x) => good.svg(x).replace("<rect", '<image href="http://x/y.png"/><rect') },
      "outside",
    ],
    [{ picks: () => [] }, "has no pick sequence"],
    [{ picks: () => [["a1"]] }, "share the sequence"],
    [{ picks: (_x, m) => m === 0 ? [["a1"]] : [["a1", `c${m}`]] }, "is the start of"],
    [{ picks: (_x, m) => [[`z${m}`]] }, "not a data-pick"],
    [{ picks: (x, m) => [[game.formatMove(x, m).repeat(40)]] }, "tokens of 1-64"],
    [{ refuse: () => "" }, "must be a reason or undefined"],
  ];
  for (const [broken, expected] of cases) {
    const problems = pictureProblems(withPicture(broken), s);
    assert(problems.some((p) => p.includes(expected)), `${expected}: ${JSON.stringify(problems)}`);
  }
  // X takes the top row (cells 0, 1, 2; O on 3 and 4): the game is over.
  const won = [0, 3, 1, 4, 2].reduce((x, m) => game.play(x, m), game.initial());
  assertEquals(game.moves(won), []);
  assertEquals(pictureProblems(game, won), []);
  assertEquals(good.decisive?.(won), ["a3", "b3", "c3"], "tic-tac-toe names its three");
  for (const decisive of [() => ["z9"], () => "a3" as unknown as string[]]) {
    const problems = pictureProblems(withPicture({ decisive }), won);
    assert(problems.some((p) => p.includes("decisive must list")), JSON.stringify(problems));
  }
  assertEquals(xmlProblem("<svg><rect/></svg>"), undefined);
  assert(xmlProblem("<svg><rect></svg>") !== undefined);
  assert(xmlProblem("<svg></svg><svg></svg>") !== undefined);
  assert(xmlProblem("<svg>a & b</svg>") !== undefined);
});
