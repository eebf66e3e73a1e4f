/// <reference lib="dom" />
/**
 * The page's HTTP calls: the games offered, a new game, a loaded transcript.
 *
 * @module
 */
import type {
  GameEntry,
  JoinResponse,
  LoadGameRequest,
  Lobby,
  NewGameRequest,
  NewGameResponse,
} from "../server/protocol.ts";

/** `GET /api/games`: the games the server offers. */
export const fetchGames = async (): Promise<readonly GameEntry[]> => {
  const r = await fetch("/api/games");
  if (!r.ok) throw new Error(`the list of games: ${r.status} ${r.statusText}`);
  return await r.json() as GameEntry[];
};

/** Posts JSON and reads the answer; an answer that is not a `NewGameResponse` is a refusal. */
const post = async (path: string, body: unknown): Promise<NewGameResponse> => {
  let r: Response;
  try {
    r = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    return {
      _tag: "Refused",
      message: `the server cannot be reached (${e})`,
      problems: [],
    };
  }
  const text = await r.text();
  try {
    const answer = JSON.parse(text) as NewGameResponse;
    if (answer._tag === "Created" || answer._tag === "Refused") return answer;
  } catch {
    // not JSON: said below
  }
  return {
    _tag: "Refused",
    message: `${r.status} ${r.statusText}${text === "" ? "" : `: ${text.slice(0, 300)}`}`,
    problems: [],
  };
};

/** `POST /api/new`. */
export const newGame = (request: NewGameRequest): Promise<NewGameResponse> =>
  post("/api/new", request);

/** `POST /api/load`. */
export const loadGame = (request: LoadGameRequest): Promise<NewGameResponse> =>
  post("/api/load", request);

/** `GET /api/lobby`: the games waiting for an opponent and the games to watch. */
export const fetchLobby = async (): Promise<Lobby> => {
  const r = await fetch("/api/lobby");
  if (!r.ok) throw new Error(`the lobby: ${r.status} ${r.statusText}`);
  return await r.json() as Lobby;
};

/** `POST /api/lobby/ID/join`: the free side of a waiting game, or why not. */
export const joinGame = async (game: string): Promise<JoinResponse> => {
  try {
    const r = await fetch(`/api/lobby/${encodeURIComponent(game)}/join`, { method: "POST" });
    const answer = await r.json() as JoinResponse;
    if (answer._tag === "Joined" || answer._tag === "Refused") return answer;
    return { _tag: "Refused", message: `${r.status} ${r.statusText}` };
  } catch (e) {
    return { _tag: "Refused", message: `the server cannot be reached (${e})` };
  }
};

/** The page of a game: `/?game=ID&seat=TOKEN` (no seat for a spectator). */
export const gameUrl = (game: string, seat: string): string => {
  const q = new URLSearchParams({ game });
  if (seat !== "") q.set("seat", seat);
  return `/?${q}`;
};

/** Where the invite link of a new game is kept until its page shows it. */
export const inviteKey = (game: string): string => `ply-invite-${game}`;

/** Remembers a new game's invite for its page (this tab only). */
export const keepInvite = (game: string, invite: string | undefined): void => {
  if (invite === undefined || invite === "") return;
  try {
    sessionStorage.setItem(inviteKey(game), invite);
  } catch {
    // storage off: the invite is not shown again
  }
};

/** The invite kept for `game`, as a full URL, if any. */
export const keptInvite = (game: string): string | undefined => {
  try {
    const i = sessionStorage.getItem(inviteKey(game));
    return i === null ? undefined : new URL(i, location.href).href;
  } catch {
    return undefined;
  }
};

/**
 * Loads a transcript file: posts its text, then opens the game (or returns the refusal's
 * message).
 */
export const loadFile = async (file: File): Promise<string | undefined> =>
  await loadText(await file.text());

/** Loads a transcript's JSON text, then opens the game (or returns the refusal's message). */
export const loadText = async (transcript: string): Promise<string | undefined> => {
  const answer = await loadGame({ transcript });
  if (answer._tag === "Refused") return answer.message;
  keepInvite(answer.game, answer.invite);
  location.assign(gameUrl(answer.game, answer.seat));
  return undefined;
};
