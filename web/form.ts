/// <reference lib="dom" />
/**
 * The new-game form (`#new-game`): the game, its options (built from the server's
 * `OptionField`s, with their descriptions and expected values; the AI's own settings
 * under "advanced"), who plays each side, the seed. A refusal is shown next to the
 * fields it names, or in `#form-error`. A board much bigger than the game's default, with
 * an AI playing, is warned of in `#form-warning` before the game starts (`cost.ts`).
 *
 * @module
 */
import type { GameEntry, NewGameRequest, OptionField, SideSetup } from "../server/protocol.ts";
import { gameUrl, keepInvite, newGame } from "./api.ts";
import { byId, h, setText, show } from "./dom.ts";
import { boardFactor, costWarning } from "./cost.ts";
import { choiceWords, expectedWords, withoutFlags } from "./words.ts";

/** The value of the strength select that takes a player spec from the text field. */
export const CUSTOM = "custom";

/** An option's field: its control, and its help in players' words (`words.ts`). */
const field = (o: OptionField, all: readonly OptionField[]): HTMLElement => {
  const name = `opt-${o.name}`;
  const expected = expectedWords(o);
  const control = o.choices !== undefined
    ? h(
      "select",
      { name, id: name },
      ...o.choices.map((c) => h("option", { value: c, selected: c === o.default }, choiceWords(c))),
    )
    : h("input", {
      name,
      id: name,
      value: o.default,
      autocomplete: "off",
      spellcheck: "false",
    });
  return h(
    "div",
    { class: "field" },
    h("label", { for: name }, o.name),
    control,
    h(
      "small",
      { class: "help" },
      withoutFlags(o.description, all),
      expected !== "" ? ` (${expected})` : "",
    ),
    h("div", { class: "field-error", "data-option": o.name, role: "alert" }),
  );
};

/** The strength the form offers first: the one named or specified by `defaultOpponent`. */
export const defaultStrength = (entry: GameEntry): string =>
  entry.strengths.find(([name, spec]) =>
    name === entry.defaultOpponent || spec === entry.defaultOpponent
  )?.[0] ?? CUSTOM;

const side = (entry: GameEntry, i: 0 | 1): HTMLElement => {
  const strength = defaultStrength(entry);
  const strengths = h(
    "select",
    { name: `strength-${i}`, "aria-label": `${entry.players[i]}'s strength` },
    ...entry.strengths.map(([name, spec]) =>
      h(
        "option",
        { value: name, selected: name === strength },
        `${name} (${spec})`,
      )
    ),
    h(
      "option",
      { value: CUSTOM, selected: strength === CUSTOM },
      "custom spec",
    ),
  );
  const spec = h("input", {
    name: `spec-${i}`,
    placeholder: "alphabeta:6",
    value: strength === CUSTOM ? entry.defaultOpponent : "",
    "aria-label": `${entry.players[i]}'s player spec`,
    autocomplete: "off",
    spellcheck: "false",
  });
  const who = h(
    "select",
    { name: `side-${i}`, "aria-label": `who plays ${entry.players[i]}` },
    h("option", { value: "here", selected: i === 0 }, "a person here"),
    h("option", { value: "remote" }, "a person elsewhere (a link to send)"),
    h("option", { value: "lobby" }, "whoever joins from the lobby"),
    h("option", { value: "ai", selected: i === 1 }, "the AI"),
  );
  const ai = h("span", { class: "ai" }, strengths, spec);
  const update = (): void => {
    show(ai, who.value === "ai");
    show(spec, strengths.value === CUSTOM);
  };
  who.addEventListener("change", update);
  strengths.addEventListener("change", update);
  update();
  return h(
    "fieldset",
    { class: "side", "data-side": i, hidden: i === 1 && entry.solo },
    h("legend", {}, entry.players[i]),
    who,
    ai,
    h("div", {
      class: "field-error",
      "data-option": `side-${i}`,
      role: "alert",
    }),
  );
};

