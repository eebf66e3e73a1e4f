/**
 * `deno task analyze GAME [--OPTION VALUE ...] [--moves M1,M2,...] [--strategy NAME]
 * [--depth D | --time T | --solve] [--json]`
 *
 * Analyses the position after the given moves: best move(s), value, principal
 * variation, nodes and time. `--solve` asks for the exact game-theoretic value, with the
 * game's own solver when it has one (its `solve` strategy), else alpha-beta to the end.
 *
 * @module
 */
import { Effect, Result } from "../core/deps.ts";
import { parseParams } from "../core/players/spec.ts";
import { runStrategy } from "../core/search/strategies.ts";
import { CHANCE } from "../core/game.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import type { SearchOptions, Strategy } from "../core/search/types.ts";
import { Terminal } from "../core/terminal.ts";
import {
  formatValue,
  intFlag,
  num,
  openGame,
  parseCommandLine,
  parseMoves,
  printHelp,
  runMain,
  strategiesFor,
  ttFlag,
  UsageError,
} from "./cli.ts";

const USAGE = `Usage: deno task analyze GAME [--OPTION VALUE ...] [--moves M1,M2,...]
                          [--strategy NAME] [--depth D | --time T | --solve] [--json]
Analyses the position after the moves (in the game's notation, comma-separated).

  --moves LIST     moves from the start, e.g. a1,b2 (default: the start position)
  --strategy NAME  minimax, alphabeta (default), expectimax, mcts, a parallel one
                   (par_then_mm, par_then_ab, young_bros, lazy_smp), or the game's own;
                   parameters follow commas: young_bros,par=2
  --workers N      worker threads for the parallel strategies (default: the cores)
  --depth D        search depth in plies (default 6)
  --time T         time budget instead of a depth: 500ms, 2s, or milliseconds
  --solve          the exact value: the game's solver, or alpha-beta to the end
  --all            also list every optimal move (alpha-beta and minimax)
  --json           one JSON object instead of text
  --tt-mb N        transposition table size in MB (default 64)
`;

const FLAGS = {
  string: ["moves", "strategy", "depth", "time", "tt-mb", "workers"],
  boolean: ["json", "solve", "all"],
} as const;

/** Reads a time flag: `500ms`, `2s`, or a number of milliseconds. */
const timeFlag = (text: string): Effect.Effect<number, UsageError> => {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  const ms = m === null ? NaN : Number(m[1]) * (m[2] === "s" ? 1000 : 1);
  return ms > 0
    ? Effect.succeed(ms)
    : Effect.fail(new UsageError({ message: `--time must be like 500ms or 2s, got '${text}'` }));
};

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length !== 1) {
    return yield* new UsageError({ message: "name one game to analyse" });
  }
  const opened = yield* openGame(positional[0], gameOptions);
  const { game, plugin } = opened;
  const strategies = strategiesFor(plugin);
  const { moves, state } = yield* parseMoves(
    game,
    typeof flags.moves === "string" ? flags.moves : "",
  );
  const solve = flags.solve === true;
  if (solve && (flags.depth !== undefined || flags.time !== undefined)) {
    return yield* new UsageError({ message: "--solve searches to the end: drop --depth/--time" });
  }
  const [strategyText, ...paramTexts] = (typeof flags.strategy === "string" ? flags.strategy : "")
    .split(",");
  const params = parseParams(paramTexts);
  if (Result.isFailure(params)) {
    return yield* new UsageError({ message: `--strategy: ${params.failure}` });
  }
  const name = strategyText !== ""
    ? strategyText
    : solve && strategies.solve !== undefined
    ? "solve"
    : "alphabeta";
  const strategy: Strategy | undefined = strategies[name];
  if (strategy === undefined) {
    return yield* new UsageError({
      message: `--strategy must be one of ${Object.keys(strategies).join(", ")}; got '${name}'`,
    });
  }
  const ttMb = yield* ttFlag(flags);
  // For mcts the "depth" is an iteration count.
  const depth = solve
    ? Infinity
    : yield* intFlag(flags, "depth", name === "mcts" ? 10_000 : 6, 0, name === "mcts" ? 1e8 : 1000);
  const timeMs = typeof flags.time === "string" ? yield* timeFlag(flags.time) : undefined;
  const options: SearchOptions = {
    ...(timeMs !== undefined ? { timeMs } : { depth }),
    distance: true,
    allBest: flags.all === true,
    // The core table, for the core strategies (a game's own strategy keeps its own).
    tt: game.key !== undefined && plugin.strategies?.[name] === undefined
      ? new TranspositionTable(ttMb)
      : false,
    params: params.success,
  };
  if (game.toMove(state) !== CHANCE && game.moves(state).length === 0) {
    const o = game.outcome(state);
    return yield* new UsageError({
      message: `the game is over after these moves (${
        o?.winner === null ? "a draw" : `${game.players[o?.winner ?? 0]} won`
      }): nothing to analyse`,
    });
  }
  const r = yield* runStrategy(strategy, game, state, options);
  const notation = (line: readonly number[], from = state) => {
    let s = from;
    return line.map((m) => {
      const t = game.formatMove(s, m);
      s = game.play(s, m);
      return t;
    });
  };
  const toMove = game.toMove(state);
  const nps = r.timeMs > 0 ? (r.nodes / r.timeMs) * 1000 : 0;
  if (flags.json === true) {
    yield* term.print(
      JSON.stringify({
        game: opened.specifier,
        options: opened.options,
        moves: notation(moves, game.initial()),
        toMove: toMove === CHANCE ? "chance" : game.players[toMove],
        strategy: name,
        depth: r.depth,
        exact: r.exact,
        bestMove: r.move === undefined ? null : game.formatMove(state, r.move),
        bestMoves: r.bestMoves?.map((m) => game.formatMove(state, m)),
        value: r.value,
        valueText: formatValue(game, r.value),
        pv: notation(r.pv),
        nodes: r.nodes,
        timeMs: Math.round(r.timeMs * 10) / 10,
        nodesPerSecond: Math.round(nps),
        notes: r.notes ?? [],
      }) + "\n",
    );
    return 0;
  }
  yield* term.print(
    `${plugin.name}${moves.length > 0 ? ` after ${flags.moves}` : ", start position"} ` +
      `(${toMove === CHANCE ? "chance" : game.players[toMove]} to move):\n` +
      `${game.render(state)}\n` +
      `strategy ${name}, depth ${r.depth}${r.exact ? " (exact: to the end of every line)" : ""}\n` +
      `best move: ${r.move === undefined ? "none" : game.formatMove(state, r.move)}\n` +
      (r.bestMoves
        ? `optimal moves: ${r.bestMoves.map((m) => game.formatMove(state, m)).join(" ")}\n`
        : "") +
      `value: ${formatValue(game, r.value)}\n` +
      `principal variation: ${notation(r.pv).join(" ")}\n` +
      `nodes: ${num(r.nodes)}  time: ${(r.timeMs / 1000).toFixed(3)} s  ` +
      `(${num(nps)} nodes/s)\n` +
      (r.notes ?? []).map((line) => `${line}\n`).join(""),
  );
  return 0;
});

if (import.meta.main) runMain(main, "deno task analyze");
