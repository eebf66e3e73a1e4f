/**
 * The web server: HTTP routes on `effect/http`'s `HttpRouter` (through
 * `HttpRouter.toWebHandler`), and one WebSocket per open game page, read and written
 * through `effect/socket`'s `Socket`; both carried by `server/transport.ts`.
 *
 * Safe by default: every body and message is decoded with the protocol's Schemas
 * (unknown fields refused, sizes bounded) and answered with an error that changes
 * nothing when it does not decode; requests that change state (`POST`, the WebSocket)
 * must come from the server's own page (their `Origin`, when a browser sends one, is the
 * server's), so another web site open in the same browser cannot drive the server.
 *
 * @module
 */
import { Effect, type Fiber, type Layer, Queue, Result, Schema } from "../core/deps.ts";
import { HttpRouter, type HttpServerRequest, HttpServerResponse, Socket } from "./deps.ts";
import type { Asset } from "../web/bundle.ts";
import {
  ClientMessage,
  LoadGameRequest,
  MAX_MESSAGE,
  NewGameRequest,
  type NewGameResponse,
  type ServerMessage,
} from "./protocol.ts";
import type { Rooms } from "./rooms.ts";
import type { Conn } from "./room_state.ts";
import { Budget } from "./budget.ts";

/** The largest request body (a transcript to load), in bytes. */
export const MAX_BODY = 4 * 1024 * 1024 + 1024;

/** The WebSocket close code for a message larger than `MAX_MESSAGE` (RFC 6455: too big). */
export const CLOSE_TOO_BIG = 1009;

/** The most messages waiting to be sent to one browser before it is disconnected. */
export const MAX_BACKLOG = 2000;

/** Headers every answer carries: no framing by other sites, no sniffing, our scripts only. */
const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'self'; img-src 'self' data:; " +
    "style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
};

const decodeStrict = <S extends Schema.Top>(schema: S) =>
  Schema.decodeUnknownResult(schema as unknown as Schema.Codec<S["Type"], unknown>, {
    onExcessProperty: "error",
    errors: "all",
  });

/** The first line of a Schema error, for a reply. */
const why = (e: Schema.SchemaError): string => e.message.split("\n").slice(0, 3).join("; ");

const json = (body: unknown, status = 200) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: SECURITY_HEADERS });

/** True when a request that changes state comes from this server's own page. */
export const sameOrigin = (request: Request | HttpServerRequest.HttpServerRequest): boolean => {
  const headers = request instanceof Request
    ? Object.fromEntries(request.headers)
    : request.headers as Record<string, string>;
  const origin = headers["origin"];
  if (origin === undefined) return true; // not a browser's cross-site request
  try {
    return new URL(origin).host === headers["host"];
  } catch {
    return false;
  }
};

