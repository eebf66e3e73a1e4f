/**
 * `deno task review`: stepping through a saved game, the analysis pass and its mistakes,
 * `--json`, Ctrl-C, and the errors for files that are not saved games. The expected
 * values come from independent references written here: a full-depth minimax of
 * tic-tac-toe (win / draw / loss) and a plain depth-limited minimax of Kalah, not from
 * the searches under test.
 */
import { assert, assertEquals, assertStringIncludes, fc } from "../testing/deps.ts";
import { openGame } from "../mod.ts";
import { Effect } from "../core/deps.ts";
import { CHANCE, type Game, type Player, WIN } from "../core/game.ts";
import { runGame } from "../app/match.ts";
import { randomAgent, searchAgent } from "../app/players/agents.ts";
import {
  alphabetaStrategy,
  expectimaxStrategy,
  minimaxStrategy,
} from "../core/search/strategies.ts";
import { newSession, playMove } from "../app/session.ts";
import {
  decodeTranscript,
  exportTranscript,
  importTranscript,
  type Transcript,
} from "../app/transcript.ts";
import { Result } from "../core/deps.ts";
import {
  analyseLine,
  type AnalysisSettings,
  countMarks,
  exactSolver,
  isMistake,
  judgeMove,
  lineOf,
  type MoveAnalysis,
  SEVERITIES,
} from "../app/review.ts";
import { runTask, startTask } from "../testing/task.ts";
import { exactMargin, solveToEnd } from "./tools/helpers.ts";

const noTrace = (text: string) =>
  assert(!/\n\s+at .*:\d+:\d+/.test(text), `a stack trace was printed:\n${text}`);

const open = (id: string, options: Record<string, unknown> = {}) =>
  Effect.runPromise(openGame(id, options));
type Opened = Awaited<ReturnType<typeof open>>;

const ttt = await open("tictactoe");
const kalah = await open("kalah", { pits: 3, stones: 2 });

/** The mover's side of a value from player 0's. */
const side = (v: number, by: Player) => (by === 0 ? v : -v);

// ---------------------------------------------------------------------------------
// References.

/** Tic-tac-toe solved by plain minimax to the end: +1 player 0 wins, 0 draw, -1 loses. */
const solveTtt = exactMargin(ttt.game);

/** A decisive value one ply further from the root. */
const further = (v: number) => (v >= WIN / 2 ? v - 1 : v <= -WIN / 2 ? v + 1 : v);

/** Tic-tac-toe's minimax value to the end, decisive values moved by their distance. */
const distanceTtt = solveToEnd(ttt.game, (s) => ttt.game.value(s), further);

/**
 * The plies (1-based) where the mover made the game's outcome worse for themselves, by
 * an exact reference (`solve`: player 0's final margin under perfect play).
 */
const referenceBlunders = (
  game: Game<unknown>,
  moves: readonly number[],
  solve: (s: unknown) => number = solveTtt,
): number[] => {
  const out: number[] = [];
  let s = game.initial();
  moves.forEach((m, i) => {
    const by = game.toMove(s);
    const after = game.play(s, m);
    if (by !== CHANCE && Math.sign(side(solve(after), by)) < Math.sign(side(solve(s), by))) {
      out.push(i + 1);
    }
    s = after;
  });
  return out;
};

/** Plain depth-limited minimax, decisive values moved by their distance from the root. */
const minimax = (game: Game<unknown>, s: unknown, depth: number, ply: number): number => {
  const ms = game.moves(s);
  if (depth === 0 || ms.length === 0) {
    const v = game.value(s);
    return v >= WIN / 2 ? v - ply : v <= -WIN / 2 ? v + ply : v;
  }
  const vs = ms.map((m) => minimax(game, game.play(s, m), depth - 1, ply + 1));
  return game.toMove(s) === 0 ? Math.max(...vs) : Math.min(...vs);
};

