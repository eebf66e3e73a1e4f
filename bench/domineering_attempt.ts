/**
 * `deno task bench domineering --attempt WxH`: a long Domineering solve split into parts
 * that the engine service runs on its workers, checkpointed to a state file so that it
 * can stop (at its budget, after `--max-replies`, or at Ctrl-C) and resume.
 *
 * The first player wins when one of its moves refutes every reply, so the attempt takes
 * the root moves in the solver's order (`Solver.orderedMoves`) and, for the root move
 * being searched, solves each reply's position as one search of the plugin's `solve`
 * strategy: `--workers N` replies at once, each worker with its own table of `2^bits`
 * entries kept across the replies it solves. The first reply that is not refuted settles
 * the root move as lost (the searches still running are interrupted); all refuted, it
 * wins. Each refuted reply and each settled root move is written to the state file.
 *
 * @module
 */
import { Data, Effect, Layer, Option } from "../core/deps.ts";
import { liveEngine, search } from "../core/engine/engine.ts";
import { workerPoolLayer } from "../core/parallel/pool.ts";
import { loadPlugin, makeGame } from "../core/plugin.ts";
import type { DomineeringGame, DomState } from "../plugins/domineering/board.ts";
import { solverInput, solveStrategy } from "../plugins/domineering/mod.ts";
import { createSolver } from "../plugins/domineering/solver.ts";
import { builtins } from "../plugins/registry.ts";

/** What an attempt keeps between runs (moves as cell indices, `row * width + column`). */
export interface AttemptState {
  /** The state file's format (2: replies as cell indices). */
  format: 2;
  board: string;
  mover: "H" | "V";
  /** Root moves refuted so far. */
  losing: number[];
  /** A winning root move once found. */
  winning?: number;
  /** Root moves in all. */
  total?: number;
  /** The root move being searched: its replies refuted so far, of how many. */
  current?: { root: number; refuted: number[]; total: number };
  /** Nodes of the settled searches (work interrupted at a stop is not counted). */
  nodes: number;
  /** Milliseconds over all runs. */
  ms: number;
  runs: number;
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
  /** log2 of each worker's table entries. */
  readonly bits: number;
  /** Searches at once (one worker each). */
  readonly workers: number;
  /** Stop after this many replies are settled in this run. */
  readonly maxReplies: number;
}

/** A reply that the root move's mover does not refute: the root move loses. */
class NotRefuted extends Data.TaggedError("NotRefuted")<{ readonly nodes: number }> {}

/** `--max-replies` reached: the run pauses. */
class Paused extends Data.TaggedError("Paused")<Record<never, never>> {}

const fmt = (n: number) => n.toLocaleString("en-US");
const minutes = (ms: number) => `${(ms / 60000).toFixed(1)} min`;

const report = (s: AttemptState): string =>
  `${
    s.winning !== undefined
      ? `the first player (${s.mover}) wins with ${s.winning}`
      : "the second player wins"
  }` +
  `; ${fmt(s.nodes)} nodes, ${minutes(s.ms)} over ${s.runs} run(s)`;

/** Reads the state file, or a fresh state when there is none (or it is for another board). */
const readState = async (file: string, board: string, mover: "H" | "V"): Promise<AttemptState> => {
  const fresh: AttemptState = { format: 2, board, mover, losing: [], nodes: 0, ms: 0, runs: 0 };
  try {
    const old = JSON.parse(await Deno.readTextFile(file)) as AttemptState;
    if (old.board !== board || old.mover !== mover) return fresh;
    if (old.format !== 2) {
      console.log(
        `${file} was written by an older attempt (replies in another form): starting over`,
      );
      return fresh;
    }
    return old;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return fresh;
    throw e;
  }
};

