/**
 * The tactics suite: `deno task bench tactics [--count N] [--seed S] [--quick]
 * [--strategies "SPEC SPEC ..."] [--rates]`.
 *
 * Generates seeded suites of tactical positions (`app/tactics.ts`: win1, block, win2)
 * for every game whose tree allows it (2048 is one player against chance: no tactics)
 * and prints, per game and kind, the share each strategy and budget solves, with the
 * time it took. Small games are labelled to the end (`exact`: only positions where the
 * short tactic is the whole story); Pentago's late positions at the 3-ply horizon.
 * `--rates` also prints MCTS's iterations (playouts) per second on fixed positions, the
 * cost of its decisive and anti-decisive rules (compare with an older checkout).
 *
 * Times are single runs on a shared machine: noisy.
 *
 * @module
 */
import { parseArgs } from "../app/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { makeRng } from "../core/rng.ts";
import { parseSpec } from "../app/players/spec.ts";
import { mctsSearch } from "../core/search/mcts.ts";
import { builtinStrategies } from "../core/search/strategies.ts";
import {
  generateTactics,
  scoreTactics,
  TACTIC_KINDS,
  type TacticalPosition,
  type TacticResult,
  type TacticsOptions,
  tacticState,
  tryTactic,
} from "../app/tactics.ts";
import { openGame } from "../app/games.ts";
import { MIDGAME, positionAfter } from "./pentago_suite.ts";
import type { SuiteFlags } from "./suite.ts";

/** One line for `deno task bench --help`. */
export const description =
  "tactical positions (win in one, block, win in two) solved per strategy and budget";

/** The flags the suite takes. */
export const flags: SuiteFlags = {
  boolean: ["quick", "rates"],
  value: ["count", "seed", "strategies"],
  usage: '[--count N] [--seed S] [--quick] [--strategies "SPEC SPEC ..."] [--rates]',
};

