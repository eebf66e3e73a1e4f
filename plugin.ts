/**
 * ply for plugin authors: what a game plugin is made of and checked with.
 *
 * A plugin module's default export is `definePlugin({ id, name, description, rules,
 * options, create })`: `options` is an Effect Schema struct whose fields all have
 * decoding defaults and descriptions (help texts, menus and error messages come from
 * it), and `create(options)` returns the `Game`, pure functions over immutable plain-data
 * states. Import Effect as `npm:effect@4.1.0`, the version ply is built on: a Schema of
 * another version is not recognized as one.
 *
 * The protocol's conventions: player 0 maximizes `value`, always from player 0's view;
 * `moves(s)` is empty exactly when the game is over, and `outcome(s)` then gives the
 * winner and the margin; a decided position is worth exactly `+WIN` (player 0 won) or
 * `-WIN`, a win seen `n` plies ahead `±(WIN - n)`, never beyond `±WIN`, and heuristic
 * values stay within `±WIN_THRESHOLD` (searches subtract the distance, and the
 * programs read `WIN - |value|` as the plies to the end; the margin is `outcome`'s).
 * `key(s)` (`hashInts` of the state, side to move included) enables transposition
 * tables.
 *
 * The kits: `el`, `svgDocument`, `overlay` and `withPicture` draw a web picture
 * (`Game.picture`, pick tokens `data-pick`, keys `KEY_PREFIX`; `runsOf` finds the
 * winning lines a picture's `decisive` names); `paintSpans` and
 * `bracket` mark the last move on a terminal board. `checkPlugin` runs the conformance
 * suite (as `deno task check-plugin FILE` does) and reports the problems as data.
 *
 * @example A complete game: one heap, take 1 or 2 stones, the last to take wins
 * ```ts
 * import { Result, Schema } from "npm:effect@4.1.0";
 * import { checkPlugin, definePlugin, formatReport, type Game, hashInts, WIN } from "./plugin.ts";
 *
 * type State = readonly [stones: number, toMove: 0 | 1];
 * const game: Game<State> = {
 *   id: "take",
 *   players: ["first", "second"],
 *   initial: () => [7, 0],
 *   toMove: ([, p]) => p,
 *   moves: ([n]) => [1, 2].filter((m) => m <= n),
 *   chances: () => [],
 *   play: ([n, p], m) => [n - m, p === 0 ? 1 : 0],
 *   outcome: ([n, p]) => (n > 0 ? undefined : { winner: p === 0 ? 1 : 0, margin: 0 }),
 *   value: ([n, p]) => (n > 0 ? 0 : p === 0 ? -WIN : WIN),
 *   render: ([n]) => `${"|".repeat(n)}\n`,
 *   formatMove: (_s, m) => String(m),
 *   parseMove: ([n], text) =>
 *     text === "1" || (text === "2" && n >= 2) ? Result.succeed(Number(text)) : Result.fail("1 or 2"),
 *   key: (s) => hashInts(s),
 * };
 * const take = definePlugin({
 *   id: "take",
 *   name: "Take",
 *   description: "take 1 or 2; the last to take wins",
 *   rules: "Take 1 or 2 stones in turn; whoever takes the last stone wins.",
 *   options: Schema.Struct({}),
 *   create: () => game,
 * });
 * const report = checkPlugin({ default: take }, "take");
 * if (!report.ok) throw new Error(formatReport(report));
 * ```
 *
 * @example A web picture: cells to point at, and a mark over them
 * ```ts
 * import { el, overlay, svgDocument, text } from "./plugin.ts";
 *
 * const svg = svgDocument(
 *   20,
 *   10,
 *   el("rect", { x: 0, y: 0, width: 10, height: 10, fill: "#eee", "data-pick": "a" }) +
 *     el("rect", { x: 10, y: 0, width: 10, height: 10, fill: "#ddd", "data-pick": "b" }) +
 *     overlay(text(5, 5, "X")),
 * );
 * console.log(svg.startsWith("<svg")); // true
 * ```
 *
 * @example The last move marked on a terminal board, with and without colour
 * ```ts
 * import { bracket, paintSpans, PLAYER_STYLES } from "./plugin.ts";
 *
 * const line = " X . O";
 * console.log(paintSpans(line, [{ at: 1, length: 1, sgr: PLAYER_STYLES[0] }]));
 * console.log(bracket(line, 1, 1)); // "[X]. O"
 * ```
 *
 * @module
 */

export {
  CHANCE,
  type Chance,
  type FastGame,
  type Game,
  other,
  type Outcome,
  type ParseResult,
  type Picture,
  type Player,
  type RenderOptions,
  type ToMove,
  WIN,
  WIN_THRESHOLD,
} from "./core/game.ts";
export { KEY_PREFIX } from "./core/picture.ts";
export { definePlugin, type GamePlugin } from "./core/plugin.ts";
export { hashInts, hashPrefix } from "./core/hash.ts";
export type { Rng } from "./core/rng.ts";
export type {
  BudgetKind,
  SearchOptions,
  SearchResult,
  SequentialStrategy,
  StrategyInfo,
  StrategyParam,
} from "./core/search/types.ts";
export type { GameSource } from "./core/source.ts";
export { TranspositionTable } from "./core/search/tt.ts";
export { SearchFailed } from "./core/errors.ts";
export {
  type Attrs,
  el,
  esc,
  LAST_COLOUR,
  lastCircle,
  lastRect,
  overlay,
  PLAYER_COLOURS,
  runsOf,
  svgDocument,
  text,
  withPicture,
} from "./plugins/svg.ts";
export {
  bracket,
  lastStyle,
  paintSpans,
  PLAYER_STYLES,
  type Span,
  stripAnsi,
} from "./plugins/view.ts";
export {
  checkPlugin,
  type ConformanceCheck,
  type ConformanceOptions,
  type ConformanceProblem,
  type ConformanceReport,
  formatReport,
} from "./app/conformance.ts";
