/**
 * Rule edges of 2048, Pentago and Domineering on hand-built positions, where an
 * off-by-one, a swapped comparison or a dropped check changes the answer; each test names
 * the seed rule it checks (`/work/shared/seeds/`, the specification of record; Pentago's
 * win before the twist is the published rule its README states).
 *
 * Mutants this file was proven against (each made by hand, seen failing, restored):
 * - 2048 `slideLines`: a merged tile merging again (`pending = 0` dropped); the score
 *   replaced by the slide's gain; a slide without a merge taken for no move (`>= 0` as
 *   `> 0`)
 * - 2048 `canSlide`: the row or the column neighbour test dropped; `empty && tiles` as `||`;
 *   the game over on the computer's turn too; its margin not the score
 * - 2048 `tileChances`: 0.9 and 0.1 swapped, divided by the cells instead of the empty
 *   ones, the full cells listed; the 4's move bit swapped; the turn after a slide
 * - Pentago `boardResult`: fives for both not a draw, black's five for white, the full
 *   board read from one half (`&&` as `||`)
 * - Pentago `winningCells`: five marbles needed (`< 4` as `<= 4`), the missing cell's
 *   emptiness unchecked (either half); `legalMoves` listing twists of a winning cell
 * - Pentago `play`: either player's win by placement dropped (the typed twist made);
 *   bottom twists as top ones (`t < 4` as `<= 4`), clockwise and anticlockwise swapped,
 *   the quadrant's slot; the turn not passed
 * - Domineering: V's top row (`r + 1 < h` dropped in `movesFor`, `hasMove`, `moveCounts`),
 *   V's domino covering one cell, H's move needing one free cell, H's domino placed for
 *   V, the turn not passed, `outcome` asking the opponent, its winner or margin swapped,
 *   `stateValue`'s win (either test) and turn term swapped or dropped, V and H swapped
 * (Equivalent, not killable: 2048's `src[write] !== out` change test, Domineering's
 * `s >>> 1` pair count as `s << 1`.)
 */
import { assert, assertAlmostEquals, assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE, type Game, WIN } from "../core/game.ts";
import { makeGame } from "../core/plugin.ts";
import {
  createGame,
  DOWN,
  FIRST_TILE_MOVE,
  LEFT,
  RIGHT,
  type State2048,
  tileMove,
  UP,
} from "../plugins/game2048/rules.ts";
import {
  BLACK_WON,
  CCW,
  CW,
  DRAW,
  fromCells,
  legalMoves,
  NO_TWIST,
  ONGOING,
  type PentagoState,
  play as pentagoPlay,
  toCells,
  WHITE_WON,
} from "../plugins/pentago/rules.ts";
import { pentagoGame } from "../plugins/pentago/mod.ts";
import domineering from "../plugins/domineering/mod.ts";
import type { DomState } from "../plugins/domineering/board.ts";

// ---------------------------------------------------------------------------------------
// 2048 (seed 001): a state is the cells in reading order, the turn (0 slider, 1 computer)
// and the score.

/** A slider's position on a w x h grid with a score. */
const slider = (cells: readonly number[], score = 0): State2048 => [...cells, 0, score];

/** The grid after a slide, and the score. */
const slid = (w: number, h: number, cells: readonly number[], dir: number, score = 0) => {
  const g = createGame(w, h, "gradient");
  const s = g.play(slider(cells, score), dir);
  return { cells: s.slice(0, w * h), turn: s[w * h], score: s[w * h + 1] };
};

