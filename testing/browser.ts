/**
 * Driving a real browser in tests: headless Chromium (Debian's `chromium`, which `.ci/run`
 * installs when missing) through `puppeteer-core`, and `deno task serve` in a subprocess.
 *
 * Everything waits on a handshake, never on a time: the server's printed URL, the
 * page's `body[data-ready="1"]` and `body[data-node="N"]` (server/CONTRACT.md). Timeouts
 * only turn a hang into a failure. Chromium reaches nothing but the loopback: names
 * resolve to nothing and every other address goes to a proxy that does not exist.
 *
 * @module
 */
import puppeteer, {
  type Browser,
  type BrowserContext,
  type Page,
} from "npm:puppeteer-core@^25.16.0";
import { type Job, startTask } from "./task.ts";

export type { Browser, BrowserContext, Page };

/** The names Chromium goes by, looked for in `PATH` when `PLY_CHROMIUM` does not say. */
export const CHROMIUM_NAMES: readonly string[] = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
];

/** Every place a Chromium may be: each name in each directory of `PATH`, then `/usr/bin`. */
export const chromiumCandidates = (path: string = Deno.env.get("PATH") ?? ""): string[] => {
  const dirs = [...path.split(":").filter((d) => d !== ""), "/usr/bin"];
  return CHROMIUM_NAMES.flatMap((name) => dirs.map((d) => `${d.replace(/\/$/, "")}/${name}`));
};

/** The longest a test waits for one handshake before it fails (a hang guard). */
export const WAIT_MS = 30_000;

const isFile = (path: string): boolean => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
};

/**
 * The Chromium to run: `PLY_CHROMIUM` if set (it must exist), else the first of
 * `chromiumCandidates()` that exists. Throws a message that says how to get one: a test
 * without a browser fails, it is never skipped.
 */
export const chromiumPath = (
  env: string | undefined = Deno.env.get("PLY_CHROMIUM"),
  candidates: readonly string[] = chromiumCandidates(),
): string => {
  if (env !== undefined && env !== "") {
    if (isFile(env)) return env;
    throw new Error(`PLY_CHROMIUM names ${env}, which does not exist`);
  }
  const found = candidates.find(isFile);
  if (found !== undefined) return found;
  throw new Error(
    `no Chromium found (looked for ${CHROMIUM_NAMES.join(", ")} in PATH and /usr/bin): ` +
      "install Debian's chromium " +
      "(`apt-get install chromium`; .ci/run does it) or set PLY_CHROMIUM to a Chrome binary",
  );
};

/**
 * Chromium's flags: no sandbox (CI runs as root, where Chromium refuses its sandbox) and
 * nothing off the loopback, by two guards that each suffice: every host, IP literals
 * included, resolves to nothing but `localhost` and 127.0.0.1; and every request goes to
 * a proxy on a closed loopback port (so it fails at once), which the loopback bypasses.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
  "--proxy-server=http://127.0.0.1:9",
  "--lang=en-US",
];

/** What `withBrowser` gives its function beside the browser. */
export interface BrowserInfo {
  /** The temporary profile directory (removed at the end). */
  readonly profile: string;
  /** The Chromium binary. */
  readonly executable: string;
}

/** The page size of every page (and of screenshots). */
export const VIEWPORT = { width: 1200, height: 900 } as const;

/** Closes a browser; kills its process when it does not close (a hang guard). */
const closeBrowser = async (browser: Browser): Promise<void> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const closed = await Promise.race([
    browser.close().then(() => true, () => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 15_000))),
  ]);
  clearTimeout(timer);
  if (!closed) browser.process()?.kill("SIGKILL");
};

/**
 * Runs `fn` with a fresh headless Chromium (a new profile in a temporary directory),
 * then closes it and removes the profile, also when `fn` fails. A missing or broken
 * Chromium fails with a message that says so.
 */
