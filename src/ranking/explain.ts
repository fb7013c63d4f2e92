/**
 * Why a search found what it found: the catalogue's own ranking of a query, and for each tool the
 * query words it matched, where and how (exactly, as another inflection, as a prefix, one typo
 * away, through a synonym, or by meaning alone). It reads the ranker from outside (its ranking and
 * the matching rules of `vocabulary.ts` and `expansion.ts`), so it never changes what a search
 * returns.
 *
 * @module
 */

import type { McpCatalog } from "../catalog.ts";
import type { McpTool } from "../tool.ts";
import { baseForms, inflections } from "./expansion.ts";
import type { Lexicon } from "./word_sources.ts";
import { keywordText, LEXICAL_DEFAULTS } from "./lexical_ranker.ts";
import {
  MAX_TERM_CHARS,
  schemaText,
  STOP_WORDS,
  stripMarkup,
  tokenize,
  tokenizeIdentifiers,
} from "./terms.ts";
import { oneEdit } from "./vocabulary.ts";
import { withoutDataRuns } from "./data_runs.ts";

/** How a query word reached a tool's word, from the closest to the loosest. */
export const MATCH_KINDS = [
  "exact",
  "inflection",
  "prefix",
  "typo",
  "synonym",
  "semantic",
] as const;
/** How a query word reached a tool's word. */
export type MatchKind = typeof MATCH_KINDS[number];

/** The parts of a tool a word can match in, in the order they are reported. */
export const EXPLAINED_FIELDS = [
  "name",
  "title",
  "keywords",
  "server",
  "description",
  "params",
] as const;
/** A part of a tool a word can match in. */
export type ExplainedField = typeof EXPLAINED_FIELDS[number];

/** One query word matched in a tool. */
export interface WordMatch {
  /** The query word. */
  word: string;
  /** How it matched. */
  kind: MatchKind;
  /** The tool's word it reached (absent for `semantic`). */
  term?: string;
  /** Where that word is (absent for `semantic`). */
  field?: ExplainedField;
}

/** A tool with its place in the ranking and what it matched. */
export interface ExplainedTool {
  /** The tool's id. */
  id: string;
  /** Its 1-based place in the ranking, or `null` when the query does not rank it at all. */
  rank: number | null;
  /** Its score (rounded as search results are), or `null` when unranked. */
  score: number | null;
  /** Each query word it matched, closest match first. */
  matches: WordMatch[];
  /** The query words it did not match. */
  missing: string[];
}

/** What {@linkcode explainSearch} returns. */
export interface SearchExplanation {
  /** The query's searchable words (markup, stop-words and overlong words left out). */
  words: string[];
  /** The ranked tools, best first, at most `limit`. */
  results: ExplainedTool[];
  /** The tool named by `id`, wherever it ranked, with a sentence saying why. */
  target?: ExplainedTool & { reason: string };
}

/** Options of {@linkcode explainSearch}. */
export interface ExplainOptions {
  /** The most ranked tools to explain. @default {10} */
  limit?: number;
  /** A tool the search was expected to find: where it ranked and why. */
  id?: string;
  /**
   * The thesaurus and synonyms the catalogue's ranker searches with, so that matches through
   * them read as `synonym`. @default {none}
   */
  lexicon?: Lexicon;
}

/** A failure of {@linkcode explainSearch}: the named tool is not in the catalogue. */
export interface ExplainError {
  /** Always `unknown_tool`. */
  code: "unknown_tool";
  /** What went wrong and what to do. */
  message: string;
}

// The ranker's matching rules, one source: its defaults.
const RULES = LEXICAL_DEFAULTS;
// The most words of one tool looked at: a tool's text is bounded by the catalogue limits, and
// this keeps one explanation cheap whatever a third party wrote.
const MAX_TOOL_WORDS = 5_000;

