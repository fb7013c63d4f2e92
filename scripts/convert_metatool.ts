/**
 * Converts MetaTool's tool-selection data (HowieHwong/MetaTool, MIT) into the evaluation layout
 * of `testdata/metatool`: a catalogue of its 199 tools (plugin names and their descriptions, one
 * server) and two query sets, `metatool_single` (a deterministic sample of its single-tool
 * queries, `--per-tool` per tool) and `metatool_multi` (every two-tool query). Only its data files
 * are read; none of its code is used or copied.
 *
 * Run (on a checkout or snapshot of the repository):
 * `deno run --allow-read --allow-write=testdata/metatool scripts/convert_metatool.ts --from DIR`
 *
 * @module
 */

import { parseArgs } from "node:util";

/** Where each input lives inside the MetaTool repository. */
const INPUTS = {
  descriptions: "dataset/plugin_des.json",
  single: "dataset/data/all_clean_data.csv",
  multi: "dataset/data/multi_tool_query_golden.json",
};

/** The one server of the catalogue's tools: MetaTool's plugins have no server of their own. */
const SERVER = "metatool";

/**
 * Parses RFC 4180 CSV (quoted fields, doubled quotes, newlines inside quotes).
 *
 * @param text The CSV text.
 * @returns Its rows, each a list of fields.
 *
 * @example Usage
 * ```ts
 * import { parseCsv } from "./convert_metatool.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(parseCsv('a,"b ""c"", d"\n1,2\n'), [["a", 'b "c", d'], ["1", "2"]]);
 * ```
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"', i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") (row.push(field), field = "");
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field), rows.push(row), row = [], field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) (row.push(field), rows.push(row));
  return rows;
}

/**
 * A stable 32-bit hash (FNV-1a over UTF-8) that orders the sample and names each query.
 *
 * @param text Any text.
 * @returns The hash as 8 hex digits.
 *
 * @example Usage
 * ```ts
 * import { fnv1a } from "./convert_metatool.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(fnv1a(""), "811c9dc5");
 * ```
 */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const unit of new TextEncoder().encode(text)) {
    hash = Math.imul(hash ^ unit, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      from: { type: "string" },
      out: { type: "string", default: "testdata/metatool" },
      "per-tool": { type: "string", default: "4" },
    },
  });
  if (values.from === undefined) throw new Error("Pass --from DIR: a MetaTool checkout");
  const read = (path: string) => Deno.readTextFileSync(`${values.from}/${path}`);
  const descriptions = JSON.parse(read(INPUTS.descriptions)) as Record<string, string>;
  const id = (name: string) => {
    if (!(name in descriptions)) throw new Error(`Cannot convert: "${name}" has no description`);
    return `${SERVER}/${name}`;
  };

  // Single-tool queries: per tool, the `--per-tool` queries with the smallest hash.
  const [header, ...rows] = parseCsv(read(INPUTS.single)).filter((r) => r.length === 2);
  if (header?.[0] !== "Query" || header[1] !== "Tool") throw new Error("Unexpected CSV header");
  const byTool = new Map<string, string[]>();
  for (const [query, tool] of rows as [string, string][]) {
    const list = byTool.get(tool) ?? [];
    if (!list.includes(query)) list.push(query);
    byTool.set(tool, list);
  }
  const perTool = Number(values["per-tool"]);
  const single = [...byTool.keys()].sort().flatMap((tool) =>
    byTool.get(tool)!
      .map((query) => ({ query, key: fnv1a(`${tool}\n${query}`) }))
      .sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
      .slice(0, perTool)
      .map(({ query, key }) => ({ id: `s-${key}`, query, gold: [id(tool)] }))
  );

  const multi = (JSON.parse(read(INPUTS.multi)) as { query: string; tool: string[] }[])
    .map(({ query, tool }) => ({ id: `m-${fnv1a(query)}`, query, gold: tool.map(id) }));

  // The catalogue: every tool some query names, in name order.
  const used = new Set([...single, ...multi].flatMap((q) => q.gold));
  const catalogue = Object.keys(descriptions).sort()
    .filter((name) => used.has(`${SERVER}/${name}`))
    .map((name) => ({
      server: SERVER,
      name,
      description: descriptions[name],
      inputSchema: { type: "object" },
    }));

  const lines = (list: readonly unknown[]) => list.map((x) => JSON.stringify(x)).join("\n") + "\n";
  Deno.mkdirSync(values.out, { recursive: true });
  Deno.writeTextFileSync(`${values.out}/catalogue.json`, JSON.stringify(catalogue, null, 1) + "\n");
  Deno.writeTextFileSync(`${values.out}/metatool_single.jsonl`, lines(single));
  Deno.writeTextFileSync(`${values.out}/metatool_multi.jsonl`, lines(multi));
  // deno-lint-ignore no-console
  console.log(
    `${catalogue.length} tools, ${single.length} single-tool and ${multi.length} two-tool queries`,
  );
}
