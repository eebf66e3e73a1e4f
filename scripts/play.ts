/**
 * `deno task play [GAME] [--OPTION VALUE ...] [--p1 WHO] [--p2 WHO] [--seed N] [--moves
 * LIST] [--load FILE] [--save FILE]`
 *
 * Plays a game at the terminal, each side a human or an AI. Without a game, a menu
 * (seed 002's) chooses the game, its options and both sides; pressing Enter at the
 * first question starts a game against the computer with the defaults. A person can
 * take moves back, ask for a hint, save; a game with a person in it is saved after
 * every move and at its end (atomically: see `app/files.ts`; by default in a new file
 * of `gamesFolder`), one between AIs with `--save` at its end, and `--load` resumes it. SIGTERM and SIGHUP stop it
 * as Ctrl-C does. A save that fails prints the game's JSON to standard error.
 *
 * @module
 */
import { openHostedGame } from "../app/games.ts";
import type { OpenedGame } from "../core/plugin.ts";
import { Effect, Exit, Fiber, Option, Result, Scope } from "../core/deps.ts";
import { CHANCE, type Player } from "../core/game.ts";
import { runGame } from "../app/match.ts";
import { type Agent, agentFromSpec, freshSeed, type HumanCommand } from "../app/players/agents.ts";
import { formatSpec, parseSpec, type PlayerSpec, SPEC_GRAMMAR } from "../app/players/spec.ts";
import {
  coerceOption,
  declaredPlugin,
  DEFAULT_OPPONENT,
  DEFAULT_STRENGTHS,
  formatProblem,
  optionHelp,
} from "../core/plugin.ts";
import { builtinCatalog } from "../app/catalog.ts";
import { newSession, playMove, plyOf, type Session } from "../app/session.ts";
import { decodeTranscript, exportTranscript, importTranscript } from "../app/transcript.ts";
import { Terminal, untilInterrupted } from "../app/terminal.ts";
import { describeClock, formatTime, parseClock, timeLeft } from "../app/clock.ts";
import { pluginLabel, userCwd } from "../core/source.ts";
import { createAutosave, gamesFolder, makeFolderFor, writeFileAtomic } from "../app/files.ts";
import { type Progress, search } from "../core/engine/engine.ts";
import type { SearchResult } from "../core/search/types.ts";
import { builtinIds, builtins } from "../plugins/registry.ts";
import {
  checkSavePath,
  intFlag,
  parseCommandLine,
  parseMoves,
  playerSpec,
  printHelp,
  reportFault,
  runMain,
  strategiesFor,
  ttFlag,
  UsageError,
  userPath,
} from "../app/cli.ts";
import { describeProgress, describeResult, describeSearch, StatusLine } from "../app/display.ts";

const USAGE = `Usage: deno task play [GAME] [--OPTION VALUE ...] [--p1 WHO] [--p2 WHO] [--seed N]
                       [--moves M1,M2,...] [--load FILE] [--save FILE]
Plays GAME at the terminal; without GAME, a menu chooses the game, options and players.
At a terminal, the sides not given are asked for (Enter takes the default).

  --p1 WHO       the game's first player (player 0; default human)
  --p2 WHO       its second player (player 1; default the game's AI)
                 WHO: human, an AI strength (easy, medium, strong, perfect where the
                 game has a solver: GAME --help lists them), or a player spec such as
                 alphabeta:6, alphabeta:2s, mcts:2000 (the names shown at the start say
                 who is who and who moves first)
  --seed N       seed for chance moves and random players (default: a fresh one, shown)
  --moves LIST   start after these moves (the game's notation, comma-separated)
  --load FILE    resume a saved game at its current position; its players and seed
                 unless --p1, --p2 or --seed are given
  --save FILE    where the game is saved (default: a new file in the games folder)
  --clock TC     a time control: 5+3 (5 minutes each, 3 seconds added after each move)
                 or 10s (10 seconds a move); a side whose time runs out loses, and the
                 AI thinks within its time (a loaded game keeps its own)
  --tt-mb N      transposition table size per AI player in MB (default 64)
  --help         this text; GAME --help lists the game's options
In a game, type a move in the game's notation, or a command: help lists them (undo,
redo, hint, moves or ?, board, rules, save [FILE], quit).
A game with a person in it is saved after every move and when it ends or stops (quit,
Ctrl-C, SIGTERM, SIGHUP, end of input): to a new file in $XDG_STATE_HOME/ply/games/
(default ~/.local/state/ply/games/), or to --save FILE (its folders are made, as by
save FILE); the last line says how to resume and review it.
`;

