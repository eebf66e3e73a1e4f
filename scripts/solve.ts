/**
 * `deno task solve GAME [--OPTION VALUE ...] [--split D] [--workers N] [--db FILE|URL]
 * [--out FILE] [--max-units N] [--json]`, and `deno task solve --verify FILE [--sample N]
 * [--seed S]`.
 *
 * A long exact solve, split into work units (`app/solve/split.ts`): the positions `split`
 * plies from the start, each solved whole by the game's exact solver (its `solve`
 * strategy, else alpha-beta to the end) on the engine's workers, `--workers` at once.
 * Each unit's value is stored as it settles (`app/solve/store.ts`: SQLite in
 * `$XDG_STATE_HOME/ply/solve.db` by default, `--db` another file or a PostgreSQL URL), so
 * Ctrl-C, SIGTERM or a crash loses at most the units in progress and the same command
 * resumes. The tree above the units follows by minimax; a finished solve writes a
 * certificate: the value, the best move and the line above the units, every first move's
 * value, and every unit with its line and value. `--verify FILE` re-checks one: the tree
 * above the units, in full, and a seeded random sample of units, solved again.
 *
 * @module
 */
import { Cause, Effect, Exit, Option } from "../core/deps.ts";
import { isBuiltinUrl } from "../core/source.ts";
import { reachCluster } from "../cluster/reach.ts";
import { database, shardingLayer, workflowEngine } from "../cluster/layers.ts";
import { operatorLogging } from "../cluster/log.ts";
import { migrateSolves, solveExit, SolveWorkflow, storeSolvePlan } from "../cluster/solve.ts";
import { CHANCE, type Game, type Player } from "../core/game.ts";
import { TranspositionTable } from "../core/search/tt.ts";
import { makeRng } from "../core/rng.ts";
import { Terminal, untilInterrupted } from "../app/terminal.ts";
import { isDecisive, num, sideValue, StatusLine } from "../app/display.ts";
import {
  intFlag,
  parseCommandLine,
  printHelp,
  runMain,
  UsageError,
  userPath,
  workersFromArgs,
} from "../app/cli.ts";
import { writeFileAtomic } from "../app/files.ts";
import {
  databaseLayer,
  defaultDatabase,
  describeDatabase,
  isPostgres,
} from "../app/store/database.ts";
import { type Settled, solveStore } from "../app/solve/store.ts";
import { combine, neededUnits, topLine } from "../app/solve/split.ts";
import { notation, type OpenedSolve, openSolve } from "../app/solve/open.ts";

const USAGE = `Usage: deno task solve GAME [--OPTION VALUE ...] [--split D] [--workers N]
                        [--db FILE|URL | --cluster URL] [--out FILE] [--max-units N] [--json]
       deno task solve --verify FILE [--sample N] [--seed S]
Solves a game exactly, split into work units: the positions D plies from the start, each
solved whole by the game's solver (its own, else alpha-beta to the end), N at once. Each
unit's value is stored as it settles: Ctrl-C or SIGTERM loses at most the units in
progress, and the same command resumes. A finished solve writes a certificate.

  --split D        plies from the start to the units (default 2; 0: one unit, the start)
  --workers N      units solved at once, one worker each (default: the cores)
  --db FILE|URL    where the settled units are kept (default $XDG_STATE_HOME/ply/solve.db;
                   postgres://user@host/db for a PostgreSQL database)
  --cluster URL    solve the units on the cluster's runners (deno task runner --cluster URL),
                   kept in its PostgreSQL database; Ctrl-C stops following, not the solve
  --out FILE       the certificate (default solve-GAME-ID.json)
  --max-units N    stop after N units settled in this run (the same command goes on)
  --json           the certificate's summary as one JSON object
  --verify FILE    re-check a certificate: the tree above its units, and a sample of them
  --sample N       with --verify: how many units to solve again (default: a tenth, at least 1)
  --seed S         with --verify: the sample's seed (default 1; said in the output)
On a terminal, a status line shows the units settled, the nodes, the rate and an
estimate of the rest.
`;

const FLAGS = {
  string: ["split", "workers", "db", "cluster", "out", "max-units", "verify", "sample", "seed"],
  boolean: ["json"],
} as const;