Deno.test("2048 (seed 001): 2 2 2 2 slides to 4 4, each tile merged once, from the side slid to", () => {
  assertEquals(slid(4, 1, [2, 2, 2, 2], LEFT), { cells: [4, 4, 0, 0], turn: 1, score: 8 });
  assertEquals(slid(4, 1, [2, 2, 2, 2], RIGHT).cells, [0, 0, 4, 4]);
  // Three equal tiles: the pair at the side slid to merges, the third stays.
  assertEquals(slid(4, 1, [2, 2, 2, 0], LEFT).cells, [4, 2, 0, 0]);
  assertEquals(slid(4, 1, [2, 2, 2, 0], RIGHT).cells, [0, 0, 2, 4]);
  // The seed's examples: zeros removed first, then merged, then padded.
  assertEquals(slid(4, 1, [2, 0, 2, 2], LEFT).cells, [4, 2, 0, 0]);
  assertEquals(slid(3, 1, [2, 2, 4], LEFT), { cells: [4, 4, 0], turn: 1, score: 4 });
  assertEquals(slid(4, 1, [2, 0, 0, 2], RIGHT), { cells: [0, 0, 0, 4], turn: 1, score: 4 });
  // Columns slide as rows do: up towards the top row, down towards the bottom one.
  assertEquals(slid(1, 4, [2, 2, 2, 2], UP).cells, [4, 4, 0, 0]);
  assertEquals(slid(1, 4, [2, 2, 2, 2], DOWN).cells, [0, 0, 4, 4]);
  assertEquals(slid(1, 4, [0, 2, 2, 2], UP).cells, [4, 2, 0, 0]);
  assertEquals(slid(1, 4, [0, 2, 2, 2], DOWN).cells, [0, 0, 2, 4]);
});

Deno.test("2048 (seed 001): a merged tile does not merge again in the same slide: 4 4 8 is 8 8", () => {
  assertEquals(slid(4, 1, [4, 4, 8, 0], LEFT), { cells: [8, 8, 0, 0], turn: 1, score: 8 });
  assertEquals(slid(3, 1, [8, 4, 4], RIGHT), { cells: [0, 8, 8], turn: 1, score: 8 });
  assertEquals(slid(4, 1, [2, 2, 4, 8], LEFT), { cells: [4, 4, 8, 0], turn: 1, score: 4 });
  // Different tiles with a gap close up without merging: no score.
  assertEquals(slid(4, 1, [2, 0, 4, 0], LEFT), { cells: [2, 4, 0, 0], turn: 1, score: 0 });
  // Two rows slide independently; the score is the sum of both rows' merges.
  assertEquals(slid(3, 2, [2, 2, 0, 8, 0, 8], LEFT), {
    cells: [4, 0, 0, 16, 0, 0],
    turn: 1,
    score: 20,
  });
});

Deno.test("2048: the score is added to the score so far", () => {
  assertEquals(slid(4, 1, [2, 2, 4, 4], LEFT, 100), {
    cells: [4, 8, 0, 0],
    turn: 1,
    score: 112,
  });
  assertEquals(slid(4, 1, [2, 4, 0, 0], RIGHT, 100).score, 100);
});

Deno.test("2048 (seed 001): a slide that changes nothing is no move", () => {
  const g = createGame(4, 1, "gradient");
  // Packed to the left, nothing to merge: only right; a single row has no up or down.
  assertEquals(g.moves(slider([2, 4, 0, 0])), [RIGHT]);
  assertEquals(g.moves(slider([0, 0, 2, 4])), [LEFT]);
  assertEquals(g.moves(slider([0, 2, 4, 0])), [LEFT, RIGHT]);
  // Full, but a merge: both ways.
  assertEquals(g.moves(slider([2, 2, 4, 8])), [LEFT, RIGHT]);
  const tall = createGame(1, 3, "gradient");
  assertEquals(tall.moves(slider([2, 4, 0])), [DOWN]);
  assertEquals(tall.moves(slider([0, 4, 2])), [UP]);
  // A 2x2 grid: a merge down a column allows up and down only.
  const sq = createGame(2, 2, "gradient");
  assertEquals(sq.moves(slider([2, 4, 2, 8])), [UP, DOWN]);
  assertEquals(sq.moves(slider([2, 2, 4, 8])), [LEFT, RIGHT]);
});

