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
import {
  MAX_TERM_CHARS,
  schemaText,
  STOP_WORDS,
  stripMarkup,
  tokenize,
  tokenizeIdentifiers,
} from "./terms.ts";
import { fieldScores } from "./field_scores.ts";
import { ServerMatch } from "./server_match.ts";
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

// Up to this many results are selected by insertion; more are sorted.
const SMALL_LIMIT = 64;

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
  const keep = (t: string) => !stopWords.has(t) && t.length <= MAX_TERM_CHARS;
  const terms: Terms = {
    text: (text) => tokenize(text).filter(keep),
    identifiers: (text) => tokenizeIdentifiers(text).filter(keep),
  };
  const tools = [...input].sort((a, b) => compareStrings(toolId(a), toolId(b)));
  const ids = tools.map(toolId);
  const infos = new Map(options.servers.map((info) => [info.server, info]));
  // Tokenised once per server, shared by its tools.
  const serverWords = new Map<string, ServerWords>();
  for (const { server } of tools) {
    if (serverWords.has(server)) continue;
    const info = infos.get(server);
    serverWords.set(server, {
      server: terms.identifiers(server),
      serverText: terms.text(`${info?.title ?? ""} ${info?.description ?? ""}`),
    });
  }
  const servers = new ServerMatch(
    new Map(
      [...serverWords].map(([server, words]) => [server, [...words.server, ...words.serverText]]),
    ),
  );
  const serverOf = Int32Array.from(tools, (tool) => servers.indexOf(tool.server));
  const words = tools.map((tool) => toolWords(tool, serverWords.get(tool.server)!, terms));
  const postings = fieldScores(words, settings.fieldWeights, settings);
  const vocabulary = new Vocabulary(postings.keys());
  const nameBigrams = new Map<string, Set<number>>();
  words.forEach(({ name }, doc) => {
    for (let i = 0; i + 1 < name.length; i++) {
      const pair = `${name[i]} ${name[i + 1]}`;
      nameBigrams.set(pair, (nameBigrams.get(pair) ?? new Set()).add(doc));
    }
  });

  // Per-search scratch, reused: a search runs to completion before the next starts, and fresh
  // arrays for every search showed up as garbage-collection pauses in the p99.
  const scores = new Float64Array(tools.length);
  const matched = new Uint32Array(tools.length);
  const lastWord = new Int32Array(tools.length);
  const boost = new Float64Array(tools.length);

  return {
    search(query: string, limit: number): RankedTool[] {
      const queryWords = terms.text(settings.stripMarkup ? stripMarkup(query) : query);
      const counts = new Map<string, number>();
      for (const word of queryWords) {
        counts.set(word, settings.queryTermFrequency ? (counts.get(word) ?? 0) + 1 : 1);
      }
      scores.fill(0);
      matched.fill(0);
      lastWord.fill(-1);
      boost.fill(1);
      let wordIndex = 0;
      for (const [word, count] of counts) {
        for (const { term, weight } of vocabulary.expand(word, settings)) {
          const { docs, scores: termScores, start, end } = postings.get(term)!;
          for (let k = start; k < end; k++) {
            const doc = docs[k]!;
            scores[doc]! += count * weight * termScores[k]!;
            if (lastWord[doc] !== wordIndex) {
              lastWord[doc] = wordIndex;
              matched[doc]!++;
            }
          }
        }
        wordIndex++;
      }
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
      // The best `limit` tools, kept sorted (insertion, as limits are small); tools are numbered in
      // id order, so on equal scores the lower number stays ahead.
      const top: { doc: number; score: number }[] = [];
      const keep = Math.min(limit, tools.length);
      for (let doc = 0; doc < tools.length; doc++) {
        if (!(scores[doc]! > 0)) continue;
        let score = scores[doc]! * matched[doc]! ** settings.coordination * boost[doc]!;
        if (serverMatch !== undefined) {
          score *= 1 + settings.serverBoost * serverMatch[serverOf[doc]!]!;
        }
        if (!Number.isFinite(score) || score <= 0) continue;
        if (keep > SMALL_LIMIT) {
          top.push({ doc, score });
          continue;
        }
        if (top.length === keep && score <= top[keep - 1]!.score) continue;
        let at = top.length === keep ? keep - 1 : top.length;
        while (at > 0 && top[at - 1]!.score < score) {
          top[at] = top[at - 1]!;
          at--;
        }
        top[at] = { doc, score };
      }
      if (keep > SMALL_LIMIT) top.sort((a, b) => b.score - a.score || a.doc - b.doc).splice(keep);
      return top.map(({ doc, score }) => ({ id: ids[doc]!, score }));
    },
  };
}

// A text's search terms (stop-words and overlong terms left out): of prose, and of identifiers.
interface Terms {
  text(text: string): string[];
  identifiers(text: string): string[];
}

interface ServerWords {
  server: string[];
  serverText: string[];
}

function toolWords(
  tool: McpTool,
  server: ServerWords,
  terms: Terms,
): Record<LexicalField, string[]> {
  const schema = schemaText(tool.inputSchema);
  return {
    name: terms.identifiers(tool.name),
    title: terms.text(tool.title ?? ""),
    server: server.server,
    serverText: server.serverText,
    description: terms.text(tool.description),
    params: terms.identifiers(schema.names.join(" ")),
    paramDescriptions: terms.text(schema.descriptions.join(" ")),
  };
}