/** A solve's certificate (`--out`), as `--verify` reads it back. */
export interface Certificate {
  readonly format: "ply-solve/1";
  /** The game as named on the command line, and its options as the plugin read them. */
  readonly game: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** The solve's id: what decides its result (the game, its options, the code). */
  readonly id: string;
  readonly code: { readonly ply: string; readonly plugin?: string };
  /** The solver of the units. */
  readonly solver: string;
  readonly split: number;
  /** The value (player 0 maximizes), and in words. */
  readonly value: number;
  readonly valueText: string;
  /** The best first move and the line above the units (notation). */
  readonly bestMove: string | null;
  readonly line: readonly string[];
  /** Every first move's value (at a player's start). */
  readonly firstMoves: readonly { readonly move: string; readonly value: number }[];
  /** Every unit: its name, its line (moves and notation), its value and cost. */
  readonly units: readonly {
    readonly unit: string;
    readonly moves: readonly number[];
    readonly line: readonly string[];
    readonly value: number;
    readonly nodes: number;
    readonly ms: number;
  }[];
  /** The units' nodes and milliseconds, summed. */
  readonly nodes: number;
  readonly ms: number;
}

/** A value in words: who wins (in how many plies), or the first player's margin (0: a draw). */
const inWords = (game: Game<unknown>, v: number): string => {
  const first: Player = 0;
  if (isDecisive(v)) return sideValue(game, v, first);
  return v === 0 ? "a draw (0)" : `${game.players[first]}: ${sideValue(game, v, first)}`;
};

/** The units still to settle, the estimate of the rest in words. */
const estimate = (left: number, msEach: number, workers: number): string => {
  if (left === 0 || !Number.isFinite(msEach)) return "";
  const s = (left * msEach) / workers / 1000;
  return `, about ${s < 90 ? `${Math.ceil(s)} s` : `${Math.ceil(s / 60)} min`} left`;
};

