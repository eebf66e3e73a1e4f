/**
 * What `deno task serve` costs, measured from outside against 127.0.0.1 (a script, not a
 * test; the lead copies the figures into README):
 *
 * - (a) page: from a browser's navigation start to a playable page (`body[data-ready]`),
 *   each load in a fresh browser context (nothing cached), Kalah against an AI;
 * - (b) AI move: the time a client waits for an AI's move minus the search's own time
 *   (`SearchInfo.timeMs`, measured in the engine's worker) — the server's added latency:
 *   over a WebSocket client, and on the page (a click to the AI's move drawn);
 * - (c) memory: the server's resident memory (`VmRSS` of its process) before and after
 *   opening N games, each watched by one WebSocket; per game;
 * - (d) load: G concurrent AI-against-AI games (`alphabeta:2` against `random`, no pause
 *   between moves), each played to its end over WebSocket clients, bounded by a global
 *   timeout; every game must end normally and its transcript replay move by move;
 * - (e) a person's move under load: while G AI-against-AI games play (each replaced by a
 *   new one when it ends, so the load lasts), a person's move round trip (the `Move` sent
 *   to the `Position` showing it), in a game between people and in one against an AI
 *   (`alphabeta:2`: the round trip of the person's own move, then the AI's answer minus its
 *   search), against the same with no load; bounded by the global timeout. `--speed MS`
 *   is the AI games' pause between moves (default 0: none; the page's default is 400).
 *
 * `deno run -A bench/web_load.ts [--loads 10] [--moves 20] [--depth 8] [--open 200]
 * [--games 50] [--game kalah] [--timeout 600] [--only abcde] [--workers N] [--speed 0]`
 *
 * @module
 */
import { parseArgs } from "jsr:@std/cli@^1.0.32/parse-args";
import { Effect, Result } from "../core/deps.ts";
import { importTranscript } from "../app/transcript.ts";
import { decodeTranscript } from "../app/transcript.ts";
import { openGame } from "../app/games.ts";
import type { NodeView, ServerMessage } from "../server/protocol.ts";
import { withBrowser } from "../testing/browser.ts";
import { programPid, rssMiB } from "../testing/process.ts";
import { waitMyTurn } from "../testing/page.ts";
import { connect, type GameClient, isPosition, post } from "../testing/ws_client.ts";

const args = parseArgs(Deno.args, {
  string: [
    "loads",
    "moves",
    "depth",
    "open",
    "games",
    "game",
    "timeout",
    "only",
    "workers",
    "speed",
  ],
  default: {
    loads: "10",
    moves: "20",
    depth: "8",
    open: "200",
    games: "50",
    game: "kalah",
    timeout: "600",
    only: "abcde",
    workers: "",
    speed: "0",
  },
});
const LOADS = Number(args.loads), MOVES = Number(args.moves), DEPTH = Number(args.depth);
const OPEN = Number(args.open), GAMES = Number(args.games), TIMEOUT_S = Number(args.timeout);
const GAME = String(args.game), ONLY = String(args.only);
const SPEED = Number(args.speed);
const WORKERS = String(args.workers) === "" ? [] : ["--workers", String(args.workers)];