const FLAGS = {
  string: ["p1", "p2", "seed", "save", "tt-mb", "workers", "moves", "load", "clock"],
  boolean: [],
} as const;

/** Writes a session's transcript to `path` atomically, making its folder; throws on failure. */
const writeSession = (session: Session, path: string): void => {
  makeFolderFor(path);
  writeFileAtomic(path, transcriptText(session));
};

/** A session's transcript as the JSON text a save holds. */
const transcriptText = (session: Session): string =>
  JSON.stringify(exportTranscript(session), null, 2) + "\n";

/** The first line of an error's message. */
const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split("\n")[0];

/** How a person would type a path: relative to their directory when inside it. */
const shownPath = (path: string): string => {
  const cwd = userCwd();
  return path.startsWith(cwd + "/") ? path.slice(cwd.length + 1) : path;
};

/** The game being played and how it was set up. */
interface Setup {
  readonly opened: OpenedGame;
  readonly specs: readonly [PlayerSpec, PlayerSpec];
  readonly seed: number;
  readonly session: Session;
}

/**
 * Plays one game with printing and in-game commands, and saves it when a person took
 * part or `--save` asks (also when the game was interrupted or a plugin failed).
 * Returns the exit code: 1 when a plugin failed.
 */
const playGame = (setup: Setup, ttMb: number, save: string | undefined) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const { opened, specs, seed, session } = setup;
    const { game, plugin } = opened;
    const strategies = strategiesFor(plugin);
    const names = specs.map(formatSpec);
    const color = Deno.stdout.isTerminal() && !Deno.noColor;
    const draw = (state: unknown, node = session.nodes[session.current]) =>
      game.render(state, {
        color,
        ...(node.parent === -1 ? {} : { last: { move: node.move, by: node.by } }),
      }) + clocks();
    // In a clocked game, each side's time left under every board.
    const clocks = () => {
      if (session.clock === undefined) return "";
      const sides = (game.solo === true ? [0] : [0, 1]) as Player[];
      return "\nClock: " +
        sides.map((p) => `${game.players[p]} ${formatTime(timeLeft(session, p))}`).join(", ");
    };
    // While an AI thinks, its latest iteration on a status line (a terminal only).
    const status = Deno.stderr.isTerminal() ? new StatusLine() : undefined;
    let last: SearchResult | undefined;
    const thinking = (label: string, p: Player) => (e: Progress) => {
      status?.show(`${label} thinking: ${describeProgress(game, e, p, last)}`);
      if (e._tag === "Iteration") last = e.result;
    };
    // A game with a person in it is saved after every move and at its end, to --save or
    // to a new file in the games folder (made now, exclusively); a game between AIs with
    // --save, at its end (a long one, 2048's, would write its whole transcript each move).
    const human = specs.some((s) => s.kind === "human");
    const saving = human || save !== undefined;
    let target = save;
    let failed: string | undefined; // why the last save failed
    if (saving && target === undefined) {
      try {
        target = createAutosave(plugin.id);
      } catch (e) {
        failed = `could not make a file in ${gamesFolder()}: ${reason(e)}`;
      }
    }
    /** Saves the game as it stands; the first failure in a row is reported. */
    const saveNow = Effect.suspend(() => {
      if (!saving || target === undefined) return Effect.void;
      try {
        writeSession(session, target);
        failed = undefined;
        return Effect.void;
      } catch (e) {
        const first = failed === undefined;
        failed = `could not save the game to ${target}: ${reason(e)}`;
        return first ? Effect.sync(() => console.error(`warning: ${failed}`)) : Effect.void;
      }
    });
    /** Saves the game after a move: a game with a person in it. */
    const autosave = human ? saveNow : Effect.void;
    const humanCommands = commands(opened, session, { draw, thinking, status, target });
    const agents = [0, 1].map((p) =>
      agentFromSpec<unknown>(specs[p], strategies, {
        source: opened.source,
        ttMb,
        onProgress: thinking(`${game.players[p]} (${names[p]})`, p as Player),
        human: { commands: humanCommands },
      })
    ) as [Agent<unknown, Terminal>, Agent<unknown, Terminal>];
    session.players = [names[0], names[1]];
    session.seed = seed;
    yield* term.print(
      (game.solo === true
        ? `${plugin.name}: ${game.players[0]} (${names[0]}) against chance`
        : `${plugin.name}: ${game.players[0]} (${names[0]}) vs ${game.players[1]} (${names[1]})`) +
        `, seed ${seed}` +
        (session.clock !== undefined ? `, clock ${describeClock(session.clock)}` : "") + "\n",
    );
    if (failed !== undefined) console.error(`warning: ${failed}`);
    else if (human && target !== undefined) {
      yield* autosave;
      if (save === undefined) yield* term.print(`Saved after every move to ${shownPath(target)}\n`);
    }
    const played = yield* runGame(game, agents, {
      gameId: opened.specifier,
      options: opened.options,
      seed,
      session,
      interrupted: term.interrupted,
      interruption: term.interruption,
      onEvent: (e) => {
        switch (e._tag) {
          case "Start":
            // (2048 opens with chance's tiles: its first board follows them.)
            return term.print(game.toMove(e.state) === CHANCE ? "\n" : `\n${draw(e.state)}\n`);
          case "Moved": {
            status?.clear();
            last = undefined;
            const said = game.describeMove?.(e.before, e.move, e.state);
            const extra = said !== undefined && said !== "" ? ` (${said})` : "";
            const line = e.by === CHANCE
              ? `chance: ${said !== undefined && said !== "" ? said : e.notation}`
              : `${game.players[e.by]} plays ${e.notation}${extra}` +
                (e.search ? ` [${describeSearch(game, e.search, e.by)}]` : "");
            // One board per turn: none between a move and the chance move after it.
            const board = game.toMove(e.state) === CHANCE ? "" : `\n${draw(e.state)}\n`;
            return Effect.andThen(autosave, term.print(`${line}\n${board}`));
          }
          case "Navigated": {
            if (!e.done) {
              return term.print(
                e.command === "undo" ? "Nothing to undo.\n" : "Nothing to redo.\n",
              );
            }
            const ply = plyOf(session, session.current);
            return Effect.andThen(
              autosave,
              term.print(
                `${e.command === "undo" ? "Taken back" : "Replayed"}: now after move ${ply}.\n\n` +
                  `${draw(e.state)}\n`,
              ),
            );
          }
          case "End": {
            // A person's time runs out at the prompt: the answer goes on a line of its own.
            const r = e.result;
            const atPrompt = r.reason === "time" && r.by !== undefined &&
              specs[r.by].kind === "human";
            return term.print(`${atPrompt ? "\n" : ""}${describeResult(game, r)}\n`);
          }
        }
      },
    });
    status?.clear();
    const { transcript } = played;
    if (saving) {
      yield* saveNow;
      if (target === undefined || failed !== undefined) {
        // Nowhere to keep it: the game goes to standard error, for the person to keep.
        console.error(`error: ${failed}; the game follows as JSON`);
        console.error(transcriptText(session).trimEnd());
        return 1;
      }
      const shown = shownPath(target);
      yield* term.print(
        `Saved to ${shown}. Resume: deno task play --load ${shown}; ` +
          `review: deno task review ${shown}\n`,
      );
    } else {
      const opts = Object.entries(opened.options as Record<string, unknown>)
        .map(([k, v]) => ` --${k} ${Array.isArray(v) ? v.join(",") : String(v)}`).join("");
      yield* term.print(
        `Replay: deno task play ${opened.specifier}${opts} --p1 ${names[0]} --p2 ${names[1]} ` +
          `--seed ${seed}\n`,
      );
    }
    const { result } = transcript;
    if (result.reason !== "error") return 0;
    yield* reportFault(result.error ?? "a search failed", played.trace);
    return 1;
  });

