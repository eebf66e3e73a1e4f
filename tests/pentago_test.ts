/**
 * Pentago's rules, bitboards and notation: rotations, fives in every direction, the
 * official-rules point (a five made by the placement wins before the twist), fives for
 * both after a twist, the full-board draw, the text board, notation and its errors, and
 * the bitboards agreeing with the plain board over random games.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { Result } from "../core/deps.ts";
import { makeRng } from "../core/rng.ts";
import {
  CELL_BIT,
  CELL_HALF,
  hasFive,
  LINE_CELLS,
  POPCOUNT,
  ROT_CCW,
  ROT_CW,
  rotateCwNaive,
  rotateHalf,
} from "../plugins/pentago/board.ts";
import pentago, { pentagoGame } from "../plugins/pentago/mod.ts";
import { naiveFive, naiveGame, naiveRotate } from "../plugins/pentago/naive.ts";
import {
  BLACK_WON,
  DRAW,
  fromCells,
  NO_TWIST,
  ONGOING,
  type PentagoState,
  play,
  toCells,
  WHITE_WON,
} from "../plugins/pentago/rules.ts";

const game = pentagoGame();

/** Parses a move that must be legal. */
const mv = (s: PentagoState, text: string): number => {
  const r = game.parseMove(s, text);
  if (Result.isFailure(r)) throw new Error(`'${text}': ${r.failure}`);
  assert(game.moves(s).includes(r.success), `'${text}' is not legal`);
  return r.success;
};

/** A state from a picture: six rows top to bottom, `o` white, `x` black, `.` empty. */
const board = (rows: string): PentagoState =>
  fromCells(
    rows.replace(/\s+/g, "").split("").map((ch) => (ch === "o" ? 1 : ch === "x" ? 2 : 0)),
  );

const parseError = (s: PentagoState, text: string): string => {
  const r = game.parseMove(s, text);
  assert(Result.isFailure(r), `'${text}' should not parse`);
  return r.failure;
};

Deno.test("pentago rotations: 4 clockwise = identity, cw then ccw = identity, table = naive", () => {
  for (let q = 0; q < 512; q++) {
    assertEquals(ROT_CW[ROT_CW[ROT_CW[ROT_CW[q]]]], q);
    assertEquals(ROT_CCW[ROT_CW[q]], q);
    assertEquals(ROT_CW[ROT_CCW[q]], q);
    assertEquals(ROT_CW[q], rotateCwNaive(q));
    assertEquals(POPCOUNT[ROT_CW[q]], POPCOUNT[q]);
  }
  // Clockwise: the top-left corner goes to the top-right, the top-right to bottom-right.
  assertEquals(ROT_CW[0b000000001], 0b000000100);
  assertEquals(ROT_CW[0b000000100], 0b100000000);
  assertEquals(ROT_CW[0b000010000], 0b000010000); // the centre stays
});

Deno.test("pentago rotations: the bitboard twist equals the coordinate twist on the board", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 36, maxLength: 36 }),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 1 }),
      (cells, q, dir) => {
        const h = [0, 0, 0, 0];
        cells.forEach((v, c) => {
          if (v > 0) h[(v - 1) * 2 + CELL_HALF[c]] |= CELL_BIT[c];
        });
        const rot = dir === 0 ? ROT_CW : ROT_CCW;
        const half = q < 2 ? 0 : 1;
        for (const p of [0, 1]) h[p * 2 + half] = rotateHalf(h[p * 2 + half], q & 1, rot);
        const out = Array.from({ length: 36 }, (_, c) => {
          const bit = CELL_BIT[c], hf = CELL_HALF[c];
          return h[hf] & bit ? 1 : h[2 + hf] & bit ? 2 : 0;
        });
        assertEquals(out, naiveRotate(cells, q, dir));
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("pentago fives: all 32 lines in every direction, and no false fives", () => {
  assertEquals(LINE_CELLS.length, 32);
  const dirs = new Set<string>();
  for (const line of LINE_CELLS) {
    const cells = new Array(36).fill(0);
    for (const c of line) cells[c] = 1;
    const h = [0, 0];
    for (const c of line) h[CELL_HALF[c]] |= CELL_BIT[c];
    assert(hasFive(h[0], h[1]), `line ${line} is a five`);
    assert(naiveFive(cells, 1));
    // Four of the five are not a five.
    const h4 = [0, 0];
    for (const c of line.slice(1)) h4[CELL_HALF[c]] |= CELL_BIT[c];
    assert(!hasFive(h4[0], h4[1]));
    const dr = Math.floor(line[1] / 6) - Math.floor(line[0] / 6);
    const dc = (line[1] % 6) - (line[0] % 6);
    dirs.add(`${dr},${dc}`);
  }
  assertEquals([...dirs].sort(), ["0,1", "1,-1", "1,0", "1,1"]);
  // A five wrapped around a row's end is not a five: e6 f6 a5 b5 c5.
  const h = [0, 0];
  for (const c of [4, 5, 6, 7, 8]) h[CELL_HALF[c]] |= CELL_BIT[c];
  assert(!hasFive(h[0], h[1]));
  // Random boards: the bitboard test agrees with walking the board.
  fc.assert(
    fc.property(fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }), (bits) => {
      const hh = [0, 0];
      bits.forEach((b, c) => {
        if (b) hh[CELL_HALF[c]] |= CELL_BIT[c];
      });
      assertEquals(hasFive(hh[0], hh[1]), naiveFive(bits.map((b) => (b ? 1 : 0)), 1));
    }),
    { numRuns: 300 },
  );
});

