/**
 * What the built-in plugins show a person (issue 13): the last move marked on the board
 * (plain brackets or colour, columns kept), `render(s)` without a view unchanged, X/O
 * and H/V told apart in colour, Kalah's and 2048's `describeMove`, Pentago's short move
 * form and `movesHelp`, Domineering's `movesHelp`, and the AI strengths (valid specs,
 * weakest first, documented, `perfect` really perfect on small games), and every text a
 * player reads in their own words (no "seed 004's util": the seeds are spec documents).
 *
 * The marks are read back the way a person reads the board: by the picture's own row
 * and column labels. The expected cells come from the move's notation or the states, and
 * the exact values from references written here (nim-sum, memoized searches to the end).
 */
import type { Strategy } from "../core/search/types.ts";
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Effect, Random, Result } from "../core/deps.ts";
import { CHANCE, type Game, type Player } from "../core/game.ts";
import { type GamePlugin, makeGame, optionHelp } from "../core/plugin.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { agentFromSpec } from "../app/players/agents.ts";
import { parseSpec, type PlayerSpec } from "../app/players/spec.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { scriptedTerminal } from "../app/terminal.ts";
import { makeRng } from "../core/rng.ts";
import { stripAnsi } from "../plugins/view.ts";
import nim from "../plugins/nim/mod.ts";
import tictactoe from "../plugins/tictactoe/mod.ts";
import kalah from "../plugins/kalah/mod.ts";
import game2048 from "../plugins/game2048/mod.ts";
import pentago from "../plugins/pentago/mod.ts";
import domineering from "../plugins/domineering/mod.ts";
import { naiveRotate } from "../plugins/pentago/naive.ts";
import { exactMargin } from "./tools/helpers.ts";

const root = new URL("../", import.meta.url);

// deno-lint-ignore no-explicit-any
type AnyPlugin = GamePlugin<any, any>;

const build = (plugin: AnyPlugin, options: Record<string, unknown> = {}): Game<unknown> =>
  Effect.runSync(makeGame(plugin, options)).game;

/** The positions of a seeded random game, each with the move that led to it. */
const playout = (game: Game<unknown>, seed: number, maxPlies: number) => {
  const rng = makeRng(seed);
  const steps: { before: unknown; move: number; by: Player | typeof CHANCE; after: unknown }[] = [];
  let s = game.initial();
  for (let i = 0; i < maxPlies; i++) {
    const by = game.toMove(s);
    const ms = by === CHANCE ? game.chances(s).map((c) => c.move) : game.moves(s);
    if (ms.length === 0) break;
    const move = ms[rng.int(ms.length)];
    const after = game.play(s, move);
    steps.push({ before: s, move, by, after });
    s = after;
  }
  return steps;
};

/** The text between each pair of brackets: line, first column inside, the text. */
const bracketed = (text: string) => {
  const found: { line: number; at: number; text: string }[] = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\[([^\]]*)\]/g)) {
      found.push({ line: i, at: m.index! + 1, text: m[1] });
    }
  });
  return found;
};

/** Every non-blank character inside brackets, as `line:column` in the plain picture. */
const bracketedCells = (text: string): string[] =>
  bracketed(text).flatMap((b) =>
    [...b.text].flatMap((ch, k) => (ch === " " ? [] : [`${b.line}:${b.at + k}`]))
  );

