/** README stays true: its worked plugin is the tested fixture, its first commands exist. */
import { assert, assertEquals, assertStringIncludes } from "../testing/deps.ts";

const root = new URL("../", import.meta.url);
const readme = await Deno.readTextFile(new URL("README.md", root));

Deno.test("README opens with its three commands, and the tasks exist", async () => {
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1].trim().split("\n");
  assertEquals(firstBlock, ["deno task play", "deno task serve", "deno task test"]);
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).tasks;
  assert(tasks.play && tasks.serve && tasks.test);
});

Deno.test("README's worked plugin is exactly tests/fixtures/connect4.ts, under 80 lines", async () => {
  const fixture = await Deno.readTextFile(new URL("tests/fixtures/connect4.ts", root));
  assertStringIncludes(readme, "```ts ignore\n" + fixture + "```");
  assert(fixture.split("\n").length - 1 < 80, "the worked plugin must stay under 80 lines");
  assertStringIncludes(fixture, "hashInts(s)");
});

Deno.test("README names the package's version and Effect's pin as they are", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const deps = await Deno.readTextFile(new URL("core/deps.ts", root));
  const effect = /"(npm:effect@[0-9.]+)[/"]/.exec(deps)![1];
  assertStringIncludes(readme, `jsr:${config.name}@${config.version}`);
  assertStringIncludes(readme, `https://jsr.io/${config.name}/${config.version}/mod.ts`);
  assertStringIncludes(readme, `jsr:${config.name}@${config.version}/check-plugin`);
  assertStringIncludes(readme, effect);
  for (const [face, file] of [["plugin", "plugin.ts"], ["engine", "engine.ts"]]) {
    assertEquals(config.exports[`./${face}`], `./${file}`);
    assertStringIncludes(readme, `jsr:${config.name}@${config.version}/${face}`);
  }
  assertEquals(config.exports["./check-plugin"], "./scripts/check_plugin.ts");
  assert(!readme.includes("OWNER"), "no placeholder in a URL");
});
