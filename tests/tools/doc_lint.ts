/**
 * Runs `deno doc --lint` on the public faces (each entry point on its own, since a type
 * is private or public per entry) and fails on every diagnostic except two kinds of
 * `private-type-ref`:
 *
 * - a type of the `effect` npm package (Effect, Layer, Schema's error classes, ...).
 *   Deno 2.9 reports those for any npm type in a public signature (denoland/deno#27364:
 *   fixed for jsr:/https: packages, but npm types resolve to `file:` paths in the
 *   cache); re-exporting effect's namespaces would only add hundreds of diagnostics
 *   inside effect's own declarations;
 * - a class's own superclass, when it is a variable: JSR's fast check reads no call in
 *   `extends` (`Context.Service<...>()(...)`, `Schema.TaggedError<...>()(...)`), so the
 *   services and errors extend a variable of an explicit Effect type (`EngineKey`,
 *   `SearchFailedBase`), an implementation detail of the class.
 *
 * Missing JSDoc, missing return types and references to our own unexported types all
 * still fail.
 *
 * Usage: deno run --allow-run --allow-read tests/tools/doc_lint.ts [mod.ts plugin.ts ...]
 * (default: the faces that `deno.json` exports).
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
  "Stream",
]);

const root = new URL("../../", import.meta.url);

/** The faces: the TypeScript modules `deno.json` exports, programs left out. */
const faces = async (): Promise<string[]> => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  return (Object.values(config.exports) as string[])
    .filter((path) => !path.startsWith("./scripts/"))
    .map((path) => path.replace(/^\.\//, ""));
};

const deno = async (args: string[]) => {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    success: out.success,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
};

/** Each public class of `entry` whose superclass is a plain name: class -> superclass. */
const superclasses = async (entry: string): Promise<Map<string, string>> => {
  const out = await deno(["doc", "--json", entry]);
  const json = JSON.parse(out.stdout) as {
    nodes: Record<string, {
      symbols: {
        name: string;
        declarations: { kind: string; def?: { extends?: string } }[];
      }[];
    }>;
  };
  const found = new Map<string, string>();
  for (const file of Object.values(json.nodes)) {
    for (const s of file.symbols) {
      for (const d of s.declarations) {
        const base = d.kind === "class" ? d.def?.extends : undefined;
        if (base !== undefined && /^[A-Za-z_$][\w$]*$/.test(base)) found.set(s.name, base);
      }
    }
  }
  return found;
};

const entries = Deno.args.length > 0 ? Deno.args : await faces();
let failed = false;
for (const entry of entries) {
  const out = await deno(["doc", "--lint", entry]);
  const text = out.stdout + out.stderr;
  const bases = await superclasses(entry);
  const diagnostics = [...text.matchAll(/^error\[([a-z-]+)\]: (.*)$/gm)];
  const bad = diagnostics.filter(([, rule, message]) => {
    if (rule !== "private-type-ref") return true;
    const m = /public type '([^']+)' references private type '([^']+)'/.exec(message);
    return m === null || !(EFFECT_TYPES.has(m[2]) || bases.get(m[1]) === m[2]);
  });
  const tolerated = diagnostics.length - bad.length;
  if (bad.length > 0 || (diagnostics.length === 0 && !out.success)) {
    console.error(text);
    console.error(`doc lint: ${bad.length} problem(s) in ${entry}`);
    failed = true;
  } else {
    console.log(`doc lint: ${entry} clean (${tolerated} tolerated: effect's types, superclasses)`);
  }
}
if (failed) Deno.exit(1);
