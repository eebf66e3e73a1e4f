/**
 * What a game's strategies keep between searches: a solver with its table, a table of
 * their own. A plugin's game builder gives the game object a `Keep` (its readonly field
 * `keep`), so what is kept belongs to one opened game: on the calling thread to the game
 * it opened, in a worker to the worker (each worker opens its own game from the source,
 * once per source). Nothing is kept in a module-level variable that every game of a
 * thread would share unseen.
 *
 * Each kind of value has a `Slot` (a typed key, made once by the module that keeps it);
 * `Keep.get` makes the value the first time and returns the same one after, until it no
 * longer fits. Searches are synchronous, so no two use a kept value at once.
 *
 * @example One solver per game, reused between its searches
 * ```ts
 * import { Keep, keepOf, slot } from "./keep.ts";
 * const SOLVER = slot<{ solves: number }>("solver");
 * const game = { keep: new Keep() };
 * const a = keepOf(game)!.get(SOLVER, () => ({ solves: 0 }));
 * const b = keepOf(game)!.get(SOLVER, () => ({ solves: 0 }));
 * const other = new Keep().get(SOLVER, () => ({ solves: 0 }));
 * if (a !== b || a === other) throw new Error("one value per keep");
 * ```
 *
 * @module
 */

/** A typed key of a `Keep`: one kind of value (its name is for messages only). */
export interface Slot<T> {
  /** What the slot holds, for a person. */
  readonly name: string;
  /** The type of its value (never set: it only types `Keep.get`). */
  readonly _value?: T;
}

/** A new slot (each call is a distinct key). */
export const slot = <T>(name: string): Slot<T> => ({ name });

/** The values a game's strategies keep between searches on it (see the module notes). */
export class Keep {
  readonly #values = new Map<Slot<unknown>, unknown>();

  /**
   * The value kept in `slot`: the one kept when there is one and `fits` (default: any)
   * accepts it, else a new one from `make`, which replaces it.
   */
  get<T>(slot: Slot<T>, make: () => T, fits?: (kept: T) => boolean): T {
    if (this.#values.has(slot)) {
      const kept = this.#values.get(slot) as T;
      if (fits === undefined || fits(kept)) return kept;
    }
    const value = make();
    this.#values.set(slot, value);
    return value;
  }
}

/**
 * The keep of a game (its field `keep`, own or inherited: a guarded game inherits it),
 * or `undefined` for a game without one, whose strategies then keep nothing.
 */
export const keepOf = (game: object): Keep | undefined => {
  const keep = (game as { keep?: unknown }).keep;
  return keep instanceof Keep ? keep : undefined;
};
