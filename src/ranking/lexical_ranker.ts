/**
 * The default ranker: a dependency-free lexical index. Each tool is scored like MiniSearch's BM25+
 * (a sum over weighted fields, each with its own term statistics and length normalisation), with
 * the scores of every tool and word computed once when the index is built, so a search is a few
 * array lookups; then re-scored by how many query words it matched, by query word pairs that
 * appear side by side in its name, and by how well its server's description matches the query.
 * Query words also reach other inflections of themselves and, given a thesaurus (opt-in: the
 * WordNet one is `englishLexicon()` of `./lexicon`), related words, at weights below an exact match.
 * Given word vectors (`englishVectors()` of `./vectors`, the Deno default), tools close in meaning
 * to a query whose words the catalogue does not use rank in beside the lexical matches
 * (`semantic.ts`), frequent English words in a query count for less, and each query word also
 * reaches the catalogue words nearest to it in meaning (`neighbours.ts`); with both, the thesaurus
 * can be checked by the request's context (`thesaurusContext`, `context.ts`).
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
import { feedbackWords } from "./feedback.ts";
import type { ExpansionSources } from "./expansion.ts";
import type {
  LexicalField,
  Lexicon,
  RelatedWord,
  SemanticMatch,
  WordVectors,
} from "./word_sources.ts";
export type { LexicalField } from "./word_sources.ts";
import { LexicalIndex } from "./lexical_search.ts";
import {
  decodeLexicalParts,
  encodeLexicalParts,
  type LexicalParts,
  StoredPostings,
} from "./lexical_snapshot.ts";
import { clauses, fuseRanks } from "./segments.ts";
import { ServerMatch } from "./server_match.ts";
import type { NameCoverage } from "./name_coverage.ts";
import { withoutDataRuns } from "./data_runs.ts";
import { Vocabulary } from "./vocabulary.ts";

/**
 * The `_meta` key under which a tool may carry search keywords or aliases (a string or an array of
 * strings), indexed like its title: how an operator fixes a miss without code.
 */
export const KEYWORDS_META_KEY = "unfold/keywords";

/**
 * The `_meta` key under which a server gives its own search hint for a tool (what Claude Code's
 * tool search reads): indexed with the keywords, so a server's hint helps here too.
 */
export const SEARCH_HINT_META_KEY = "anthropic/searchHint";

/**
 * The words a tool carries for search in `_meta`: its keywords and its search hint (each a string
 * or an array of strings; anything else is ignored).
 *
 * @param tool The tool.
 * @returns Those words as one text, `""` when it has none.
 *
 * @example Usage
 * ```ts
 * import { keywordText } from "./lexical_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tool = {
 *   server: "s",
 *   name: "t",
 *   description: "",
 *   inputSchema: { type: "object" as const },
 *   _meta: { "unfold/keywords": ["alias"], "anthropic/searchHint": "weather forecast" },
 * };
 * equal(keywordText(tool), "alias weather forecast");
 * ```
 */
export function keywordText(tool: McpTool): string {
  return [KEYWORDS_META_KEY, SEARCH_HINT_META_KEY].map((key) => {
    const value = tool._meta?.[key];
    if (typeof value === "string") return value;
    return Array.isArray(value) ? value.filter((k) => typeof k === "string").join(" ") : "";
  }).filter((text) => text !== "").join(" ");
}