// ---------------------------------------------------------------------------------
// Figures

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const quantile = (xs: readonly number[], q: number) => {
  const s = sorted(xs);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const spread = (xs: readonly number[]) =>
  `median ${ms(quantile(xs, 0.5))}, p90 ${ms(quantile(xs, 0.9))}, max ${
    ms(Math.max(...xs))
  } (n=${xs.length})`;

// ---------------------------------------------------------------------------------
// The server, started as a user starts it, in its own process group

interface Server {
  readonly url: string;
  /** The `deno run` process that serves (the task's child). */
  readonly pid: number;
  readonly stop: () => Promise<void>;
}

const root = new URL("../", import.meta.url);

const startServer = async (extra: readonly string[]): Promise<Server> => {
  const child = new Deno.Command("setsid", {
    // Each server stores its games in a database of its own, as a user's would.
    args: [
      Deno.execPath(),
      "task",
      "serve",
      "--port",
      "0",
      "--db",
      `${Deno.makeTempDirSync()}/serve.db`,
      ...extra,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).spawn();
  let out = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let m: RegExpExecArray | null = null;
  while (m === null) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`deno task serve ended:\n${out}`);
    out += value;
    m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
  }
  // Keep reading (a full pipe would block the server).
  (async () => {
    while (!(await reader.read()).done) { /* drained */ }
  })();
  const pid = programPid(child.pid, "scripts/serve.ts");
  const stop = async () => {
    running.delete(stop);
    await new Deno.Command("kill", { args: ["-INT", "--", `-${child.pid}`] }).output();
    await child.status;
  };
  running.add(stop);
  return { url: m[0], pid, stop };
};

/** The servers running (their process groups outlive this script unless stopped). */
const running = new Set<() => Promise<void>>();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    for (const stop of [...running]) await stop();
    Deno.exit(130);
  });
}

const here = { _tag: "Here" } as const;
const ai = (spec: string) => ({ _tag: "AI", spec }) as const;

const created = async (base: string, body: unknown) => {
  const r = await post(base, "/api/new", body);
  if (r._tag !== "Created") throw new Error(`refused: ${r.message}`);
  return r;
};

// ---------------------------------------------------------------------------------
// (a) request to a playable page

const pageLoad = async (server: Server) => {
  const ready: number[] = [], html: number[] = [];
  await withBrowser(async (browser) => {
    for (let i = 0; i < LOADS + 1; i++) {
      const g = await created(server.url, {
        game: GAME,
        options: {},
        players: [here, ai("alphabeta:2")],
        seed: i,
      });
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await page.evaluateOnNewDocument(() => {
          const g = globalThis as unknown as {
            document: { documentElement: unknown; body: { dataset: { ready?: string } } | null };
            MutationObserver: new (f: () => void) => { observe(n: unknown, o: unknown): void };
            performance: { now(): number };
            plyReady?: number;
          };
          new g.MutationObserver(() => {
            if (g.plyReady === undefined && g.document.body?.dataset.ready === "1") {
              g.plyReady = g.performance.now();
            }
          }).observe(g.document, {
            subtree: true,
            attributes: true,
            attributeFilter: ["data-ready"],
          });
        });
        await page.goto(new URL(`/?game=${g.game}&seat=${g.seat}`, server.url).href);
        await page.waitForSelector('body[data-ready="1"]');
        const t = await page.evaluate(() => {
          const g = globalThis as unknown as {
            plyReady: number;
            performance: { getEntriesByType(t: string): { responseEnd: number }[] };
          };
          return {
            ready: g.plyReady,
            html: g.performance.getEntriesByType("navigation")[0].responseEnd,
          };
        });
        if (i > 0) { // the first load warms the server (its bundle, the game's module)
          ready.push(t.ready);
          html.push(t.html);
        }
      } finally {
        await context.close();
      }
    }
  });
  console.log(`(a) navigation start to a playable page (${GAME}, fresh browser context each):`);
  console.log(`    body[data-ready]: ${spread(ready)}`);
  console.log(`    of which the HTML's response: ${spread(html)}`);
};

// ---------------------------------------------------------------------------------
// (b) an AI move's added latency