/** The short search `hint` runs: the game's default AI's strategy, for one second. */
const HINT_MS = 1000;

/** The commands a person has beside moves: hint, board, rules, save. */
const commands = (
  opened: OpenedGame,
  session: Session,
  view: {
    /** Draws a position. */
    readonly draw: (state: unknown) => string;
    /** Shows a search's progress on the status line. */
    readonly thinking: (label: string, p: Player) => (e: Progress) => void;
    /** The status line, if there is one. */
    readonly status: StatusLine | undefined;
    /** Where `save` without a file writes (`undefined`: nowhere, it must be given). */
    readonly target: string | undefined;
  },
): Record<string, HumanCommand<unknown>> => {
  const { game, plugin } = opened;
  const say = (text: string) => Effect.flatMap(Effect.service(Terminal), (t) => t.print(text));
  const strategies = strategiesFor(plugin);
  const ai = parseSpec(plugin.defaultOpponent ?? DEFAULT_OPPONENT, strategies);
  const strategy = Result.isSuccess(ai) && ai.success.kind === "search" &&
      ai.success.strategy !== "randombest"
    ? strategies[ai.success.strategy]
    : strategies.alphabeta;
  return {
    hint: {
      help: "hint     the AI's suggestion for you (a one-second search)",
      run: (_arg, state) =>
        Effect.gen(function* () {
          const term = yield* Terminal;
          const me = game.toMove(state) as Player;
          const found = yield* untilInterrupted(
            search(
              {
                strategy,
                game,
                source: opened.source,
                state,
                options: { timeMs: HINT_MS, distance: true, seed: 0 },
              },
              view.thinking("hint", me),
            ),
          ).pipe(Effect.result);
          if (found._tag === "Failure") {
            return yield* term.print(`No hint: ${found.failure.message}\n`);
          }
          if (Option.isNone(found.success)) return;
          const r = found.success.value;
          if (r.move === undefined) return yield* term.print("No hint here.\n");
          yield* term.print(
            `Hint: ${game.formatMove(state, r.move)} (${describeSearch(game, r, me)})\n`,
          );
        }).pipe(Effect.ensuring(Effect.sync(() => view.status?.clear()))),
    },
    board: {
      help: "board    show the board again",
      run: (_arg, state) => say(`${view.draw(state)}\n`),
    },
    rules: {
      help: "rules    the game's rules and how to type a move",
      run: () => say(`${plugin.rules ?? `${plugin.name}: ${plugin.description}`}\n`),
    },
    save: {
      help: "save [FILE]  save the game now (default: where it will be saved at the end)",
      run: (arg) =>
        Effect.gen(function* () {
          const path = arg !== "" ? userPath(arg) : view.target;
          if (path === undefined) return yield* say("Give a file: save FILE\n");
          try {
            writeSession(session, path);
            yield* say(`Saved to ${shownPath(path)}.\n`);
          } catch (e) {
            yield* say(`could not write ${path}: ${reason(e)}\n`);
          }
        }),
    },
  };
};

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

