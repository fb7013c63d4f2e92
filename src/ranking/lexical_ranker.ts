/**
 * The default ranker: a dependency-free lexical index. Each tool is scored like MiniSearch's BM25+
 * (a sum over weighted fields, each with its own term statistics and length normalisation), with
 * the scores of every tool and word computed once when the index is built, so a search is a few
 * array lookups; then re-scored by how many query words it matched, by query word pairs that
 * appear side by side in its name, and by how well its server's description matches the query.
 *
 * @module
 */

import { compareStrings } from "../_compare.ts";
import type { McpTool } from "../tool.ts";
import { toolId } from "../tool.ts";
import type { RankedTool, Ranker, RankerFactory, RankerOptions } from "./ranker.ts";
import { schemaText, splitIdentifiers, STOP_WORDS, stripMarkup, tokenize } from "./terms.ts";
import { Vocabulary } from "./vocabulary.ts";

/** The parts of a tool the ranker indexes. */
export type LexicalField =
  | "name"
  | "title"
  | "server"
  | "serverText"
  | "description"
  | "params"
  | "paramDescriptions";

/** Options of {@linkcode createLexicalRanker}; each defaults to {@linkcode LEXICAL_DEFAULTS}. */
export interface LexicalRankerOptions {
  /**
   * How much a match in each field counts (0 leaves the field out): the tool's `name`, `title`,
   * `server` name, `serverText` (the server's title and description), `description`, `params`
   * (input property names) and `paramDescriptions`.
   * @default {{name: 3, title: 2, server: 1.5, serverText: 1.5, description: 1, params: 0.5, paramDescriptions: 0.5}}
   */
  fieldWeights?: Partial<Record<LexicalField, number>>;
  /** BM25 term-frequency saturation. @default {1.2} */
  k1?: number;
  /** BM25 length normalisation, per field. @default {0.7} */
  b?: number;
  /** BM25+ lower bound: what any match in a field is worth, however long the field. @default {0.5} */
  delta?: number;
  /** The shortest query word that also matches longer words it begins. @default {4} */
  prefixMinLength?: number;
  /** The weight of a prefix match (0: off). @default {0.375} */
  prefixWeight?: number;
  /** The shortest unknown query word matched to catalogue words one typo away. @default {5} */
  fuzzyMinLength?: number;
  /** The weight of a match one typo away (0: off). @default {0.45} */
  fuzzyWeight?: number;
  /** Whether a word repeated in the query counts as often as it is repeated. @default {true} */
  queryTermFrequency?: boolean;
  /** The score is multiplied by (number of distinct query words matched) ^ coordination. @default {0.75} */
  coordination?: number;
  /** Each query word pair found side by side in a tool's name multiplies its score by 1 + this. @default {2} */
  nameBigramBoost?: number;
  /** A tool's score is multiplied by 1 + this × (its server's relative match). @default {1} */
  serverBoost?: number;
  /** Words ignored in queries and tools. @default {STOP_WORDS} */
  stopWords?: ReadonlySet<string>;
  /** Whether markup tags are removed from queries before searching. @default {true} */
  stripMarkup?: boolean;
}

/** Every setting of the lexical ranker: {@linkcode LexicalRankerOptions} with none left out. */
export type LexicalSettings =
  & Required<Omit<LexicalRankerOptions, "fieldWeights">>
  & { fieldWeights: Readonly<Record<LexicalField, number>> };

/** The defaults of {@linkcode LexicalRankerOptions}, measured with `deno task eval`. */
export const LEXICAL_DEFAULTS: Readonly<LexicalSettings> = Object.freeze({
  fieldWeights: Object.freeze({
    name: 3,
    title: 2,
    server: 1.5,
    serverText: 1.5,
    description: 1,
    params: 0.5,
    paramDescriptions: 0.5,
  }),
  k1: 1.2,
  b: 0.7,
  delta: 0.5,
  prefixMinLength: 4,
  prefixWeight: 0.375,
  fuzzyMinLength: 5,
  fuzzyWeight: 0.45,
  queryTermFrequency: true,
  coordination: 0.75,
  nameBigramBoost: 2,
  serverBoost: 1,
  stopWords: STOP_WORDS,
  stripMarkup: true,
});

