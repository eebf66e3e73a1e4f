/**
 * The conformance suite: generic checks that every game plugin, built-in or a user's,
 * must pass (in the manner of OpenSpiel's basic tests). Register a plugin with one line
 * in `tests/conformance_test.ts`.
 *
 * Checked over seeded random playouts: the plugin's shape and options; whose turn it is;
 * moves distinct non-negative integers; notation that round-trips through `parseMove`;
 * chance probabilities that sum to 1; `play` leaves its input untouched; keys equal for
 * equal positions; states that survive a structured clone (parallel search sends them to
 * workers); values finite (or decisive); `outcome` defined exactly at the end;
 * transcripts that serialize and replay to the same final state; same seed, same game;
 * and alpha-beta agreeing with minimax at small depths.
 *
 * For a person: the plugin states its rules (`rules`: non-empty, lines at most
 * `RULES_WIDTH` wide); its `strengths`, if any, are player specs of its strategies;
 * `render` with a view (the last move marked, with or without colour) gives text, and
 * no escape codes without colour; `describeMove` and `movesHelp`, where given, answer
 * with text on every position of the playouts.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import fc from "fast-check";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, type Game, WIN } from "../core/game.ts";
import { type GamePlugin, makeGame, optionHelp, validatePlugin } from "../core/plugin.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { parseSpec } from "../core/players/spec.ts";
import { replay, runGame } from "../core/match.ts";
import { randomAgent } from "../core/players/agents.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";

/** How to check one plugin. */
export interface ConformanceCase {
  /** A label for the test names. */
  readonly label: string;
  /** Loads the plugin module. */
  readonly load: () => Promise<unknown>;
  /** Options to build the game with (default: the plugin's defaults). */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Number of random playouts (default 20). */
  readonly playouts?: number;
  /** Maximum plies per playout (default 400). */
  readonly maxPlies?: number;
  /** Depth for the alpha-beta = minimax check (default 3; 0 skips it). */
  readonly searchDepth?: number;
}

/** The widest line a plugin's `rules` may have (a terminal's 80 columns, less a margin). */
export const RULES_WIDTH = 78;

const loadPlugin = async (c: ConformanceCase): Promise<GamePlugin<unknown, unknown>> => {
  const mod = await c.load();
  const plugin = validatePlugin(mod, c.label);
  assert(Result.isSuccess(plugin), Result.isFailure(plugin) ? plugin.failure.message : "");
  return plugin.success;
};

const build = async (c: ConformanceCase): Promise<Game<unknown>> => {
  const plugin = await loadPlugin(c);
  optionHelp(plugin); // must not throw
  return Effect.runSync(makeGame(plugin, c.options ?? {})).game;
};

/**
 * The problems with what a plugin tells a person before the game: its `rules` (a
 * non-empty string, no line wider than `RULES_WIDTH`) and its `strengths` (each a
 * player spec of the built-in strategies and the plugin's own). Empty when all is well.
 */
export const presentationProblems = (plugin: GamePlugin<unknown, unknown>): string[] => {
  const problems: string[] = [];
  const rules: unknown = plugin.rules;
  if (typeof rules !== "string" || rules.trim() === "") {
    problems.push(
      "the plugin must state its rules and move notation for a person: " +
        'definePlugin({ ..., rules: "..." })',
    );
  } else {
    rules.split("\n").forEach((line, i) => {
      if (line.length > RULES_WIDTH) {
        problems.push(`rules line ${i + 1} is ${line.length} wide; at most ${RULES_WIDTH}`);
      }
    });
  }
  const strategies = { ...allStrategies, ...plugin.strategies };
  for (const [name, spec] of Object.entries(plugin.strengths ?? {})) {
    const parsed = parseSpec(spec, strategies);
    if (Result.isFailure(parsed)) problems.push(`strength ${name}: ${parsed.failure}`);
    else if (parsed.success.kind !== "search") {
      problems.push(`strength ${name} is '${spec}': an AI strength must be a search`);
    }
  }
  return problems;
};

/** Checks what a person sees of the move `m` from `before` to `after`; throws when wrong. */
const checkPresentation = <S>(game: Game<S>, before: S, m: number, after: S): void => {
  const by = game.toMove(before);
  const plain = game.render(after, { last: { move: m, by }, color: false });
  assert(typeof plain === "string" && plain.length > 0, "render with a view must give text");
  assert(!plain.includes("\x1b"), `render without colour must not use escape codes: ${plain}`);
  const colored = game.render(after, { last: { move: m, by }, color: true });
  assert(typeof colored === "string" && colored.length > 0, "render in colour must give text");
  if (game.describeMove !== undefined) {
    const said = game.describeMove(before, m, after);
    assert(said === undefined || typeof said === "string", `describeMove gave ${String(said)}`);
  }
};

