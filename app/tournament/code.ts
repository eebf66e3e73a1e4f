/**
 * The code that decides a tournament's games, as part of its identity: ply's own modules
 * (the kernel, the application layer and the built-in games: searches, players, rules) and
 * a user's plugin's source. Two runs whose code differs in either may play different
 * games from the same plan, so a cluster's runner refuses work whose code is not its own,
 * and the plan's id changes with the code (the same command on changed code is another
 * tournament).
 *
 * Each part is a SHA-256 of the source text, read, never run: ply's from the `.ts` files
 * of `core/`, `app/` and `plugins/` beside this module (when ply runs from a URL, the
 * module's URL stands for them: a released version's URL names its code); a user's plugin
 * from its module and the local modules it imports (relative imports, followed from file
 * to file; a plugin at a URL, its one module as fetched).
 *
 * @module
 */

/** The code behind a tournament's games. */
export interface CodeId {
  /** ply's own modules, hashed (16 hex digits). */
  readonly ply: string;
  /** A user's plugin's modules, hashed (16 hex digits); absent for a built-in game. */
  readonly plugin?: string;
}

/** The folders of ply whose modules decide games. */
const FOLDERS = ["core/", "app/", "plugins/"];

/** The repository's root, as this module sees it. */
const ROOT = new URL("../../", import.meta.url);

const hex = (bytes: ArrayBuffer): string =>
  [...new Uint8Array(bytes).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** A hash of named texts (each name and text in order, both delimited). */
const hashTexts = async (texts: readonly (readonly [string, string])[]): Promise<string> => {
  const parts = texts.flatMap(([name, text]) => [name, "\0", String(text.length), "\0", text]);
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join(""))));
};

/** Every `.ts` file under `dir` (a `file:` URL), sorted, as paths relative to the root. */
const tsFiles = (dir: URL): string[] => {
  const found: string[] = [];
  const visit = (at: URL) => {
    for (const e of Deno.readDirSync(at)) {
      if (e.isDirectory) visit(new URL(`${e.name}/`, at));
      else if (e.name.endsWith(".ts")) found.push(new URL(e.name, at).href.slice(ROOT.href.length));
    }
  };
  visit(dir);
  return found.sort();
};

let plyHash: Promise<string> | undefined;

/** ply's own code, hashed once per process. */
const plyCode = (): Promise<string> =>
  plyHash ??= ROOT.protocol !== "file:" ? hashTexts([["url", import.meta.url]]) : hashTexts(
    FOLDERS.flatMap((f) => tsFiles(new URL(f, ROOT))).map((path) =>
      [path, Deno.readTextFileSync(new URL(path, ROOT))] as const
    ),
  );

/** Static and dynamic imports of relative paths in a module's text. */
const RELATIVE = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

/** A plugin module's source and the local modules it imports, by URL. */
const pluginTexts = async (url: URL): Promise<(readonly [string, string])[]> => {
  if (url.protocol !== "file:") {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url.href}: ${r.status} ${r.statusText}`);
    return [[url.href, await r.text()]];
  }
  const seen = new Map<string, string>();
  const visit = (at: URL) => {
    if (seen.has(at.href)) return;
    const text = Deno.readTextFileSync(at);
    seen.set(at.href, text);
    for (const m of text.matchAll(RELATIVE)) {
      const next = new URL(m[1], at);
      // ply's own modules (a plugin's import of ply) are ply's part of the code.
      if (next.href.startsWith(ROOT.href)) continue;
      visit(next);
    }
  };
  visit(url);
  // The names are relative to the plugin's own folder: the same plugin elsewhere is the same.
  const base = new URL("./", url).href;
  return [...seen].map(([href, text]) =>
    [href.startsWith(base) ? href.slice(base.length) : href, text] as const
  ).sort(([a], [b]) => (a < b ? -1 : 1));
};

/**
 * The code of a tournament of the game at `module` (a user's plugin's URL; none for a
 * built-in game). Fails when the plugin's source cannot be read.
 *
 * @example
 * ```ts
 * import { codeId } from "./code.ts";
 * const a = await codeId(undefined), b = await codeId(undefined);
 * if (a.ply !== b.ply || a.ply.length !== 16 || a.plugin !== undefined) throw new Error();
 * ```
 */
export const codeId = async (module: string | undefined): Promise<CodeId> => ({
  ply: await plyCode(),
  ...(module === undefined ? {} : { plugin: await hashTexts(await pluginTexts(new URL(module))) }),
});

/**
 * How `mine` differs from `theirs`, in words (`ply's code`, `the plugin's code`, both),
 * or undefined when they are the same.
 */
export const codeDifference = (mine: CodeId, theirs: CodeId): string | undefined => {
  const parts: string[] = [];
  if (mine.ply !== theirs.ply) {
    parts.push(`ply's code (${mine.ply} here, ${theirs.ply} in the tournament)`);
  }
  if (mine.plugin !== theirs.plugin) {
    parts.push(
      `the plugin's code (${mine.plugin ?? "none"} here, ${
        theirs.plugin ?? "none"
      } in the tournament)`,
    );
  }
  return parts.length === 0 ? undefined : parts.join(" and ");
};
