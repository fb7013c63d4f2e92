/**
 * The lexical ranker at scale, on the LiveMCPBench catalogue copied under other server names: its
 * index build at 10,013 tools, and the whole catalogue build (every schema checked, then the
 * index), against MiniSearch with default options over name and description (the floor the
 * performance issues compare with, measured in the same run, as the baseline), and
 * a search at 50,065 tools. Its own file, so that the large catalogues are not in memory while the
 * other benchmarks run.
 *
 * Run: `deno task bench` (or `deno bench --allow-read --allow-env bench/scale_bench.ts`)
 *
 * @module
 */

import { lexicalRanker, McpCatalog, type RankerFactory } from "../mod.ts";
import { plainMinisearchRanker } from "../src/ranking/minisearch_ranker.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";
import { replicate } from "./eval/replicate.ts";

const dir = defaultDataDir();
if (dir === undefined) {
  throw new Error("Cannot find the LiveMCPBench data: set UNFOLD_DATA_DIR");
}
const data = loadEvalData(dir);

// 10k tools: the lexical build against MiniSearch defaults (the baseline, so the ratio is ours).
const large = replicate(data, 19);
for (
  const [name, ranker] of [
    ["MiniSearch defaults (name + description)", plainMinisearchRanker],
    ["lexicalRanker", lexicalRanker],
  ] as [string, RankerFactory][]
) {
  Deno.bench({
    name: `${name}: build the index (${large.tools.length} tools)`,
    group: "build 10k",
    baseline: ranker === plainMinisearchRanker,
    n: 10,
    warmup: 2,
    fn: () => {
      ranker(large.tools, { servers: large.servers });
    },
  });
}
// The catalogue a gateway builds: every tool validated (schemas checked), then the index.
Deno.bench({
  name: `McpCatalog: build the catalogue, schemas checked (${large.tools.length} tools)`,
  group: "build 10k",
  n: 10,
  warmup: 2,
  fn: () => {
    new McpCatalog(large.tools, { servers: large.servers }).search("read a file", 1);
  },
});

// 50k tools: search keeps scaling. The index is built on the first (warm-up) call, so that it is
// not in memory while the builds above are timed.
let hugeCatalog: McpCatalog | undefined;
const routeQueries =
  data.sets.find((set) => set.name === "route_dev")?.queries.map((q) => q.query) ??
    [];
let nextHuge = 0;
Deno.bench({
  name: `lexicalRanker: McpCatalog.search, one route_dev query (${data.tools.length * 95} tools)`,
  group: "search 50k",
  warmup: 1,
  fn: () => {
    if (hugeCatalog === undefined) {
      const huge = replicate(data, 95);
      hugeCatalog = new McpCatalog(huge.tools, { servers: huge.servers });
    }
    hugeCatalog.search(routeQueries[nextHuge]!, 5);
    nextHuge = (nextHuge + 1) % routeQueries.length;
  },
});
