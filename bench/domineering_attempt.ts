/**
 * `deno task bench domineering --attempt WxH`: a long Domineering solve split into parts
 * that the engine service runs on its workers, checkpointed to a state file so that it
 * can stop (at its budget, after `--max-searches`, or at Ctrl-C) and resume.
 *
 * A position is won for the side to move when one of its moves leads to a position lost
 * for the other side. The attempt proves this move by move, in the solver's order
 * (`Solver.orderedMoves`), down to the positions `split` moves from the start, which it
 * solves whole as searches of the plugin's `solve` strategy: `--workers N` at once, the
 * children of one position, every worker's solver keeping its entries in one table in
 * shared memory. The first child that decides its parent stops the others. Every settled
 * position is written to the state file, keyed by the cells of each side's dominoes.
 *
 * @module
 */
import { Data, Effect, Layer, Option } from "../core/deps.ts";
import { liveEngine, search } from "../core/engine/engine.ts";
import { workerPoolLayer } from "../core/parallel/pool.ts";
import { openGameWith } from "../core/plugin.ts";
import type { SearchError } from "../core/errors.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { liveTerminal, STOP_SIGNALS, untilInterrupted } from "../app/terminal.ts";
import {
  type DomineeringGame,
  type DomState,
  formatCell,
  turnOf,
} from "../plugins/domineering/board.ts";
import { solverInput, solveStrategy } from "../plugins/domineering/mod.ts";
import { createSolver } from "../plugins/domineering/solver.ts";
import { builtins } from "../plugins/registry.ts";

/** What an attempt keeps between runs. */
export interface AttemptState {
  /** The state file's format (3: positions settled, keyed by their dominoes). */
  format: 3;
  board: string;
  mover: "H" | "V";
  /**
   * Positions settled so far, whether the side to move there wins, keyed by the cells
   * of each side's dominoes (`keyOf`): the same position reached in another order is
   * not searched again, and the key holds whatever split depth found it.
   */
  settled: Record<string, boolean>;
  /** Searches settled (positions at the split depth, solved by the workers). */
  searches: number;
  /** Nodes of the settled searches (work interrupted at a stop is not counted). */
  nodes: number;
  /** Milliseconds over all runs. */
  ms: number;
  runs: number;
  /** Where the last run stopped: the moves of the line being proved, with their ranks. */
  at?: string;
}

/** What one run is asked to do. */
export interface AttemptRequest {
  readonly width: number;
  readonly height: number;
  readonly mover: "H" | "V";
  /** Milliseconds this run may take. */
  readonly budgetMs: number;
  /** The state file. */
  readonly file: string;
  /** log2 of the entries of the table the workers share. */
  readonly bits: number;
  /** Searches at once (one worker each). */
  readonly workers: number;
  /** Moves from the start to the positions searched whole (even: 2, 4, 6). */
  readonly split: number;
  /** Stop after this many searches are settled in this run. */
  readonly maxSearches: number;
}

/** A search that answers its parent: the side to move at the parent wins. */
class Decided extends Data.TaggedError("Decided")<Record<never, never>> {}

/** `--max-searches` reached: the run pauses. */
class Paused extends Data.TaggedError("Paused")<Record<never, never>> {}

const fmt = (n: number) => n.toLocaleString("en-US");
const minutes = (ms: number) => `${(ms / 60000).toFixed(1)} min`;

/**
 * A position's key: the cells of the first player's dominoes, then the second's, each
 * sorted (`moves` alternate from the first player's).
 */
const keyOf = (moves: readonly number[]): string => {
  const side = (parity: number) =>
    moves.filter((_, i) => i % 2 === parity).sort((a, b) => a - b).join(",");
  return `${side(0)}/${side(1)}`;
};