/** What the review should say of one move at depth D, by the rules in words. */
interface Expected {
  readonly bestValue: number;
  readonly playedValue: number;
  readonly mistake: boolean;
}
const expectedAt = (
  game: Game<unknown>,
  before: unknown,
  move: number,
  depth: number,
  margin: number,
): Expected => {
  const by = game.toMove(before) as Player;
  const best = side(minimax(game, before, depth, 0), by);
  const played = side(minimax(game, game.play(before, move), depth - 1, 1), by);
  const cls = (v: number) => (v >= WIN / 2 ? 1 : v <= -WIN / 2 ? -1 : 0);
  const mistake = cls(played) < cls(best) ||
    (cls(best) === 0 && cls(played) === 0 && best - played > margin);
  return { bestValue: best, playedValue: played, mistake };
};

// ---------------------------------------------------------------------------------
// Fixtures.

/** A transcript of the moves (in notation) played from the start. */
const transcriptOf = (
  opened: Opened,
  words: readonly string[],
  players: [string, string] = ["human", "human"],
): Transcript => {
  const { game } = opened;
  const session = newSession({ game: opened.specifier, options: opened.options, seed: 1, players });
  let s = game.initial();
  for (const w of words) {
    const m = Result.getOrThrow(game.parseMove(s, w));
    playMove(session, { by: game.toMove(s), move: m, notation: game.formatMove(s, m) });
    s = game.play(s, m);
  }
  return exportTranscript(session);
};

const save = async (t: unknown): Promise<string> => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(file, typeof t === "string" ? t : JSON.stringify(t, null, 2));
  return file;
};

/** A tic-tac-toe game with four blunders (by the reference): moves 2 and 8 by O, 5 and 7 by X. */
const BLUNDERS = ["b2", "b1", "a1", "c3", "c1", "a3", "c2", "a2", "b3"];

const movesOf = (game: Game<unknown>, words: readonly string[]) => {
  let s = game.initial();
  return words.map((w) => {
    const m = Result.getOrThrow(game.parseMove(s, w));
    s = game.play(s, m);
    return m;
  });
};

/** A random game of Kalah (pits 3, stones 2) by two random players. */
const randomKalah = (seed: number): Transcript =>
  Effect.runSync(runGame(kalah.game, [randomAgent(), randomAgent()], {
    seed,
    gameId: kalah.specifier,
    options: kalah.options,
  })).transcript;

// ---------------------------------------------------------------------------------
// The judgement and the analysis, in process.

Deno.test("judgeMove: outcome classes and the margin, as the rules say", () => {
  const value = fc.oneof(
    fc.integer({ min: -50, max: 50 }),
    fc.integer({ min: 0, max: 60 }).map((d) => WIN - d),
    fc.integer({ min: 0, max: 60 }).map((d) => -WIN + d),
  );
  fc.assert(fc.property(value, value, fc.integer({ min: 0, max: 5 }), (a, b, margin) => {
    const [best, played] = a >= b ? [a, b] : [b, a];
    const cls = (v: number) => (v >= WIN / 2 ? 1 : v <= -WIN / 2 ? -1 : 0);
    const loss = best - played;
    // Heuristic values: the outcome class and the margin.
    const expected = cls(played) < cls(best)
      ? "blunder"
      : cls(best) !== 0
      ? undefined
      : loss > 3 * margin
      ? "blunder"
      : loss > margin
      ? "mistake"
      : loss > margin / 2
      ? "inaccuracy"
      : undefined;
    const j = judgeMove(best, played, margin, false);
    assertEquals(j?.severity, expected, `${best} ${played} ${margin}`);
    // Mistakes and blunders are what the earlier rule called mistakes.
    assertEquals(
      isMistake(j),
      cls(played) < cls(best) || (cls(best) === 0 && loss > margin),
      `${best} ${played}`,
    );
    // Exact values: only a change of the result, by its sign, is marked (a blunder).
    const exact = judgeMove(best, played, margin, true);
    assertEquals(
      exact?.severity,
      Math.sign(played) < Math.sign(best) ? "blunder" : undefined,
      `exact ${best} ${played}`,
    );
  }));
  assertEquals(judgeMove(WIN - 3, -WIN + 4, 1, true)?.why, "turns a win into a loss");
  assertEquals(judgeMove(WIN - 3, 0, 1, true)?.why, "turns a win into a draw");
  assertEquals(judgeMove(0, -WIN + 2, 1, true)?.why, "turns a draw into a loss");
  assertEquals(judgeMove(7, 1, 1, true), undefined); // an exact margin: still won
  assertEquals(judgeMove(2, -1, 1, true)?.why, "turns a win into a loss");
  assertEquals(judgeMove(5, 4, 1, false)?.severity, "inaccuracy");
  assertEquals(judgeMove(5, 4.5, 1, false), undefined); // within half the margin
});