/** A raw game socket that stamps each message with its arrival time (ms). */
const stampedSocket = async (base: string, game: string, seat: string) => {
  const url = new URL(`/ws?game=${game}&seat=${seat}`, base);
  url.protocol = "ws:";
  const ws = new WebSocket(url);
  const got: { t: number; m: ServerMessage }[] = [];
  let wake: (() => void) | undefined;
  ws.onmessage = (e) => {
    got.push({ t: performance.now(), m: JSON.parse(String(e.data)) });
    wake?.();
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let taken = 0;
  return {
    send: (m: unknown) => ws.send(JSON.stringify(m)),
    /** The next message not yet taken, with its arrival time. */
    next: async (): Promise<{ t: number; m: ServerMessage }> => {
      while (taken >= got.length) await new Promise<void>((r) => (wake = r));
      return got[taken++];
    },
    close: () => ws.close(),
  };
};

const aiLatencySocket = async (server: Server) => {
  const g = await created(server.url, {
    game: GAME,
    options: {},
    players: [here, ai(`alphabeta:${DEPTH}`)],
    seed: 1,
  });
  const c = await stampedSocket(server.url, g.game, g.seat);
  const added: number[] = [], search: number[] = [];
  let tree: NodeView[] = [];
  let since = NaN; // the last event an AI move follows: a move sent, or the AI's last move
  let made = 0, warm = false;
  while (made < MOVES) {
    const { t, m } = await c.next();
    if (m._tag !== "Position") continue;
    const before = tree.length;
    if (m.full) tree = [...m.nodes];
    else for (const n of m.nodes) tree[n.id] = n;
    for (let id = before; id < tree.length; id++) {
      const n = tree[id];
      if (n.by !== 1 || n.search === undefined || Number.isNaN(since)) continue;
      // The game's first AI move also starts the engine's workers: left out.
      if (warm) {
        added.push(t - since - n.search.ms);
        search.push(n.search.ms);
      }
      warm = true;
      since = t;
    }
    if (m.result !== undefined) break;
    if (m.toMove === 0 && m.legal.length > 0 && m.thinking === null) {
      since = performance.now();
      c.send({ _tag: "Move", at: m.current, move: m.legal[made % m.legal.length].move });
      made++;
    }
  }
  c.close();
  console.log(
    `(b) an AI move (${GAME}, alphabeta:${DEPTH}; the first left out) over a WebSocket client:`,
  );
  console.log(`    the search's own time: ${spread(search)}`);
  console.log(`    added by the server (wait - search time): ${spread(added)}`);
};

const aiLatencyPage = async (server: Server) => {
  const g = await created(server.url, {
    game: GAME,
    options: {},
    players: [here, ai(`alphabeta:${DEPTH}`)],
    seed: 2,
  });
  const added: number[] = [], drawn: number[] = [];
  await withBrowser(async (browser) => {
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(() => {
      const g = globalThis as unknown as {
        document: {
          addEventListener(t: string, f: () => void, o: unknown): void;
          body: { dataset: { node?: string } } | null;
        };
        MutationObserver: new (f: () => void) => { observe(n: unknown, o: unknown): void };
        performance: { now(): number };
        plyClicks: number[];
        plyNodes: [string, number][];
      };
      g.plyClicks = [];
      g.plyNodes = [];
      // When each Position reaches the page (before the page's own handler runs).
      const w = globalThis as unknown as {
        WebSocket: new (u: string) => {
          addEventListener(t: string, f: (e: { data: string }) => void): void;
        };
        plyArrivals: [number, number][];
      };
      const Native = w.WebSocket;
      w.plyArrivals = [];
      w.WebSocket = function (u: string) {
        const ws = new Native(u);
        ws.addEventListener("message", (e) => {
          const m = JSON.parse(e.data);
          if (m._tag === "Position") w.plyArrivals.push([m.current, g.performance.now()]);
        });
        return ws;
      } as unknown as typeof Native;
      Object.assign(w.WebSocket, Native);
      g.document.addEventListener("click", () => g.plyClicks.push(g.performance.now()), {
        capture: true,
      });
      new g.MutationObserver(() => {
        const n = g.document.body?.dataset.node;
        if (n !== undefined && g.plyNodes.at(-1)?.[0] !== n) {
          g.plyNodes.push([n, g.performance.now()]);
        }
      }).observe(g.document, { subtree: true, attributes: true, attributeFilter: ["data-node"] });
    });
    await page.goto(new URL(`/?game=${g.game}&seat=${g.seat}`, server.url).href);
    await page.waitForSelector('body[data-ready="1"]');
    for (let i = 0; i < MOVES; i++) {
      // The person's turn: a move button (the board's pointing is the tests' business).
      await waitMyTurn(page);
      if (await page.$eval("body", (b) => (b.getAttribute("data-result") ?? "") !== "")) break;
      const before = Number(await page.$eval("body", (b) => b.getAttribute("data-node")));
      await page.click("#move-buttons button[data-move]");
      await page.waitForSelector(`body:not([data-node="${before}"])`);
    }
    const { clicks, nodes, arrivals } = await page.evaluate(() => {
      const g = globalThis as unknown as {
        plyClicks: number[];
        plyNodes: [string, number][];
        plyArrivals: [number, number][];
      };
      return { clicks: g.plyClicks, nodes: g.plyNodes, arrivals: g.plyArrivals };
    });
    // The page's own share: a Position's arrival to its node drawn.
    for (const [n, t] of nodes) {
      const arrived = arrivals.find(([c, a]) => String(c) === n && a <= t);
      if (arrived !== undefined) drawn.push(t - arrived[1]);
    }
    // Each AI move's node drawn, against the previous event (a click or an AI node).
    const transcript = await (await fetch(new URL(`/api/games/${g.game}/transcript`, server.url)))
      .json();
    const moves = transcript.moves as { by: number | string; search?: { timeMs: number } }[];
    const events = [
      ...clicks.map((t) => ({ t, node: -1 })),
      ...nodes.map(([n, t]) => ({ t, node: Number(n) })),
    ].sort((a, b) => a.t - b.t);
    if (Deno.env.get("PLY_BENCH_DEBUG")) {
      console.log("arrivals", arrivals.map(([c, t]) => `${c}@${t.toFixed(1)}`).join(" "));
      console.log(events.map((e) => `${e.node}@${e.t.toFixed(1)}`).join(" "));
      console.log(
        moves.map((m, i) => `${i + 1}:${m.by}:${m.search?.timeMs?.toFixed(1)}`).join(" "),
      );
    }
    let last = NaN;
    for (const e of events) {
      if (e.node === -1) last = e.t;
      else if (e.node >= 1 && moves[e.node - 1]?.by === 1 && !Number.isNaN(last)) {
        added.push(e.t - last - (moves[e.node - 1].search?.timeMs ?? 0));
        last = e.t;
      }
    }
  });
  console.log(
    `    on the page (a click to the AI's move drawn, minus the search): ${spread(added)}`,
  );
  console.log(
    `    of which the page's own (a Position's arrival to its node drawn): ${spread(drawn)}`,
  );
};

// ---------------------------------------------------------------------------------
// (c) memory per open game

const memory = async () => {
  const server = await startServer(["--max-games", String(OPEN + 10)]);
  const clients: GameClient[] = [];
  try {
    // Warm up: one game opened and closed (modules loaded, bundle built).
    const w = await created(server.url, { game: GAME, options: {}, players: [here, here] });
    clients.push(await connect(server.url, w.game, w.seat));
    const before = rssMiB(server.pid);
    for (let i = 0; i < OPEN; i++) {
      const g = await created(server.url, { game: GAME, options: {}, players: [here, here] });
      clients.push(await connect(server.url, g.game, g.seat));
    }
    const after = rssMiB(server.pid);
    console.log(
      `(c) server memory (VmRSS): ${before.toFixed(1)} MiB with 1 game open, ` +
        `${after.toFixed(1)} MiB with ${OPEN + 1} (each watched by a socket): ` +
        `${((after - before) * 1024 / OPEN).toFixed(1)} KiB per game`,
    );
  } finally {
    for (const c of clients) await c.close();
    await server.stop();
  }
};

// ---------------------------------------------------------------------------------
// (d) concurrent AI-against-AI games

const concurrent = async () => {
  const server = await startServer([
    "--max-games",
    String(GAMES + 10),
    "--games-per-minute",
    "100000",
  ]);
  const { game } = await Effect.runPromise(openGame(GAME));
  const t0 = performance.now();
  let peak = rssMiB(server.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid))), 250);
  try {
    const games = await Promise.all(
      Array.from({ length: GAMES }, (_, i) =>
        created(server.url, {
          game: GAME,
          options: {},
          players: i % 2 === 0
            ? [ai("alphabeta:2"), ai("random")]
            : [ai("random"), ai("alphabeta:2")],
          seed: 1000 + i,
        })),
    );
    const play = async (g: { game: string; seat: string }) => {
      const c = await connect(server.url, g.game, g.seat);
      c.send({ _tag: "Speed", ms: 0 });
      const end = await c.next(isPosition((p) => p.result !== undefined), 0);
      const errors = c.received.filter((m) => m._tag === "Error" || m._tag === "Refused");
      await c.close();
      const t = await (await fetch(new URL(`/api/games/${g.game}/transcript`, server.url))).json();
      const decoded = decodeTranscript(t);
      const replays = Result.isSuccess(decoded) &&
        Result.isSuccess(importTranscript(game, decoded.success));
      return { result: end.result!, errors: errors.length, moves: t.moves.length, replays };
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcomes = await Promise.race([
      Promise.all(games.map(play)),
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => reject(new Error(`not done in ${TIMEOUT_S} s`)), TIMEOUT_S * 1000)
      ),
    ]);
    clearTimeout(timer);
    const wall = (performance.now() - t0) / 1000;
    const moves = outcomes.reduce((s, o) => s + o.moves, 0);
    const failed = outcomes.filter((o) =>
      o.errors > 0 || !o.replays ||
      !["end", "score", "win", "draw"].some((r) => o.result.reason.includes(r))
    );
    const reasons = [...new Set(outcomes.map((o) => o.result.reason))].join(", ");
    console.log(`(d) ${GAMES} concurrent ${GAME} games, alphabeta:2 against random, no pause:`);
    console.log(
      `    all ended in ${wall.toFixed(1)} s; ${moves} moves (${(moves / wall).toFixed(0)}/s); ` +
        `results: ${reasons}; failed games: ${failed.length}; errors: ${
          outcomes.reduce((s, o) => s + o.errors, 0)
        }; server peak VmRSS ${peak.toFixed(1)} MiB`,
    );
    if (failed.length > 0) console.log(`    failed: ${JSON.stringify(failed.slice(0, 3))}`);
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
};

