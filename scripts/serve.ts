/**
 * `deno task serve [GAME_OR_PLUGIN ...] [--port 8000] [--host 127.0.0.1]`: ply in the
 * browser. Serves one page for every built-in game and each plugin named (a path or a
 * URL, loaded as `play` loads it), prints the URL and opens nothing by itself; Ctrl-C
 * (or SIGTERM) stops it (every game's search with it). Every game is stored as it changes
 * (SQLite in `$XDG_STATE_HOME/ply/serve.db` by default, or `--db`), and a server started
 * again opens every stored game where it was.
 *
 * @module
 */
import { Limits } from "../core/host/limits.ts";
import { Effect, type Fiber, Layer, Result } from "../core/deps.ts";
import { FiberMap, FiberSet } from "../server/deps.ts";
import { Terminal } from "../app/terminal.ts";
import { catalog } from "../server/catalog.ts";
import { DEFAULT_LIMITS, Rooms } from "../server/rooms.ts";
import { makeApp } from "../server/app.ts";
import { listen } from "../server/transport.ts";
import { MAX_MESSAGE } from "../server/protocol.ts";
import { sqlRoomStore } from "../server/store.ts";
import { databaseLayer, defaultDatabase, describeDatabase } from "../app/store/database.ts";
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
  --review-time T     the time per position of a loaded game's review, like 2s (default ${
  DEFAULT_LIMITS.reviewMs / 1000
}s); where the game's exact solver ends within it, only a change of the result is marked
  --workers N         search workers (default: the cores)
  --db FILE|URL       where the games are kept across a restart: a SQLite file (default
                      $XDG_STATE_HOME/ply/serve.db, or ~/.local/state/ply/serve.db), or a
                      PostgreSQL URL (postgres://user@host/db, its password from
                      PGPASSWORD or ~/.pgpass); ":memory:" keeps
                      them in memory only
  --keep-games N      a stored game nobody opened for N days is forgotten (default ${
  DEFAULT_LIMITS.keepMs / 86_400_000
})
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
    "review-time",
    "workers",
    "db",
    "keep-games",
  ],
  boolean: ["help"],
  positionals: 64,
} as const;

/** How often idle games are looked for (they sleep after `idleMs` unwatched). */
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
    : yield* timeFlag(openWithin, "--open-within");
  const gamesPerMinute = yield* intFlag(
    flags,
    "games-per-minute",
    DEFAULT_LIMITS.gamesPerMinute,
    1,
    100_000,
  );
  const aiMs = typeof flags["max-ai-time"] === "string"
    ? yield* timeFlag(flags["max-ai-time"], "--max-ai-time")
    : DEFAULT_LIMITS.aiMs;
  const analysisMs = typeof flags["analysis-time"] === "string"
    ? yield* timeFlag(flags["analysis-time"], "--analysis-time")
    : DEFAULT_LIMITS.analysisMs;
  const reviewMs = typeof flags["review-time"] === "string"
    ? yield* timeFlag(flags["review-time"], "--review-time")
    : DEFAULT_LIMITS.reviewMs;
  const keepDays = yield* intFlag(
    flags,
    "keep-games",
    DEFAULT_LIMITS.keepMs / 86_400_000,
    1,
    36_500,
  );
  const target = typeof flags.db === "string" && flags.db !== ""
    ? flags.db
    : defaultDatabase("serve");
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
  const limits = {
    ...DEFAULT_LIMITS,
    maxGames,
    openMs,
    gamesPerMinute,
    aiMs,
    analysisMs,
    reviewMs,
    plugins,
    keepMs: keepDays * 24 * 3_600_000,
  };
  // The database stays open for the server's life (the layer is built in its scope).
  const store = yield* Layer.build(databaseLayer(target)).pipe(
    Effect.flatMap((context) => Effect.provide(sqlRoomStore, context)),
    Effect.mapError((e) =>
      new UsageError({
        message: `cannot open the games' database ${describeDatabase(target)} (--db): ${
          e.message.split("\n")[0]
        }`,
      })
    ),
  );
  const rooms = new Rooms(
    games,
    limits,
    {
      start: (id, effect) => {
        runRoom(id, effect);
      },
      stop: (id) => {
        Effect.runFork(FiberMap.remove(roomFibers, id));
      },
    },
    Date.now,
    store,
  );
  // Stored games open when their page comes back; those of games not offered are named.
  const stored = yield* Effect.orElseSucceed(rooms.stored(), () => new Map<string, number>());
  for (const [game, n] of stored) {
    if (games.has(game) || [...games.values()].some((o) => o.specifier === game)) continue;
    console.error(
      `note: ${n} stored games of ${game} open only on a server that offers that game ` +
        "(name its plugin on the command line)",
    );
  }
  yield* Effect.forkScoped(rooms.persist());
  yield* Effect.forkScoped(
    Effect.forever(
      Effect.sleep(REAP_EVERY_MS).pipe(
        Effect.andThen(Effect.sync(() => rooms.reap())),
        Effect.andThen(rooms.purge()),
      ),
    ),
  );
  const app = makeApp(rooms, assets.files, (e) => runConnection(e) as Fiber.Fiber<void>);
  const server = yield* Effect.tryPromise({
    try: () =>
      listen(host, port, {
        request: app.handler,
        upgrade: app.upgrade,
        // Every message of at most MAX_MESSAGE characters fits (3 bytes a character at most).
        maxPayload: 3 * MAX_MESSAGE,
      }),
    catch: (e) =>
      new UsageError({
        message: `cannot listen on ${host}:${port}: ${(e as Error).message.split("\n")[0]}`,
      }),
  });
  const addr = server.addr;
  const shown = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  const total = [...stored.values()].reduce((a, b) => a + b, 0);
  const kept = total > 0 ? `; ${total} stored games (each opens where it was)` : "";
  console.log(
    `ply serves ${games.size} games at http://${shown}:${addr.port}/ (Ctrl-C stops)${kept}`,
  );
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "::1") {
    console.log(
      `warning: listening on ${host}: anyone who reaches this address can start games and ` +
        "use this machine's CPU for searches (see README, 'serve on a network')",
    );
  }
  yield* (yield* Terminal).interruption;
  yield* Effect.promise(() => server.shutdown());
  yield* Effect.promise(() => app.dispose());
  // What changed since the writer's last turn is stored before the database closes.
  const last = yield* Effect.result(rooms.flushAll());
  if (Result.isFailure(last)) console.error(`ply serve: cannot store the games: ${last.failure}`);
  rooms.shutdown();
  return 0;
}).pipe(Effect.scoped);

if (import.meta.main) runMain(main, "deno task serve");
