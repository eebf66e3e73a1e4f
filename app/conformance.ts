/**
 * The conformance suite: generic checks that every game plugin, built-in or a user's,
 * must pass (in the manner of OpenSpiel's basic tests). `checkPlugin` runs them on a
 * plugin module and reports what it found as data, a list of checks with their problems,
 * each naming the plugin's function at fault; `formatReport` prints it (as `deno task
 * check-plugin FILE` does).
 *
 * Checked over seeded random playouts: the plugin's shape and options; whose turn it is;
 * moves distinct non-negative integers; notation that round-trips through `parseMove`;
 * `orderMoves` returning the same moves; chance probabilities that sum to 1; `play`
 * leaves its input untouched; keys equal for equal positions; states that survive a
 * structured clone (parallel search sends them to workers); values finite, decisive ones
 * read right (`WIN`'s convention: exactly `±WIN` at the end of a decided game, `±(WIN -
 * n)` for a win `n` plies ahead, never beyond); `outcome` defined exactly at the end;
 * transcripts that serialize and replay to the same final state; the same seed, the same
 * game; and alpha-beta agreeing with minimax at small depths.
 *
 * For a person: the plugin states its rules (`rules`: non-empty, lines at most 78
 * wide); its `strengths`, if any, are player specs of its strategies; `render` with a
 * view (the last move marked, with or without colour) gives text, and no escape codes
 * without colour; `describeMove` and `movesHelp`, where given, answer with text on every
 * position of the playouts.
 *
 * For a web page, a game with a `picture` (`core/picture.ts`): on every position of
 * seeded random playouts `pictureProblems` finds nothing (one well-formed `<svg>` with a
 * `viewBox`, no scripts, handlers or outside references; every legal move entered by at
 * least one pick sequence whose first token is on the picture or a key; no sequence
 * shared by two moves or the start of another move's; `refuse` answers a sequence that
 * makes no move with a reason or `undefined`; `decisive`, where given, names tokens of
 * the picture at a finished position).
 *
 * The checks are plain synchronous code: a plugin that never returns from one of its
 * functions hangs them, which is why `deno task check-plugin` runs them in a plugin
 * thread (`conformance_thread.ts`) that it watches through `ConformanceWatch`.
 *
 * @module
 */
import { Effect, Result } from "../core/deps.ts";
import {
  CHANCE,
  type FastGame,
  type Game,
  movesOf,
  type RenderOptions,
  WIN,
  WIN_THRESHOLD,
} from "../core/game.ts";
import { KEY_PREFIX } from "../core/picture.ts";
import { type GamePlugin, makeGame, optionHelp, validatePlugin } from "../core/plugin.ts";
import { guardGame, type GuardSlot } from "../core/guard.ts";
import { PluginFault } from "../core/errors.ts";
import { allStrategies } from "../core/engine/strategies.ts";
import { makeRng } from "../core/rng.ts";
import { alphabetaSearch } from "../core/search/alphabeta.ts";
import { minimaxSearch } from "../core/search/minimax.ts";
import { parseSpec } from "./players/spec.ts";
import { replay, runGame } from "./match.ts";
import { randomAgent } from "./players/agents.ts";

/** How to check a plugin. Every field is optional. */
export interface ConformanceOptions {
  /** The raw options to build the game with (default: the plugin's defaults). */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The number of random playouts (default 20). */
  readonly playouts?: number;
  /** The most plies a playout plays (default 400). */
  readonly maxPlies?: number;
  /** The depth of the alpha-beta = minimax check (default 3; 0 skips it). */
  readonly searchDepth?: number;
  /** The random playouts whose every position checks the picture, if any (default 5). */
  readonly picturePlayouts?: number;
}

/**
 * How an onlooker follows the suite while it runs (check-plugin's main thread, from
 * outside the plugin thread that runs it): which check and step it is at, which of the
 * plugin's functions runs, each check's result as soon as it is known. Every field is
 * optional.
 */
export interface ConformanceWatch {
  /**
   * The guard's slot of the game checked (`core/guard.ts`: the running function and a
   * count of calls); one over shared memory can be read from another thread.
   */
  readonly slot?: GuardSlot;
  /**
   * Called as check `check` (its index in the report) starts, with round 0, and at each
   * step of it: a playout's ply (`round` the playout, from 1), a transcript's game, a
   * search's position (`stepPlace` says it in words).
   */
  readonly step?: (check: number, round: number, ply: number) => void;
  /** Called with each check's result, by its index, as soon as it is known. */
  readonly checked?: (index: number, check: ConformanceCheck) => void;
  /**
   * The indices of the checks to run (default all): the others are neither run nor
   * given to `checked` (their place in the report says "not asked for"). The game is
   * built whether or not check 0, which builds it, is asked for.
   */
  readonly checks?: readonly number[];
}

