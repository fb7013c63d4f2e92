/**
 * The index `explain.ts` reads a tool's matches from: each tool's words by field, indexed once per
 * tool, and each query word's candidates (its inflections, the catalogue words one typo away, its
 * synonyms) worked out once per explanation. Matching a query word in a tool is then a few lookups
 * in that tool's index, never a walk over its words, so explaining costs about what searching does
 * however long the tools' texts are.
 *
 * @module
 */

import type { McpTool } from "../tool.ts";
import { baseForms, inflections } from "./expansion.ts";
import type { Lexicon } from "./word_sources.ts";
import { keywordText, LEXICAL_DEFAULTS } from "./lexical_ranker.ts";
import { MAX_TERM_CHARS, schemaText, STOP_WORDS, tokenize, tokenizeIdentifiers } from "./terms.ts";
import { Vocabulary } from "./vocabulary.ts";

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

/** A counter of the lookups an explanation makes in tools' indexes (tests and benchmarks). */
export interface ExplainMeter {
  /** Lookups so far: one per candidate word looked up, one per step of a prefix range. */
  steps: number;
}

// The ranker's matching rules, one source: its defaults.
const RULES = LEXICAL_DEFAULTS;
// Up to this many longer words, a prefix is looked up word by word rather than searched for.
const PREFIX_LOOKUPS = 64;

/**
 * Whether a word is searchable as the lexical ranker reads it (not a stop-word, not overlong).
 *
 * @param word A lower-cased word.
 * @returns `true` when the ranker indexes it.
 */
export function searchable(word: string): boolean {
  return !RULES.stopWords.has(word) && !STOP_WORDS.has(word) && word.length <= MAX_TERM_CHARS;
}

/** A tool's words by field, in field order. */
export type ToolWords = ReadonlyArray<readonly [ExplainedField, readonly string[]]>;

/**
 * A tool's searchable words by field, read the way the lexical ranker indexes them.
 *
 * @param tool The tool.
 * @returns Its words, field by field.
 */
export function toolWords(tool: McpTool): ToolWords {
  const schema = schemaText(tool.inputSchema);
  const annotated = tool.annotations?.title;
  const words = (list: string[]) => list.filter(searchable);
  return [
    ["name", words(tokenizeIdentifiers(tool.name))],
    ["title", words(tokenize(tool.title ?? (typeof annotated === "string" ? annotated : "")))],
    ["keywords", words(tokenize(keywordText(tool)))],
    ["server", words(tokenizeIdentifiers(tool.server))],
    ["description", words(tokenize(tool.description))],
    [
      "params",
      words([
        ...tokenizeIdentifiers(schema.names.join(" ")),
        ...tokenize(schema.descriptions.join(" ")),
      ]),
    ],
  ];
}

/**
 * One tool's words, indexed: each word's first place (its place in the tool's words, field after
 * field), and the words sorted, for prefixes. Its size is linear in the tool's words, as the
 * ranker's index is: no word is left out, so explain and search agree on what the tool has.
 */
export class ToolIndex {
  /** The tool's words by field, in field order. */
  readonly fields: ToolWords;
  // Where each field's words begin among the tool's words, in field order.
  #starts: number[] = [];
  #first = new Map<string, number>();
  #sorted: string[];
  // A segment tree of the places of #sorted: the first place of any word in a range of it.
  #tree: Int32Array;

