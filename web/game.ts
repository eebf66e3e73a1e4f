/// <reference lib="dom" />
/**
 * The game view: one game's socket, and everything drawn from its messages (board,
 * moves, search, status, controls), with the handshake attributes tests wait on
 * (`body[data-ready]`, `data-node`, `data-thinking`, `data-result`, `data-analysis`,
 * `data-view`: the earlier position shown on this board only, `data-takeback`).
 *
 * In a game between people (`live`), and for a spectator, stepping through the moves is
 * local: the page asks for the picture of a node (`Peek`) and shows it, and the game
 * goes on unchanged; a new move brings the board back to the game.
 *
 * @module
 */
import type { ClientMessage, GameEntry, NodeView, ServerMessage } from "../server/protocol.ts";
import { keptInvite, loadText } from "./api.ts";
import { board } from "./board.ts";
import { byId, h, setText, show } from "./dom.ts";
import { playerOf, type Position, sideName, statusText } from "./format.ts";
import { drawMoves, type Movers, onJump } from "./moves.ts";
import { reviewPanel } from "./review.ts";
import { foldButtons } from "./fold.ts";
import { mergeNodes, settle, stepBack, stepForward } from "./tree.ts";
import { KEY_PREFIX, keysOf, nextTokens, pick, targetVerdicts, type Verdict } from "./picks.ts";
import { drawBar, drawSearch, idleSearch } from "./search.ts";
import { type Link, openSocket, socketUrl } from "./socket.ts";
import { transcriptOfTree } from "./transcript.ts";
import { clocks } from "./clock.ts";

type Analysis = Extract<ServerMessage, { readonly _tag: "Analysis" }>;
type View = Extract<ServerMessage, { readonly _tag: "View" }>;

/** Where the game is: its id, this browser's seat, and the node in the URL (if any). */
export interface GameRoute {
  /** The game's id on the server. */
  readonly game: string;
  /** The seat token ("" for a spectator). */
  readonly seat: string;
  /** The node the URL names (`at`), restored once on load. */
  readonly at: number | undefined;
}

/** The URL of this page with `at` set to `node`. */
const urlAt = (node: number): string => {
  const u = new URL(location.href);
  u.searchParams.set("at", String(node));
  return u.pathname + u.search + u.hash;
};

/** True when a key pressed in `target` is typing, not a command. */
const typing = (target: EventTarget | null): boolean =>
  target instanceof HTMLTextAreaElement ||
  target instanceof HTMLSelectElement ||
  (target instanceof HTMLInputElement &&
    !["checkbox", "radio", "button", "submit", "file"].includes(target.type));