Deno.test("countMarks: each player's marks by severity, nothing else counted", () => {
  const severity = fc.option(fc.constantFrom(...SEVERITIES), { nil: undefined });
  const mark = fc.option(
    fc.record({ by: fc.constantFrom(0 as const, 1 as const), severity }),
    { nil: undefined },
  );
  fc.assert(fc.property(fc.array(mark), (marks) => {
    const counts = countMarks(
      marks.map((m) =>
        m === undefined ? undefined : {
          by: m.by,
          ...(m.severity !== undefined ? { judgement: { severity: m.severity, why: "" } } : {}),
        }
      ),
    );
    for (const p of [0, 1] as const) {
      for (const s of SEVERITIES) {
        assertEquals(counts[p][s], marks.filter((m) => m?.by === p && m.severity === s).length);
      }
    }
  }));
});

/** A random game's moves in notation: each pick chooses among the legal moves, to the end. */
const randomWords = <S>(game: Game<S>, picks: readonly number[]): string[] => {
  const words: string[] = [];
  let s = game.initial();
  for (const p of picks) {
    const ms = game.moves(s);
    if (ms.length === 0) break;
    const m = ms[p % ms.length];
    words.push(game.formatMove(s, m));
    s = game.play(s, m);
  }
  return words;
};

Deno.test("analysis: random tic-tac-toe games, the flagged moves are exactly the reference's blunders", async () => {
  const game = ttt.game;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat(), { minLength: 9, maxLength: 9 }), async (picks) => {
      const words = randomWords(game, picks);
      const session = Result.getOrThrow(importTranscript(game, transcriptOf(ttt, words)));
      const line = lineOf(game, session);
      const found = await Effect.runPromise(analyseLine(game, line, {
        strategy: { name: "alphabeta", strategy: alphabetaStrategy, params: {} },
        depth: 10,
        margin: 1,
      }));
      const flagged = found.filter((a) => a?.judgement !== undefined).map((a) => a!.ply);
      assertEquals(flagged, referenceBlunders(game, movesOf(game, words)), words.join(","));
      // Every value is the reference's, from the mover's side, distances included.
      for (const a of found as MoveAnalysis[]) {
        const step = line[a.ply - 1];
        const cls = (v: number) => Math.sign(Math.round(v / WIN));
        assertEquals(cls(a.bestValue), side(solveTtt(step.before), a.by), words.join(","));
        assertEquals(cls(a.playedValue), side(solveTtt(step.after), a.by), words.join(","));
        assertEquals(a.bestValue, side(distanceTtt(step.before), a.by), words.join(","));
        assertEquals(
          a.playedValue,
          side(further(distanceTtt(step.after)), a.by),
          `${words.join(",")}: move ${a.ply}`,
        );
      }
    }),
    { numRuns: 40 },
  );
});

