/**
 * `deno task serve [GAME_OR_PLUGIN ...] [--port 8000] [--host 127.0.0.1]`: ply in the
 * browser. Serves one page for every built-in game and each plugin named (a path or a
 * URL, loaded as `play` loads it), prints the URL and opens nothing by itself; Ctrl-C
 * stops it (every game's search with it).
 *
 * @module
 */
import { Limits } from "../core/host/thread.ts";
import { Effect, type Fiber } from "../core/deps.ts";
import { FiberMap, FiberSet } from "../server/deps.ts";
import { Terminal } from "../app/terminal.ts";
import { catalog } from "../server/catalog.ts";
import { DEFAULT_LIMITS, Rooms } from "../server/rooms.ts";
import { makeApp } from "../server/app.ts";
import { pageAssets } from "../web/bundle.ts";
import { intFlag, parseCommandLine, printHelp, runMain, timeFlag, UsageError } from "../app/cli.ts";

const USAGE = `Usage: deno task serve [GAME_OR_PLUGIN ...] [--port 8000] [--host 127.0.0.1]

Serves ply's web page: play any built-in game (and each plugin named: a path or a URL)
against the AI or another person, watch AIs play, analyse and review games.

  --port N            the port (default 8000; 0 picks a free one)
  --host H            the address to listen on (default 127.0.0.1: this machine only;
                      0.0.0.0 exposes the server to the network, see README)
  --max-games N       games in play at once (default ${DEFAULT_LIMITS.maxGames}); finished
                      games and games nobody opened in time do not count
  --open-within T     a game no browser opened within T of its start stops counting,
                      like 60s (default ${DEFAULT_LIMITS.openMs / 1000}s; 0: it counts once opened)
  --games-per-minute N  games one address may start (or load) per minute (default ${DEFAULT_LIMITS.gamesPerMinute})
  --max-ai-time T     the most an AI may think per move, like 30s (default ${
  DEFAULT_LIMITS.aiMs / 1000
}s)
  --analysis-time T   the most the analysis spends on a position (default ${
  DEFAULT_LIMITS.analysisMs / 1000
}s)
  --workers N         search workers (default: the cores)
`;

const FLAGS = {
  string: [
    "port",
    "host",
    "max-games",
    "open-within",
    "games-per-minute",
    "max-ai-time",
    "analysis-time",
    "workers",
  ],
  boolean: ["help"],
  positionals: 64,
} as const;

/** How often idle games are looked for (they close after `idleMs` unwatched). */
const REAP_EVERY_MS = 60_000;

const main = Effect.gen(function* () {
  const { flags, gameOptions, positional } = yield* parseCommandLine(Deno.args, FLAGS);
  if (flags.help === true) return yield* printHelp(USAGE, undefined);
  const stray = Object.keys(gameOptions)[0];
  if (stray !== undefined) {
    return yield* new UsageError({
      message: `serve has no flag --${stray} (game options are chosen on the page)`,
    });
  }
  const port = yield* intFlag(flags, "port", 8000, 0, 65535);
  const host = typeof flags.host === "string" ? flags.host : "127.0.0.1";
  const maxGames = yield* intFlag(flags, "max-games", DEFAULT_LIMITS.maxGames, 1, 10_000);
  const openWithin = flags["open-within"];
  const openMs = typeof openWithin !== "string"
    ? DEFAULT_LIMITS.openMs
    : openWithin.trim() === "0"
    ? 0
    : yield* timeFlag(openWithin);
  const gamesPerMinute = yield* intFlag(
    flags,
    "games-per-minute",
    DEFAULT_LIMITS.gamesPerMinute,
    1,
    100_000,
  );
  const aiMs = typeof flags["max-ai-time"] === "string"
    ? yield* timeFlag(flags["max-ai-time"])
    : DEFAULT_LIMITS.aiMs;
  const analysisMs = typeof flags["analysis-time"] === "string"
    ? yield* timeFlag(flags["analysis-time"])
    : DEFAULT_LIMITS.analysisMs;
  const games = yield* catalog(positional);
  const assets = yield* Effect.promise(() => pageAssets());
  if (assets.mode === "modules") {
    console.error(`note: the page is served as modules (${assets.note})`);
  }

  // Each game is a fiber under its id; each browser connection a fiber of its own.
  const roomFibers = yield* FiberMap.make<string>();
  const runRoom = yield* FiberMap.runtime(roomFibers)();
  const runConnection = yield* FiberSet.makeRuntime();
  const plugins = yield* Limits;
  const limits = { ...DEFAULT_LIMITS, maxGames, openMs, gamesPerMinute, aiMs, analysisMs, plugins };
  const rooms = new Rooms(games, limits, {
    start: (id, effect) => {
      runRoom(id, effect);
    },
    stop: (id) => {
      Effect.runFork(FiberMap.remove(roomFibers, id));
    },
  });
  yield* Effect.forkScoped(
    Effect.forever(Effect.andThen(Effect.sleep(REAP_EVERY_MS), Effect.sync(() => rooms.reap()))),
  );
  const app = makeApp(rooms, assets.files, (e) => runConnection(e) as Fiber.Fiber<void>);
  const listening = Promise.withResolvers<Deno.NetAddr>();
  const server = yield* Effect.try({
    try: () =>
      Deno.serve({
        port,
        hostname: host,
        onListen: (addr) => listening.resolve(addr),
        onError: () => new Response("internal error\n", { status: 500 }),
      }, app.handler),
    catch: (e) =>
      new UsageError({
        message: `cannot listen on ${host}:${port}: ${(e as Error).message.split("\n")[0]}`,
      }),
  });
  const addr = yield* Effect.promise(() => listening.promise);
  const shown = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  console.log(`ply serves ${games.size} games at http://${shown}:${addr.port}/ (Ctrl-C stops)`);
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "::1") {
    console.log(
      `warning: listening on ${host}: anyone who reaches this address can start games and ` +
        "use this machine's CPU for searches (see README, 'serve on a network')",
    );
  }
  yield* (yield* Terminal).interruption;
  yield* Effect.promise(() => server.shutdown());
  yield* Effect.promise(() => app.dispose());
  return 0;
}).pipe(Effect.scoped);

if (import.meta.main) runMain(main, "deno task serve");
