/**
 * The conformance suite: generic checks that every game plugin, built-in or a user's,
 * must pass (in the manner of OpenSpiel's basic tests). Register a plugin with one line
 * in `tests/conformance_test.ts`.
 *
 * Checked over seeded random playouts: the plugin's shape and options; whose turn it is;
 * moves distinct non-negative integers; notation that round-trips through `parseMove`;
 * chance probabilities that sum to 1; `play` leaves its input untouched; keys equal for
 * equal positions; states that survive a structured clone (parallel search sends them to
 * workers); values finite (or decisive); `outcome` defined exactly at the end;
 * transcripts that serialize and replay to the same final state; same seed, same game;
 * and alpha-beta agreeing with minimax at small depths.
 *
 * For a person: the plugin states its rules (`rules`: non-empty, lines at most
 * `RULES_WIDTH` wide); its `strengths`, if any, are player specs of its strategies;
 * `render` with a view (the last move marked, with or without colour) gives text, and
 * no escape codes without colour; `describeMove` and `movesHelp`, where given, answer
 * with text on every position of the playouts.
 *
 * For a web page, a game with a `picture` (`core/picture.ts`): on every position of
 * seeded random playouts `pictureProblems` finds nothing (one well-formed `<svg>` with a
 * `viewBox`, no scripts, handlers or outside references; every legal move entered by at
 * least one pick sequence whose first token is on the picture or a key; no sequence
 * shared by two moves or the start of another move's; `refuse` answers a sequence that
 * makes no move with a reason or `undefined`).
 *
 * @module
 */
import { assert, assertEquals, fc } from "../testing/deps.ts";
import { Effect, Result } from "../core/deps.ts";
import { CHANCE, type Game, type RenderOptions, WIN } from "../core/game.ts";
import { KEY_PREFIX } from "../core/picture.ts";
import { type GamePlugin, makeGame, optionHelp, validatePlugin } from "../core/plugin.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { parseSpec } from "../app/players/spec.ts";
import { replay, runGame } from "../app/match.ts";
import { randomAgent } from "../app/players/agents.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";

/** How to check one plugin. */
export interface ConformanceCase {
  /** A label for the test names. */
  readonly label: string;
  /** Loads the plugin module. */
  readonly load: () => Promise<unknown>;
  /** Options to build the game with (default: the plugin's defaults). */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Number of random playouts (default 20). */
  readonly playouts?: number;
  /** Maximum plies per playout (default 400). */
  readonly maxPlies?: number;
  /** Depth for the alpha-beta = minimax check (default 3; 0 skips it). */
  readonly searchDepth?: number;
  /** Random playouts whose every position checks the picture, if any (default 5). */
  readonly picturePlayouts?: number;
}

/** The widest line a plugin's `rules` may have (a terminal's 80 columns, less a margin). */
export const RULES_WIDTH = 78;

const loadPlugin = async (c: ConformanceCase): Promise<GamePlugin<unknown, unknown>> => {
  const mod = await c.load();
  const plugin = validatePlugin(mod, c.label);
  assert(Result.isSuccess(plugin), Result.isFailure(plugin) ? plugin.failure.message : "");
  return plugin.success;
};

const build = async (c: ConformanceCase): Promise<Game<unknown>> => {
  const plugin = await loadPlugin(c);
  optionHelp(plugin); // must not throw
  return Effect.runSync(makeGame(plugin, c.options ?? {})).game;
};

/**
 * The problems with what a plugin tells a person before the game: its `rules` (a
 * non-empty string, no line wider than `RULES_WIDTH`) and its `strengths` (each a
 * player spec of the built-in strategies and the plugin's own). Empty when all is well.
 */
