/**
 * `deno task review FILE [--analyze D | --time T] [--strategy NAME] [--solve T|off] [--json]`
 *
 * Steps through a saved game's main line (`n`, `p`, `first`, `last`, `goto N`), showing
 * each move, the board and the AI's recorded search; with `--analyze D` or `--time T`,
 * first searches every position where a player moved and marks the inaccuracies,
 * mistakes and blunders (counted per player), the game's exact solver first where it
 * reaches (`--solve`). `--json` prints the same as one JSON object instead.
 *
 * How moves are valued and mistakes judged: `app/review.ts`.
 *
 * @module
 */
import { openHostedGame } from "../app/games.ts";
import type { OpenedGame } from "../core/plugin.ts";
import { Effect, Option, Result } from "../core/deps.ts";
import { CHANCE, type Game, isOver, type Player, type ToMove } from "../core/game.ts";
import type { Session } from "../app/session.ts";
import { decodeTranscript, importTranscript, type Transcript } from "../app/transcript.ts";
import type { Strategy } from "../core/search/types.ts";
import { Terminal, untilInterrupted } from "../app/terminal.ts";
import { describeResult, StatusLine, valueFor } from "../app/display.ts";
import {
  type ChosenStrategy,
  intFlag,
  parseCommandLine,
  printHelp,
  runMain,
  strategiesFor,
  strategyFlag,
  timeFlag,
  UsageError,
  userPath,
} from "../app/cli.ts";
import {
  analyseLine,
  type AnalysisProgress,
  type AnalysisSettings,
  countMarks,
  exactSolver,
  isMistake,
  lineOf,
  type LineStep,
  type MarkCounts,
  type MoveAnalysis,
  SEVERITIES,
} from "../app/review.ts";

const USAGE = `Usage: deno task review FILE [--analyze D | --time T] [--strategy NAME]
                          [--solve T|off] [--json]
Steps through a saved game (a transcript that play --save writes) move by move.

  --analyze D      first analyse every move: search each position to depth D plies
  --time T         ... or for time T per position: 500ms, 2s, or milliseconds
  --strategy NAME  the analysis's strategy: alphabeta (default), minimax, expectimax,
                   mcts (with --time), a parallel one, or the game's own
  --solve T        the time per position of the exact solver, tried first (the game's
                   solve strategy, else alpha-beta to the end; default 1s); off: none
  --workers N      worker threads for the parallel strategies (default: the cores)
  --json           print the moves (and the analysis) as one JSON object; no stepping
  --debug          show the stack of a plugin's exception
Commands while stepping (read from standard input, one per line):
  n, Enter  the next move        p         the previous move
  first     the start            last      the last move
  goto N    the position after N moves (0: the start)
  help      this list            quit      stop (so does the end of input)
Where the exact solver settles a move's positions, the move is marked only when it
changes the result: a blunder (a win into a draw or a loss, a draw into a loss).
Elsewhere, by the analysis's values: a blunder when it gives up a win or walks into a
loss, or is worse than the best by more than 3 times the game's margin (1 unless the
game sets one); a mistake when worse by more than the margin; an inaccuracy when worse
by more than half of it. Values are from the mover's side. Ctrl-C stops the analysis
(exit code 130) and prints what it found so far.
`;

const COMMANDS = `Commands:
  n, Enter  the next move        p         the previous move
  first     the start            last      the last move
  goto N    the position after N moves (0: the start)
  help      this list            quit      stop
`;

const FLAGS = {
  string: ["analyze", "time", "strategy", "workers", "solve"],
  boolean: ["json"],
} as const;

/** The first line of an exception's message. */
const why = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0];

/** A saved game, checked and opened. */
interface Loaded {
  readonly transcript: Transcript;
  readonly opened: OpenedGame;
  readonly session: Session;
}

