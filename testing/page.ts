/**
 * Playing a game on the web page as a person does, for the end-to-end tests: the
 * new-game form, moves by pointing (clicks on `[data-pick]`, keys), refusals, undo,
 * reload, save and load (server/CONTRACT.md's DOM).
 *
 * What the page should show is computed here independently, from the game's own
 * plugin: the saved transcript (`a#save`) is replayed with the library, and the game's
 * `picture` says which tokens make which move and why a pointing is refused. Every wait
 * is a handshake (`data-ready`, `data-node`, the move buttons), never a time.
 *
 * @module
 */
import { assert, assertEquals, assertNotEquals, assertStringIncludes } from "./deps.ts";
import type { Game } from "../core/game.ts";
import { KEY_PREFIX } from "../core/picture.ts";
import type { Rng } from "../core/rng.ts";
import { pathTo, type Session, stateAt } from "../app/session.ts";
import { decodeTranscript, importTranscript, type Transcript } from "../app/transcript.ts";
import type { GamePlugin } from "../core/plugin.ts";
import { builtins } from "../plugins/registry.ts";
import { makeRng } from "../core/rng.ts";
import {
  navigates,
  nodeOf,
  openPage,
  type Page,
  pick,
  quoted,
  targets,
  textOf,
  waitNode,
  waitNodeChange,
  waitReady,
  withBrowser,
  withServe,
} from "./browser.ts";

/** A game to start from the form. */
export interface Setup {
  /** The game's id (`tictactoe`). */
  readonly game: string;
  /** Option fields to fill (`{ pits: "3" }` fills `[name="opt-pits"]`). */
  readonly options?: Readonly<Record<string, string>>;
  /** Each side: `here`, `remote`, `lobby`, or an AI's player spec (`alphabeta:2`). */
  readonly sides: readonly [string, string];
  /** The seed (fixed, so that a run is repeatable). */
  readonly seed: number;
  /** A time control for the clock field (`5+3`, `10s`); none: no clock. */
  readonly clock?: string;
}

/** A game the page opened. */
export interface Opened {
  /** The game's id on the server. */
  readonly id: string;
  /** This browser's seat token ("" for none). */
  readonly seat: string;
}

/** The game id and seat of the page's URL. */
export const routeOf = (url: string): Opened => {
  const u = new URL(url);
  return { id: u.searchParams.get("game") ?? "", seat: u.searchParams.get("seat") ?? "" };
};

/** Sets an input's or a select's value as a person does (`input` and `change` fire). */
export const setField = async (page: Page, selector: string, value: string): Promise<void> => {
  const done = await page.$eval(selector, (e, v) => {
    const field = e as unknown as {
      value: string;
      dispatchEvent(e: unknown): boolean;
      tagName: string;
    };
    const Event = (globalThis as unknown as { Event: new (t: string, o: unknown) => unknown })
      .Event;
    field.value = v;
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
    return field.value;
  }, value);
  assertEquals(done, value, `${selector} does not take the value ${value}`);
};

/**
 * Fills the new-game form at `base` and starts the game; resolves once the game's page
 * is drawn (`body[data-ready="1"]` at a URL with `game=`).
 */
export const startFromForm = async (page: Page, base: string, setup: Setup): Promise<Opened> => {
  await page.goto(base);
  await page.waitForSelector('#new-game select[name="game"]');
  await setField(page, '#new-game select[name="game"]', setup.game);
  for (const [name, value] of Object.entries(setup.options ?? {})) {
    await setField(page, `#new-game [name="opt-${name}"]`, value);
  }
  for (const i of [0, 1] as const) {
    const side = setup.sides[i];
    const visible = await page.$eval(
      `#new-game select[name="side-${i}"]`,
      (e) => e.closest("[hidden]") === null,
    );
    if (!visible) continue; // a solo game's other side is chance
    const who = side === "here" || side === "remote" || side === "lobby" ? side : "ai";
    await setField(page, `#new-game select[name="side-${i}"]`, who);
    if (who === "ai") {
      await setField(page, `#new-game select[name="strength-${i}"]`, "custom");
      await setField(page, `#new-game input[name="spec-${i}"]`, side);
    }
  }
  await setField(page, '#new-game input[name="seed"]', String(setup.seed));
  if (setup.clock !== undefined) await setField(page, '#new-game input[name="clock"]', setup.clock);
  await navigates(page, () => page.click("#start"));
  assert(new URL(page.url()).searchParams.has("game"), "the form opened a game");
  return routeOf(page.url());
};

