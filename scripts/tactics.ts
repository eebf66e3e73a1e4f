/**
 * `deno task tactics GAME [--OPTION VALUE ...] [--seed S] [--count N] [--kinds LIST]
 * [--depth D|end] [--exact] [--last N] [--games N] [--out FILE]`
 *
 * `deno task tactics --check FILE [--strategy SPEC] [--seed S] [--json]`
 *
 * Writes a suite of tactical positions of a game (`app/tactics.ts`: a win in one, a
 * forced block, a win in two, from seeded random games, each labelled with its correct
 * moves by an exact search), or checks a strategy against a suite: the share of the
 * positions where it plays a correct move, per kind.
 *
 * @module
 */
import { openHostedGame } from "../app/games.ts";
import { collectTactics } from "../app/tactics_host.ts";
import { Effect, Option, Result } from "../core/deps.ts";
import { search } from "../core/engine/engine.ts";
import {
  judge,
  parseSuite,
  scoreTactics,
  suiteToJsonl,
  TACTIC_KINDS,
  type TacticKind,
  type TacticResult,
  type TacticsSuite,
  type TacticState,
  tacticState,
} from "../app/tactics.ts";
import { formatSpec } from "../app/players/spec.ts";
import { Terminal, untilInterrupted } from "../app/terminal.ts";
import { writeFileAtomic } from "../app/files.ts";
import {
  intFlag,
  parseCommandLine,
  playerSpec,
  printHelp,
  runMain,
  strategiesFor,
  UsageError,
  userPath,
} from "../app/cli.ts";

const USAGE = `Usage: deno task tactics GAME [--OPTION VALUE ...] [--seed S] [--count N]
                         [--kinds LIST] [--depth D|end] [--exact] [--last N] [--out FILE]
       deno task tactics --check FILE [--strategy SPEC] [--seed S] [--json]
Writes a suite of tactical positions drawn from seeded random games of GAME, each with
its correct moves by an exact search: win1 (a move wins at once), block (the opponent
threatens to win at once), win2 (a forced win within 3 plies). With --check, plays a
strategy on every position of a suite and reports the share it solves, per kind.

  --seed S         seed of the random games (default 1); with --check, of the searches
  --count N        positions of each kind (default 20)
  --kinds LIST     the kinds wanted, comma-separated (default win1,block,win2)
  --depth D        horizon of the labels in plies, 3 to 12, or end (default 3)
  --exact          also solve each position to the end; keep those whose labels agree
                   (small games: tic-tac-toe, nim, kalah --pits 3 --stones 2, ...)
  --last N         only positions at most N plies before the end of their game
  --games N        the most random games to play (default 200 per position wanted)
  --out FILE       write the suite there (default: standard output)
  --check FILE     check a strategy against the suite in FILE (its game and options)
  --strategy SPEC  the strategy with its budget, e.g. mcts:1000, alphabeta:4,
                   alphabeta:500ms (default mcts:1000)
  --json           with --check: one JSON object instead of text
A suite is JSON lines: a header (game, options, seed, depth), then one position per line
(its moves from the start in the game's notation, the mover, the correct moves).
`;

const FLAGS = {
  string: ["seed", "count", "kinds", "depth", "last", "games", "out", "check", "strategy"],
  boolean: ["exact", "json"],
} as const;

/** The flags that only generating takes, and the ones only --check takes. */
const GENERATING = ["count", "kinds", "depth", "last", "games", "out", "exact"];
const CHECKING = ["strategy", "json"];

const given = (flags: Record<string, unknown>, names: readonly string[]) =>
  names.filter((n) => flags[n] !== undefined && flags[n] !== false);

/** `--kinds win1,block`: the kinds, each checked. */
const kindsFlag = (text: string | undefined): Effect.Effect<TacticKind[], UsageError> => {
  if (text === undefined) return Effect.succeed([...TACTIC_KINDS]);
  const words = text.split(",").map((w) => w.trim().toLowerCase()).filter((w) => w !== "");
  const bad = words.find((w) => !(TACTIC_KINDS as readonly string[]).includes(w));
  return bad !== undefined || words.length === 0
    ? Effect.fail(
      new UsageError({
        message: `--kinds must list some of ${TACTIC_KINDS.join(", ")}, got '${text}'`,
      }),
    )
    : Effect.succeed(words as TacticKind[]);
};