/** Reads FILE as a transcript, opens its game and rebuilds the session (every move checked). */
const loadTranscript = (file: string) =>
  Effect.gen(function* () {
    const path = userPath(file);
    const text = yield* Effect.try({
      try: () => Deno.readTextFileSync(path),
      catch: (e) =>
        new UsageError({
          message: e instanceof Deno.errors.NotFound
            ? `there is no file ${file}`
            : e instanceof Deno.errors.IsADirectory
            ? `${file} is a directory, not a saved game`
            : `cannot read ${file}: ${why(e)}`,
        }),
    });
    const json: unknown = yield* Effect.try({
      try: () => JSON.parse(text),
      catch: (e) => new UsageError({ message: `${file} is not JSON: ${why(e)}` }),
    });
    const decoded = decodeTranscript(json);
    if (Result.isFailure(decoded)) {
      return yield* new UsageError({ message: `${file}: ${decoded.failure}` });
    }
    const transcript = decoded.success;
    const options = transcript.options;
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
      return yield* new UsageError({ message: `${file}: the game's options are not an object` });
    }
    const opened = yield* openHostedGame(transcript.game, options as Record<string, unknown>);
    const imported = importTranscript(opened.game, transcript);
    if (Result.isFailure(imported)) {
      return yield* new UsageError({ message: `${file}: ${imported.failure}` });
    }
    return { transcript, opened, session: imported.success } satisfies Loaded;
  });

/** Who moved, as a person reads it. */
const moverName = (
  game: Game<unknown>,
  by: ToMove,
) => (by === CHANCE ? "chance" : game.players[by]);

/** A value from the mover's side back to player 0's (as `valueFor` takes it). */
const fromSide = (v: number, by: Player) => (by === 0 ? v : -v);

/** A value of the analysis for a person: a proven 0 is a draw. */
const analysedValue = (game: Game<unknown>, v: number, by: Player, exact: boolean) =>
  exact && v === 0 ? "draw" : valueFor(game, fromSide(v, by), by);

/** One line about a move's analysis. */
const analysisLine = (game: Game<unknown>, step: LineStep<unknown>, a: MoveAnalysis) => {
  const played = step.notation === a.bestNotation || a.loss === 0 && a.playedValue === a.bestValue
    ? "as good"
    : analysedValue(game, a.playedValue, a.by, a.exact);
  return `analysis: best ${a.bestNotation} (${analysedValue(game, a.bestValue, a.by, a.exact)})` +
    `, played ${step.notation} (${played})` +
    (a.judgement !== undefined
      ? ` - ${a.judgement.severity.toUpperCase()}: ${a.judgement.why}`
      : "") +
    (a.exact ? " (exact)" : "");
};

/** A game's line under review, with its analyses (`undefined` where a move has none). */
interface Reviewed {
  /** The game. */
  readonly game: Game<unknown>;
  /** Its moves in order. */
  readonly line: readonly LineStep<unknown>[];
  /** The analysis of each move, by index in `line`, as far as the pass got. */
  readonly analyses: readonly (MoveAnalysis | undefined)[];
}

/** Each player's marked moves in order and their counts (one player in a solo game), by name. */
const marksBy = ({ game, analyses }: Reviewed) => {
  const counts = countMarks(analyses);
  return (game.solo === true ? [0] : [0, 1]).map((p) => ({
    name: game.players[p],
    counts: counts[p],
    marked: analyses.filter((a): a is MoveAnalysis => a?.by === p && a.judgement !== undefined),
  }));
};

const PLURALS = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" } as const;

/** `1 inaccuracy, 0 mistakes, 2 blunders`. */
const countsText = (counts: MarkCounts) =>
  SEVERITIES.map((s) => `${counts[s]} ${counts[s] === 1 ? s : PLURALS[s]}`).join(", ");

