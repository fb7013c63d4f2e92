/**
 * What the word vectors change in how the lexical ranker reads a query (the semantic match itself
 * is `semantic.ts`): frequent English words count for less, and each query word also reaches the
 * catalogue's words nearest to it in meaning. Both only take effect with vectors, and the ranker
 * reaches them through its semantic match (`semantic.ts`), so a bundle without vectors has none.
 *
 * @module
 */

import type { Lexicon, RelatedWord, WordVectors } from "./word_sources.ts";

/**
 * How many distinct words of one query reach the catalogue's words nearest in meaning: each costs
 * a pass over the catalogue's words the first time it is asked, so a long query of fresh words
 * must not cost that pass for every one of them.
 */
export const NEIGHBOUR_MAX_WORDS = 16;

/**
 * Weighs a query's words by English word frequency: each word of the vector table counts its
 * weight there (a / (a + p), lower for frequent words) to the power `power`, times its count.
 * The catalogue's idf cannot tell that `show` or `want` say little about a need when few tools
 * happen to use them; the frequency of the word in English can. Other words keep their count.
 *
 * @param counts Each distinct query word's count; changed in place.
 * @param vectors The word vectors.
 * @param power The power of the weight (0: counts unchanged).
 *
 * @example Usage
 * ```ts
 * import { weighCommonWords } from "./vector_query.ts";
 * import { englishVectors } from "./vectors.ts";
 * import { ok } from "node:assert/strict";
 *
 * const counts = new Map([["show", 1], ["photo", 1]]);
 * weighCommonWords(counts, englishVectors(), 0.75);
 * ok(counts.get("show")! < counts.get("photo")!);
 * ```
 */
export function weighCommonWords(
  counts: Map<string, number>,
  vectors: WordVectors,
  power: number,
): void {
  if (!(power > 0)) return;
  for (const [word, count] of counts) {
    if (!(vectors.has?.(word) ?? true)) continue;
    const weight = vectors.get(word)?.weight;
    if (weight !== undefined) counts.set(word, count * weight ** power);
  }
}

/**
 * A thesaurus for one search that goes on with the catalogue's words nearest in meaning to each
 * query word (for the first {@linkcode NEIGHBOUR_MAX_WORDS} distinct words asked); the words the
 * thesaurus relates itself come first and keep their weight.
 *
 * @param lexicon The thesaurus.
 * @param related The catalogue's words nearest in meaning to a word, at a weight.
 * @param weight The weight of a neighbour at cosine 1.
 * @returns The thesaurus for the search.
 *
 * @example Usage
 * ```ts
 * import { withNeighbours } from "./vector_query.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const thesaurus = { has: () => false, related: () => [] };
 * const near = (word: string, w: number) => word === "photo" ? [{ word: "picture", weight: w }] : [];
 * deepEqual(withNeighbours(thesaurus, near, 0.2).related("photo"), [{ word: "picture", weight: 0.2 }]);
 * ```
 */
export function withNeighbours(
  lexicon: Lexicon,
  related: (word: string, weight: number) => readonly RelatedWord[],
  weight: number,
): Lexicon {
  const asked = new Set<string>();
  return {
    has: (word) => lexicon.has(word),
    related(word) {
      const own = lexicon.related(word);
      if (!asked.has(word)) {
        if (asked.size >= NEIGHBOUR_MAX_WORDS) return own;
        asked.add(word);
      }
      const near = related(word, weight);
      if (own.length === 0 || near.length === 0) return own.length === 0 ? near : own;
      const seen = new Set(own.map((r) => r.word));
      return [...own, ...near.filter((r) => !seen.has(r.word))];
    },
  };
}

/**
 * Scales a vector to unit length in place.
 *
 * @param vector The vector.
 * @returns Whether it could be scaled: false (and the vector unchanged) when it is zero.
 *
 * @example Usage
 * ```ts
 * import { unit } from "./vector_query.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const v = new Float64Array([3, 4]);
 * equal(unit(v), true);
 * deepEqual([...v], [0.6, 0.8]);
 * equal(unit(new Float64Array(2)), false);
 * ```
 */
export function unit(vector: Float64Array): boolean {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (!(sum > 0)) return false;
  const norm = Math.sqrt(sum);
  for (let d = 0; d < vector.length; d++) vector[d]! /= norm;
  return true;
}