const solveMode = (
  specifier: string,
  gameOptions: Record<string, unknown>,
  flags: Record<string, string | boolean | undefined>,
) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    const split = yield* intFlag(flags, "split", 2, 0, 12);
    const maxUnits = yield* intFlag(flags, "max-units", 1e9, 1, 1e9);
    const workers = workersFromArgs(Deno.args) as number;
    const s = yield* openSolve(specifier, gameOptions, split);
    const { game, tree, id } = s;
    const cluster = typeof flags.cluster === "string" ? flags.cluster : undefined;
    if (cluster !== undefined && (flags.db !== undefined || flags["max-units"] !== undefined)) {
      return yield* new UsageError({
        message: `--cluster keeps the units in its own database: --${
          flags.db !== undefined ? "db" : "max-units"
        } does not go with it`,
      });
    }
    if (cluster !== undefined && !(yield* reachCluster(cluster))) return 1;
    const db = cluster ?? (typeof flags.db === "string"
      ? (isPostgres(flags.db) ? flags.db : userPath(flags.db))
      : defaultDatabase("solve"));
    const out = userPath(
      typeof flags.out === "string"
        ? flags.out
        : `solve-${s.plugin.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${id}.json`,
    );
    const where = `the store ${describeDatabase(db)}`;
    return yield* Effect.gen(function* () {
      const store = yield* solveStore(id);
      const settled = yield* store.settled;
      const before = tree.units.filter((u) => settled.has(u.unit)).length;
      const todo = tree.units.filter((u) => !settled.has(u.unit));
      const total = tree.units.length;
      const status = Deno.stderr.isTerminal() ? new StatusLine() : undefined;
      const valueOf = (unit: string) => settled.get(unit)?.value;
      const t0 = performance.now();
      let done = 0, nodes = 0, lastLine = -Infinity;
      const say = (force: boolean) => {
        const ms = performance.now() - t0;
        const rate = ms > 0 ? (nodes / ms) * 1000 : 0;
        const text = `solve: ${num(before + done)} of ${num(total)} units settled` +
          (before > 0 ? ` (${num(before)} before this run)` : "") +
          `, ${num(nodes)} nodes, ${num(rate)} nodes/s` +
          estimate(
            cluster === undefined
              ? neededUnits(tree.root, valueOf, s.distance).length
              : todo.length - done,
            done > 0 ? ms / done : NaN,
            workers,
          );
        if (status !== undefined) return status.show(text);
        // Not a terminal: the first unit's line, then one every few seconds.
        if (force || ms - lastLine >= 5000) {
          lastLine = ms;
          console.error(text);
        }
      };
      // What the solve does, in words: on standard error with --json (standard output then
      // holds the JSON alone).
      const info = (text: string) =>
        flags.json === true ? Effect.sync(() => console.error(text.trimEnd())) : term.print(text);
      if (before > 0 || todo.length > 0) {
        yield* info(
          `${s.plugin.name}: ${num(total)} units at ${split} plies` +
            (before > 0 ? `, ${num(before)} settled before (resuming solve ${id})` : "") +
            (cluster === undefined
              ? `; solving with ${s.solver.name}, ${workers} at once\n`
              : `; solving with ${s.solver.name} on the cluster's runners\n`),
        );
      }
      const tt = game.key !== undefined && s.solver.name === "alphabeta"
        ? TranspositionTable.shared(64)
        : false;
      // On a terminal the status line is redrawn every 2 s while units take their time.
      const ticker = Effect.forever(
        Effect.andThen(Effect.sleep(2000), Effect.sync(() => say(false))),
      );
      // Here: `workers` fibers take the units still needed, one at a time, in the tree's
      // order (a unit under a node already decided is not needed: `neededUnits`).
      const byName = new Map(tree.units.map((u) => [u.unit, u]));
      const inFlight = new Set<string>();
      let budget = maxUnits;
      const next = () => {
        if (budget <= 0) return undefined;
        const name = neededUnits(tree.root, valueOf, s.distance).find((n) => !inFlight.has(n));
        if (name === undefined) return undefined;
        budget--;
        inFlight.add(name);
        return byName.get(name);
      };
      const worker = Effect.gen(function* () {
        for (let u = next(); u !== undefined; u = next()) {
          const r = yield* s.solveUnit(u, tt);
          yield* store.put(u.unit, r);
          settled.set(u.unit, r);
          inFlight.delete(u.unit);
          done++;
          nodes += r.nodes;
          say(done === 1);
        }
      });
      const units = Effect.all(Array.from({ length: workers }, () => worker), {
        concurrency: "unbounded",
        discard: true,
      });
      // On the cluster: the runners solve the units; this program follows the store.
      const followed = (url: string) =>
        Effect.scoped(
          Effect.gen(function* () {
            yield* migrateSolves;
            const plan = `${id}-s${split}`;
            yield* storeSolvePlan(plan, {
              solve: id,
              game: s.opened.specifier,
              ...(isBuiltinUrl(s.opened.source.url) ? {} : { module: s.opened.source.url }),
              options: s.opened.options as Readonly<Record<string, unknown>>,
              split,
              units: tree.units.map((u) => u.unit),
              concurrency: workers,
              code: s.code,
            });
            const execution = yield* SolveWorkflow.execute({ id: plan }, { discard: true });
            yield* info(`submitted to the cluster as solve ${plan}\n`);
            while (true) {
              for (const [unit, r] of yield* store.settled) {
                if (settled.has(unit) || !wanted.has(unit)) {
                  continue;
                }
                settled.set(unit, r);
                done++;
                nodes += r.nodes;
                say(done === 1);
              }
              if (before + done === total) return;
              const exit = yield* solveExit(execution);
              if (exit !== undefined && Exit.isFailure(exit)) {
                return yield* new UsageError({
                  message: `solve ${plan} failed on the cluster: ${
                    String(Cause.squash(exit.cause)).split("\n")[0]
                  }`,
                });
              }
              yield* Effect.sleep(exit === undefined ? 500 : 100);
            }
          }).pipe(
            Effect.provide(workflowEngine),
            Effect.provide(shardingLayer(url)),
            Effect.provide(operatorLogging),
            Effect.mapError((e) =>
              e instanceof UsageError
                ? e
                : new UsageError({ message: `the cluster at ${where}: ${e}` })
            ),
          ),
        );
      const wanted = new Set(tree.units.map((u) => u.unit));
      const work = cluster === undefined ? units : followed(cluster);
      const finished = yield* untilInterrupted(
        status === undefined ? work : Effect.raceFirst(work, ticker),
      );
      status?.clear();
      const root = combine(tree.root, valueOf, s.distance);
      if (Option.isNone(finished) || root === undefined) {
        const how = Option.isNone(finished) ? "stopped" : "paused";
        yield* term.print(
          flags.json === true
            ? JSON.stringify({ id, [how]: true, settled: before + done, units: total }) + "\n"
            : `${how}: ${num(before + done)} of ${num(total)} units settled, kept in ${where}; ` +
              (cluster !== undefined
                ? "the runners go on, and the same command follows them again\n"
                : "the same command goes on\n"),
        );
        return 0;
      }
      const cert = certificate(s, split, root, valueOf, settled);
      writeFileAtomic(out, JSON.stringify(cert, null, 1) + "\n");
      if (flags.json === true) {
        const { units: _units, ...summary } = cert;
        yield* term.print(JSON.stringify({ ...summary, units: cert.units.length, out }) + "\n");
        return 0;
      }
      yield* term.print(
        `value: ${cert.valueText}\n` +
          `best move: ${cert.bestMove ?? "none"}` +
          (cert.line.length > 1 ? ` (line above the units: ${cert.line.join(" ")})` : "") + "\n" +
          (cert.firstMoves.length > 0
            ? `first moves: ${
              cert.firstMoves.map((m) => `${m.move} ${inWords(game, m.value)}`).join(", ")
            }\n`
            : "") +
          `${num(total)} units (${num(done)} this run` +
          (cert.units.length < total
            ? `; ${num(total - cert.units.length)} not needed, their parents decided without them`
            : "") +
          `), ${num(cert.nodes)} nodes, ` +
          `${(cert.ms / 1000).toFixed(1)} s of solving; solve ${id}\n` +
          `certificate: ${out} (deno task solve --verify ${out})\n`,
      );
      return 0;
    }).pipe(
      Effect.provide(cluster === undefined ? databaseLayer(db) : database(cluster)),
      Effect.catchTag("SqlError", (e) => new UsageError({ message: `${where}: ${e.message}` })),
    );
  });

