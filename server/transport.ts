/**
 * The web server's transport: HTTP/1.1 on `node:http`, its WebSockets by `ws` (npm), so that
 * a frame over the limit is refused from its header, before its payload is read: `ws`
 * checks a frame's announced length against `maxPayload` and closes the socket with 1009
 * (too big). `Deno.serve` with `Deno.upgradeWebSocket` has no such limit: it read every
 * frame whole (up to 64 MiB) before the server could look at its size, so a client could
 * make the server hold 60 MB per socket (issue 63). `ws` earns its place there; the rest of
 * the server sees only Web `Request`s and `Response`s, and WebSockets through
 * `effect/socket` (which knows `ws`'s sockets, and pauses one whose messages wait).
 *
 * @module
 */
import http from "node:http";
import type { Duplex } from "node:stream";
import { Readable } from "node:stream";
import { WebSocketServer } from "./deps.ts";

/** How often every WebSocket is pinged; one that has not answered the last ping is closed. */
export const PING_EVERY_MS = 30_000;

/** The client's address, as `Deno.serve` gave it. */
export interface ClientInfo {
  /** Where the request came from. */
  readonly remoteAddr: Deno.NetAddr;
}

/** What the transport hands requests to. */
export interface TransportHandlers {
  /** Answers one HTTP request. */
  readonly request: (request: Request, info: ClientInfo) => Promise<Response> | Response;
  /**
   * Decides on a WebSocket asked for at `request`: a `Response` refuses it (sent as the
   * answer), a function accepts it and is given the open socket.
   */
  readonly upgrade: (request: Request) => Response | ((socket: WebSocket) => void);
  /** The largest frame (and message) a WebSocket may send, in bytes. */
  readonly maxPayload: number;
}

/** A listening server. */
export interface Transport {
  /** Where it listens. */
  readonly addr: { readonly hostname: string; readonly port: number };
  /** Stops listening and closes every connection, WebSockets included. */
  readonly shutdown: () => Promise<void>;
}

/** The request's headers as a Web `Headers`. */
const headersOf = (req: http.IncomingMessage): Headers => {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  return headers;
};

/** The Web `Request` of a Node request (its body streamed, for the methods that have one). */
const requestOf = (req: http.IncomingMessage, origin: string): Request => {
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD"
    ? undefined
    : Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers: headersOf(req),
    ...(body !== undefined ? { body, duplex: "half" } : {}),
  } as RequestInit);
};

/** Writes a Web `Response` to a Node response, its body streamed. */
const respond = async (res: http.ServerResponse, response: Response): Promise<void> => {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  res.writeHead(response.status, headers.flat());
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
};

/** The client's address of a Node socket. */
const infoOf = (socket: { remoteAddress?: string; remotePort?: number }): ClientInfo => ({
  remoteAddr: {
    transport: "tcp",
    hostname: socket.remoteAddress ?? "local",
    port: socket.remotePort ?? 0,
  },
});

/** Writes a refusal on a socket asking to upgrade, then closes it. */
const refuse = async (socket: Duplex, response: Response): Promise<void> => {
  const text = await response.text();
  socket.end(
    `HTTP/1.1 ${response.status} ${http.STATUS_CODES[response.status] ?? ""}\r\n` +
      `content-type: text/plain; charset=utf-8\r\ncontent-length: ${
        new TextEncoder().encode(text).length
      }\r\nconnection: close\r\n\r\n${text}`,
  );
};

/**
 * Listens on `hostname:port` (0: any free port) and serves `handlers`; fails with the
 * system's reason when it cannot listen (the port taken, an address not this machine's).
 */
export const listen = (
  hostname: string,
  port: number,
  handlers: TransportHandlers,
): Promise<Transport> => {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: handlers.maxPayload });
  // A socket whose other end is gone (a sleeping laptop, a dropped network) is found by
  // pings: one unanswered between two rounds ends it, as Deno.upgradeWebSocket's
  // idleTimeout did.
  const answered = new WeakSet<object>();
  const pings = setInterval(() => {
    for (const ws of sockets.clients) {
      if (!answered.has(ws)) {
        ws.terminate();
        continue;
      }
      answered.delete(ws);
      ws.ping();
    }
  }, PING_EVERY_MS);
  Deno.unrefTimer(pings);
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  const server = http.createServer((req, res) => {
    const done = (async () =>
      respond(
        res,
        await handlers.request(requestOf(req, `http://${shown}`), infoOf(req.socket)),
      ))();
    done.catch(() => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "text/plain" });
      }
      res.end("internal error\n");
    });
  });
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Uint8Array) => {
    socket.on("error", () => socket.destroy());
    const decided = handlers.upgrade(requestOf(req, `http://${shown}`));
    if (decided instanceof Response) {
      refuse(socket, decided).catch(() => socket.destroy());
      return;
    }
    sockets.handleUpgrade(
      req,
      socket,
      head,
      (ws: WebSocket & { on: (e: string, f: () => void) => void }) => {
        // A frame over the limit is an error of the socket (after its 1009 close): ended here.
        ws.on("error", () => {});
        answered.add(ws);
        ws.on("pong", () => answered.add(ws));
        decided(ws);
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      const a = server.address();
      const addr = typeof a === "object" && a !== null
        ? { hostname: a.address, port: a.port }
        : { hostname, port };
      resolve({
        addr,
        shutdown: () =>
          new Promise<void>((done) => {
            clearInterval(pings);
            for (const ws of sockets.clients) ws.terminate();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
};