/** `--depth 3..12` or `end`. */
const depthFlag = (text: string | undefined): Effect.Effect<number, UsageError> => {
  if (text === undefined) return Effect.succeed(3);
  if (text.trim().toLowerCase() === "end") return Effect.succeed(Infinity);
  const n = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  return n >= 3 && n <= 12 ? Effect.succeed(n) : Effect.fail(
    new UsageError({ message: `--depth must be an integer from 3 to 12, or end; got '${text}'` }),
  );
};

const generate = (
  positional: readonly string[],
  flags: Record<string, string | boolean | undefined>,
  gameOptions: Readonly<Record<string, unknown>>,
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    if (positional.length !== 1) {
      return yield* new UsageError({
        message: "name one game to draw positions from (or give --check FILE)",
      });
    }
    const from = positional[0];
    const seed = yield* intFlag(flags, "seed", 1, 0, 2 ** 31 - 1);
    const count = yield* intFlag(flags, "count", 20, 1, 100_000);
    const kinds = yield* kindsFlag(typeof flags.kinds === "string" ? flags.kinds : undefined);
    const depth = yield* depthFlag(typeof flags.depth === "string" ? flags.depth : undefined);
    const last = flags.last === undefined ? undefined : yield* intFlag(flags, "last", 0, 0, 1e6);
    const games = yield* intFlag(flags, "games", 200 * count, 1, 1e9);
    const out = typeof flags.out === "string" ? userPath(flags.out) : undefined;
    // The game is opened and its positions collected in a plugin thread, watched from here.
    const collected = yield* Effect.scoped(collectTactics(from, gameOptions, {
      seed,
      count,
      kinds,
      depth,
      games,
      exact: flags.exact === true,
      ...(last !== undefined ? { lastPlies: last } : {}),
    }, term.interruption));
    if (collected._tag === "Solo") {
      return yield* new UsageError({
        message: `${from} is played by one player against chance: ` +
          "there is no opponent, so no tactics",
      });
    }
    if (collected._tag === "Invalid") return yield* new UsageError({ message: collected.message });
    const { positions } = collected;
    const suite: TacticsSuite = {
      game: from,
      options: collected.options,
      seed,
      depth,
      positions,
    };
    const text = suiteToJsonl(suite);
    if (out !== undefined) {
      yield* Effect.try({
        try: () => writeFileAtomic(out, text),
        catch: (e) =>
          new UsageError({ message: `--out ${flags.out}: ${(e as Error).message.split("\n")[0]}` }),
      });
    } else yield* term.print(text);
    const counts = kinds.map((k) => `${positions.filter((p) => p.kind === k).length} ${k}`);
    const summary = `${collected.complete ? "" : "interrupted: "}${collected.plugin.id}, seed ` +
      `${seed}: ${counts.join(", ")} from ${collected.games} random games (labels: ` +
      `${depth === Infinity ? "to the end" : `${depth} plies`}${
        flags.exact === true ? ", exact" : ""
      })${out !== undefined ? `, written to ${flags.out}` : ""}\n`;
    // With the suite on standard output, the summary goes to standard error.
    if (out !== undefined) yield* term.print(summary);
    else console.error(summary.trimEnd());
    return 0;
  });

