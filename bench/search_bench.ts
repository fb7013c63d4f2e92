/**
 * Search latency and index build time on the LiveMCPBench catalogue (527 tools, 70 servers):
 * unfold's default ranker through `McpCatalog.search`, and the MiniSearch alternative. Each search
 * iteration runs the next query of a query set, so the mean is the mean over the set's queries.
 *
 * Run: `deno task bench` (with `bench/scale_bench.ts`)
 *
 * @module
 */

import { lexicalRanker, McpCatalog, type RankerFactory } from "../mod.ts";
import { minisearchRanker } from "../src/ranking/minisearch.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";

const dir = defaultDataDir();
if (dir === undefined) {
  throw new Error("Cannot find the LiveMCPBench data: set UNFOLD_DATA_DIR");
}
const data = loadEvalData(dir);
const { tools, servers } = data;

for (
  const [name, ranker] of [["lexicalRanker", lexicalRanker], [
    "minisearchRanker",
    minisearchRanker,
  ]] as [string, RankerFactory][]
) {
  Deno.bench({
    name: `${name}: build the index (${tools.length} tools)`,
    group: "build",
    baseline: ranker === lexicalRanker,
    fn: () => {
      ranker(tools, { servers });
    },
  });
  const catalog = new McpCatalog(tools, { servers, ranker });
  catalog.search("-", 1); // builds the index before timing
  for (const set of data.sets) {
    const queries = set.queries.map((q) => q.query);
    let next = 0;
    Deno.bench({
      name: `${name}: McpCatalog.search, one ${set.name} query (${queries.length} in turn)`,
      group: `search ${set.name}`,
      baseline: ranker === lexicalRanker,
      fn: () => {
        catalog.search(queries[next]!, 5);
        next = (next + 1) % queries.length;
      },
    });
  }
}
