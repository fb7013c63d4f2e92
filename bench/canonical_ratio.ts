/**
 * Canonical JSON (what the catalogue hash reads) as a ratio to `JSON.stringify` of the same tools,
 * per shape of `bench/_canonical_shapes.ts`: the fastest of 21 runs of each, taken in turn, so a
 * loaded machine's pauses weigh on neither side (`bench/hostile.ts` has the same rows as means).
 * Pass another module exporting `canonicalJson` to compare an older version, e.g. main's:
 * `git show main:src/canonical_json.ts > /tmp/old.ts` (and `src/utils/canonical_walk.ts` if it imports it).
 *
 * Run: `deno run --node-modules-dir=auto -A bench/canonical_ratio.ts [module]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { canonicalShapes } from "./_canonical_shapes.ts";
import { realServerTools } from "../test/_data.ts";
import type { McpTool } from "../mod.ts";

const module = Deno.args[0] === undefined
  ? "../src/canonical_json.ts"
  : new URL(Deno.args[0], `file://${Deno.cwd()}/`).href;
const { canonicalJson } = await import(module) as { canonicalJson: (value: unknown) => string };

const real = realServerTools();
const copies: McpTool[] = [];
for (let copy = 0; copies.length < 10_000; copy++) {
  for (const tool of real) {
    if (copies.length < 10_000) copies.push({ ...tool, server: `${tool.server}-${copy}` });
  }
}
const ratios: number[] = [];
for (const [label, catalog] of canonicalShapes(copies)) {
  let floor = Infinity;
  let canonical = Infinity;
  for (let run = 0; run < 21; run++) {
    let start = performance.now();
    JSON.stringify(catalog.tools);
    floor = Math.min(floor, performance.now() - start);
    start = performance.now();
    void `[${catalog.tools.map(canonicalJson).join(",")}]`;
    canonical = Math.min(canonical, performance.now() - start);
  }
  ratios.push(canonical / floor);
  console.log(
    `${(canonical / floor).toFixed(2)}×\t${canonical.toFixed(1)} ms\t${
      floor.toFixed(1)
    } ms\t${label}`,
  );
}
const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
console.log(`mean ${mean.toFixed(2)}×, worst ${Math.max(...ratios).toFixed(2)}×`);
