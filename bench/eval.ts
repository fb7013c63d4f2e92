/**
 * The retrieval evaluation: unfold's default ranker (through `McpCatalog.search`, with server
 * information), MiniSearch with default options and a plain BM25 baseline, side by side on every
 * query set of a LiveMCPBench-style directory.
 *
 * Run: `deno task eval [--data DIR] [--json] [--rounds N]`
 *
 * Queries go to every ranker exactly as they were written (route_dev queries keep their
 * `<tool_assistant>` wrapper): coping with what agents really send is part of the ranker's job.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { McpCatalog } from "../mod.ts";
import { plainMinisearchRanker } from "../src/ranking/minisearch_ranker.ts";
import { bm25Ranker } from "./eval/bm25.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";
import { CUTOFF } from "./eval/metrics.ts";
import { renderReport } from "./eval/report.ts";
import { type Contender, evaluate } from "./eval/run.ts";

// The three rankers compared.
const CONTENDERS: readonly Contender[] = [
  {
    name: "unfold",
    build(tools, servers) {
      const catalog = new McpCatalog(tools, { servers });
      catalog.search("-", 1); // the index is built on the first search
      return (query) => catalog.search(query, CUTOFF).map((match) => match.id);
    },
  },
  {
    name: "minisearch-default",
    build(tools, servers) {
      const ranker = plainMinisearchRanker(tools, { servers });
      return (query) => ranker.search(query, CUTOFF).map((hit) => hit.id);
    },
  },
  {
    name: "bm25",
    build(tools) {
      const ranker = bm25Ranker(tools);
      return (query) => ranker.search(query, CUTOFF).map((hit) => hit.id);
    },
  },
];

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      data: { type: "string" },
      json: { type: "boolean", default: false },
      rounds: { type: "string", default: "3" },
    },
  });
  const dir = values.data ?? defaultDataDir();
  if (dir === undefined) {
    throw new Error("Cannot find the LiveMCPBench data: pass --data DIR or set UNFOLD_DATA_DIR");
  }
  const data = loadEvalData(dir);
  const results = evaluate(data, CONTENDERS, { rounds: Number(values.rounds) });
  // deno-lint-ignore no-console
  console.log(
    values.json
      ? JSON.stringify({ data: dir, tools: data.tools.length, results }, null, 2)
      : `${data.tools.length} tools, ${data.servers.length} servers described, ${dir}\n\n${
        renderReport(results)
      }`,
  );
}