/** One run of an attempt: resumes from the state file, stops at the budget or the verdict. */
export const runAttempt = async (req: AttemptRequest): Promise<void> => {
  const board = `${req.width}x${req.height}`, { mover, file } = req;
  const state = await readState(file, board, mover);
  const save = () => Deno.writeTextFileSync(file, JSON.stringify(state, null, 1));
  if (
    state.winning !== undefined ||
    (state.total !== undefined && state.losing.length === state.total)
  ) {
    console.log(`${board}: already settled in ${file}: ${report(state)}`);
    return;
  }
  state.runs++;
  console.log(
    `${board}, ${mover} first: run ${state.runs}, budget ${minutes(req.budgetMs)}, ` +
      `${req.workers} worker(s) with 2^${req.bits}-entry tables, ` +
      `${state.losing.length} root moves already refuted` +
      (state.current === undefined
        ? ""
        : `, ${state.current.refuted.length} replies to root move ${state.current.root}`) +
      ` (state: ${file})`,
  );
  const t0 = performance.now(), msBefore = state.ms;
  const clock = () => (state.ms = msBefore + performance.now() - t0);
  let settledThisRun = 0;

  const program = Effect.gen(function* () {
    const { plugin, url } = yield* loadPlugin("domineering", builtins);
    const made = yield* makeGame(plugin, { board, first: mover }, url);
    const game = made.game as unknown as DomineeringGame;
    const g = game.geometry;
    const input = (s: DomState) => solverInput(g, s);
    const order = createSolver({ ttBits: 10 });
    const start = game.initial();
    const roots = order.orderedMoves(input(start));
    state.total = roots.length;
    // The solve strategy's value is +WIN when V wins.
    const moverWins = (value: number) => (value > 0) === (mover === "V");
    const solveReply = (after: DomState, reply: number) =>
      search({
        strategy: solveStrategy,
        game,
        state: game.play(after, reply),
        options: { params: { bits: req.bits, line: 0 } },
      }).pipe(
        Effect.flatMap((r) =>
          moverWins(r.value)
            ? Effect.succeed(r.nodes)
            : Effect.fail(new NotRefuted({ nodes: r.nodes }))
        ),
      );
    for (const root of roots) {
      if (state.losing.includes(root)) continue;
      const after = game.play(start, root);
      const replies = order.orderedMoves(input(after));
      if (state.current?.root !== root) {
        state.current = { root, refuted: [], total: replies.length };
      }
      const current = state.current;
      const todo = replies.filter((r) => !current.refuted.includes(r));
      const wins = yield* Effect.forEach(todo, (reply) =>
        solveReply(after, reply).pipe(
          Effect.flatMap((nodes) =>
            Effect.suspend(() => {
              current.refuted.push(reply);
              state.nodes += nodes;
              clock();
              save();
              console.log(
                `    root ${root}: ${current.refuted.length}/${current.total} replies refuted ` +
                  `(reply ${reply}: ${fmt(nodes)} nodes); ${fmt(state.nodes)} nodes, ` +
                  `${minutes(state.ms)} in all`,
              );
              return ++settledThisRun >= req.maxReplies ? Effect.fail(new Paused()) : Effect.void;
            })
          ),
        ), { concurrency: req.workers, discard: true }).pipe(
          Effect.as(true),
          Effect.catchTag("NotRefuted", (e) =>
            Effect.sync(() => {
              state.nodes += e.nodes;
              return false;
            })),
        );
      if (wins) state.winning = root;
      else state.losing.push(root);
      delete state.current;
      clock();
      save();
      console.log(
        `  root ${state.losing.length + (wins ? 1 : 0)}/${roots.length}: ${root} ` +
          `${wins ? "WINS" : "loses"}; ${fmt(state.nodes)} nodes, ${minutes(state.ms)} in all`,
      );
      if (wins) break;
    }
    return "settled" as const;
  });

  const outcome = await Effect.runPromise(
    program.pipe(
      Effect.catchTag("Paused", () => Effect.succeed("paused" as const)),
      Effect.timeoutOption(req.budgetMs),
      Effect.map(Option.getOrElse(() => "budget" as const)),
      Effect.provide(liveEngine.pipe(Layer.provideMerge(workerPoolLayer(req.workers)))),
    ),
  );
  clock();
  save();
  if (outcome === "settled") {
    console.log(`${board}: ${report(state)}`);
    return;
  }
  const where = `${state.losing.length}/${state.total ?? "?"} root moves refuted` +
    (state.current === undefined ? "" : `; root move ${state.current.root}: ` +
      `${state.current.refuted.length}/${state.current.total} replies refuted`);
  console.log(
    `${board}: ${
      outcome === "paused" ? `paused after ${settledThisRun} replies` : "budget spent"
    }; ` +
      `${where}, ${fmt(state.nodes)} nodes in settled searches, ${minutes(state.ms)} in all; ` +
      "run again to resume",
  );
};
