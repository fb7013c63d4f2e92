/**
 * The retrieval evaluation: unfold's default ranker (through `McpCatalog.search`, with server
 * information), MiniSearch with default options and a plain BM25 baseline, side by side on every
 * query set of a LiveMCPBench-style directory.
 *
 * Run: `deno task eval [--data DIR] [--json] [--rounds N] [--ablation]`
 *
 * `--ablation` instead compares unfold's default ranker with itself with one technique switched
 * off at a time.
 *
 * Queries go to every ranker exactly as they were written (route_dev queries keep their
 * `<tool_assistant>` wrapper): coping with what agents really send is part of the ranker's job.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createLexicalRanker, type LexicalRankerOptions } from "../src/ranking/lexical_ranker.ts";
import { McpCatalog, type RankerFactory } from "../mod.ts";
import { englishLexicon } from "../src/ranking/lexicon.ts";
import { englishVectors } from "../src/ranking/vectors.ts";
import { minisearchRanker } from "../src/ranking/minisearch.ts";
import { plainMinisearchRanker } from "../src/ranking/minisearch_ranker.ts";
import { bm25Ranker } from "./eval/bm25.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";
import { exactRate, readServerMap } from "./eval/exact.ts";
import { CUTOFF } from "./eval/metrics.ts";
import { renderAblation, renderReport } from "./eval/report.ts";
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
  unfold("unfold + thesaurus (opt-in: englishLexicon())", { thesaurus: englishLexicon() }),
  unfold("unfold + vectors (opt-in: englishVectors())", { vectors: englishVectors() }),
  unfold("unfold + thesaurus + vectors", {
    thesaurus: englishLexicon(),
    vectors: englishVectors(),
  }),
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

// unfold's ranker through the catalogue, with other settings, with or without server information.
function unfold(
  name: string,
  options: LexicalRankerOptions,
  withServers = true,
  ranker: RankerFactory = createLexicalRanker(options),
): Contender {
  return {
    name,
    build(tools, servers) {
      const catalog = new McpCatalog(tools, { servers: withServers ? servers : [], ranker });
      catalog.search("-", 1);
      return (query) => catalog.search(query, CUTOFF).map((match) => match.id);
    },
  };
}

// Each technique switched off in turn (the first row is the default, the reference).
const ABLATION: readonly Contender[] = [
  unfold("default", {}),
  unfold("with the WordNet thesaurus (opt-in: englishLexicon())", { thesaurus: englishLexicon() }),
  unfold("with word vectors (opt-in: englishVectors())", { vectors: englishVectors() }),
  unfold("with the thesaurus and word vectors", {
    thesaurus: englishLexicon(),
    vectors: englishVectors(),
  }),
  unfold("with word vectors at twice the weight (semanticWeight 2)", {
    vectors: englishVectors(),
    semanticWeight: 2,
  }),
  unfold("no inflections", { inflectionWeight: 0 }),
  unfold("with the thesaurus, also for words the catalogue knows at full weight", {
    thesaurus: englishLexicon(),
    knownWordFactor: 1,
  }),
  unfold("with the thesaurus, expansions counting fully in coordination", {
    thesaurus: englishLexicon(),
    fractionalCover: false,
  }),
  unfold("with the thesaurus on the tools' side (related words of names, weight 0.25)", {
    thesaurus: englishLexicon(),
    thesaurusWeight: 0,
    fieldWeights: { related: 0.25 },
  }),
  unfold("with the thesaurus, no two-step fallback on a miss", {
    thesaurus: englishLexicon(),
    fallback: false,
  }),
  unfold("with clause segmentation (long requests ranked per clause, fused)", {
    segmentMinWords: 12,
  }),
  unfold("no coverage re-ranking (diversity 0)", { diversity: 0 }),
  unfold("with pseudo-relevance feedback (3 tools, 8 words, weight 0.3)", { feedbackDocs: 3 }),
  unfold("with pseudo-relevance feedback (3 tools, 8 words, weight 0.1)", {
    feedbackDocs: 3,
    feedbackWeight: 0.1,
  }),
  unfold("no markup stripping", { stripMarkup: false }),
  unfold("no stop-words", { stopWords: new Set() }),
  unfold("no query term frequency", { queryTermFrequency: false }),
  unfold("no prefix matching", { prefixWeight: 0 }),
  unfold("no typo matching", { fuzzyWeight: 0 }),
  unfold("no coordination", { coordination: 0 }),
  unfold("no name word pairs", { nameBigramBoost: 0 }),
  unfold("no server boost", { serverBoost: 0 }),
  unfold("no BM25+ delta", { delta: 0 }),
  unfold("no schema fields", { fieldWeights: { params: 0, paramDescriptions: 0 } }),
  unfold("no server information (servers: [])", {}, false),
  unfold("name + description only", {
    fieldWeights: { title: 0, server: 0, serverText: 0, params: 0, paramDescriptions: 0 },
    serverBoost: 0,
  }),
  unfold(
    "minisearchRanker (previous default, now with markup stripping)",
    {},
    true,
    minisearchRanker,
  ),
];

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      data: { type: "string" },
      json: { type: "boolean", default: false },
      rounds: { type: "string", default: "3" },
      ablation: { type: "boolean", default: false },
    },
  });
  const dir = values.data ?? defaultDataDir();
  if (dir === undefined) {
    throw new Error("Cannot find the LiveMCPBench data: pass --data DIR or set UNFOLD_DATA_DIR");
  }
  const data = loadEvalData(dir);
  const contenders = values.ablation ? ABLATION : CONTENDERS;
  const results = evaluate(data, contenders, { rounds: Number(values.rounds) });
  const render = values.ablation ? renderAblation : renderReport;
  // The everyday-language probe over the real-server catalogue beside it, when it has query sets
  // (not with --data: another data directory has its own sets).
  const everydayDir = `${dir}/../real-servers`;
  const everyday = values.data === undefined && hasQuerySets(everydayDir)
    ? loadEvalData(everydayDir)
    : undefined;
  const everydayResults = everyday === undefined
    ? undefined
    : evaluate(everyday, contenders, { rounds: Number(values.rounds) });
  // Exact lookups with the default ranker, on this catalogue and the real-server one next to it.
  const realServers = readServerMap(`${dir}/../real-servers/tools.json`);
  const exact = {
    [data.dir]: exactRate(data.tools, data.servers),
    ...(realServers === undefined ? {} : { "real-servers": exactRate(realServers) }),
  };
  const exactLines = Object.entries(exact).map(([name, r]) =>
    `exact lookups at rank 1 (${name}): ids ${r.ids.hits}/${r.ids.total}, ` +
    `unique names ${r.names.hits}/${r.names.total}`
  );
  // deno-lint-ignore no-console
  console.log(
    values.json
      ? JSON.stringify(
        {
          data: dir,
          tools: data.tools.length,
          results,
          exact,
          ...(everyday === undefined ? {} : {
            everyday: {
              data: everyday.dir,
              tools: everyday.tools.length,
              results: everydayResults,
            },
          }),
        },
        null,
        2,
      )
      : `${data.tools.length} tools, ${data.servers.length} servers described, ${dir}\n\n${
        render(results)
      }\n${exactLines.join("\n")}\n${
        everyday === undefined
          ? ""
          : `\n${everyday.tools.length} tools (no server descriptions), ${everyday.dir}: ${
            everyday.sets.map((set) => `${set.name}, ${set.queries.length} queries`).join("; ")
          }\n\n${render(everydayResults!)}`
      }`,
  );
}

function hasQuerySets(dir: string): boolean {
  try {
    return [...Deno.readDirSync(dir)].some((entry) =>
      entry.isFile && entry.name.endsWith(".jsonl")
    );
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}
