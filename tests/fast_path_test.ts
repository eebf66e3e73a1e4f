// The fast path (`Game.fast`): alpha-beta on a plugin's cursor gives the plain path's
// results node for node; the conformance suite and the guard check the cursor.
import { assert, assertEquals } from "jsr:@std/assert@1";
import { Effect } from "../core/deps.ts";
import type { FastGame, Game } from "../core/game.ts";
import { makeGame } from "../core/plugin.ts";
import { guardGame } from "../core/guard.ts";
import { PluginFault } from "../core/errors.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { checkPlugin, formatReport } from "../app/conformance.ts";
import * as connect4 from "./fixtures/connect4_fast.ts";

type State = readonly number[];
const make = (options: Record<string, unknown>): Game<State> =>
  Effect.runSync(makeGame(connect4.default, options)).game as Game<State>;

Deno.test("connect four: the fast path searches as the plain path, node for node", () => {
  const fast = make({}), plain = make({ fast: false });
  assert(fast.fast !== undefined && plain.fast === undefined);
  let s = fast.initial();
  for (const [i, m] of [3, 3, 2, 4, 2, 2, 5].entries()) {
    for (const options of [{ depth: 7 }, { depth: 6, tt: false as const }]) {
      const a = alphabetaSearch(fast, s, options), b = alphabetaSearch(plain, s, options);
      assertEquals(
        [a.value, a.move, a.pv, a.nodes],
        [b.value, b.move, b.pv, b.nodes],
        `ply ${i}`,
      );
      assert(a.nodes > 1000);
    }
    s = fast.play(s, m);
  }
  // Guarded (as a user's plugin runs in its thread), the same again.
  const guarded = guardGame(fast, "connect4_fast");
  const a = alphabetaSearch(guarded, s, { depth: 8 }), b = alphabetaSearch(plain, s, { depth: 8 });
  assertEquals([a.value, a.move, a.nodes], [b.value, b.move, b.nodes]);
});

Deno.test("conformance: a fast path that agrees passes, one that does not is named", () => {
  const ok = checkPlugin(connect4, "connect4_fast", { playouts: 4 });
  assert(ok.ok, formatReport(ok));
  const faults: [string, (c: FastGame<State>) => Partial<FastGame<State>>][] = [
    ["fast.key", (c) => ({ key: () => c.key() + 1 })],
    ["fast.value", (c) => ({ value: () => c.value() + 0.5 })],
    // An undo that forgets the last move: found when the moves are taken back.
    ["fast.moves", (c) => {
      let skip = 0;
      return {
        play: (m) => (skip++ % 7 === 6 ? undefined : c.play(m)),
        undo: () => (skip % 7 === 0 ? undefined : c.undo()),
      };
    }],
  ];
  for (const [fn, change] of faults) {
    const broken = {
      default: {
        ...connect4.default,
        create: (o: never) => {
          const g = connect4.default.create(o) as Game<State>;
          return {
            ...g,
            fast: () => {
              const c = g.fast!();
              return Object.assign(Object.create(c), change(c));
            },
          };
        },
      },
    };
    const report = checkPlugin(broken, "broken", { playouts: 4 });
    assert(!report.ok, fn);
    const text = formatReport(report);
    assert(text.includes(`broken: ${fn}`) || text.includes("fast"), `${fn}: ${text}`);
  }
});

Deno.test("guard: a cursor's exception is a PluginFault naming fast.play", () => {
  const g = make({});
  const guarded = guardGame({
    ...g,
    fast: () => ({
      ...g.fast!(),
      play: () => {
        throw new Error("boom");
      },
    }),
  }, "mine");
  const c = guarded.fast!();
  c.reset(g.initial());
  try {
    c.play(3);
    throw new Error("no fault");
  } catch (e) {
    assert(e instanceof PluginFault && e.fn === "fast.play", String(e));
  }
  // A count of moves beyond maxMoves is a wrong answer.
  const lying = guardGame({ ...g, fast: () => ({ ...g.fast!(), moves: () => 99 }) }, "mine");
  try {
    lying.fast!().moves(new Int32Array(99), 0);
    throw new Error("no fault");
  } catch (e) {
    assert(e instanceof PluginFault && e.fn === "fast.moves", String(e));
  }
});

Deno.test("kalah: the built-in fast path searches as the plain path, node for node", async () => {
  const kalah = (await import("../plugins/kalah/mod.ts")).default;
  for (const options of [{}, { pits: 4, stones: 3, capture: "always" }]) {
    const fast = Effect.runSync(makeGame(kalah, options)).game as Game<State>;
    const plain: Game<State> = Object.create(fast, { fast: { value: undefined } });
    assert(fast.fast !== undefined);
    let s = fast.initial();
    for (let ply = 0; ply < 6 && fast.moves(s).length > 0; ply++) {
      for (
        const o of [{ depth: 9 }, { depth: 7, tt: false as const }, { depth: 8, distance: true }]
      ) {
        const a = alphabetaSearch(fast, s, o), b = alphabetaSearch(plain, s, o);
        assertEquals([a.value, a.move, a.pv, a.nodes], [b.value, b.move, b.pv, b.nodes]);
      }
      s = fast.play(s, fast.moves(s)[ply % fast.moves(s).length]);
    }
  }
});