Deno.test("pentago rules point: a five made by the placement wins at once, without a twist", () => {
  // White a6 b6 c6 d6 (white to move). e6 makes five; twisting NE afterwards would
  // break it (d6, e6 leave the top row), but the game ends before the twist.
  const s = board(`
    o o o o . .
    x x . . . .
    . . . . . .
    . . . . x x
    . . . . . .
    . . . . . .`);
  assertEquals(s.turn, 0);
  assertEquals(s.result, ONGOING);
  const ms = game.moves(s);
  const e6 = 4;
  assert(ms.includes(NO_TWIST + e6), "e6 alone is a move");
  for (let k = 0; k < 8; k++) assert(!ms.includes(e6 * 8 + k), "e6 takes no twist");
  assertEquals(ms.length, 1 + 8 * 27);
  assertEquals(game.formatMove(s, NO_TWIST + e6), "e6");
  // Typed with a twist, the twist is moot.
  assertEquals(mv(s, "e6 ne cw"), NO_TWIST + e6);
  assertEquals(mv(s, "e6"), NO_TWIST + e6);
  const after = game.play(s, NO_TWIST + e6);
  assertEquals(after.result, WHITE_WON);
  assertEquals(game.outcome(after), { winner: 0, margin: 1 });
  assertEquals(game.moves(after), []);
  // The board keeps the five as placed (no twist happened).
  assertEquals(toCells(after).slice(0, 6), [1, 1, 1, 1, 1, 0]);
  // Had the twist been made, NE clockwise would have broken the five.
  const placed = toCells(s);
  placed[e6] = 1;
  assert(!naiveFive(naiveRotate(placed, 1, 0), 1));
  // A non-winning cell still needs a twist, and the message says so.
  assertStringIncludes(parseError(s, "a4"), "needs a twist");
});

Deno.test("pentago rules point: the same holds for black, and play() of a twist code agrees", () => {
  const s = board(`
    o o . . . .
    x x x x . o
    . . . . . .
    . . . . . .
    . . . o . .
    . . . . . o`);
  assertEquals(s.turn, 1);
  const e5 = 10;
  assert(game.moves(s).includes(NO_TWIST + e5));
  assertEquals(game.play(s, NO_TWIST + e5).result, BLACK_WON);
  // Even a (non-listed) twist code on that cell ends the game at the placement.
  assertEquals(play(s, e5 * 8 + 3).result, BLACK_WON);
});

Deno.test("pentago: a twist that makes five for both players is a draw", () => {
  // Turning NE clockwise brings white to d6 e6 and black to d5 e5.
  const s = board(`
    o o o . . .
    x x x o x .
    . . . o x .
    . . . . . .
    . . . . . .
    . . . . . .`);
  assertEquals(s.turn, 0);
  const m = mv(s, "a1 ne cw");
  const after = game.play(s, m);
  assertEquals(after.result, DRAW);
  assertEquals(game.outcome(after), { winner: null, margin: 0 });
  assertEquals(game.value(after), 0);
  assertEquals(game.moves(after), []);
  // Anticlockwise instead: nobody has five.
  assertEquals(game.play(s, mv(s, "a1 ne ccw")).result, ONGOING);
});

