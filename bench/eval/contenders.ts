/**
 * The rankers `deno task eval` compares: the default, the Deno default and the baselines
 * ({@linkcode CONTENDERS}), the variants of the default that `--ablation` measures, each with
 * one technique switched off or one opt-in switched on ({@linkcode ABLATION}), and the variants of
 * the Deno default that `--ablation --deno` measures ({@linkcode DENO_ABLATION}).
 *
 * @module
 */

import {
  createLexicalRanker,
  type LexicalRankerOptions,
} from "../../src/ranking/lexical_ranker.ts";
import { McpCatalog, type RankerFactory } from "../../mod.ts";
import { englishLexicon } from "../../src/ranking/lexicon.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";
import { denoRankerOptions } from "../../src/ranking/deno_ranker.ts";
import { indexNames } from "../../src/ranking/name_coverage.ts";
import { minisearchRanker } from "../../src/ranking/minisearch.ts";
import { plainMinisearchRanker } from "../../src/ranking/minisearch_ranker.ts";
import { bm25Ranker } from "./bm25.ts";
import { CUTOFF } from "./metrics.ts";
import type { Contender } from "./run.ts";

/**
 * unfold's ranker through the catalogue, with other settings, with or without server information.
 *
 * @param name Its name in tables.
 * @param options Settings that replace the defaults.
 * @param withServers Whether the servers' titles and descriptions are indexed.
 * @param ranker The ranker factory (by default the lexical ranker with `options`).
 * @returns The contender.
 *
 * @example Usage
 * ```ts
 * import { unfold } from "./contenders.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const tools = [{ server: "s", name: "read_file", description: "Read a file", inputSchema: { type: "object" } }];
 * deepEqual(unfold("x", {}).build(tools, [])("read"), ["s/read_file"]);
 * ```
 */
export function unfold(
  name: string,
  options: LexicalRankerOptions,
  withServers = true,
  ranker: RankerFactory = createLexicalRanker(options),
): Contender {
  return {
    name,
    build(tools, servers) {
      const catalog = new McpCatalog(tools, { servers: withServers ? servers : [], ranker });
      catalog.search("-", 1); // the index is built on the first search
      return (query) => catalog.search(query, CUTOFF).map((match) => match.id);
    },
  };
}

// Issue 40's reading of long requests and long texts, each switched off or set otherwise.
const LONG_REQUEST_VARIANTS: readonly [string, LexicalRankerOptions][] = [
  ["before issue 40: all words, each fully, no text pivot (the previous default)", {
    queryTermLimit: 0,
    positionWeightAfter: 0,
    textPivot: 0,
  }],
  ["every distinct word searched (queryTermLimit 0)", { queryTermLimit: 0 }],
  ...[48, 64, 128].map((v): [string, LexicalRankerOptions] => [
    `the ${v} most distinctive words searched (queryTermLimit)`,
    { queryTermLimit: v },
  ]),
  ["every word counted fully (positionWeightAfter 0)", { positionWeightAfter: 0 }],
  ...[32, 64, 256].map((v): [string, LexicalRankerOptions] => [
    `words past the first ${v} counted less (positionWeightAfter)`,
    { positionWeightAfter: v },
  ]),
  ["no text pivot (textPivot 0)", { textPivot: 0 }],
  ...[4, 6, 12].map((v): [string, LexicalRankerOptions] => [
    `texts past ${v} × the mean length pivoted (textPivot)`,
    { textPivot: v },
  ]),
];

