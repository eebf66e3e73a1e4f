/**
 * The browser machinery itself (testing/browser.ts), on a tiny page served here:
 * Chromium starts headless, a click changes the DOM and the test reads it back by
 * waiting on a handshake attribute; nothing leaves the loopback; the profile is removed
 * even when the test's function fails; a missing Chromium is a clear failure.
 */
import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "../testing/deps.ts";
import {
  chromiumPath,
  isLoopback,
  nodeOf,
  openPage,
  waitData,
  waitNode,
  withBrowser,
} from "../testing/browser.ts";

const PAGE = `<!doctype html>
<html><head><title>smoke</title><link rel="icon" href="data:,"></head>
<body data-node="0">
  <p id="out"></p>
  <button id="go">go</button>
  <script>
    let n = 0;
    document.getElementById("go").addEventListener("click", () => {
      // A click answers later, as a server's Position would.
      setTimeout(() => {
        n += 1;
        document.getElementById("out").textContent = "clicked " + n;
        document.body.dataset.node = String(n);
      }, 50);
    });
    document.body.dataset.ready = "1";
  </script>
</body></html>`;

/** Serves `PAGE` on `hostname` (a free port) while `fn` runs with its loopback URL. */
const withPage = async (fn: (url: string) => Promise<void>, hostname = "127.0.0.1") => {
  const server = Deno.serve(
    { hostname, port: 0, onListen: () => {} },
    (req) =>
      new URL(req.url).pathname === "/"
        ? new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
        : new Response("not found", { status: 404 }),
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/`);
  } finally {
    await server.shutdown();
  }
};

Deno.test("browser: a click on a served page changes the DOM, seen through a handshake", async () => {
  await withPage((url) =>
    withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      await page.goto(url);
      await waitData(page, "ready", "1");
      assertEquals(await nodeOf(page), 0);
      await page.click("#go");
      await waitNode(page, 1);
      assertEquals(await page.$eval("#out", (e) => e.textContent), "clicked 1");
      await page.click("#go");
      await waitNode(page, 2);
      assertEquals(await page.$eval("#out", (e) => e.textContent), "clicked 2");
      assertEquals(problems, []);
    })
  );
});

Deno.test("browser: nothing leaves the loopback (names and other addresses fail, and are reported)", async () => {
  // This machine's own addresses off the loopback reach the served page unless the
  // browser refuses them (a test without such an address checks the names only).
  const others = Deno.networkInterfaces()
    .filter((i) => i.family === "IPv4" && !i.address.startsWith("127."))
    .map((i) => i.address);
  await withPage(async (url) => {
    const port = new URL(url).port;
    const blocked = [
      `http://example.com/`,
      `http://${Deno.hostname()}:${port}/`,
      ...others.map((a) => `http://${a}:${port}/`),
    ];
    await withBrowser(async (browser) => {
      const { page, problems } = await openPage(browser);
      await page.goto(url);
      await waitData(page, "ready", "1");
      const tries = await page.evaluate(async (urls: string[]) => {
        const attempt = async (u: string) => {
          try {
            await fetch(u, { mode: "no-cors" });
            return `reached ${u}`;
          } catch {
            return `failed ${u}`;
          }
        };
        const out: string[] = [];
        for (const u of urls) out.push(await attempt(u));
        return out;
      }, [...blocked, url]);
      assertEquals(tries, [...blocked.map((u) => `failed ${u}`), `reached ${url}`]);
      for (const u of blocked) assert(problems.some((p) => p.includes(u)), problems.join("\n"));
    });
  }, "0.0.0.0");
});

Deno.test("browser: Chromium ends and its profile is removed when the function fails", async () => {
  let profile = "";
  let pid: number | undefined;
  await assertRejects(
    () =>
      withBrowser((browser, info) => {
        profile = info.profile;
        pid = browser.process()?.pid;
        assert(Deno.statSync(profile).isDirectory);
        throw new Error("the test failed");
      }),
    Error,
    "the test failed",
  );
  assert(profile !== "");
  assertThrows(() => Deno.statSync(profile), Deno.errors.NotFound);
  assert(pid !== undefined);
  // Its process is gone (not even a zombie: puppeteer waits for it).
  assertThrows(() => Deno.statSync(`/proc/${pid}`), Deno.errors.NotFound);
});

Deno.test("browser: a missing Chromium is an error that says how to get one", () => {
  const e = assertThrows(() => chromiumPath("", ["/nonexistent/chromium"]));
  assertMatch(
    (e as Error).message,
    /no Chromium found.*PATH.*apt-get install chromium.*PLY_CHROMIUM/s,
  );
  const named = assertThrows(() => chromiumPath("/nonexistent/chrome"));
  assertMatch((named as Error).message, /PLY_CHROMIUM names \/nonexistent\/chrome/);
  assertEquals(chromiumPath("", ["/nonexistent/x", Deno.execPath()]), Deno.execPath());
});

Deno.test("browser: loopback URLs are told from the others", () => {
  for (const u of ["http://127.0.0.1:8000/", "ws://127.0.0.1:1/ws", "data:text/plain,x"]) {
    assert(isLoopback(u), u);
  }
  for (const u of ["http://example.com/", "https://10.0.0.1/", "http://127.0.0.2.nip.io/"]) {
    assert(!isLoopback(u), u);
  }
});
