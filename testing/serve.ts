/**
 * The repository served over HTTP on 127.0.0.1, as a web server would serve a clone (or
 * JSR its files): for the tests that run ply's modules and programs from a URL.
 *
 * @module
 */

/** A running server of the repository's files. */
export interface Served {
  /** The base URL, such as `http://127.0.0.1:40123` (no trailing slash). */
  readonly base: string;
  /** Stops the server. */
  readonly close: () => Promise<void>;
}

const root = new URL("../", import.meta.url);

/** Serves the repository's files as TypeScript on a free port of 127.0.0.1. */
export const serveRepository = (): Served => {
  const ac = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen: () => {},
  }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname).replace(/^\/+/, "");
    if (path.includes("..")) return new Response("no", { status: 403 });
    try {
      const body = await Deno.readFile(new URL(path, root));
      return new Response(body, { headers: { "content-type": "application/typescript" } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  const port = (server.addr as Deno.NetAddr).port;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      ac.abort();
      await server.finished;
    },
  };
};
