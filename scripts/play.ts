/**
 * `deno task play [GAME] [--OPTION VALUE ...] [--p1 SPEC] [--p2 SPEC] [--seed N]`
 *
 * Plays a game at the terminal, each side a human or an AI. Without a game, a menu
 * (seed 002's) chooses the game, its options and both sides; pressing Enter at the
 * first question starts a game against the computer with the defaults.
 *
 * @module
 */
import { type LoadedGame, loadGame } from "../mod.ts";
import { Effect, Option, Result } from "../core/deps.ts";
import { CHANCE } from "../core/game.ts";
import { runGame } from "../core/match.ts";
import { agentFromSpec, freshSeed } from "../core/players/agents.ts";
import { formatSpec, parseSpec, type PlayerSpec } from "../core/players/spec.ts";
import {
  coerceOption,
  DEFAULT_OPPONENT,
  formatProblem,
  type LoadedPlugin,
  loadPlugin,
  makeGame,
  optionHelp,
} from "../core/plugin.ts";
import { Terminal } from "../core/terminal.ts";
import { guardPlugin } from "../core/guard.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import {
  checkSavePath,
  intFlag,
  parseCommandLine,
  playerSpec,
  printHelp,
  reportFault,
  runMain,
  strategiesFor,
  ttFlag,
  UsageError,
  userPath,
} from "./cli.ts";
import { describeProgress, describeResult, describeSearch, StatusLine } from "./display.ts";
import type { Progress } from "../core/engine/engine.ts";
import type { SearchResult } from "../core/search/types.ts";

const USAGE = `Usage: deno task play [GAME] [--OPTION VALUE ...] [--p1 SPEC] [--p2 SPEC] [--seed N]
Plays GAME at the terminal; without GAME, a menu chooses the game, options and players.
At a terminal, the sides not given are asked for (Enter takes the default).

  --p1 SPEC      the game's first player (player 0; default human)
  --p2 SPEC      its second player (player 1; default the game's AI)
                 (the names shown at the start say who is who and who moves first)
  --seed N       seed for chance moves and random players (default: a fresh one, shown)
  --save FILE    write the game's transcript (JSON) to FILE at the end
  --tt-mb N      transposition table size per AI player in MB (default 64)
  --help         this text; GAME --help lists the game's options
In a game, type a move in the game's notation, ? for the legal moves, or quit.
`;

const FLAGS = { string: ["p1", "p2", "seed", "save", "tt-mb", "workers"], boolean: [] } as const;

/**
 * Plays one game with printing, and saves the transcript if asked (also when the game
 * was interrupted or a plugin failed). Returns the exit code: 1 when a plugin failed.
 */
const playGame = (
  opened: LoadedGame,
  specs: readonly [PlayerSpec, PlayerSpec],
  seed: number,
  ttMb: number,
  save: string | undefined,
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const { game, plugin } = opened;
    const strategies = strategiesFor(plugin);
    const names = specs.map(formatSpec);
    // While an AI thinks, its latest iteration on a status line (a terminal only).
    const status = Deno.stderr.isTerminal() ? new StatusLine() : undefined;
    let last: SearchResult | undefined;
    const thinking = (p: 0 | 1) => (e: Progress) => {
      status?.show(`${game.players[p]} (${names[p]}) thinking: ${describeProgress(game, e, last)}`);
      if (e._tag === "Iteration") last = e.result;
    };
    const agents = [
      agentFromSpec<unknown>(specs[0], strategies, { ttMb, onProgress: thinking(0) }),
      agentFromSpec<unknown>(specs[1], strategies, { ttMb, onProgress: thinking(1) }),
    ] as const;
    yield* term.print(
      (game.solo === true
        ? `${plugin.name}: ${game.players[0]} (${names[0]}) against chance`
        : `${plugin.name}: ${game.players[0]} (${names[0]}) vs ${game.players[1]} (${names[1]})`) +
        `, seed ${seed}\n`,
    );
    const played = yield* runGame(game, agents, {
      gameId: opened.specifier,
      options: opened.options,
      seed,
      interrupted: term.interrupted,
      interruption: term.interruption,
      onEvent: (e) => {
        switch (e._tag) {
          case "Start":
            return term.print(`\n${game.render(e.state)}\n`);
          case "Moved": {
            status?.clear();
            last = undefined;
            const who = e.by === CHANCE ? "chance" : game.players[e.by];
            const why = e.search ? ` (${describeSearch(game, e.search)})` : "";
            return term.print(`${who} plays ${e.notation}${why}\n\n${game.render(e.state)}\n`);
          }
          case "End":
            return term.print(`${describeResult(game, e.result)}\n`);
        }
      },
    });
    status?.clear();
    const { transcript } = played;
    const opts = Object.entries(opened.options as Record<string, unknown>)
      .map(([k, v]) => ` --${k} ${Array.isArray(v) ? v.join(",") : String(v)}`).join("");
    yield* term.print(
      `Replay: deno task play ${opened.specifier}${opts} --p1 ${names[0]} --p2 ${names[1]} ` +
        `--seed ${seed}\n`,
    );
    if (save !== undefined) {
      yield* Effect.try({
        try: () => Deno.writeTextFileSync(save, JSON.stringify(transcript, null, 2) + "\n"),
        catch: (e) =>
          new UsageError({
            message: `--save: could not write ${save}: ${e instanceof Error ? e.message : e}`,
          }),
      });
      yield* term.print(`Transcript written to ${save}\n`);
    }
    const { result } = transcript;
    if (result.reason !== "error") return 0;
    yield* reportFault(result.error ?? "a search failed", played.trace);
    return 1;
  });