Deno.test("analysis: random Kalah(3,2) games, values and mistakes agree with plain minimax", async () => {
  const game = kalah.game;
  let byMargin = 0;
  for (const [seed, margin] of [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, n % 2 ? 1 : 3])) {
    const session = Result.getOrThrow(importTranscript(game, randomKalah(seed)));
    const line = lineOf(game, session);
    for (
      const [name, strategy] of [["alphabeta", alphabetaStrategy], [
        "minimax",
        minimaxStrategy,
      ]] as const
    ) {
      const found = await Effect.runPromise(analyseLine(game, line, {
        strategy: { name, strategy, params: {} },
        depth: 3,
        margin,
      }));
      for (const [i, a] of found.entries()) {
        const step = line[i];
        const want = expectedAt(game, step.before, step.move, 3, margin);
        const got = {
          bestValue: a!.bestValue,
          playedValue: a!.playedValue,
          mistake: isMistake(a!.judgement),
        };
        assertEquals(got, want, `${name}, seed ${seed}, move ${step.ply} ${step.notation}`);
        if (got.mistake && a!.judgement!.why.startsWith("loses")) byMargin++;
      }
    }
  }
  assert(byMargin > 0, "the games have mistakes by margin");
});

/** X could win at once with c3 and plays b3: a fork, still a win, that depth 2 does not see. */
const FALSE_BLUNDER = ["a1", "a2", "b2", "a3", "b3"];

/** The analysis of tic-tac-toe at depth 2, with alpha-beta to the end first when `exact`. */
const depth2 = (exact: boolean): AnalysisSettings => ({
  strategy: { name: "alphabeta", strategy: alphabetaStrategy, params: {} },
  depth: 2,
  margin: 1,
  ...(exact ? { exact: { solver: exactSolver(ttt.game, ttt.plugin.strategies)! } } : {}),
});

Deno.test("exact marking: a winning fork that depth 2 calls a blunder is not marked", async () => {
  const game = ttt.game;
  const line = lineOf(
    game,
    Result.getOrThrow(importTranscript(game, transcriptOf(ttt, FALSE_BLUNDER))),
  );
  // The reference: b3 keeps X's win (O's a2 had lost the draw).
  assertEquals(referenceBlunders(game, movesOf(game, FALSE_BLUNDER)), [2]);
  const heuristic = await Effect.runPromise(analyseLine(game, line, depth2(false)));
  assertEquals(heuristic[4]?.judgement, { severity: "blunder", why: "gives up a win" });
  const exact = await Effect.runPromise(analyseLine(game, line, depth2(true)));
  assertEquals(exact.map((a) => a?.judgement?.severity), [
    undefined,
    "blunder",
    undefined,
    undefined,
    undefined,
  ]);
  assert(exact.every((a) => a?.exact === true));
  assertEquals(exact[4]!.bestNotation, "c3");
});

Deno.test("exact marking: random tic-tac-toe games at depth 2, marked exactly where the result changes", async () => {
  const game = ttt.game;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat(), { minLength: 9, maxLength: 9 }), async (picks) => {
      const words = randomWords(game, picks);
      const line = lineOf(
        game,
        Result.getOrThrow(importTranscript(game, transcriptOf(ttt, words))),
      );
      const found = await Effect.runPromise(analyseLine(game, line, depth2(true)));
      const marked = found.filter((a) => a?.judgement !== undefined);
      assertEquals(marked.map((a) => a!.ply), referenceBlunders(game, movesOf(game, words)));
      assert(marked.every((a) => a!.judgement!.severity === "blunder" && a!.exact));
    }),
    { numRuns: 40 },
  );
});

Deno.test("exact marking: Kalah(3,2) with its own solver, marked exactly where the result changes", async () => {
  const game = kalah.game;
  const solver = exactSolver(game, kalah.plugin.strategies)!;
  assertEquals(solver.name, "solve");
  const exactKalah = exactMargin(game);
  let marked = 0, heuristicFalse = 0;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const t = randomKalah(seed);
    const line = lineOf(game, Result.getOrThrow(importTranscript(game, t)));
    const settings: AnalysisSettings = {
      strategy: { name: "alphabeta", strategy: alphabetaStrategy, params: {} },
      depth: 2,
      margin: 1,
    };
    const want = referenceBlunders(game, t.moves.map((m) => m.move), exactKalah);
    const found = await Effect.runPromise(
      analyseLine(game, line, { ...settings, exact: { solver } }),
    );
    assertEquals(
      found.filter((a) => a?.judgement !== undefined).map((a) => a!.ply),
      want,
      `seed ${seed}`,
    );
    marked += want.length;
    // The heuristic alone marks moves that keep the result (so the above can fail).
    const alone = await Effect.runPromise(analyseLine(game, line, settings));
    heuristicFalse += alone.filter((a) =>
      a?.judgement !== undefined && !want.includes(a.ply)
    ).length;
  }
  assert(marked > 0 && heuristicFalse > 0, `${marked} ${heuristicFalse}`);
});