Deno.test("2048: the game is over only when the grid is full and no neighbours are equal", () => {
  const sq = createGame(2, 2, "gradient");
  const over = slider([2, 4, 4, 2], 36);
  assertEquals(sq.moves(over), []);
  assertEquals(sq.outcome(over), { winner: null, margin: 36 });
  // Equal neighbours in a row, or in a column (at the right or the bottom edge too).
  for (const cells of [[2, 2, 4, 8], [2, 4, 8, 8], [2, 4, 2, 8], [2, 4, 8, 4]]) {
    assertEquals(sq.outcome(slider(cells)), undefined, `${cells}`);
    assert(sq.moves(slider(cells)).length > 0, `${cells}`);
  }
  // One empty cell: not over.
  assertEquals(sq.outcome(slider([2, 4, 0, 2])), undefined);
  // A full grid on the computer's turn is no end (the slider has not been asked).
  assertEquals(sq.outcome([2, 4, 4, 2, 1, 0]), undefined);
  // A single row, full and without merges.
  const row = createGame(4, 1, "gradient");
  assertEquals(row.outcome(slider([2, 4, 2, 4], 8)), { winner: null, margin: 8 });
  assertEquals(row.outcome(slider([2, 4, 4, 2])), undefined);
  const column = createGame(1, 4, "gradient");
  assertEquals(column.outcome(slider([2, 4, 2, 4])), { winner: null, margin: 0 });
  assertEquals(column.outcome(slider([2, 4, 4, 2])), undefined);
});

Deno.test("2048 (seed 001): a new tile on each empty cell, a 2 with 0.9/n, a 4 with 0.1/n", () => {
  const g = createGame(2, 2, "gradient");
  // Two empty cells, 1 and 2 (reading order): four chances.
  const s: State2048 = [8, 0, 0, 2, 1, 0];
  assertEquals(g.toMove(s), CHANCE);
  const chances = g.chances(s);
  assertEquals(chances.map((c) => c.move), [
    tileMove(1, 2),
    tileMove(1, 4),
    tileMove(2, 2),
    tileMove(2, 4),
  ]);
  for (const [i, c] of chances.entries()) assertAlmostEquals(c.p, i % 2 === 0 ? 0.45 : 0.05);
  assertAlmostEquals(chances.reduce((t, c) => t + c.p, 0), 1);
  assertEquals(g.moves(s), chances.map((c) => c.move));
  // A 4 on cell 2: that cell only, the slider's turn, the score unchanged.
  assertEquals(g.play(s, tileMove(2, 4)), [8, 0, 4, 2, 0, 0]);
  assertEquals(g.play(s, tileMove(1, 2)), [8, 2, 0, 2, 0, 0]);
  assertEquals(g.formatMove(s, tileMove(2, 4)), "NewTile (0,1) 4");
  // One empty cell: 0.9 and 0.1; the empty grid: 0.9/4 and 0.1/4 on every cell.
  assertEquals(g.chances([8, 4, 0, 2, 1, 0]).map((c) => c.p), [0.9, 0.1]);
  const start = g.chances(g.initial());
  assertEquals(start.length, 8);
  for (const [i, c] of start.entries()) assertAlmostEquals(c.p, i % 2 === 0 ? 0.225 : 0.025);
  // The slider's turn lists no chances; a slide's moves are below the tiles'.
  assertEquals(g.chances(slider([8, 0, 0, 2])), []);
  assert(g.moves(slider([8, 0, 0, 2])).every((m) => m < FIRST_TILE_MOVE));
});

// ---------------------------------------------------------------------------------------
// Pentago (seed 002): 36 cells in reading order (row 6 first, a to f), 0 empty, 1 white,
// 2 black; a move is `cell * 8 + quadrant * 2 + direction` (quadrants nw ne sw se, 0
// clockwise, 1 anticlockwise), or `NO_TWIST + cell` for a winning placement.

/** A board from marks at named cells: `o` white, `x` black. */
const board = (white: readonly string[], black: readonly string[]): PentagoState => {
  const cells = new Array(36).fill(0);
  const at = (name: string) => (6 - Number(name[1])) * 6 + "abcdef".indexOf(name[0]);
  for (const c of white) cells[at(c)] = 1;
  for (const c of black) cells[at(c)] = 2;
  return fromCells(cells);
};
const cellOf = (name: string) => (6 - Number(name[1])) * 6 + "abcdef".indexOf(name[0]);
const twist = (cell: string, quadrant: number, dir: number) =>
  cellOf(cell) * 8 + quadrant * 2 + dir;
const NW = 0, NE = 1, SW = 2, SE = 3;

