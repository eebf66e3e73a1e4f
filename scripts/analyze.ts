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
import { openHostedGame } from "../app/games.ts";
import { Effect, Option } from "../core/deps.ts";
import { type Progress, search } from "../core/engine/engine.ts";
import { CHANCE, type Player, WIN_THRESHOLD } from "../core/game.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { MCTS_SCALE } from "../core/search/mcts.ts";
import type { SearchResult } from "../core/search/types.ts";
import { Terminal, untilInterrupted, writeStdout } from "../app/terminal.ts";
import type { EngineOptions } from "../core/engine/engine.ts";
import { isDecisive, num, sideValue, StatusLine } from "../app/display.ts";
import {
  checkSearchFlags,
  formatValue,
  intFlag,
  parseCommandLine,
  parseMoves,
  printHelp,
  runMain,
  strategiesFor,
  strategyFlag,
  timeFlag,
  ttFlag,
  UsageError,
} from "../app/cli.ts";

const USAGE = `Usage: deno task analyze GAME [--OPTION VALUE ...] [--moves M1,M2,...]
                          [--strategy NAME] [--depth D | --time T | --solve] [--json]
Analyses the position after the moves (in the game's notation, comma-separated).

  --moves LIST     moves from the start, e.g. a1,b2 (default: the start position)
  --strategy NAME  minimax, alphabeta (default), expectimax, mcts, a parallel one
                   (par_then_mm, par_then_ab, young_bros, lazy_smp), or the game's own;
                   parameters follow commas: young_bros,par=2
  --workers N      worker threads for the parallel strategies (default: the cores)
  --depth D        search depth in plies (default 6)
  --iterations N   mcts's budget: iterations (playouts) instead of a depth (default 10000)
  --time T         time budget instead of a depth: 500ms, 2s, or milliseconds
  --solve          the exact value: the game's solver, or alpha-beta to the end
  --all            also list every optimal move (alpha-beta and minimax)
  --json           one JSON object instead of text
  --jsonl          every completed iteration as a JSON line, then the result's
  --tt-mb N        transposition table size in MB (default 64)
  --debug          show the stack of a plugin's exception
Values are from the side to move's point of view, named in the text (value for south:
+3; mcts's are on its own scale, said beside them); in JSON, value is from the first
player's, as the engine computes it. On a terminal, each completed iteration prints an
info line; Ctrl-C stops the search and prints the best move so far (from the last
completed iteration), exit code 130.
`;

