/// <reference lib="dom" />
/**
 * The game's WebSocket: JSON messages both ways, reconnecting with backoff when it drops.
 *
 * @module
 */
import type { ClientMessage, ServerMessage } from "../server/protocol.ts";

/** The connection's state, for the page to show. */
export type Link =
  /** Connecting (the first time, or again after a drop). */
  | { readonly state: "connecting" }
  /** Open. */
  | { readonly state: "open" }
  /** Dropped; the next try is in `ms`. */
  | { readonly state: "lost"; readonly ms: number }
  /** Given up: the server refused the game (`message`). */
  | { readonly state: "closed"; readonly message: string };

/** What the page does with the socket's news. */
export interface SocketHandlers {
  /** A message from the server. */
  readonly message: (m: ServerMessage) => void;
  /** The connection's state changed. */
  readonly link: (l: Link) => void;
}

/** The page's end of the game's socket. */
export interface GameSocket {
  /** Sends a message (dropped, returning false, while the socket is not open). */
  readonly send: (m: ClientMessage) => boolean;
  /** Closes for good. */
  readonly close: () => void;
}

/** The first wait before reconnecting, doubled after each failed try up to `MAX_BACKOFF_MS`. */
export const FIRST_BACKOFF_MS = 500;
/** The longest wait between two tries. */
export const MAX_BACKOFF_MS = 8000;

/** The socket's URL for a page at `location` (ws: or wss: as the page's scheme). */
export const socketUrl = (
  location: Location,
  game: string,
  seat: string,
): string => {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams({ game });
  if (seat !== "") q.set("seat", seat);
  return `${scheme}//${location.host}/ws?${q}`;
};

/**
 * Opens the game's socket and keeps it open: after a drop it tries again after
 * `FIRST_BACKOFF_MS`, doubling up to `MAX_BACKOFF_MS` (reset by a message received).
 * A socket that closes after an `Error` and before any `Position` (the server refused
 * the game or the seat) is not tried again.
 */
export const openSocket = (url: string, on: SocketHandlers): GameSocket => {
  let ws: WebSocket | undefined;
  let backoff = FIRST_BACKOFF_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const connect = (): void => {
    on.link({ state: "connecting" });
    const socket = new WebSocket(url);
    ws = socket;
    let positioned = false;
    let refusal: string | undefined;
    socket.onopen = () => on.link({ state: "open" });
    socket.onmessage = (e: MessageEvent) => {
      let m: ServerMessage;
      try {
        m = JSON.parse(String(e.data)) as ServerMessage;
      } catch {
        return;
      }
      if (m._tag === "Position") {
        positioned = true;
        refusal = undefined;
        backoff = FIRST_BACKOFF_MS;
      } else if (m._tag === "Error" && !positioned) {
        refusal = m.message;
      }
      on.message(m);
    };
    socket.onclose = () => {
      if (ws !== socket || closed) return;
      ws = undefined;
      if (refusal !== undefined) {
        closed = true;
        on.link({ state: "closed", message: refusal });
        return;
      }
      const wait = backoff;
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      on.link({ state: "lost", ms: wait });
      timer = setTimeout(connect, wait);
    };
  };

  connect();
  return {
    send: (m) => {
      if (ws === undefined || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(m));
      return true;
    },
    close: () => {
      closed = true;
      clearTimeout(timer);
      ws?.close();
    },
  };
};
