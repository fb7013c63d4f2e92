import { deepEqual, equal } from "node:assert/strict";
import { importCircles, srcImportGraph, upwardImports } from "./_graph.ts";

// The layers of `src/`, lowest first, as the code is built: a file may import its own layer and
// the ones below, never one above. The core's shared pieces sit at the bottom; the catalogue sits
// above the validator and the rankers it uses; the bridge and the overview above the catalogue;
// the injector and sessions above the bridge; the adapters above the core; the faces that serve
// (HTTP API, gateway) above the adapters; the programs and Worker entries on top.
const LAYERS: readonly (readonly [string, RegExp])[] = [
  [
    "core pieces",
    /^src\/(_[a-z_]+|tool|tool_error|tool_result|limits|json_depth|canonical_json|tokens|config|untrusted|version|prompt|result)\.ts$/,
  ],
  ["validator and rankers", /^src\/(schema|ranking)\//],
  ["catalogue", /^src\/(catalog|validate_tools)\.ts$/],
  ["bridge and overview", /^src\/(bridge\/|disclosure\.ts$)/],
  ["injector and sessions", /^src\/(injector\.ts$|session\/)/],
  ["adapters", /^src\/(mcp|native)\//],
  ["faces", /^src\/(http|gateway)\//],
  ["programs and entries", /^src\/(cli|deno|workers)\//],
];

function layerOf(file: string): number {
  const layer = LAYERS.findIndex(([, files]) => files.test(file));
  if (layer < 0) throw new Error(`${file} is in no layer: add it to LAYERS in layers_test.ts`);
  return layer;
}

const graph = await srcImportGraph();

Deno.test("every src/ file is in exactly one layer", () => {
  for (const file of graph.keys()) {
    equal(LAYERS.filter(([, files]) => files.test(file)).length, 1, file);
  }
});

Deno.test("no import circle among src/ files", () => {
  deepEqual(importCircles(graph), []);
});

Deno.test("no src/ file imports from a layer above its own", () => {
  deepEqual(upwardImports(graph, layerOf), []);
});

Deno.test("the core's graph holds no retrieval data table", () => {
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
  };
  for (const file of ["src/catalog.ts", "src/injector.ts"]) visit(file);
  deepEqual([...reached].filter((f) => f.endsWith("_data.ts")), []);
});

Deno.test("the checks find a planted circle and a planted upward import", () => {
  const planted = new Map([
    ["src/a.ts", ["src/b.ts"]],
    ["src/b.ts", ["src/c.ts"]],
    ["src/c.ts", ["src/a.ts"]],
    ["src/d.ts", ["src/d.ts"]],
    ["src/e.ts", []],
  ]);
  deepEqual(importCircles(planted), [["src/a.ts", "src/b.ts", "src/c.ts"], ["src/d.ts"]]);
  const rank = (f: string) => f === "src/e.ts" ? 1 : 0;
  deepEqual(upwardImports(new Map([["src/a.ts", ["src/e.ts"]], ["src/e.ts", []]]), rank), [
    "src/a.ts -> src/e.ts",
  ]);
});
