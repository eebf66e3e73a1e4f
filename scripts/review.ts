/**
 * `deno task review FILE [--analyze D | --time T] [--strategy NAME] [--json]`
 *
 * Steps through a saved game's main line (`n`, `p`, `first`, `last`, `goto N`), showing
 * each move, the board and the AI's recorded search; with `--analyze D` or `--time T`,
 * first searches every position where a player moved and flags the mistakes. `--json`
 * prints the same as one JSON object instead.
 *
 * How a move is valued (values from the mover's side; player 0 maximizes `value`, so
 * player 1's are negated): the position before the move is searched (depth D, or for
 * time T) for its best move and value, with every optimal move listed where the strategy
 * can (`allBest`). A move among the optimal ones is worth the best value. Any other move
 * is valued by searching the position after it one ply shallower (D-1; with `--time`,
 * the depth the first search reached, minus one), which is the value the first search
 * gives that move, and moving its decisive values one ply further away. (MCTS has no
 * depth: the position after is searched for time T too.) The loss is the best value
 * minus the played one. A move is a mistake when it turns a win into a draw or a loss,
 * or anything not lost into a loss; or, when neither value is decisive, when the loss
 * exceeds the game's `mistakeMargin` (default 1). A slower win or a quicker loss in a
 * lost position is no mistake.
 *
 * @module
 */
import { type LoadedGame, loadGame } from "../mod.ts";
import { Effect, Option, Result } from "../core/deps.ts";
import { type EngineOptions, type Progress, search } from "../core/engine/engine.ts";
import {
  byDistance,
  CHANCE,
  type Game,
  isOver,
  type Player,
  type ToMove,
  WIN_THRESHOLD,
} from "../core/game.ts";
import { mainLine, type SearchInfo, type Session } from "../core/session.ts";
import { decodeTranscript, importTranscript, type Transcript } from "../core/transcript.ts";
import type { SearchFailed } from "../core/errors.ts";
import type { Strategy } from "../core/search/types.ts";
import { Terminal, untilInterrupted } from "../core/terminal.ts";
import { describeResult, StatusLine, valueFor } from "./display.ts";
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
} from "./cli.ts";

const USAGE = `Usage: deno task review FILE [--analyze D | --time T] [--strategy NAME] [--json]
Steps through a saved game (a transcript that play --save writes) move by move.

  --analyze D      first analyse every move: search each position to depth D plies
  --time T         ... or for time T per position: 500ms, 2s, or milliseconds
  --strategy NAME  the analysis's strategy: alphabeta (default), minimax, expectimax,
                   mcts (with --time), a parallel one, or the game's own
  --workers N      worker threads for the parallel strategies (default: the cores)
  --json           print the moves (and the analysis) as one JSON object; no stepping
  --debug          show the stack of a plugin's exception
Commands while stepping (read from standard input, one per line):
  n, Enter  the next move        p         the previous move
  first     the start            last      the last move
  goto N    the position after N moves (0: the start)
  help      this list            quit      stop (so does the end of input)
The analysis flags a mistake where the move played is worse than the best by more than
the game's margin (1 unless the game sets one), or turns a win into a draw or a loss, or
a draw into a loss. Values are from the mover's side. Ctrl-C stops the analysis (exit
code 130) and prints what it found so far.
`;

const COMMANDS = `Commands:
  n, Enter  the next move        p         the previous move
  first     the start            last      the last move
  goto N    the position after N moves (0: the start)
  help      this list            quit      stop
`;

const FLAGS = {
  string: ["analyze", "time", "strategy", "workers"],
  boolean: ["json"],
} as const;

/** One move of the main line, with the positions around it. */
export interface LineStep<S> {
  /** Its number: 1 for the first move. */
  readonly ply: number;
  /** Who moved. */
  readonly by: ToMove;
  /** The move (plugin encoding). */
  readonly move: number;
  /** Its notation. */
  readonly notation: string;
  /** The player's spec, if the transcript has it. */
  readonly agent?: string;
  /** The AI's recorded search behind it, if any. */
  readonly search?: SearchInfo;
  /** The position it was played in. */
  readonly before: S;
  /** The position it led to. */
  readonly after: S;
}

/** The main line of a session as steps, with every position replayed. */
export const lineOf = <S>(game: Game<S>, session: Session): LineStep<S>[] => {
  let s = game.initial();
  return mainLine(session).slice(1).map((id, i) => {
    const n = session.nodes[id];
    const before = s;
    s = game.play(s, n.move);
    return {
      ply: i + 1,
      by: n.by,
      move: n.move,
      notation: n.notation,
      ...(n.agent !== undefined ? { agent: n.agent } : {}),
      ...(n.search !== undefined ? { search: n.search } : {}),
      before,
      after: s,
    };
  });
};