/**
 * Explains a search of a catalogue: its ranking (the catalogue's own, unchanged) and for each tool
 * which query words it matched and how; for a named tool that did not make the list, where it
 * ranked and why. Work is linear in the catalogue's size and the query's.
 *
 * @param catalog The catalogue.
 * @param query The query, as the model sent it.
 * @param options How many results, which tool to look for, the thesaurus.
 * @returns The explanation, or an `unknown_tool` error for an `id` not in the catalogue.
 *
 * @example Usage
 * ```ts
 * import { explainSearch } from "./explain.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "fs", name: "read_file", description: "Read a file", inputSchema: { type: "object" } },
 *   { server: "fs", name: "write_file", description: "Write a file", inputSchema: { type: "object" } },
 * ]);
 * const explained = explainSearch(catalog, "reading files", { id: "fs/write_file" });
 * if (!explained.ok) throw new Error(explained.error.message);
 * equal(explained.value.results[0]?.id, "fs/read_file");
 * equal(explained.value.results[0]?.matches[0]?.kind, "inflection");
 * equal(explained.value.target?.missing[0], "reading");
 * ```
 */
export function explainSearch(
  catalog: McpCatalog,
  query: string,
  options: ExplainOptions = {},
): { ok: true; value: SearchExplanation } | { ok: false; error: ExplainError } {
  const limit = Math.max(1, Math.floor(options.limit ?? 10));
  const target = options.id === undefined ? undefined : catalog.get(options.id);
  if (options.id !== undefined && target === undefined) {
    return {
      ok: false,
      error: {
        code: "unknown_tool",
        message: `Cannot explain ${
          JSON.stringify(options.id.slice(0, 200))
        }: the tool is not in this catalogue; name a tool by its id "server/tool"`,
      },
    };
  }
  const words = [...new Set(queryWords(query))];
  const shown = catalog.search(query, limit);
  const known = catalogWords(catalog);
  const explain = (tool: McpTool, rank: number | null, score: number | null): ExplainedTool => {
    const matches = words.flatMap((word) => {
      const match = matchWord(word, toolWords(tool), known, options.lexicon);
      return match === undefined ? [] : [match];
    });
    const missing = words.filter((word) => !matches.some((m) => m.word === word));
    // Ranked without a shared word: the ranker's semantic match (word vectors) put it there.
    if (rank !== null && matches.length === 0 && words.length > 0) {
      matches.push(...words.map((word) => ({ word, kind: "semantic" as const })));
      missing.length = 0;
    }
    return { id: `${tool.server}/${tool.name}`, rank, score, matches, missing };
  };
  const results = shown.map((hit, i) => explain(catalog.get(hit.id)!, i + 1, hit.score));
  const value: SearchExplanation = { words, results };
  if (target !== undefined) {
    const id = `${target.server}/${target.name}`;
    const listed = results.find((r) => r.id === id);
    let place: ExplainedTool;
    if (listed !== undefined) place = listed;
    else {
      // Its place in the whole ranking: the catalogue is bounded, and this runs on request only.
      const all = catalog.search(query, Math.max(catalog.size, 1));
      const at = all.findIndex((hit) => hit.id === id);
      place = explain(target, at < 0 ? null : at + 1, at < 0 ? null : all[at]!.score);
    }
    value.target = { ...place, reason: reason(place, results, limit) };
  }
  return { ok: true, value };
}

// The sentence an operator reads first.
function reason(tool: ExplainedTool, results: readonly ExplainedTool[], limit: number): string {
  const quote = (list: readonly string[]) => list.map((w) => JSON.stringify(w)).join(", ");
  const matched = tool.matches.filter((m) => m.kind !== "semantic");
  const how = matched.length === 0
    ? ""
    : `it matches ${
      matched.map((m) => `${JSON.stringify(m.word)} (${m.kind}, ${m.field})`).join(", ")
    }`;
  const lacks = tool.missing.length === 0 ? "" : `it has no word for ${quote(tool.missing)}`;
  const both = [how, lacks].filter((s) => s !== "").join("; ");
  if (tool.rank === null) {
    return `Not ranked: ${
      both === "" ? "the query has no searchable word" : both
    }; add the missing words to its description or to _meta["unfold/keywords"]`;
  }
  if (tool.rank <= Math.min(limit, results.length)) {
    return `Ranked ${tool.rank} of the ${results.length} shown${both === "" ? "" : `: ${both}`}`;
  }
  const last = results[results.length - 1];
  return `Ranked ${tool.rank}, below the ${results.length} shown (score ${tool.score}` +
    `${last === undefined ? "" : ` against ${last.score} for the last shown`})` +
    `${both === "" ? "" : `: ${both}`}`;
}