/** Every character of a colour picture with its style (SGR parameters, "" for none). */
const styled = (text: string) => {
  const out: { cell: string; ch: string; sgr: string }[] = [];
  text.split("\n").forEach((line, i) => {
    let col = 0, sgr = "";
    for (let k = 0; k < line.length;) {
      // deno-lint-ignore no-control-regex
      const esc = /^\x1b\[([0-9;]*)m/.exec(line.slice(k));
      if (esc !== null) {
        sgr = esc[1] === "0" ? "" : esc[1];
        k += esc[0].length;
        continue;
      }
      out.push({ cell: `${i}:${col}`, ch: line[k], sgr });
      col++;
      k++;
    }
  });
  return out;
};

/** The characters shown in reverse video (SGR 7), as `line:column` without escape codes. */
const reversedCells = (text: string): string[] =>
  styled(text).filter((c) => c.ch !== " " && c.sgr.split(";").includes("7")).map((c) => c.cell);

/** Brackets back to spaces, trailing blanks dropped: the picture without its marks. */
const unbracket = (text: string): string =>
  text.split("\n").map((l) => l.replace(/[[\]]/g, " ").trimEnd()).join("\n");

const trimLines = (text: string): string => text.split("\n").map((l) => l.trimEnd()).join("\n");

/** How each plugin's plain marks are read, and where they should be. */
interface MarkCase {
  readonly label: string;
  readonly plugin: AnyPlugin;
  readonly options: Record<string, unknown>;
  readonly maxPlies: number;
  /** The names of the cells the mark covers, read from the plain marked picture. */
  readonly read: (marked: string) => string[];
  /** The names they should be, from the move's notation and the states. */
  readonly expected: (
    game: Game<unknown>,
    step: { before: unknown; move: number; by: Player | typeof CHANCE; after: unknown },
  ) => string[];
  /** Undoes marks other than brackets (Pentago's frame label, Nim's dashes). */
  readonly unmarkExtra?: (text: string) => string;
}

/** A cell read by the labels: the row label at the start of its line, the column's below. */
const labelled = (lines: string[], footer: number, line: number, col: number): string =>
  `${lines[footer][col]}${/^\s*(\d+)/.exec(lines[line])![1]}`;

const MARK_CASES: readonly MarkCase[] = [
  {
    label: "tic-tac-toe",
    plugin: tictactoe,
    options: {},
    maxPlies: 9,
    read: (marked) => {
      const lines = marked.split("\n");
      return bracketed(marked).map((b) => labelled(lines, 5, b.line, b.at));
    },
    expected: (game, { before, move }) => [game.formatMove(before, move)],
  },
  {
    label: "nim",
    plugin: nim,
    options: { heaps: [3, 4, 5], misere: false },
    maxPlies: 20,
    // The heap's line shows the stones taken as dashes: `2-3` for 3 dashes on line 2.
    read: (marked) =>
      marked.split("\n").flatMap((l) => {
        const m = /^(\d+): o*(-+) \(/.exec(l);
        return m === null ? [] : [`${m[1]}-${m[2].length}`];
      }),
    expected: (game, { before, move }) => [game.formatMove(before, move)],
    unmarkExtra: (text) => text.replace(/-+ \(/g, " ("),
  },
  ...[
    { pits: 6, stones: 4, capture: "nonempty" },
    { pits: 3, stones: 2, capture: "always" },
  ].map((options): MarkCase => ({
    label: `kalah ${options.pits}x${options.stones}`,
    plugin: kalah,
    options,
    maxPlies: 80,
    // The house's number is on the label line of its side, ending in the same column.
    read: (marked) => {
      const lines = marked.split("\n");
      return bracketed(marked).map((b) => {
        const labels = lines[b.line === 2 ? 0 : 6];
        const end = b.at + b.text.length;
        const number = /(\d+)$/.exec(labels.slice(0, end))![1];
        return `${b.line === 2 ? "north" : "south"} ${number}`;
      });
    },
    expected: (game, { before, move, by }) => [
      `${game.players[by as Player]} ${game.formatMove(before, move)}`,
    ],
  })),
  {
    label: "2048 3x3",
    plugin: game2048,
    options: { width: 3, height: 3 },
    maxPlies: 60,
    // The tile's column is the number of fields before it on its row.
    read: (marked) =>
      bracketed(marked).map((b) => {
        const line = marked.split("\n")[b.line];
        const x = line.slice(0, b.at - 1).trim().split(/\s+/).filter((f) => f !== "").length;
        return `${b.text} at (${x},${b.line})`;
      }),
    // Only the computer's tile is marked: the one cell empty before and taken after.
    expected: (_game, { before, after, by }) => {
      if (by !== CHANCE) return [];
      const b = before as number[], a = after as number[];
      const cell = [...Array(9).keys()].find((i) => b[i] === 0 && a[i] !== 0)!;
      return [`${a[cell]} at (${cell % 3},${Math.floor(cell / 3)})`];
    },
  },
  {
    label: "pentago",
    plugin: pentago,
    options: {},
    maxPlies: 24,
    read: (marked) => {
      const lines = marked.split("\n");
      return bracketed(marked).map((b) => labelled(lines, 0, b.line, b.at));
    },
    // Where the twist left the marble: the naive board turned with one marble on it.
    expected: (game, { before, move }) => {
      const [cell, q, dir] = game.formatMove(before, move).split(" ");
      const index = (6 - Number(cell[1])) * 6 + "abcdef".indexOf(cell[0]);
      if (q === undefined) return [cell];
      const board = Array.from({ length: 36 }, (_, i) => (i === index ? 1 : 0));
      const turned = naiveRotate(board, ["nw", "ne", "sw", "se"].indexOf(q), dir === "cw" ? 0 : 1);
      const to = turned.indexOf(1);
      return [`${"abcdef"[to % 6]}${6 - Math.floor(to / 6)}`];
    },
    unmarkExtra: (text) => text.replace(/ (nw|ne|sw|se) (cw |ccw)/, "-- $1 -"),
  },
  {
    label: "domineering 5x4",
    plugin: domineering,
    options: { board: "5x4" },
    maxPlies: 20,
    read: (marked) => {
      const lines = marked.split("\n");
      return bracketed(marked).flatMap((b) =>
        [...b.text].flatMap((ch, k) => ch === " " ? [] : [labelled(lines, 4, b.line, b.at + k)])
      ).sort();
    },
    // The lower-left cell and its neighbour: to the right for H, above for V.
    expected: (game, { before, move, by }) => {
      const cell = game.formatMove(before, move);
      const other = by === 1
        ? `${String.fromCharCode(cell.charCodeAt(0) + 1)}${cell.slice(1)}`
        : `${cell[0]}${Number(cell.slice(1)) + 1}`;
      return [cell, other].sort();
    },
  },
];

for (const c of MARK_CASES) {
  Deno.test(`${c.label}: render without a view, or a view without a last move, is unchanged`, () => {
    const game = build(c.plugin, c.options);
    for (const seed of [1, 2, 3]) {
      for (const { after } of playout(game, seed, c.maxPlies)) {
        const plain = game.render(after);
        // No mark of any kind without a last move, and no escape codes.
        assertEquals((c.unmarkExtra ?? ((t) => t))(unbracket(plain)), trimLines(plain));
        assert(!plain.includes("\x1b"));
        assertEquals(game.render(after, {}), plain);
        assertEquals(game.render(after, { color: false }), plain);
        // Colour only adds escape codes.
        assertEquals(stripAnsi(game.render(after, { color: true })), plain);
      }
    }
  });

  Deno.test(`${c.label}: the plain mark names the last move's cells and moves nothing`, () => {
    const game = build(c.plugin, c.options);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        for (const step of playout(game, seed, c.maxPlies)) {
          const view = { last: { move: step.move, by: step.by } };
          const marked = game.render(step.after, { ...view, color: false });
          assert(!marked.includes("\x1b"), "no escape codes without colour");
          assertEquals(c.read(marked), c.expected(game, step), marked);
          // Brackets stand where spaces were: without them the picture is render(s).
          const unmarked = (c.unmarkExtra ?? ((t) => t))(unbracket(marked));
          assertEquals(unmarked, trimLines(game.render(step.after)));
        }
      }),
      { numRuns: 8 },
    );
  });

  Deno.test(`${c.label}: in colour the same cells are marked, in reverse video`, () => {
    const game = build(c.plugin, c.options);
    for (const seed of [4, 5]) {
      for (const step of playout(game, seed, c.maxPlies)) {
        const last = { move: step.move, by: step.by };
        const plain = game.render(step.after, { last, color: false });
        const colored = game.render(step.after, { last, color: true });
        // The same text as the plain mark without its brackets (nothing moves).
        assertEquals(trimLines(stripAnsi(colored)), unbracket(plain));
        if (c.label === "nim") continue; // no brackets: checked below
        const frame = (cell: string) => c.label !== "pentago" || !/^[15]:/.test(cell);
        assertEquals(reversedCells(colored).filter(frame), bracketedCells(plain));
      }
    }
  });
}