/**
 * Seed 002's menu: the game, its options and each side. `None` if input ends. The games
 * are described, and each option's answer checked, by the built-in catalog's thread
 * (`builtinCatalog`), which ends with the menu.
 */
const menu = Effect.gen(function* () {
  const outer = yield* Scope.Scope;
  const asking = yield* Scope.fork(outer);
  return yield* Scope.provide(asking)(menuWith(outer)).pipe(
    Effect.ensuring(Scope.close(asking, Exit.void)),
  );
});

/** The menu, with `outer` the scope the chosen game lives in. */
const menuWith = (outer: Scope.Scope) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    // The games are listed from the registry (no plugin's module loads here), while the
    // quick game opens in its thread: its sides name the prompt. Enter plays it, another
    // choice ends that thread.
    const ids = builtinIds;
    yield* term.print(
      "ply: play a game against the computer, or watch two AIs\n\n" +
        ids.map((id, i) => `  ${i + 1}. ${builtins[id].name}: ${builtins[id].description}\n`)
          .join("") +
        "\n",
    );
    const quickScope = yield* Scope.fork(outer);
    const firstOpened = yield* Scope.provide(quickScope)(openHostedGame(ids[0], {}));
    const first = firstOpened.plugin;
    // The other games' declarations, and the checks of their options, come from the
    // catalog's thread, which starts while the prompt is read.
    const described = yield* Effect.forkScoped(builtinCatalog);
    const firstSpec = first.defaultOpponent ?? DEFAULT_OPPONENT;
    const firstName = aiLabel(first.strengths ?? DEFAULT_STRENGTHS, firstSpec);
    const firstAi = firstName === firstSpec
      ? firstSpec
      : `the computer (${firstName}: ${firstSpec})`;
    const firstGame = firstOpened.game;
    const choice = yield* ask(
      `Press Enter to play ${first.name} as ${firstGame.players[0]} against ${firstAi}, ` +
        `or choose a game 1-${ids.length}: `,
      (a) => {
        if (a === "") return { ok: true, value: -1 };
        const n = Number(a);
        const byId = ids.indexOf(a.toLowerCase());
        if (byId >= 0) return { ok: true, value: byId };
        return Number.isInteger(n) && n >= 1 && n <= ids.length
          ? { ok: true, value: n - 1 }
          : { ok: false, error: `choose 1-${ids.length} (or a game's id), or press Enter` };
      },
    );
    if (Option.isNone(choice)) return Option.none();
    const quick = choice.value === -1;
    if (!quick) yield* Scope.close(quickScope, Exit.void);
    const id = ids[quick ? 0 : choice.value];
    const catalog = quick ? undefined : yield* Fiber.join(described);
    const plugin = catalog === undefined
      ? first
      : declaredPlugin(catalog.games[id].plugin, pluginLabel(builtins[id].url));
    const strategies = strategiesFor(plugin);
    const ai = plugin.defaultOpponent ?? DEFAULT_OPPONENT;
    let raw: Record<string, unknown> = {};
    let opened: OpenedGame | undefined = quick ? firstOpened : undefined;
    while (opened === undefined) {
      if (catalog !== undefined) {
        // What a player knows is asked; the AI's own settings only under "advanced".
        const tuning = new Set(plugin.advancedOptions ?? []);
        const opts = optionHelp(plugin);
        const basic = opts.filter((o) => !tuning.has(o.name));
        const advanced = opts.filter((o) => tuning.has(o.name));
        if (basic.length > 0) {
          yield* term.print(`Options of ${plugin.name} (Enter keeps the default):\n`);
        }
        raw = {};
        let asked = basic;
        if (advanced.length > 0) {
          const more = yield* ask(
            `  The AI's settings (${advanced.map((o) => o.name).join(", ")}): ` +
              `type advanced to change them [defaults]: `,
            (a) =>
              a === "" || a.toLowerCase() === "advanced"
                ? { ok: true, value: a !== "" }
                : { ok: false, error: "type advanced, or press Enter" },
          );
          if (Option.isNone(more)) return Option.none();
          if (more.value) asked = opts;
        }
        for (const o of asked) {
          const shown = Array.isArray(o.default) ? o.default.join(",") : String(o.default);
          while (true) {
            const line = yield* term.readLine(`  ${o.name}: ${o.description} [${shown}]: `);
            if (Option.isNone(line)) return Option.none();
            if (line.value.trim() === "") break;
            // Check this answer on its own, so a mistake is asked again at once.
            const value = coerceOption(line.value);
            const alone = yield* Effect.result(
              catalog.check(id, { ...raw, [o.name]: value }),
            );
            if (alone._tag === "Failure" && alone.failure._tag === "PluginError") {
              return yield* alone.failure;
            }
            const mine = alone._tag === "Failure" && alone.failure._tag === "OptionsError"
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
      const made = yield* Effect.result(
        Scope.provide(outer)(openHostedGame(id, raw)),
      );
      if (made._tag === "Success") opened = made.success;
      else yield* term.print(`${made.failure.message}\n`);
    }
    if (quick) {
      const p2 = yield* playerSpec("p2", ai, strategies);
      return Option.some({
        opened,
        specs: [{ kind: "human" }, p2] as [PlayerSpec, PlayerSpec],
      });
    }
    const chosen = opened;
    const specs = yield* askSides(chosen, undefined, undefined);
    return Option.map(specs, (s) => ({ opened: chosen, specs: s }));
  });

/** What the menu says about an AI: its strength's name and spec, or the spec. */
const aiLabel = (strengths: Readonly<Record<string, string>>, spec: string): string => {
  const name = Object.keys(strengths).find((k) => strengths[k] === spec);
  return name ?? spec;
};

/**
 * Asks for each side not given on the command line: a person, or the computer at a
 * strength by name; `advanced` reads a player spec. Enter takes the default shown.
 * `None` if input ends.
 */
const askSides = (
  opened: OpenedGame,
  given1: PlayerSpec | undefined,
  given2: PlayerSpec | undefined,
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const { game, plugin } = opened;
    const strategies = strategiesFor(plugin);
    const strengths = plugin.strengths ?? DEFAULT_STRENGTHS;
    const ai = plugin.defaultOpponent ?? DEFAULT_OPPONENT;
    const parsed = (text: string) => {
      const named = text.toLowerCase();
      const r = parseSpec(Object.hasOwn(strengths, named) ? strengths[named] : text, strategies);
      return Result.isSuccess(r) ? { ok: true as const, value: r.success } : {
        ok: false as const,
        error: `answer human, ${Object.keys(strengths).join(", ")}, or advanced (${r.failure})`,
      };
    };
    yield* term.print(
      `Who plays? human, or the computer: ${
        Object.entries(strengths).map(([k, v]) => `${k} (${v})`).join(", ")
      };\n  or advanced, to give a player spec.\n`,
    );
    // The side that moves first is asked for first (Domineering: H, player 1); defaults
    // stay by player: player 0 (--p1) human, player 1 (--p2) the game's AI.
    const first = game.toMove(game.initial());
    const specs = [given1, given2];
    const defaults = ["human", aiLabel(strengths, ai)];
    for (const p of first === 1 ? [1, 0] : [0, 1]) {
      // In a solo game (2048) player 1 never moves: one question.
      if (specs[p] !== undefined || (p === 1 && game.solo === true)) continue;
      const label = p === first ? " (moves first)" : "";
      let answer = yield* ask(`  ${game.players[p]}${label} [${defaults[p]}]: `, (a) =>
        a.toLowerCase() === "advanced"
          ? { ok: true, value: undefined }
          : parsed(a === "" ? defaults[p] : a));
      if (Option.isNone(answer)) {
        return Option.none();
      }
      if (answer.value === undefined) {
        yield* term.print(
          `  A player spec: ${SPEC_GRAMMAR}\n  strategies: ${Object.keys(strategies).join(", ")}` +
            `\n  e.g. alphabeta:6 (depth 6), alphabeta:2s (2 s a move), mcts:2000 (iterations)\n`,
        );
        answer = yield* ask(`  ${game.players[p]}: `, (a) =>
          parsed(a === "" ? defaults[p] : a));
        if (Option.isNone(answer)) {
          return Option.none();
        }
      }
      specs[p] = answer.value;
    }
    const p0 = specs[0]!;
    return Option.some([p0, specs[1] ?? p0] as [PlayerSpec, PlayerSpec]);
  });