/** Reads a JSON body within the size limit and decodes it; an error reply otherwise. */
const body = <A>(
  request: HttpServerRequest.HttpServerRequest,
  decode: (u: unknown) => Result.Result<A, Schema.SchemaError>,
) =>
  Effect.gen(function* () {
    if (!sameOrigin(request)) return Result.fail("requests must come from this server's page");
    const length = Number(request.headers["content-length"] ?? "0");
    if (length > MAX_BODY) return Result.fail(`the request is larger than ${MAX_BODY} bytes`);
    const text = yield* Effect.orElseSucceed(request.text, () => "");
    if (text.length > MAX_BODY) return Result.fail(`the request is larger than ${MAX_BODY} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return Result.fail("the request is not JSON");
    }
    const r = decode(parsed);
    return Result.isSuccess(r) ? Result.succeed(r.success) : Result.fail(why(r.failure));
  });

/** The answer to a new-game or load request. */
const created = (r: Result.Result<Effect.Effect<NewGameResponse>, string>) =>
  Result.isFailure(r)
    ? Effect.succeed(json({ _tag: "Refused", message: r.failure, problems: [] }, 400))
    : Effect.map(r.success, (answer) => json(answer, answer._tag === "Created" ? 200 : 400));

/** The HTTP routes. */
export const routes = (
  rooms: Rooms,
  files: ReadonlyMap<string, Asset>,
): Layer.Layer<never, never, HttpRouter.HttpRouter> => {
  const file = (path: string) => {
    const f = files.get(path)!;
    return HttpServerResponse.text(f.body, {
      contentType: f.type,
      headers: { ...SECURITY_HEADERS, "cache-control": "no-cache" },
    });
  };
  return HttpRouter.addAll([
    ...[...files.keys()].map((path) =>
      HttpRouter.route("GET", path as HttpRouter.PathInput, Effect.sync(() => file(path)))
    ),
    HttpRouter.route("GET", "/api/games", Effect.sync(() => json(rooms.entries()))),
    HttpRouter.route("GET", "/api/lobby", Effect.sync(() => json(rooms.lobby()))),
    HttpRouter.route(
      "POST",
      "/api/lobby/:id/join",
      (request) =>
        Effect.gen(function* () {
          if (!sameOrigin(request)) {
            return json(
              { _tag: "Refused", message: "requests must come from this server's page" },
              403,
            );
          }
          const params = yield* HttpRouter.params;
          const joined = rooms.joinFromLobby(params.id ?? "");
          return json(joined, joined._tag === "Joined" ? 200 : 409);
        }),
    ),
    HttpRouter.route(
      "POST",
      "/api/new",
      (request) =>
        Effect.flatMap(
          body(request, decodeStrict(NewGameRequest)),
          (r) => created(Result.map(r, (req) => rooms.create(req))),
        ),
    ),
    HttpRouter.route(
      "POST",
      "/api/load",
      (request) =>
        Effect.flatMap(
          body(request, decodeStrict(LoadGameRequest)),
          (r) => created(Result.map(r, (req) => rooms.load(req))),
        ),
    ),
    HttpRouter.route(
      "GET",
      "/api/games/:id/transcript",
      Effect.gen(function* () {
        const params = yield* HttpRouter.params;
        const t = yield* rooms.transcript(params.id ?? "");
        if (t === undefined) return json({ error: "no such game on this server" }, 404);
        return HttpServerResponse.text(JSON.stringify(t, null, 2) + "\n", {
          contentType: "application/json",
          headers: {
            ...SECURITY_HEADERS,
            "content-disposition": `attachment; filename="ply-${t.game}-${params.id}.json"`,
          },
        });
      }),
    ),
  ]);
};

/**
 * One browser's connection to a game: messages in, decoded and handled by the room;
 * messages out, in order, through a queue. Ends when the socket closes; the room then
 * forgets the browser.
 */
export const connection = (
  rooms: Rooms,
  url: URL,
  ws: WebSocket,
): Effect.Effect<void> =>
  Effect.scoped(Effect.gen(function* () {
    const socket = yield* Socket.fromWebSocket(
      Effect.acquireRelease(Effect.succeed(ws), (w) => Effect.sync(() => w.close())),
    );
    const writer = yield* socket.writer;
    const reader = yield* socket.reader;
    const out = yield* Queue.unbounded<string>();
    // A browser that does not read its messages is dropped (it reconnects to a fresh
    // position) rather than let them pile up in the server.
    const sayText = (text: string) => {
      if (Queue.sizeUnsafe(out) >= MAX_BACKLOG) ws.close(1008, "too many unread messages");
      else Queue.offerUnsafe(out, text);
    };
    const say = (m: ServerMessage) => sayText(JSON.stringify(m));
    yield* Effect.forkScoped(
      Effect.forever(Effect.flatMap(Queue.take(out), (text) => writer.write(text))),
    );
    const found = yield* rooms.find(url.searchParams.get("game") ?? "");
    if (Result.isFailure(found)) {
      say({ _tag: "Error", message: found.failure });
      yield* Effect.yieldNow;
      return;
    }
    const room = found.success;
    const seatToken = url.searchParams.get("seat");
    const seat = room.seat(seatToken);
    if (seatToken !== null && seatToken !== "" && seat === undefined) {
      say({ _tag: "Error", message: "this link's seat is not in the game; you are watching" });
    }
    const conn: Conn = { seat, send: say, sendText: sayText };
    const decode = decodeStrict(ClientMessage);
    room.join(conn);
    yield* Effect.gen(function* () {
      while (true) {
        for (const frame of yield* reader.pull) {
          // The transport refuses a frame over 3 bytes a character before reading it
          // (server/transport.ts); one over the limit in characters closes the socket
          // here (1009), so a client cannot keep sending them on one connection.
          const size = typeof frame === "string" ? frame.length : frame.byteLength;
          if (size > MAX_MESSAGE) {
            ws.close(CLOSE_TOO_BIG, `a message may have at most ${MAX_MESSAGE} characters`);
            return;
          }
          if (typeof frame !== "string") {
            say({ _tag: "Error", message: "messages are JSON text" });
            continue;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(frame);
          } catch {
            say({ _tag: "Error", message: "a message is not JSON" });
            continue;
          }
          const m = decode(parsed);
          if (Result.isFailure(m)) say({ _tag: "Error", message: why(m.failure) });
          else room.handle(conn, m.success);
        }
      }
    }).pipe(
      Effect.ensuring(Effect.sync(() => room.leave(conn))),
    );
  })).pipe(Effect.catchCause(() => Effect.void));

/** What `serve` needs to answer requests: the HTTP handler and the WebSocket upgrade. */
export interface App {
  /** Answers one request (`info` names the client's address). */
  readonly handler: (
    request: Request,
    info?: { readonly remoteAddr: Deno.Addr },
  ) => Promise<Response> | Response;
  /**
   * Decides on a WebSocket asked for: a refusal (another path, another site's page), or
   * what to do with the open socket (a game's connection, run by `runFork`).
   */
  readonly upgrade: (request: Request) => Response | ((socket: WebSocket) => void);
  /** Stops the HTTP layer. */
  readonly dispose: () => Promise<void>;
}

/** The client's address, as the budget of new games counts it. */
const clientOf = (info: { readonly remoteAddr: Deno.Addr } | undefined): string => {
  const a = info?.remoteAddr;
  return a !== undefined && "hostname" in a ? a.hostname : "local";
};

/**
 * The request handler: `/ws` upgrades to a game's WebSocket (run by `runFork`), every
 * other path goes to the routes; starting or loading a game spends the client's budget
 * (`rooms.limits.gamesPerMinute`), answered 429 when it is spent. `now` is the clock.
 */
export const makeApp = (
  rooms: Rooms,
  files: ReadonlyMap<string, Asset>,
  runFork: (effect: Effect.Effect<void>) => Fiber.Fiber<void>,
  now: () => number = Date.now,
): App => {
  const web = HttpRouter.toWebHandler(routes(rooms, files), { disableLogger: true });
  const budget = new Budget(rooms.limits.gamesPerMinute, now);
  return {
    handler: (request, info) => {
      const url = new URL(request.url);
      if (
        request.method === "POST" && (url.pathname === "/api/new" || url.pathname === "/api/load")
      ) {
        const wait = budget.spend(clientOf(info));
        if (wait !== undefined) {
          const message = `too many new games from your address: at most ${budget.perMinute} ` +
            `a minute on this server (serve --games-per-minute); try again in ${wait} s`;
          return Response.json({ _tag: "Refused", message, problems: [] }, {
            status: 429,
            headers: { ...SECURITY_HEADERS, "retry-after": String(wait) },
          });
        }
      }
      if (url.pathname !== "/ws") return web.handler(request);
      return new Response("a WebSocket is expected here\n", { status: 400 });
    },
    upgrade: (request) => {
      const url = new URL(request.url);
      if (url.pathname !== "/ws") return new Response("no WebSocket here\n", { status: 404 });
      if (!sameOrigin(request)) {
        return new Response("WebSockets must come from this server's page\n", { status: 403 });
      }
      return (socket) => void runFork(connection(rooms, url, socket));
    },
    dispose: web.dispose,
  };
};