const FLAGS = {
  string: ["moves", "strategy", "depth", "iterations", "time", "tt-mb", "workers"],
  boolean: ["json", "jsonl", "solve", "all"],
} as const;

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length !== 1) {
    return yield* new UsageError({ message: "name one game to analyse" });
  }
  const opened = yield* openHostedGame(positional[0], gameOptions);
  const { game, plugin } = opened;
  const strategies = strategiesFor(plugin);
  const { moves, state } = yield* parseMoves(
    game,
    typeof flags.moves === "string" ? flags.moves : "",
  );
  const solve = flags.solve === true;
  const { name, strategy, params } = yield* strategyFlag(
    typeof flags.strategy === "string"
      ? flags.strategy
      : solve && strategies.solve !== undefined
      ? "solve"
      : "alphabeta",
    strategies,
  );
  yield* checkSearchFlags(flags, name, strategies);
  // --solve only where the search can end with the exact value.
  if (solve && strategy.solves === false) {
    return yield* new UsageError({
      message: `--solve: ${name} estimates values and never proves them; ` +
        `use --strategy alphabeta${strategies.solve !== undefined ? " or solve" : ""}`,
    });
  }
  if (solve && game.unsolvable !== undefined && strategies[name] !== plugin.strategies?.solve) {
    return yield* new UsageError({ message: `--solve: ${game.unsolvable}` });
  }
  const ttMb = yield* ttFlag(flags);
  // MCTS's budget is a number of iterations (--iterations); --depth is plies, for the others.
  const iterative = name === "mcts";
  if (flags[iterative ? "depth" : "iterations"] !== undefined) {
    return yield* new UsageError({
      message: iterative
        ? "--depth is a depth in plies, and mcts counts iterations: give --iterations N or --time T"
        : `--iterations is mcts's budget; ${name} takes --depth D (plies) or --time T`,
    });
  }
  if (flags.iterations !== undefined && flags.time !== undefined) {
    return yield* new UsageError({
      message: "--iterations and --time cannot be combined: give an iteration count or a time",
    });
  }
  const depth = solve ? Infinity : yield* intFlag(flags, "depth", 6, 0, 1000);
  const iterations = yield* intFlag(flags, "iterations", 10_000, 1, 1e8);
  const timeMs = typeof flags.time === "string" ? yield* timeFlag(flags.time) : undefined;
  const options: EngineOptions = {
    ...(timeMs !== undefined ? { timeMs } : iterative ? { iterations } : { depth }),
    distance: true,
    allBest: flags.all === true,
    // The core table, for the core strategies (a game's own strategy keeps its own).
    tt: game.key !== undefined && plugin.strategies?.[name] === undefined
      ? TranspositionTable.shared(ttMb)
      : false,
    params,
  };
  if (game.toMove(state) !== CHANCE && game.moves(state).length === 0) {
    const o = game.outcome(state);
    return yield* new UsageError({
      message: `the game is over after these moves (${
        o?.winner === null ? "a draw" : `${game.players[o?.winner ?? 0]} won`
      }): nothing to analyse`,
    });
  }
  const notation = (line: readonly number[], from = state) => {
    let s = from;
    return line.map((m) => {
      const t = game.formatMove(s, m);
      s = game.play(s, m);
      return t;
    });
  };
  /**
   * At a chance node: why there is no best move (chance's move is drawn, not chosen), and
   * how to analyse the choice after it (the moves with one of chance's outcomes added).
   */
  const atChanceNode = (): { why: string; hint: string } => {
    const outcomes = game.chances(state);
    const first = outcomes[0].move;
    const text = game.formatMove(state, first);
    const said = game.describeMove?.(state, first, game.play(state, first));
    const next = game.toMove(game.play(state, first));
    const list = [...notation(moves, game.initial()), text].join(",");
    const opts = Object.entries(gameOptions)
      .map(([k, v]) => ` --${k} ${shellWord(Array.isArray(v) ? v.join(",") : String(v))}`)
      .join("");
    return {
      why: `no best move: chance moves here, not a player (its move is drawn at random ` +
        `from ${outcomes.length} outcomes, such as ${text}${said ? `: ${said}` : ""})\n`,
      hint: `To analyse ${next === CHANCE ? "a player" : game.players[next]}'s move, add ` +
        `chance's to --moves: deno task analyze ${shellWord(opened.specifier)}${opts} ` +
        `--moves ${shellWord(list)}\n`,
    };
  };
  const toMove = game.toMove(state);
  // The values shown are the side to move's (at a chance node, the first player's).
  const side: Player = toMove === CHANCE ? 0 : toMove;
  const valueText = (v: number) =>
    isDecisive(v)
      ? `value: ${sideValue(game, v, side)}`
      : `value for ${game.players[side]}: ${sideValue(game, v, side)}`;
  const mode = flags.jsonl === true ? "jsonl" : flags.json === true ? "json" : "text";
  /**
   * Who wins with perfect play, for an exact result: the player a decisive value names,
   * else the winner at the end of the principal variation (`null`: a draw); `undefined`
   * when the result does not say (a heuristic value, a line that stops short of the end).
   */
  const winnerOf = (r: SearchResult): string | null | undefined => {
    if (!r.exact) return undefined;
    if (Math.abs(r.value) >= WIN_THRESHOLD) return game.players[r.value > 0 ? 0 : 1];
    let s = state;
    for (const m of r.pv) s = game.play(s, m);
    const o = game.toMove(s) !== CHANCE && game.moves(s).length === 0 ? game.outcome(s) : undefined;
    return o === undefined ? undefined : o.winner === null ? null : game.players[o.winner];
  };
  /** A result as JSON (the final object of --json, each line of --jsonl). */
  const json = (r: SearchResult, extra: Record<string, unknown>) => ({
    ...extra,
    depth: r.depth,
    exact: r.exact,
    bestMove: r.move === undefined ? null : game.formatMove(state, r.move),
    ...(r.bestMoves ? { bestMoves: r.bestMoves.map((m) => game.formatMove(state, m)) } : {}),
    value: r.value,
    valueText: formatValue(game, r.value),
    ...(winnerOf(r) !== undefined ? { winner: winnerOf(r) } : {}),
    pv: notation(r.pv),
    ...(r.bounds ? { bounds: r.bounds } : {}),
    nodes: r.nodes,
    timeMs: Math.round(r.timeMs * 10) / 10,
    nodesPerSecond: Math.round(nps(r)),
  });
  if (mode === "text") {
    yield* term.print(
      `${plugin.name}${moves.length > 0 ? ` after ${flags.moves}` : ", start position"} ` +
        `(${toMove === CHANCE ? "chance" : game.players[toMove]} to move):\n` +
        `${game.render(state)}\n`,
    );
  }
  // Progress: an info line per iteration on a terminal (a status line on standard error
  // while a long iteration runs), every iteration as a JSON line with --jsonl.
  const live = mode === "text" && Deno.stdout.isTerminal();
  const status = live && Deno.stderr.isTerminal() ? new StatusLine() : undefined;
  let last: SearchResult | undefined;
  const onProgress = (p: Progress) => {
    if (p._tag === "Heartbeat") {
      if (mode === "jsonl") {
        writeStdout(JSON.stringify({ type: "heartbeat", timeMs: p.timeMs }) + "\n");
      }
      status?.show(
        `searching ${(p.timeMs / 1000).toFixed(0)} s` +
          (last === undefined
            ? ""
            : last.bounds !== undefined
            ? ` (bounds ${boundsText(last.bounds)} after step ${last.depth}, ` +
              `${num(last.nodes)} nodes)`
            : ` (depth ${last.depth} done, ${num(last.nodes)} nodes)`),
      );
      return;
    }
    last = p.result;
    if (mode === "jsonl") writeStdout(JSON.stringify(json(p.result, { type: "iteration" })) + "\n");
    else if (live) {
      status?.clear();
      writeStdout(infoLine(p.result) + "\n");
    }
  };
  /** Bounds from the side to move's point of view (the engine's are the first player's). */
  const boundsText = (b: NonNullable<SearchResult["bounds"]>) => {
    const [low, high] = side === 0 ? [b.lower, b.upper] : [b.upper, b.lower];
    return `for ${game.players[side]}: ${sideValue(game, low, side)}..` +
      sideValue(game, high, side);
  };
  // A solver's step (an MTD(f) pass, a root move settled) shows the bounds it proved.
  const infoLine = (r: SearchResult) =>
    (r.bounds !== undefined
      ? `info step ${r.depth}  bounds ${boundsText(r.bounds)}  guess ${
        sideValue(game, r.value, side)
      }  `
      : `info depth ${r.depth}${r.exact ? " (exact)" : ""}  ${valueText(r.value)}  `) +
    (r.visits !== undefined ? `visits ${num(r.visits)}  ` : "") +
    `nodes ${num(r.nodes)}  ${num(nps(r))} nodes/s  ${(r.timeMs / 1000).toFixed(2)} s  ` +
    `pv ${notation(r.pv).join(" ")}`;
  const started = performance.now();
  const found = yield* untilInterrupted(
    search({ strategy, game, source: opened.source, state, options }, onProgress),
  );
  status?.clear();
  // Interrupted: what the last completed iteration found, marked incomplete.
  const r = Option.getOrUndefined(found) ?? last;
  const interrupted = Option.isNone(found);
  if (r === undefined) {
    const secs = ((performance.now() - started) / 1000).toFixed(2);
    if (mode === "text") {
      yield* term.print(`interrupted after ${secs} s, before the first iteration completed\n`);
    } else {
      yield* term.print(
        JSON.stringify({ type: "result", interrupted: true, complete: false, bestMove: null }) +
          "\n",
      );
    }
    return 0;
  }
  if (mode !== "text") {
    yield* term.print(
      JSON.stringify(json(r, {
        ...(mode === "jsonl" ? { type: "result" } : {}),
        game: opened.specifier,
        options: opened.options,
        moves: notation(moves, game.initial()),
        toMove: toMove === CHANCE ? "chance" : game.players[toMove],
        strategy: name,
        ...(interrupted ? { interrupted: true } : {}),
        complete: !interrupted,
        notes: r.notes ?? [],
      })) + "\n",
    );
    return 0;
  }
  // MCTS's values are its playouts' mean result, scaled (see core/search/mcts.ts).
  const scale = name !== "mcts" || isDecisive(r.value)
    ? ""
    : game.solo === true
    ? ` (mcts: the mean score of its playouts, from 0 for none to +${MCTS_SCALE} for the ` +
      `best score the search saw)`
    : ` (mcts: ${game.players[side]}'s mean playout result, from -${MCTS_SCALE} when every ` +
      `playout is lost to +${MCTS_SCALE} when every one is won)`;
  const atChance = toMove === CHANCE;
  yield* term.print(
    (interrupted
      ? `interrupted: the best so far, from the last completed iteration (incomplete)\n`
      : "") +
      `strategy ${name}, depth ${r.depth}${r.exact ? " (exact: to the end of every line)" : ""}\n` +
      (atChance
        ? atChanceNode().why
        : `best move: ${r.move === undefined ? "none" : game.formatMove(state, r.move)}\n`) +
      (r.bestMoves && !atChance
        ? `optimal moves: ${r.bestMoves.map((m) => game.formatMove(state, m)).join(" ")}\n`
        : "") +
      `${valueText(r.value)}${atChance ? ", the mean over chance's outcomes" : scale}\n` +
      (atChance ? "" : `principal variation: ${notation(r.pv).join(" ")}\n`) +
      `nodes: ${num(r.nodes)}  time: ${(r.timeMs / 1000).toFixed(3)} s  ` +
      `(${num(nps(r))} nodes/s)\n` +
      (atChance ? atChanceNode().hint : "") +
      (r.notes ?? []).map((line) => `${line}\n`).join(""),
  );
  return 0;
});

/** A word as a shell reads it: as it is when it is safe, else single-quoted. */
const shellWord = (w: string): string =>
  /^[\w,.:=+\/@%-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;

/** A search's speed. */
const nps = (r: SearchResult) => (r.timeMs > 0 ? (r.nodes / r.timeMs) * 1000 : 0);

/** Runs the program (its entry, `start/analyze.ts`, starts the game's thread first). */
export const start = (): void => runMain(main, "deno task analyze");

if (import.meta.main) start();