const check = (
  file: string,
  flags: Record<string, string | boolean | undefined>,
  gameOptions: Readonly<Record<string, unknown>>,
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const stray = Object.keys(gameOptions)[0];
    if (stray !== undefined) {
      return yield* new UsageError({
        message: `unknown option --${stray} (with --check the game and its options come ` +
          "from the suite)",
      });
    }
    const text = yield* Effect.tryPromise({
      try: () => Deno.readTextFile(userPath(file)),
      catch: (e) =>
        new UsageError({ message: `--check ${file}: ${(e as Error).message.split("\n")[0]}` }),
    });
    const parsed = parseSuite(text);
    if (Result.isFailure(parsed)) {
      return yield* new UsageError({ message: `--check ${file}: ${parsed.failure}` });
    }
    const suite = parsed.success;
    // The game runs in its plugin thread (its few calls here: replaying, judging).
    const opened = yield* openHostedGame(suite.game, suite.options);
    const { game, plugin } = opened;
    const strategies = strategiesFor(plugin);
    const spec = yield* playerSpec(
      "strategy",
      typeof flags.strategy === "string" ? flags.strategy : "mcts:1000",
      strategies,
    );
    if (spec.kind !== "search") {
      return yield* new UsageError({ message: `--strategy must be a search, got '${spec.kind}'` });
    }
    const strategy = strategies[spec.strategy];
    const seed = yield* intFlag(flags, "seed", 1, 0, 2 ** 31 - 1);
    const states: TacticState<unknown>[] = [];
    for (const [i, p] of suite.positions.entries()) {
      const at = tacticState(game, p);
      if (Result.isFailure(at)) {
        return yield* new UsageError({
          message: `--check ${file}: position ${i + 1}: ${at.failure}`,
        });
      }
      states.push(at.success);
    }
    const { strategy: _, kind: __, ...budget } = spec;
    const results: TacticResult[] = [];
    const run = Effect.gen(function* () {
      for (const [i, p] of suite.positions.entries()) {
        const r = yield* search({
          strategy,
          game,
          source: opened.source,
          state: states[i].state,
          options: { ...budget, distance: true, seed: seed + i },
        });
        results.push(judge(game, p, states[i], r.move, r.nodes));
      }
    });
    const done = yield* untilInterrupted(run);
    const score = scoreTactics(results);
    const name = formatSpec(spec);
    const pct = (a: number, b: number) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)}%`);
    const missed = results.flatMap((r, i) => r.solved ? [] : [{ i, r, p: suite.positions[i] }]);
    if (flags.json === true) {
      yield* term.print(
        JSON.stringify({
          suite: file,
          game: suite.game,
          seed,
          strategy: name,
          complete: Option.isSome(done),
          solved: score.solved,
          total: score.total,
          byKind: score.byKind,
          missed: missed.map(({ i, r, p }) => ({
            position: i + 1,
            kind: p.kind,
            moves: p.moves,
            played: r.move ?? null,
            correct: p.correct,
          })),
        }) + "\n",
      );
      return 0;
    }
    const lines = [
      `${Option.isNone(done) ? "interrupted: " : ""}${file}: ${plugin.name}, ` +
      `${suite.positions.length} positions (random games' seed ${suite.seed}); ` +
      `${name}, search seed ${seed}`,
      ...TACTIC_KINDS.flatMap((k) => {
        const s = score.byKind[k];
        return s === undefined
          ? []
          : [`  ${k.padEnd(6)} ${`${s.solved}/${s.total}`.padStart(9)}  ${pct(s.solved, s.total)}`];
      }),
      `  ${"all".padEnd(6)} ${`${score.solved}/${score.total}`.padStart(9)}  ` +
      pct(score.solved, score.total),
      ...(missed.length === 0 ? [] : ["missed:"]),
      ...missed.slice(0, 20).map(({ i, r, p }) =>
        `  #${i + 1} ${p.kind}: after ${p.moves.join(",") || "the start"} (${p.toMove}) ` +
        `played ${r.move ?? "nothing"}; correct: ${p.correct.join(" ")}`
      ),
      ...(missed.length > 20 ? [`  ... and ${missed.length - 20} more`] : []),
    ];
    yield* term.print(lines.join("\n") + "\n");
    return 0;
  });

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  const checking = typeof flags.check === "string";
  const wrong = given(flags, checking ? GENERATING : CHECKING)[0];
  if (wrong !== undefined) {
    return yield* new UsageError({
      message: checking
        ? `--${wrong} is for writing a suite; --check reads one`
        : `--${wrong} goes with --check FILE`,
    });
  }
  if (!checking) return yield* generate(positional, flags, gameOptions);
  if (positional.length > 0) {
    return yield* new UsageError({
      message: `--check reads the game from the suite: drop '${positional[0]}'`,
    });
  }
  return yield* check(flags.check as string, flags, gameOptions);
});

if (import.meta.main) runMain(main, "deno task tactics");