/** The certificate of a finished solve. */
const certificate = (
  s: OpenedSolve,
  split: number,
  root: NonNullable<ReturnType<typeof combine>>,
  valueOf: (unit: string) => number | undefined,
  settled: ReadonlyMap<string, Settled>,
): Certificate => {
  const { game, tree } = s;
  const start = game.initial();
  const top = topLine(tree.root, valueOf, s.distance);
  const units = tree.units.filter((u) => settled.has(u.unit)).map((u) => {
    const r = settled.get(u.unit)!;
    return {
      unit: u.unit,
      moves: u.line,
      line: notation(game, u.line),
      value: r.value,
      nodes: r.nodes,
      ms: Math.round(r.ms),
    };
  });
  const atStart = game.toMove(start);
  return {
    format: "ply-solve/1",
    game: s.opened.specifier,
    options: s.opened.options as Readonly<Record<string, unknown>>,
    id: s.id,
    code: s.code,
    solver: s.solver.name,
    split,
    value: root.value,
    valueText: inWords(game, root.value),
    bestMove: root.move === undefined ? null : game.formatMove(start, root.move),
    line: notation(game, top.line),
    firstMoves: atStart === CHANCE
      ? []
      : (root.moves ?? []).map((m) => ({ move: game.formatMove(start, m.move), value: m.value })),
    units,
    nodes: units.reduce((a, u) => a + u.nodes, 0),
    ms: units.reduce((a, u) => a + u.ms, 0),
  };
};