const value = (form: HTMLFormElement, name: string): string => {
  const e = form.elements.namedItem(name);
  return e instanceof HTMLInputElement || e instanceof HTMLSelectElement ? e.value.trim() : "";
};

/** A side of the form as a `SideSetup`, or the problem with it. */
const sideSetup = (form: HTMLFormElement, i: 0 | 1): SideSetup | string => {
  const who = value(form, `side-${i}`);
  if (who === "here") return { _tag: "Here" };
  if (who === "remote") return { _tag: "Remote" };
  if (who === "lobby") return { _tag: "Lobby" };
  const strength = value(form, `strength-${i}`);
  if (strength !== CUSTOM) return { _tag: "AI", spec: strength };
  const spec = value(form, `spec-${i}`);
  return spec === "" ? "give the AI's player spec (alphabeta:6)" : { _tag: "AI", spec };
};

const clearErrors = (form: HTMLFormElement): void => {
  for (const e of form.querySelectorAll(".field-error")) e.textContent = "";
  setText(byId("form-error"), "");
};

/** Shows a problem next to the field of `option`, or in `#form-error`. */
const problem = (
  form: HTMLFormElement,
  option: string | undefined,
  text: string,
): void => {
  const at = option === undefined
    ? null
    : form.querySelector(`.field-error[data-option="${CSS.escape(option)}"]`);
  const target = at ?? byId("form-error");
  target.textContent = target.textContent === "" ? text : `${target.textContent}; ${text}`;
};

/** Shows or hides the warning of an expensive board with an AI (`#form-warning`). */
const warnCost = (form: HTMLFormElement, entry: GameEntry, warning: HTMLElement): void => {
  const values = Object.fromEntries(
    entry.options.map((o) => [o.name, value(form, `opt-${o.name}`)]),
  );
  const sides = entry.solo ? [0] : [0, 1];
  const ai = sides.some((i) => value(form, `side-${i}`) === "ai");
  const text = costWarning(boardFactor(entry, values), ai);
  setText(warning, text ?? "");
  show(warning, text !== undefined);
};

/** The time controls the clock field suggests. */
const CLOCKS = ["1+0", "3+2", "5+3", "10+5", "15+10", "10s", "30s"];

/**
 * The request the form stands for, or false after showing its problems (a side without
 * a spec, a seed that is not a number).
 */
const request = (
  form: HTMLFormElement,
  entry: GameEntry,
): NewGameRequest | false => {
  const options: Record<string, string> = {};
  for (const o of entry.options) {
    const v = value(form, `opt-${o.name}`);
    if (v !== "") options[o.name] = v;
  }
  let ok = true;
  const s0 = sideSetup(form, 0);
  // A solo game's other side is chance: the server does not use it.
  const s1: SideSetup | string = entry.solo ? { _tag: "Here" } : sideSetup(form, 1);
  for (const [i, s] of [s0, s1].entries()) {
    if (typeof s === "string") {
      problem(form, `side-${i}`, s);
      ok = false;
    }
  }
  const seedText = value(form, "seed");
  const seed = Number(seedText);
  if (
    seedText !== "" && !(Number.isInteger(seed) && seed >= 0 && seed <= 2 ** 31)
  ) {
    problem(form, "seed", `the seed is a whole number from 0 to ${2 ** 31}`);
    ok = false;
  }
  if (!ok || typeof s0 === "string" || typeof s1 === "string") return false;
  const clock = value(form, "clock").trim();
  return {
    game: entry.id,
    options,
    players: [s0, s1],
    ...(seedText !== "" ? { seed } : {}),
    ...(clock !== "" ? { clock } : {}),
  };
};

/**
 * Builds the form's fields in `#form-fields` (inside `#new-game`) for `games` (`preselect`: a game id to show first) and
 * starts the game it describes: on `Created`, the page goes to the game's URL.
 */