export const presentationProblems = (plugin: GamePlugin<unknown, unknown>): string[] => {
  const problems: string[] = [];
  const rules: unknown = plugin.rules;
  if (typeof rules !== "string" || rules.trim() === "") {
    problems.push(
      "the plugin must state its rules and move notation for a person: " +
        'definePlugin({ ..., rules: "..." })',
    );
  } else {
    rules.split("\n").forEach((line, i) => {
      if (line.length > RULES_WIDTH) {
        problems.push(`rules line ${i + 1} is ${line.length} wide; at most ${RULES_WIDTH}`);
      }
    });
  }
  const strategies = { ...allStrategies, ...plugin.strategies };
  for (const [name, spec] of Object.entries(plugin.strengths ?? {})) {
    const parsed = parseSpec(spec, strategies);
    if (Result.isFailure(parsed)) problems.push(`strength ${name}: ${parsed.failure}`);
    else if (parsed.success.kind !== "search") {
      problems.push(`strength ${name} is '${spec}': an AI strength must be a search`);
    }
  }
  return problems;
};

/** Checks what a person sees of the move `m` from `before` to `after`; throws when wrong. */
const checkPresentation = <S>(game: Game<S>, before: S, m: number, after: S): void => {
  const by = game.toMove(before);
  const plain = game.render(after, { last: { move: m, by }, color: false });
  assert(typeof plain === "string" && plain.length > 0, "render with a view must give text");
  assert(!plain.includes("\x1b"), `render without colour must not use escape codes: ${plain}`);
  const colored = game.render(after, { last: { move: m, by }, color: true });
  assert(typeof colored === "string" && colored.length > 0, "render in colour must give text");
  if (game.describeMove !== undefined) {
    const said = game.describeMove(before, m, after);
    assert(said === undefined || typeof said === "string", `describeMove gave ${String(said)}`);
  }
};

/** Checks one state's invariants; returns its moves. */
const checkState = <S>(game: Game<S>, s: S): readonly number[] => {
  const tm = game.toMove(s);
  assert(tm === 0 || tm === 1 || tm === CHANCE, `toMove returned ${String(tm)}`);
  const before = JSON.stringify(s);
  const rendered = game.render(s);
  assert(typeof rendered === "string" && rendered.length > 0, "render must give text");
  const v = game.value(s);
  assert(Number.isFinite(v) || Math.abs(v) === Infinity, `value ${v} is not a number`);
  if (tm === CHANCE) {
    const cs = game.chances(s);
    assert(cs.length > 0, "a chance node must have outcomes");
    const total = cs.reduce((a, c) => a + c.p, 0);
    assert(Math.abs(total - 1) < 1e-9, `chance probabilities sum to ${total}`);
    assertEquals(new Set(cs.map((c) => c.move)).size, cs.length, "chance moves must be distinct");
    for (const c of cs) assert(Number.isInteger(c.move) && c.move >= 0 && c.p > 0);
    assertEquals(game.outcome(s), undefined, "a chance node is not the end");
    return cs.map((c) => c.move);
  }
  const ms = game.moves(s);
  assertEquals(new Set(ms).size, ms.length, "moves must be distinct");
  for (const m of ms) {
    assert(Number.isInteger(m) && m >= 0, `move ${m} must be a non-negative integer`);
    const text = game.formatMove(s, m);
    const back = game.parseMove(s, text);
    assert(
      Result.isSuccess(back) && back.success === m,
      `move ${m} written '${text}' parses back as ${JSON.stringify(back)}`,
    );
  }
  if (game.movesHelp !== undefined && ms.length > 0) {
    const help = game.movesHelp(s);
    assert(typeof help === "string" && help.trim() !== "", "movesHelp must give text");
  }
  const bad = game.parseMove(s, "#not a move#");
  assert(Result.isFailure(bad) && bad.failure.length > 0, "nonsense must not parse");
  const o = game.outcome(s);
  if (ms.length === 0) {
    assert(o !== undefined, "a finished game must have an outcome");
    assert(o.winner === null || o.winner === 0 || o.winner === 1);
    if (o.winner === 0) assert(game.value(s) > 0 || Math.abs(game.value(s)) < WIN);
  } else assertEquals(o, undefined, "outcome must be undefined while the game goes on");
  assertEquals(JSON.stringify(s), before, "inspecting a state must not change it");
  return ms;
};

