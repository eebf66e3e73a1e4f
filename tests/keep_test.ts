/**
 * What strategies keep between searches belongs to a game (`core/search/keep.ts`, issue
 * 61): two games opened separately keep apart (the second one's first search is as cold
 * as the first one's), and one game reuses what it keeps from search to search (its
 * second search of a position costs fewer nodes, or uses the same table). A guarded game
 * reaches the keep of the game it wraps.
 */
import {
  assert,
  assertEquals,
  assertNotStrictEquals,
  assertStrictEquals,
} from "../testing/deps.ts";
import { Effect } from "../core/deps.ts";
import type { Game } from "../core/game.ts";
import { guardGame } from "../core/guard.ts";
import { Keep, keepOf, slot } from "../core/search/keep.ts";
import type { SearchResult } from "../core/search/types.ts";
import { EXACT } from "../core/search/tt.ts";
import { openGame } from "../app/games.ts";
import { solvePosition } from "../plugins/domineering/mod.ts";
import type { DomineeringGame } from "../plugins/domineering/board.ts";
import { solveKalah } from "../plugins/kalah/solve.ts";
import { pentagoEngine } from "../plugins/pentago/engine.ts";
import { pentagoGame } from "../plugins/pentago/mod.ts";
import { fastExpectimax } from "../plugins/game2048/expectimax.ts";
import { createGame, SLIDER_TURN } from "../plugins/game2048/rules.ts";
import { snake, START } from "./tools/game2048_endgames.ts";

const open = async (id: string, options: Record<string, unknown>): Promise<Game<unknown>> =>
  (await Effect.runPromise(openGame(id, options))).game;

/**
 * Searches `search` on game A twice and on game B (opened alike) once: A's second search
 * is warm (fewer nodes), B's first is as cold as A's first (the same nodes).
 */
const perGame = (
  a: Game<unknown>,
  b: Game<unknown>,
  search: (g: Game<unknown>) => SearchResult,
): void => {
  assertNotStrictEquals(keepOf(a), undefined);
  assertNotStrictEquals(keepOf(a), keepOf(b));
  const first = search(a), again = search(a), other = search(b);
  assertEquals([again.value, other.value], [first.value, first.value]);
  assert(again.nodes * 2 < first.nodes, `reused: ${again.nodes} of ${first.nodes} nodes`);
  assertEquals(other.nodes, first.nodes, "the other game starts cold");
};

Deno.test("a keep makes a value once per slot, again when it no longer fits", () => {
  const n = slot<{ size: number }>("n"), other = slot<{ size: number }>("n");
  const keep = new Keep();
  const a = keep.get(n, () => ({ size: 1 }));
  assertStrictEquals(keep.get(n, () => ({ size: 2 })), a);
  assertNotStrictEquals(keep.get(other, () => ({ size: 1 })), a, "slots are distinct keys");
  const b = keep.get(n, () => ({ size: 2 }), (k) => k.size === 2);
  assertEquals(b.size, 2);
  assertStrictEquals(keep.get(n, () => ({ size: 3 })), b, "the new one replaced it");
  assertStrictEquals(keepOf({}), undefined);
  assertStrictEquals(keepOf({ keep: {} }), undefined);
});

Deno.test("Domineering's solver is kept per game", async () => {
  perGame(
    await open("domineering", { board: "5x5" }),
    await open("domineering", { board: "5x5" }),
    (g) =>
      solvePosition(g as unknown as DomineeringGame, g.initial() as never, {
        params: { line: 0, bits: 16 },
      }),
  );
});

Deno.test("Kalah's solver is kept per game", async () => {
  const extras = { ttMb: 8, spotDbPositions: 20_000 };
  perGame(
    await open("kalah", { pits: 4, stones: 3 }),
    await open("kalah", { pits: 4, stones: 3 }),
    (g) => solveKalah(g, g.initial(), {}, extras),
  );
});

Deno.test("2048's endgame solver is kept per game", () => {
  const state = [...snake(16384, START), SLIDER_TURN, 0];
  perGame(
    createGame(4, 4, "monotone") as Game<unknown>,
    createGame(4, 4, "monotone") as Game<unknown>,
    (g) => fastExpectimax(g as never, state, { depth: 3, params: { endgame: 8 } }),
  );
});

Deno.test("Pentago's own table (tt: false) is kept per game, emptied for each search", async () => {
  const a = await open("pentago", {}), b = await open("pentago", {});
  const tableOf = (g: Game<unknown>) => pentagoEngine({ tt: false }, 0, { keep: keepOf(g) }).tt!;
  const first = tableOf(a);
  first.store(12345, 1, EXACT, 0, 3);
  assert(first.probe(12345));
  const again = tableOf(a);
  assertStrictEquals(again, first, "the same table for the same game");
  assert(!again.probe(12345), "emptied for the search");
  assertNotStrictEquals(tableOf(b), first, "another game has its own");
  // Without a keep, a table of the engine's own.
  assertNotStrictEquals(pentagoEngine({ tt: false }).tt, first);
  assertNotStrictEquals(keepOf(pentagoGame()), keepOf(pentagoGame()));
});

Deno.test("a guarded game reaches the keep of the game it wraps", async () => {
  const game = await open("kalah", { pits: 4, stones: 3 });
  assertStrictEquals(keepOf(guardGame(game, "kalah")), keepOf(game));
  const extras = { ttMb: 8, spotDbPositions: 20_000 };
  const first = solveKalah(game, game.initial(), {}, extras);
  const guarded = solveKalah(guardGame(game, "kalah"), game.initial(), {}, extras);
  assert(guarded.nodes * 2 < first.nodes, `${guarded.nodes} of ${first.nodes}`);
});