export const withBrowser = async <T>(
  fn: (browser: Browser, info: BrowserInfo) => Promise<T>,
): Promise<T> => {
  const executable = chromiumPath();
  const profile = await Deno.makeTempDir({ prefix: "ply-chromium-" });
  let browser: Browser | undefined;
  try {
    try {
      browser = await puppeteer.launch({
        executablePath: executable,
        headless: true,
        pipe: true,
        userDataDir: profile,
        args: [...CHROMIUM_ARGS],
        defaultViewport: VIEWPORT,
        timeout: WAIT_MS,
      });
    } catch (e) {
      throw new Error(`Chromium (${executable}) did not start: ${(e as Error).message}`);
    }
    return await fn(browser, { profile, executable });
  } finally {
    if (browser !== undefined) await closeBrowser(browser);
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
};

/** True for a URL a page may load: the loopback, or data that needs no network. */
export const isLoopback = (url: string): boolean => {
  if (/^(data|blob|about):/.test(url)) return true;
  try {
    const host = new URL(url).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
};

/** A page and what went wrong in it so far. */
export interface Watched {
  /** The page. */
  readonly page: Page;
  /**
   * Uncaught exceptions, `console.error`s, answers 404 and 5xx, and
   * requests off the loopback, as text; a test ends with `assertEquals(problems, [])`.
   */
  readonly problems: string[];
}

/** Records a page's problems (see `Watched.problems`). */
export const watchProblems = (page: Page): string[] => {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`uncaught: ${(e as Error).message ?? e}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // The browser's own line for an HTTP error status: judged by its response below.
    if (m.text().startsWith("Failed to load resource:")) return;
    problems.push(`console.error: ${m.text()}`);
  });
  page.on("response", (r) => {
    // 4xx answers are refusals the page shows (a bad option: 400); a missing file or a
    // server error is a problem.
    if (r.status() === 404 || r.status() >= 500) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on("request", (r) => {
    if (!isLoopback(r.url())) problems.push(`request off the loopback: ${r.url()}`);
  });
  return problems;
};

/** A new page in a browser or one of its contexts, with its problems recorded. */
export const openPage = async (target: Browser | BrowserContext): Promise<Watched> => {
  const page = await target.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.setDefaultNavigationTimeout(WAIT_MS);
  return { page, problems: watchProblems(page) };
};

// ---------------------------------------------------------------------------------
// The server

/** A running `deno task serve`. */
export interface Served {
  /** The URL it printed (`http://127.0.0.1:PORT/`). */
  readonly url: string;
  /** Its port. */
  readonly port: number;
  /** Everything it printed so far. */
  readonly output: () => string;
  /**
   * Stops it (`signal`, SIGINT unless named, to its process group; no other signal
   * follows, so the server's exit code is that signal's) and waits for its end.
   */
  readonly stop: (
    signal?: "INT" | "TERM" | "HUP",
  ) => Promise<{ code: number; out: string; err: string }>;
  /** The task's process group (as `startTask` gives it). */
  readonly job: Job;
}

/** The URL a server prints: `http://HOST:PORT/`. */
const URL_PATTERN = /http:\/\/(127\.0\.0\.1|localhost|\[[0-9a-f:]+\]|[\w.-]+):(\d+)\//;

/**
 * Starts `deno task serve --port 0 ARGS...` and resolves once it has printed its URL
 * (the server listens then). Fails with the server's output when it ends first. Unless
 * `ARGS` name them, the port is a free one and the games' database a new file of its own
 * (no server of a test restores another's games).
 */
export const startServe = async (args: readonly string[] = []): Promise<Served> => {
  const port = args.includes("--port") ? [] : ["--port", "0"];
  const db = args.includes("--db") ? [] : ["--db", `${Deno.makeTempDirSync()}/serve.db`];
  const job = startTask(["serve", ...port, ...db, ...args]);
  let ended = false;
  const done = job.done.then((r) => {
    ended = true;
    return r;
  });
  const stop = async (signal: "INT" | "TERM" | "HUP" = "INT") => {
    if (!ended) await job.signal(signal);
    return await done;
  };
  try {
    await job.waitFor("http://");
    // The rest of the line may still be on its way: wait for the whole URL.
    let m = URL_PATTERN.exec(job.output());
    while (m === null && !ended) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      m = URL_PATTERN.exec(job.output());
    }
    if (m === null) throw new Error(`deno task serve printed no URL:\n${job.output()}`);
    const url = `http://${m[1]}:${m[2]}/`;
    return { url, port: Number(m[2]), output: job.output, stop, job };
  } catch (e) {
    await stop();
    throw e;
  }
};

/** Runs `fn` with a server started by `startServe(args)`; stops it at the end. */
export const withServe = async <T>(
  args: readonly string[],
  fn: (served: Served) => Promise<T>,
): Promise<T> => {
  const served = await startServe(args);
  try {
    return await fn(served);
  } finally {
    await served.stop();
  }
};

// ---------------------------------------------------------------------------------
// The page's handshakes (server/CONTRACT.md)

/** Waits until the page is connected and has drawn its first position. */
export const waitReady = async (page: Page): Promise<void> => {
  await page.waitForSelector('body[data-ready="1"]');
};

/**
 * Runs `action`, which makes the page navigate by itself (a form's answer, a loaded file),
 * and waits until the new document is loaded and drawn. The navigation is awaited through
 * the browser's lifecycle events, begun before the action: a wait evaluated in the page
 * while its document is replaced can miss the new one.
 */
export const navigates = async (page: Page, action: () => Promise<unknown>): Promise<void> => {
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), action()]);
  await waitReady(page);
};

