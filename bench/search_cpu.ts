/**
 * CPU time per search of the default ranker and the Deno default (with word vectors), over the
 * LiveMCPBench queries (527 tools) and the everyday requests (228 tools): the process's CPU time
 * over many rounds of every query of a set, divided by the searches. Less disturbed than wall time
 * when other work shares the cores (`deno task bench` times wall clock).
 *
 * Run: `deno run --node-modules-dir=auto --allow-read --allow-env bench/search_cpu.ts`
 *
 * @module
 */

import process from "node:process";
import { McpCatalog } from "../mod.ts";
import { createLexicalRanker } from "../src/ranking/lexical_ranker.ts";
import { denoRankerOptions } from "../src/ranking/deno_ranker.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";

const ROUNDS = 20;

if (import.meta.main) {
  const dir = defaultDataDir();
  if (dir === undefined) throw new Error("Cannot find the LiveMCPBench data: set UNFOLD_DATA_DIR");
  const sets = [loadEvalData(dir), loadEvalData(`${dir}/../real-servers`)];
  const rankers = [
    ["default", createLexicalRanker()],
    ["Deno default (vectors)", createLexicalRanker(denoRankerOptions())],
  ] as const;
  const rows: string[] = [];
  for (const [name, ranker] of rankers) {
    for (const data of sets) {
      const catalog = new McpCatalog(data.tools, { servers: data.servers, ranker });
      for (const set of data.sets) {
        const queries = set.queries.map((q) => q.query);
        for (const q of queries) catalog.search(q, 5); // builds the index, warms the JIT
        const start = process.cpuUsage();
        for (let round = 0; round < ROUNDS; round++) for (const q of queries) catalog.search(q, 5);
        const used = process.cpuUsage(start);
        const perSearch = (used.user + used.system) / (ROUNDS * queries.length);
        rows.push(
          `| ${name} | ${set.name} (${data.tools.length} tools) | ${perSearch.toFixed(0)} µs |`,
        );
      }
    }
  }
  // deno-lint-ignore no-console
  console.log(
    ["| ranker | queries | CPU per search |", "| --- | --- | ---: |", ...rows].join("\n"),
  );
}