// Longer terms are noise (hashes, base64).
const MAX_TERM_CHARS = 40;

// A term's tools and scores: `docs[start..end)` and `impacts[start..end)` of arrays all terms share.
interface Postings {
  docs: Int32Array;
  impacts: Float64Array;
  start: number;
  end: number;
}

/**
 * Builds a lexical ranker factory with other settings than the defaults (to measure what each
 * technique is worth, or to tune for a catalogue).
 *
 * @param options Settings that replace {@linkcode LEXICAL_DEFAULTS}.
 * @returns A ranker factory for `new McpCatalog(tools, {ranker})`.
 *
 * @example Usage
 * ```ts
 * import { createLexicalRanker } from "./lexical_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const factory = createLexicalRanker({ serverBoost: 0 });
 * const ranker = factory([
 *   { server: "files", name: "read_file", description: "Read a file", inputSchema: { type: "object" } },
 * ], { servers: [] });
 * equal(ranker.search("read file", 5)[0]?.id, "files/read_file");
 * ```
 */
export function createLexicalRanker(options: LexicalRankerOptions = {}): RankerFactory {
  const settings: LexicalSettings = {
    ...LEXICAL_DEFAULTS,
    ...options,
    fieldWeights: { ...LEXICAL_DEFAULTS.fieldWeights, ...options.fieldWeights },
  };
  return (tools, rankerOptions) => buildRanker(tools, rankerOptions, settings);
}

/**
 * The default ranker (see the module documentation), with {@linkcode LEXICAL_DEFAULTS}.
 *
 * @param tools The tools to index, in any order.
 * @param options Server information: titles and descriptions are indexed with each tool and
 * score the servers themselves.
 * @returns A ranker over the tools.
 *
 * @example Usage
 * ```ts
 * import { lexicalRanker } from "./lexical_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = lexicalRanker([
 *   { server: "github", name: "create_issue", description: "Open an issue", inputSchema: { type: "object" } },
 *   { server: "slack", name: "post_message", description: "Send a message", inputSchema: { type: "object" } },
 * ], { servers: [{ server: "slack", description: "Team chat" }] });
 * equal(ranker.search("send a chat message", 5)[0]?.id, "slack/post_message");
 * ```
 */
export const lexicalRanker: RankerFactory = createLexicalRanker();