/** The summary of an analysis: moves analysed, and each player's marked moves. */
const summaryText = (reviewed: Reviewed, how: string, interrupted: boolean) => {
  const { line, analyses } = reviewed;
  const analysed = analyses.filter((a) => a !== undefined).length;
  const playerMoves = line.filter((s) => s.by !== CHANCE).length;
  const listed = (p: ReturnType<typeof marksBy>[number]) =>
    countsText(p.counts) + (p.marked.length === 0 ? "" : ": " +
      p.marked.map((a) =>
        `move ${a.ply} played ${line[a.ply - 1].notation} ` +
        `(${a.judgement!.severity}: ${a.judgement!.why})`
      ).join(", "));
  return (interrupted
    ? `Analysis interrupted after ${analyses.length} of ${line.length} moves.\n`
    : "") +
    `Analysis (${how}): ${analysed} of ${playerMoves} moves analysed.\n` +
    marksBy(reviewed).map((p) => `  ${p.name}: ${listed(p)}\n`).join("");
};

/** A move as JSON: what the transcript records, and its analysis if there is one. */
const moveJson = (game: Game<unknown>, step: LineStep<unknown>, a: MoveAnalysis | undefined) => ({
  ply: step.ply,
  by: step.by,
  player: moverName(game, step.by),
  notation: step.notation,
  ...(step.agent !== undefined ? { agent: step.agent } : {}),
  ...(step.search !== undefined ? { search: step.search } : {}),
  ...(a === undefined ? {} : {
    best: a.bestNotation,
    bestValue: a.bestValue,
    bestText: analysedValue(game, a.bestValue, a.by, a.exact),
    playedValue: a.playedValue,
    playedText: analysedValue(game, a.playedValue, a.by, a.exact),
    loss: a.loss,
    exact: a.exact,
    depth: a.depth,
    mistake: isMistake(a.judgement),
    ...(a.judgement !== undefined ? a.judgement : {}),
  }),
});

/** The analysis the flags ask for. */
type Asked = Omit<AnalysisSettings, "margin" | "seed">;

/** Shows the analysis's progress on a status line: the move, and the depth done or the time. */
const progressLine = (status: StatusLine) => {
  let searching = "", done = "";
  return ({ ply, total, phase, progress }: AnalysisProgress) => {
    if (searching !== `${ply} ${phase}`) [searching, done] = [`${ply} ${phase}`, ""];
    if (progress._tag === "Iteration") done = `depth ${progress.result.depth} done`;
    const time = progress._tag === "Heartbeat" ? `${(progress.timeMs / 1000).toFixed(0)} s` : "";
    status.show(
      `analysing move ${ply} of ${total}${phase === "played" ? " (the move played)" : ""}: ` +
        `${[time, done].filter((t) => t !== "").join(", ")}...`,
    );
  };
};

/** Reads the analysis flags; `undefined` when no analysis is asked for. */
const analysisFlags = (
  flags: Readonly<Record<string, string | boolean | undefined>>,
  strategies: Readonly<Record<string, Strategy>>,
  solver: ChosenStrategy | undefined,
) =>
  Effect.gen(function* () {
    const fail = (message: string) => Effect.fail(new UsageError({ message }));
    if (flags.analyze !== undefined && flags.time !== undefined) {
      return yield* fail("--analyze and --time cannot be combined: give a depth or a time");
    }
    if (flags.analyze === undefined && flags.time === undefined) {
      for (const f of ["strategy", "solve"] as const) {
        if (flags[f] !== undefined) {
          return yield* fail(`--${f} is the analysis's: add --analyze D or --time T`);
        }
      }
      return undefined;
    }
    const solveText = typeof flags.solve === "string" ? flags.solve : "1s";
    const solveMs = solveText === "off" ? undefined : yield* Effect.mapError(
      timeFlag(solveText),
      () =>
        new UsageError({ message: `--solve must be like 500ms or 2s, or off; got '${solveText}'` }),
    );
    const chosen = yield* strategyFlag(
      typeof flags.strategy === "string" ? flags.strategy : "alphabeta",
      strategies,
    );
    if (chosen.strategy.budget !== "depth" && flags.analyze !== undefined) {
      return yield* fail(`${chosen.name} has no depth: give --time T instead of --analyze D`);
    }
    const depth = yield* intFlag(flags, "analyze", 4, 1, 1000);
    const timeMs = typeof flags.time === "string" ? yield* timeFlag(flags.time) : undefined;
    const asked: Asked = {
      strategy: chosen,
      ...(timeMs !== undefined ? { timeMs } : { depth }),
      ...(solver !== undefined && solveMs !== undefined
        ? { exact: { solver, timeMs: solveMs } }
        : {}),
    };
    return asked;
  });