Deno.test("analysis: 2048's chance moves are not analysed, its player's moves are", async () => {
  const g = await open("2048");
  const { session } = Effect.runSync(runGame(g.game, [randomAgent(), randomAgent()], {
    seed: 3,
    maxPlies: 7,
  }));
  const line = lineOf(g.game, session);
  assert(line.some((s) => s.by === CHANCE) && line.some((s) => s.by === 0));
  const found = await Effect.runPromise(analyseLine(g.game, line, {
    strategy: { name: "expectimax", strategy: expectimaxStrategy, params: {} },
    depth: 2,
    margin: 1,
  }));
  assertEquals(found.length, line.length);
  for (const [i, step] of line.entries()) {
    assertEquals(found[i] === undefined, step.by === CHANCE, `move ${step.ply}`);
  }
});

// ---------------------------------------------------------------------------------
// The program, as a user runs it.

/** The text a step shows: its header line and the board with the move marked. */
const stepText = (game: Game<unknown>, words: readonly string[], ply: number): string => {
  let s = game.initial();
  const moves = movesOf(game, words);
  for (const m of moves.slice(0, ply)) s = game.play(s, m);
  if (ply === 0) return `start (move 0 of ${words.length})\n${game.render(s, { color: false })}\n`;
  let before = game.initial();
  for (const m of moves.slice(0, ply - 1)) before = game.play(before, m);
  const by = game.toMove(before) as Player;
  return `move ${ply} of ${words.length}: ${game.players[by]} plays ${words[ply - 1]}\n` +
    `${game.render(s, { last: { move: moves[ply - 1], by }, color: false })}\n`;
};

Deno.test("review: n, p, goto, last, first and Enter show the right move and board", async () => {
  const file = await save(transcriptOf(ttt, BLUNDERS));
  const script = ["n", "", "p", "goto 5", "last", "n", "first", "p", "goto 10", "bogus", "quit"];
  const r = await runTask("review", [file], { stdin: script.join("\n") + "\n" });
  assertEquals(r.code, 0, r.stderr);
  const shown = r.stdout.split("review> ");
  assertEquals(shown.length, script.length + 1, r.stdout); // quit ends it: no prompt after
  assertStringIncludes(shown[0], "Tic-tac-toe: X (human) vs O (human), seed 1; 9 moves; A draw");
  const game = ttt.game;
  assertStringIncludes(shown[0], stepText(game, BLUNDERS, 0));
  // After each command: the position it leads to (or a message).
  const expected = [1, 2, 1, 5, 9, "that was the last move", 0, "this is the start", "goto takes"];
  for (const [i, want] of expected.entries()) {
    const out = shown[i + 1];
    if (typeof want === "string") assertStringIncludes(out, want);
    else assertStringIncludes(out, stepText(game, BLUNDERS, want), `after '${script[i]}'`);
  }
  assertStringIncludes(shown[10], "no command 'bogus'");
  await Deno.remove(file);
});

