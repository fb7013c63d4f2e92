/**
 * Search latency and index build time on the LiveMCPBench catalogue (527 tools, 70 servers):
 * unfold's default ranker through `McpCatalog.search`, the Deno default (with word vectors), with
 * the opt-in thesaurus too,
 * and the MiniSearch alternative. Each search iteration runs the next query of a query set, so the
 * mean is the mean over the set's queries; the everyday set of `testdata/real-servers` runs over
 * its own catalogue (228 tools).
 *
 * Run: `deno task bench` (with `bench/scale_bench.ts`)
 *
 * @module
 */

import { lexicalRanker, McpCatalog, type RankerFactory } from "../mod.ts";
import { createLexicalRanker } from "../src/ranking/lexical_ranker.ts";
import { englishLexicon } from "../src/ranking/lexicon.ts";
import { minisearchRanker } from "../src/ranking/minisearch.ts";
import { englishVectors } from "../src/ranking/vectors.ts";
import { denoRankerOptions } from "../src/ranking/deno_ranker.ts";
import { rankingDataOf } from "../src/ranking/ranking_data.ts";
import { RANKING_DATA_ASSET } from "../src/ranking/english_data.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";

const dir = defaultDataDir();
if (dir === undefined) {
  throw new Error("Cannot find the LiveMCPBench data: set UNFOLD_DATA_DIR");
}
const data = loadEvalData(dir);
const { tools, servers } = data;
const everyday = loadEvalData(`${dir}/../real-servers`);

const RANKING_BYTES = Deno.readFileSync(
  new URL(`../src/page${RANKING_DATA_ASSET}`, import.meta.url),
);
Deno.bench({
  name: "rankingDataOf(): open the vectors and the thesaurus in place (once per process in use)",
  group: "decode",
  fn: () => {
    rankingDataOf(RANKING_BYTES);
  },
});

const denoDefault = createLexicalRanker(denoRankerOptions());
const withBoth = createLexicalRanker({ vectors: englishVectors(), thesaurus: englishLexicon() });
for (
  const [name, ranker] of [
    ["lexicalRanker", lexicalRanker],
    ["lexicalRanker + vectors (the Deno default)", denoDefault],
    ["lexicalRanker + thesaurus + vectors", withBoth],
    ["minisearchRanker", minisearchRanker],
  ] as [string, RankerFactory][]
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
  const own = new McpCatalog(everyday.tools, { ranker });
  own.search("-", 1);
  for (const set of everyday.sets) {
    const queries = set.queries.map((q) => q.query);
    let next = 0;
    Deno.bench({
      name:
        `${name}: McpCatalog.search, one ${set.name} query (${queries.length} in turn, ${everyday.tools.length} tools)`,
      group: `search ${set.name}`,
      baseline: ranker === lexicalRanker,
      fn: () => {
        own.search(queries[next]!, 5);
        next = (next + 1) % queries.length;
      },
    });
  }
}