/** Reads the state file, or a fresh state when there is none (or it is for another board). */
const readState = async (file: string, board: string, mover: "H" | "V"): Promise<AttemptState> => {
  const fresh: AttemptState = {
    format: 3,
    board,
    mover,
    settled: {},
    searches: 0,
    nodes: 0,
    ms: 0,
    runs: 0,
  };
  try {
    const old = JSON.parse(await Deno.readTextFile(file)) as AttemptState;
    if (old.board !== board || old.mover !== mover) return fresh;
    if (old.format !== 3) {
      console.log(`${file} was written by an older attempt (another format): starting over`);
      return fresh;
    }
    return old;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return fresh;
    throw e;
  }
};

/**
 * One run of an attempt: resumes from the state file, stops at the verdict, the budget,
 * `--max-searches` or Ctrl-C, saving what is settled.
 */
export const runAttempt = async (req: AttemptRequest): Promise<void> => {
  const board = `${req.width}x${req.height}`, { mover, file, split } = req;
  const other = mover === "H" ? "V" : "H";
  const state = await readState(file, board, mover);
  const save = () => Deno.writeTextFileSync(file, JSON.stringify(state, null, 1));
  const t0 = performance.now(), msBefore = state.ms;
  const clock = () => (state.ms = msBefore + performance.now() - t0);
  let settledThisRun = 0;

  const program = Effect.gen(function* () {
    const made = yield* openGameWith(builtins, "domineering", { board, first: mover });
    const game = made.game as unknown as DomineeringGame;
    const g = game.geometry;
    const order = createSolver({ ttBits: 10 });
    // One table in shared memory for every worker's solver: 2^bits entries of 16 bytes.
    const table = TranspositionTable.shared(2 ** (req.bits - 16));
    const ordered = (s: DomState) => order.orderedMoves(solverInput(g, s));
    const start = game.initial();
    const rootKey = keyOf([]);
    const verdict = () => {
      const wins = state.settled[rootKey];
      if (wins === undefined) return undefined;
      const move = wins
        ? ordered(start).find((m) => state.settled[keyOf([m])] === false)
        : undefined;
      return `${
        !wins
          ? `the second player (${other}) wins`
          : move === undefined
          ? `the first player (${mover}) wins (the move bounds decide it)`
          : `the first player (${mover}) wins with ${move} (${formatCell(g, move)})`
      }; ${fmt(state.nodes)} nodes in ${fmt(state.searches)} searches, ` +
        `${minutes(state.ms)} over ${state.runs} run(s)`;
    };
    const settledBefore = verdict();
    if (settledBefore !== undefined) {
      console.log(`${board}: already settled in ${file}: ${settledBefore}`);
      return;
    }
    state.runs++;
    console.log(
      `${board}, ${mover} first: run ${state.runs}, budget ${minutes(req.budgetMs)}, ` +
        `${req.workers} worker(s) sharing a 2^${req.bits}-entry table, searches ${split} moves ` +
        `deep; ${fmt(state.searches)} searches settled before` +
        (state.at === undefined ? "" : ` (stopped at ${state.at})`) + ` (state: ${file})`,
    );

    // The line being proved, for the progress lines and the report at a stop.
    const line: string[] = [];
    const side = (depth: number) => (depth % 2 === 0 ? mover : other);
    const step = (depth: number, m: number, rank: number, of: number) =>
      `${side(depth)} ${formatCell(g, m)} (${rank}/${of})`;
    const where = () => line.join(" ");
    const settle = (moves: readonly number[], wins: boolean) => {
      state.settled[keyOf(moves)] = wins;
      clock();
      save();
    };

    /** Searches the children of a position one move above the split, `workers` at once. */
    const frontier = (
      pos: DomState,
      moves: readonly number[],
      children: readonly number[],
    ): Effect.Effect<boolean, Paused | SearchError> => {
      const known = (m: number) => state.settled[keyOf([...moves, m])];
      if (children.some((m) => known(m) === false)) return Effect.succeed(true);
      const todo = children.filter((m) => known(m) === undefined);
      let done = children.length - todo.length;
      const depth = moves.length;
      const mark = () => (line[depth] = `${side(depth)}: ${done}/${children.length} searched`);
      mark();
      return Effect.forEach(todo, (m) => {
        const child = game.play(pos, m);
        const toMove = turnOf(g, child);
        return search({
          strategy: solveStrategy,
          game,
          source: made.source,
          state: child,
          options: { params: { line: 0 }, tt: table },
        }).pipe(
          Effect.flatMap((r) =>
            Effect.suspend((): Effect.Effect<void, Decided | Paused> => {
              // The solve strategy's value is +WIN when V wins.
              const childWins = (r.value > 0) === (toMove === "V");
              state.nodes += r.nodes;
              state.searches++;
              done++;
              mark();
              settle([...moves, m], childWins);
              console.log(
                `    ${line.slice(0, depth).join(" ")} ${side(depth)} ${formatCell(g, m)}: ` +
                  `${childWins ? toMove : side(depth)} wins (${fmt(r.nodes)} nodes); ` +
                  `${done}/${children.length} here; ${fmt(state.searches)} searches, ` +
                  `${fmt(state.nodes)} nodes, ${minutes(state.ms)} in all`,
              );
              if (!childWins) return Effect.fail(new Decided());
              return ++settledThisRun >= req.maxSearches ? Effect.fail(new Paused()) : Effect.void;
            })
          ),
        );
      }, { concurrency: req.workers, discard: true }).pipe(
        Effect.as(false),
        Effect.catchTag("Decided", () => Effect.succeed(true)),
      );
    };

    /** Whether the side to move after `moves` wins (negamax over the settled positions). */
    const wins = (
      pos: DomState,
      moves: readonly number[],
    ): Effect.Effect<boolean, Paused | SearchError> =>
      Effect.suspend(() => {
        const known = state.settled[keyOf(moves)];
        if (known !== undefined) return Effect.succeed(known);
        const children = ordered(pos), depth = moves.length;
        const decided = (v: boolean) =>
          Effect.sync(() => {
            settle(moves, v);
            line.length = depth;
            if (depth < split - 1) {
              console.log(`  ${where() || "start"}: ${v ? side(depth) : side(depth + 1)} wins`);
            }
            return v;
          });
        // The bounds on the moves left decide some positions without a search.
        const bound = order.bounds(solverInput(g, pos)).verdict;
        if (bound !== undefined) return decided(bound === "win");
        if (depth === split - 1) {
          return frontier(pos, moves, children).pipe(Effect.flatMap(decided));
        }
        return Effect.gen(function* () {
          for (const [i, m] of children.entries()) {
            line.length = depth;
            line[depth] = step(depth, m, i + 1, children.length);
            if (!(yield* wins(game.play(pos, m), [...moves, m]))) return yield* decided(true);
          }
          return yield* decided(false);
        });
      });

    const outcome = yield* untilInterrupted(
      wins(start, []).pipe(
        Effect.as("settled" as const),
        Effect.catchTag("Paused", () => Effect.succeed("paused" as const)),
        Effect.timeoutOption(req.budgetMs),
        Effect.map(Option.getOrElse(() => "budget" as const)),
      ),
    ).pipe(Effect.map(Option.getOrElse(() => "interrupted" as const)));
    if (outcome !== "settled") state.at = where();
    else delete state.at;
    clock();
    save();
    if (outcome === "settled") {
      console.log(`${board}: ${verdict()}`);
      return;
    }
    if (outcome === "interrupted") Deno.exitCode = STOP_SIGNALS.SIGINT;
    const why = {
      paused: `paused after ${settledThisRun} searches`,
      budget: "budget spent",
      interrupted: "stopped by Ctrl-C",
    }[outcome];
    console.log(
      `${board}: ${why}; at ${state.at}; ${fmt(state.searches)} searches settled, ` +
        `${fmt(state.nodes)} nodes in them, ${minutes(state.ms)} in all; run again to resume`,
    );
  });

  await Effect.runPromise(
    program.pipe(
      Effect.provide(
        Layer.mergeAll(
          liveEngine.pipe(Layer.provideMerge(workerPoolLayer(req.workers))),
          liveTerminal,
        ),
      ),
    ),
  );
};
