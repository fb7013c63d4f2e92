/**
 * Writes what the config's declaration gives besides the parser and the types: the JSON Schema
 * for editors (`docs/unfold.schema.json`) and the key table of the `unfold` block in
 * `docs/gateway.md` (the table after its marker line). `test/gateway/config/schema_test.ts`
 * fails until they are written again after a key changes.
 *
 * Run: `deno run --allow-read --allow-write=docs scripts/build_config_schema.ts`
 *
 * @module
 */

import { configSchema, unfoldKeyRows } from "../src/gateway/config/schema.ts";

/** The line the table of the `unfold` block follows in `docs/gateway.md`. */
export const TABLE_MARKER =
  "<!-- The table below is written by scripts/build_config_schema.ts. -->";

/**
 * A Markdown table as `deno fmt` lays it out: columns padded to their widest cell.
 *
 * @param rows The header row, then the rows.
 * @returns The table's lines.
 *
 * @example Usage
 * ```ts
 * import { table } from "./build_config_schema.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(table([["a", "b"], ["ccc", "d"]]), ["| a   | b |", "| --- | - |", "| ccc | d |"]);
 * ```
 */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(rows[0]!), line(widths.map((w) => "-".repeat(w))), ...rows.slice(1).map(line)];
}

/**
 * Replaces the table after the marker in a Markdown text.
 *
 * @param text The page.
 * @param lines The table's lines.
 * @returns The page with the new table.
 */
export function withTable(text: string, lines: readonly string[]): string {
  const page = text.split("\n");
  let start = page.indexOf(TABLE_MARKER) + 1;
  if (start === 0) throw new Error(`the page has no line ${TABLE_MARKER}`);
  while (page[start] === "") start++;
  let end = start;
  while (page[end]?.startsWith("|")) end++;
  page.splice(start, end - start, ...lines);
  return page.join("\n");
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url);
  const schema = `${JSON.stringify(configSchema(), null, 2)}\n`;
  await Deno.writeTextFile(new URL("docs/unfold.schema.json", root), schema);
  const docs = new URL("docs/gateway.md", root);
  const rows = [["key", "values", "default"], ...unfoldKeyRows()];
  await Deno.writeTextFile(docs, withTable(await Deno.readTextFile(docs), table(rows)));
}