Deno.test("nim: in colour the heap's number is reversed and the dashes are the stones taken", () => {
  const game = build(nim, { heaps: [3, 4, 5], misere: false });
  for (const step of playout(game, 9, 20)) {
    const colored = game.render(step.after, {
      last: { move: step.move, by: step.by },
      color: true,
    });
    const [heap] = game.formatMove(step.before, step.move).split("-");
    const line = stripAnsi(colored).split("\n").findIndex((l) => l.startsWith(`${heap}: `));
    assertEquals(reversedCells(colored), [...heap].map((_, k) => `${line}:${k}`));
  }
});

Deno.test("pentago: the twisted quadrant's frame names the twist, over that quadrant", () => {
  const game = build(pentago);
  for (const seed of [1, 2, 3]) {
    for (const step of playout(game, seed, 24)) {
      const [, q, dir] = game.formatMove(step.before, step.move).split(" ");
      const lines = game.render(step.after, { last: { move: step.move, by: step.by } }).split(
        "\n",
      );
      const frames = [lines[1], lines[5]].join("\n");
      if (q === undefined) {
        assert(!/cw/.test(frames), "a winning placement has no twist");
        continue;
      }
      const frame = lines[q[0] === "n" ? 1 : 5];
      const at = frame.indexOf(` ${q} ${dir}`);
      assert(at >= 0, frame);
      // The left quadrants' labels lie left of the middle '+' (column 10), the right ones' after.
      assert(q[1] === "w" ? at < 10 : at > 10, frame);
    }
  }
});