Deno.test("pentago: a twist that makes five for the opponent only loses", () => {
  // White to move; turning NE clockwise brings black to d5 e5 (five on row 5) and white
  // to d6 e6, which is only four on row 6 (c6 is empty).
  const s = board(`
    o o . . . .
    x x x o x .
    . . . o x .
    . . . . . .
    . . . . . .
    . . . . . o`);
  assertEquals(s.turn, 0);
  assertEquals(game.play(s, mv(s, "a1 ne cw")).result, BLACK_WON);
  // The same twist by black (one more white marble, black to move) wins for black.
  const b = board(`
    o o . . . .
    x x x o x .
    . . . o x .
    . . . . . .
    . . . . . o
    . . . . . o`);
  assertEquals(b.turn, 1);
  assertEquals(game.play(b, mv(b, "a1 ne cw")).result, BLACK_WON);
});

Deno.test("pentago: a full board without five is a draw; the last move can draw", () => {
  const rows = `
    o o x x o o
    x x o o x x
    o o x x o o
    x x o o x x
    o o x x o o
    x x o o x x`;
  const full = board(rows);
  assertEquals(full.result, DRAW);
  assertEquals(game.moves(full), []);
  assertEquals(game.outcome(full), { winner: null, margin: 0 });
  // Empty f1 (a black cell): black's last marble and each twist, checked against the
  // plain board; the twists that make no five leave a full, drawn board.
  const s = board(rows.replace(/x x\s*$/, "x ."));
  assertEquals(s.turn, 1);
  const naive = naiveGame();
  const t = { cells: toCells(s), turn: 1 as const, result: ONGOING };
  let draws = 0;
  for (const m of game.moves(s)) {
    const a = game.play(s, m), b = naive.play(t, m);
    assertEquals(toCells(a), b.cells);
    assertEquals(a.result, b.result);
    if (a.result === DRAW) draws++;
  }
  assert(draws > 0, "some last move draws");
});

Deno.test("pentago: turn, possible placements and result are cached per state", () => {
  let s = game.initial();
  assertEquals([s.turn, s.result, s.free0, s.free1], [0, ONGOING, 0x3ffff, 0x3ffff]);
  s = game.play(s, mv(s, "c4 ne cw"));
  assertEquals(s.turn, 1);
  assertEquals(POPCOUNT[s.free0] + POPCOUNT[s.free1], 35);
  // The facts are plain fields, computed when the state was made.
  assertEquals(Object.keys(s).sort(), [
    "black0",
    "black1",
    "free0",
    "free1",
    "result",
    "turn",
    "white0",
    "white1",
  ]);
});

Deno.test("pentago notation: round trip of every move, aliases, and the board picture", () => {
  let s = game.initial();
  s = game.play(s, mv(s, "c4 ne cw"));
  s = game.play(s, mv(s, "d3 sw ccw"));
  for (const m of game.moves(s)) {
    const text = game.formatMove(s, m);
    assertEquals(mv(s, text), m, text);
    assertEquals(mv(s, text.toUpperCase()), m, text.toUpperCase());
    assertEquals(mv(s, text.replace(/ /g, "")), m, text.replace(/ /g, ""));
  }
  const e2NeCw = mv(s, "e2 ne cw");
  for (
    const alias of ["E2 NE CW", "e2necw", "e2 2 r", "e2, ne, clockwise", "e2 rt cw", "e2/ne/r"]
  ) {
    assertEquals(mv(s, alias), e2NeCw, alias);
  }
  for (const alias of ["e2 ne ccw", "e2 ne acw", "e2 ne l", "e2 ne anticlockwise", "e2 2 left"]) {
    assertEquals(mv(s, alias), e2NeCw + 1, alias);
  }
  assertEquals(mv(s, "a6 nw cw"), 0);
  assertEquals(mv(s, "f1 se ccw"), 35 * 8 + 7);
  assertEquals(
    game.render(s),
    [
      "    a b c   d e f",
      "  +-- nw -+-- ne -+",
      "6 | . . . | . . . | 6",
      "5 | . . . | . . . | 5",
      "4 | . . o | . . . | 4",
      "  +-- sw -+-- se -+",
      "3 | . . . | x . . | 3",
      "2 | . . . | . . . | 2",
      "1 | . . . | . . . | 1",
      "  +-------+-------+",
      "    a b c   d e f",
      "white (o) to move   (a move: cell quadrant cw|ccw, e.g. c4 ne cw)",
      "",
    ].join("\n"),
  );
});

