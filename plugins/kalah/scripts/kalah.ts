/**
 * `deno task kalah` — seed 004's command line:
 *
 * ```text
 * deno task kalah pve MODE PARAMS                   you (player 0) against the AI
 * deno task kalah eve MODE1 PARAMS1 MODE2 PARAMS2   AI against AI
 * deno task kalah onemove MODE PARAMS               the AI's move on the initial board
 * deno task kalah benchmark [NAME]                  seed 004's benchmark groups
 * ```
 *
 * MODE is `seq_mm` or `seq_ab` with PARAMS `(depth)`, or a parallel mode (`par_then_mm`,
 * `par_then_ab`, `young_bros`) with PARAMS `(depth,parDepth)`, run on `--workers N` worker
 * threads (default: the cores). Board options (`--pits`, `--stones`, `--capture`, also
 * `--eval`, `--board`) apply to every mode.
 *
 * It prints what seed 004's program prints: moves as its board indices (`onemove`'s
 * "Optimal move is 2" is house 3; "AI picked" says the index + 1, so 1-6 for player 0 and
 * 8-13 for player 1 on six houses a side), and errors as `Error: ` and the message.
 *
 * @module
 */
import { Effect, Option } from "../../../core/deps.ts";
import type { Game, Player } from "../../../core/game.ts";
import { runGame } from "../../../app/match.ts";
import type { Agent } from "../../../app/players/agents.ts";
import type { SearchResult } from "../../../core/search/types.ts";
import type { SearchError } from "../../../core/errors.ts";
import type { GameSource } from "../../../core/source.ts";
import { openHostedGame } from "../../../app/games.ts";
import { Terminal, untilInterrupted } from "../../../app/terminal.ts";
import kalahPlugin, { type KalahState } from "../mod.ts";
import type { GamePlugin } from "../../../core/plugin.ts";
import { WorkerPool } from "../../../core/parallel/pool.ts";
import {
  modeByName,
  modeNamesMessage,
  type ModeParams,
  MODES,
  type ModeSpec,
  parseParams,
} from "../modes.ts";
import {
  gameHelp,
  intFlag,
  parseCommandLine,
  runMain,
  UsageError,
  type UserError,
  workersFromArgs,
} from "../../../app/cli.ts";
import { limitsFromArgs } from "../../../app/limits.ts";
import { num } from "../../../app/display.ts";

const USAGE = `Usage: deno task kalah pve AI_1_mode AI_1_params
Usage: deno task kalah eve AI_1_mode AI_1_params AI_2_mode AI_2_params
Usage: deno task kalah onemove AI_1_mode AI_1_params
Usage: deno task kalah benchmark [NAME] [--runs N]
Kalah's classic programs. pve: you are player 0 (south, moving first) against the AI;
eve: two AIs; onemove: the AI's move on the initial board; benchmark: depth-9 searches
from the initial board (NAME selects groups by prefix, such as seq_mm or seq_ab/9;
--runs N times N runs after a warm-up, default at least 5 runs and 2 s).

AI modes and params:
${
  MODES.map((m) =>
    `  ${m.name.padEnd(12)} ${
      m.arity === 1 ? "(depth)         " : "(depth,parDepth)"
    } ${m.description}`
  ).join("\n")
}
Board options for every mode: --pits N (6), --stones N (4), --capture nonempty|always,
--eval util|store, --board play|plain. --workers N: threads for the parallel modes.
Example: deno task kalah eve seq_ab 7 seq_mm "(5)" --pits 4 --stones 3
`;

/** A usage error with seed 004's message. */
const fail = (message: string) => Effect.fail(new UsageError({ message }));

/** Reads `MODE PARAMS` into a runnable mode (seed 004's `parseModeAndParams`). */
const parseMode = (mode: string, params: string) =>
  Effect.gen(function* () {
    const spec: ModeSpec | undefined = modeByName(mode);
    if (spec === undefined) return yield* fail(modeNamesMessage());
    const parsed = parseParams(spec, params);
    if ("error" in parsed) return yield* fail(parsed.error);
    return { spec, params: parsed.params, search: spec.search };
  });

type Mode = Effect.Success<ReturnType<typeof parseMode>>;

/** Seed 004's board index of the mover's house `move` (0-5 for player 0, 7-12 for 1). */
const seedIndex = (game: Game<KalahState>, state: KalahState, move: number, n: number): number =>
  game.toMove(state) === 0 ? move : n + 1 + move;

/** Seed 004's score line. */
const scoreText = (s: readonly number[], n: number): string => {
  let p0 = 0, p1 = 0;
  for (let i = 0; i <= n; i++) p0 += s[i];
  for (let i = n + 1; i <= 2 * n + 1; i++) p1 += s[i];
  const winner = p0 > p1 ? "Player 0 wins!" : p1 > p0 ? "Player 1 wins!" : "Tie!";
  return `${winner}\nPlayer 0 score: ${p0} - Player 1 score: ${p1}\n`;
};