Deno.test("tic-tac-toe and domineering: in colour each player's pieces have their own style", () => {
  const cases: [Game<unknown>, number, string, string][] = [
    [build(tictactoe), 9, "X", "O"],
    [build(domineering, { board: "5x4" }), 20, "H", "V"],
  ];
  for (const [game, plies, a, b] of cases) {
    for (const seed of [1, 2, 3, 4]) {
      const steps = playout(game, seed, plies);
      const s = steps[steps.length - 1].after;
      // The board's rows: the lines that start with a row number.
      const text = game.render(s, { color: true });
      const rows = stripAnsi(text).split("\n").flatMap((l, i) => (/^\s*\d/.test(l) ? [i] : []));
      const cells = styled(text).filter((c) => rows.includes(Number(c.cell.split(":")[0])));
      const styleOf = (ch: string) => new Set(cells.filter((c) => c.ch === ch).map((c) => c.sgr));
      const [sa, sb] = [styleOf(a), styleOf(b)];
      // Every piece of a player in one style, a real one, and the two styles differ.
      assertEquals(sa.size, 1, `${a}: ${[...sa]}`);
      assertEquals(sb.size, 1, `${b}: ${[...sb]}`);
      const [x, y] = [[...sa][0], [...sb][0]];
      assert(x !== "" && y !== "" && x !== y, `${a} '${x}', ${b} '${y}'`);
    }
  }
});