Deno.test("pentago: a five made by the twist wins; the other direction makes none", () => {
  // White's column a6 a5 a4 turns, clockwise, into the row a6 b6 c6, beside d6 e6.
  const s = board(["a6", "a5", "a4", "d6", "e6"], ["b2", "c2", "e2", "e3", "f5"]);
  assertEquals(s.turn, 0);
  assertEquals(s.result, ONGOING);
  const cw = twist("f1", NW, CW), ccw = twist("f1", NW, CCW);
  const moves = legalMoves(s, { dedupe: false });
  assert(moves.includes(cw) && moves.includes(ccw), "twists of f1 are listed");
  assert(!moves.includes(NO_TWIST + cellOf("f1")), "f1 alone makes no five");
  const won = pentagoPlay(s, cw);
  assertEquals(won.result, WHITE_WON);
  assertEquals(toCells(won).slice(0, 6), [1, 1, 1, 1, 1, 0]);
  // Anticlockwise, the column becomes row 4: a4 b4 c4, no five.
  const turned = pentagoPlay(s, ccw);
  assertEquals(turned.result, ONGOING);
  assertEquals(toCells(turned).slice(12, 15), [1, 1, 1]);
  assertEquals(turned.turn, 1);
  // The same for black.
  const b = board(["b2", "c2", "e2", "e3", "f5", "f2"], ["a6", "a5", "a4", "d6", "e6"]);
  assertEquals(b.turn, 1);
  assertEquals(pentagoPlay(b, twist("f1", NW, CW)).result, BLACK_WON);
  assertEquals(pentagoPlay(b, twist("f1", NW, CCW)).result, ONGOING);
  // A bottom quadrant: white's a3 a2 a1 turn, clockwise, into the row a3 b3 c3.
  const low = board(["a3", "a2", "a1", "d3", "e3"], ["b6", "c6", "e6", "e5", "f4"]);
  const lowWon = pentagoPlay(low, twist("f6", SW, CW));
  assertEquals(lowWon.result, WHITE_WON);
  assertEquals(toCells(lowWon).slice(18, 24), [1, 1, 1, 1, 1, 0]);
  const lowTurned = pentagoPlay(low, twist("f6", SW, CCW));
  assertEquals(lowTurned.result, ONGOING);
  assertEquals(toCells(lowTurned).slice(30, 33), [1, 1, 1]);
  // The top quadrants are untouched by a bottom twist.
  assertEquals(
    toCells(lowWon).slice(0, 18),
    toCells(low).slice(0, 18).map((v, i) => i === 5 ? 1 : v),
  );
});

Deno.test("pentago: a twist that makes the opponent's five alone loses; fives for both draw", () => {
  // White to move turns black's column a6 a5 a4 into black's row 6.
  const handed = board(["b2", "c2", "e2", "e3", "f5"], ["a6", "a5", "a4", "d6", "e6"]);
  assertEquals(handed.turn, 0);
  assertEquals(pentagoPlay(handed, twist("f1", NW, CW)).result, BLACK_WON);
  // And black to move turns white's.
  const given = board(["a6", "a5", "a4", "d6", "e6", "f2"], ["b2", "c2", "e2", "e3", "f5"]);
  assertEquals(pentagoPlay(given, twist("f1", NW, CW)).result, WHITE_WON);
  // White's a-column becomes row 6 (with d6 e6), black's c-column row 4 (with d4 e4).
  const both = board(["a6", "a5", "a4", "d6", "e6"], ["c6", "c5", "c4", "d4", "e4"]);
  assertEquals(both.result, ONGOING);
  const drawn = pentagoPlay(both, twist("f1", NW, CW));
  assertEquals(drawn.result, DRAW);
  assertEquals(pentagoGame().outcome(drawn), { winner: null, margin: 0 });
  // Black to move, the same twist: a draw too.
  const both1 = board(["a6", "a5", "a4", "d6", "e6", "f2"], ["c6", "c5", "c4", "d4", "e4"]);
  assertEquals(pentagoPlay(both1, twist("f1", NW, CW)).result, DRAW);
  assertEquals(pentagoGame().moves(drawn), []);
});