/** Options of {@linkcode createLexicalRanker}; each defaults to {@linkcode LEXICAL_DEFAULTS}. */
export interface LexicalRankerOptions {
  /**
   * How much a match in each field counts (0 leaves the field out): the tool's `name`, `title`
   * (its MCP `title`, else `annotations.title`), `keywords` (`_meta["unfold/keywords"]`), `server`
   * name, `serverText` (the server's title and description), `description`, `params` (input
   * property names), `paramDescriptions` and `related` (document-side expansion: the thesaurus's
   * words related to the tool's name, title and keywords; needs `thesaurus`).
   * @default {{name: 3, title: 2, keywords: 2, server: 1.5, serverText: 1.5, description: 1, params: 0.5, paramDescriptions: 0.5, related: 0}}
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
  /** The weight of another inflection of a query word (`uploading` → `uploads`; 0: off). @default {0.8} */
  inflectionWeight?: number;
  /**
   * The thesaurus that relates query words to other words (`picture` → `image`), e.g.
   * `englishLexicon()` from `./lexicon` (WordNet filtered by GloVe vectors, ~95 KiB gzipped:
   * opt-in to keep the Worker small); `false` or absent for none.
   * @default {false}
   */
  thesaurus?: Lexicon | false;
  /** A factor on every thesaurus relation's weight (0: off). @default {1} */
  thesaurusWeight?: number;
  /**
   * With `thesaurus` and `vectors`, the thesaurus checked by the request's context (0: off):
   * a query word's related words are followed only when the catalogue does not have the word,
   * and only those whose vector's cosine with the query's (the weighted mean of its words'
   * vectors) is at least this, so that the senses the request does not mean are left out (see
   * `./context`); the thesaurus then also leaves the catalogue's own base forms for inflections
   * in place. The deployment's `synonyms` are followed whatever the request.
   * @default {0}
   */
  thesaurusContext?: number;
  /** The most related words followed per query word, strongest first. @default {10} */
  maxRelated?: number;
  /**
   * A deployment's own synonyms: groups of words or phrases that mean the same there
   * (`[["k8s", "kubernetes"], ["ticket", "issue"]]`); each word of an entry reaches each word of
   * the other entries of its group at `synonymWeight`.
   * @default {[]}
   */
  synonyms?: readonly (readonly string[])[];
  /** The weight of a match through `synonyms`. @default {0.8} */
  synonymWeight?: number;
  /**
   * When nothing matches, search again following the thesaurus two steps (a related word's
   * related words), so that a query naming a real need is never a bare miss. @default {true}
   */
  fallback?: boolean;
  /**
   * Requests with at least this many words (after stop-words) and two clauses or more are also
   * ranked clause by clause, and the rankings fused, so that each needed tool surfaces (0: off).
   * @default {0}
   */
  segmentMinWords?: number;
  /** The rank offset of the fusion of clause rankings (small: the clauses take turns). @default {1} */
  segmentFusionK?: number;
  /** The factor on the expansions of a query word the catalogue itself uses. @default {0.5} */
  knownWordFactor?: number;
  /** Whether a match through an expansion counts as matching its query word only by its weight. @default {true} */
  fractionalCover?: boolean;
  /**
   * The weight of query-word coverage when the best tools are re-ranked (xQuAD, with the query's
   * words weighted by idf as aspects), so that a request needing several tools surfaces each of
   * them (0: off; at most 0.99, where relevance still breaks ties).
   * @default {0.3}
   */
  diversity?: number;
  /** How many of the best tools the coverage re-ranking considers. @default {60} */
  diversityDepth?: number;
  /**
   * With vectors: among the first {@linkcode LexicalRankerOptions.siblingDepth} results, each
   * server's tools swap the places they hold by their score relative to the best plus this × their
   * cosine with the request (`./sibling_order`; 0: off).
   * @default {0}
   */
  siblingWeight?: number;
  /** How many of the best results the sibling order considers. @default {10} */
  siblingDepth?: number;
  /**
   * Pseudo-relevance feedback: the words of this many best tools of a first search feed a second
   * (0: off).
   * @default {0}
   */
  feedbackDocs?: number;
  /** The most feedback words added to a query. @default {8} */
  feedbackWords?: number;
  /** The weight of the best feedback word (a query word counts 1). @default {0.3} */
  feedbackWeight?: number;
  /**
   * Word vectors for a semantic match (opt-in: `englishVectors()` from `./vectors`, ~0.8 MiB
   * gzipped): each tool and each query becomes the weighted mean of its words' vectors, and tools
   * close in meaning rank in beside the lexical matches, weighted by the share of the query's
   * words that no tool uses; they also weigh query words by English word frequency
   * (`commonWordPower`) and reach catalogue words close in meaning (`neighbourWeight`); `false`
   * or absent for none.
   * @default {false}
   */
  vectors?: WordVectors | false;
  /** The weight of the semantic match when none of a query's words is the catalogue's. @default {2.25} */
  semanticWeight?: number;
  /**
   * With `vectors`: each query word also reaches the catalogue words closest to it in meaning
   * (cosine ≥ 0.8, at most 3, see `./neighbours`) at this weight times their cosine (0: off).
   * @default {0.2}
   */
  neighbourWeight?: number;
  /**
   * With `vectors`: a query word of the vector table counts as its weight there (a / (a + p),
   * lower for frequent English words such as `show` or `want`) to this power, so that the words
   * that say least about a need move the ranking least (0: off).
   * @default {0.75}
   */
  commonWordPower?: number;
  /**
   * A tool's score is multiplied by 1 + this × the share of its own name words (those not in its
   * server's name) that the query reaches, so that the tool whose whole name a request says
   * outranks one that shares a word of it (0: off; needs `nameWords`).
   * @default {0}
   */
  nameCoverage?: number;
  /**
   * Whether name coverage counts each tool's share less the best share among its server's tools,
   * so that it only orders siblings (and lowers them against other servers' tools).
   * @default {false}
   */
  nameCoverageSiblings?: boolean;
  /**
   * How much less the server boost counts a query word that the tool's own name also holds (the
   * name and server fields already count it): 0 alike, 1 not at all (needs `nameWords`).
   * @default {0}
   */
  serverBoostNameDiscount?: number;
  /**
   * What indexes the tools' name words for `nameCoverage` and `serverBoostNameDiscount`
   * (`indexNames` from `./name_coverage`, as the Deno default passes it; opt-in so that a bundle
   * whose ranker leaves both off does not carry it); `false` or absent: both are off.
   * @default {false}
   */
  nameWords?:
    | ((
      names: readonly (readonly string[])[],
      serverWords: readonly (readonly string[])[],
    ) => object)
    | false;
  /**
   * A query run of at least this many characters without a space (base64, a hash, a minified
   * line) is data, not words: it is left out of the search, so that the thousands of fragments it
   * splits into neither rank tools nor cost time (0: off).
   * @default {100}
   */
  dataRunChars?: number;
}