/** The rankers compared by `deno task eval`: the default first, then the Deno default. */
export const CONTENDERS: readonly Contender[] = [
  unfold("unfold", {}),
  unfold("unfold, Deno default (+ vectors, thesaurus in context)", denoRankerOptions()),
  unfold("unfold + vectors + thesaurus unchecked", {
    vectors: englishVectors(),
    thesaurus: englishLexicon(),
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

/** Each technique switched off or on in turn (the first row is the default, the reference). */
export const ABLATION: readonly Contender[] = [
  unfold("default", {}),
  unfold("no coverage re-ranking (diversity 0)", { diversity: 0 }),
  unfold("coverage re-ranking at diversity 0.15", { diversity: 0.15 }),
  unfold("coverage re-ranking at depth 30", { diversityDepth: 30 }),
  unfold("coverage re-ranking at depth 100", { diversityDepth: 100 }),
  unfold("no inflections", { inflectionWeight: 0 }),
  unfold("inflections at weight 0.5", { inflectionWeight: 0.5 }),
  unfold("no inflections, no coverage re-ranking (the earlier ranker)", {
    inflectionWeight: 0,
    diversity: 0,
  }),
  unfold("no server boost", { serverBoost: 0 }),
  unfold("server boost 0.5", { serverBoost: 0.5 }),
  unfold("no query data runs left out (dataRunChars 0, the previous default)", {
    dataRunChars: 0,
  }),
  ...[64, 200].map((chars) =>
    unfold(`query data runs of ${chars}+ characters left out (dataRunChars)`, {
      dataRunChars: chars,
    })
  ),
  ...[0.1, 0.3].map((discount) =>
    unfold(`server boost without name-held words at ${discount} (serverBoostNameDiscount)`, {
      nameWords: indexNames,
      serverBoostNameDiscount: discount,
    })
  ),
  unfold("name coverage 0.2 (nameCoverage)", { nameWords: indexNames, nameCoverage: 0.2 }),
  ...LONG_REQUEST_VARIANTS.map(([name, changes]) => unfold(name, changes)),
  unfold("with the WordNet thesaurus (englishLexicon())", { thesaurus: englishLexicon() }),
  unfold("with word vectors (englishVectors(), the Deno default)", { vectors: englishVectors() }),
  unfold("with word vectors at the previous weight (semanticWeight 1)", {
    vectors: englishVectors(),
    semanticWeight: 1,
  }),
  unfold("with the thesaurus and word vectors", {
    thesaurus: englishLexicon(),
    vectors: englishVectors(),
  }),
  unfold("with clause segmentation (long requests ranked per clause, fused)", {
    segmentMinWords: 12,
  }),
  unfold("with pseudo-relevance feedback (3 tools, 8 words, weight 0.3)", { feedbackDocs: 3 }),
  unfold("no markup stripping", { stripMarkup: false }),
  unfold("no stop-words", { stopWords: new Set() }),
  unfold("no query term frequency", { queryTermFrequency: false }),
  unfold("no prefix matching", { prefixWeight: 0 }),
  unfold("no typo matching", { fuzzyWeight: 0 }),
  unfold("no coordination", { coordination: 0 }),
  unfold("no name word pairs", { nameBigramBoost: 0 }),
  unfold("no BM25+ delta", { delta: 0 }),
  unfold("no schema fields", { fieldWeights: { params: 0, paramDescriptions: 0 } }),
  unfold("no server information (servers: [])", {}, false),
  unfold("name + description only", {
    fieldWeights: { title: 0, server: 0, serverText: 0, params: 0, paramDescriptions: 0 },
    serverBoost: 0,
  }),
  unfold("minisearchRanker (the previous default)", {}, true, minisearchRanker),
];

/**
 * The Deno default with one of its uses of the word vectors changed at a time (the first row is
 * the Deno default, the reference): the rule for defaults applies to it as to the default.
 */
export const DENO_ABLATION: readonly Contender[] = [
  deno("Deno default", {}),
  deno("neither word weighing nor neighbours", { commonWordPower: 0, neighbourWeight: 0 }),
  deno("no English word weighing (commonWordPower 0)", { commonWordPower: 0 }),
  ...sweep("commonWordPower", [0.5, 1, 1.5], (v) => `word weighing at power ${v}`),
  deno("no neighbours (neighbourWeight 0)", { neighbourWeight: 0 }),
  ...sweep("neighbourWeight", [0.1, 0.3], (v) => `neighbours at weight ${v}`),
  deno("semantic match at weight 1.5 (the weight of the previous table)", { semanticWeight: 1.5 }),
  ...sweep("semanticWeight", [2, 2.5, 2.75, 3], (v) => `semantic match at weight ${v}`),
  deno("without the thesaurus (the previous Deno default)", { thesaurus: false }),
  deno("the thesaurus unchecked (thesaurusContext 0)", { thesaurusContext: 0 }),
  ...sweep(
    "thesaurusContext",
    [0.35, 0.4, 0.5, 0.6],
    (v) => `the thesaurus checked by context at cosine ${v}`,
  ),
  deno("before: neither the name-held discount nor data runs (the previous Deno default)", {
    serverBoostNameDiscount: 0,
    dataRunChars: 0,
  }),
  deno("no query data runs left out (dataRunChars 0)", { dataRunChars: 0 }),
  ...sweep(
    "dataRunChars",
    [64, 200],
    (v) => `query data runs of ${v}+ characters left out (dataRunChars)`,
  ),
  ...sweep(
    "serverBoostNameDiscount",
    [0, 0.1, 0.2, 0.4, 0.5, 0.6, 1],
    (v) => `server boost without name-held words at ${v} (serverBoostNameDiscount)`,
  ),
  ...sweep("nameCoverage", [0.1, 0.2, 0.4], (v) => `name coverage ${v} (nameCoverage)`),
  deno("name coverage 0.2 among siblings (nameCoverageSiblings)", {
    nameCoverage: 0.2,
    nameCoverageSiblings: true,
  }),
  ...sweep(
    "siblingWeight",
    [0, 0.05, 0.075, 0.15, 0.2, 0.4, 1],
    (v) => `siblings ordered by meaning at weight ${v} (siblingWeight)`,
  ),
  ...sweep(
    "siblingDepth",
    [5, 20, 30],
    (v) => `siblings ordered by meaning at depth ${v} (siblingDepth)`,
  ),
  ...LONG_REQUEST_VARIANTS.map(([name, changes]) => deno(name, changes)),
];

// The Deno default with some settings changed.
function deno(name: string, changes: LexicalRankerOptions): Contender {
  return unfold(name, { ...denoRankerOptions(), ...changes });
}

// The Deno default with one numeric setting at each of these values.
function sweep(
  key: keyof LexicalRankerOptions,
  values: readonly number[],
  name: (value: number) => string,
): Contender[] {
  return values.map((value) => deno(name(value), { [key]: value }));
}