Deno.test("pentago (published rules, README): a five made by the placement wins before the twist", () => {
  // Four in row 6 and e6 empty: e6 alone is the move, its twists are not listed.
  const s = board(["a6", "b6", "c6", "d6"], ["a1", "b1", "c1", "e1"]);
  const moves = legalMoves(s, { dedupe: false });
  assert(moves.includes(NO_TWIST + cellOf("e6")));
  for (let k = 0; k < 8; k++) assert(!moves.includes(cellOf("e6") * 8 + k), `e6 twist ${k}`);
  // Other cells keep their eight twists; only e6 wins by placement.
  assertEquals(moves.filter((m) => m >= NO_TWIST), [NO_TWIST + cellOf("e6")]);
  assertEquals(moves.length, 1 + 8 * (36 - 8 - 1));
  const won = pentagoPlay(s, NO_TWIST + cellOf("e6"));
  assertEquals(won.result, WHITE_WON);
  assertEquals(pentagoGame().outcome(won), { winner: 0, margin: 1 });
  // The twist that would follow (ne clockwise moves e6 away) is not made.
  const typed = pentagoPlay(s, twist("e6", NE, CW));
  assertEquals(typed.result, WHITE_WON);
  assertEquals(toCells(typed), toCells(won));
  assertEquals(toCells(won).slice(0, 6), [1, 1, 1, 1, 1, 0]);
  // Six in a row counts: a6 b6 c6 e6 f6, then d6.
  const six = board(["a6", "b6", "c6", "e6", "f6"], ["a1", "b1", "c1", "e1", "f1"]);
  assert(legalMoves(six, { dedupe: false }).includes(NO_TWIST + cellOf("d6")));
  assertEquals(pentagoPlay(six, NO_TWIST + cellOf("d6")).result, WHITE_WON);
  // Black's placement wins the same way; white's four do not make it a win for black.
  const black = board(["a6", "b6", "c6", "f3", "f4"], ["a2", "b2", "c2", "d2"]);
  assertEquals(black.turn, 1);
  const bm = legalMoves(black, { dedupe: false }).filter((m) => m >= NO_TWIST);
  assertEquals(bm, [NO_TWIST + cellOf("e2")]);
  assertEquals(pentagoPlay(black, NO_TWIST + cellOf("e2")).result, BLACK_WON);
  // With a twist typed (se clockwise would move d2 out of the row): still won, untwisted.
  const blackTyped = pentagoPlay(black, twist("e2", SE, CW));
  assertEquals(blackTyped.result, BLACK_WON);
  assertEquals(toCells(blackTyped), toCells(pentagoPlay(black, NO_TWIST + cellOf("e2"))));
  // The missing cell taken by the opponent: no placement wins, in either half, or in a
  // column across both.
  for (
    const [white, black] of [
      [["a6", "b6", "c6", "d6"], ["e6", "a1", "b1", "c1"]],
      [["a2", "b2", "c2", "d2"], ["e2", "a6", "b6", "c6"]],
      [["a6", "a5", "a4", "a3"], ["a2", "c1", "d1", "e1"]],
      [["b6", "b5", "b4", "b3"], ["b2", "c1", "d1", "b1"]],
    ]
  ) {
    const blocked = board(white, black);
    assertEquals(
      legalMoves(blocked, { dedupe: false }).filter((m) => m >= NO_TWIST),
      [],
      `${white} blocked by ${black}`,
    );
  }
  // Three in a row and a gap of two: no placement wins.
  const three = board(["a6", "b6", "c6"], ["a1", "b1", "c1"]);
  assertEquals(legalMoves(three, { dedupe: false }).filter((m) => m >= NO_TWIST), []);
  // A diagonal five by placement: a1 b2 c3 d4, then e5.
  const diag = board(["a1", "b2", "c3", "d4"], ["f1", "f2", "f3", "e1"]);
  assertEquals(
    legalMoves(diag, { dedupe: false }).filter((m) => m >= NO_TWIST),
    [NO_TWIST + cellOf("e5")],
  );
});