/**
 * Waits until a person here is to move (the move buttons are there and no AI thinks)
 * or the game is over.
 */
export const waitMyTurn = async (page: Page): Promise<void> => {
  await page.waitForFunction(() => {
    const d = (globalThis as unknown as {
      document: {
        body: { dataset: Record<string, string | undefined> };
        querySelector(s: string): unknown;
      };
    }).document;
    const b = d.body.dataset;
    if (b.ready !== "1" || b.thinking === "1") return false;
    return d.querySelector("#move-buttons button[data-move]") !== null || (b.result ?? "") !== "";
  });
};

/** True when the game on the page is over. */
export const isOverOnPage = (page: Page): Promise<boolean> =>
  page.$eval("body", (b) => (b.getAttribute("data-result") ?? "") !== "");

// ---------------------------------------------------------------------------------
// The game as the library sees it

const plugins = new Map<string, GamePlugin<unknown, unknown>>();

/** A built-in plugin by id (loaded once). */
export const pluginOf = async (id: string): Promise<GamePlugin<unknown, unknown>> => {
  let p = plugins.get(id);
  if (p === undefined) {
    const entry = builtins[id];
    assert(entry !== undefined, `no built-in game ${id}`);
    p = ((await entry.load()) as { default: GamePlugin<unknown, unknown> }).default;
    plugins.set(id, p);
  }
  return p;
};

/** A game replayed from its transcript: the session and the position at its current node. */
export interface Replayed {
  /** The transcript as saved. */
  readonly transcript: Transcript;
  /** The game, built from the transcript's options by its plugin. */
  readonly game: Game<unknown>;
  /** The session the transcript records. */
  readonly session: Session;
  /** The path from the start to the current node (transcript numbering). */
  readonly path: readonly number[];
  /** The position at the current node. */
  readonly state: unknown;
}

/** Replays a transcript with the library (every move checked against the rules). */
export const replayTranscript = async (json: unknown): Promise<Replayed> => {
  const decoded = decodeTranscript(json);
  if (decoded._tag === "Failure") throw new Error(decoded.failure);
  const transcript = decoded.success;
  const game = (await pluginOf(transcript.game)).create(transcript.options) as Game<unknown>;
  const imported = importTranscript(game, transcript);
  if (imported._tag === "Failure") throw new Error(imported.failure);
  const session = imported.success;
  return {
    transcript,
    game,
    session,
    path: pathTo(session, session.current),
    state: stateAt(game, session),
  };
};

/** The page's save link (`a#save`), as a full URL. */
export const saveHref = (page: Page): Promise<string> =>
  page.$eval("a#save", (a) => (a as unknown as { href: string }).href);

/** Downloads the transcript behind `a#save`: its text and the response's headers. */
export const download = async (page: Page): Promise<{ text: string; headers: Headers }> => {
  const r = await fetch(await saveHref(page));
  assertEquals(r.status, 200, `GET ${r.url}`);
  return { text: await r.text(), headers: r.headers };
};

/** The game on the page, replayed from its saved transcript. */
export const replayed = async (page: Page): Promise<Replayed> =>
  await replayTranscript(JSON.parse((await download(page)).text));

// ---------------------------------------------------------------------------------
// Moves by pointing

/** A move made on the page. */
export interface Made {
  /** The page's node before the move (a person's turn). */
  readonly from: number;
  /** The move's notation. */
  readonly notation: string;
  /** Its ply: the move is the transcript path's move number `ply` (1-based node). */
  readonly ply: number;
}

const isKey = (t: string) => t.startsWith(KEY_PREFIX);