const verifyMode = (file: string, flags: Record<string, string | boolean | undefined>) =>
  Effect.gen(function* () {
    const term = yield* Terminal;
    let cert: Certificate;
    try {
      cert = JSON.parse(Deno.readTextFileSync(userPath(file))) as Certificate;
    } catch (e) {
      return yield* new UsageError({ message: `--verify ${file}: ${(e as Error).message}` });
    }
    if (cert?.format !== "ply-solve/1" || !Array.isArray(cert.units)) {
      return yield* new UsageError({
        message: `--verify ${file}: not a certificate of deno task solve`,
      });
    }
    const seed = yield* intFlag(flags, "seed", 1, 0, 2 ** 31);
    const s = yield* openSolve(cert.game, { ...cert.options }, cert.split);
    const { game, tree } = s;
    // A certificate that does not hold: said on standard error, exit code 1.
    const wrong = (why: string) =>
      Effect.sync(() => {
        console.error(`error: ${file} does not hold: ${why}`);
        return 1;
      });
    // The tree above the units, in full: the same units, and their values give the value.
    const given = new Map(cert.units.map((u) => [u.unit, u]));
    const names = new Set(tree.units.map((u) => u.unit));
    const stray = cert.units.find((u) => !names.has(u.unit));
    if (stray !== undefined) {
      return yield* wrong(
        `its unit ${stray.line.join(" ")} is not one of the ${num(names.size)} positions ` +
          `${cert.split} plies from the start`,
      );
    }
    const root = combine(tree.root, (u) => given.get(u)?.value, s.distance);
    if (root === undefined) {
      return yield* wrong(
        `its ${num(given.size)} units do not decide the value (of the ${num(names.size)} ` +
          `positions ${cert.split} plies from the start, more are needed)`,
      );
    }
    if (root.value !== cert.value) {
      return yield* wrong(
        `its units' values give ${inWords(game, root.value)}, not ${cert.valueText}`,
      );
    }
    const firsts = (root.moves ?? []).map((m) => m.value);
    if (cert.firstMoves.length > 0 && firsts.some((v, i) => v !== cert.firstMoves[i]?.value)) {
      return yield* wrong("its first moves' values are not what its units give");
    }
    if (s.code.ply !== cert.code.ply || s.code.plugin !== cert.code.plugin) {
      yield* term.print(
        `note: ${file} was made by other code; its units are checked with this code\n`,
      );
    }
    // A seeded sample of the units, solved again.
    const n = yield* intFlag(
      flags,
      "sample",
      Math.max(1, Math.ceil(given.size / 10)),
      1,
      given.size,
    );
    const rng = makeRng(seed);
    const order = tree.units.filter((u) => given.has(u.unit));
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const sample = order.slice(0, n);
    const t0 = performance.now();
    let nodes = 0;
    for (const u of sample) {
      const r = yield* s.solveUnit(u, false);
      nodes += r.nodes;
      const claimed = given.get(u.unit)!.value;
      if (r.value !== claimed) {
        return yield* wrong(
          `unit ${notation(game, u.line).join(" ")}: the certificate says ` +
            `${inWords(game, claimed)}, the solver finds ${inWords(game, r.value)}`,
        );
      }
    }
    const ms = performance.now() - t0;
    const share = cert.nodes > 0 ? (100 * nodes) / cert.nodes : 100;
    yield* term.print(
      `verified ${file}: ${cert.valueText}; the tree above its ${num(given.size)} units ` +
        `gives its value and first moves; ${num(n)} units solved again (seed ${seed}): ` +
        `${num(nodes)} nodes, ${share.toFixed(1)}% of the solve's, ${(ms / 1000).toFixed(1)} s; ` +
        `all agree\n`,
    );
    return 0;
  });

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  if (flags.help === true) return yield* printHelp(USAGE, positional[0]);
  if (typeof flags.verify === "string") {
    if (positional.length > 0 || Object.keys(gameOptions).length > 0) {
      return yield* new UsageError({ message: "--verify FILE takes no game: the file names it" });
    }
    return yield* verifyMode(flags.verify, flags);
  }
  for (const f of ["sample", "seed"] as const) {
    if (flags[f] !== undefined) {
      return yield* new UsageError({ message: `--${f} goes with --verify FILE` });
    }
  }
  if (positional.length !== 1) return yield* new UsageError({ message: "name one game to solve" });
  return yield* solveMode(positional[0], gameOptions, flags);
});

if (import.meta.main) runMain(main, "deno task solve");