Deno.test("pentago: a full board without five is a draw; a full half is not", () => {
  // Pairs alternating by row, rows shifted: no line holds more than two of a colour.
  const rows = ["oo xx oo", "xx oo xx", "oo xx oo", "xx oo xx", "oo xx oo", "xx oo x."];
  const cells = rows.flatMap((r) =>
    [...r.replaceAll(" ", "")].map((c) => (c === "o" ? 1 : c === "x" ? 2 : 0))
  );
  const s = fromCells(cells);
  assertEquals([s.turn, s.result], [1, ONGOING]);
  // Black's last marble on f1, with every twist: a draw where no five appears.
  const g = pentagoGame({ dedupe: false });
  const last = g.moves(s);
  assertEquals(last.length, 8);
  const fives = (t: PentagoState, mark: number) => {
    const c = toCells(t);
    const line = (r: number, k: number, dr: number, dk: number) =>
      [0, 1, 2, 3, 4].every((i) => c[(r + i * dr) * 6 + k + i * dk] === mark);
    for (let r = 0; r < 6; r++) {
      for (let k = 0; k < 6; k++) {
        if (k <= 1 && line(r, k, 0, 1)) return true;
        if (r <= 1 && line(r, k, 1, 0)) return true;
        if (r <= 1 && k <= 1 && line(r, k, 1, 1)) return true;
        if (r <= 1 && k >= 4 && line(r, k, 1, -1)) return true;
      }
    }
    return false;
  };
  let draws = 0;
  for (const m of last) {
    const t = g.play(s, m);
    const w = fives(t, 1), b = fives(t, 2);
    const want = w && b ? DRAW : w ? WHITE_WON : b ? BLACK_WON : DRAW;
    assertEquals(t.result, want, `move ${g.formatMove(s, m)}`);
    if (!w && !b) draws++;
    assertEquals(g.moves(t), []);
  }
  assert(draws > 0, "some last move fills the board without a five");
  // The top half full (no five) and the bottom half not: the game goes on.
  const top = cells.map((v, i) => (i < 18 ? v : 0));
  top[18] = 1, top[19] = 2, top[20] = 2;
  const half = fromCells(top);
  assertEquals(half.result, ONGOING);
  // And the bottom half full, the top half not.
  const bottom = cells.map((v, i) => (i >= 18 ? (i === 35 ? 2 : v) : 0));
  bottom[0] = 1, bottom[1] = 1, bottom[2] = 1;
  assertEquals(fromCells(bottom).result, ONGOING);
});

// ---------------------------------------------------------------------------------------
// Domineering (seed 003): V (player 0) places vertical dominoes, H (player 1) horizontal
// ones; the player to move who cannot loses. Moves name the domino's lower-left cell.

const dom = (board: string, first: "H" | "V" | "auto" = "auto"): Game<DomState> =>
  Effect.runSync(makeGame(domineering, { board, first })).game as Game<DomState>;

Deno.test("domineering (seed 003): H lies across, V stands up; width x height as named", () => {
  // 3 wide, 1 high: H has two places, V none.
  const wide = dom("3x1", "H");
  assertEquals(wide.moves(wide.initial()).map((m) => wide.formatMove(wide.initial(), m)), [
    "a1",
    "b1",
  ]);
  const wideV = dom("3x1", "V");
  assertEquals(wideV.moves(wideV.initial()), []);
  assertEquals(wideV.outcome(wideV.initial()), { winner: 1, margin: -1 });
  // 1 wide, 3 high: V has two, H none.
  const tall = dom("1x3", "V");
  assertEquals(tall.moves(tall.initial()).map((m) => tall.formatMove(tall.initial(), m)), [
    "a1",
    "a2",
  ]);
  const tallH = dom("1x3", "H");
  assertEquals(tallH.moves(tallH.initial()), []);
  assertEquals(tallH.outcome(tallH.initial()), { winner: 0, margin: 1 });
  // `auto`: H starts on a rectangle.
  assertEquals(dom("2x3").toMove(dom("2x3").initial()), 1);
});