/** How the analysis searches. */
export interface AnalysisSettings {
  /** The strategy and its parameters. */
  readonly strategy: ChosenStrategy;
  /** Depth in plies per position (`--analyze D`); or */
  readonly depth?: number;
  /** milliseconds per position (`--time T`). */
  readonly timeMs?: number;
  /** How much worse than the best a move must be to be a mistake (mover's value units). */
  readonly margin: number;
  /** Seed of randomized strategies (MCTS). */
  readonly seed?: number;
}

/** What the analysis found about one player's move. */
export interface MoveAnalysis {
  /** The move's number (1 for the first). */
  readonly ply: number;
  /** Who moved. */
  readonly by: Player;
  /** The best move found in the position before (first in the game's order). */
  readonly best: number;
  /** Its notation. */
  readonly bestNotation: string;
  /** The best value, from the mover's side. */
  readonly bestValue: number;
  /** The move played's value, from the mover's side. */
  readonly playedValue: number;
  /** `bestValue - playedValue`, at least 0. */
  readonly loss: number;
  /** True when both values are proven (every line searched to its end). */
  readonly exact: boolean;
  /** The depth the search of the position before reached. */
  readonly depth: number;
  /** Why the move is a mistake (`"turns a win into a draw"`, `"loses 3"`); none if not. */
  readonly mistake?: string;
}

const isWin = (v: number) => v >= WIN_THRESHOLD;
const isLoss = (v: number) => v <= -WIN_THRESHOLD;

/** A value in the mover's units, as text (`3`, `0.250`). */
const amount = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

/**
 * Judges a move by the best value and the played move's value, both from the mover's
 * side (decisive values carry their distance): why it is a mistake, or `undefined`.
 * `exact`: both values are proven (a non-decisive exact value of 0 is a draw).
 *
 * @example
 * ```ts
 * import { judgeMove } from "./review.ts";
 * import { WIN } from "../core/game.ts";
 * if (judgeMove(WIN - 3, 0, 1, true) !== "turns a win into a draw") throw new Error();
 * if (judgeMove(WIN - 3, WIN - 9, 1, true) !== undefined) throw new Error(); // a slower win
 * if (judgeMove(6, 2, 1, false) !== "loses 4") throw new Error();
 * ```
 */
export const judgeMove = (
  best: number,
  played: number,
  margin: number,
  exact: boolean,
): string | undefined => {
  if (isWin(best) && !isWin(played)) {
    return isLoss(played)
      ? "turns a win into a loss"
      : exact && played === 0
      ? "turns a win into a draw"
      : "gives up a win";
  }
  if (!isLoss(best) && isLoss(played)) {
    return exact && best === 0 ? "turns a draw into a loss" : "walks into a loss";
  }
  if (isWin(best) || isLoss(best)) return undefined; // same outcome, another distance
  const loss = best - played;
  return loss > margin ? `loses ${amount(loss)}` : undefined;
};

/** What the analysis is doing, for a status line. */
export interface AnalysisProgress {
  /** The move analysed. */
  readonly ply: number;
  /** The number of moves on the main line. */
  readonly total: number;
  /** Which search: the position before the move, or the one after the move played. */
  readonly phase: "best" | "played";
  /** The search's latest report. */
  readonly progress: Progress;
}

/**
 * Analyses one player's move (see the module's notes for the method): searches the
 * position before it, and the position after it unless it is among the optimal moves.
 * `undefined` when the search completed no iteration (a time budget too short).
 */
export const analyseMove = <S>(
  game: Game<S>,
  step: LineStep<S>,
  settings: AnalysisSettings,
  onProgress: (phase: "best" | "played", p: Progress) => void = () => {},
): Effect.Effect<MoveAnalysis | undefined, SearchFailed> =>
  Effect.gen(function* () {
    if (step.by === CHANCE) return undefined;
    const by = step.by;
    const { strategy, params } = settings.strategy;
    const common = {
      distance: true,
      params,
      ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    };
    const options: EngineOptions = {
      ...common,
      ...(settings.timeMs !== undefined ? { timeMs: settings.timeMs } : { depth: settings.depth }),
      allBest: strategy.allBest === true,
    };
    const r = yield* search(
      { strategy, game, state: step.before, options },
      (p) => onProgress("best", p),
    );
    if (r.move === undefined || Number.isNaN(r.value)) return undefined;
    const side = (v: number) => (by === 0 ? v : -v);
    const optimal = r.bestMoves ?? [r.move];
    let played = r.value, exact = r.exact;
    if (!optimal.includes(step.move)) {
      // The value the first search gives the move: its child, one ply shallower.
      const depth = (settings.depth ?? r.depth) - 1;
      const after = yield* search({
        strategy,
        game,
        state: step.after,
        options: depthless(strategy) ? { ...options, allBest: false } : { ...common, depth },
      }, (p) => onProgress("played", p));
      if (Number.isNaN(after.value)) return undefined;
      played = byDistance(after.value, 1);
      exact &&= after.exact;
    }
    const bestValue = side(r.value);
    const playedValue = side(played);
    const loss = Math.max(0, bestValue - playedValue);
    const mistake = judgeMove(bestValue, playedValue, settings.margin, exact);
    return {
      ply: step.ply,
      by,
      best: r.move,
      bestNotation: game.formatMove(step.before, r.move),
      bestValue,
      playedValue,
      loss,
      exact,
      depth: r.depth,
      ...(mistake !== undefined ? { mistake } : {}),
    };
  });

