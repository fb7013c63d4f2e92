/**
 * CPU time per search of the default ranker and the Deno default (with word vectors), over the
 * LiveMCPBench queries (527 tools) and the everyday requests (228 tools): the process's CPU time
 * over many rounds of every query of a set, divided by the searches. Less disturbed than wall time
 * when other work shares the cores (`deno task bench` times wall clock).
 *
 * Run: `deno run --node-modules-dir=auto --allow-read --allow-env bench/search_cpu.ts`
 *
 * With `--lengths`: CPU time per search against the request's length instead, over ETOM's 2,375
 * tools, requests of 250 to 8,000 characters (`bench/_long_requests.ts`), and per 1,000
 * characters, for each ranker as it is and "before" (`queryTermLimit`, `positionWeightAfter` and
 * `textPivot` at 0).
 *
 * @module
 */

import process from "node:process";
import { McpCatalog } from "../mod.ts";
import { createLexicalRanker } from "../src/ranking/lexical_ranker.ts";
import { denoRankerOptions } from "../src/ranking/deno_ranker.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";
import { lengthRequests, REQUEST_LENGTHS } from "./_long_requests.ts";

const ROUNDS = 20;

// CPU µs per search of each length, per ranker.
function byLength(): string {
  const etom = loadEvalData(new URL("../testdata/etom", import.meta.url).pathname);
  // "before": the reading of long requests and texts of issue 40 switched off.
  const before = { queryTermLimit: 0, positionWeightAfter: 0, textPivot: 0 };
  const rankers = [
    ["default", createLexicalRanker()],
    ["default, before", createLexicalRanker(before)],
    ["Deno default (vectors)", createLexicalRanker(denoRankerOptions())],
    ["Deno default, before", createLexicalRanker({ ...denoRankerOptions(), ...before })],
  ] as const;
  const rows: string[] = [];
  for (const [name, ranker] of rankers) {
    const catalog = new McpCatalog(etom.tools, { servers: etom.servers, ranker });
    for (const length of REQUEST_LENGTHS) {
      const requests = lengthRequests(etom, length);
      for (const q of requests) catalog.search(q, 5); // builds the index, warms the JIT
      const start = process.cpuUsage();
      for (let round = 0; round < ROUNDS; round++) for (const q of requests) catalog.search(q, 5);
      const used = process.cpuUsage(start);
      const perSearch = (used.user + used.system) / (ROUNDS * requests.length);
      rows.push(
        `| ${name} | ${length} | ${perSearch.toFixed(0)} µs | ${
          (perSearch * 1000 / length).toFixed(0)
        } µs |`,
      );
    }
  }
  return [
    "| ranker | request (characters) | CPU per search | per 1,000 characters |",
    "| --- | ---: | ---: | ---: |",
    ...rows,
  ].join("\n");
}

if (import.meta.main && Deno.args.includes("--lengths")) {
  // deno-lint-ignore no-console
  console.log(byLength());
} else if (import.meta.main) {
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
