/**
 * Guarding a plugin's game: every protocol function of the guarded game records, in a
 * small (possibly shared) array, which function is running, so that an exception names
 * the plugin and the function (`PluginFault`) and a worker stuck inside a plugin's
 * function can be named from outside (the engine reads the array from the main thread).
 * The answers that searches rely on are checked as they come, cheaply (linear in the
 * number of moves, no allocation for lists of up to 16 moves): `moves` gives distinct
 * non-negative integers, `chances` probabilities that are non-negative and sum to 1, and
 * `outcome` no result at a player's position that still has moves. A wrong answer is a
 * `PluginFault` too (`plugin ./my.ts failed in moves(): move 3 is listed twice`).
 *
 * @module
 */
import { PluginFault } from "./errors.ts";
import {
  CHANCE,
  type Chance,
  type FastGame,
  type Game,
  OPTIONAL_FUNCTIONS,
  PICTURE_FUNCTIONS,
  REQUIRED_FUNCTIONS,
} from "./game.ts";

/** The functions of a fast path's cursor (`FastGame`), which a guard wraps too. */
const CURSOR_FUNCTIONS = [
  "reset",
  "toMove",
  "moves",
  "order",
  "play",
  "undo",
  "over",
  "value",
  "key",
] as const satisfies readonly (keyof FastGame<unknown>)[];

/** The protocol functions a guard wraps; slot value `i + 1` means `GAME_FUNCTIONS[i]`. */
const GAME_FUNCTIONS = [
  ...REQUIRED_FUNCTIONS,
  ...OPTIONAL_FUNCTIONS,
  ...PICTURE_FUNCTIONS.map((f) => `picture.${f}` as const),
  "fast",
  ...CURSOR_FUNCTIONS.map((f) => `fast.${f}` as const),
] as const;

/**
 * Where a guard records what runs: `[0]` the running function (0: none, else its index
 * in `GAME_FUNCTIONS` plus one), `[1]` a count of calls (it changes while the plugin
 * makes progress). Make it over a `SharedArrayBuffer` to read it from another thread.
 */
export type GuardSlot = Int32Array;

/** A new slot in shared memory. */
export const sharedSlot = (): GuardSlot => new Int32Array(new SharedArrayBuffer(8));

/** The function a slot says is running, or `undefined`. */
export const runningFunction = (slot: GuardSlot): string | undefined =>
  slot[0] === 0 ? undefined : GAME_FUNCTIONS[slot[0] - 1];

/**
 * Wraps every protocol function of `game`: an exception, or an answer that breaks the
 * protocol (see the module's documentation), becomes a `PluginFault` naming `plugin` and
 * the function, and `slot` tells which function runs. The guarded game
 * keeps every other property of the game (it inherits them).
 *
 * @example
 * ```ts
 * import { guardGame } from "./guard.ts";
 * import { PluginFault } from "./errors.ts";
 * import nim from "../plugins/nim/mod.ts";
 * const game = nim.create({ heaps: [1, 2], misere: false });
 * const broken = guardGame({ ...game, moves: () => { throw new Error("boom"); } }, "nim");
 * try {
 *   broken.moves(broken.initial());
 *   throw new Error("no fault");
 * } catch (e) {
 *   if (!(e instanceof PluginFault) || e.fn !== "moves") throw e;
 * }
 * ```
 */
export const guardGame = <S>(
  game: Game<S>,
  plugin: string,
  slot: GuardSlot = new Int32Array(2),
): Game<S> => {
  const guarded = Object.create(game) as Record<string, unknown>;
  // A picture's functions are guarded in a guarded copy of the picture.
  const picture = game.picture === undefined
    ? undefined
    : Object.create(game.picture) as Record<string, unknown>;
  if (picture !== undefined) guarded.picture = picture;
  const checked = checks(game as Game<unknown>);
  GAME_FUNCTIONS.forEach((name, i) => {
    if (name.startsWith("fast")) return;
    const [owner, target, key] = name.startsWith("picture.")
      ? [game.picture, picture, name.slice("picture.".length)]
      : [game, guarded, name];
    const f = (owner as unknown as Record<string, unknown> | undefined)?.[key];
    if (typeof f !== "function" || target === undefined) return;
    target[key] = wrap(
      f as (a: unknown, b: unknown, c: unknown) => unknown,
      owner,
      i + 1,
      name,
      plugin,
      slot,
      owner === game ? checked[key] : undefined,
    );
  });
  if (typeof game.fast === "function") {
    const make = game.fast;
    const index = (name: string) => GAME_FUNCTIONS.indexOf(name as never) + 1;
    guarded.fast = wrap(
      () => guardCursor(make.call(game), plugin, slot, index),
      game,
      index("fast"),
      "fast",
      plugin,
      slot,
      undefined,
    );
  }
  return guarded as unknown as Game<S>;
};

/**
 * A fast path's cursor with every function wrapped as the game's are (a fault names
 * `fast.play`, ...), and `moves`' count checked to be a whole number from 0 to
 * `maxMoves`.
 */
const guardCursor = <S>(
  cursor: FastGame<S>,
  plugin: string,
  slot: GuardSlot,
  index: (name: string) => number,
): FastGame<S> => {
  const guarded = Object.create(cursor) as Record<string, unknown>;
  const most = cursor.maxMoves;
  const counted: Check = (n) =>
    Number.isInteger(n) && (n as number) >= 0 && (n as number) <= most
      ? undefined
      : `returned ${describe(n)}, not a count of moves from 0 to maxMoves (${most})`;
  for (const key of CURSOR_FUNCTIONS) {
    const f = (cursor as unknown as Record<string, unknown>)[key];
    if (typeof f !== "function") continue;
    const name = `fast.${key}`;
    guarded[key] = wrap(
      f as (a: unknown, b: unknown, c: unknown) => unknown,
      cursor,
      index(name),
      name,
      plugin,
      slot,
      key === "moves" ? counted : undefined,
    );
  }
  return guarded as unknown as FastGame<S>;
};