/** What a check found wrong. */
export interface ConformanceProblem {
  /** The plugin's function at fault (`parseMove`, `picture.svg`, ...), when one is. */
  readonly fn?: string;
  /** What is wrong, and where (which playout, after which moves). */
  readonly message: string;
}

/** One check and what it found. */
export interface ConformanceCheck {
  /** What it checks, in a few words. */
  readonly name: string;
  /** Its problems: none when it passed. */
  readonly problems: readonly ConformanceProblem[];
  /** Why it did not run (the game has no picture; an earlier check failed), if so. */
  readonly skipped?: string;
}

/** The checks of one plugin. */
export interface ConformanceReport {
  /** The plugin as it was named (a path, a URL, an id). */
  readonly plugin: string;
  /** Every check, in order. */
  readonly checks: readonly ConformanceCheck[];
  /** True when no check found a problem. */
  readonly ok: boolean;
}

/** The widest line a plugin's `rules` may have (a terminal's 80 columns, less a margin). */
const RULES_WIDTH = 78;

/** A check's failure: thrown inside a check, caught as its problem. */
class Failed {
  constructor(readonly problem: ConformanceProblem) {}
}

/** Fails the running check: `fn` is the plugin's function at fault. */
const fail = (fn: string | undefined, message: string): never => {
  throw new Failed(fn === undefined ? { message } : { fn, message });
};

/** Fails the running check unless `ok`. */
const ensure = (ok: boolean, fn: string | undefined, message: () => string): void => {
  if (!ok) fail(fn, message());
};

/** A value for a message: `WIN - 3`, `-WIN`, `17`. */
const shown = (v: unknown): string => {
  if (typeof v !== "number" || !Number.isFinite(v) || Math.abs(v) < WIN_THRESHOLD) {
    return String(v);
  }
  const d = Math.abs(v) - WIN;
  return `${v < 0 ? "-" : ""}${d === 0 ? "WIN" : d > 0 ? `(WIN + ${d})` : `(WIN - ${-d})`}`;
};

/** Runs one check: its problems (the first failure), or every problem `run` returns. */
const check = (
  name: string,
  run: () => readonly ConformanceProblem[] | void,
): ConformanceCheck => {
  try {
    return { name, problems: run() ?? [] };
  } catch (e) {
    if (e instanceof Failed) return { name, problems: [e.problem] };
    if (e instanceof PluginFault) {
      const cause = e.cause instanceof Error ? e.cause.message : String(e.cause);
      return { name, problems: [{ fn: e.fn, message: `threw: ${cause.split("\n")[0]}` }] };
    }
    const message = e instanceof Error ? e.message : String(e);
    return { name, problems: [{ message: `threw: ${message.split("\n")[0]}` }] };
  }
};

/**
 * The problems with what a plugin tells a person before the game: its `rules` (a
 * non-empty string, no line wider than 78) and its `strengths` (each a player spec of
 * the built-in strategies and the plugin's own). Empty when all is well.
 *
 * @example
 * ```ts
 * import { presentationProblems } from "./conformance.ts";
 * import nim from "../plugins/nim/mod.ts";
 * if (presentationProblems(nim).length !== 0) throw new Error("nim states its rules");
 * const silent = presentationProblems({ ...nim, rules: undefined });
 * if (!silent[0].includes("rules")) throw new Error(silent.join());
 * ```
 */