/** Kalah's sowing written out here, stone by stone: what the move did to the mover. */
const kalahEffect = (before: readonly number[], n: number, m: number, always: boolean) => {
  const b = before.slice(0, 2 * n + 2);
  const mover = before[2 * n + 2];
  const [first, store, theirs] = mover === 0 ? [0, n, 2 * n + 1] : [n + 1, 2 * n + 1, n];
  let pos = first + m, hand = b[pos];
  b[pos] = 0;
  while (hand > 0) {
    pos = (pos + 1) % (2 * n + 2);
    if (pos === theirs) continue;
    b[pos]++;
    hand--;
  }
  const mine = pos >= first && pos < first + n;
  const captured = mine && b[pos] === 1 && (always || b[2 * n - pos] > 0) ? b[2 * n - pos] + 1 : 0;
  return { extra: pos === store, captured };
};

Deno.test("kalah: describeMove says 'extra turn' and 'captures N' (the capturing stone counted)", () => {
  for (const capture of ["nonempty", "always"] as const) {
    for (const [pits, stones] of [[6, 4], [3, 2], [4, 1]]) {
      const game = build(kalah, { pits, stones, capture });
      let extras = 0, captures = 0;
      for (let seed = 0; seed < 30; seed++) {
        for (const { before, move, after } of playout(game, seed, 200)) {
          const said = game.describeMove!(before, move, after);
          const e = kalahEffect(before as number[], pits, move, capture === "always");
          const over = game.outcome(after) !== undefined;
          const expected = e.captured > 0
            ? `captures ${e.captured}`
            : e.extra && !over
            ? "extra turn"
            : undefined;
          assertEquals(said, expected, JSON.stringify({ before, move }));
          if (expected === "extra turn") extras++;
          else if (expected !== undefined) captures++;
        }
      }
      assert(extras > 0 && captures > 0, `${pits}x${stones} ${capture}: both kinds seen`);
    }
  }
});

Deno.test("2048: describeMove words a placement '2 at (x,y)' that parses back, a merge 'scores N'", () => {
  const game = build(game2048, { width: 4, height: 3 });
  for (const seed of [1, 2, 3]) {
    for (const { before, move, by, after } of playout(game, seed, 150)) {
      const said = game.describeMove!(before, move, after);
      const b = before as number[], a = after as number[];
      if (by === CHANCE) {
        const cell = [...Array(12).keys()].find((i) => b[i] === 0 && a[i] !== 0)!;
        const where = `(${cell % 4},${Math.floor(cell / 4)})`;
        assertEquals(said, `${a[cell]} at ${where}`);
        // The cell as the plugin writes it: `NewTile (x,y) v` reads back as this move.
        const back = game.parseMove(before, `NewTile ${where} ${a[cell]}`);
        assert(Result.isSuccess(back) && back.success === move);
      } else {
        // The score is the last entry of the state; a slide that merged adds to it.
        const gained = a[a.length - 1] - b[b.length - 1];
        assertEquals(said, gained > 0 ? `scores ${gained}` : undefined);
      }
    }
  }
});

Deno.test("pentago: the short form c4ne+ / c4ne- reads as c4 ne cw / ccw, any case and spacing", () => {
  const game = build(pentago);
  for (const seed of [1, 2]) {
    for (const { before } of playout(game, seed, 16)) {
      for (const m of game.moves(before)) {
        const [cell, q, dir] = game.formatMove(before, m).split(" ");
        if (q === undefined) continue;
        const sign = dir === "cw" ? "+" : "-";
        for (
          const text of [
            `${cell}${q}${sign}`,
            `  ${cell.toUpperCase()}  ${q.toUpperCase()}  ${sign}  `,
            `${cell} ${q}${sign}`,
            `${cell}${q} ${sign}`,
          ]
        ) {
          const r = game.parseMove(before, text);
          assert(Result.isSuccess(r) && r.success === m, `${text}: ${JSON.stringify(r)}`);
        }
      }
    }
  }
  const s = game.initial();
  const err = (t: string) => {
    const r = game.parseMove(s, t);
    return Result.isFailure(r) ? r.failure : "parsed";
  };
  assertStringIncludes(err("c4+"), "expected a quadrant");
  assertStringIncludes(err("c4 xx+"), "'xx' is not a quadrant");
  // The separators still work.
  const long = game.parseMove(s, "c4-ne-cw");
  assert(Result.isSuccess(long) && game.formatMove(s, long.success) === "c4 ne cw");
});

