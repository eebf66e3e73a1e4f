/**
 * The tree above a solve's units (`app/solve/split.ts`), as properties over random Nim
 * games and splits: the units' exact values combine to the whole search's value, with a
 * win's distance (quickest wins) and without one; and a solve that takes only the units
 * still needed (`neededUnits`, a node decided by one child won outright) finds the same
 * value, with no more units than the whole split and fewer where a win decides early.
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import { runStrategy } from "../core/engine/strategies.ts";
import { alphabetaStrategy } from "../core/search/strategies.ts";
import { nimGame, type NimState } from "../plugins/nim/mod.ts";
import type { Game } from "../core/game.ts";
import { combine, neededUnits, splitTree } from "../app/solve/split.ts";

/** The exact value of `s` by alpha-beta to the end. */
const exact = (game: Game<NimState>, s: NimState, distance: boolean): number => {
  const r = Effect.runSync(
    runStrategy(alphabetaStrategy, game, s, { depth: Infinity, distance, tt: false }),
  );
  assert(r.exact);
  return r.value;
};

const heaps = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 });

Deno.test("solve split: the units' values combine to the whole search's value (with and without distance)", () => {
  fc.assert(
    fc.property(
      heaps,
      fc.boolean(),
      fc.integer({ min: 0, max: 3 }),
      fc.boolean(),
      (h, misere, split, distance) => {
        const game = nimGame({ heaps: h, misere });
        const root = game.initial();
        const tree = splitTree(game, root, split);
        const values = new Map(tree.units.map((u) => [u.unit, exact(game, u.state, distance)]));
        const whole = combine(tree.root, (u) => values.get(u), distance);
        assertEquals(whole?.value, exact(game, root, distance));
        // Every first move's value is the whole search's of the position after it.
        if (split > 0) {
          for (const m of whole?.moves ?? []) {
            const after = exact(game, game.play(root, m.move), distance);
            assertEquals(
              m.value,
              Math.abs(after) >= 2 ** 39 && distance ? after - Math.sign(after) : after,
            );
          }
        }
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("solve split: the units still needed give the same value, never more units", () => {
  let fewer = 0;
  fc.assert(
    fc.property(heaps, fc.boolean(), fc.integer({ min: 1, max: 3 }), (h, misere, split) => {
      const game = nimGame({ heaps: h, misere });
      const root = game.initial();
      const tree = splitTree(game, root, split);
      const byName = new Map(tree.units.map((u) => [u.unit, u]));
      // Without distance, wins are exactly WIN: one won child decides its parent.
      const settled = new Map<string, number>();
      const valueOf = (u: string) => settled.get(u);
      for (
        let next = neededUnits(tree.root, valueOf, false);
        next.length > 0;
        next = neededUnits(tree.root, valueOf, false)
      ) {
        settled.set(next[0], exact(game, byName.get(next[0])!.state, false));
      }
      assertEquals(combine(tree.root, valueOf, false)?.value, exact(game, root, false));
      assert(settled.size <= tree.units.length);
      if (settled.size < tree.units.length) fewer++;
    }),
    { numRuns: 60 },
  );
  assert(fewer > 0, "a win decided some parent early in at least one game");
});