export const presentationProblems = <O, S>(plugin: GamePlugin<O, S>): string[] => {
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

/** Checks what a person sees of the move `m` from `before` to `after`. */
const checkPresentation = <S>(game: Game<S>, before: S, m: number, after: S): void => {
  const by = game.toMove(before);
  const plain: unknown = game.render(after, { last: { move: m, by }, color: false });
  ensure(
    typeof plain === "string" && plain.length > 0,
    "render",
    () => `with a view it gave ${JSON.stringify(plain)}, not text`,
  );
  ensure(
    !(plain as string).includes("\x1b"),
    "render",
    () => `without colour it must not use escape codes: ${JSON.stringify(plain)}`,
  );
  const colored: unknown = game.render(after, { last: { move: m, by }, color: true });
  ensure(
    typeof colored === "string" && colored.length > 0,
    "render",
    () => `in colour it gave ${JSON.stringify(colored)}, not text`,
  );
  if (game.describeMove !== undefined) {
    const said: unknown = game.describeMove(before, m, after);
    ensure(
      said === undefined || typeof said === "string",
      "describeMove",
      () => `gave ${String(said)}, not text or undefined`,
    );
  }
};

/** Checks one position's invariants; returns its moves (chance outcomes at chance nodes). */
const checkState = <S>(game: Game<S>, s: S): readonly number[] => {
  const tm = game.toMove(s);
  ensure(
    tm === 0 || tm === 1 || tm === CHANCE,
    "toMove",
    () => `gave ${String(tm)}: a player (0 or 1) or "chance"`,
  );
  const before = JSON.stringify(s);
  const rendered: unknown = game.render(s);
  ensure(
    typeof rendered === "string" && rendered.length > 0,
    "render",
    () => `gave ${JSON.stringify(rendered)}, not text`,
  );
  const v: unknown = game.value(s);
  ensure(
    typeof v === "number" && Number.isFinite(v),
    "value",
    () => `gave ${String(v)}: a value is a finite number`,
  );
  ensure(
    Math.abs(v as number) <= WIN,
    "value",
    () =>
      `gave ${shown(v)}: a decisive value is ±WIN at the end of a decided game and ` +
      "±(WIN - n) for a win or loss n plies ahead, never beyond ±WIN (the distance to the " +
      "end is read as WIN - |value|; a margin belongs in outcome's margin)",
  );
  if (tm === CHANCE) {
    const cs = game.chances(s);
    ensure(cs.length > 0, "chances", () => "a chance node must have outcomes");
    const total = cs.reduce((a, c) => a + c.p, 0);
    ensure(Math.abs(total - 1) < 1e-9, "chances", () => `the probabilities sum to ${total}`);
    ensure(
      new Set(cs.map((c) => c.move)).size === cs.length,
      "chances",
      () => `the outcomes ${cs.map((c) => c.move).join(",")} are not distinct`,
    );
    for (const c of cs) {
      ensure(
        Number.isInteger(c.move) && c.move >= 0 && c.p > 0,
        "chances",
        () => `outcome ${JSON.stringify(c)}: a move is a non-negative integer, p positive`,
      );
    }
    ensure(game.outcome(s) === undefined, "outcome", () => "a chance node is not the end");
    ensure(JSON.stringify(s) === before, undefined, () => "inspecting a state changed it");
    return cs.map((c) => c.move);
  }
  const ms = game.moves(s);
  ensure(new Set(ms).size === ms.length, "moves", () => `the moves ${ms.join(",")} repeat`);
  for (const m of ms) {
    ensure(
      Number.isInteger(m) && m >= 0,
      "moves",
      () => `move ${m} must be a non-negative integer`,
    );
    const text = game.formatMove(s, m);
    ensure(
      typeof text === "string" && text !== "",
      "formatMove",
      () => `move ${m} gave ${JSON.stringify(text)}, not text`,
    );
    const back = game.parseMove(s, text);
    ensure(
      Result.isSuccess(back) && back.success === m,
      "parseMove",
      () =>
        `move ${m} written '${text}' parses back as ` +
        (Result.isSuccess(back) ? `move ${back.success}` : `an error: ${back.failure}`),
    );
  }
  if (game.orderMoves !== undefined && ms.length > 0) {
    const ordered = game.orderMoves(s, ms);
    ensure(
      ordered.length === ms.length && [...ordered].sort().join() === [...ms].sort().join(),
      "orderMoves",
      () => `gave ${ordered.join(",")} for the moves ${ms.join(",")}: the same moves, reordered`,
    );
  }
  if (game.movesHelp !== undefined && ms.length > 0) {
    const help: unknown = game.movesHelp(s);
    ensure(
      typeof help === "string" && help.trim() !== "",
      "movesHelp",
      () => `gave ${JSON.stringify(help)}, not text`,
    );
  }
  const bad = game.parseMove(s, "#not a move#");
  ensure(
    Result.isFailure(bad) && bad.failure.length > 0,
    "parseMove",
    () => "'#not a move#' must not parse; the error says what was expected",
  );
  const o = game.outcome(s);
  if (ms.length === 0) {
    ensure(o !== undefined, "outcome", () => "a finished game (no legal moves) needs an outcome");
    const { winner } = o!;
    ensure(
      winner === null || winner === 0 || winner === 1,
      "outcome",
      () => `the winner is ${String(winner)}: 0, 1 or null`,
    );
    const value = v as number;
    if (Math.abs(value) >= WIN_THRESHOLD) {
      const right = winner === 0 ? WIN : winner === 1 ? -WIN : 0;
      ensure(
        value === right,
        "value",
        () =>
          `at the end it gave ${shown(value)} where ${
            winner === null ? "the game is a draw" : `player ${winner} won`
          }: a decided game's value is exactly ${winner === 1 ? "-WIN" : "WIN"}` +
          (winner === null ? " for a win, never decisive for a draw" : ""),
      );
    }
  } else {
    ensure(
      o === undefined,
      "outcome",
      () => `gave ${JSON.stringify(o)} while the game goes on: undefined until there is no move`,
    );
  }
  ensure(JSON.stringify(s) === before, undefined, () => "inspecting a state changed it");
  return ms;
};

/** Where a playout is: `in playout 3 after 2 plies (d c)`. */
const where = <S>(game: Game<S>, playout: number, path: readonly number[]): string => {
  let s = game.initial();
  const notes: string[] = [];
  for (const m of path) {
    notes.push(game.toMove(s) === CHANCE ? `(${m})` : game.formatMove(s, m));
    s = game.play(s, m);
  }
  const line = notes.length > 30 ? ["...", ...notes.slice(-30)] : notes;
  return `in playout ${playout} after ${path.length} ${path.length === 1 ? "ply" : "plies"}` +
    (path.length > 0 ? ` (${line.join(" ")})` : "");
};

/** Runs `f`, adding where it ran to a failure's message. */
const at = <A>(place: () => string, f: () => A): A => {
  try {
    return f();
  } catch (e) {
    if (e instanceof Failed) {
      throw new Failed({ ...e.problem, message: `${e.problem.message} ${place()}` });
    }
    if (e instanceof PluginFault) {
      const cause = e.cause instanceof Error ? e.cause.message : String(e.cause);
      throw new Failed({ fn: e.fn, message: `threw: ${cause.split("\n")[0]} ${place()}` });
    }
    throw e;
  }
};

/**
 * Why `xml` is not one well-formed element (balanced tags, quoted attributes, known
 * entities, nothing after the root but white space), or `undefined` when it is.
 *
 * @example
 * ```ts
 * import { xmlProblem } from "./conformance.ts";
 * if (xmlProblem("<svg><rect/></svg>") !== undefined) throw new Error();
 * if (xmlProblem("<svg><rect></svg>") === undefined) throw new Error();
 * ```
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

/**
 * The `data-pick` tokens of a picture, unescaped, in order of appearance.
 *
 * @example
 * ```ts
 * import { pickTokens } from "./conformance.ts";
 * const svg = '<svg><rect data-pick="a1"/><rect data-pick="b&amp;2"/></svg>';
 * if (pickTokens(svg).join(" ") !== "a1 b&2") throw new Error();
 * ```
 */
export const pickTokens = (svg: string): string[] =>
  [...svg.matchAll(/\sdata-pick\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((m) =>
    (m[1] ?? m[2]).replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&apos;/g, "'")
      .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
  );

/** The most tokens a pick sequence may have, and the longest token (the server's limits). */
const MAX_PICKS = 8, MAX_TOKEN = 64;

const SEP = "\u0000";

/**
 * The problems of a game's picture (`Game.picture`) in position `s` drawn with `view`:
 * `svg` is one well-formed `<svg>` element with a `viewBox`, without scripts, event
 * handlers or references outside itself; at a player's node every legal move has a pick
 * sequence, each of 1 to 8 non-empty tokens of at most 64 characters, whose first token
 * is a key (`key:...`) or a `data-pick` of the picture; no sequence enters two moves, nor
 * is the start of another move's; and `refuse` answers sequences that make no move
 * (tokens of the picture that start nothing, a known start followed by a token that does
 * not continue it, unknown tokens) with a reason or `undefined`. Empty when all is well
 * (and for a game without a picture).
 *
 * @example
 * ```ts
 * import { pictureProblems } from "./conformance.ts";
 * import tictactoe from "../plugins/tictactoe/mod.ts";
 * const game = tictactoe.create({});
 * if (pictureProblems(game, game.initial()).length !== 0) throw new Error();
 * ```
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
  if (picture.decisive !== undefined && game.moves(s).length === 0) {
    const decided: unknown = picture.decisive(s);
    if (
      !Array.isArray(decided) ||
      decided.some((t) => typeof t !== "string" || !tokens.has(t))
    ) {
      problems.push(
        `decisive must list data-pick tokens of the picture, got ${JSON.stringify(decided)}`,
      );
    }
  }
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

/** The random playouts: each position's invariants, `play`'s purity, clones and keys. */
/**
 * The fast path's cursor on the plain game's position `s` gives the plain answers:
 * whose move, the moves in order (and their order for the search), over, value and key.
 */
const cursorAgrees = <S>(game: Game<S>, cur: FastGame<S>, s: S, buf: Int32Array): void => {
  const plain = game.toMove(s) === CHANCE ? [] : game.moves(s);
  const n = cur.moves(buf, 0);
  const fast = [...buf.subarray(0, n)];
  ensure(
    fast.join() === plain.join(),
    "fast.moves",
    () => `gave moves [${fast}] where moves gives [${plain}]`,
  );
  const over = game.outcome(s) !== undefined;
  ensure(cur.over() === over, "fast.over", () => `said ${!over} where outcome says ${over}`);
  if (plain.length > 0) {
    ensure(
      cur.toMove() === game.toMove(s),
      "fast.toMove",
      () => `said ${cur.toMove()} where toMove says ${shown(game.toMove(s))}`,
    );
  }
  ensure(
    Object.is(cur.value(), game.value(s)),
    "fast.value",
    () => `said ${shown(cur.value())} where value says ${shown(game.value(s))}`,
  );
  if (game.key !== undefined) {
    ensure(
      cur.key() === game.key(s),
      "fast.key",
      () => `said ${shown(cur.key())} where key says ${shown(game.key!(s))}`,
    );
  }
  if (game.orderMoves !== undefined && plain.length > 1) {
    ensure(cur.order !== undefined, "fast.order", () => "is missing: the game has orderMoves");
    cur.order!(buf, 0, n);
    const ordered = game.orderMoves(s, plain);
    ensure(
      [...buf.subarray(0, n)].join() === ordered.join(),
      "fast.order",
      () => `ordered [${[...buf.subarray(0, n)]}] where orderMoves gives [${ordered}]`,
    );
  }
};

/**
 * Random playouts keep the protocol's invariants; a fast path's cursor (`Game.fast`)
 * follows each one, agreeing with the plain game at every position, every move also
 * taken back at once, and the whole playout taken back to its start at its end.
 */
const playoutsCheck = <S>(
  game: Game<S>,
  playouts: number,
  maxPlies: number,
  step: Step,
): void => {
  for (let playout = 1; playout <= playouts; playout++) {
    const rng = makeRng(playout);
    let s = game.initial();
    const path: number[] = [];
    const cur = game.fast?.();
    const buf = new Int32Array(Math.max(1, cur?.maxMoves ?? 1));
    const states: S[] = [s];
    if (cur !== undefined) at(() => where(game, playout, path), () => cur.reset(s));
    for (let ply = 0; ply < maxPlies; ply++) {
      step(playout, ply);
      const place = () => where(game, playout, path);
      const ms = at(place, () => checkState(game, s));
      if (cur !== undefined) at(place, () => cursorAgrees(game, cur, s, buf));
      if (ms.length === 0) break;
      const m = ms[rng.int(ms.length)];
      s = at(place, () => {
        const before = JSON.stringify(s);
        const next = game.play(s, m);
        ensure(JSON.stringify(s) === before, "play", () => "it changed the state it was given");
        checkPresentation(game, s, m, next);
        // States are plain data: a structured clone (as sent to a worker) plays the same.
        ensure(
          JSON.stringify(game.play(structuredClone(s), m)) === JSON.stringify(next),
          "play",
          () => "a structured clone of the state plays differently from the state",
        );
        if (game.key) {
          // The same position reached again has the same key.
          let again = game.initial();
          for (const x of [...path, m]) again = game.play(again, x);
          ensure(
            game.key(again) === game.key(next),
            "key",
            () => "equal positions (the same moves played twice) have different keys",
          );
        }
        if (cur !== undefined) {
          cur.play(m);
          cur.undo();
          cursorAgrees(game, cur, s, buf);
          cur.play(m);
        }
        return next;
      });
      path.push(m);
      states.push(s);
    }
    if (cur !== undefined) {
      for (let k = path.length; k > 0; k--) {
        at(() => `${where(game, playout, path.slice(0, k))}, taking the moves back`, () => {
          cur.undo();
          cursorAgrees(game, cur, states[k - 1], buf);
        });
      }
    }
  }
};

/** Every position of a few random playouts: `pictureProblems` finds nothing. */
const pictureCheck = <S>(
  game: Game<S>,
  playouts: number,
  maxPlies: number,
  step: Step,
): ConformanceProblem[] => {
  for (let playout = 1; playout <= playouts; playout++) {
    const rng = makeRng(1000 + playout);
    let s = game.initial();
    let view: RenderOptions | undefined;
    const path: number[] = [];
    for (let ply = 0; ply <= maxPlies; ply++) {
      step(playout, ply);
      const problems = pictureProblems(game, s, view);
      if (problems.length > 0) {
        const place = where(game, playout, path);
        return problems.map((p) => ({ fn: "picture", message: `${p} ${place}` }));
      }
      const ms = movesOf(game, s);
      if (ms.length === 0) break;
      const m = ms[rng.int(ms.length)];
      view = { last: { move: m, by: game.toMove(s) } };
      s = game.play(s, m);
      path.push(m);
    }
  }
  return [];
};

/** Random players' games: they finish, repeat with their seed, survive JSON and replay. */
const transcriptCheck = <S>(
  game: Game<S>,
  maxPlies: number,
  options: Readonly<Record<string, unknown>> | undefined,
  step: Step,
): void => {
  for (const seed of [1, 2, 3]) {
    step(seed, 0);
    const run = () =>
      Effect.runSync(runGame(game, [randomAgent(), randomAgent()], { seed, maxPlies, options }));
    const a = run();
    const b = run();
    const result = a.transcript.result;
    ensure(
      result.reason === "end" || result.reason === "move limit",
      undefined,
      () =>
        `game ${seed} between random players stopped: ` +
        (result.error ?? `${result.reason} (${JSON.stringify(result)})`),
    );
    // Everything but the thinking times repeats.
    const untimed = (t: typeof a.transcript) =>
      JSON.stringify({ ...t, moves: t.moves.map(({ ms: _ms, ...m }) => m) });
    ensure(
      untimed(a.transcript) === untimed(b.transcript),
      undefined,
      () =>
        `game ${seed} played twice with the same seed went differently: the game must be ` +
        "deterministic (randomness only at chance nodes)",
    );
    const json = JSON.parse(JSON.stringify(a.transcript));
    ensure(
      JSON.stringify(replay(game, json)) === JSON.stringify(a.final),
      "play",
      () => `game ${seed}'s transcript replays to another final state`,
    );
  }
};

/** Alpha-beta (with the game's keys and ordering) and plain minimax give the same values. */
const searchCheck = <S>(game: Game<S>, depth: number, step: Step): void => {
  const rng = makeRng(42);
  for (let k = 0; k < 12; k++) {
    step(k + 1, 0);
    let s = game.initial();
    const path: number[] = [];
    const plies = rng.int(12);
    for (let i = 0; i < plies; i++) {
      const ms = movesOf(game, s);
      if (ms.length === 0) break;
      const m = ms[rng.int(ms.length)];
      s = game.play(s, m);
      path.push(m);
    }
    const mm = minimaxSearch(game, s, { depth });
    const ab = alphabetaSearch(game, s, { depth });
    const place = () => where(game, k + 1, path).replace("playout", "position");
    if (game.fast !== undefined) {
      // The fast path's search is the plain path's, node for node.
      const plain = alphabetaSearch(Object.create(game, { fast: { value: undefined } }), s, {
        depth,
      });
      ensure(
        plain.value === ab.value && plain.move === ab.move && plain.nodes === ab.nodes,
        "fast",
        () =>
          `alpha-beta on the fast path finds ${shown(ab.value)} (move ${ab.move}, ` +
          `${ab.nodes} nodes) and on the plain path ${shown(plain.value)} (move ` +
          `${plain.move}, ${plain.nodes} nodes) ${place()}`,
      );
    }
    ensure(
      ab.value === mm.value,
      undefined,
      () =>
        `at depth ${depth} alpha-beta finds ${shown(ab.value)} and minimax ${shown(mm.value)} ` +
        `${place()}: look at key (equal positions, equal keys; side to move included) and ` +
        "orderMoves",
    );
    if (game.toMove(s) !== CHANCE && game.moves(s).length > 0) {
      ensure(
        game.moves(s).includes(ab.move!),
        undefined,
        () => `alpha-beta returned move ${ab.move}, not a legal one, ${place()}`,
      );
    }
  }
};

/** Where a check is: a playout or game or position (from 1; 0 at its start) and a ply. */
type Step = (round: number, ply: number) => void;

/** The names of the checks, in order. */
const CHECKS = {
  plugin: "the default export is a plugin and its options build a game",
  presentation: "it states its rules, and its strengths are player specs",
  playouts: "random playouts keep the protocol's invariants",
  picture: "the picture draws every position and enters every move",
  transcripts: "transcripts replay and seeds repeat",
  search: "alpha-beta agrees with minimax",
} as const;

/** The checks' indices in a report. */
const PLAYOUTS = 2, PICTURE = 3, TRANSCRIPTS = 4, SEARCH = 5;

/**
 * The names of the checks as `checkPlugin` reports them, in order: as they run with
 * `options` (`20 random playouts ...`, `... at depth 3`), or (`built` false) as they are
 * skipped when the plugin could not be built.
 *
 * @example
 * ```ts
 * import { checkNames } from "./conformance.ts";
 * const names = checkNames({ playouts: 5 });
 * if (names.length !== 6 || !names[2].startsWith("5 random playouts")) throw new Error();
 * ```
 */
export const checkNames = (options: ConformanceOptions = {}, built = true): readonly string[] => {
  if (!built) return Object.values(CHECKS);
  const depth = options.searchDepth ?? 3;
  return [
    CHECKS.plugin,
    CHECKS.presentation,
    `${options.playouts ?? 20} ${CHECKS.playouts}`,
    CHECKS.picture,
    CHECKS.transcripts,
    depth > 0 ? `${CHECKS.search} at depth ${depth}` : CHECKS.search,
  ];
};

/**
 * Where a step of check `check` is, in the words of a problem's message (`in playout 3
 * after 5 plies`, `in game 2`, `in position 4`), from what `ConformanceWatch.step` was
 * last given; empty at a check's start and for the checks without steps.
 *
 * @example
 * ```ts
 * import { stepPlace } from "./conformance.ts";
 * if (stepPlace(2, 3, 1) !== "in playout 3 after 1 ply") throw new Error();
 * if (stepPlace(0, 0, 0) !== "") throw new Error();
 * ```
 */
export const stepPlace = (check: number, round: number, ply: number): string => {
  if (round <= 0) return "";
  if (check === PLAYOUTS || check === PICTURE) {
    return `in playout ${round} after ${ply} ${ply === 1 ? "ply" : "plies"}`;
  }
  if (check === TRANSCRIPTS) return `in game ${round}`;
  if (check === SEARCH) return `in position ${round}`;
  return "";
};

/**
 * Runs the conformance suite on a plugin module (what `import()` of it gave): every
 * check, with its problems as data. `label` names the plugin in the report (its path or
 * id). A check stops at its first problem (the rules and the picture report all of a
 * position's); when the module is not a plugin, or its options build no game, the other
 * checks are skipped. Seeded: the same plugin gives the same report. `watch` lets an
 * onlooker follow it (see `ConformanceWatch`).
 *
 * @example
 * ```ts
 * import { checkPlugin, formatReport } from "./conformance.ts";
 * import * as nim from "../plugins/nim/mod.ts";
 * const report = checkPlugin(nim, "nim", { options: { heaps: [1, 2, 3] } });
 * if (!report.ok) throw new Error(formatReport(report));
 * ```
 */
export const checkPlugin = (
  mod: unknown,
  label: string,
  options: ConformanceOptions = {},
  watch: ConformanceWatch = {},
): ConformanceReport => {
  const playouts = options.playouts ?? 20;
  const maxPlies = options.maxPlies ?? 400;
  const depth = options.searchDepth ?? 3;
  const asked = (i: number) => watch.checks === undefined || watch.checks.includes(i);
  const onStep = watch.step;
  /** The steps of check `i`. */
  const stepOf = (i: number): Step =>
    onStep === undefined ? () => {} : (round, ply) => onStep(i, round, ply);
  const checks: ConformanceCheck[] = [];
  const add = (c: ConformanceCheck) => {
    if (asked(checks.length)) watch.checked?.(checks.length, c);
    checks.push(c);
  };
  let plugin: GamePlugin<unknown, unknown> | undefined;
  let game: Game<unknown> | undefined;
  stepOf(0)(0, 0);
  add(check(CHECKS.plugin, () => {
    const valid = validatePlugin(mod, "the module");
    if (Result.isFailure(valid)) return fail(undefined, valid.failure.message);
    plugin = valid.success;
    optionHelp(plugin); // must not throw
    const made = Effect.runSync(Effect.result(makeGame(plugin, options.options ?? {})));
    if (Result.isFailure(made)) return fail("create", made.failure.message);
    // Guarded: an exception names the function that threw.
    game = guardGame(made.success.game, label, watch.slot);
  }));
  if (plugin === undefined || game === undefined) {
    const skipped = "the plugin could not be built";
    for (const name of checkNames(options, false).slice(1)) add({ name, problems: [], skipped });
  } else {
    const [p, g] = [plugin, game];
    const names = checkNames(options);
    /** Check `i`, run by `run` unless it is not asked for (or `skipped` says why not). */
    const next = (run: (step: Step) => readonly ConformanceProblem[] | void, skipped?: string) => {
      const i = checks.length;
      if (!asked(i)) return add({ name: names[i], problems: [], skipped: "not asked for" });
      if (skipped !== undefined) return add({ name: names[i], problems: [], skipped });
      const step = stepOf(i);
      step(0, 0);
      add(check(names[i], () => run(step)));
    };
    next(() => presentationProblems(p).map((message) => ({ message })));
    next((step) => playoutsCheck(g, playouts, maxPlies, step));
    next(
      (step) => pictureCheck(g, options.picturePlayouts ?? 5, maxPlies, step),
      g.picture === undefined ? "the game has no picture" : undefined,
    );
    next((step) => transcriptCheck(g, maxPlies, options.options, step));
    next((step) => searchCheck(g, depth, step), depth > 0 ? undefined : "the search depth is 0");
  }
  return { plugin: label, checks, ok: checks.every((c) => c.problems.length === 0) };
};

/**
 * A report as text: one line per check (`ok`, `FAIL` or `skip`), each problem under its
 * check naming the plugin and the function, and a summary line.
 *
 * @example
 * ```ts
 * import { formatReport } from "./conformance.ts";
 * const text = formatReport({
 *   plugin: "./mine.ts",
 *   ok: false,
 *   checks: [{ name: "random playouts", problems: [{ fn: "parseMove", message: "..." }] }],
 * });
 * if (!text.includes("./mine.ts: parseMove: ...")) throw new Error(text);
 * ```
 */
export const formatReport = (report: ConformanceReport): string =>
  report.checks.map((c) => formatCheck(report.plugin, c)).join("") + formatSummary(report);

/**
 * One check as text: its line (`ok`, `FAIL` or `skip`), and under it each problem naming
 * the plugin (`label`) and the function at fault.
 *
 * @example
 * ```ts
 * import { formatCheck } from "./conformance.ts";
 * const text = formatCheck("./mine.ts", { name: "random playouts", problems: [] });
 * if (text !== "ok    random playouts\n") throw new Error(text);
 * ```
 */
export const formatCheck = (label: string, c: ConformanceCheck): string => {
  const mark = c.problems.length > 0 ? "FAIL" : c.skipped !== undefined ? "skip" : "ok";
  const lines = [`${mark.padEnd(5)} ${c.name}${c.skipped !== undefined ? ` (${c.skipped})` : ""}`];
  for (const p of c.problems) {
    lines.push(`        ${label}: ${p.fn !== undefined ? `${p.fn}: ` : ""}${p.message}`);
  }
  return lines.join("\n") + "\n";
};

/**
 * A report's summary line: `./mine.ts: all 5 checks passed`, or how many failed.
 *
 * @example
 * ```ts
 * import { formatSummary } from "./conformance.ts";
 * const text = formatSummary({ plugin: "./mine.ts", ok: true, checks: [] });
 * if (text !== "./mine.ts: all 0 checks passed\n") throw new Error(text);
 * ```
 */
export const formatSummary = (report: ConformanceReport): string => {
  const failed = report.checks.filter((c) => c.problems.length > 0).length;
  const run = report.checks.filter((c) => c.skipped === undefined).length;
  return (failed === 0
    ? `${report.plugin}: all ${run} checks passed`
    : `${report.plugin}: ${failed} of ${report.checks.length} checks failed`) + "\n";
};
