/**
 * Search time against the request's length: requests of 250 to 8,000 characters (ETOM's long
 * task requests run together and cut, at several offsets, as an agent pastes a task) over ETOM's
 * 2,375 tools, with the default ranker and the Deno default. Each iteration searches the next
 * request of its length, so the figure is the mean over them. A search reads at most
 * `queryTermLimit` (96) distinct words, so past a few hundred characters its time grows only with
 * the tokenising (linear) and no longer with the words searched.
 *
 * Run: `deno task bench` (or `deno bench --node-modules-dir=auto --allow-read --allow-env
 * bench/query_length_bench.ts`); the CPU figures of `docs/retrieval.md` come from
 * `bench/search_cpu.ts --lengths`.
 *
 * @module
 */

import { McpCatalog } from "../mod.ts";
import { createLexicalRanker } from "../src/ranking/lexical_ranker.ts";
import { denoRankerOptions } from "../src/ranking/deno_ranker.ts";
import { lengthRequests, REQUEST_LENGTHS } from "./_long_requests.ts";
import { loadEvalData } from "./eval/dataset.ts";

const etom = loadEvalData(new URL("../testdata/etom", import.meta.url).pathname);
const rankers = [
  ["default", createLexicalRanker()],
  ["Deno default", createLexicalRanker(denoRankerOptions())],
] as const;

for (const [name, ranker] of rankers) {
  const catalog = new McpCatalog(etom.tools, { servers: etom.servers, ranker });
  catalog.search("warm up", 1); // the index is built on the first search
  for (const length of REQUEST_LENGTHS) {
    const requests = lengthRequests(etom, length);
    let next = 0;
    Deno.bench({
      name: `${name}: search a request of ${length} characters, 2,375 tools`,
      group: `length ${name}`,
      baseline: length === REQUEST_LENGTHS[0],
      fn: () => {
        catalog.search(requests[next++ % requests.length]!, 5);
      },
    });
  }
}
