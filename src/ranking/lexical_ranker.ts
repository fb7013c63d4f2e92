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

import { compareStrings } from "../utils/compare.ts";
import type { McpTool } from "../tool.ts";
import { toolId } from "../tool.ts";
import type { RankedTool, Ranker, RankerFactory, RankerOptions } from "./ranker.ts";
import { MAX_TERM_CHARS, schemaText, stripMarkup, tokenize, tokenizeIdentifiers } from "./terms.ts";
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
import {
  LEXICAL_DEFAULTS,
  type LexicalRankerOptions,
  type LexicalSettings,
} from "./lexical_options.ts";
export { LEXICAL_DEFAULTS, type LexicalRankerOptions, type LexicalSettings };
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
import { joinParts, splitParts } from "./ranker_snapshot.ts";
import { Vocabulary } from "./vocabulary.ts";
import { memoizeTerms } from "./term_memo.ts";
import { queryTerms } from "./query_terms.ts";

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
  factory.restore = (input, _rankerOptions, snapshot) => {
    // Pseudo-relevance feedback reads each tool's words, which a snapshot does not hold; an index
    // expanded with a thesaurus depends on data its format does not name; a semantic match is
    // stored only with vectors that name their data (their id is in the snapshot's format).
    const vectors = settings.vectors || undefined;
    if (
      snapshot.format !== snapshotFormat(format, settings) || settings.feedbackDocs > 0 ||
      documentExpansion(settings) || (vectors && (vectors.id === undefined || !vectors.restore))
    ) {
      return undefined;
    }
    // [the index, the semantic match (with vectors), the names' index (with nameWords)]
    const nameWords = settings.nameWords || undefined;
    if (nameWords && !nameWords.restore) return undefined;
    const count = 1 + (vectors ? 1 : 0) + (nameWords ? 1 : 0);
    const split = count === 1 ? [snapshot.bytes] : splitParts(snapshot.bytes, count);
    if (split === undefined) return undefined;
    const parts = decodeLexicalParts(split[0]!, format);
    if (parts === undefined || parts.serverOf.length !== input.length) return undefined;
    const meaning = vectors ? vectors.restore?.(split[1]!) : undefined;
    if (vectors && meaning === undefined) return undefined;
    const names = nameWords?.restore?.(split.at(-1)!) as NameCoverage | undefined;
    if (nameWords && names === undefined) return undefined;
    const ids = input.map(toolId).sort(compareStrings);
    return rankerOver(parts, ids, settings, format, undefined, meaning, names);
  };
  return factory;
}

/**
 * The version of what a built lexical index holds: part of every snapshot's format, so a snapshot
 * saved by another version is rebuilt, never misread. Bump it whenever the build changes its output
 * (`test/ranking/lexical_snapshot_test.ts` records a digest per version and fails until you do).
 */
export const LEXICAL_INDEX_VERSION = 3;

// The snapshot format of an index built with these settings: the version and a digest of the
// settings the build reads (search-time settings apply to a restored index as to a built one).
function indexFormat(settings: LexicalSettings): string {
  const built = JSON.stringify([
    settings.fieldWeights,
    settings.k1,
    settings.b,
    settings.delta,
    settings.textPivot,
    MAX_TERM_CHARS,
    [...settings.stopWords].sort(),
  ]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < built.length; i++) hash = Math.imul(hash ^ built.charCodeAt(i), 0x01000193);
  return `lexical/${LEXICAL_INDEX_VERSION}/${(hash >>> 0).toString(16)}`;
}

// The tools in the index's order (by id), each id made once (a comparison that made both ids
// cost a fresh isolate milliseconds at 1,000 tools).
function inIdOrder(input: readonly McpTool[]): { tools: McpTool[]; ids: string[] } {
  const all = input.map(toolId);
  const order = all.map((_, i) => i).sort((a, b) => compareStrings(all[a]!, all[b]!));
  return { tools: order.map((i) => input[i]!), ids: order.map((i) => all[i]!) };
}

// A snapshot's format: the index's, the vectors' data when it holds their semantic match, and
// whether it holds the name words.
function snapshotFormat(format: string, settings: LexicalSettings): string {
  const id = storedVectors(settings)?.id;
  const names = settings.nameWords && settings.nameWords.restore ? "+names" : "";
  return `${format}${id === undefined ? "" : `+${id}`}${names}`;
}

// The vectors whose semantic match a snapshot holds: those that name their data and restore.
function storedVectors(settings: LexicalSettings): WordVectors | undefined {
  const vectors = settings.vectors || undefined;
  return vectors?.id !== undefined && vectors.restore ? vectors : undefined;
}

function documentExpansion(settings: LexicalSettings): boolean {
  return settings.fieldWeights.related > 0 && Boolean(settings.thesaurus);
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
  // Each distinct word of the catalogue is tokenised once (./term_memo.ts).
  const each = termsOf(settings);
  const terms = { text: memoizeTerms(each.text), identifiers: memoizeTerms(each.identifiers) };
  const { tools, ids } = inIdOrder(input);
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
  const postings = fieldScores(
    words,
    settings.fieldWeights,
    settings,
    settings.textPivot > 0 ? { fields: TEXT_FIELDS, pivot: settings.textPivot } : undefined,
  );
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
  // The tools' name words' index, for `./name_coverage`.
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
      // A long request: its most distinctive words, its first ones weighing most.
      const read = queryTerms(terms.text(text), settings, (word) => index.idf(word));
      const queryWords = read.words;
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
      const rank = (words: readonly string[], limit: number, weighed?: Map<string, number>) => {
        const counts = weighed === undefined ? new Map<string, number>() : new Map(weighed);
        if (weighed === undefined) {
          for (const word of words) {
            counts.set(word, settings.queryTermFrequency ? (counts.get(word) ?? 0) + 1 : 1);
          }
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
      let top = rank(queryWords, depth, read.counts);
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
    snapshot: () => {
      const lexical = encodeLexicalParts(parts, format);
      const stored = snapshotFormat(format, settings);
      if (stored === format) return { format, bytes: lexical };
      // With a format beyond the index's, every part it names (see restore).
      const semantic = storedVectors(settings) && meaning?.snapshot ? [meaning.snapshot()] : [];
      const named = names && stored.endsWith("+names") ? [names.snapshot()] : [];
      return { format: stored, bytes: joinParts([lexical, ...semantic, ...named]) };
    },
  };
}

const EMPTY_LEXICON: Lexicon = { has: () => false, related: () => [] };

// The fields that can be long, whose matches `textPivot` counts less in a long text.
const TEXT_FIELDS: ReadonlySet<LexicalField> = new Set(["description", "paramDescriptions"]);

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
