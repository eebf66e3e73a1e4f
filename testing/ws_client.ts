/**
 * A WebSocket client of `deno task serve` for tests (and the load bench): it keeps every
 * message the server sent and waits for one that fits — a handshake, never a sleep.
 *
 * @module
 */
import type {
  ClientMessage,
  NewGameResponse,
  NodeView,
  ServerMessage,
} from "../server/protocol.ts";

/** A `Position` message. */
export type Position = Extract<ServerMessage, { readonly _tag: "Position" }>;

/** One connection to a game. */
export interface GameClient {
  /**
   * Every message received, in order; each `Position` carries the whole tree (merged
   * from the server's changes as a page merges them).
   */
  readonly received: ServerMessage[];
  /** Sends a message (any JSON, or text as it is). */
  readonly send: (m: ClientMessage | Record<string, unknown> | string) => void;
  /**
   * Resolves with the first message from index `from` on (default: the next one to
   * come) that fits; rejects if the socket closes first.
   */
  readonly next: <T extends ServerMessage>(
    fits: (m: ServerMessage) => m is T,
    from?: number,
  ) => Promise<T>;
  /** The latest `Position` received. */
  readonly position: () => Position;
  /** Closes the socket and waits until it is closed. */
  readonly close: () => Promise<void>;
}

/** Fits a `Position` message (optionally one that satisfies `also`). */
export function isPosition(
  also: (p: Position) => boolean = () => true,
): (m: ServerMessage) => m is Position {
  return (m): m is Position => m._tag === "Position" && also(m);
}

/** Fits a message by tag. */
export function tagged<K extends ServerMessage["_tag"]>(
  tag: K,
): (m: ServerMessage) => m is Extract<ServerMessage, { readonly _tag: K }> {
  return (m): m is Extract<ServerMessage, { readonly _tag: K }> => m._tag === tag;
}

/** Starts a game with `POST /api/new` (or loads one with `/api/load`). */
export const post = async (
  base: string,
  path: "/api/new" | "/api/load",
  body: unknown,
  headers: Record<string, string> = {},
): Promise<NewGameResponse & { readonly status: number }> => {
  const r = await fetch(new URL(path, base), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { ...(await r.json()), status: r.status };
};

/** Connects to a game; resolves once its first `Position` arrived. */
export const connect = async (
  base: string,
  game: string,
  seat?: string,
): Promise<GameClient> => {
  const url = new URL(`/ws?game=${game}${seat !== undefined ? `&seat=${seat}` : ""}`, base);
  url.protocol = url.protocol.replace("http", "ws");
  const ws = new WebSocket(url);
  const received: ServerMessage[] = [];
  const waiters = new Set<() => void>();
  let closed = false;
  const closedP = new Promise<void>((resolve) => {
    ws.onclose = () => {
      closed = true;
      for (const w of waiters) w();
      resolve();
    };
  });
  // The tree as the page keeps it: Positions bring only what changed (see `full`).
  let tree: NodeView[] = [];
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data as string) as ServerMessage;
    if (m._tag === "Position") {
      if (m.full) tree = [...m.nodes];
      else for (const n of m.nodes) tree[n.id] = n;
      if (tree.length !== m.nodeCount) {
        throw new Error(`tree of ${tree.length}, not ${m.nodeCount}`);
      }
      received.push({ ...m, nodes: [...tree] });
    } else received.push(m);
    for (const w of waiters) w();
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
  });
  const next = <T extends ServerMessage>(
    fits: (m: ServerMessage) => m is T,
    from: number = received.length,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = received.slice(from).find(fits);
        if (found !== undefined) {
          waiters.delete(check);
          resolve(found);
        } else if (closed) {
          waiters.delete(check);
          reject(new Error(`the socket closed; received: ${JSON.stringify(received.at(-1))}`));
        }
      };
      waiters.add(check);
      check();
    });
  await next(isPosition(), 0);
  return {
    received,
    send: (m) => ws.send(typeof m === "string" ? m : JSON.stringify(m)),
    next,
    position: () => received.filter(isPosition()).at(-1)!,
    close: async () => {
      ws.close();
      await closedP;
    },
  };
};