/** Where ply's own plugins live (this package's `plugins/`). */
const OWN_PLUGINS = new URL("../plugins/", import.meta.url).href;

/**
 * Guards a game built from the plugin module at `url` (see `guardGame`), unless the
 * module is one of ply's own plugins: their exceptions are ply's bugs, reported as such,
 * and a guard costs every call a wrapper (about 13% of Kalah alpha-beta's node rate,
 * `deno run -A bench/engine_overhead.ts` reports the search-level figures).
 */
export const guardPlugin = <S>(
  game: Game<S>,
  url: string,
  plugin: string,
  slot?: GuardSlot,
): Game<S> => url.startsWith(OWN_PLUGINS) ? game : guardGame(game, plugin, slot);

/**
 * What is wrong with an answer of a protocol function (`undefined`: nothing), given the
 * answer and the call's arguments. Called with the guarded game's own functions unwrapped.
 */
type Check = (answer: unknown, a: unknown, b: unknown) => string | undefined;

/** Lists up to this long are checked for repeats pairwise (no allocation). */
const PAIRWISE = 16;

/**
 * What is wrong with a list of moves, if anything: not an array, an item that is not a
 * non-negative integer, or a move listed twice. `seen` is the guard's reusable set for
 * lists longer than `PAIRWISE` (left empty).
 */
export const movesProblem = (moves: unknown, seen: Set<number>): string | undefined => {
  if (!Array.isArray(moves)) return `returned ${describe(moves)}, not an array of moves`;
  const n = moves.length;
  for (let i = 0; i < n; i++) {
    const m = moves[i];
    if (!Number.isInteger(m) || m < 0) {
      return `item ${i + 1} is ${describe(m)}, not a move (a non-negative integer)`;
    }
  }
  if (n <= PAIRWISE) {
    for (let i = 1; i < n; i++) {
      for (let j = 0; j < i; j++) {
        if (moves[i] === moves[j]) return `move ${moves[i]} is listed twice`;
      }
    }
    return undefined;
  }
  try {
    for (let i = 0; i < n; i++) {
      if (seen.has(moves[i])) return `move ${moves[i]} is listed twice`;
      seen.add(moves[i]);
    }
    return undefined;
  } finally {
    seen.clear();
  }
};

/** Probabilities at a chance node may miss 1 by this much (rounding). */
const TOLERANCE = 1e-9;

/**
 * What is wrong with a chance node's outcomes, if anything: not an array, a move that is
 * not a non-negative integer, a probability that is negative or not a number, or
 * probabilities that do not sum to 1 (within 1e-9). An empty list is wrong only at a
 * chance node (`emptyAtChance`: the list is empty and the position is a chance node).
 */
export const chancesProblem = (
  chances: unknown,
  emptyAtChance = false,
): string | undefined => {
  if (!Array.isArray(chances)) return `returned ${describe(chances)}, not an array of chances`;
  const n = chances.length;
  if (n === 0) return emptyAtChance ? "no outcomes at a chance node" : undefined;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const c = chances[i] as Partial<Chance> | null;
    const m = c?.move, p = c?.p;
    if (!Number.isInteger(m) || (m as number) < 0) {
      return `item ${i + 1} has move ${describe(m)}, not a non-negative integer`;
    }
    if (typeof p !== "number" || !(p >= 0) || p === Infinity) {
      return `move ${m} has probability ${describe(p)}, not a number from 0 to 1`;
    }
    sum += p;
  }
  return Math.abs(sum - 1) > TOLERANCE
    ? `the probabilities sum to ${+sum.toPrecision(12)}, not 1`
    : undefined;
};

/** A value as a message names it: short, on one line. */
const describe = (u: unknown): string => {
  if (typeof u === "string") return JSON.stringify(u.length > 20 ? `${u.slice(0, 20)}...` : u);
  if (Array.isArray(u)) return "an array";
  if (u === null || typeof u !== "object") return String(u);
  return "an object";
};

/** The checks of a guarded game's answers, by function (`self` is the game unguarded). */
const checks = (game: Game<unknown>): Partial<Record<string, Check>> => {
  const seen = new Set<number>();
  return {
    moves: (answer) => movesProblem(answer, seen),
    chances: (answer, s) =>
      chancesProblem(
        answer,
        Array.isArray(answer) && answer.length === 0 && game.toMove(s) === CHANCE,
      ),
    outcome: (answer, s) =>
      answer !== undefined && game.toMove(s) !== CHANCE && game.moves(s).length > 0
        ? "reported an outcome at a position that still has moves " +
          `(${game.moves(s).length} of them)`
        : undefined,
  };
};

const wrap = (
  f: (a: unknown, b: unknown, c: unknown) => unknown,
  self: unknown,
  id: number,
  name: string,
  plugin: string,
  slot: GuardSlot,
  check: Check | undefined,
) =>
(a: unknown, b: unknown, c: unknown): unknown => {
  const outer = slot[0];
  slot[0] = id;
  slot[1] = (slot[1] + 1) | 0;
  try {
    const answer = f.call(self, a, b, c);
    const problem = check?.(answer, a, b);
    if (problem !== undefined) throw new PluginFault(plugin, name, problem);
    return answer;
  } catch (e) {
    throw e instanceof PluginFault ? e : new PluginFault(plugin, name, e);
  } finally {
    slot[0] = outer;
  }
};
