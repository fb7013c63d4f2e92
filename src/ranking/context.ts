/**
 * The thesaurus checked by the request's context. WordNet relates a word through every one of its
 * senses (`current` → `latest`, `currency`, `flow`), and most of them are not what a given request
 * means; and a query word the catalogue itself uses is matched already, so its relations mostly
 * move tools that match it anyway. So, for one search, a query word's related words are followed
 * only when the catalogue does not have the word, and only those whose vector is close to the
 * request as a whole: the weighted mean of the query's words' vectors, as the semantic match
 * builds it. Only the ranker's semantic match (`semantic.ts`) reaches this module, so a bundle
 * without word vectors does not carry it.
 *
 * @module
 */

import type { Lexicon, RelatedWord, WordVectors } from "./word_sources.ts";
import { unit } from "./vector_query.ts";

/**
 * A thesaurus for one search whose relations fit the request: a word the catalogue has gets none,
 * and of another word's related words only those whose cosine with the query's vector is at
 * least `minCosine` are kept (a related word that is not a word of the vector table has no
 * meaning to check, so it is left out). A query with no word of the table has no context, and
 * one with no word of the catalogue is left to the semantic match: nothing is related in either. Time: one pass over the query's words, then each related word's vector
 * once per search (memoised by word).
 *
 * @param lexicon The thesaurus.
 * @param vectors The word vectors.
 * @param queryWords The query's words (repeats count as often).
 * @param minCosine The lowest cosine of a related word's vector with the query's.
 * @param known Whether the catalogue has a word.
 * @returns The thesaurus for the search.
 *
 * @example Usage
 * ```ts
 * import { inContext } from "./context.ts";
 * import { englishLexicon } from "./lexicon.ts";
 * import { englishVectors } from "./vectors.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const related = (query: string) =>
 *   inContext(englishLexicon(), englishVectors(), query.split(" "), 0.45, (w) => w === "show")
 *     .related("current").map((r) => r.word);
 * deepEqual(related("show current news today"), ["latest"]);
 * deepEqual(related("show current gold price"), ["currency"]);
 * deepEqual(related("current gold price"), []); // no word of the catalogue
 * ```
 */
export function inContext(
  lexicon: Lexicon,
  vectors: WordVectors,
  queryWords: readonly string[],
  minCosine: number,
  known: (word: string) => boolean,
): Lexicon {
  // A request with none of the catalogue's words gets no relations: its lexical ranking would be
  // made of related words alone, and the fusion with the semantic match scales the lexical
  // ranking to its best, so one related word would count as much as the request's whole meaning.
  const query = queryWords.some(known) ? queryVector(vectors, queryWords) : undefined;
  const memo = new Map<string, readonly RelatedWord[]>();
  return {
    has: (word) => lexicon.has(word),
    related(word) {
      let kept = memo.get(word);
      if (kept === undefined) {
        kept = query === undefined || known(word) ? [] : lexicon.related(word).filter((r) => {
          const c = cosine(vectors, r.word, query);
          return c !== undefined && c >= minCosine;
        });
        memo.set(word, kept);
      }
      return kept;
    },
  };
}

// The query's meaning: the weighted mean of the vectors of its words of the table, unit length
// (undefined when none is one).
function queryVector(
  vectors: WordVectors,
  queryWords: readonly string[],
): Float64Array | undefined {
  const query = new Float64Array(vectors.dimensions);
  const everyday = vectors.has ?? (() => true);
  for (const word of queryWords) {
    const v = everyday(word) ? vectors.get(word) : undefined;
    if (v === undefined) continue;
    for (let d = 0; d < query.length; d++) query[d]! += v.weight * v.vector[d]!;
  }
  return unit(query) ? query : undefined;
}

// A word's cosine with a unit vector, when it is a word of the table.
function cosine(vectors: WordVectors, word: string, unit: Float64Array): number | undefined {
  if (!(vectors.has?.(word) ?? true)) return undefined;
  const vector = vectors.get(word)?.vector;
  if (vector === undefined) return undefined;
  let dot = 0;
  let sum = 0;
  for (let d = 0; d < unit.length; d++) {
    dot += vector[d]! * unit[d]!;
    sum += vector[d]! * vector[d]!;
  }
  return sum > 0 ? dot / Math.sqrt(sum) : undefined;
}