/** Opens `url` and waits until the game is drawn. */
export const gotoGame = async (page: Page, url: string): Promise<void> => {
  await page.goto(url);
  await waitReady(page);
};

/** Waits until the page shows node `node`. */
export const waitNode = async (page: Page, node: number): Promise<void> => {
  await page.waitForSelector(`body[data-node="${node}"]`);
};

/** The node the page shows. */
export const nodeOf = (page: Page): Promise<number> =>
  page.$eval("body", (b) => Number(b.getAttribute("data-node")));

/** Waits until `body[data-NAME="VALUE"]`. */
export const waitData = async (page: Page, name: string, value: string): Promise<void> => {
  await page.waitForSelector(`body[data-${name}="${value}"]`);
};

/** Waits until no AI is thinking (`data-thinking` is not "1"). */
export const waitNotThinking = async (page: Page): Promise<void> => {
  await page.waitForSelector('body[data-ready="1"]:not([data-thinking="1"])');
};

/** Waits until the page shows a node other than `node` (a move was drawn). */
export const waitNodeChange = async (page: Page, node: number): Promise<number> => {
  await page.waitForSelector(`body[data-node]:not([data-node="${node}"])`);
  return await nodeOf(page);
};

/**
 * The little of the page's DOM that functions run in the page use (tests have no DOM
 * types; a function sent to the page is serialized, so it can call no helper of ours).
 */
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): { readonly textContent: string | null } | null;
  };
}

/** The text of the first element matching `selector` ("" when there is none). */
export const textOf = (page: Page, selector: string): Promise<string> =>
  page.$eval(selector, (e) => e.textContent ?? "").catch(() => "");

/** Waits until the text of `selector` is not empty, and returns it. */
export const waitText = async (page: Page, selector: string): Promise<string> => {
  await page.waitForFunction(
    (s: string) =>
      ((globalThis as unknown as PageGlobals).document.querySelector(s)?.textContent ?? "")
        .trim() !== "",
    {},
    selector,
  );
  return await textOf(page, selector);
};

/** `text` for inside a double-quoted CSS attribute value. */
export const quoted = (text: string): string => text.replace(/["\\]/g, "\\$&");

/** The `data-pick` tokens of the elements with class `target` (what can come next). */
export const targets = (page: Page): Promise<string[]> =>
  page.$$eval("#board [data-pick].target", (es) => es.map((e) => e.getAttribute("data-pick")!));

/**
 * Clicks the board's element `[data-pick="TOKEN"]` as a person does: on a point of the
 * element that is not covered by another (its centre first, then a finer and finer grid
 * over its box: a curved arrow's box centre lies off the arrow). Fails when no point of
 * it can be clicked.
 */
export const pick = async (page: Page, token: string): Promise<void> => {
  const element = await page.$(`#board [data-pick="${quoted(token)}"]`);
  if (element === null) throw new Error(`the board has no [data-pick="${token}"]`);
  await element.scrollIntoView();
  const point = await element.evaluate((e) => {
    const d = (globalThis as unknown as {
      document: { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null };
    }).document;
    const r = e.getBoundingClientRect();
    for (let n = 2; n <= 32; n *= 2) {
      for (let i = 1; i < n; i += 2) {
        for (let j = 1; j < n; j += 2) {
          const x = r.left + (r.width * i) / n, y = r.top + (r.height * j) / n;
          if (d.elementFromPoint(x, y)?.closest("[data-pick]") === e) return { x, y };
        }
      }
    }
    return null;
  });
  await element.dispose();
  if (point === null) throw new Error(`no point of [data-pick="${token}"] can be clicked`);
  await page.mouse.click(point.x, point.y);
};