/** A strategy whose budget is not a depth (MCTS counts iterations). */
const depthless = (strategy: Strategy) => strategy.name === "mcts";

/**
 * Analyses every player's move of a line in order, adding each result to `into` as soon
 * as it is known (so that an interrupted pass keeps what it found); chance moves, and
 * moves whose search completed nothing, get `undefined`.
 */
export const analyseLine = <S>(
  game: Game<S>,
  line: readonly LineStep<S>[],
  settings: AnalysisSettings,
  onProgress: (p: AnalysisProgress) => void = () => {},
  into: (MoveAnalysis | undefined)[] = [],
): Effect.Effect<(MoveAnalysis | undefined)[], SearchFailed> =>
  Effect.gen(function* () {
    for (const step of line.slice(into.length)) {
      into.push(
        yield* analyseMove(game, step, settings, (phase, progress) =>
          onProgress({ ply: step.ply, total: line.length, phase, progress })),
      );
    }
    return into;
  });

/** The first line of an exception's message. */
const why = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0];

/** A saved game, checked and opened. */
interface Loaded {
  readonly transcript: Transcript;
  readonly opened: LoadedGame;
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
    const opened = yield* loadGame(transcript.game, options as Record<string, unknown>);
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
    (a.mistake !== undefined ? ` - MISTAKE: ${a.mistake}` : "");
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

/** Each player's mistakes in order (one player in a solo game), by name. */
const mistakesBy = ({ game, analyses }: Reviewed) =>
  (game.solo === true ? [0] : [0, 1]).map((p) => ({
    name: game.players[p],
    mistakes: analyses.filter((a): a is MoveAnalysis => a?.by === p && a.mistake !== undefined),
  }));

/** The summary of an analysis: moves analysed, and each player's mistakes. */
const summaryText = (reviewed: Reviewed, how: string, interrupted: boolean) => {
  const { line, analyses } = reviewed;
  const analysed = analyses.filter((a) => a !== undefined).length;
  const playerMoves = line.filter((s) => s.by !== CHANCE).length;
  const listed = (ms: readonly MoveAnalysis[]) =>
    ms.length === 0 ? "no mistakes" : `${ms.length} mistake${ms.length === 1 ? "" : "s"}: ` +
      ms.map((a) => `move ${a.ply} played ${line[a.ply - 1].notation} (${a.mistake})`)
        .join(", ");
  return (interrupted
    ? `Analysis interrupted after ${analyses.length} of ${line.length} moves.\n`
    : "") +
    `Analysis (${how}): ${analysed} of ${playerMoves} moves analysed.\n` +
    mistakesBy(reviewed).map((p) => `  ${p.name}: ${listed(p.mistakes)}\n`).join("");
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
    mistake: a.mistake !== undefined,
    ...(a.mistake !== undefined ? { why: a.mistake } : {}),
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
) =>
  Effect.gen(function* () {
    const fail = (message: string) => Effect.fail(new UsageError({ message }));
    if (flags.analyze !== undefined && flags.time !== undefined) {
      return yield* fail("--analyze and --time cannot be combined: give a depth or a time");
    }
    if (flags.analyze === undefined && flags.time === undefined) {
      if (flags.strategy !== undefined) {
        return yield* fail("--strategy chooses the analysis's search: add --analyze D or --time T");
      }
      return undefined;
    }
    const chosen = yield* strategyFlag(
      typeof flags.strategy === "string" ? flags.strategy : "alphabeta",
      strategies,
    );
    if (depthless(chosen.strategy) && flags.analyze !== undefined) {
      return yield* fail(`${chosen.name} has no depth: give --time T instead of --analyze D`);
    }
    const depth = yield* intFlag(flags, "analyze", 4, 1, 1000);
    const timeMs = typeof flags.time === "string" ? yield* timeFlag(flags.time) : undefined;
    const asked: Asked = { strategy: chosen, ...(timeMs !== undefined ? { timeMs } : { depth }) };
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
  const asked = yield* analysisFlags(flags, strategiesFor(plugin));
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
    };
    how = `${asked.strategy.name}, ` +
      (asked.timeMs !== undefined ? `${asked.timeMs} ms per position` : `depth ${asked.depth}`);
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
      mistakes: Object.fromEntries(
        mistakesBy(reviewed).map((p) => [
          p.name,
          p.mistakes.map((a) => ({
            ply: a.ply,
            notation: line[a.ply - 1].notation,
            loss: a.loss,
            why: a.mistake,
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