// ---------------------------------------------------------------------------------
// (e) a person's move round trip while AI-against-AI games play

/** The round trips of `n` moves by a person in a room (a new game when one ends). */
const personMoves = async (
  server: Server,
  n: number,
  against: "person" | "ai",
  seed: number,
): Promise<{ own: number[]; answer: number[] }> => {
  const own: number[] = [], answer: number[] = [];
  let c: GameClient | undefined;
  try {
    for (let game = 0; own.length < n; game++) {
      const g = await created(server.url, {
        game: GAME,
        options: {},
        players: [here, against === "person" ? here : ai("alphabeta:2")],
        seed: seed + game,
      });
      c = await connect(server.url, g.game, g.seat);
      while (own.length < n) {
        // The person's turn (against the AI: once it has answered).
        let p = c.position();
        while (p.result === undefined && (p.legal.length === 0 || p.thinking !== null)) {
          await c.next(isPosition());
          p = c.position();
        }
        if (p.result !== undefined) break;
        const from = c.received.length;
        const t0 = performance.now();
        c.send({ _tag: "Move", at: p.current, move: p.legal[own.length % p.legal.length].move });
        const shown = await c.next(isPosition((q) => q.current !== p.current), from);
        const t1 = performance.now();
        own.push(t1 - t0);
        if (against === "ai" && shown.toMove === 1 && shown.result === undefined) {
          const back = await c.next(
            isPosition((q) =>
              q.result !== undefined || (q.toMove === 0 && q.thinking === null) ||
              q.nodes.length > shown.nodes.length
            ),
            from,
          );
          const n1 = back.nodes[shown.nodes.length];
          if (n1?.by === 1 && n1.search !== undefined) {
            answer.push(performance.now() - t1 - n1.search.ms);
          }
        }
      }
      await c.close();
      c = undefined;
    }
  } finally {
    await c?.close();
  }
  return { own, answer };
};