function buildRanker(
  input: readonly McpTool[],
  options: RankerOptions,
  settings: LexicalSettings,
): Ranker {
  const { stopWords } = settings;
  const terms = (text: string) =>
    tokenize(text).filter((t) => !stopWords.has(t) && t.length <= MAX_TERM_CHARS);
  const tools = [...input].sort((a, b) => compareStrings(toolId(a), toolId(b)));
  const ids = tools.map(toolId);
  const infos = new Map(options.servers.map((info) => [info.server, info]));
  // Tokenised once per server, shared by its tools.
  const serverWords = new Map<string, ServerWords>();
  for (const { server } of tools) {
    if (serverWords.has(server)) continue;
    const info = infos.get(server);
    serverWords.set(server, {
      server: terms(splitIdentifiers(server)),
      serverText: terms(`${info?.title ?? ""} ${info?.description ?? ""}`),
    });
  }
  const servers = new ServerScorer(serverWords);
  const serverOf = Int32Array.from(tools, (tool) => servers.indexOf(tool.server));
  const words = tools.map((tool) => toolWords(tool, serverWords.get(tool.server)!, terms));
  const fields = (Object.keys(settings.fieldWeights) as LexicalField[])
    .filter((field) => settings.fieldWeights[field] > 0);
  const postings = buildPostings(words, fields, settings);
  const vocabulary = new Vocabulary(postings.keys());
  const nameBigrams = new Map<string, Set<number>>();
  words.forEach(({ name }, doc) => {
    for (let i = 0; i + 1 < name.length; i++) {
      const pair = `${name[i]} ${name[i + 1]}`;
      nameBigrams.set(pair, (nameBigrams.get(pair) ?? new Set()).add(doc));
    }
  });

  return {
    search(query: string, limit: number): RankedTool[] {
      const queryWords = terms(settings.stripMarkup ? stripMarkup(query) : query);
      const counts = new Map<string, number>();
      for (const word of queryWords) {
        counts.set(word, settings.queryTermFrequency ? (counts.get(word) ?? 0) + 1 : 1);
      }
      const scores = new Float64Array(tools.length);
      const matched = new Uint16Array(tools.length);
      const lastWord = new Int32Array(tools.length).fill(-1);
      let wordIndex = 0;
      for (const [word, count] of counts) {
        for (const { term, weight } of vocabulary.expand(word, settings)) {
          const { docs, impacts, start, end } = postings.get(term)!;
          for (let k = start; k < end; k++) {
            const doc = docs[k]!;
            scores[doc]! += count * weight * impacts[k]!;
            if (lastWord[doc] !== wordIndex) {
              lastWord[doc] = wordIndex;
              matched[doc]!++;
            }
          }
        }
        wordIndex++;
      }
      const boost = new Float64Array(tools.length).fill(1);
      if (settings.nameBigramBoost > 0) {
        const pairs = new Set<string>();
        for (let i = 0; i + 1 < queryWords.length; i++) {
          pairs.add(`${queryWords[i]} ${queryWords[i + 1]}`);
        }
        for (const pair of pairs) {
          for (const doc of nameBigrams.get(pair) ?? []) {
            boost[doc]! *= 1 + settings.nameBigramBoost;
          }
        }
      }
      const serverMatch = settings.serverBoost > 0 ? servers.match(counts.keys()) : undefined;
      // The best `limit` tools, kept sorted; tools are numbered in id order, so on equal scores the
      // lower number wins.
      const top: { doc: number; score: number }[] = [];
      for (let doc = 0; doc < tools.length; doc++) {
        if (!(scores[doc]! > 0)) continue;
        let score = scores[doc]! * matched[doc]! ** settings.coordination * boost[doc]!;
        if (serverMatch !== undefined) {
          score *= 1 + settings.serverBoost * serverMatch[serverOf[doc]!]!;
        }
        if (!Number.isFinite(score) || score <= 0) continue;
        if (top.length === limit && score <= top[limit - 1]!.score) continue;
        let at = top.length === limit ? limit - 1 : top.length;
        while (at > 0 && top[at - 1]!.score < score) {
          top[at] = top[at - 1]!;
          at--;
        }
        top[at] = { doc, score };
      }
      return top.map(({ doc, score }) => ({ id: ids[doc]!, score }));
    },
  };
}

interface ServerWords {
  server: string[];
  serverText: string[];
}

function toolWords(
  tool: McpTool,
  server: ServerWords,
  terms: (text: string) => string[],
): Record<LexicalField, string[]> {
  const schema = schemaText(tool.inputSchema);
  return {
    name: terms(splitIdentifiers(tool.name)),
    title: terms(tool.title ?? ""),
    server: server.server,
    serverText: server.serverText,
    description: terms(tool.description),
    params: terms(schema.names.map(splitIdentifiers).join(" ")),
    paramDescriptions: terms(schema.descriptions.join(" ")),
  };
}