Deno.test("domineering: the moves of every rectangle, 1xN and Nx1 included", () => {
  for (let w = 1; w <= 6; w++) {
    for (let h = 1; h <= 6; h++) {
      const H = dom(`${w}x${h}`, "H"), V = dom(`${w}x${h}`, "V");
      assertEquals(H.moves(H.initial()).length, (w - 1) * h, `${w}x${h} H`);
      assertEquals(V.moves(V.initial()).length, w * (h - 1), `${w}x${h} V`);
    }
  }
});

Deno.test("domineering: V's domino covers the cell above, H's the cell to the right", () => {
  const g = dom("3x3", "V");
  const s0 = g.initial();
  const at = (s: DomState, name: string) => {
    const r = g.parseMove(s, name);
    assert(r._tag === "Success", `${name}: ${JSON.stringify(r)}`);
    return r.success;
  };
  // V on a1 takes a1 and a2; H then has every row but on a1 and a2.
  const s1 = g.play(s0, at(s0, "a1"));
  assertEquals(g.toMove(s1), 1);
  assertEquals(g.moves(s1).map((m) => g.formatMove(s1, m)), ["a3", "b1", "b2", "b3"]);
  // H on b1 takes b1 and c1. V's column a: a3 is free, but nothing above it; V's
  // covered a1 below the board's top row must not count as free above a3.
  const s2 = g.play(s1, at(s1, "b1"));
  assertEquals(g.toMove(s2), 0);
  assertEquals(g.moves(s2).map((m) => g.formatMove(s2, m)), ["b2", "c2"]);
  // The heuristic (seed 003's score): V's moves minus H's, less one for the mover V.
  // V has b2, c2; H has a3-b3, b3-c3, b2-c2: 2 - 3 - 1.
  assertEquals(g.value(s2), -2);
  // V on c2 takes c2 and c3: H has a3-b3 alone.
  const s3 = g.play(s2, at(s2, "c2"));
  assertEquals(g.moves(s3).map((m) => g.formatMove(s3, m)), ["a3"]);
  // For H to move, the turn term is +1: V's 1 (b2) minus H's 1 (a3) plus 1.
  assertEquals(g.value(s3), 1);
  const s4 = g.play(s3, at(s3, "a3"));
  // V to move with b2-b3 gone (a3-b3 took b3): stuck, H won.
  assertEquals(g.moves(s4), []);
  assertEquals(g.outcome(s4), { winner: 1, margin: -1 });
  assertEquals(g.value(s4), -WIN);
});

Deno.test("domineering (seed 003): the last player to move wins, whoever is stuck first", () => {
  // The opponent stuck is not the end while the mover can play: 1x3, V to move.
  const tall = dom("1x3", "V");
  assertEquals(tall.outcome(tall.initial()), undefined);
  const after = tall.play(tall.initial(), tall.moves(tall.initial())[0]);
  assertEquals(tall.outcome(after), { winner: 0, margin: 1 });
  assertEquals(tall.value(after), WIN);
  // Random games on rectangles (non-square and 1xN among them), either player first:
  // the game ends when the mover has no move, and the other player, who moved last, won.
  const shapes = ["1x4", "4x1", "2x3", "3x2", "2x5", "5x2", "3x4", "4x4", "1x1"];
  fc.assert(
    fc.property(
      fc.constantFrom(...shapes),
      fc.constantFrom("H" as const, "V" as const),
      fc.array(fc.nat(), { maxLength: 40 }),
      (shape, first, picks) => {
        const g = dom(shape, first);
        let s = g.initial();
        let last: 0 | 1 | undefined = undefined;
        for (let k = 0; g.moves(s).length > 0; k++) {
          assertEquals(g.outcome(s), undefined);
          const ms = g.moves(s);
          last = g.toMove(s) as 0 | 1;
          s = g.play(s, ms[(picks[k % Math.max(1, picks.length)] ?? 0) % ms.length]);
          assertEquals(g.toMove(s), last === 0 ? 1 : 0, "the turn passes");
        }
        const winner = last ?? (first === "H" ? 0 : 1);
        assertEquals(g.outcome(s), { winner, margin: winner === 0 ? 1 : -1 });
        assertEquals(g.value(s), winner === 0 ? WIN : -WIN);
      },
    ),
    { numRuns: 300 },
  );
});
