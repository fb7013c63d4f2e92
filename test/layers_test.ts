import { deepEqual, equal } from "node:assert/strict";
import { importCircles, srcImportGraph, upwardImports } from "./_graph.ts";

// The layers of `src/`, lowest first, as the code is built: a file may import its own layer and
// the ones below, never one above. A layer is a list of rooms (folders) and, at the root of
// `src/`, the core's own files; a file's room is the deepest folder listed that holds it, so a new
// file takes its folder's layer and a new folder must be placed here. The small helpers sit at
// the bottom, the core's pieces and the protocol's constants above them; the catalogue above the
// validator and the rankers it uses; the bridge and the overview above the catalogue; code mode
// (a script's run) above the bridge, its settings and sandbox interface with the core's pieces;
// the injector and sessions above code mode; the adapters above the core; the gateway's rooms
// (trust, config, the upstream pool, the gateway itself, its faces) and the HTTP API above the
// adapters; the programs and Worker entries on top.
const LAYERS: readonly (readonly [string, readonly string[]])[] = [
  // Result, which imports nothing, is the helpers' too (the file transactions return it).
  ["helpers", ["src/utils/", "src/result.ts"]],
  [
    "core pieces and the protocol's constants",
    [
      "src/tool.ts",
      "src/tool_error.ts",
      "src/tool_result.ts",
      "src/limits.ts",
      "src/canonical_json.ts",
      "src/tokens.ts",
      "src/config.ts",
      "src/untrusted.ts",
      "src/version.ts",
      "src/prompt.ts",
      "src/protocol/",
      "src/code_mode/limits.ts",
      "src/code_mode/sandbox.ts",
    ],
  ],
  ["validator and rankers", ["src/schema/", "src/ranking/"]],
  ["catalogue", ["src/catalog.ts", "src/validate_tools.ts"]],
  ["bridge and overview", ["src/bridge/", "src/disclosure.ts", "src/code_mode/declaration.ts"]],
  ["code mode", ["src/code_mode/"]],
  ["injector and sessions", ["src/injector.ts", "src/session/"]],
  ["adapters", ["src/mcp/", "src/native/"]],
  ["gateway: trust", ["src/gateway/trust/"]],
  ["gateway: config", ["src/gateway/config/"]],
  ["gateway: upstream pool", ["src/gateway/pool/"]],
  ["gateway", ["src/gateway/"]],
  ["faces: HTTP API and gateway faces", ["src/http/", "src/gateway/faces/", "src/gateway/mod.ts"]],
  ["programs and entries", ["src/cli/", "src/deno/", "src/workers/"]],
];

/** The layer of a file: its own entry, else the deepest folder listed that holds it. */
function layerOf(file: string): number {
  let best = -1;
  let depth = -1;
  LAYERS.forEach(([, rooms], layer) => {
    for (const room of rooms) {
      const holds = room.endsWith("/") ? file.startsWith(room) : file === room;
      const length = room.endsWith("/") ? room.length : Infinity;
      if (holds && length > depth) [best, depth] = [layer, length];
    }
  });
  if (best < 0) {
    throw new Error(`${file} is in no layer: add its folder to LAYERS in layers_test.ts`);
  }
  return best;
}

const graph = await srcImportGraph();

Deno.test("every src/ file is in a layer, and every room listed exists", async () => {
  for (const file of graph.keys()) equal(layerOf(file) >= 0, true, file);
  for (const [, rooms] of LAYERS) {
    for (const room of rooms) equal((await Deno.stat(room)).isFile, !room.endsWith("/"), room);
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