// For every term and tool, the tool's BM25+ score for that term summed over fields, each field with
// its own document frequencies and average length (as MiniSearch scores fields). Terms are numbered
// and counted in typed arrays: maps of maps made building several times slower.
function buildPostings(
  words: readonly Record<LexicalField, string[]>[],
  fields: readonly LexicalField[],
  { fieldWeights, k1, b, delta }: LexicalSettings,
): Map<string, Postings> {
  const n = words.length;
  const ids = new Map<string, number>();
  const coded = words.map((w) =>
    fields.map((field) =>
      w[field].map((word) => {
        let id = ids.get(word);
        if (id === undefined) ids.set(word, id = ids.size);
        return id;
      })
    )
  );
  const size = ids.size;
  const df = new Int32Array(fields.length * size);
  const stamp = new Int32Array(size).fill(-1);
  coded.forEach((doc, d) =>
    doc.forEach((terms, f) => {
      for (const term of terms) {
        if (stamp[term] === d * fields.length + f) continue;
        stamp[term] = d * fields.length + f;
        df[f * size + term]!++;
      }
    })
  );
  const averages = fields.map((_, f) =>
    Math.max(1, coded.reduce((sum, doc) => sum + doc[f]!.length, 0) / n)
  );
  // (term, tool, score) triples, tool by tool, then grouped by term (a counting sort).
  const triples = { term: [] as number[], doc: [] as number[], score: [] as number[] };
  const tf = new Float64Array(size);
  const sum = new Float64Array(size);
  const touched: number[] = [];
  coded.forEach((doc, d) => {
    doc.forEach((terms, f) => {
      for (const term of terms) tf[term]!++;
      const norm = k1 * (1 - b + b * terms.length / averages[f]!);
      for (const term of terms) {
        const count = tf[term]!;
        if (count === 0) continue; // already scored for this field
        tf[term] = 0;
        const frequency = df[f * size + term]!;
        const idf = Math.log(1 + (n - frequency + 0.5) / (frequency + 0.5));
        if (sum[term] === 0) touched.push(term);
        sum[term]! += fieldWeights[fields[f]!] * idf * (delta + count * (k1 + 1) / (count + norm));
      }
    });
    for (const term of touched) {
      triples.term.push(term);
      triples.doc.push(d);
      triples.score.push(sum[term]!);
      sum[term] = 0;
    }
    touched.length = 0;
  });
  const start = new Int32Array(size + 1);
  for (const term of triples.term) start[term + 1]!++;
  for (let term = 0; term < size; term++) start[term + 1]! += start[term]!;
  const next = start.slice(0, size);
  const docs = new Int32Array(triples.term.length);
  const impacts = new Float64Array(triples.term.length);
  triples.term.forEach((term, i) => {
    const at = next[term]!++;
    docs[at] = triples.doc[i]!;
    impacts[at] = triples.score[i]!;
  });
  const postings = new Map<string, Postings>();
  for (const [word, term] of ids) {
    postings.set(word, { docs, impacts, start: start[term]!, end: start[term + 1]! });
  }
  return postings;
}

// How well each server's own words (name, title, description) match a query: the summed rarity
// (over servers) of the query words it contains, relative to the best server.
class ServerScorer {
  #names: string[];
  // For each word, the servers whose words hold it, and its rarity among servers.
  #servers = new Map<string, number[]>();
  #idf = new Map<string, number>();

  constructor(servers: ReadonlyMap<string, ServerWords>) {
    this.#names = [...servers.keys()];
    this.#names.forEach((server, index) => {
      const words = servers.get(server)!;
      for (const word of new Set([...words.server, ...words.serverText])) {
        const list = this.#servers.get(word);
        if (list === undefined) this.#servers.set(word, [index]);
        else list.push(index);
      }
    });
    for (const [word, list] of this.#servers) {
      this.#idf.set(word, Math.log(1 + (servers.size - list.length + 0.5) / (list.length + 0.5)));
    }
  }

  match(queryWords: Iterable<string>): Float64Array {
    const scores = new Float64Array(this.#names.length);
    for (const word of queryWords) {
      const idf = this.#idf.get(word) ?? 0;
      for (const index of this.#servers.get(word) ?? []) scores[index]! += idf;
    }
    let best = 0;
    for (const score of scores) best = Math.max(best, score);
    if (best > 0) { for (let i = 0; i < scores.length; i++) scores[i]! /= best; }
    return scores;
  }

  indexOf(server: string): number {
    return this.#names.indexOf(server);
  }
}