Deno.test("pentago: movesHelp names exactly the free cells, the twists, and the winning cells", () => {
  const game = build(pentago);
  let wins = 0;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    for (const { after } of playout(game, seed, 34)) {
      if (game.moves(after).length === 0) continue;
      const help = game.movesHelp!(after);
      const lines = help.trimEnd().split("\n");
      assert(lines.length <= 14 && lines.every((l) => l.length <= 78), help);
      const texts = game.moves(after).map((m) => game.formatMove(after, m));
      const free = new Set(texts.map((t) => t.split(" ")[0]));
      // The picture: the quadrant names, three rows, the middle, three rows, the names.
      const named = lines.slice(0, 9).join(" ");
      assertEquals(new Set(named.match(/\b[a-f][1-6]\b/g)), free);
      for (const w of ["nw", "ne", "sw", "se", "cw", "ccw", "+", "-"]) {
        assertStringIncludes(help, w);
      }
      const winning = texts.filter((t) => !t.includes(" "));
      const line = lines.find((l) => l.startsWith("Five in a row"));
      assertEquals((line?.split(": ")[1].split(" ") ?? []).sort(), winning.sort());
      if (winning.length > 0) wins++;
    }
  }
  assert(wins > 0, "some position had a winning placement");
});

Deno.test("domineering: movesHelp marks with + exactly the first cells of the legal moves", () => {
  // Only boards larger than the default 6x6 have it: a smaller one lists its moves.
  assertEquals(build(domineering, { board: "6x6" }).movesHelp, undefined);
  const game = build(domineering, { board: "7x6" });
  for (const seed of [1, 2, 3]) {
    for (const { after } of playout(game, seed, 30)) {
      if (game.moves(after).length === 0) continue;
      const lines = game.movesHelp!(after).split("\n");
      const plus: string[] = [];
      lines.slice(0, 6).forEach((l, i) => {
        for (const m of l.matchAll(/\+/g)) plus.push(labelled(lines, 6, i, m.index!));
      });
      assertEquals(plus.sort(), game.moves(after).map((m) => game.formatMove(after, m)).sort());
    }
  }
});

// ---------------------------------------------------------------- the AI's strengths

/** Each plugin, the strengths it offers (in order) and where they are documented. */
const STRENGTH_CASES: readonly [AnyPlugin, readonly string[], string][] = [
  [nim, ["easy", "medium", "strong", "perfect"], "plugins/nim/mod.ts"],
  [tictactoe, ["easy", "medium", "strong", "perfect"], "plugins/tictactoe/mod.ts"],
  [kalah, ["easy", "medium", "strong", "perfect"], "plugins/kalah/README.md"],
  [game2048, ["easy", "medium", "strong"], "plugins/game2048/README.md"],
  [pentago, ["easy", "medium", "strong"], "plugins/pentago/README.md"],
  [domineering, ["easy", "medium", "strong", "perfect"], "plugins/domineering/README.md"],
];

const specOf = (plugin: AnyPlugin, spec: string) => {
  const r = parseSpec(spec, { ...allStrategies, ...plugin.strategies });
  assert(Result.isSuccess(r), `${plugin.id} '${spec}': ${Result.isFailure(r) ? r.failure : ""}`);
  const p = r.success;
  assert(p.kind === "search", `${plugin.id} '${spec}' is not a search`);
  return p as Extract<PlayerSpec, { kind: "search" }>;
};