/** Checks one state's invariants; returns its moves. */
const checkState = <S>(game: Game<S>, s: S): readonly number[] => {
  const tm = game.toMove(s);
  assert(tm === 0 || tm === 1 || tm === CHANCE, `toMove returned ${String(tm)}`);
  const before = JSON.stringify(s);
  const rendered = game.render(s);
  assert(typeof rendered === "string" && rendered.length > 0, "render must give text");
  const v = game.value(s);
  assert(Number.isFinite(v) || Math.abs(v) === Infinity, `value ${v} is not a number`);
  if (tm === CHANCE) {
    const cs = game.chances(s);
    assert(cs.length > 0, "a chance node must have outcomes");
    const total = cs.reduce((a, c) => a + c.p, 0);
    assert(Math.abs(total - 1) < 1e-9, `chance probabilities sum to ${total}`);
    assertEquals(new Set(cs.map((c) => c.move)).size, cs.length, "chance moves must be distinct");
    for (const c of cs) assert(Number.isInteger(c.move) && c.move >= 0 && c.p > 0);
    assertEquals(game.outcome(s), undefined, "a chance node is not the end");
    return cs.map((c) => c.move);
  }
  const ms = game.moves(s);
  assertEquals(new Set(ms).size, ms.length, "moves must be distinct");
  for (const m of ms) {
    assert(Number.isInteger(m) && m >= 0, `move ${m} must be a non-negative integer`);
    const text = game.formatMove(s, m);
    const back = game.parseMove(s, text);
    assert(
      Result.isSuccess(back) && back.success === m,
      `move ${m} written '${text}' parses back as ${JSON.stringify(back)}`,
    );
  }
  if (game.movesHelp !== undefined && ms.length > 0) {
    const help = game.movesHelp(s);
    assert(typeof help === "string" && help.trim() !== "", "movesHelp must give text");
  }
  const bad = game.parseMove(s, "#not a move#");
  assert(Result.isFailure(bad) && bad.failure.length > 0, "nonsense must not parse");
  const o = game.outcome(s);
  if (ms.length === 0) {
    assert(o !== undefined, "a finished game must have an outcome");
    assert(o.winner === null || o.winner === 0 || o.winner === 1);
    if (o.winner === 0) assert(game.value(s) > 0 || Math.abs(game.value(s)) < WIN);
  } else assertEquals(o, undefined, "outcome must be undefined while the game goes on");
  assertEquals(JSON.stringify(s), before, "inspecting a state must not change it");
  return ms;
};

/** Registers the conformance tests of one plugin. */
export const conformance = (c: ConformanceCase): void => {
  const playouts = c.playouts ?? 20;
  const maxPlies = c.maxPlies ?? 400;

  Deno.test(`conformance ${c.label}: random playouts keep the protocol's invariants`, async () => {
    const game = await build(c);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const rng = makeRng(seed);
        let s = game.initial();
        const path: number[] = [];
        for (let ply = 0; ply < maxPlies; ply++) {
          const ms = checkState(game, s);
          if (ms.length === 0) break;
          const m = ms[rng.int(ms.length)];
          const before = JSON.stringify(s);
          const next = game.play(s, m);
          assertEquals(JSON.stringify(s), before, "play must not change its input");
          checkPresentation(game, s, m, next);
          // States are plain data: a structured clone (as sent to a worker) plays the same.
          assertEquals(
            JSON.stringify(game.play(structuredClone(s), m)),
            JSON.stringify(next),
            "a structured clone of the state must play like the state",
          );
          if (game.key) {
            // The same position reached again has the same key.
            let again = game.initial();
            for (const x of [...path, m]) again = game.play(again, x);
            assertEquals(game.key(again), game.key(next), "equal positions need equal keys");
          }
          path.push(m);
          s = next;
        }
      }),
      { numRuns: playouts },
    );
  });

  Deno.test(`conformance ${c.label}: the plugin states its rules and strengths`, async () => {
    assertEquals(presentationProblems(await loadPlugin(c)), []);
  });

  Deno.test(`conformance ${c.label}: transcripts replay and seeds repeat`, async () => {
    const game = await build(c);
    for (const seed of [1, 2, 3]) {
      const run = () =>
        Effect.runSync(
          runGame(game, [randomAgent(), randomAgent()], { seed, maxPlies, options: c.options }),
        );
      const a = run();
      const b = run();
      assert(
        a.transcript.result.reason === "end" || a.transcript.result.reason === "move limit",
        `random players must finish the game, got ${JSON.stringify(a.transcript.result)}`,
      );
      // Everything but the thinking times repeats.
      const untimed = (t: typeof a.transcript) => ({
        ...t,
        moves: t.moves.map(({ ms: _ms, ...m }) => m),
      });
      assertEquals(untimed(a.transcript), untimed(b.transcript), "the same seed, the same game");
      const json = JSON.parse(JSON.stringify(a.transcript));
      assertEquals(json, a.transcript, "a transcript must survive JSON");
      assertEquals(JSON.stringify(replay(game, json)), JSON.stringify(a.final));
    }
  });

  if ((c.searchDepth ?? 3) > 0) {
    Deno.test(`conformance ${c.label}: alpha-beta agrees with minimax`, async () => {
      const game = await build(c);
      const depth = c.searchDepth ?? 3;
      const rng = makeRng(42);
      for (let k = 0; k < 12; k++) {
        let s = game.initial();
        const plies = rng.int(12);
        for (let i = 0; i < plies; i++) {
          const ms = game.toMove(s) === CHANCE ? game.chances(s).map((x) => x.move) : game.moves(s);
          if (ms.length === 0) break;
          s = game.play(s, ms[rng.int(ms.length)]);
        }
        const mm = minimaxSearch(game, s, { depth });
        const ab = alphabetaSearch(game, s, { depth });
        assertEquals(ab.value, mm.value, `depth ${depth} values differ after ${plies} plies`);
        if (game.toMove(s) !== CHANCE && game.moves(s).length > 0) {
          assert(game.moves(s).includes(ab.move!), "alpha-beta must return a legal move");
        }
      }
    });
  }
};
