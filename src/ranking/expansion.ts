/**
 * Query expansion beyond spelling: other inflections of a query word (`uploading` → `upload`,
 * `uploads`), and words a thesaurus relates to it (`picture` → `image`, `remove` → `delete`), each
 * reaching the catalogue's vocabulary with a weight below an exact match.
 *
 * @module
 */

import type { Lexicon } from "./word_sources.ts";

/** A catalogue word a query word reaches, and how much a match on it counts. */
export interface WeightedTerm {
  /** The catalogue word. */
  term: string;
  /** Its weight, in (0, 1]. */
  weight: number;
}

/** What {@linkcode expandWord} needs. */
export interface ExpansionSources {
  /** Whether the catalogue has a word. */
  known(word: string): boolean;
  /** The thesaurus (its words are base forms). */
  lexicon: Lexicon;
  /** The weight of another inflection of the word (0: off). */
  inflectionWeight: number;
  /** The factor on every thesaurus weight (0: off). */
  thesaurusWeight: number;
  /** The most related words followed per query word. */
  maxRelated: number;
  /** 2 also follows the related words' own related words (the fallback when nothing matched). */
  hops?: number;
  /**
   * Without a thesaurus to tell base forms, a word the catalogue has is taken as a base form
   * (`news` stays `news`). @default {false}
   */
  catalogueBases?: boolean;
  /**
   * Also the base forms the catalogue alone tells (those found without a thesaurus), after the
   * thesaurus's, so that a thesaurus adds to how inflections are found rather than changing it.
   * @default {false}
   */
  withCatalogueBases?: boolean;
  /** The factor on the expansions of a word the catalogue itself uses. @default {1} */
  knownWordFactor?: number;
  /** Whether a match through an expansion covers its query word only by its weight. @default {true} */
  fractionalCover?: boolean;
}

// WordNet's detachment rules (morphy) for nouns, verbs and adjectives: suffix → ending.
const DETACH: readonly (readonly [string, string])[] = [
  ["ies", "y"],
  ["ses", "s"],
  ["xes", "x"],
  ["zes", "z"],
  ["ches", "ch"],
  ["shes", "sh"],
  ["men", "man"],
  ["es", "e"],
  ["es", ""],
  ["s", ""],
  ["ed", "e"],
  ["ed", ""],
  ["ing", "e"],
  ["ing", ""],
  ["er", ""],
  ["er", "e"],
  ["est", ""],
  ["est", "e"],
];
// The shortest base form a rule may leave (`ping` is not `p` + `ing`).
const MIN_BASE = 3;

/**
 * The base forms of a word: the word itself when the thesaurus knows it, otherwise what WordNet's
 * detachment rules leave that the thesaurus or the catalogue knows (`images` → `image`,
 * `uploading` → `upload`), otherwise the word itself.
 *
 * @param word A lower-case word.
 * @param isBase Whether a word is a known base form.
 * @param known Whether the catalogue has a word.
 * @returns The base forms, most likely first, without repeats.
 *
 * @example Usage
 * ```ts
 * import { baseForms } from "./expansion.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const bases = new Set(["image", "upload", "news"]);
 * deepEqual(baseForms("images", (w) => bases.has(w), () => false), ["image"]);
 * deepEqual(baseForms("news", (w) => bases.has(w), () => false), ["news"]);
 * ```
 */
export function baseForms(
  word: string,
  isBase: (word: string) => boolean,
  known: (word: string) => boolean,
): string[] {
  if (isBase(word)) return [word];
  const found: string[] = [];
  for (const [suffix, ending] of DETACH) {
    if (!word.endsWith(suffix) || word.length - suffix.length + ending.length < MIN_BASE) continue;
    const base = word.slice(0, word.length - suffix.length) + ending;
    if ((isBase(base) || known(base)) && !found.includes(base)) found.push(base);
  }
  return found.length > 0 ? found : [word];
}