/** Opens the game view for `route`; `games` is the server's list (for names and rules). */
export const gameView = (
  route: GameRoute,
  games: Promise<readonly GameEntry[]>,
): void => {
  const body = document.body;
  body.dataset.thinking = "";
  body.dataset.result = "";
  body.dataset.view = "";
  body.dataset.takeback = "";
  let pos: Position | undefined;
  let entry: GameEntry | undefined;
  let list: readonly GameEntry[] | undefined;
  let prefix: readonly string[] = [];
  let analysis: Analysis | undefined;
  /** The earlier position shown on this board only (local browsing), if any. */
  let viewing: View | undefined;
  let wantAt = route.at;
  const keys = new Set<string>();
  let arrows = false;
  let searched = false;
  /** The session's tree as the Positions so far give it (they send what changed). */
  let tree: NodeView[] = [];

  const message = (text: string): void => setText(byId("message"), text);

  const send = (m: ClientMessage): void => {
    if (!socket.send(m)) {
      message("not connected: wait for the connection to come back");
    }
  };

  const names = (): readonly string[] | undefined => entry?.players;
  const movers = (): Movers => ({ names: names(), solo: entry?.solo === true });

  const verdicts = (): ReadonlyMap<number, Verdict> =>
    new Map(
      pos !== undefined && analysis?.node === pos.current
        ? (analysis.verdicts ?? []).map((v) => [v.move, v.verdict])
        : [],
    );

  const markBoard = (): void => {
    if (pos === undefined) return;
    const legal = pos.legal;
    the.mark(
      nextTokens(legal, prefix),
      prefix,
      targetVerdicts(legal, prefix, verdicts()),
    );
    setText(
      byId("pick-hint"),
      prefix.length === 0 ? "" : `picked ${prefix.join(", ")}: pick on, or Esc to start again`,
    );
  };

  const pickToken = (token: string): void => {
    if (pos === undefined || pos.legal.length === 0) return;
    const outcome = pick(pos.legal, prefix, token);
    if (outcome.kind === "move") {
      prefix = [];
      send({ _tag: "Move", at: pos.current, move: outcome.move });
    } else if (outcome.kind === "prefix") {
      prefix = outcome.prefix;
      message("");
    } else {
      send({ _tag: "Explain", at: pos.current, picks: [...outcome.picks] });
    }
    markBoard();
  };

  /** Shows node `node`, as a click on the move list or the review's graph asks. */
  const jumpTo = (node: number): void => {
    if (pos !== undefined && node !== shown()) {
      goTo(local(pos) ? node : settle(pos.nodes, node));
    }
  };
  const review = reviewPanel({ jump: jumpTo });

  const the = board(byId("board"), {
    pick: (token) => pickToken(token),
    swipe: (key) => pickToken(KEY_PREFIX + key),
  });

  /** True when stepping through the moves only changes this board (see the module doc). */
  const local = (p: Position): boolean => p.live || !p.control;
  /** The node this board shows. */
  const shown = (): number | undefined => viewing?.node ?? pos?.current;

  const goTo = (node: number | undefined): void => {
    if (node === undefined || node < 0 || pos === undefined) return;
    if (!local(pos)) send({ _tag: "GoTo", node });
    else if (node === pos.current) leaveView();
    else send({ _tag: "Peek", node });
  };
  const back = (): void => {
    const at = shown();
    goTo(pos && at !== undefined ? stepBack(pos.nodes, at) : undefined);
  };
  const forward = (): void => {
    const at = shown();
    goTo(pos && at !== undefined ? stepForward(pos.nodes, at) : undefined);
  };

  /** Shows an earlier position on this board only. */
  const drawView = (p: Position, v: View): void => {
    the.draw(v.svg, v.text);
    the.mark(new Set(), [], new Map());
    show(byId("to-play"), false);
    drawMoves(byId("moves"), p.nodes, v.node, movers());
    setText(byId("viewing-text"), `you are looking at an earlier position (move ${v.node})`);
    show(byId("viewing"), true);
    drawControls(p);
    body.dataset.view = String(v.node);
    drawReview(p);
  };

  /** The review panel under the board, for the node this board shows. */
  const drawReview = (p: Position): void =>
    review.draw(
      p,
      shown() ?? p.current,
      [sideName(names(), 0), sideName(names(), 1)],
      entry?.solo === true,
    );

  /** Back to the game's position. */
  const leaveView = (): void => {
    viewing = undefined;
    show(byId("viewing"), false);
    body.dataset.view = "";
    if (pos !== undefined) onPosition(pos);
  };

  const drawButtons = (p: Position): void => {
    const box = byId("move-buttons");
    const v = verdicts();
    box.replaceChildren(
      ...p.legal.map((m) =>
        h("button", {
          type: "button",
          "data-move": m.move,
          class: v.get(m.move),
          title: v.has(m.move) ? `${m.notation}: ${v.get(m.move)}` : undefined,
        }, m.notation)
      ),
    );
    show(byId("to-play"), p.legal.length > 0);
    foldButtons(p.legal.length, p.svg !== undefined);
    show(byId("verdict-legend"), p.legal.some((m) => v.has(m.move)));
  };

  /** The clocks beside the players' names, ticking (a clocked game). */
  const ticking = clocks(byId("players"));

  const drawPlayers = (p: Position): void => {
    const sides: (0 | 1)[] = entry?.solo === true ? [0] : [0, 1];
    byId("players").replaceChildren(
      ...sides.map((s) =>
        h(
          "div",
          {
            class: `player${p.toMove === s ? " to-move" : ""}${
              p.thinking === s ? " thinking" : ""
            }`,
            "data-side": s,
          },
          h("b", {}, sideName(names(), s)),
          " ",
          playerOf(p, s),
          p.clock !== undefined ? h("span", { class: "clock", "data-clock": s }) : "",
        )
      ),
      p.clock !== undefined ? h("div", { class: "clock-control" }, `clock: ${p.clock.text}`) : "",
      entry?.solo === true ? h("div", { class: "player" }, h("b", {}, "chance"), " the tiles") : "",
      p.watchers > 1 ? h("div", { class: "watchers" }, `${p.watchers} watching`) : "",
    );
  };

  const drawControls = (p: Position): void => {
    const disable = (id: string, off: boolean): void => {
      byId<HTMLButtonElement>(id).disabled = off;
    };
    const at = viewing?.node ?? p.current;
    disable("back", stepBack(p.nodes, at) === undefined);
    disable("forward", stepForward(p.nodes, at) === undefined);
    const player = p.mine[0] || p.mine[1];
    const undo = byId<HTMLButtonElement>("undo");
    setText(undo, p.live ? "ask to take back" : "undo");
    undo.disabled = p.live ? !player || p.takeback !== undefined : !p.control;
    show(byId("redo"), !p.live);
    disable("redo", !p.control);
    byId<HTMLInputElement>("analyse").disabled = !p.control;
    show(byId("live-hint"), p.live);
    drawTakeback(p);
    show(byId("stop"), p.thinking !== null && p.control);
    show(byId("move-now"), p.thinking !== null && p.control);
    show(byId("resume"), p.paused && p.control);
    show(byId("ai-pause"), p.pause);
    const speed = byId<HTMLInputElement>("speed");
    speed.disabled = !p.control;
    if (document.activeElement !== speed) speed.value = String(p.speed);
    setText(byId("speed-out"), `${p.speed} ms`);
    byId<HTMLInputElement>("analyse").checked = p.analysing;
    byId<HTMLElement>("keys-hint").textContent = arrows
      ? "arrow keys and swipes play; [ and ] step back and forward"
      : p.svg === undefined
      ? "← → step back and forward"
      : "← → step back and forward; Esc clears the picks";
  };

  /** A takeback request waiting: who asked, and the answer buttons for the other player. */
  const drawTakeback = (p: Position): void => {
    const asker = p.takeback;
    body.dataset.takeback = asker === undefined ? "" : String(asker);
    show(byId("takeback"), asker !== undefined);
    if (asker === undefined) return;
    const answers = !p.mine[asker] && (p.mine[0] || p.mine[1]);
    setText(
      byId("takeback-text"),
      p.mine[asker]
        ? "you asked to take back your move; waiting for the answer"
        : `${sideName(names(), asker)} asks to take back their move`,
    );
    show(byId("takeback-accept"), answers);
    show(byId("takeback-decline"), answers);
  };

  /** Names the game once both its list entry and its first position are here. */
  const nameGame = (): void => {
    if (entry !== undefined || list === undefined || pos === undefined) return;
    entry = list.find((g) => g.id === pos?.kind);
    if (entry === undefined) return;
    document.title = `${entry.name} · ply`;
    setText(byId("game-name"), entry.name);
    setText(byId("rules-text"), entry.rules);
    show(byId("rules"), entry.rules !== "");
    byId<HTMLAnchorElement>("save").download = `ply-${entry.id}-${route.game}.json`;
  };

  const onPosition = (sent: Position): void => {
    tree = mergeNodes(tree, sent.nodes, sent.full, sent.nodeCount);
    const p: Position = { ...sent, nodes: tree };
    const first = pos === undefined;
    if (pos === undefined || pos.current !== p.current || pos.nodeCount !== p.nodeCount) {
      viewing = undefined;
      show(byId("viewing"), false);
      body.dataset.view = "";
    }
    if (pos === undefined || pos.current !== p.current) {
      prefix = [];
      if (!first) message("");
      byId<HTMLInputElement>("notation").value = "";
    }
    pos = p;
    nameGame();
    if (analysis !== undefined && analysis.node !== p.current) {
      analysis = undefined;
    }
    for (const k of keysOf(p.legal)) {
      keys.add(k);
      if (k.startsWith("Arrow")) arrows = true;
    }
    the.swipes(arrows);
    the.draw(p.svg, p.text);
    the.decide(p.decisive ?? []);
    markBoard();
    drawButtons(p);
    drawMoves(byId("moves"), p.nodes, p.current, movers());
    setText(byId("status"), statusText(p, names()));
    byId("status").classList.toggle("over", p.result !== undefined);
    drawPlayers(p);
    ticking.set(p.clock);
    drawControls(p);
    if (p.thinking === null && analysis === undefined) idleSearch();
    if (!searched) drawBar(mover(), 0);
    if (p.lastNote !== undefined) setText(byId("last-note"), p.lastNote);
    else setText(byId("last-note"), "");

    const restore = first && wantAt !== undefined && wantAt !== p.current &&
      p.control &&
      p.nodes[wantAt] !== undefined;
    if (restore && wantAt !== undefined) goTo(settle(p.nodes, wantAt));
    else history.replaceState(null, "", urlAt(p.current));
    wantAt = undefined;

    if (viewing !== undefined) drawView(p, viewing);
    else drawReview(p);
    body.dataset.node = String(p.current);
    body.dataset.thinking = p.thinking === null ? "" : String(p.thinking);
    body.dataset.result = p.result?.reason ?? "";
    body.dataset.ready = "1";
  };

  const mover = (): string => {
    const side = pos?.toMove === 1 ? 1 : 0;
    return sideName(names(), side);
  };

  const onMessage = (m: ServerMessage): void => {
    switch (m._tag) {
      case "Position":
        return onPosition(m);
      case "Progress": {
        const who = sideName(names(), m.side);
        drawSearch(
          `${who}'s AI (${pos?.players[m.side] ?? "AI"})`,
          who,
          m.search,
        );
        searched = true;
        return;
      }
      case "Analysis": {
        if (pos !== undefined && m.node !== pos.current) return;
        analysis = m;
        drawSearch("analysis", mover(), m.search);
        searched = true;
        markBoard();
        if (pos !== undefined) drawButtons(pos);
        body.dataset.analysis = String(m.node);
        return;
      }
      case "View": {
        if (pos === undefined) return;
        if (m.node === pos.current) return leaveView();
        viewing = m;
        drawView(pos, m);
        return;
      }
      case "Refused": {
        message(m.reason);
        const last = m.picks?.[m.picks.length - 1];
        if (last !== undefined) the.flash(last);
        return;
      }
      case "Error":
        message(m.message);
        return;
    }
  };

  const onLink = (l: Link): void => {
    const banner = byId("connection");
    body.dataset.link = l.state;
    if (l.state === "open") {
      show(banner, false);
      return;
    }
    if (l.state === "connecting") {
      if (pos !== undefined) setText(banner, "connection lost: reconnecting…");
      show(banner, pos !== undefined);
      return;
    }
    if (l.state === "closed" && pos !== undefined) {
      show(banner, false);
      return gone(pos, l.message);
    }
    setText(
      banner,
      l.state === "lost"
        ? `connection lost: trying again in ${Math.ceil(l.ms / 1000)} s`
        : `the server refused this game: ${l.message}`,
    );
    show(banner, true);
  };

  /**
   * The server no longer has the game this page showed (closed, or a server that lost
   * it): the page offers the moves it holds, to save and to play on from.
   */
  const gone = (last: Position, why: string): void => {
    const text = JSON.stringify(transcriptOfTree(last, tree), null, 2);
    const box = byId("gone");
    setText(
      byId("gone-text"),
      `The server no longer has this game (${why}). This page still holds its ` +
        `${tree.length - 1} moves: save them, or play on from them as a new game.`,
    );
    const link = byId<HTMLAnchorElement>("gone-save");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.download = `ply-${last.kind}-${route.game.slice(0, 8)}.json`;
    byId<HTMLTextAreaElement>("gone-moves").value = text;
    byId("gone-play").onclick = () => {
      loadText(text).then((refused) => {
        if (refused !== undefined) message(`the moves were not loaded: ${refused}`);
      }).catch((e) => message(`the moves were not loaded: ${e}`));
    };
    body.dataset.gone = "1";
    show(box, true);
  };

  const socket = openSocket(socketUrl(location, route.game, route.seat), {
    message: onMessage,
    link: onLink,
  });

  // Controls
  const click = (id: string, f: () => void): void => byId(id).addEventListener("click", f);
  click("back", back);
  click("forward", forward);
  click("undo", () => send(pos?.live === true ? { _tag: "Takeback" } : { _tag: "Undo" }));
  click("takeback-accept", () => send({ _tag: "TakebackAnswer", accept: true }));
  click("takeback-decline", () => send({ _tag: "TakebackAnswer", accept: false }));
  click("viewing-back", leaveView);
  click("redo", () => send({ _tag: "Redo" }));
  click("stop", () => send({ _tag: "Stop" }));
  click("move-now", () => send({ _tag: "MoveNow" }));
  click("resume", () => send({ _tag: "Resume" }));
  const analyse = byId<HTMLInputElement>("analyse");
  analyse.addEventListener(
    "change",
    () => send({ _tag: "Analyse", on: analyse.checked }),
  );
  const speed = byId<HTMLInputElement>("speed");
  let speedTimer: ReturnType<typeof setTimeout> | undefined;
  speed.addEventListener("input", () => {
    setText(byId("speed-out"), `${speed.value} ms`);
    clearTimeout(speedTimer);
    speedTimer = setTimeout(
      () => send({ _tag: "Speed", ms: Number(speed.value) }),
      150,
    );
  });
  byId("move-buttons").addEventListener("click", (e) => {
    const b = e.target instanceof Element ? e.target.closest("button[data-move]") : null;
    if (b === null || pos === undefined) return;
    send({
      _tag: "Move",
      at: pos.current,
      move: Number(b.getAttribute("data-move")),
    });
  });
  byId("play-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = byId<HTMLInputElement>("notation").value.trim();
    if (text !== "" && pos !== undefined) {
      send({ _tag: "Play", at: pos.current, text });
    }
  });
  onJump(byId("moves"), jumpTo);

  document.addEventListener("keydown", (e) => {
    const chord = (e.altKey || e.ctrlKey || e.metaKey) && !e.getModifierState("AltGraph");
    if (chord || typing(e.target)) return;
    let done = true;
    if (e.key === "Escape") {
      prefix = [];
      markBoard();
    } else if (arrows && e.key.startsWith("Arrow")) {
      pickToken(KEY_PREFIX + e.key);
    } else if (e.key === "[" || (!arrows && e.key === "ArrowLeft")) back();
    else if (e.key === "]" || (!arrows && e.key === "ArrowRight")) forward();
    else if (keys.has(e.key)) pickToken(KEY_PREFIX + e.key);
    else done = false;
    if (done) e.preventDefault();
  });

  // What does not come over the socket
  const save = byId<HTMLAnchorElement>("save");
  save.href = `/api/games/${encodeURIComponent(route.game)}/transcript`;
  save.download = `ply-${route.game}.json`;
  const invite = keptInvite(route.game);
  const inviteLink = byId<HTMLAnchorElement>("invite");
  if (invite !== undefined) {
    inviteLink.href = invite;
    inviteLink.textContent = invite;
  }
  show(byId("invite-box"), invite !== undefined);
  const watch = byId<HTMLAnchorElement>("watch");
  watch.href = new URL(`/?game=${encodeURIComponent(route.game)}`, location.href).href;

  games.then((l) => {
    list = l;
    nameGame();
    if (pos !== undefined) {
      setText(byId("status"), statusText(pos, names()));
      drawPlayers(pos);
      drawMoves(byId("moves"), pos.nodes, viewing?.node ?? pos.current, movers());
      if (!searched) drawBar(mover(), 0);
    }
  }).catch((e) => message(`the list of games: ${e}`));
};