/** An AI player: announces the turn, searches, and says which house it picked. */
const aiAgent = (mode: Mode, source: GameSource, n: number): Agent<KalahState, Terminal> => ({
  name: `${mode.spec.name} ${
    mode.params.parDepth === undefined
      ? mode.params.depth
      : `(${mode.params.depth},${mode.params.parDepth})`
  }`,
  choose: (game, state) =>
    Effect.gen(function* () {
      const term = yield* Terminal;
      yield* term.print(`Player ${game.toMove(state)}'s turn.\n`);
      const r: SearchResult = yield* mode.search(game, source, state, mode.params);
      const move = r.move ?? game.moves(state)[0];
      yield* term.print(`AI picked ${seedIndex(game, state, move, n) + 1}.\n`);
      return { _tag: "Move", move, search: r } as const;
    }),
});

/** Seed 004's human player: valid moves as a list, "Invalid move." until one is. */
const humanAgent: Agent<readonly number[], Terminal> = {
  name: "human",
  choose: (game, state) =>
    Effect.gen(function* () {
      const term = yield* Terminal;
      yield* term.print(`Player ${game.toMove(state)}'s turn.\n`);
      const legal = game.moves(state);
      while (true) {
        yield* term.print(
          `Valid Moves are: [${legal.map((m) => game.formatMove(state, m)).join(",")}]\n`,
        );
        const line = yield* term.readLine("");
        if (Option.isNone(line)) return { _tag: "Stop", reason: "end of input" } as const;
        const text = line.value.trim();
        if (["quit", "exit", "q"].includes(text.toLowerCase())) {
          return { _tag: "Stop", reason: "quit" } as const;
        }
        const r = game.parseMove(state, text);
        if (r._tag === "Success" && legal.includes(r.success)) {
          return { _tag: "Move", move: r.success } as const;
        }
        yield* term.print("Invalid move.\n");
      }
    }),
};

/** Plays a game with seed 004's printing (`pVsAI` / `aIVsAI`). */
const playOut = (
  game: Game<readonly number[]>,
  n: number,
  players: readonly [Agent<readonly number[], Terminal>, Agent<readonly number[], Terminal>],
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const { transcript, final } = yield* runGame(game, players, {
      gameId: "kalah",
      seed: 0,
      interrupted: term.interrupted,
      interruption: term.interruption,
      onEvent: (e) => {
        switch (e._tag) {
          case "Start":
            return term.print(`Initializing Board...\n${game.render(e.state)}\n`);
          case "Moved":
            return term.print(`${game.render(e.state)}\n\n`);
          default:
            return Effect.void;
        }
      },
    });
    const r = transcript.result;
    if (r.reason === "end") yield* term.print(scoreText(final, n));
    else if (r.reason === "quit") {
      yield* term.print(`Player ${r.by as Player} gave up; Player ${r.winner} wins.\n`);
    } else yield* term.print("Input ended; the game stops here.\n");
  });

/**
 * Times one benchmark: a warm-up, then `runs` runs, or (by default) runs until there
 * are 5 and 2 s have passed (at most 50).
 */
const benchOne = (
  game: Game<readonly number[]>,
  source: GameSource,
  spec: ModeSpec,
  params: ModeParams,
  runs: number | undefined,
) =>
  Effect.gen(function* () {
    yield* spec.search(game, source, game.initial(), params); // warm-up (and worker start-up)
    const times: number[] = [];
    let r: SearchResult | undefined;
    const t0 = performance.now();
    const more = () =>
      runs !== undefined
        ? times.length < runs
        : times.length < 5 || (performance.now() - t0 < 2000 && times.length < 50);
    while (more()) {
      const t = performance.now();
      r = yield* spec.search(game, source, game.initial(), params);
      times.push(performance.now() - t);
    }
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const best = Math.min(...times);
    return { mean, best, runs: times.length, result: r! };
  });