/**
 * The searchable words of a query, as the lexical ranker reads them.
 *
 * @param query The query.
 * @returns Its words, in order, with repeats.
 *
 * @example Usage
 * ```ts
 * import { queryWords } from "./explain.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(queryWords("Send <b>a</b> message"), ["send", "message"]);
 * ```
 */
export function queryWords(query: string): string[] {
  const text = RULES.stripMarkup ? stripMarkup(query) : query;
  return tokenize(withoutDataRuns(text, RULES.dataRunChars)).filter(keep);
}

function keep(word: string): boolean {
  return !RULES.stopWords.has(word) && !STOP_WORDS.has(word) && word.length <= MAX_TERM_CHARS;
}

type ToolWords = ReadonlyArray<readonly [ExplainedField, readonly string[]]>;

const WORDS = new WeakMap<McpTool, ToolWords>();

// A tool's words by field, read the way the ranker indexes them.
function toolWords(tool: McpTool): ToolWords {
  const cached = WORDS.get(tool);
  if (cached !== undefined) return cached;
  const schema = schemaText(tool.inputSchema);
  const annotated = tool.annotations?.title;
  const cap = (list: string[]) => list.filter(keep).slice(0, MAX_TOOL_WORDS);
  const words: ToolWords = [
    ["name", cap(tokenizeIdentifiers(tool.name))],
    ["title", cap(tokenize(tool.title ?? (typeof annotated === "string" ? annotated : "")))],
    [
      "keywords",
      cap(tokenize(keywordText(tool))),
    ],
    ["server", cap(tokenizeIdentifiers(tool.server))],
    ["description", cap(tokenize(tool.description))],
    [
      "params",
      cap([
        ...tokenizeIdentifiers(schema.names.join(" ")),
        ...tokenize(schema.descriptions.join(" ")),
      ]),
    ],
  ];
  WORDS.set(tool, words);
  return words;
}

const KNOWN = new WeakMap<McpCatalog, ReadonlySet<string>>();

// Every word of the catalogue: a typo match only counts for a word the catalogue does not have.
function catalogWords(catalog: McpCatalog): ReadonlySet<string> {
  let known = KNOWN.get(catalog);
  if (known === undefined) {
    const set = new Set<string>();
    for (const tool of catalog.tools) {
      for (const [, list] of toolWords(tool)) for (const word of list) set.add(word);
    }
    KNOWN.set(catalog, known = set);
  }
  return known;
}

// The closest way a query word reaches one of the tool's words, in MATCH_KINDS order.
function matchWord(
  word: string,
  fields: ToolWords,
  known: ReadonlySet<string>,
  lexicon: Lexicon | undefined,
): WordMatch | undefined {
  const forms = new Set(RULES.inflectionWeight > 0 ? inflectionsOf(word, known) : []);
  const related = new Set<string>();
  if (lexicon !== undefined) {
    for (const base of [word, ...forms]) {
      for (const r of lexicon.related(base).slice(0, RULES.maxRelated)) {
        related.add(r.word);
        for (const form of inflections(r.word)) related.add(form);
      }
    }
  }
  const tests: [MatchKind, (term: string) => boolean][] = [
    ["exact", (term) => term === word],
    ["inflection", (term) => forms.has(term)],
    [
      "prefix",
      (term) =>
        word.length >= RULES.prefixMinLength && term.length > word.length &&
        term.startsWith(word),
    ],
    [
      "typo",
      (term) => !known.has(word) && word.length >= RULES.fuzzyMinLength && oneEdit(word, term),
    ],
    ["synonym", (term) => related.has(term)],
  ];
  for (const [kind, test] of tests) {
    for (const [field, list] of fields) {
      const term = list.find(test);
      if (term !== undefined) return { word, kind, term, field };
    }
  }
  return undefined;
}

// The other inflections of a word that the ranker reaches: its base forms (the catalogue's words
// taking the thesaurus's place, as the ranker does without one) and their regular inflections.
function inflectionsOf(word: string, known: ReadonlySet<string>): string[] {
  const isKnown = (w: string) => known.has(w);
  const out = new Set<string>();
  for (const base of baseForms(word, isKnown, isKnown)) {
    out.add(base);
    for (const form of inflections(base)) out.add(form);
  }
  out.delete(word);
  return [...out];
}
