/**
 * Effect without Node's async context (`core/no_async_context.ts`): one fiber that awaits
 * 20,000 times keeps its heap flat when Effect comes through ply's `deps.ts`, where Effect
 * loaded on its own under Deno keeps a growing chain of async resources (the control: if
 * it stops growing, Deno has fixed its `AsyncResource` and the module can go). Measured
 * in a child process with `--expose-gc`, by the heap after a full collection, never by
 * time.
 */
import { assert, assertEquals } from "../testing/deps.ts";

/** The heap growth (MB) from the 5,000th to the 20,000th await of one fiber. */
const growth = async (importEffect: string): Promise<number> => {
  // Measured inside the fiber: the chain is held while the fiber lives.
  const code = `
    ${importEffect}
    const heap = () => (globalThis.gc(), Deno.memoryUsage().heapUsed / 1e6);
    let at5000 = 0, at20000 = 0;
    const step = Effect.promise(() => new Promise((r) => queueMicrotask(r)));
    await Effect.runPromise(Effect.gen(function* () {
      for (let i = 1; i <= 20000; i++) {
        yield* step;
        if (i === 5000) at5000 = heap();
        if (i === 20000) at20000 = heap();
      }
    }));
    console.log(JSON.stringify(at20000 - at5000));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--expose-gc", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
};

Deno.test("one fiber's 15,000 awaits: Effect through ply keeps its heap flat, Effect alone does not", async () => {
  const deps = new URL("../core/deps.ts", import.meta.url).href;
  const ours = await growth(`import { Effect } from ${JSON.stringify(deps)};`);
  assert(ours < 1.5, `through core/deps.ts the heap grew ${ours.toFixed(2)} MB`);
  const alone = await growth(`import * as Effect from "npm:effect@4.1.0/Effect";`);
  assert(
    alone > 4,
    `Effect alone grew ${alone.toFixed(2)} MB: has Deno fixed AsyncResource? ` +
      "then core/no_async_context.ts can go",
  );
});

Deno.test("Effect is shown no node:async_hooks; every other built-in module is found", async () => {
  await import("../core/deps.ts");
  const lookup = (globalThis as unknown as {
    process: { getBuiltinModule: (id: string) => unknown };
  }).process.getBuiltinModule;
  assertEquals(lookup("node:async_hooks"), undefined);
  assertEquals(lookup("async_hooks"), undefined);
  assertEquals(typeof (lookup("node:path") as { join: unknown }).join, "function");
  assertEquals((await import("node:async_hooks")).AsyncResource !== undefined, true);
});