/** The first line: the game, its players, seed, length and how it ended. */
const headline = (
  name: string,
  game: Game<unknown>,
  transcript: Transcript,
  line: readonly LineStep<unknown>[],
): string => {
  const [a, b] = transcript.players;
  const players = game.solo === true
    ? `${game.players[0]} (${a}) against chance`
    : `${game.players[0]} (${a}) vs ${game.players[1]} (${b})`;
  // A game saved unfinished may still have reached its end.
  const final = line.at(-1)?.after ?? game.initial();
  const outcome = isOver(game, final) ? game.outcome(final) : undefined;
  const result = transcript.result.reason === "unfinished" && outcome !== undefined
    ? { ...outcome, reason: "end" }
    : transcript.result;
  const ended = result.reason === "unfinished"
    ? "unfinished"
    : describeResult(game, result).replace(/\.$/, "");
  return `${name}: ${players}, seed ${transcript.seed}; ${line.length} moves; ${ended}\n`;
};

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, undefined);
  const stray = Object.keys(gameOptions)[0];
  if (stray !== undefined) {
    return yield* new UsageError({
      message: `unknown option --${stray} (the game's options come from the saved game)`,
    });
  }
  if (positional.length !== 1) {
    return yield* new UsageError({ message: "name one saved game (a transcript file) to review" });
  }
  const { transcript, opened, session } = yield* loadTranscript(positional[0]);
  const { game, plugin } = opened;
  const asked = yield* analysisFlags(
    flags,
    strategiesFor(plugin),
    exactSolver(game, plugin.strategies),
  );
  const line = lineOf(game, session);
  const json = flags.json === true;
  if (!json) yield* term.print(headline(plugin.name, game, transcript, line));

  // The analysis pass: every player's move, results kept as they come.
  const analyses: (MoveAnalysis | undefined)[] = [];
  const reviewed: Reviewed = { game, line, analyses };
  let interrupted = false;
  let how = "";
  if (asked !== undefined) {
    const settings: AnalysisSettings = {
      ...asked,
      margin: plugin.mistakeMargin ?? 1,
      seed: transcript.seed,
      // The searches run in the engine's workers, which open the game from its source.
      source: opened.source,
    };
    how = `${asked.strategy.name}, ` +
      (asked.timeMs !== undefined ? `${asked.timeMs} ms per position` : `depth ${asked.depth}`) +
      (asked.exact !== undefined
        ? `; exact: ${asked.exact.solver.name} up to ${asked.exact.timeMs} ms per position`
        : "");
    const status = Deno.stderr.isTerminal() ? new StatusLine() : undefined;
    const found = yield* untilInterrupted(
      analyseLine(game, line, settings, status && progressLine(status), analyses),
    );
    status?.clear();
    interrupted = Option.isNone(found);
  }

  if (json) {
    const summary = asked === undefined ? undefined : {
      strategy: asked.strategy.name,
      ...(asked.timeMs !== undefined ? { timeMs: asked.timeMs } : { depth: asked.depth }),
      margin: plugin.mistakeMargin ?? 1,
      analysed: analyses.filter((a) => a !== undefined).length,
      ...(interrupted ? { interrupted: true } : {}),
      ...(asked.exact !== undefined
        ? { exact: { solver: asked.exact.solver.name, timeMs: asked.exact.timeMs } }
        : {}),
      counts: Object.fromEntries(marksBy(reviewed).map((p) => [p.name, p.counts])),
      mistakes: Object.fromEntries(
        marksBy(reviewed).map((p) => [
          p.name,
          p.marked.filter((a) => isMistake(a.judgement)).map((a) => ({
            ply: a.ply,
            notation: line[a.ply - 1].notation,
            loss: a.loss,
            ...a.judgement,
          })),
        ]),
      ),
    };
    yield* term.print(
      JSON.stringify({
        game: transcript.game,
        options: opened.options,
        seed: transcript.seed,
        players: transcript.players.map((spec, p) => ({ name: game.players[p], spec })),
        result: transcript.result,
        moves: line.map((step, i) => moveJson(game, step, analyses[i])),
        ...(summary !== undefined ? { summary } : {}),
      }) + "\n",
    );
    return 0;
  }
  if (asked !== undefined) yield* term.print(summaryText(reviewed, how, interrupted));
  if (interrupted) return 0;

  return yield* stepThrough(reviewed);
});