  /**
   * Indexes a tool's words.
   *
   * @param fields The tool's words ({@linkcode toolWords}).
   */
  constructor(fields: ToolWords) {
    this.fields = fields;
    let place = 0;
    for (const [, list] of this.fields) {
      this.#starts.push(place);
      for (const word of list) {
        if (!this.#first.has(word)) this.#first.set(word, place);
        place++;
      }
    }
    this.#sorted = [...this.#first.keys()].sort();
    const n = this.#sorted.length;
    this.#tree = new Int32Array(2 * n).fill(0x7fffffff);
    this.#sorted.forEach((word, i) => this.#tree[n + i] = this.#first.get(word)!);
    for (let i = n - 1; i > 0; i--) {
      this.#tree[i] = Math.min(this.#tree[2 * i]!, this.#tree[2 * i + 1]!);
    }
  }

  /**
   * The first place among some words of the tool, or `undefined` when it has none of them.
   *
   * @param words Candidate words.
   * @param meter Counts the lookups.
   * @returns The place.
   */
  firstOf(words: Iterable<string>, meter: ExplainMeter): number | undefined {
    let best: number | undefined;
    for (const word of words) {
      meter.steps++;
      const place = this.#first.get(word);
      if (place !== undefined && (best === undefined || place < best)) best = place;
    }
    return best;
  }

  /**
   * The first place of a longer word that begins with `word`, or `undefined`.
   *
   * @param word The beginning.
   * @param meter Counts the steps.
   * @returns The place.
   */
  firstWithPrefix(word: string, meter: ExplainMeter): number | undefined {
    const sorted = this.#sorted;
    const bound = (inside: (term: string) => boolean) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        meter.steps++;
        const mid = (lo + hi) >>> 1;
        if (inside(sorted[mid]!)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    // The words that begin with `word` sit together, right after the words sorted before it.
    const from = bound((term) => term <= word);
    const to = bound((term) => term < word || term.startsWith(word));
    if (from >= to) return undefined;
    let best = 0x7fffffff;
    const n = sorted.length;
    for (let lo = from + n, hi = to + n; lo < hi; lo >>>= 1, hi >>>= 1) {
      meter.steps++;
      if (lo & 1) best = Math.min(best, this.#tree[lo++]!);
      if (hi & 1) best = Math.min(best, this.#tree[--hi]!);
    }
    return best;
  }

  /**
   * The word at a place and its field.
   *
   * @param place A place {@linkcode firstOf} or {@linkcode firstWithPrefix} returned.
   * @returns The word and its field.
   */
  at(place: number): { term: string; field: ExplainedField } {
    let field = this.#starts.length - 1;
    while (this.#starts[field]! > place) field--;
    const [name, list] = this.fields[field]!;
    return { term: list[place - this.#starts[field]!]!, field: name };
  }
}

const INDEXES = new WeakMap<McpTool, ToolIndex>();

/**
 * A tool's index, built on first use and kept with the tool.
 *
 * @param tool The tool.
 * @returns Its index.
 */
export function toolIndex(tool: McpTool): ToolIndex {
  let index = INDEXES.get(tool);
  if (index === undefined) INDEXES.set(tool, index = new ToolIndex(toolWords(tool)));
  return index;
}

const VOCABULARIES = new WeakMap<readonly McpTool[], Vocabulary>();

/**
 * Every word of a catalogue's tools, built once per catalogue (each tool read once, as the ranker
 * reads it to build its index): a typo match only counts for a word the catalogue does not have,
 * and reaches the catalogue words one edit away.
 *
 * @param tools The catalogue's tools.
 * @returns Their vocabulary.
 */
export function catalogueVocabulary(tools: readonly McpTool[]): Vocabulary {
  let vocabulary = VOCABULARIES.get(tools);
  if (vocabulary === undefined) {
    // Each tool read once, its words not kept: only the shown tools get an index (toolIndex).
    const words = new Set<string>();
    for (const tool of tools) {
      for (const [, list] of toolWords(tool)) for (const word of list) words.add(word);
    }
    VOCABULARIES.set(tools, vocabulary = new Vocabulary(words));
  }
  return vocabulary;
}

/** What a query word may reach, worked out once per explanation. */
export interface WordCandidates {
  /** The query word. */
  word: string;
  /** Whether the catalogue has it. */
  known: boolean;
  /** Its other inflections the ranker reaches. */
  forms: readonly string[];
  /** The catalogue's longer words that it begins (when it is long enough to reach them). */
  longer: readonly string[];
  /** The catalogue words one edit away, when it has the word neither whole nor as a beginning. */
  typos: readonly string[];
  /** The thesaurus's words related to it or its inflections, and their inflections. */
  related: readonly string[];
}

/**
 * The candidates of a query word in a catalogue.
 *
 * @param word The query word.
 * @param vocabulary The catalogue's words.
 * @param lexicon The thesaurus the catalogue's ranker uses, if any.
 * @returns Its candidates.
 */
export function wordCandidates(
  word: string,
  vocabulary: Vocabulary,
  lexicon: Lexicon | undefined,
): WordCandidates {
  const inflected = RULES.inflectionWeight > 0 ? inflectionsOf(word, vocabulary) : [];
  const related = new Set<string>();
  if (lexicon !== undefined) {
    for (const base of [word, ...inflected]) {
      for (const r of lexicon.related(base).slice(0, RULES.maxRelated)) {
        related.add(r.word);
        for (const form of inflections(r.word)) related.add(form);
      }
    }
  }
  // The ranker's own expansion (the search makes the same one): the longer words the word begins,
  // or, for a word the catalogue has neither whole nor as a beginning, the words one edit away.
  const reached = vocabulary.expand(word, RULES).map((e) => e.term);
  const longer = reached.filter((term) => term.length > word.length && term.startsWith(word));
  const typos = reached.filter((term) => term !== word && !term.startsWith(word));
  // Only the catalogue's words can match in a tool: the others are left out here, once, so a word
  // the catalogue lacks costs nothing per tool.
  const inCatalogue = (list: Iterable<string>) => [...list].filter((w) => vocabulary.has(w));
  return {
    word,
    known: vocabulary.has(word),
    forms: inCatalogue(inflected),
    longer,
    typos,
    related: inCatalogue(related),
  };
}

/**
 * The closest way a query word reaches one of a tool's words, in {@linkcode MATCH_KINDS} order
 * (the first field, then the first word of it, within a kind).
 *
 * @param candidates The query word's candidates.
 * @param index The tool's index.
 * @param meter Counts the lookups.
 * @returns How it matched, or `undefined`.
 */
export function matchWord(
  candidates: WordCandidates,
  index: ToolIndex,
  meter: ExplainMeter,
): { kind: MatchKind; term: string; field: ExplainedField } | undefined {
  const { word } = candidates;
  let kind: MatchKind = "exact";
  let at = candidates.known ? index.firstOf([word], meter) : undefined;
  if (at === undefined) [kind, at] = ["inflection", index.firstOf(candidates.forms, meter)];
  if (at === undefined) {
    // Whichever is fewer: the catalogue's longer words, or the steps of a search in the tool's.
    kind = "prefix";
    at = candidates.longer.length <= PREFIX_LOOKUPS
      ? index.firstOf(candidates.longer, meter)
      : index.firstWithPrefix(word, meter);
  }
  if (at === undefined) [kind, at] = ["typo", index.firstOf(candidates.typos, meter)];
  if (at === undefined) [kind, at] = ["synonym", index.firstOf(candidates.related, meter)];
  return at === undefined ? undefined : { kind, ...index.at(at) };
}

// The other inflections of a word that the ranker reaches: its base forms (the catalogue's words
// taking the thesaurus's place, as the ranker does without one) and their regular inflections.
function inflectionsOf(word: string, vocabulary: Vocabulary): string[] {
  const isKnown = (w: string) => vocabulary.has(w);
  const out = new Set<string>();
  for (const base of baseForms(word, isKnown, isKnown)) {
    out.add(base);
    for (const form of inflections(base)) out.add(form);
  }
  out.delete(word);
  return [...out];
}
