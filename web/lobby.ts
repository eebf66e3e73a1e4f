/// <reference lib="dom" />
/**
 * The lobby on the start page: the games waiting for an opponent (game, options, clock,
 * the side the joiner plays), each joined with one click, and the games being played,
 * each watched with one click. It is read again every few seconds while the page shows it.
 *
 * @module
 */
import type { Lobby, LobbyGame, WatchGame } from "../server/protocol.ts";
import { fetchLobby, gameUrl, joinGame } from "./api.ts";
import { byId, h, setText, show } from "./dom.ts";

/** How often the lobby is read again while the page is visible (ms). */
const REFRESH_MS = 3000;

/** A game's options as a line: `pits 6, stones 4`. */
const optionsText = (options: Readonly<Record<string, unknown>>): string =>
  Object.entries(options)
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(",") : String(v)}`)
    .join(", ");

const waitingItem = (g: LobbyGame): HTMLElement => {
  const join = h("button", { type: "button", class: "join", "data-game": g.game }, "join");
  join.addEventListener("click", async () => {
    join.disabled = true;
    const answer = await joinGame(g.game);
    if (answer._tag === "Joined") {
      location.assign(gameUrl(answer.game, answer.seat));
      return;
    }
    setText(byId("lobby-error"), answer.message);
    void refresh();
  });
  const options = optionsText(g.options);
  return h(
    "li",
    { "data-game": g.game },
    h("b", {}, g.name),
    options === "" ? "" : ` (${options})`,
    g.clock !== undefined ? `, clock ${g.clock}` : "",
    `: play ${g.side} against ${g.host} `,
    join,
  );
};

const watchItem = (g: WatchGame): HTMLElement =>
  h(
    "li",
    { "data-game": g.game },
    h("a", { href: gameUrl(g.game, ""), class: "watch" }, g.name),
    ` ${g.sides[0]} (${g.players[0]}) vs ${g.sides[1]} (${g.players[1]}), ` +
      `${g.moves} ${g.moves === 1 ? "move" : "moves"}` +
      (g.clock !== undefined ? `, clock ${g.clock}` : "") +
      (g.watchers > 1 ? `, ${g.watchers} watching` : ""),
  );

const draw = (lobby: Lobby): void => {
  byId("lobby-waiting").replaceChildren(...lobby.waiting.map(waitingItem));
  byId("lobby-watching").replaceChildren(...lobby.watching.map(watchItem));
  show(byId("lobby-none"), lobby.waiting.length === 0);
  show(byId("lobby-quiet"), lobby.watching.length === 0);
  document.body.dataset.lobby = String(Number(document.body.dataset.lobby ?? "0") + 1);
};

const refresh = async (): Promise<void> => {
  try {
    draw(await fetchLobby());
  } catch (e) {
    setText(byId("lobby-error"), `the lobby could not be read: ${e}`);
  }
};

/** Shows the lobby and keeps it up to date while the page is visible. */
export const showLobby = (): void => {
  void refresh();
  setInterval(() => {
    if (document.visibilityState === "visible") void refresh();
  }, REFRESH_MS);
};