Deno.test("strengths: valid specs, named as documented, each level searching more", () => {
  for (const [plugin, names] of STRENGTH_CASES) {
    const strengths = plugin.strengths ?? {};
    assertEquals(Object.keys(strengths), [...names], plugin.id);
    const specs = names.map((n) => specOf(plugin, strengths[n]));
    specs.forEach((b, i) => {
      const a = specs[i - 1];
      if (b.strategy === "randombest") assertEquals(i, 0, `${plugin.id}: randombest only for easy`);
      if (a === undefined || a.strategy === "randombest") return;
      const where = `${plugin.id} ${names[i - 1]} -> ${names[i]}`;
      if (names[i] === "perfect") return; // checked below: exact and unhurried
      assertEquals(b.strategy, a.strategy, where);
      // Deeper or longer than the level below (a depth may give way to a time).
      if (a.timeMs !== undefined) assert((b.timeMs ?? 0) > a.timeMs, where);
      else if (b.depth !== undefined) assert(b.depth > (a.depth ?? 0), where);
    });
    if (names.includes("perfect")) {
      const p = specs[names.indexOf("perfect")];
      const strategy = { ...allStrategies, ...plugin.strategies }[p.strategy];
      // An exact search with no time to run out of (a depth budget only).
      assertEquals(p.timeMs, undefined, `${plugin.id} perfect has a time limit`);
      assert(strategy !== undefined && strategy.solves !== false, `${plugin.id} perfect`);
    }
  }
});

Deno.test("strengths: each plugin's documentation has the same table, in the same order", async () => {
  for (const [plugin, , doc] of STRENGTH_CASES) {
    const text = await Deno.readTextFile(new URL(doc, root));
    const lines = text.split("\n").map((l) => l.replace(/^\s*\*\s?/, ""));
    const head = lines.findIndex((l) => /^\| strength\s*\| player spec\s*\|/.test(l));
    assert(head >= 0, `${doc} has no strength | player spec table`);
    const rows: [string, string][] = [];
    for (const l of lines.slice(head + 2)) {
      const m = /^\| `([^`]+)`\s*\| `([^`]+)`\s*\|/.exec(l);
      if (m === null) break;
      rows.push([m[1], m[2]]);
    }
    assertEquals(rows, Object.entries(plugin.strengths ?? {}), doc);
  }
});

/** The agent a strength names (with a small table). */
const strengthAgent = (plugin: AnyPlugin, name: string) =>
  agentFromSpec<unknown>(specOf(plugin, plugin.strengths![name]), {
    ...allStrategies,
    ...plugin.strategies,
  }, { ttMb: 1 });

const choose = (plugin: AnyPlugin, name: string, game: Game<unknown>, s: unknown, seed = 1) => {
  const choice = Effect.runSync(
    strengthAgent(plugin, name).choose(game, s).pipe(
      Effect.provide(scriptedTerminal([]).layer),
      Random.withSeed(seed),
    ),
  );
  assert(choice._tag === "Move");
  return choice.move;
};

/**
 * Random positions of a game (the states after a few random moves) where the choice
 * matters: `worth` (the exact value) differs between the moves, so a wrong one shows.
 */
const positions = (
  game: Game<unknown>,
  count: number,
  maxPlies: number,
  worth: (s: unknown) => number,
) => {
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let seed = 0; out.length < count && seed < 100 * count; seed++) {
    const steps = playout(game, seed, 1 + (seed % maxPlies));
    const s = steps.length === 0 ? game.initial() : steps[steps.length - 1].after;
    if (game.toMove(s) === CHANCE || seen.has(JSON.stringify(s))) continue;
    const values = new Set(game.moves(s).map((m) => worth(game.play(s, m))));
    if (values.size > 1) out.push(s);
    seen.add(JSON.stringify(s));
  }
  assertEquals(out.length, count, "enough positions where the move matters");
  return out;
};

Deno.test("tic-tac-toe strengths: perfect never loses to easy, and easy can be beaten", () => {
  const game = build(tictactoe);
  let perfectWins = 0;
  for (let seed = 1; seed <= 6; seed++) {
    for (const perfectSide of [0, 1] as const) {
      let s = game.initial();
      while (game.moves(s).length > 0) {
        const name = game.toMove(s) === perfectSide ? "perfect" : "easy";
        s = game.play(s, choose(tictactoe, name, game, s, seed * 10 + game.moves(s).length));
      }
      const winner = game.outcome(s)!.winner;
      assert(winner !== 1 - perfectSide, `perfect lost as ${game.players[perfectSide]}`);
      if (winner === perfectSide) perfectWins++;
    }
  }
  assert(perfectWins > 0, "easy was never beaten");
});

