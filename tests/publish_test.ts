/**
 * The package is one JSR accepts: `deno publish --dry-run` passes (a license, no slow
 * types: no `--allow-slow-types`), and what it would upload stays within JSR's limits (20
 * MB a file and in all), without the tests, the benches or 2048's large networks.
 */
import { assert, assertEquals } from "../testing/deps.ts";
import { root } from "../testing/task.ts";

/** JSR's limit on a file and on a whole package version, uncompressed. */
const LIMIT_MB = 20;

Deno.test("deno publish --dry-run passes, with no slow types, within JSR's limits", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert(out.success, text);
  assertEquals([...text.matchAll(/^error\[([a-z-]+)\]/gm)].map((m) => m[1]), []);
  assert(text.includes("Success Dry run complete"), text);
  const files = [...text.matchAll(/^\s+(file:\/\/\S+) \(([\d.]+)(B|KB|MB)\)$/gm)]
    .map((m) => ({
      path: m[1].slice(root.href.length),
      mb: Number(m[2]) / (m[3] === "MB" ? 1 : m[3] === "KB" ? 1024 : 1024 * 1024),
    }));
  assert(files.length > 50, text);
  const paths = files.map((f) => f.path);
  for (const face of ["mod.ts", "plugin.ts", "engine.ts", "scripts/check_plugin.ts", "LICENSE"]) {
    assert(paths.includes(face), `${face} is published`);
  }
  assertEquals(paths.filter((p) => /^(tests|testing|bench|lab|\.ci)\//.test(p)), []);
  const total = files.reduce((a, f) => a + f.mb, 0);
  assert(total < LIMIT_MB, `the package is ${total.toFixed(1)} MB`);
  for (const f of files) assert(f.mb < LIMIT_MB, `${f.path} is ${f.mb.toFixed(1)} MB`);
});