/** Reads a saved game for `--load`: a user error names the file and what is wrong. */
const readSaved = (path: string) =>
  Effect.gen(function* () {
    const fail = (why: string) => new UsageError({ message: `--load: ${path}: ${why}` });
    const text = yield* Effect.try({
      try: () => Deno.readTextFileSync(path),
      catch: (e) => fail(e instanceof Deno.errors.NotFound ? "no such file" : String(e)),
    });
    const json = yield* Effect.try({ try: () => JSON.parse(text), catch: () => fail("not JSON") });
    const t = decodeTranscript(json);
    if (Result.isFailure(t)) return yield* fail(t.failure);
    return t.success;
  });

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  const term = yield* Terminal;
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (positional.length > 1) {
    return yield* new UsageError({ message: `one game at a time, got ${positional.join(" ")}` });
  }
  const given = typeof flags.seed === "string";
  let seed = given ? yield* intFlag(flags, "seed", 0, 0, 2 ** 31 - 1) : freshSeed();
  const ttMb = yield* ttFlag(flags);
  const save = typeof flags.save === "string" ? userPath(flags.save) : undefined;
  if (save !== undefined) yield* checkSavePath(save);
  const load = typeof flags.load === "string" ? userPath(flags.load) : undefined;
  if (load !== undefined && (positional.length > 0 || Object.keys(gameOptions).length > 0)) {
    return yield* new UsageError({
      message: "--load: the file names the game and its options; give neither",
    });
  }
  if (load !== undefined && flags.moves !== undefined) {
    return yield* new UsageError({ message: "--load and --moves: give one of them" });
  }
  const clock = typeof flags.clock === "string" ? parseClock(flags.clock) : undefined;
  if (clock !== undefined && Result.isFailure(clock)) {
    return yield* new UsageError({ message: `--clock: ${clock.failure}` });
  }
  if (clock !== undefined && load !== undefined) {
    return yield* new UsageError({ message: "--clock: a loaded game keeps its own clock" });
  }
  let setup: { opened: OpenedGame; specs?: [PlayerSpec, PlayerSpec]; session?: Session };
  if (load !== undefined) {
    const t = yield* readSaved(load);
    const opened = yield* openHostedGame(t.game, t.options as Record<string, unknown>);
    const session = importTranscript(opened.game, t);
    if (Result.isFailure(session)) {
      return yield* new UsageError({ message: `--load: ${load}: ${session.failure}` });
    }
    if (!given) seed = t.seed;
    // The saved seed's stream goes on where it stopped; another seed's starts afresh.
    if (seed !== t.seed) delete session.success.draws;
    const strategies = strategiesFor(opened.plugin);
    const saved = yield* Effect.forEach(
      t.players,
      (p, i) => playerSpec(`load: player ${i + 1}`, p, strategies),
    );
    setup = { opened, specs: [saved[0], saved[1]], session: session.success };
  } else if (positional.length === 0) {
    if (Object.keys(gameOptions).length > 0 || flags.p1 !== undefined || flags.p2 !== undefined) {
      return yield* new UsageError({ message: "name the game before its options and players" });
    }
    if (flags.moves !== undefined) {
      return yield* new UsageError({ message: "--moves: name the game first" });
    }
    const chosen = yield* menu;
    if (Option.isNone(chosen)) {
      yield* term.print("\nBye.\n");
      return 0;
    }
    setup = chosen.value;
  } else setup = { opened: yield* openHostedGame(positional[0], gameOptions) };
  const { opened } = setup;
  const strategies = strategiesFor(opened.plugin);
  const strengths = opened.plugin.strengths ?? DEFAULT_STRENGTHS;
  const ai = opened.plugin.defaultOpponent ?? DEFAULT_OPPONENT;
  const given1 = typeof flags.p1 === "string"
    ? yield* playerSpec("p1", flags.p1, strategies, strengths)
    : setup.specs?.[0];
  const given2 = typeof flags.p2 === "string"
    ? yield* playerSpec("p2", flags.p2, strategies, strengths)
    : setup.specs?.[1];
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
  let session = setup.session;
  if (session === undefined) {
    session = newSession({
      game: opened.specifier,
      options: opened.options,
      seed,
      players: [formatSpec(specs[0]), formatSpec(specs[1])],
      ...(clock !== undefined ? { clock: clock.success } : {}),
    });
    if (typeof flags.moves === "string") {
      const { game } = opened;
      const { moves } = yield* parseMoves(game, flags.moves);
      let state = game.initial();
      for (const m of moves) {
        playMove(session, { by: game.toMove(state), move: m, notation: game.formatMove(state, m) });
        state = game.play(state, m);
      }
    }
  }
  return yield* playGame({ opened, specs, seed, session }, ttMb, save);
});

/** Runs the program (its entry, `start/play.ts`, starts the game's thread first). */
export const start = (): void => runMain(main, "deno task play");

if (import.meta.main) start();