Deno.test("pentago notation: clear errors", () => {
  const s = game.play(game.initial(), 14 * 8); // c4, NW cw (c4 is in the NW quadrant)
  assertStringIncludes(parseError(s, "hello"), "expected a move like 'c4 ne cw'");
  assertStringIncludes(parseError(s, "h4 ne cw"), "'h' is not a column");
  assertStringIncludes(parseError(s, ""), "expected a move like 'c4 ne cw'");
  assertStringIncludes(parseError(s, "42"), "expected a move like");
  assertStringIncludes(parseError(s, "g4 ne cw"), "'g' is not a column: columns are a-f");
  assertStringIncludes(parseError(s, "c7 ne cw"), "row 7 is off the board: rows are 1-6");
  assertStringIncludes(parseError(s, "c0 ne cw"), "row 0 is off the board");
  assertStringIncludes(parseError(s, "d4"), "d4 needs a twist after the placement");
  assertStringIncludes(parseError(s, "d4 ne"), "after the quadrant 'ne', expected a direction");
  assertStringIncludes(parseError(s, "d4 cw"), "expected a quadrant");
  assertStringIncludes(parseError(s, "d4 xx cw"), "'xx' is not a quadrant");
  assertStringIncludes(parseError(s, "d4 5 cw"), "can't read '5 cw'");
  assertStringIncludes(parseError(s, "d4 ne up"), "'up' is not a direction");
  assertStringIncludes(parseError(s, "d4 ne cw please"), "can't read");
  // c4, NW's bottom-right corner, went to NW's bottom-left corner, a4, with the twist.
  assertStringIncludes(parseError(s, "a4 ne cw"), "a4 is taken");
  const over = board(`
    o o o o o .
    x x x x . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .`);
  assertEquals(over.result, WHITE_WON);
  assertStringIncludes(parseError(over, "f1 ne cw"), "the game is over");
});

Deno.test("pentago: bitboards agree with the plain board over random games", () => {
  const naive = naiveGame();
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      const rng = makeRng(seed);
      let s = game.initial(), t = naive.initial();
      while (true) {
        const ms = game.moves(s);
        assertEquals(toCells(s), t.cells);
        assertEquals([s.turn, s.result], [t.turn, t.result]);
        assertEquals(ms, naive.moves(t));
        assertEquals(game.value(s), naive.value(t));
        assertEquals(game.outcome(s), naive.outcome(t));
        assertEquals(fromCells(toCells(s)), s, "a state is fixed by its board");
        if (ms.length === 0) break;
        const m = ms[rng.int(ms.length)];
        s = game.play(s, m);
        t = naive.play(t, m);
      }
    }),
    { numRuns: 40 },
  );
});

Deno.test("pentago plugin: options are validated with clear messages", async () => {
  const { Effect } = await import("../core/deps.ts");
  const { makeGame } = await import("../core/plugin.ts");
  const bad = Effect.runSync(
    Effect.result(makeGame(pentago, { eval: "magic", playouts: 0, dedup: true })),
  );
  assert(Result.isFailure(bad));
  const msg = bad.failure.message;
  assertStringIncludes(msg, "--eval");
  assertStringIncludes(msg, "--playouts");
  assertStringIncludes(msg, "--dedup: unknown option");
  const ok = Effect.runSync(makeGame(pentago, { eval: "playouts", playouts: 3, dedupe: true }));
  assertEquals(ok.options, {
    eval: "playouts",
    playouts: 3,
    shuffle: false,
    dedupe: true,
    aiSeed: 0,
  });
  assertEquals(pentago.defaultOpponent !== undefined, true);
});

Deno.test("pentago: a scripted human plays against MCTS (typed moves, errors, quit)", async () => {
  const { Effect } = await import("../core/deps.ts");
  const { runGame } = await import("../app/match.ts");
  const { humanAgent, searchAgent } = await import("../app/players/agents.ts");
  const { mctsStrategy } = await import("../core/search/strategies.ts");
  const { scriptedTerminal } = await import("../app/terminal.ts");
  const term = scriptedTerminal(["zz", "C4 NE CW", "d1", "quit"]);
  const { transcript } = Effect.runSync(
    runGame(game, [humanAgent(), searchAgent(mctsStrategy, { iterations: 50 })], { seed: 4 })
      .pipe(Effect.provide(term.layer)),
  );
  assertEquals(transcript.moves[0].notation, "c4 ne cw");
  assertEquals(transcript.moves.length, 2);
  assertEquals(transcript.result, { winner: 1, margin: 0, reason: "quit", by: 0 });
  assertStringIncludes(term.output(), "Can't play 'zz': expected a move like 'c4 ne cw'");
  assertStringIncludes(term.output(), "d1 needs a twist after the placement");
});
