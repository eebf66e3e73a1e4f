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

Deno.test("README's worked plugin is exactly tests/fixtures/subtraction.ts", async () => {
  const fixture = await Deno.readTextFile(new URL("tests/fixtures/subtraction.ts", root));
  assertStringIncludes(readme, "```ts ignore\n" + fixture + "```");
});
