/**
 * The new-game form's texts in players' words, without the DOM: the plugins write their
 * options' help for the command line (`random games per position, with --eval
 * playouts`), which the form says without the flags (`with eval set to playouts`), a
 * list's expected values as a sentence, a yes-or-no option as yes and no.
 *
 * @module
 */
import type { OptionField } from "../server/protocol.ts";

/**
 * `text` with the command line's flags of the options `fields` said as the form names
 * them: `--eval playouts` (a choice of `eval`) as `eval set to playouts`, `--aiSeed` as
 * `aiSeed`. Other text is left as it is.
 *
 * @example
 * ```ts
 * import { withoutFlags } from "./words.ts";
 * const fields = [{ name: "eval", choices: ["lines", "playouts"] }, { name: "aiSeed" }];
 * const said = withoutFlags("with --eval playouts, seeded by --aiSeed", fields);
 * if (said !== "with eval set to playouts, seeded by aiSeed") throw new Error(said);
 * ```
 */
export const withoutFlags = (
  text: string,
  fields: readonly Pick<OptionField, "name" | "choices">[],
): string =>
  text.replace(/--([A-Za-z][\w-]*)(?: ([\w:.-]+))?/g, (whole, name: string, value?: string) => {
    const field = fields.find((f) => f.name === name);
    if (field === undefined) return whole;
    if (value !== undefined && field.choices?.includes(value)) return `${name} set to ${value}`;
    return value === undefined ? name : `${name} ${value}`;
  });

/**
 * The values an option takes, for a person: a list's (`a comma-separated list of an
 * integer between 0 and 1000 (length at least 1, length at most 64)`) as `numbers
 * separated by commas, each an integer between 0 and 1000 (1 to 64 of them)`; "" for an
 * option with choices (its select shows them); others as the plugin says them.
 *
 * @example
 * ```ts
 * import { expectedWords } from "./words.ts";
 * const list = "a comma-separated list of an integer between 0 and 9 (length at least 1, length at most 4)";
 * const said = expectedWords({ expected: list });
 * if (said !== "values separated by commas, each an integer between 0 and 9 (1 to 4 of them)") {
 *   throw new Error(said);
 * }
 * ```
 */
export const expectedWords = (o: Pick<OptionField, "expected" | "choices">): string => {
  if (o.choices !== undefined) return "";
  const list = /^a comma-separated list of (.+?)(?: \((.*)\))?$/.exec(o.expected);
  if (list === null) return o.expected;
  const [, item, checks = ""] = list;
  const least = /length at least (\d+)/.exec(checks)?.[1];
  const most = /length at most (\d+)/.exec(checks)?.[1];
  const count = least !== undefined && most !== undefined
    ? ` (${least} to ${most} of them)`
    : least !== undefined
    ? ` (at least ${least})`
    : most !== undefined
    ? ` (at most ${most})`
    : "";
  return `values separated by commas, each ${item}${count}`;
};

/** A choice as the form's select shows it: `yes` and `no` for `true` and `false`. */
export const choiceWords = (choice: string): string =>
  choice === "true" ? "yes" : choice === "false" ? "no" : choice;