/** Asks a question until the answer parses; `None` when input ends. */
const ask = <A>(
  prompt: string,
  parse: (answer: string) => { ok: true; value: A } | { ok: false; error: string },
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    while (true) {
      const line = yield* term.readLine(prompt);
      if (Option.isNone(line)) return Option.none<A>();
      const r = parse(line.value.trim());
      if (r.ok) return Option.some(r.value);
      yield* term.print(`  ${r.error}\n`);
    }
  });

/** Seed 002's menu: the game, its options and each side. `None` if input ends. */
const menu = Effect.gen(function* () {
  const term = yield* Terminal;
  const loaded: LoadedPlugin[] = [];
  for (const id of builtinIds) loaded.push(yield* loadPlugin(id, builtins));
  const plugins = loaded.map((l) => l.plugin);
  const first = plugins[0];
  const firstAi = first.defaultOpponent ?? DEFAULT_OPPONENT;
  const firstGame = (yield* makeGame(first, {})).game;
  yield* term.print(
    "ply: play a game against the computer, or watch two AIs\n\n" +
      plugins.map((p, i) => `  ${i + 1}. ${p.name}: ${p.description}\n`).join("") + "\n",
  );
  const choice = yield* ask(
    `Press Enter to play ${first.name} as ${firstGame.players[0]} against ${firstAi}, ` +
      `or choose a game 1-${plugins.length}: `,
    (a) => {
      if (a === "") return { ok: true, value: -1 };
      const n = Number(a);
      const byId = plugins.findIndex((p) => p.id === a.toLowerCase());
      if (byId >= 0) return { ok: true, value: byId };
      return Number.isInteger(n) && n >= 1 && n <= plugins.length
        ? { ok: true, value: n - 1 }
        : { ok: false, error: `choose 1-${plugins.length} (or a game's id), or press Enter` };
    },
  );
  if (Option.isNone(choice)) return Option.none();
  const quick = choice.value === -1;
  const plugin = plugins[quick ? 0 : choice.value];
  const strategies = strategiesFor(plugin);
  const ai = plugin.defaultOpponent ?? DEFAULT_OPPONENT;
  let raw: Record<string, unknown> = {};
  let opened: LoadedGame | undefined;
  while (opened === undefined) {
    if (!quick) {
      const opts = optionHelp(plugin);
      if (opts.length > 0) {
        yield* term.print(`Options of ${plugin.name} (Enter keeps the default):\n`);
      }
      raw = {};
      for (const o of opts) {
        const shown = Array.isArray(o.default) ? o.default.join(",") : String(o.default);
        while (true) {
          const line = yield* term.readLine(`  ${o.name}: ${o.description} [${shown}]: `);
          if (Option.isNone(line)) return Option.none();
          if (line.value.trim() === "") break;
          // Check this answer on its own, so a mistake is asked again at once.
          const value = coerceOption(line.value);
          const alone = yield* Effect.result(makeGame(plugin, { ...raw, [o.name]: value }));
          const mine = alone._tag === "Failure"
            ? alone.failure.problems.filter((p) => p.option === o.name)
            : [];
          if (mine.length === 0) {
            raw[o.name] = value;
            break;
          }
          yield* term.print(mine.map((p) => `  ${formatProblem(p)}\n`).join(""));
        }
      }
    }
    const url = loaded[plugins.indexOf(plugin)].url;
    const made = yield* Effect.result(makeGame(plugin, raw, url));
    if (made._tag === "Success") {
      opened = {
        plugin,
        specifier: plugin.id,
        url,
        options: made.success.options,
        game: guardPlugin(made.success.game, url, plugin.id),
      };
    } else yield* term.print(`${made.failure.message}\n`);
  }
  if (quick) {
    const p2 = yield* playerSpec("p2", ai, strategies);
    return Option.some({ opened, specs: [{ kind: "human" }, p2] as [PlayerSpec, PlayerSpec] });
  }
  const chosen = opened;
  const specs = yield* askSides(chosen, undefined, undefined);
  return Option.map(specs, (s) => ({ opened: chosen, specs: s }));
});