const main = Effect.gen(function* () {
  // Seed 004's parameters may be negative numbers ("-1"): only "--name value" pairs and
  // -h/--help are options here, every other word is positional.
  const optionWords: string[] = [], positional: string[] = [];
  for (let i = 0; i < Deno.args.length; i++) {
    const a = Deno.args[i];
    if (a === "-h" || a === "--help") optionWords.push(a);
    else if (a.startsWith("--")) {
      optionWords.push(a);
      if (!a.includes("=") && i + 1 < Deno.args.length) optionWords.push(Deno.args[++i]);
    } else positional.push(a);
  }
  const { flags, gameOptions } = yield* parseCommandLine(optionWords, {
    string: ["runs", "workers"],
    boolean: [],
  });
  const term = yield* Terminal;
  if (flags.help === true) {
    yield* term.print(USAGE + "\n" + gameHelp(kalahPlugin as GamePlugin<unknown, unknown>));
    return 0;
  }
  const runs = flags.runs === undefined ? undefined : yield* intFlag(flags, "runs", 5, 1, 1000);
  // Hosted in its plugin thread (never on this one), with its source, so that the
  // engine's workers can open the same game.
  const { game: made, source, options } = yield* openHostedGame("kalah", gameOptions);
  const game = made as Game<KalahState>;
  const { pits: n, stones } = options as { readonly pits: number; readonly stones: number };
  const [command, ...args] = positional;
  if (command === "pve" && args.length === 2) {
    const ai = yield* parseMode(args[0], args[1]);
    yield* playOut(game, n, [humanAgent, aiAgent(ai, source, n)]);
    return 0;
  }
  if (command === "eve" && args.length === 4) {
    const ai1 = yield* parseMode(args[0], args[1]);
    const ai2 = yield* parseMode(args[2], args[3]);
    yield* playOut(game, n, [aiAgent(ai1, source, n), aiAgent(ai2, source, n)]);
    return 0;
  }
  if (command === "onemove" && args.length === 2) {
    const ai = yield* parseMode(args[0], args[1]);
    yield* term.print("Initializing Board...\n");
    const s = game.initial();
    if (ai.params.depth === 0) {
      yield* term.print("Optimal move is -1 (depth 0 searches nothing)\n");
      return 0;
    }
    const found = yield* untilInterrupted(ai.search(game, source, s, ai.params));
    if (Option.isNone(found)) {
      yield* term.print("Interrupted: the search stopped before choosing a move.\n");
      return 0;
    }
    const r = found.value;
    yield* term.print(
      r.move === undefined
        ? "Optimal move is -1 (the game is over: there is no move)\n"
        : `Optimal move is ${seedIndex(game, s, r.move, n)}\n`,
    );
    return 0;
  }
  if (command === "benchmark" && args.length <= 1) {
    const name = args[0] ?? "";
    const groups = MODES.flatMap((spec) =>
      spec.bench.map((params) => ({
        spec,
        params,
        id: `${spec.name}/${
          params.parDepth === undefined ? params.depth : `${params.depth}/${params.parDepth}`
        }`,
      }))
    ).filter((b) => b.id.startsWith(name));
    if (groups.length === 0) {
      return yield* fail(
        `no benchmark matches '${name}'; groups: ${MODES.map((m) => m.name).join(", ")}`,
      );
    }
    const ready = groups;
    const pool = yield* WorkerPool;
    yield* term.print(
      `Kalah(${n}, ${stones}) ` +
        `from the initial board (parallel modes: ${pool.size} workers)\n`,
    );
    const benchmarks = Effect.forEach(ready, (b) =>
      Effect.gen(function* () {
        yield* term.print(`benchmarking ${b.id}\n`);
        const m = yield* benchOne(game, source, b.spec, b.params, runs);
        yield* term.print(
          `time                 ${m.mean.toFixed(1)} ms (best ${m.best.toFixed(1)} ms, ` +
            `${m.runs} runs)\n` +
            `nodes                ${num(m.result.nodes)} (${
              (m.result.nodes / m.best / 1000).toFixed(2)
            } M nodes/s at best)\n` +
            `move                 ${
              m.result.move === undefined ? "none" : game.formatMove(game.initial(), m.result.move)
            } (value ${m.result.value})\n`,
        );
      }), { discard: true });
    if (Option.isNone(yield* untilInterrupted(benchmarks))) {
      yield* term.print("Interrupted: the benchmarks stop here.\n");
    }
    return 0;
  }
  return yield* fail(
    command === undefined
      ? "name a program: pve, eve, onemove or benchmark\n" +
        USAGE.split("\n").slice(0, 4).join("\n")
      : `bad arguments for '${positional.join(" ")}'\n` + USAGE.split("\n").slice(0, 4).join("\n"),
  );
}).pipe(Effect.scoped);

/**
 * Seed 004's error lines: `Error: ` and the message on standard error (the usage after a
 * bad command), and exit status 1 as the seed's `die` gives, for a mistake in the command
 * line as for a failed search.
 */
const seedErrors = <R>(program: Effect.Effect<number, UserError | SearchError, R>) =>
  Effect.catch(program, (e) =>
    Effect.sync(() => {
      console.error(`Error: ${e.message}`);
      return 1;
    }));

if (import.meta.main) {
  // runMain reads --workers and the call limits first; their mistakes, too, are said the
  // seed's way (runMain's own would be `error: ` and status 2).
  const flag = [workersFromArgs(Deno.args), limitsFromArgs(Deno.args)].find((r) =>
    typeof r === "string"
  );
  if (typeof flag === "string") {
    console.error(`Error: ${flag}`);
    Deno.exit(1);
  }
  runMain(seedErrors(main), "deno task kalah");
}