/**
 * The first tokens of the legal moves' pick sequences in `r`'s position that are
 * elements (not keys): the targets the page should mark.
 */
export const expectedTargets = (r: Replayed): string[] => {
  const picture = r.game.picture!;
  const out = new Set<string>();
  for (const m of r.game.moves(r.state)) {
    for (const seq of picture.picks(r.state, m)) if (!isKey(seq[0])) out.add(seq[0]);
  }
  return [...out].sort();
};

/** Enters a pick sequence: clicks for elements, key presses for `key:KEY`. */
export const enterPicks = async (page: Page, seq: readonly string[]): Promise<void> => {
  for (const [i, token] of seq.entries()) {
    if (isKey(token)) {
      await page.keyboard.press(token.slice(KEY_PREFIX.length) as "ArrowUp");
      continue;
    }
    // The element is a target when it is pointed at (the page marks what can come next).
    const selector = `#board [data-pick="${quoted(token)}"]`;
    const cls = await page.$eval(selector, (e) => e.getAttribute("class") ?? "");
    assert(/\btarget\b/.test(cls), `${token} (pick ${i + 1} of ${seq.join(" ")}) is no target`);
    await pick(page, token);
  }
};

/**
 * Makes a legal move by pointing, chosen with `rng` among the legal moves (or the first
 * move of `prefer`'s notations that is legal), on a page where a person here is to
 * move; checks first that the page marks exactly the legal moves' first tokens, then
 * waits until the page shows another node. Returns the move made.
 */
export const playByPicks = async (
  page: Page,
  rng: Rng,
  prefer: readonly string[] = [],
): Promise<Made> => {
  await waitMyTurn(page);
  const r = await replayed(page);
  const picture = r.game.picture;
  assert(picture !== undefined, `${r.transcript.game} has no picture`);
  assertEquals((await targets(page)).sort(), expectedTargets(r), "the targets the page marks");
  const legal = r.game.moves(r.state);
  assert(legal.length > 0, "no legal move");
  const named = prefer
    .map((n) => legal.find((m) => r.game.formatMove(r.state, m) === n))
    .find((m) => m !== undefined);
  const move = named ?? legal[rng.int(legal.length)];
  const seqs = picture.picks(r.state, move);
  const seq = seqs[rng.int(seqs.length)];
  const from = await nodeOf(page);
  await enterPicks(page, seq);
  await waitNodeChange(page, from).catch(async (e) => {
    throw new Error(
      `${r.transcript.game}: the page stayed at node ${from} after ${seq.join(" ")} ` +
        `(${r.game.formatMove(r.state, move)}); #message: ${await textOf(page, "#message")}; ` +
        `body: ${await page.$eval("body", (b) => JSON.stringify(b.dataset))}`,
      { cause: e },
    );
  });
  return { from, notation: r.game.formatMove(r.state, move), ply: r.path.length };
};

/**
 * Checks, after `made`, that the game's transcript has that move at its place: the
 * pointing made the move it stands for, not another.
 */
export const assertPlayed = async (page: Page, made: Made): Promise<void> => {
  const r = await replayed(page);
  const node = r.path[made.ply];
  assert(node !== undefined, `the transcript's current line is shorter than ply ${made.ply}`);
  assertEquals(r.session.nodes[node].notation, made.notation, "the move the pointing made");
};

/**
 * A pointing that makes no legal move in the page's position: an element that is no
 * target, with the reason the game's picture gives for it (undefined: the page's own
 * generic text). Keys are tried when the game has no such element.
 */
