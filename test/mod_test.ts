import { deepEqual, equal, ok } from "node:assert/strict";
import { npmPackagesOf } from "./_graph.ts";

import { ROOT, runDeno as deno } from "./_deno.ts";

async function exportsOfPackage(): Promise<Record<string, string>> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  return config.exports;
}

// The committed list of every entry's public names: a name added to an entry fails here until it
// is added to test/exports.json and justified in the entry's module doc (std's
// _tools/check_mod_exports.ts keeps its mod.ts files the same way).
const ANNOUNCED: Record<string, string[]> = JSON.parse(
  await Deno.readTextFile(`${ROOT}test/exports.json`),
);

// Each entry's exported names, as `deno doc --json` of all the entries together gives them.
async function exportedNames(entries: Record<string, string>): Promise<Record<string, string[]>> {
  const doc = await deno(["doc", "--json", ...Object.values(entries)]);
  equal(doc.code, 0, doc.stderr);
  const nodes = JSON.parse(doc.stdout).nodes as Record<string, { symbols: { name: string }[] }>;
  const byFile = new Map(
    Object.entries(nodes).map(([url, node]) => [
      new URL(url).pathname,
      [...new Set(node.symbols.map((s) => s.name))].sort(),
    ]),
  );
  return Object.fromEntries(
    Object.entries(entries).map((
      [name, path],
    ) => [name, byFile.get(new URL(path, `file://${ROOT}`).pathname) ?? []]),
  );
}

Deno.test("the package exports the core, sessions, the lexical ranker's options and one module per adapter", async () => {
  deepEqual(await exportsOfPackage(), {
    ".": "./mod.ts",
    "./session": "./src/session/mod.ts",
    "./lexical": "./src/ranking/lexical.ts",
    "./http": "./src/http/mod.ts",
    "./mcp": "./src/mcp/mod.ts",
    "./stdio": "./src/mcp/stdio.ts",
    "./minisearch": "./src/ranking/minisearch.ts",
    "./gateway": "./src/gateway/mod.ts",
    "./cli": "./src/cli/main.ts",
    "./lexicon": "./src/ranking/lexicon.ts",
    "./vectors": "./src/ranking/vectors.ts",
    "./deno-ranker": "./src/ranking/deno_ranker.ts",
    "./native": "./src/native/mod.ts",
  });
  const mod: Record<string, unknown> = await import("../mod.ts");
  for (const adapter of ["createApp", "connectHttp", "connectStdio", "minisearchRanker"]) {
    equal(adapter in mod, false, `${adapter} is exported from mod.ts`);
  }
  for (const internal of ["canonicalJson", "sha256Hex", "transition", "emptySession"]) {
    equal(internal in mod, false, `${internal} is exported from mod.ts`);
  }
});

Deno.test("every entry exports exactly the names test/exports.json announces", async () => {
  const entries = await exportsOfPackage();
  deepEqual(Object.keys(ANNOUNCED), Object.keys(entries), "test/exports.json lists every entry");
  const exported = await exportedNames(entries);
  for (const [entry, names] of Object.entries(exported)) {
    const announced = new Set(ANNOUNCED[entry]);
    const unannounced = names.filter((name) => !announced.has(name));
    deepEqual(
      unannounced,
      [],
      `${entry} exports names that test/exports.json does not announce: add them there and say ` +
        `in ${entries[entry]}'s module doc why an embedder needs them`,
    );
    deepEqual(names, [...announced].sort(), `${entry} no longer exports what is announced`);
  }
});

// 25 names until code mode added four (its strategy, its bounds and a run's two answers), as the
// ranker has three: the ceiling keeps one name of room.
Deno.test("the root exports at most 30 names, none of the lexical ranker's knobs", () => {
  const root = ANNOUNCED["."] ?? [];
  ok(root.length <= 30, `${root.length} names: ${root.join(", ")}`);
  for (const knob of ["LexicalRankerOptions", "createLexicalRanker", "LexicalField"]) {
    ok(!root.includes(knob), `${knob} is at the root`);
    ok(ANNOUNCED["./lexical"]?.includes(knob), `${knob} is not in ./lexical`);
  }
});

Deno.test("deno doc --lint passes on the root alone and on every export together, as deno task test runs it", async () => {
  ok(
    JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.test.includes(
      "scripts/doc_lint.ts",
    ),
    "deno task test does not run scripts/doc_lint.ts",
  );
  const linted = await deno(["run", "--allow-read", "--allow-run", "scripts/doc_lint.ts"]);
  equal(linted.code, 0, linted.stdout + linted.stderr);
  for (const entry of Object.values(await exportsOfPackage())) {
    const source = await Deno.readTextFile(`${ROOT}${entry}`);
    ok(/^\/\*\*[\s\S]*?@module[\s\S]*?\*\//.test(source), `${entry} has no @module doc`);
  }
});

// A module bundled for browsers and Workers, as text.
async function browserBundle(entry: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-bundle-" });
  try {
    const out = `${dir}/bundle.js`;
    const bundled = await deno([
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--output",
      out,
      entry,
    ]);
    equal(bundled.code, 0, bundled.stderr);
    return await Deno.readTextFile(out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("mod.ts bundles for browsers and Workers without Node, Deno or any adapter", async () => {
  const code = await browserBundle("mod.ts");
  deepEqual(code.match(/["']node:[a-z_/]+["']/g) ?? [], []);
  deepEqual(code.match(/\bDeno\.[a-zA-Z]+/g) ?? [], []);
  for (const adapter of ["StdioClientTransport", "StreamableHTTPClientTransport", "MiniSearch"]) {
    ok(!code.includes(adapter), `the bundle contains ${adapter}`);
  }
});

Deno.test("./mcp bundles for Workers: the Streamable HTTP client without the stdio adapter", async () => {
  const code = await browserBundle("src/mcp/mod.ts");
  // The SDK's messages and doc comments name the stdio transport; its class must not be there.
  ok(!/class StdioClientTransport\b/.test(code), "the bundle contains StdioClientTransport");
  for (const stdio of ["cross-spawn", "child_process"]) {
    ok(!code.includes(stdio), `the bundle contains ${stdio}`);
  }
  ok(code.includes("StreamableHTTPClientTransport"), "the HTTP client is in the bundle");
});

Deno.test("the core's module graph holds one third-party package: the JSON Schema validator (the linear-time regex engine is ours)", async () => {
  deepEqual(await npmPackagesOf("mod.ts"), ["@cfworker/json-schema"]);
});

Deno.test("native tool search needs neither model SDK at run time: ./native loads the core's packages only", async () => {
  deepEqual(await npmPackagesOf("src/native/mod.ts"), ["@cfworker/json-schema"]);
});

Deno.test("the package is ready for JSR: deno publish --dry-run passes (offline)", async () => {
  // What only publishing checks (slow types, the files and exports it would upload) still runs with
  // --no-check; the type check of the same files is deno task test's deno check step, and doing it
  // again here cost eight seconds of CPU.
  const published = await deno(["publish", "--dry-run", "--allow-dirty", "--no-check"]);
  equal(published.code, 0, published.stdout + published.stderr);
});