const underLoad = async () => {
  const server = await startServer([
    "--max-games",
    String(GAMES + 20),
    "--games-per-minute",
    "100000",
    ...WORKERS,
  ]);
  let stopped = false;
  const stop = Promise.withResolvers<void>();
  let played = 0;
  /** One AI-against-AI room after another, each to its end, until stopped. */
  const keep = async (i: number, started: () => void) => {
    for (let k = 0; !stopped; k++) {
      const g = await created(server.url, {
        game: GAME,
        options: {},
        players: i % 2 === 0
          ? [ai("alphabeta:2"), ai("random")]
          : [ai("random"), ai("alphabeta:2")],
        seed: 5000 + i * 1000 + k,
      });
      const c = await connect(server.url, g.game, g.seat);
      c.send({ _tag: "Speed", ms: SPEED });
      if (k === 0) await c.next(isPosition((p) => p.current > 0 || p.result !== undefined), 0);
      if (k === 0) started();
      await Promise.race([c.next(isPosition((p) => p.result !== undefined), 0), stop.promise]);
      await c.close();
      played++;
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const quiet = {
      person: await personMoves(server, MOVES, "person", 1),
      ai: await personMoves(server, MOVES, "ai", 100),
    };
    let going = 0;
    const allGoing = Promise.withResolvers<void>();
    const keepers = Array.from({ length: GAMES }, (_, i) =>
      keep(i, () => {
        if (++going === GAMES) allGoing.resolve();
      }));
    const measured = Promise.race([
      (async () => {
        await allGoing.promise; // every AI room has played a move: the load is on
        const person = await personMoves(server, MOVES, "person", 200);
        const vsAi = await personMoves(server, MOVES, "ai", 300);
        return { person, ai: vsAi };
      })(),
      new Promise<never>((_, reject) =>
        timer = setTimeout(() => reject(new Error(`not done in ${TIMEOUT_S} s`)), TIMEOUT_S * 1000)
      ),
    ]);
    const loaded = await measured;
    stopped = true;
    stop.resolve();
    await Promise.all(keepers);
    console.log(
      `(e) a person's move round trip (${GAME}; Move sent to the Position showing it), ` +
        `quiet and with ${GAMES} AI-against-AI games playing (alphabeta:2 vs random, ` +
        `${SPEED === 0 ? "no pause" : `${SPEED} ms between moves`}; ` +
        `${played} of them played meanwhile):`,
    );
    console.log(`    between people, quiet:      ${spread(quiet.person.own)}`);
    console.log(`    between people, loaded:     ${spread(loaded.person.own)}`);
    console.log(`    against an AI, quiet:       ${spread(quiet.ai.own)}`);
    console.log(`    against an AI, loaded:      ${spread(loaded.ai.own)}`);
    console.log(`    the AI's answer past its search, quiet:  ${spread(quiet.ai.answer)}`);
    console.log(`    the AI's answer past its search, loaded: ${spread(loaded.ai.answer)}`);
  } finally {
    clearTimeout(timer);
    stopped = true;
    stop.resolve();
    await server.stop();
  }
};

// ---------------------------------------------------------------------------------

if (import.meta.main) {
  console.log(
    `deno task serve, measured on ${Deno.build.os} (${navigator.hardwareConcurrency} cores)`,
  );
  if (ONLY.includes("a") || ONLY.includes("b")) {
    const server = await startServer([]);
    try {
      if (ONLY.includes("a")) await pageLoad(server);
      if (ONLY.includes("b")) {
        await aiLatencySocket(server);
        await aiLatencyPage(server);
      }
    } finally {
      await server.stop();
    }
  }
  if (ONLY.includes("c")) await memory();
  if (ONLY.includes("d")) await concurrent();
  if (ONLY.includes("e")) await underLoad();
}