/**
 * The regular inflections of a base form: plural and third person, past, present participle,
 * comparative and superlative (`search` → `searches`, `searched`, `searching`, …).
 *
 * @param base A base form.
 * @returns The inflections (not the base itself), without repeats.
 *
 * @example Usage
 * ```ts
 * import { inflections } from "./expansion.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(inflections("copy").includes("copies"));
 * ok(inflections("create").includes("creating"));
 * ```
 */
export function inflections(base: string): string[] {
  const out = new Set<string>();
  const last = base[base.length - 1];
  const stem = last === "e" ? base.slice(0, -1) : base;
  out.add(`${base}s`);
  out.add(`${base}es`);
  out.add(`${stem}ed`);
  out.add(`${stem}ing`);
  out.add(`${stem}er`);
  out.add(`${stem}est`);
  if (last === "y") {
    const root = base.slice(0, -1);
    out.add(`${root}ies`);
    out.add(`${root}ied`);
  }
  if (base.endsWith("man")) out.add(`${base.slice(0, -3)}men`);
  out.delete(base);
  return [...out];
}

/**
 * The catalogue words a query word reaches through its inflections and the thesaurus (not the
 * word itself): every inflection of its base forms at `inflectionWeight`, then every word the
 * thesaurus relates to a base form, and their inflections, at the relation's weight times
 * `thesaurusWeight`. A word reached twice keeps its highest weight.
 *
 * @param word A lower-case query word.
 * @param sources The catalogue's words, the thesaurus and the weights.
 * @returns The catalogue words reached, by word.
 *
 * @example Usage
 * ```ts
 * import { expandWord } from "./expansion.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const lexicon = {
 *   has: (w: string) => w === "picture" || w === "image",
 *   related: (w: string) => w === "picture" ? [{ word: "image", weight: 0.6 }] : [],
 * };
 * const catalogue = new Set(["images", "pictured"]);
 * const terms = expandWord("pictures", {
 *   known: (w) => catalogue.has(w),
 *   lexicon,
 *   inflectionWeight: 0.8,
 *   thesaurusWeight: 1,
 *   maxRelated: 10,
 * });
 * deepEqual(terms, [{ term: "images", weight: 0.6 }, { term: "pictured", weight: 0.8 }]);
 * ```
 */
export function expandWord(word: string, sources: ExpansionSources): WeightedTerm[] {
  const { known, lexicon } = sources;
  const reached = new Map<string, number>();
  const reach = (term: string, weight: number) => {
    if (term === word || !(weight > 0) || !known(term)) return;
    if ((reached.get(term) ?? 0) < weight) reached.set(term, weight);
  };
  const isBase = sources.catalogueBases === true
    ? (w: string) => lexicon.has(w) || known(w)
    : (w: string) => lexicon.has(w);
  const bases = baseForms(word, isBase, known);
  if (sources.withCatalogueBases === true) {
    for (const base of baseForms(word, known, known)) if (!bases.includes(base)) bases.push(base);
  }
  for (const base of bases) {
    reach(base, sources.inflectionWeight);
    for (const form of inflections(base)) reach(form, sources.inflectionWeight);
  }
  if (sources.thesaurusWeight > 0) {
    // Related words the catalogue has (as such or inflected), strongest first, at most maxRelated.
    const present = (other: string) => known(other) || inflections(other).some(known);
    const follow = (from: string) =>
      lexicon.related(from).filter((r) => present(r.word)).slice(0, sources.maxRelated);
    for (const base of bases) {
      for (const { word: other, weight } of follow(base)) {
        const w = weight * sources.thesaurusWeight;
        reach(other, w);
        for (const form of inflections(other)) reach(form, w);
      }
      // The fallback: a step further, through related words the catalogue may not have.
      if ((sources.hops ?? 1) < 2) continue;
      for (const { word: other, weight } of lexicon.related(base)) {
        for (const { word: next, weight: w2 } of follow(other)) {
          const w = weight * w2 * sources.thesaurusWeight;
          reach(next, w);
          for (const form of inflections(next)) reach(form, w);
        }
      }
    }
  }
  return [...reached].map(([term, weight]) => ({ term, weight }))
    .sort((a, b) => a.term < b.term ? -1 : a.term > b.term ? 1 : 0);
}