export const newGameForm = (
  games: readonly GameEntry[],
  preselect?: string,
): void => {
  const form = byId<HTMLFormElement>("new-game");
  const pickGame = h(
    "select",
    { name: "game", id: "game" },
    ...games.map((g) => h("option", { value: g.id, selected: g.id === preselect }, g.name)),
  );
  const about = h("p", { class: "about" });
  const options = h("div", { class: "options" });
  const sides = h("div", { class: "sides" });
  const rules = h("details", { class: "rules" });
  const warning = h("p", { id: "form-warning", role: "status", hidden: true });
  const entryOf = (): GameEntry | undefined => games.find((g) => g.id === pickGame.value);

  const build = (): void => {
    const entry = entryOf();
    if (entry === undefined) return;
    setText(about, entry.description);
    const basic = entry.options.filter((o) => !o.advanced).map((o) => field(o, entry.options));
    const advanced = entry.options.filter((o) => o.advanced).map((o) => field(o, entry.options));
    options.replaceChildren(
      ...basic,
      ...(advanced.length > 0
        ? [
          h(
            "details",
            { class: "advanced" },
            h("summary", {}, "advanced"),
            ...advanced,
          ),
        ]
        : []),
    );
    sides.replaceChildren(side(entry, 0), side(entry, 1));
    rules.replaceChildren(h("summary", {}, "rules"), h("pre", {}, entry.rules));
    show(rules, entry.rules !== "");
    clearErrors(form);
    warnCost(form, entry, warning);
  };

  const start = byId<HTMLButtonElement>("start");
  byId("form-fields").replaceChildren(
    h(
      "div",
      { class: "field" },
      h("label", { for: "game" }, "game"),
      pickGame,
      about,
    ),
    rules,
    options,
    sides,
    warning,
    h(
      "div",
      { class: "field" },
      h("label", { for: "clock" }, "clock"),
      h("input", {
        name: "clock",
        id: "clock",
        list: "clocks",
        autocomplete: "off",
        spellcheck: "false",
        placeholder: "none",
      }),
      h("datalist", { id: "clocks" }, ...CLOCKS.map((c) => h("option", { value: c }))),
      h(
        "small",
        { class: "help" },
        "5+3: 5 minutes each and 3 seconds more after every move; 10s: 10 seconds a move; " +
          "empty: no clock. Whoever runs out of time loses.",
      ),
      h("div", { class: "field-error", "data-option": "clock", role: "alert" }),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "seed" }, "seed"),
      h("input", {
        name: "seed",
        id: "seed",
        type: "number",
        min: 0,
        max: 2 ** 31,
        placeholder: "fresh",
      }),
      h(
        "small",
        { class: "help" },
        "of chance and of the AIs' random choices; empty: a new one",
      ),
      h("div", { class: "field-error", "data-option": "seed", role: "alert" }),
    ),
  );
  pickGame.addEventListener("change", build);
  build();
  const warn = (): void => {
    const entry = entryOf();
    if (entry !== undefined) warnCost(form, entry, warning);
  };
  form.addEventListener("input", warn);
  form.addEventListener("change", warn);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const entry = entryOf();
    if (entry === undefined) return;
    clearErrors(form);
    const r = request(form, entry);
    if (r === false) return;
    start.disabled = true;
    const answer = await newGame(r);
    start.disabled = false;
    if (answer._tag === "Created") {
      keepInvite(answer.game, answer.invite);
      location.assign(gameUrl(answer.game, answer.seat));
      return;
    }
    const known = new Set(entry.options.map((o) => o.name));
    for (const p of answer.problems) {
      const text = p.item !== undefined ? `item ${p.item}: ${p.problem}` : p.problem;
      if (p.option !== undefined && (known.has(p.option) || p.option === "clock")) {
        problem(form, p.option, text);
      } else {problem(
          form,
          undefined,
          p.option !== undefined ? `${p.option}: ${text}` : text,
        );}
    }
    if (answer.problems.length === 0) problem(form, undefined, answer.message);
  });
};