const exactValue = (game: Game<unknown>) => exactMargin(game);

Deno.test("nim strengths: perfect always moves to a position of nim-sum 0 when it can", () => {
  const game = build(nim, { heaps: [3, 4, 5], misere: false });
  const nimSum = (s: unknown) => (s as number[]).slice(0, 3).reduce((a, b) => a ^ b, 0);
  // The positions where a move to nim-sum 0 exists and others do not reach it.
  for (const s of positions(game, 20, 8, (x) => nimSum(x) === 0 ? 1 : 0)) {
    assertEquals(nimSum(game.play(s, choose(nim, "perfect", game, s))), 0, JSON.stringify(s));
  }
  // Misère play, against plain minimax to the end.
  const misere = build(nim, { heaps: [1, 2, 3, 1], misere: true });
  const exact = (s: unknown) => minimaxSearch(misere, s, { depth: 100 }).value;
  for (const s of positions(misere, 10, 5, exact)) {
    const after = misere.play(s, choose(nim, "perfect", misere, s));
    assertEquals(exact(after), exact(s), JSON.stringify(s));
  }
});

Deno.test("kalah and domineering strengths: perfect keeps the exact value of small boards", () => {
  const cases: [AnyPlugin, Record<string, unknown>, number][] = [
    [kalah, { pits: 3, stones: 2, capture: "nonempty" }, 12],
    [kalah, { pits: 3, stones: 2, capture: "always" }, 12],
    // Critical positions where a shallow search errs: 1 in 10 on 4x5 (width 4, height 5).
    [domineering, { board: "4x5" }, 30],
    [domineering, { board: "4x4", first: "V" }, 12],
  ];
  for (const [plugin, options, count] of cases) {
    const game = build(plugin, options);
    const exact = exactValue(game);
    for (const s of positions(game, count, 8, exact)) {
      const after = game.play(s, choose(plugin, "perfect", game, s));
      assertEquals(exact(after), exact(s), `${plugin.id} ${JSON.stringify(options)} ${s}`);
    }
  }
});

/** A reference to a seed (a spec document), which a player's text never makes. */
const SEED_REFERENCE = /seed ?\d{3}/i;

Deno.test("what a player reads names no seed: options, strategies, rules, strengths", () => {
  const texts: [string, string][] = [];
  const strategyTexts = (
    where: string,
    strategies: Readonly<Record<string, Strategy>> | undefined,
  ) => {
    for (const st of Object.values(strategies ?? {})) {
      texts.push([`${where} strategy ${st.name}`, st.description]);
      for (const [k, p] of Object.entries(st.params ?? {})) {
        texts.push([`${where} strategy ${st.name},${k}`, p.description]);
      }
    }
  };
  strategyTexts("engine", allStrategies);
  for (const plugin of [nim, tictactoe, kalah, game2048, pentago, domineering] as AnyPlugin[]) {
    texts.push([`${plugin.id} name`, plugin.name], [
      `${plugin.id} description`,
      plugin.description,
    ]);
    texts.push([`${plugin.id} rules`, plugin.rules ?? ""]);
    for (const o of optionHelp(plugin)) {
      // The form's and the menu's words: the description and the values to choose from.
      texts.push([`${plugin.id} --${o.name}`, `${o.description} ${o.expected}`]);
    }
    for (const [k, v] of Object.entries(plugin.strengths ?? {})) {
      texts.push([`${plugin.id} strength ${k}`, `${k} ${v}`]);
    }
    strategyTexts(plugin.id, plugin.strategies);
  }
  assert(texts.length > 50, `${texts.length} texts`);
  const named = texts.filter(([, t]) => SEED_REFERENCE.test(t));
  assertEquals(named, [], "texts that name a seed");
});