/** Runs the suite. */
export const run = async (argv: readonly string[]): Promise<void> => {
  const args = parseArgs([...argv], {
    string: ["count", "seed", "strategies"],
    boolean: ["quick", "rates"],
  }) as Record<string, unknown>;
  const quick = args.quick === true;
  const count = typeof args.count === "string" ? Number(args.count) : quick ? 10 : 30;
  const seed = typeof args.seed === "string" ? Number(args.seed) : 1;
  const specs = typeof args.strategies === "string"
    ? args.strategies.split(/[\s;]+/).filter((s) => s !== "")
    : ["mcts:200", "mcts:1000", "mcts:3000", "alphabeta:2", "alphabeta:3", "alphabeta:4"];

  /** The games: id, options, a label, and how their suites are drawn. */
  const GAMES: readonly [string, Record<string, unknown>, string, Partial<TacticsOptions>][] = [
    ["tictactoe", {}, "tic-tac-toe", { exact: true }],
    ["nim", { heaps: [3, 4, 5] }, "nim 3-4-5", { exact: true }],
    ["kalah", { pits: 4, stones: 3 }, "kalah 4x3", { exact: true }],
    ["domineering", { board: "5x4" }, "domineering 5x4", { exact: true }],
    ["pentago", {}, "pentago (last 8 plies)", { lastPlies: 8 }],
  ];

  const strategies = specs.map((text) => {
    const r = parseSpec(text, builtinStrategies);
    if (Result.isFailure(r) || r.success.kind !== "search") {
      console.error(`bad strategy '${text}': ${Result.isFailure(r) ? r.failure : "not a search"}`);
      Deno.exit(2);
    }
    const { strategy, kind: _, ...budget } = r.success;
    return { text, strategy: builtinStrategies[strategy], budget };
  });

  const pct = (a: number, b: number) => (b === 0 ? "-" : `${Math.round((100 * a) / b)}%`);
  const col = 12;

  console.log(
    `tactics bench: ${count} positions of each kind per game, seed ${seed} ` +
      `(deno task bench tactics --count ${count} --seed ${seed})`,
  );
  const header = ["game / kind".padEnd(28), ...strategies.map((s) => s.text.padStart(col))];
  console.log(header.join(""));
  const totals = strategies.map(() => ({ solved: 0, total: 0, ms: 0 }));
  for (const [id, options, label, how] of GAMES) {
    const { game } = await Effect.runPromise(openGame(id, options));
    const t0 = performance.now();
    const positions = generateTactics(game, { seed, count, ...how });
    const made = performance.now() - t0;
    const states = positions.map((p) => {
      const at = tacticState(game, p);
      if (Result.isFailure(at)) throw new Error(at.failure);
      return at.success;
    });
    const results: TacticResult[][] = [];
    const times: number[] = [];
    for (const [j, s] of strategies.entries()) {
      const start = performance.now();
      results.push(
        positions.map((p: TacticalPosition, i) =>
          tryTactic(game as Game<unknown>, p, states[i], s.strategy, {
            ...s.budget,
            distance: true,
            rng: makeRng(seed + i),
          })
        ),
      );
      times.push(performance.now() - start);
      const sc = scoreTactics(results[j]);
      totals[j].solved += sc.solved;
      totals[j].total += sc.total;
      totals[j].ms += times[j];
    }
    console.log(`${label} (${positions.length} positions, drawn in ${Math.round(made)} ms)`);
    for (const kind of TACTIC_KINDS) {
      const n = positions.filter((p) => p.kind === kind).length;
      if (n === 0) continue;
      const cells = results.map((rs) => {
        const sc = scoreTactics(rs).byKind[kind]!;
        return `${pct(sc.solved, sc.total)} (${sc.solved})`.padStart(col);
      });
      console.log(`  ${`${kind} (${n})`.padEnd(26)}${cells.join("")}`);
    }
    console.log(
      `  ${"ms per position".padEnd(26)}${
        times.map((t) => (t / Math.max(1, positions.length)).toFixed(1).padStart(col)).join("")
      }`,
    );
  }
  console.log(
    `${"all".padEnd(28)}${
      totals.map((t) => `${pct(t.solved, t.total)} (${t.solved})`.padStart(col)).join("")
    }`,
  );

  if (args.rates === true) {
    // MCTS's iterations per second on fixed positions (the best of 5 runs).
    const { game: pentago } = await Effect.runPromise(openGame("pentago", {}));
    const { game: kalah } = await Effect.runPromise(openGame("kalah", {}));
    const issue = "a6 ne cw,a1 ne cw,c6 ne cw,b1 ne cw,b4 ne cw,c1 ne cw,c4 ne cw,d1 ne cw";
    const kalahMid = (() => {
      let s = kalah.initial();
      const rng = makeRng(5);
      for (let i = 0; i < 12; i++) {
        const ms = kalah.moves(s);
        s = kalah.play(s, ms[rng.int(ms.length)]);
      }
      return s;
    })();
    const cases: [string, Game<unknown>, unknown, number][] = [
      ["pentago empty board", pentago, pentago.initial(), 10_000],
      [
        "pentago midgame (bench/pentago_suite.ts)",
        pentago,
        positionAfter(pentago, MIDGAME),
        10_000,
      ],
      ["pentago, issue 19's threat", pentago, positionAfter(pentago, issue), 3_000],
      ["kalah 6x4 start", kalah, kalah.initial(), 30_000],
      ["kalah 6x4, 12 random plies", kalah, kalahMid, 30_000],
    ];
    console.log("\nMCTS iterations (playouts) per second, best of 5 runs:");
    for (const [name, game, s, n] of cases) {
      let best = 0;
      for (let k = 0; k < 5; k++) {
        const r = mctsSearch(game, s, { iterations: n, rng: makeRng(k + 1) });
        best = Math.max(best, (r.nodes / r.timeMs) * 1000);
      }
      console.log(`  ${name.padEnd(44)} ${Math.round(best).toLocaleString("en-US").padStart(9)}/s`);
    }
  }
};
