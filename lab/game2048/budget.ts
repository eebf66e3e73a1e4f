/**
 * How deep 2048's expectimax goes, and how long it takes, at each time budget: positions
 * sampled from seeded games of the one-ply player (`expectimax:1`), each searched at
 * every budget, with the mean time a move, the mean depth reached and (with
 * `--reference MS`) how often the move agrees with a longer search's:
 *
 * ```sh
 * deno run --allow-read --allow-import lab/game2048/budget.ts --eval ntuple \
 *   --weights out/2048-4x6-tc.weights --p1 expectimax:50ms,expectimax:100ms,expectimax:200ms
 * ```
 *
 * Game i uses seed S+i (its tiles from `core/rng.ts`), and every `--every` K-th slider
 * position whose tiles the compact board holds is kept. A budget's time is an upper
 * bound: the search stops when its next iteration would not fit, so the mean time a move
 * is what a player of that budget spends.
 *
 * @module
 */
import { parseArgs } from "../../app/deps.ts";
import { Effect, Result } from "../../core/deps.ts";
import { CHANCE, pickChance } from "../../core/game.ts";
import { makeGame } from "../../core/plugin.ts";
import { parseSpec, searchOptionsOf } from "../../app/players/spec.ts";
import { makeRng } from "../../core/rng.ts";
import type { SearchOptions } from "../../core/search/types.ts";
import { compactFits, expectimax2048, fastExpectimax } from "../../plugins/game2048/expectimax.ts";
import plugin from "../../plugins/game2048/mod.ts";
import { type Game2048, is2048, type State2048 } from "../../plugins/game2048/rules.ts";

/** One budget's figures over the sampled positions. */
export interface BudgetRow {
  /** The player spec. */
  readonly spec: string;
  /** Mean milliseconds a move. */
  readonly msPerMove: number;
  /** The longest move, in milliseconds. */
  readonly maxMs: number;
  /** Mean depth reached, in plies. */
  readonly depth: number;
  /** Share of positions where the move is the reference search's (when there is one). */
  readonly agreement?: number;
}

/** The search options of an `expectimax:...` spec. */
const optionsOf = (spec: string): SearchOptions => {
  const parsed = parseSpec(spec, { expectimax: expectimax2048 });
  if (Result.isFailure(parsed)) throw new Error(parsed.failure);
  const p = parsed.success;
  if (p.kind !== "search" || p.strategy !== "expectimax") {
    throw new Error(`expected an expectimax spec such as expectimax:50ms, got ${spec}`);
  }
  return searchOptionsOf(p);
};

/** Every `every`-th slider position of `games` seeded one-ply games from seed `seed`. */
export const samplePositions = (
  game: Game2048,
  games: number,
  seed: number,
  every: number,
): State2048[] => {
  const out: State2048[] = [];
  for (let g = 0; g < games; g++) {
    const rng = makeRng(seed + g);
    let s = game.initial(), slides = 0;
    for (;;) {
      if (game.toMove(s) === CHANCE) {
        s = game.play(s, pickChance(game.chances(s), rng.next()));
      } else {
        if (game.moves(s).length === 0) break;
        if (slides++ % every === 0 && compactFits(s) !== undefined) out.push(s);
        s = game.play(s, fastExpectimax(game, s, { depth: 1 }).move!);
      }
    }
  }
  return out;
};

/** Searches every position at every spec (and the reference, if any), in turn. */
export const measureBudgets = (
  game: Game2048,
  positions: readonly State2048[],
  specs: readonly string[],
  referenceMs?: number,
): BudgetRow[] => {
  const options = specs.map(optionsOf);
  const ms = specs.map(() => 0), maxMs = specs.map(() => 0), depth = specs.map(() => 0);
  const agree = specs.map(() => 0);
  for (const s of positions) {
    const want = referenceMs === undefined
      ? undefined
      : fastExpectimax(game, s, { timeMs: referenceMs }).move;
    options.forEach((o, k) => {
      const t = performance.now();
      const r = fastExpectimax(game, s, o);
      const took = performance.now() - t;
      ms[k] += took;
      maxMs[k] = Math.max(maxMs[k], took);
      depth[k] += r.depth;
      if (r.move === want) agree[k]++;
    });
  }
  const n = Math.max(1, positions.length);
  const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
  return specs.map((spec, k) => ({
    spec,
    msPerMove: round(ms[k] / n, 1),
    maxMs: round(maxMs[k], 1),
    depth: round(depth[k] / n, 2),
    ...(referenceMs === undefined ? {} : { agreement: round(agree[k] / n, 3) }),
  }));
};

const USAGE = `Usage: deno run --allow-read --allow-import lab/game2048/budget.ts
         --p1 SPEC[,SPEC...] [--games N] [--seed S] [--every K] [--reference MS]
         [--eval E] [--weights FILE]
  (a spec's own commas stay: expectimax:50ms,slides=5,expectimax:100ms is two specs)`;

const main = (): number => {
  const a = parseArgs(Deno.args, {
    string: ["p1", "games", "seed", "every", "reference", "eval", "weights"],
    boolean: ["help"],
  });
  if (a.help || typeof a.p1 !== "string") {
    console.log(USAGE);
    return a.help ? 0 : 2;
  }
  // "expectimax:50ms,slides=5,expectimax:100ms": a part with "=" belongs to the spec before.
  const specs: string[] = [];
  for (const part of a.p1.split(",")) {
    if (part.includes("=") && specs.length > 0) specs[specs.length - 1] += "," + part;
    else specs.push(part);
  }
  const options: Record<string, unknown> = { width: 4, height: 4 };
  if (typeof a.eval === "string") options.eval = a.eval;
  if (typeof a.weights === "string") options.weights = a.weights;
  const { game } = Effect.runSync(makeGame(plugin, options));
  if (!is2048(game)) throw new Error("not a 2048 game");
  const positions = samplePositions(
    game,
    Number(a.games ?? 3),
    Number(a.seed ?? 1),
    Number(a.every ?? 150),
  );
  const reference = a.reference === undefined ? undefined : Number(a.reference);
  console.error(`${positions.length} positions`);
  for (const row of measureBudgets(game, positions, specs, reference)) {
    console.log(JSON.stringify(row));
  }
  return 0;
};

if (import.meta.main) Deno.exit(main());