/**
 * Why `xml` is not one well-formed element (balanced tags, quoted attributes, known
 * entities, nothing after the root but white space), or `undefined` when it is.
 */
export const xmlProblem = (xml: string): string | undefined => {
  const stack: string[] = [];
  let closed = false;
  const re =
    /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of xml.matchAll(re)) {
    const [, close, name, , self, body, stray] = m;
    if (stray !== undefined) {
      return `a stray '<' at ${m.index}: ${xml.slice(m.index, m.index + 30)}`;
    }
    if (body !== undefined) {
      if (/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;|#x[0-9a-f]+;)/i.test(body)) {
        return `an unknown entity in ${body.slice(0, 30)}`;
      }
      if (closed && body.trim() !== "") return "text after the root element";
      continue;
    }
    if (closed) return `<${name}> after the root element`;
    if (/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;|#x[0-9a-f]+;)/i.test(m[3] ?? "")) {
      return `an unknown entity in an attribute of <${name}>`;
    }
    if (close) {
      const open = stack.pop();
      if (open !== name) return `</${name}> closes <${open}>`;
    } else if (!self) stack.push(name);
    if (stack.length === 0) closed = true;
  }
  if (stack.length > 0) return `unclosed <${stack.join("> <")}>`;
  return closed ? undefined : "no element";
};