/** Every setting of the lexical ranker: {@linkcode LexicalRankerOptions} with none left out. */
export type LexicalSettings =
  & Required<Omit<LexicalRankerOptions, "fieldWeights" | "thesaurus" | "vectors" | NameOptions>>
  & Pick<LexicalRankerOptions, NameOptions>
  & {
    fieldWeights: Readonly<Record<LexicalField, number>>;
    thesaurus?: Lexicon | false;
    vectors?: WordVectors | false;
  };

// The options read only with `nameWords` (their defaults are where they are read, in
// `./name_coverage`, so that a bundle without it carries none of them).
type NameOptions =
  | "nameWords"
  | "nameCoverage"
  | "nameCoverageSiblings"
  | "serverBoostNameDiscount";

/** The defaults of {@linkcode LexicalRankerOptions}, measured with `deno task eval`. */
export const LEXICAL_DEFAULTS: Readonly<LexicalSettings> = Object.freeze({
  fieldWeights: Object.freeze({
    name: 3,
    title: 2,
    keywords: 2,
    server: 1.5,
    serverText: 1.5,
    description: 1,
    params: 0.5,
    paramDescriptions: 0.5,
    related: 0,
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
  inflectionWeight: 0.8,
  thesaurusWeight: 1,
  thesaurusContext: 0,
  maxRelated: 10,
  synonyms: Object.freeze([]),
  synonymWeight: 0.8,
  fallback: true,
  knownWordFactor: 0.5,
  fractionalCover: true,
  segmentMinWords: 0,
  segmentFusionK: 1,
  diversity: 0.3,
  diversityDepth: 60,
  siblingWeight: 0,
  siblingDepth: 10,
  feedbackDocs: 0,
  feedbackWords: 8,
  feedbackWeight: 0.3,
  semanticWeight: 2.25,
  neighbourWeight: 0.2,
  commonWordPower: 0.75,
  dataRunChars: 100,
});

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
  const format = indexFormat(settings);
  const factory: RankerFactory = (tools, rankerOptions) =>
    buildRanker(tools, rankerOptions, settings, format);
  factory.restore = (tools, _rankerOptions, snapshot) => {
    // Pseudo-relevance feedback and the semantic match read each tool's words, which a snapshot
    // does not hold; an index expanded with a thesaurus depends on data its format does not name.
    if (
      snapshot.format !== format || settings.feedbackDocs > 0 || documentExpansion(settings) ||
      settings.vectors || settings.nameWords
    ) {
      return undefined;
    }
    const parts = decodeLexicalParts(snapshot.bytes, format);
    if (parts === undefined || parts.serverOf.length !== tools.length) return undefined;
    return rankerOver(parts, sortedIds(tools), settings, format, undefined, undefined, undefined);
  };
  return factory;
}

/**
 * The version of what a built lexical index holds: part of every snapshot's format, so a snapshot
 * saved by another version is rebuilt, never misread. Bump it whenever the build changes its output
 * (`test/ranking/lexical_snapshot_test.ts` records a digest per version and fails until you do).
 */
export const LEXICAL_INDEX_VERSION = 2;

// The snapshot format of an index built with these settings: the version and a digest of the
// settings the build reads (search-time settings apply to a restored index as to a built one).
function indexFormat(settings: LexicalSettings): string {
  const built = JSON.stringify([
    settings.fieldWeights,
    settings.k1,
    settings.b,
    settings.delta,
    MAX_TERM_CHARS,
    [...settings.stopWords].sort(),
  ]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < built.length; i++) hash = Math.imul(hash ^ built.charCodeAt(i), 0x01000193);
  return `lexical/${LEXICAL_INDEX_VERSION}/${(hash >>> 0).toString(16)}`;
}

function documentExpansion(settings: LexicalSettings): boolean {
  return settings.fieldWeights.related > 0 && Boolean(settings.thesaurus);
}

function sortedIds(tools: readonly McpTool[]): string[] {
  return tools.map(toolId).sort(compareStrings);
}

function termsOf(settings: LexicalSettings): Terms {
  const { stopWords } = settings;
  const keep = (t: string) => !stopWords.has(t) && t.length <= MAX_TERM_CHARS;
  return {
    text: (text) => tokenize(text).filter(keep),
    identifiers: (text) => tokenizeIdentifiers(text).filter(keep),
  };
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
  format: string,
): Ranker {
  const terms = termsOf(settings);
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
  const byServer = new Map(
    [...serverWords].map(([server, words]) => [server, [...words.server, ...words.serverText]]),
  );
  const servers = new ServerMatch(byServer);
  const words = tools.map((tool) => toolWords(tool, serverWords.get(tool.server)!, terms));
  // Document-side expansion: the thesaurus's words related to a tool's name and title words.
  const thesaurus = settings.thesaurus;
  if (settings.fieldWeights.related > 0 && thesaurus) {
    for (const w of words) {
      const own = new Set([...w.name, ...w.title, ...w.keywords]);
      const related = new Set<string>();
      for (const word of own) {
        const base = thesaurus.has(word) ? word : word.endsWith("s") ? word.slice(0, -1) : word;
        for (const r of thesaurus.related(base).slice(0, settings.maxRelated)) {
          if (!own.has(r.word)) related.add(r.word);
        }
      }
      w.related = [...related];
    }
  }
  const postings = fieldScores(words, settings.fieldWeights, settings);
  // A tool's own words (not its server's or its parameters'), for pseudo-relevance feedback.
  const ownWords = (doc: number) => {
    const w = words[doc]!;
    return [...w.name, ...w.title, ...w.keywords, ...w.description];
  };
  const nameBigrams = new Map<string, Set<number>>();
  words.forEach(({ name }, doc) => {
    for (let i = 0; i + 1 < name.length; i++) {
      const pair = `${name[i]} ${name[i + 1]}`;
      nameBigrams.set(pair, (nameBigrams.get(pair) ?? new Set()).add(doc));
    }
  });
  const parts: LexicalParts = {
    postings,
    nameBigrams,
    servers,
    serverOf: Int32Array.from(tools, (tool) => servers.indexOf(tool.server)),
  };
  // Built by the vectors' own module, so that a bundle without vectors does not carry it.
  const meaning = settings.vectors ? settings.vectors.index(words) : undefined;
  // The option's type names no class of `./name_coverage`, so that the public options need not
  // export it: what it returns is that module's index.
  const names = settings.nameWords
    ? settings.nameWords(words.map((w) => w.name), words.map((w) => w.server)) as NameCoverage
    : undefined;
  return rankerOver(parts, ids, settings, format, ownWords, meaning, names);
}

// The ranker over a built (or restored) index.
function rankerOver(
  parts: LexicalParts,
  ids: readonly string[],
  settings: LexicalSettings,
  format: string,
  // Each tool's own words, for pseudo-relevance feedback (a restored index has none: see restore).
  ownWords: ((doc: number) => readonly string[]) | undefined,
  // The tools' meaning vectors, for the semantic match (none without word vectors).
  meaning: SemanticMatch | undefined,
  // The tools' name words, for `./name_coverage` (a restored index has none: see restore).
  names: NameCoverage | undefined,
): Ranker {
  const terms = termsOf(settings);
  const index = new LexicalIndex({
    postings: parts.postings,
    vocabulary: parts.postings instanceof StoredPostings
      ? Vocabulary.fromSorted(parts.postings.terms)
      : new Vocabulary(parts.postings.keys()),
    nameBigrams: parts.nameBigrams,
    servers: parts.servers,
    serverOf: parts.serverOf,
    names,
  });
  // The thesaurus is decoded on the first search that needs it, not when the index is built.
  const thesaurus = settings.thesaurus === false
    ? EMPTY_LEXICON
    : settings.thesaurus ?? EMPTY_LEXICON;
  let groups: string[][][] | undefined;
  const synonymGroups = () =>
    groups ??= settings.synonyms.map((group) => group.map((entry) => terms.text(entry)));
  // With vectors, the thesaurus for one search keeps the relations that fit the query (the
  // deployment's own synonyms are kept whatever the query).
  const inContext = settings.thesaurus && settings.thesaurusContext > 0
    ? meaning?.inContext?.bind(meaning)
    : undefined;
  let expansion: ExpansionSources | undefined;
  const expansionSources = (): ExpansionSources | undefined => {
    if (settings.inflectionWeight <= 0 && settings.thesaurusWeight <= 0) return undefined;
    return expansion ??= {
      known: index.known,
      lexicon: withSynonyms(thesaurus, synonymGroups(), settings.synonymWeight),
      inflectionWeight: settings.inflectionWeight,
      thesaurusWeight: settings.thesaurusWeight,
      catalogueBases: !settings.thesaurus || inContext !== undefined,
      withCatalogueBases: inContext !== undefined,
      maxRelated: settings.maxRelated,
      knownWordFactor: settings.knownWordFactor,
      fractionalCover: settings.fractionalCover,
    };
  };

  return {
    search(query: string, limit: number): RankedTool[] {
      const text = withoutDataRuns(
        settings.stripMarkup ? stripMarkup(query) : query,
        settings.dataRunChars,
      );
      const queryWords = terms.text(text);
      let base = expansionSources();
      if (base && inContext) {
        const lexicon = inContext(thesaurus, queryWords, settings.thesaurusContext, index.known);
        base = { ...base, lexicon: withSynonyms(lexicon, synonymGroups(), settings.synonymWeight) };
      }
      // With vectors, for this search: the thesaurus goes on with the catalogue's words nearest
      // in meaning (the code lives with the vectors, so a bundle without them does not carry it).
      const sources = base && meaning?.withNeighbours && settings.neighbourWeight > 0
        ? { ...base, lexicon: meaning.withNeighbours(base.lexicon, settings.neighbourWeight) }
        : base;
      const rank = (words: readonly string[], limit: number) => {
        const counts = new Map<string, number>();
        for (const word of words) {
          counts.set(word, settings.queryTermFrequency ? (counts.get(word) ?? 0) + 1 : 1);
        }
        if (settings.commonWordPower > 0) meaning?.weighWords?.(counts, settings.commonWordPower);
        let top = index.search(words, counts, limit, settings, sources);
        if (settings.feedbackDocs > 0 && ownWords !== undefined && top.length > 0) {
          const first = top.length >= settings.feedbackDocs
            ? top
            : index.search(words, counts, settings.feedbackDocs, settings, sources);
          const feedback = feedbackWords(
            first.slice(0, settings.feedbackDocs).map(({ doc, score }) => ({
              words: ownWords(doc),
              score,
            })),
            new Set(words),
            (word) => index.docFrequency(word),
            ids.length,
            settings.feedbackWords,
            settings.feedbackWeight,
          );
          top = index.search(words, counts, limit, settings, sources, feedback);
        }
        if (top.length > 0 || !settings.fallback || sources === undefined || counts.size === 0) {
          return top;
        }
        return index.search(words, counts, limit, settings, { ...sources, hops: 2 });
      };
      // How much the semantic match counts for this query (0: the ranking is the lexical one).
      const semanticWeight = meaning?.weight(queryWords, index.known, settings.semanticWeight) ?? 0;
      const depth = semanticWeight > 0 ? Math.max(limit, SEMANTIC_DEPTH) : limit;
      let top = rank(queryWords, depth);
      const minWords = settings.segmentMinWords;
      if (minWords > 0 && queryWords.length >= minWords && top.length > 0) {
        const parts = clauses(text).map((clause) => terms.text(clause)).filter((w) => w.length > 0);
        if (parts.length >= 2) {
          const lists = [top, ...parts.map((words) => rank(words, limit))];
          top = fuseRanks(lists.map((list) => list.map((hit) => hit.doc)), settings.segmentFusionK)
            .slice(0, depth);
        }
      }
      if (semanticWeight > 0) top = meaning!.fuse(top, queryWords, semanticWeight, limit);
      // The code lives with the vectors, so a bundle without them does not carry it.
      if (settings.siblingWeight > 0 && meaning?.orderSiblings) {
        top = meaning.orderSiblings(top, queryWords, parts.serverOf, settings);
      }
      return top.slice(0, limit).map(({ doc, score }) => ({ id: ids[doc]!, score }));
    },
    snapshot: () => ({ format, bytes: encodeLexicalParts(parts, format) }),
  };
}

const EMPTY_LEXICON: Lexicon = { has: () => false, related: () => [] };

// How many lexical results the semantic match re-scores (the others get its score alone).
const SEMANTIC_DEPTH = 30;

// A thesaurus with a deployment's synonyms first: each word of an entry relates to each word of
// the other entries of its group.
function withSynonyms(
  lexicon: Lexicon,
  groups: readonly (readonly string[][])[],
  weight: number,
): Lexicon {
  if (groups.length === 0 || !(weight > 0)) return lexicon;
  const own = new Map<string, Map<string, number>>();
  for (const group of groups) {
    group.forEach((entry, e) => {
      for (const word of entry) {
        const related = own.get(word) ?? new Map<string, number>();
        own.set(word, related);
        group.forEach((other, o) => {
          if (o !== e) { for (const w of other) if (w !== word) related.set(w, weight); }
        });
      }
    });
  }
  const merged = new Map<string, RelatedWord[]>();
  return {
    has: (word) => lexicon.has(word),
    related(word) {
      const mine = own.get(word);
      if (mine === undefined) return lexicon.related(word);
      let list = merged.get(word);
      if (list === undefined) {
        list = [...mine].map(([w, weight]) => ({ word: w, weight }))
          .sort((a, b) => compareStrings(a.word, b.word));
        list.push(...lexicon.related(word).filter((r) => !mine.has(r.word)));
        merged.set(word, list);
      }
      return list;
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
  const annotated = tool.annotations?.title;
  return {
    name: terms.identifiers(tool.name),
    title: terms.text(tool.title ?? (typeof annotated === "string" ? annotated : "")),
    keywords: terms.text(keywordText(tool)),
    server: server.server,
    serverText: server.serverText,
    description: terms.text(tool.description),
    params: terms.identifiers(schema.names.join(" ")),
    paramDescriptions: terms.text(schema.descriptions.join(" ")),
    related: [],
  };
}