/**
 * Asks for each side not given on the command line: human, or an AI and which
 * (seed 002's menu). Enter takes the default shown. `None` if input ends.
 */
const askSides = (
  opened: LoadedGame,
  given1: PlayerSpec | undefined,
  given2: PlayerSpec | undefined,
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const { game, plugin } = opened;
    const strategies = strategiesFor(plugin);
    const ai = plugin.defaultOpponent ?? DEFAULT_OPPONENT;
    const parsed = (text: string, fallback: string) => {
      const r = parseSpec(text === "" ? fallback : text, strategies);
      return Result.isSuccess(r)
        ? { ok: true as const, value: r.success }
        : { ok: false as const, error: r.failure };
    };
    yield* term.print(
      `Who plays? human, random, randombest:D, or a strategy with a depth or a time per move:\n` +
        `  ${Object.keys(strategies).join(", ")}\n` +
        `  e.g. alphabeta:6 (depth 6), alphabeta:2s (2 s per move), mcts:2000 (iterations)\n`,
    );
    // The side that moves first is asked for first (Domineering: H, player 1); defaults
    // stay by player: player 0 (--p1) human, player 1 (--p2) the game's AI.
    const first = game.toMove(game.initial());
    const specs = [given1, given2];
    const defaults = ["human", ai];
    for (const p of first === 1 ? [1, 0] : [0, 1]) {
      // In a solo game (2048) player 1 never moves: one question.
      if (specs[p] !== undefined || (p === 1 && game.solo === true)) continue;
      const label = p === first ? " (moves first)" : "";
      const answer = yield* ask(
        `  ${game.players[p]}${label} [${defaults[p]}]: `,
        (a) => parsed(a, defaults[p]),
      );
      if (Option.isNone(answer)) return Option.none();
      specs[p] = answer.value;
    }
    const p0 = specs[0]!;
    return Option.some([p0, specs[1] ?? p0] as [PlayerSpec, PlayerSpec]);
  });

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length > 1) {
    return yield* new UsageError({ message: `one game at a time, got ${positional.join(" ")}` });
  }
  const seed = flags.seed === undefined
    ? freshSeed()
    : yield* intFlag(flags, "seed", 0, 0, 2 ** 31 - 1);
  const ttMb = yield* ttFlag(flags);
  const save = typeof flags.save === "string" ? userPath(flags.save) : undefined;
  if (save !== undefined) yield* checkSavePath(save);
  if (positional.length === 0) {
    if (Object.keys(gameOptions).length > 0 || flags.p1 !== undefined || flags.p2 !== undefined) {
      return yield* new UsageError({ message: "name the game before its options and players" });
    }
    const chosen = yield* menu;
    if (Option.isNone(chosen)) {
      yield* term.print("\nBye.\n");
      return 0;
    }
    return yield* playGame(chosen.value.opened, chosen.value.specs, seed, ttMb, save);
  }
  const opened = yield* loadGame(positional[0], gameOptions);
  const strategies = strategiesFor(opened.plugin);
  const ai = opened.plugin.defaultOpponent ?? DEFAULT_OPPONENT;
  const given1 = typeof flags.p1 === "string"
    ? yield* playerSpec("p1", flags.p1, strategies)
    : undefined;
  const given2 = typeof flags.p2 === "string"
    ? yield* playerSpec("p2", flags.p2, strategies)
    : undefined;
  let specs: [PlayerSpec, PlayerSpec];
  if ((given1 === undefined || given2 === undefined) && Deno.stdin.isTerminal()) {
    // At a terminal, ask for the sides not given (seed 002's menu).
    const asked = yield* askSides(opened, given1, given2);
    if (Option.isNone(asked)) {
      yield* term.print("\nBye.\n");
      return 0;
    }
    specs = asked.value;
  } else {
    specs = [given1 ?? { kind: "human" }, given2 ?? (yield* playerSpec("p2", ai, strategies))];
  }
  return yield* playGame(opened, specs, seed, ttMb, save);
});

if (import.meta.main) runMain(main, "deno task play");