/** The `data-pick` tokens of a picture, unescaped, in order of appearance. */
export const pickTokens = (svg: string): string[] =>
  [...svg.matchAll(/\sdata-pick\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((m) =>
    (m[1] ?? m[2]).replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&apos;/g, "'")
      .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
  );

/** The most tokens a pick sequence may have, and the longest token (the server's limits). */
export const MAX_PICKS = 8, MAX_TOKEN = 64;

const SEP = "\u0000";

/**
 * The problems of a game's picture (`Game.picture`) in position `s` drawn with `view`:
 * `svg` is one well-formed `<svg>` element with a `viewBox`, without scripts, event
 * handlers or references outside itself; at a player's node every legal move has a pick
 * sequence, each of 1 to `MAX_PICKS` non-empty tokens of at most `MAX_TOKEN` characters,
 * whose first token is a key (`key:...`) or a `data-pick` of the picture; no sequence
 * enters two moves, nor is the start of another move's; and `refuse` answers sequences
 * that make no move (tokens of the picture that start nothing, a known start followed
 * by a token that does not continue it, unknown tokens) with a reason or `undefined`.
 * Empty when all is well (and for a game without a picture).
 */
export const pictureProblems = <S>(game: Game<S>, s: S, view?: RenderOptions): string[] => {
  const picture = game.picture;
  if (picture === undefined) return [];
  const problems: string[] = [];
  const svg: unknown = picture.svg(s, view);
  if (typeof svg !== "string") return [`picture.svg gave ${typeof svg}, not text`];
  if (!svg.startsWith("<svg")) problems.push("picture.svg must start with <svg");
  const root = /^<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  if (!/\sviewBox\s*=\s*(?:"[^"]+"|'[^']+')/.test(root)) {
    problems.push("the <svg> element needs a viewBox");
  }
  if (!/\sxmlns\s*=\s*["']http:\/\/www\.w3\.org\/2000\/svg["']/.test(root)) {
    problems.push('the <svg> element needs xmlns="http://www.w3.org/2000/svg"');
  }
  const xml = xmlProblem(svg);
  if (xml !== undefined) problems.push(`picture.svg is not well-formed: ${xml}`);
  if (/<script/i.test(svg)) problems.push("picture.svg must not hold a <script>");
  if (/<foreignObject/i.test(svg)) problems.push("picture.svg must not hold a <foreignObject>");
  if (/\son[a-z]+\s*=/i.test(svg)) problems.push("picture.svg must not set event handlers");
  if (/\s(?:xlink:)?href\s*=\s*"(?!#)|url\(\s*['"]?(?!#)/i.test(svg)) {
    problems.push("picture.svg must not refer to anything outside itself");
  }
  const tokens = new Set(pickTokens(svg));
  if (game.toMove(s) === CHANCE) return problems;
  const whole = new Map<string, number>(); // a sequence -> its move
  const starts = new Map<string, Set<number>>(); // a proper start of a sequence -> moves
  for (const m of game.moves(s)) {
    const name = `move ${game.formatMove(s, m)}`;
    const sequences: unknown = picture.picks(s, m);
    if (!Array.isArray(sequences) || sequences.length === 0) {
      problems.push(`${name} has no pick sequence`);
      continue;
    }
    for (const seq of sequences as unknown[]) {
      if (
        !Array.isArray(seq) || seq.length === 0 || seq.length > MAX_PICKS ||
        !seq.every((x) => typeof x === "string" && x !== "" && x.length <= MAX_TOKEN)
      ) {
        problems.push(
          `${name}: a sequence must be 1-${MAX_PICKS} tokens of 1-${MAX_TOKEN} characters, ` +
            `got ${JSON.stringify(seq)}`,
        );
        continue;
      }
      const first = seq[0] as string;
      if (!first.startsWith(KEY_PREFIX) && !tokens.has(first)) {
        problems.push(`${name}: its first pick '${first}' is not a data-pick of the picture`);
      }
      const key = seq.join(SEP);
      const other = whole.get(key);
      if (other !== undefined && other !== m) {
        problems.push(
          `${name} and move ${game.formatMove(s, other)} share the sequence ${seq.join(" ")}`,
        );
      }
      whole.set(key, m);
      for (let i = 1; i < seq.length; i++) {
        const start = seq.slice(0, i).join(SEP);
        const moves = starts.get(start) ?? new Set<number>();
        moves.add(m);
        starts.set(start, moves);
      }
    }
  }
  for (const [key, m] of whole) {
    const longer = [...starts.get(key) ?? []].filter((x) => x !== m);
    if (longer.length > 0) {
      problems.push(
        `move ${game.formatMove(s, m)}'s sequence ${key.split(SEP).join(" ")} is the start ` +
          `of move ${game.formatMove(s, longer[0])}'s`,
      );
    }
  }
  if (picture.refuse !== undefined) {
    const makesNothing = (seq: readonly string[]) => {
      const key = seq.join(SEP);
      return !whole.has(key) && !starts.has(key);
    };
    const probes: string[][] = [["#no such token#"], [`${KEY_PREFIX}NoSuchKey`]];
    for (const t of tokens) if (makesNothing([t])) probes.push([t]);
    // A known start followed by a token that does not continue it (a few per start).
    for (const key of [...starts.keys()].slice(0, 20)) {
      const start = key.split(SEP);
      let n = 0;
      for (const t of tokens) {
        if (n >= 3) break;
        if (makesNothing([...start, t])) (probes.push([...start, t]), n++);
      }
    }
    for (const probe of probes) {
      const why: unknown = picture.refuse(s, probe);
      if (why !== undefined && (typeof why !== "string" || why.trim() === "")) {
        problems.push(
          `refuse(${probe.join(" ")}) must be a reason or undefined, got ${JSON.stringify(why)}`,
        );
      }
    }
  }
  return problems;
};

/** Registers the conformance tests of one plugin. */
export const conformance = (c: ConformanceCase): void => {
  const playouts = c.playouts ?? 20;
  const maxPlies = c.maxPlies ?? 400;

  Deno.test(`conformance ${c.label}: random playouts keep the protocol's invariants`, async () => {
    const game = await build(c);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const rng = makeRng(seed);
        let s = game.initial();
        const path: number[] = [];
        for (let ply = 0; ply < maxPlies; ply++) {
          const ms = checkState(game, s);
          if (ms.length === 0) break;
          const m = ms[rng.int(ms.length)];
          const before = JSON.stringify(s);
          const next = game.play(s, m);
          assertEquals(JSON.stringify(s), before, "play must not change its input");
          checkPresentation(game, s, m, next);
          // States are plain data: a structured clone (as sent to a worker) plays the same.
          assertEquals(
            JSON.stringify(game.play(structuredClone(s), m)),
            JSON.stringify(next),
            "a structured clone of the state must play like the state",
          );
          if (game.key) {
            // The same position reached again has the same key.
            let again = game.initial();
            for (const x of [...path, m]) again = game.play(again, x);
            assertEquals(game.key(again), game.key(next), "equal positions need equal keys");
          }
          path.push(m);
          s = next;
        }
      }),
      { numRuns: playouts },
    );
  });

  Deno.test(`conformance ${c.label}: the picture draws every position and enters every move`, async () => {
    const game = await build(c);
    if (game.picture === undefined) return;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const rng = makeRng(seed);
        let s = game.initial();
        let view: RenderOptions | undefined;
        for (let ply = 0; ply <= maxPlies; ply++) {
          assertEquals(pictureProblems(game, s, view), [], `after ${ply} plies`);
          const tm = game.toMove(s);
          const ms = tm === CHANCE ? game.chances(s).map((x) => x.move) : game.moves(s);
          if (ms.length === 0) break;
          const m = ms[rng.int(ms.length)];
          view = { last: { move: m, by: tm } };
          s = game.play(s, m);
        }
      }),
      { numRuns: c.picturePlayouts ?? 5 },
    );
  });

  Deno.test(`conformance ${c.label}: the plugin states its rules and strengths`, async () => {
    assertEquals(presentationProblems(await loadPlugin(c)), []);
  });

  Deno.test(`conformance ${c.label}: transcripts replay and seeds repeat`, async () => {
    const game = await build(c);
    for (const seed of [1, 2, 3]) {
      const run = () =>
        Effect.runSync(
          runGame(game, [randomAgent(), randomAgent()], { seed, maxPlies, options: c.options }),
        );
      const a = run();
      const b = run();
      assert(
        a.transcript.result.reason === "end" || a.transcript.result.reason === "move limit",
        `random players must finish the game, got ${JSON.stringify(a.transcript.result)}`,
      );
      // Everything but the thinking times repeats.
      const untimed = (t: typeof a.transcript) => ({
        ...t,
        moves: t.moves.map(({ ms: _ms, ...m }) => m),
      });
      assertEquals(untimed(a.transcript), untimed(b.transcript), "the same seed, the same game");
      const json = JSON.parse(JSON.stringify(a.transcript));
      assertEquals(json, a.transcript, "a transcript must survive JSON");
      assertEquals(JSON.stringify(replay(game, json)), JSON.stringify(a.final));
    }
  });

  if ((c.searchDepth ?? 3) > 0) {
    Deno.test(`conformance ${c.label}: alpha-beta agrees with minimax`, async () => {
      const game = await build(c);
      const depth = c.searchDepth ?? 3;
      const rng = makeRng(42);
      for (let k = 0; k < 12; k++) {
        let s = game.initial();
        const plies = rng.int(12);
        for (let i = 0; i < plies; i++) {
          const ms = game.toMove(s) === CHANCE ? game.chances(s).map((x) => x.move) : game.moves(s);
          if (ms.length === 0) break;
          s = game.play(s, ms[rng.int(ms.length)]);
        }
        const mm = minimaxSearch(game, s, { depth });
        const ab = alphabetaSearch(game, s, { depth });
        assertEquals(ab.value, mm.value, `depth ${depth} values differ after ${plies} plies`);
        if (game.toMove(s) !== CHANCE && game.moves(s).length > 0) {
          assert(game.moves(s).includes(ab.move!), "alpha-beta must return a legal move");
        }
      }
    });
  }
};
