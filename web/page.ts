/// <reference lib="dom" />
/**
 * The page's entry (bundled at server start by `web/bundle.ts`): `/?game=ID&seat=TOKEN`
 * opens that game's view, `/` the new-game form (`/?new=GAME` with that game chosen).
 * Loading a transcript (`#load-file`) works from both.
 *
 * @module
 */
import { fetchGames, loadFile } from "./api.ts";
import { byId, setText, show } from "./dom.ts";
import { newGameForm } from "./form.ts";
import { gameView } from "./game.ts";
import { showLobby } from "./lobby.ts";

const main = (): void => {
  const q = new URLSearchParams(location.search);
  const game = q.get("game");
  const games = fetchGames();
  const loader = byId<HTMLInputElement>("load-file");
  const problem = (text: string): void => {
    setText(byId(game === null ? "form-error" : "message"), text);
  };
  loader.addEventListener("change", async () => {
    const file = loader.files?.[0];
    if (file === undefined) return;
    const refused = await loadFile(file);
    loader.value = "";
    if (refused !== undefined) {
      problem(`the transcript was not loaded: ${refused}`);
    }
  });
  if (game === null) {
    show(byId("form-view"), true);
    showLobby();
    games.then((list) => {
      newGameForm(list, q.get("new") ?? undefined);
      document.body.dataset.ready = "1";
    }).catch((e) => problem(`the list of games could not be had: ${e}`));
    return;
  }
  show(byId("game-view"), true);
  const at = q.get("at");
  const node = at === null ? undefined : Number(at);
  gameView({
    game,
    seat: q.get("seat") ?? "",
    at: node !== undefined && Number.isInteger(node) && node >= 0 ? node : undefined,
  }, games);
};

// Only in a browser (tests import the stripped modules under Deno to link them).
if (typeof document !== "undefined") main();
