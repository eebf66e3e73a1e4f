/**
 * Runs `deno doc --lint` on the public entry points and fails on every diagnostic except
 * one kind: `private-type-ref` pointing at a type of the `effect` npm package (Effect,
 * Layer, Schema's error classes, ...). Deno 2.9 reports those for any npm type in a
 * public signature (denoland/deno#27364: fixed for jsr:/https: packages, but npm types
 * resolve to `file:` paths in the cache); re-exporting effect's namespaces would only add
 * hundreds of diagnostics inside effect's own declarations. Missing JSDoc, missing
 * return types and references to our own unexported types all still fail.
 *
 * Usage: deno run --allow-run --allow-read tests/tools/doc_lint.ts mod.ts [more.ts ...]
 *
 * @module
 */

/** Effect types our public API exposes on purpose. */
const EFFECT_TYPES = new Set([
  "Effect",
  "Layer",
  "Service",
  "Option",
  "Result",
  "TaggedError",
  "String",
  "Decoder",
  "SchemaError",
  "Scope",
  "ArraySchema",
  "optional",
]);

const entries = Deno.args.length > 0 ? Deno.args : ["mod.ts"];
const out = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...entries],
  env: { NO_COLOR: "1" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
const diagnostics = [...text.matchAll(/^error\[([a-z-]+)\]: (.*)$/gm)];
const bad = diagnostics.filter(([, rule, message]) => {
  if (rule !== "private-type-ref") return true;
  const m = /references private type '([^']+)'/.exec(message);
  return m === null || !EFFECT_TYPES.has(m[1]);
});
const tolerated = diagnostics.length - bad.length;
if (bad.length > 0 || (diagnostics.length === 0 && !out.success)) {
  console.error(text);
  console.error(`doc lint: ${bad.length} problem(s) in ${entries.join(", ")}`);
  Deno.exit(1);
}
console.log(
  `doc lint: ${entries.join(", ")} clean (${tolerated} references to effect's types tolerated)`,
);