export const illegalPick = async (
  page: Page,
): Promise<{ token: string; reason: string | undefined } | undefined> => {
  const r = await replayed(page);
  const picture = r.game.picture!;
  const firsts = new Set<string>();
  for (const m of r.game.moves(r.state)) {
    for (const seq of picture.picks(r.state, m)) firsts.add(seq[0]);
  }
  const onBoard = await page.$$eval(
    "#board [data-pick]",
    (es) => es.map((e) => e.getAttribute("data-pick")!),
  );
  const candidates = [
    ...onBoard,
    ...["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].map((k) => KEY_PREFIX + k),
  ].filter((t) => !firsts.has(t));
  // Prefer a token the game explains (its own reason), else any.
  const explained = candidates.find((t) => picture.refuse?.(r.state, [t]) !== undefined);
  const token = explained ?? candidates.find((t) => !isKey(t));
  if (token === undefined) return undefined;
  return { token, reason: picture.refuse?.(r.state, [token]) };
};

/**
 * Points at something that makes no legal move and checks that the page refuses it:
 * `#message` gives the game's reason (or the page's own when the game has none), the
 * node stays, and the position (the transcript) is unchanged.
 */
export const refuseOne = async (page: Page): Promise<string | undefined> => {
  await waitMyTurn(page);
  const bad = await illegalPick(page);
  if (bad === undefined) return undefined;
  const before = await nodeOf(page);
  const saved = (await download(page)).text;
  await page.$eval("#message", (e) => (e.textContent = ""));
  if (isKey(bad.token)) await page.keyboard.press(bad.token.slice(KEY_PREFIX.length) as "ArrowUp");
  else await pick(page, bad.token);
  await page.waitForFunction(
    () => {
      const d = (globalThis as unknown as {
        document: { querySelector(s: string): { textContent: string | null } | null };
      }).document;
      return (d.querySelector("#message")?.textContent ?? "").trim() !== "";
    },
  );
  const message = (await page.$eval("#message", (e) => e.textContent ?? "")).trim();
  if (bad.reason !== undefined) assertStringIncludes(message, bad.reason);
  assertEquals(await nodeOf(page), before, "a refused pointing changes the node");
  assertEquals((await download(page)).text, saved, "a refused pointing changes the game");
  return bad.token;
};

// ---------------------------------------------------------------------------------
// The whole round against the AI

/** What `againstTheAi` did, for the test to report. */
export interface Round {
  /** The moves the person made. */
  readonly made: readonly Made[];
  /** The token refused. */
  readonly refused: string;
  /** The id of the game the saved transcript opened as. */
  readonly loaded: string;
}

/** The main line and the variations of a transcript, as notations (for comparing games). */
export const lines = (t: Transcript): { main: string[]; variations: string[] } => ({
  main: t.moves.map((m) => `${m.by}:${m.notation}`),
  variations: (t.variations ?? []).map((m) => `${m.parent}>${m.by}:${m.notation}`),
});

/**
 * One game against the AI as a person plays it on the page: start it from the form;
 * make `moves` moves by pointing (each checked in the saved transcript); point at
 * something illegal and see the reason (2048: a key that slides nothing, after more
 * moves if every key slides); undo back to the person's last turn; reload and see the
 * same node and board; open the URL with `at` at the first turn and see that node; save
 * the transcript (`a#save`) and load it (`#load-file`) as a new game with the same
 * moves. The page must report no error and reach nothing off the loopback.
 */
export const againstTheAi = async (
  page: Page,
  problems: readonly string[],
  base: string,
  setup: Setup,
  rng: Rng,
  moves = 2,
): Promise<Round> => {
  const opened = await startFromForm(page, base, setup);
  assert(opened.seat !== "", "the page's URL has the person's seat");
  const made: Made[] = [];
  for (let i = 0; i < moves; i++) {
    const m = await playByPicks(page, rng);
    await waitMyTurn(page);
    await assertPlayed(page, m);
    assertStringIncludes(await textOf(page, "#moves"), m.notation, "the move list shows it");
    made.push(m);
  }
  // A pointing that makes no move (2048: a key that slides nothing may need more moves).
  let refused = await refuseOne(page);
  for (let extra = 0; refused === undefined && extra < 60; extra++) {
    const m = await playByPicks(page, rng, ["L"]);
    await waitMyTurn(page);
    made.push(m);
    refused = await refuseOne(page);
  }
  assert(refused !== undefined, "found nothing to refuse");

  // Undo: back to where the person last moved.
  const last = made.at(-1)!;
  await page.click("#undo");
  await waitNode(page, last.from);
  assertEquals((await replayed(page)).path.length, last.ply, "undo takes back to the last turn");

  // Reload: the same node, the same board.
  const board = await page.$eval("#board", (e) => e.innerHTML);
  await page.reload();
  await waitReady(page);
  assertEquals(await nodeOf(page), last.from, "a reload shows the same node");
  await waitMyTurn(page);
  assertEquals(await page.$eval("#board", (e) => e.innerHTML), board, "a reload draws the same");
  assertEquals(new URL(page.url()).searchParams.get("at"), String(last.from), "the URL's node");

  // The URL with `at` at the first turn shows that position (a link to a position).
  const first = made[0];
  const link = new URL(page.url());
  link.searchParams.set("at", String(first.from));
  await page.goto(link.href);
  await waitReady(page);
  await waitNode(page, first.from);
  await waitMyTurn(page);
  assertEquals(await nodeOf(page), first.from, "the URL's node stays shown");
  assertEquals((await replayed(page)).path.length, first.ply, "the server is at the URL's node");

  // Save, then load the file as a new game: the same moves.
  const saved = await download(page);
  assertStringIncludes(saved.headers.get("content-disposition") ?? "", "attachment");
  const savedGame = await replayTranscript(JSON.parse(saved.text));
  const file = await Deno.makeTempFile({ prefix: "ply-e2e-", suffix: ".json" });
  try {
    await Deno.writeTextFile(file, saved.text);
    const input = await page.$("input#load-file");
    assert(input !== null, "the page has input#load-file");
    const upload = input as unknown as { uploadFile(p: string): Promise<void> };
    await navigates(page, () => upload.uploadFile(file)).catch(async (e) => {
      throw new Error(`the loaded file opened no game: ${await textOf(page, "#message")}`, {
        cause: e,
      });
    });
  } finally {
    await Deno.remove(file);
  }
  const loaded = routeOf(page.url());
  assertNotEquals(loaded.id, opened.id, "the loaded game is a new game");
  const reloaded = await replayed(page);
  assertEquals(lines(reloaded.transcript), lines(savedGame.transcript), "the loaded game");
  assertEquals(reloaded.transcript.game, setup.game);
  assertEquals(problems, [], "the page's errors");
  return { made, refused, loaded: loaded.id };
};

/**
 * A test step per game: each in a fresh browser context of one browser, against one
 * server, played by `againstTheAi` (the two end-to-end files share it).
 */
export const eachAgainstTheAi = async (
  t: Deno.TestContext,
  games: readonly Setup[],
  what: string,
): Promise<void> => {
  await withServe([], (served) =>
    withBrowser(async (browser) => {
      for (const setup of games) {
        await t.step(`${setup.game}: ${what}`, async () => {
          const context = await browser.createBrowserContext();
          try {
            const { page, problems } = await openPage(context);
            const round = await againstTheAi(
              page,
              problems,
              served.url,
              setup,
              makeRng(setup.seed),
            );
            assert(round.made.length >= 2);
          } finally {
            await context.close();
          }
        });
      }
    }));
};

/** Clicks the move button with this notation (once the move buttons are there). */
export const clickMove = async (page: Page, notation: string): Promise<void> => {
  await page.waitForSelector("#move-buttons button[data-move]");
  const buttons = await page.$$("#move-buttons button[data-move]");
  for (const b of buttons) {
    if ((await b.evaluate((e) => e.textContent)) === notation) return await b.click();
  }
  throw new Error(`no move button ${notation}`);
};

/** The page's document, as the functions run in the page see it. */
type Doc = {
  document: {
    querySelector(s: string): { textContent: string | null; disabled?: boolean } | null;
  };
};

/** Waits until the text of `selector` includes `part`. */
export const waitIncludes = async (page: Page, selector: string, part: string): Promise<void> => {
  await page.waitForFunction(
    (s: string, t: string) =>
      ((globalThis as unknown as Doc).document.querySelector(s)?.textContent ?? "").includes(t),
    {},
    selector,
    part,
  );
};
