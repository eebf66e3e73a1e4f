/**
 * A tournament's code (`app/tournament/code.ts`): ply's part is stable within a checkout; a
 * user's plugin's part changes with its module and with every local module it imports,
 * follows neither ply's modules nor remote ones, and is the same for the same files in
 * another folder; a difference is said in words, part by part.
 */
import { assert, assertEquals, assertNotEquals } from "../testing/deps.ts";
import { codeDifference, codeId } from "../app/tournament/code.ts";

const plugin = (dir: string, helper: string) => {
  Deno.writeTextFileSync(
    `${dir}/game.ts`,
    `import { rules } from "./rules.ts";\nimport type { Game } from "${
      new URL("../core/game.ts", import.meta.url).href
    }";\nexport const x: Game<unknown> | undefined = undefined;\nexport default rules;\n`,
  );
  Deno.writeTextFileSync(`${dir}/rules.ts`, helper);
  return new URL(`file://${dir}/game.ts`).href;
};

Deno.test("tournament code: a plugin's code is its module and the local modules it imports", async () => {
  const a = Deno.makeTempDirSync(), b = Deno.makeTempDirSync();
  try {
    const first = await codeId(plugin(a, "export const rules = 1;\n"));
    const again = await codeId(plugin(a, "export const rules = 1;\n"));
    assertEquals(first, again);
    assertEquals(first.ply.length, 16);
    assertEquals(first.plugin!.length, 16);
    // The same files elsewhere: the same code.
    assertEquals(await codeId(plugin(b, "export const rules = 1;\n")), first);
    // An imported module changed: another code, and ply's part the same.
    const changed = await codeId(plugin(a, "export const rules = 2;\n"));
    assertNotEquals(changed.plugin, first.plugin);
    assertEquals(changed.ply, first.ply);
    assertEquals(
      codeDifference(changed, first),
      `the plugin's code (${changed.plugin} here, ${first.plugin} in the tournament)`,
    );
    assertEquals(codeDifference(first, again), undefined);
    const builtin = await codeId(undefined);
    assertEquals(builtin, { ply: first.ply });
    assertEquals(
      codeDifference({ ply: "1111111111111111" }, { ply: "2222222222222222" }),
      "ply's code (1111111111111111 here, 2222222222222222 in the tournament)",
    );
    assert(
      codeDifference({ ply: "1", plugin: "a" }, { ply: "2", plugin: "b" })!.includes(" and "),
    );
  } finally {
    Deno.removeSync(a, { recursive: true });
    Deno.removeSync(b, { recursive: true });
  }
});

Deno.test("tournament code: a plugin that cannot be read fails", async () => {
  let failed = false;
  await codeId("file:///nonexistent/ply-plugin.ts").catch(() => (failed = true));
  assert(failed);
});
