/**
 * Loaded before Effect (the first import of every `deps.ts`): Effect without Node's async
 * context. Effect's fibers carry Node's `AsyncLocalStorage` across their suspensions (an
 * `AsyncResource` made at each yield, resumed in), found at load through
 * `process.getBuiltinModule("node:async_hooks")`. Under Deno (2.9) each such resource keeps
 * the context it was made in, which holds the one before it: a fiber that lives long (a
 * tournament's runner, the server, a cluster runner) kept a chain that grew by about 440
 * bytes at every yield and was never collected while the fiber lived (6.6 MB over 15,000
 * awaits of one fiber; nothing through ply; a 200,000-game tournament's heap grew 1.8 KB a
 * game: `tests/async_context_test.ts`). ply uses no `AsyncLocalStorage`, so Effect is shown no
 * `node:async_hooks` there; every other built-in module is found as before, and
 * `import "node:async_hooks"` is untouched. A program that imports ply as a library gets
 * the same for its own Effect (one package) when ply's modules load first: an
 * `AsyncLocalStorage` of its own is then not carried across its fibers' suspensions.
 *
 * @module
 */
type Lookup = (id: string) => unknown;
const processObject = (globalThis as { process?: { getBuiltinModule?: Lookup } }).process;
const lookup = processObject?.getBuiltinModule;
if (processObject !== undefined && lookup !== undefined && !("__plyNoAsyncContext" in lookup)) {
  // Loaded all the same, as Effect loaded it: Deno's Node modules load it lazily otherwise,
  // and a worker that first loads it while it is being terminated makes Deno 2.9 panic
  // (`ext_script.rs: called Option::unwrap() on a None value`; 2 runs in 11 of the room
  // tests under load without this line, none in 8 before the module existed).
  try {
    lookup.call(processObject, "node:async_hooks");
  } catch {
    // (Nothing to load: nothing to hide.)
  }
  const hidden: Lookup = (id) =>
    id === "node:async_hooks" || id === "async_hooks" ? undefined : lookup.call(processObject, id);
  Object.defineProperty(hidden, "__plyNoAsyncContext", { value: true });
  processObject.getBuiltinModule = hidden;
}
