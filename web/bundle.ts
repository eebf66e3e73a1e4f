/**
 * The page's files as the server sends them, made at server start: no build step a user
 * runs, nothing fetched by the browser from elsewhere.
 *
 * The page is TypeScript (`web/page.ts` and the modules beside it). Two ways to give it
 * to a browser, tried in this order:
 *
 * - **bundle**: `Deno.bundle` (Deno's built-in esbuild; the server runs with
 *   `--unstable-bundle`) makes one minified `page.js`. Deno fetches esbuild from npm the
 *   first time and caches it, so this fails offline on a machine that never bundled.
 * - **modules**: every `web/*.ts` module with its types stripped
 *   (`node:module`'s `stripTypeScriptTypes`, built into Deno, offline), served one file
 *   each; the browser loads them as ES modules (`page.js` imports `./board.ts`, which
 *   the server answers from the same table). The page uses only erasable TypeScript
 *   (no enums, namespaces or parameter properties) and `import type` for every type it
 *   imports, so stripping is all it takes; `tests/web_page_test.ts` links every stripped
 *   module to prove it.
 *
 * `deno run --unstable-bundle --allow-read web/bundle.ts` prints how the page was made,
 * its size and the time it took.
 *
 * @module
 */
import { stripTypeScriptTypes } from "node:module";

/** One file of the page. */
export interface Asset {
  /** Its `Content-Type`. */
  readonly type: string;
  /** Its text. */
  readonly body: string;
}

/** How the page's script was made. */
export type PageMode = "bundle" | "modules";

/** Everything the server sends for the page. */
export interface PageAssets {
  /** `GET /`: the page's HTML shell. */
  readonly html: string;
  /** `GET /style.css`. */
  readonly css: string;
  /** `GET /page.js`: the page's script (the bundle, or the entry module stripped). */
  readonly js: string;
  /**
   * Every file by its URL path (`/`, `/style.css`, `/page.js`, the icon `/favicon.svg`
   * and `/favicon.ico`, and in `modules` mode `/board.ts` and the other modules): the
   * server answers `GET PATH` from this table.
   */
  readonly files: ReadonlyMap<string, Asset>;
  /** How the script was made. */
  readonly mode: PageMode;
  /** Why the bundle was not made, in `modules` mode (empty otherwise). */
  readonly note: string;
  /** Milliseconds it took to make the script. */
  readonly ms: number;
}

/** The folder of the page's files. */
export const webDir: URL = new URL("./", import.meta.url);

/** The page's entry module. */
export const entry: URL = new URL("page.ts", webDir);

const JS = "text/javascript; charset=utf-8";

/** The part of the unstable `Deno.bundle` API that is used (present with `--unstable-bundle`). */
type BundleFn = (options: {
  entrypoints: string[];
  platform?: "browser" | "deno";
  format?: "esm";
  minify?: boolean;
  write?: boolean;
}) => Promise<{
  success: boolean;
  errors: readonly {
    text: string;
    location?: { file: string; line: number };
  }[];
  outputFiles?: readonly { text(): string }[];
}>;

/** `Deno.bundle`, when the runtime has it (`--unstable-bundle`). */
const denoBundle = (): BundleFn | undefined => (Deno as unknown as { bundle?: BundleFn }).bundle;

/** The longest the bundler may take (it may be fetching esbuild) before the page falls back. */
export const BUNDLE_TIMEOUT_MS = 30_000;

/**
 * The browser JavaScript of `web/page.ts` as one minified ES module, made by
 * `Deno.bundle`. Rejects when the runtime has no `Deno.bundle` (run with
 * `--unstable-bundle`), when esbuild cannot be had (offline, never cached) or when the
 * page does not bundle; `pageAssets` then serves the stripped modules instead.
 */