Deno.test("review --analyze: the tic-tac-toe blunders are flagged, each with its player", async () => {
  const game = ttt.game;
  const blunders = referenceBlunders(game, movesOf(game, BLUNDERS));
  // The fixture has blunders by both players (so a wrong side's view would show).
  const by = (ply: number) => game.players[(ply - 1) % 2];
  assert(blunders.some((p) => by(p) === "X") && blunders.some((p) => by(p) === "O"), `${blunders}`);
  const file = await save(transcriptOf(ttt, BLUNDERS));
  const json = await runTask("review", [file, "--analyze", "10", "--json"]);
  assertEquals(json.code, 0, json.stderr);
  const data = JSON.parse(json.stdout);
  const flagged = data.moves.filter((m: { mistake: boolean }) => m.mistake).map((
    m: { ply: number },
  ) => m.ply);
  assertEquals(flagged, blunders);
  for (const p of ["X", "O"]) {
    assertEquals(
      data.summary.mistakes[p].map((m: { ply: number }) => m.ply),
      blunders.filter((b) => by(b) === p),
    );
    assertEquals(data.summary.counts[p], {
      inaccuracy: 0,
      mistake: 0,
      blunder: blunders.filter((b) => by(b) === p).length,
    });
  }
  // The text: the summary names each blunder, and the step shows its analysis line.
  const text = await runTask("review", [file, "--analyze", "10"], { stdin: "goto 2\n" });
  assertEquals(text.code, 0, text.stderr);
  const words = (ps: number[]) => ps.map((p) => `move ${p} played ${BLUNDERS[p - 1]} (`).join("");
  const summary = text.stdout.split("\n").filter((l) => /^ {2}[XO]: /.test(l));
  assertEquals(summary.length, 2, text.stdout);
  for (const line of summary) {
    const mine = blunders.filter((b) => by(b) === line.trim()[0]);
    assertStringIncludes(line, `0 inaccuracies, 0 mistakes, ${mine.length} blunder`);
    assertEquals(line.match(/move \d+ played \w+ \(/g)?.join(""), words(mine));
  }
  assertStringIncludes(
    text.stdout,
    "Analysis (alphabeta, depth 10; exact: alphabeta up to 1000 ms per position): 9 of 9 moves",
  );
  assertStringIncludes(
    text.stdout,
    "move 2 of 9: O plays b1\n",
  );
  assert(
    /played b1 \(X wins in \d+ plies\) - BLUNDER: turns a draw into a loss \(exact\)/.test(
      text.stdout,
    ),
    text.stdout,
  );
  await Deno.remove(file);
});

Deno.test("review --analyze: the exact solver first, --solve off for the heuristic alone", async () => {
  const file = await save(transcriptOf(ttt, FALSE_BLUNDER));
  const marks = async (...flags: string[]) => {
    const r = await runTask("review", [file, "--analyze", "2", "--json", ...flags]);
    assertEquals(r.code, 0, r.stderr);
    const data = JSON.parse(r.stdout);
    return { moves: data.moves.map((m: { severity?: string }) => m.severity), data };
  };
  const exact = await marks();
  assertEquals(exact.moves, [undefined, "blunder", undefined, undefined, undefined]);
  assertEquals(exact.data.summary.exact, { solver: "alphabeta", timeMs: 1000 });
  assertEquals(exact.data.summary.counts.X, { inaccuracy: 0, mistake: 0, blunder: 0 });
  assertEquals(exact.data.summary.counts.O, { inaccuracy: 0, mistake: 0, blunder: 1 });
  const alone = await marks("--solve", "off");
  assertEquals(alone.moves[4], "blunder");
  assertEquals(alone.data.summary.counts.X.blunder, 1);
  assertEquals(alone.data.summary.exact, undefined);
  const bad = await runTask("review", [file, "--analyze", "2", "--solve", "soon"]);
  assertEquals(bad.code, 2);
  assertStringIncludes(bad.stderr, "error: --solve must be like 500ms or 2s, or off; got 'soon'");
  noTrace(bad.stderr);
  await Deno.remove(file);
});

Deno.test("review --analyze: a Kalah game's mistakes by margin agree with plain minimax", async () => {
  // The first seed whose game (by the reference) has a mistake by margin, not by outcome.
  const depth = 3;
  const margin = kalah.plugin.mistakeMargin ?? 1;
  const wanted = (t: Transcript) => {
    let s = kalah.game.initial();
    return t.moves.map((m) => {
      const e = expectedAt(kalah.game, s, m.move, depth, margin);
      s = kalah.game.play(s, m.move);
      return e;
    });
  };
  let seed = 1;
  while (
    !wanted(randomKalah(seed)).some((e) =>
      e.mistake && Math.abs(e.bestValue) < WIN / 2 && Math.abs(e.playedValue) < WIN / 2
    )
  ) seed++;
  const t = randomKalah(seed);
  const file = await save(t);
  // The heuristic values alone (the exact solver would settle Kalah(3,2)'s every move).
  const r = await runTask("review", [file, "--analyze", String(depth), "--solve", "off", "--json"]);
  assertEquals(r.code, 0, r.stderr);
  const data = JSON.parse(r.stdout);
  assertEquals(
    data.moves.map((m: Expected & { loss: number }) => ({
      bestValue: m.bestValue,
      playedValue: m.playedValue,
      mistake: m.mistake,
    })),
    wanted(t),
  );
  for (const m of data.moves) assertEquals(m.loss, Math.max(0, m.bestValue - m.playedValue));
  assert(data.moves.some((m: { why?: string }) => m.why?.startsWith("loses ")), r.stdout);
  assertEquals(data.summary.margin, margin);
  await Deno.remove(file);
});

/** A tic-tac-toe game of alpha-beta (depth 2, its searches recorded) against random play. */
const searchedGame = () =>
  Effect.runSync(
    runGame(ttt.game, [searchAgent(alphabetaStrategy, { depth: 2 }), randomAgent()], {
      seed: 5,
      gameId: "tictactoe",
      options: ttt.options,
    }),
  );

Deno.test("review --json: the game, players, and each move with its recorded search", async () => {
  const played = searchedGame();
  const file = await save(played.transcript);
  const r = await runTask("review", [file, "--json"], { stdin: "n\nn\n" });
  assertEquals(r.code, 0, r.stderr);
  const data = JSON.parse(r.stdout); // one object, nothing else (no stepping)
  assertEquals(data.game, "tictactoe");
  assertEquals(data.options, {});
  assertEquals(data.players, [{ name: "X", spec: "alphabeta:2" }, { name: "O", spec: "random" }]);
  assertEquals(data.result, played.transcript.result);
  assertEquals(data.summary, undefined);
  assertEquals(data.moves.length, played.transcript.moves.length);
  for (const [i, m] of played.transcript.moves.entries()) {
    const got = data.moves[i];
    assertEquals([got.ply, got.by, got.player, got.notation], [
      i + 1,
      m.by,
      i % 2 ? "O" : "X",
      m.notation,
    ]);
    assertEquals(got.search, m.search);
    assertEquals(got.mistake, undefined); // no analysis asked for
  }
  assert(data.moves.some((m: { search?: unknown }) => m.search !== undefined));
  // With --time: every player's move analysed, the summary says how.
  const timed = await runTask("review", [file, "--json", "--time", "1s"]);
  assertEquals(timed.code, 0, timed.stderr);
  const t = JSON.parse(timed.stdout);
  assertEquals([t.summary.strategy, t.summary.timeMs], ["alphabeta", 1000]);
  assertEquals(t.summary.analysed, played.transcript.moves.length);
  await Deno.remove(file);
});

Deno.test("review: a search's notes are kept in the transcript and shown under its move", async () => {
  const played = searchedGame();
  // What a strategy says of its choice (2048's endgame solver does): here written in by
  // hand on X's first move, as a search that returned notes records them.
  const notes = ["first note of move 1", "second note of move 1"];
  const [first, ...rest] = played.transcript.moves;
  const noted: Transcript = {
    ...played.transcript,
    moves: [{ ...first, search: { ...first.search!, notes } }, ...rest],
  };
  const file = await save(noted);
  const decoded = Result.getOrThrow(decodeTranscript(JSON.parse(await Deno.readTextFile(file))));
  const session = Result.getOrThrow(importTranscript(ttt.game, decoded));
  assertEquals(session.nodes[1].search?.notes, notes);
  assertEquals(exportTranscript(session).moves[0].search?.notes, notes);
  const r = await runTask("review", [file], { stdin: "n\nn\n" });
  assertEquals(r.code, 0, r.stderr);
  assertStringIncludes(
    r.stdout,
    `pv ${first.search!.pv.join(" ")}\n  ${notes[0]}\n  ${notes[1]}\n`,
  );
  assertEquals(r.stdout.split(notes[0]).length, 2, "the notes of move 1 only");
  const json = JSON.parse((await runTask("review", [file, "--json"])).stdout);
  assertEquals(json.moves[0].search.notes, notes);
  await Deno.remove(file);
});

Deno.test("review: files that are not saved games, and bad flags: one line each, exit 2", async () => {
  const dir = await Deno.makeTempDir();
  const good = transcriptOf(ttt, ["b2", "a1"]);
  const illegal = {
    ...good,
    moves: [good.moves[0], { ...good.moves[1], move: good.moves[0].move, notation: "b2" }],
  };
  await Deno.writeTextFile(`${dir}/broken.json`, "{ not json");
  await Deno.writeTextFile(`${dir}/other.json`, JSON.stringify({ hello: 1 }));
  await Deno.writeTextFile(`${dir}/illegal.json`, JSON.stringify(illegal));
  await Deno.writeTextFile(`${dir}/good.json`, JSON.stringify(good));
  const cases: [string[], string][] = [
    [[`${dir}/missing.json`], `error: there is no file ${dir}/missing.json`],
    [[`${dir}/broken.json`], `error: ${dir}/broken.json is not JSON: `],
    [[`${dir}/other.json`], `error: ${dir}/other.json: not a ply transcript`],
    [[`${dir}/illegal.json`], `error: ${dir}/illegal.json: move 2 (b2) is not legal there`],
    [[`${dir}/good.json`, "--analyze", "3", "--time", "1s"], "cannot be combined"],
    [[`${dir}/good.json`, "--strategy", "minimax"], "add --analyze D or --time T"],
    [[`${dir}/good.json`, "--analyze", "3", "--strategy", "mcts"], "give --time T"],
    [[`${dir}/good.json`, "--analyze", "0"], "--analyze must be an integer from 1"],
    [[`${dir}/good.json`, "--pits", "3"], "unknown option --pits"],
    [[], "name one saved game"],
  ];
  for (const [args, message] of cases) {
    const r = await runTask("review", args);
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    const errors = r.stderr.split("\n").filter((l) => l.startsWith("error: "));
    assertEquals(errors.length, 1, r.stderr);
    assertStringIncludes(errors[0], message);
    assertEquals(r.stdout, "");
    noTrace(r.stderr);
  }
  // A path is the user's: relative to the directory they run the task from.
  const rel = await runTask("review", ["good.json", "--json"], { cwd: dir, config: true });
  assertEquals(rel.code, 0, rel.stderr);
  assertEquals(JSON.parse(rel.stdout).moves.length, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("review: the analysis shows its progress at a terminal; Ctrl-C stops it (exit 130)", async () => {
  // Full Kalah at depth 30: no analysis ends before Ctrl-C.
  const k = await open("kalah");
  const game = Effect.runSync(runGame(k.game, [randomAgent(), randomAgent()], {
    seed: 1,
    maxPlies: 2,
    gameId: k.specifier,
    options: k.options,
  }));
  const file = await save(game.transcript);
  const job = startTask(["review", file, "--analyze", "30"], true);
  await job.waitFor("analysing move 1 of");
  await job.type("\x03");
  const { code, out } = await job.done;
  assertEquals(code, 130, out);
  assertStringIncludes(out, "Analysis interrupted after 0 of");
  // The summary of what was analysed, and nothing after it (no stepping).
  const tail = out.slice(out.indexOf("Analysis interrupted")).trimEnd().split(/\r?\n/);
  assertEquals(tail.length, 4, out);
  assertStringIncludes(
    tail[1],
    "Analysis (alphabeta, depth 30; exact: solve up to 1000 ms per position): 0 of",
  );
  noTrace(out);
  assert(await job.groupGone(), "no process of the program is left");
  await Deno.remove(file);
});
