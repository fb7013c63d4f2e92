/**
 * A long request read as an agent writes it (a pasted task of a few thousand characters): its
 * first words count fully and later ones less the further they come, and only its most
 * distinctive words are searched, so that the work of a search is bounded whatever the request's
 * length and the words that say what the request is about are the ones that rank. A request of a
 * few sentences is read exactly as before.
 *
 * @module
 */

/** The settings a reading of the request reads. */
export interface QueryTermSettings {
  /** Whether a repeated word counts as often as it comes. */
  queryTermFrequency: boolean;
  /** The most distinct words searched (0: all). */
  queryTermLimit: number;
  /** The words counted fully; the n-th word after them counts this / (this + n) (0: all fully). */
  positionWeightAfter: number;
}

/** A request's words as a search reads them. */
export interface QueryTerms {
  /** The words searched, in the request's order, with repeats (only the words kept). */
  words: string[];
  /** Each distinct word kept and its weight, most distinctive first when words were left out. */
  counts: Map<string, number>;
  /** How many distinct words the request had before the limit. */
  distinct: number;
}

/**
 * Weighs a request's words by their place and keeps its most distinctive ones.
 *
 * A word's weight is the sum over its places i (0-based) of 1 for the first
 * `positionWeightAfter` words and `positionWeightAfter / (i + 1)` after them (or 1 per place, or
 * 1 in all, per `queryTermFrequency`). With more than `queryTermLimit` distinct words, those with
 * the highest weight × `distinctive(word)` are kept (ties: the earlier word), and `counts` lists
 * them in that order. Linear in the words, plus a sort of the distinct ones.
 *
 * @param words The request's words, in order, with repeats.
 * @param settings The limit and the weighing.
 * @param distinctive How much a word tells tools apart (its idf in the catalogue), ≥ 0.
 * @returns The words kept, their weights and the count before the limit.
 *
 * @example Usage
 * ```ts
 * import { queryTerms } from "./query_terms.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const settings = { queryTermFrequency: true, queryTermLimit: 2, positionWeightAfter: 2 };
 * const read = queryTerms(["send", "mail", "to", "team", "mail"], settings, (w) => w === "to" ? 0.1 : 1);
 * deepEqual([...read.counts.keys()], ["mail", "send"]);
 * equal(read.counts.get("mail"), 1 + 2 / 5);
 * deepEqual(read.words, ["send", "mail", "mail"]);
 * ```
 */
export function queryTerms(
  words: readonly string[],
  settings: QueryTermSettings,
  distinctive: (word: string) => number,
): QueryTerms {
  const after = settings.positionWeightAfter;
  const counts = new Map<string, number>();
  words.forEach((word, i) => {
    const weight = after > 0 && i >= after ? after / (i + 1) : 1;
    const had = counts.get(word);
    if (had === undefined) counts.set(word, weight);
    else if (settings.queryTermFrequency) counts.set(word, had + weight);
  });
  const distinct = counts.size;
  const limit = settings.queryTermLimit;
  if (limit <= 0 || distinct <= limit) return { words: [...words], counts, distinct };
  const ranked = [...counts].map(([word, weight], at) => ({
    word,
    weight,
    worth: weight * Math.max(0, distinctive(word)),
    at,
  })).sort((a, b) => b.worth - a.worth || a.at - b.at).slice(0, limit);
  const kept = new Map(ranked.map(({ word, weight }) => [word, weight]));
  return { words: words.filter((word) => kept.has(word)), counts: kept, distinct };
}