/** What a step shows: the move, the board with it marked, its recorded search and analysis. */
const stepText = ({ game, line, analyses }: Reviewed, ply: number, color: boolean): string => {
  const total = line.length;
  if (ply === 0) return `\nstart (move 0 of ${total})\n${game.render(game.initial(), { color })}\n`;
  const step = line[ply - 1];
  const did = game.describeMove?.(step.before, step.move, step.after);
  const r = step.search;
  const searched = r === undefined ? "" : `${step.agent ?? "the AI"} searched: depth ${r.depth}` +
    `${r.exact ? " (exact)" : ""}, ` +
    `${step.by === CHANCE ? r.value : valueFor(game, r.value, step.by)}, pv ${r.pv.join(" ")}\n` +
    (r.notes ?? []).map((note) => `  ${note}\n`).join("");
  const a = analyses[ply - 1];
  return `\nmove ${ply} of ${total}: ${moverName(game, step.by)} plays ${step.notation}` +
    (did ? ` (${did})` : "") + "\n" +
    `${game.render(step.after, { last: { move: step.move, by: step.by }, color })}\n` +
    searched +
    (a === undefined ? "" : `${analysisLine(game, step, a)}\n`);
};

/** The stepping commands, read until `quit` or the end of input. */
const stepThrough = (reviewed: Reviewed) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const color = Deno.stdout.isTerminal() && !Deno.noColor;
    const total = reviewed.line.length;
    let ply = 0;
    const go = (to: number) => {
      ply = to;
      return term.print(stepText(reviewed, ply, color));
    };
    yield* go(0);
    while (true) {
      const input = yield* term.readLine("review> ");
      if (Option.isNone(input)) {
        yield* term.print("\n");
        return 0;
      }
      const [word = "", arg, ...rest] = input.value.trim().toLowerCase().split(/\s+/);
      if (word === "" || word === "n" || word === "next") {
        if (ply === total) yield* term.print(`that was the last move (${total} of ${total})\n`);
        else yield* go(ply + 1);
      } else if (word === "p" || word === "prev" || word === "previous") {
        if (ply === 0) yield* term.print("this is the start\n");
        else yield* go(ply - 1);
      } else if (word === "first" || word === "start") yield* go(0);
      else if (word === "last" || word === "end") yield* go(total);
      else if (word === "goto" || word === "g") {
        const n = arg !== undefined && rest.length === 0 && /^\d+$/.test(arg) ? Number(arg) : NaN;
        if (n >= 0 && n <= total) yield* go(n);
        else yield* term.print(`goto takes a move number from 0 to ${total}\n`);
      } else if (word === "help" || word === "h" || word === "?") yield* term.print(COMMANDS);
      else if (word === "quit" || word === "q" || word === "exit") return 0;
      else yield* term.print(`no command '${word}'; help lists them\n`);
    }
  });

if (import.meta.main) runMain(main, "deno task review");