export const bundlePage = async (): Promise<string> => {
  const bundle = denoBundle();
  if (bundle === undefined) {
    throw new Error("Deno.bundle needs --unstable-bundle");
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`bundling took over ${BUNDLE_TIMEOUT_MS} ms`)),
      BUNDLE_TIMEOUT_MS,
    );
  });
  try {
    const result = await Promise.race([
      bundle({
        entrypoints: [entry.href],
        platform: "browser",
        format: "esm",
        minify: true,
        write: false,
      }),
      timeout,
    ]);
    const text = result.outputFiles?.[0]?.text();
    if (!result.success || text === undefined) {
      const why = result.errors.map((e) =>
        e.location === undefined ? e.text : `${e.location.file}:${e.location.line}: ${e.text}`
      );
      throw new Error(
        `the page does not bundle: ${why.join("; ") || "no output"}`,
      );
    }
    return text;
  } finally {
    clearTimeout(timer);
  }
};

/** The `.ts` modules of the page (tests excluded; `bundle.ts` is the server's, not the page's). */
export const pageModules = async (): Promise<string[]> => {
  const names: string[] = [];
  for await (const e of Deno.readDir(webDir)) {
    if (
      e.isFile && e.name.endsWith(".ts") && e.name !== "bundle.ts" &&
      !e.name.endsWith("_test.ts")
    ) names.push(e.name);
  }
  return names.sort();
};

/**
 * The page's modules with their types stripped, by URL path: `/page.js` for the entry,
 * `/NAME.ts` for the others (where the browser looks for `./NAME.ts`).
 */
export const strippedModules = async (): Promise<Map<string, string>> => {
  const out = new Map<string, string>();
  for (const name of await pageModules()) {
    const text = await Deno.readTextFile(new URL(name, webDir));
    const js = stripTypeScriptTypes(text, { mode: "strip" });
    out.set(name === "page.ts" ? "/page.js" : `/${name}`, js);
  }
  return out;
};

/**
 * The page's files: the HTML shell, the style sheet and the script, bundled when
 * `Deno.bundle` works and as stripped modules otherwise (see the module's doc).
 * `prefer: "modules"` skips the bundler.
 */
export const pageAssets = async (
  prefer: PageMode = "bundle",
): Promise<PageAssets> => {
  const [html, css, icon] = await Promise.all([
    Deno.readTextFile(new URL("index.html", webDir)),
    Deno.readTextFile(new URL("style.css", webDir)),
    Deno.readTextFile(new URL("favicon.svg", webDir)),
  ]);
  // The icon as SVG, also at the path browsers ask for when a page names none.
  const svg = { type: "image/svg+xml", body: icon };
  const files = new Map<string, Asset>([
    ["/", { type: "text/html; charset=utf-8", body: html }],
    ["/style.css", { type: "text/css; charset=utf-8", body: css }],
    ["/favicon.svg", svg],
    ["/favicon.ico", svg],
  ]);
  const started = performance.now();
  let note = "";
  if (prefer === "bundle") {
    try {
      const js = await bundlePage();
      const ms = performance.now() - started;
      files.set("/page.js", { type: JS, body: js });
      return { html, css, js, files, mode: "bundle", note, ms };
    } catch (e) {
      note = e instanceof Error ? e.message : String(e);
    }
  }
  const modules = await strippedModules();
  for (const [path, body] of modules) files.set(path, { type: JS, body });
  const ms = performance.now() - started;
  return {
    html,
    css,
    js: modules.get("/page.js") ?? "",
    files,
    mode: "modules",
    note,
    ms,
  };
};

/**
 * Names that survive minification in effect's Schema code: a page script with one of them
 * imported a value of the server's protocol (`import type` only, see `server/protocol.ts`).
 */
export const SCHEMA_MARKS: readonly string[] = [
  "propertySignatures",
  "decodeUnknown",
];

if (import.meta.main) {
  const assets = await pageAssets(
    Deno.args.includes("--modules") ? "modules" : "bundle",
  );
  const bytes = [...assets.files.values()].reduce(
    (n, f) => n + f.body.length,
    0,
  );
  console.log(
    JSON.stringify({
      mode: assets.mode,
      note: assets.note,
      ms: Math.round(assets.ms),
      js: assets.js.length,
      files: assets.files.size,
      bytes,
      schema: SCHEMA_MARKS.some((m) => assets.js.includes(m)),
    }),
  );
}
