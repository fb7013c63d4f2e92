/**
 * The lexical ranker's opt-in semantic match: each tool is the weighted mean of its words' vectors
 * (its name counting most), centred on the catalogue's mean and of unit length; a query is the same
 * over its words. Its cosine with each tool, rescaled so that the best tool gets 1 and the 51st 0,
 * is added to the lexical score (relative to the best), times a weight the ranker sets from the
 * share of query words the catalogue does not use. So tools whose text shares no word with the
 * query can rank, and a query in the catalogue's own words is left to the lexical ranking. It also
 * gives each query word the tools' words closest to it in meaning (`./neighbours`), which the
 * ranker reaches as it reaches a thesaurus's related words.
 *
 * @module
 */

import { CatalogueNeighbours } from "./neighbours.ts";
import { unit, weighCommonWords, withNeighbours } from "./vector_query.ts";
import { inContext } from "./context.ts";
import { orderSiblings } from "./sibling_order.ts";
import { encodeSemantic, type SemanticParts } from "./semantic_snapshot.ts";
import type {
  LexicalField,
  Lexicon,
  RelatedWord,
  ScoredDoc,
  SemanticMatch,
  WordVectors,
} from "./word_sources.ts";
export type { ScoredDoc, SemanticMatch } from "./word_sources.ts";

/** How much each field's words count in a tool's vector. */
export const SEMANTIC_FIELD_WEIGHTS: Readonly<Record<LexicalField, number>> = Object.freeze({
  name: 2,
  title: 1,
  keywords: 1,
  description: 1,
  server: 0.5,
  serverText: 0.5,
  params: 0.3,
  paramDescriptions: 0,
  related: 0,
});

/** The fields whose words a query word can reach through {@linkcode SemanticIndex.related}. */
export const NEIGHBOUR_FIELDS: readonly LexicalField[] = Object.freeze([
  "name",
  "title",
  "keywords",
  "description",
  "params",
]);

/** The power of the share of a query's words the catalogue lacks, in the match's weight. */
export const SEMANTIC_SHARE_POWER = 2;

/** The rank whose cosine counts as 0 (the best counts as 1). */
export const SEMANTIC_REFERENCE_RANK = 50;

/** The tools' vectors, and the fusion of their cosine with a query's into a lexical ranking. */
export class SemanticIndex implements SemanticMatch {
  readonly #vectors: WordVectors;
  readonly #dimensions: number;
  readonly #tools: Float32Array;
  readonly #count: number;
  readonly #mean: Float64Array;
  readonly #neighbours: CatalogueNeighbours;

  /**
   * Builds the tools' vectors.
   *
   * @param words Each tool's words per field, in index order.
   * @param vectors The word vectors.
   * @param stored What a saved index held (`words` is then ignored): restored as it was saved.
   */
  constructor(
    words: readonly Readonly<Record<LexicalField, readonly string[]>>[],
    vectors: WordVectors,
    stored?: SemanticParts,
  ) {
    this.#vectors = vectors;
    const dimensions = vectors.dimensions;
    this.#dimensions = dimensions;
    if (stored !== undefined) {
      this.#count = stored.tools.length / dimensions;
      this.#tools = stored.tools;
      this.#mean = stored.mean;
      this.#neighbours = new CatalogueNeighbours([], vectors, stored.neighbours);
      return;
    }
    this.#count = words.length;
    const tools = new Float32Array(words.length * dimensions);
    const cache = new Map<string, ReturnType<WordVectors["get"]>>();
    const lookup = (word: string) => {
      if (!cache.has(word)) cache.set(word, vectors.get(word));
      return cache.get(word);
    };
    const mean = new Float64Array(dimensions);
    const acc = new Float64Array(dimensions);
    words.forEach((fields, doc) => {
      acc.fill(0);
      for (const field of Object.keys(SEMANTIC_FIELD_WEIGHTS) as LexicalField[]) {
        const weight = SEMANTIC_FIELD_WEIGHTS[field];
        if (weight === 0) continue;
        for (const word of fields[field]) {
          const v = lookup(word);
          if (v === undefined) continue;
          for (let d = 0; d < dimensions; d++) acc[d]! += weight * v.weight * v.vector[d]!;
        }
      }
      unit(acc);
      for (let d = 0; d < dimensions; d++) {
        tools[doc * dimensions + d] = acc[d]!;
        mean[d]! += acc[d]! / words.length;
      }
    });
    // Centred on the catalogue's mean: what all its tools share does not tell them apart.
    for (let doc = 0; doc < words.length; doc++) {
      for (let d = 0; d < dimensions; d++) acc[d] = tools[doc * dimensions + d]! - mean[d]!;
      unit(acc);
      for (let d = 0; d < dimensions; d++) tools[doc * dimensions + d] = acc[d]!;
    }
    this.#tools = tools;
    this.#mean = mean;
    this.#neighbours = new CatalogueNeighbours(
      words.flatMap((fields) => NEIGHBOUR_FIELDS.flatMap((field) => fields[field])),
      vectors,
    );
  }

  /**
   * The match as bytes (see `semantic_snapshot.ts`).
   *
   * @returns The bytes.
   */
  snapshot(): Uint8Array {
    return encodeSemantic({
      tools: this.#tools,
      mean: this.#mean,
      neighbours: this.#neighbours.parts(),
    });
  }

  /**
   * The tools' words closest in meaning to a query word (see {@linkcode CatalogueNeighbours}).
   *
   * @param word A lower-case query word.
   * @param weight The weight of a match at cosine 1.
   * @returns The related catalogue words, closest first.
   */
  related(word: string, weight: number): readonly RelatedWord[] {
    return this.#neighbours.related(word, weight);
  }

  /**
   * A thesaurus for one search that goes on with the tools' words nearest in meaning (see
   * {@linkcode withNeighbours}).
   *
   * @param lexicon The thesaurus.
   * @param weight The weight of a neighbour at cosine 1.
   * @returns The thesaurus for the search.
   */
  withNeighbours(lexicon: Lexicon, weight: number): Lexicon {
    return withNeighbours(lexicon, (word, w) => this.related(word, w), weight);
  }

  /**
   * A thesaurus for one search whose relations fit the request (see {@linkcode inContext}).
   *
   * @param lexicon The thesaurus.
   * @param queryWords The query's words.
   * @param minCosine The lowest cosine of a related word with the query for it to be kept.
   * @param known Whether the catalogue has a word.
   * @returns The thesaurus for the search.
   */
  inContext(
    lexicon: Lexicon,
    queryWords: readonly string[],
    minCosine: number,
    known: (word: string) => boolean,
  ): Lexicon {
    return inContext(lexicon, this.#vectors, queryWords, minCosine, known);
  }

  /**
   * Weighs a query's words by English word frequency (see {@linkcode weighCommonWords}).
   *
   * @param counts Each distinct query word's count; changed in place.
   * @param power The power of each word's weight.
   */
  weighWords(counts: Map<string, number>, power: number): void {
    weighCommonWords(counts, this.#vectors, power);
  }

  /**
   * How much the semantic match counts for a query (see {@linkcode SemanticMatch}).
   *
   * @param queryWords The query's words.
   * @param known Whether a tool uses a word.
   * @param factor The weight when none of the words is known.
   * @returns The weight, ≥ 0.
   */
  weight(queryWords: readonly string[], known: (word: string) => boolean, factor: number): number {
    if (!(factor > 0)) return 0;
    // A word the catalogue lacks asks for the match when it is everyday English: a name, code or
    // number no tool has is what the request is about, not another wording of what to do.
    const everyday = this.#vectors.has ?? (() => true);
    let total = 0;
    let unknown = 0;
    for (const word of new Set(queryWords)) {
      // Frequent words weigh little here too: "related" says less than "photo".
      const weight = this.#vectors.get(word)?.weight ?? 0;
      total += weight;
      if (!known(word) && everyday(word)) unknown += weight;
    }
    if (!(total > 0)) return 0;
    // Squared: a request mostly in other words leans on meaning, one with a stray word barely.
    return factor * (unknown / total) ** SEMANTIC_SHARE_POWER;
  }

  /**
   * Adds the semantic match to a lexical ranking.
   *
   * @param lexical The lexical ranking, best first (may be empty).
   * @param queryWords The query's words (repeated words count as often).
   * @param weight The semantic match's weight, > 0.
   * @param limit The most results.
   * @returns The fused ranking, best first, ties by position; unchanged when no query word has a
   * vector.
   */
  fuse(
    lexical: readonly ScoredDoc[],
    queryWords: readonly string[],
    weight: number,
    limit: number,
  ): ScoredDoc[] {
    const dimensions = this.#dimensions;
    const query = this.#query(queryWords);
    if (query === undefined) return [...lexical];
    const count = this.#count;
    const cosines = new Float64Array(count);
    for (let doc = 0; doc < count; doc++) {
      let sum = 0;
      const offset = doc * dimensions;
      for (let d = 0; d < dimensions; d++) sum += this.#tools[offset + d]! * query[d]!;
      cosines[doc] = sum;
    }
    const sorted = Float64Array.from(cosines).sort();
    const best = sorted[count - 1]!;
    const reference = sorted[count - 1 - Math.min(count - 1, SEMANTIC_REFERENCE_RANK)]!;
    const span = best - reference || 1;
    const scores = new Float64Array(count);
    for (let doc = 0; doc < count; doc++) {
      scores[doc] = weight * Math.max(0, (cosines[doc]! - reference) / span);
    }
    const top = lexical[0]?.score;
    for (const { doc, score } of lexical) scores[doc]! += score / top!;
    const fused: ScoredDoc[] = [];
    for (let doc = 0; doc < count; doc++) {
      if (scores[doc]! > 0) fused.push({ doc, score: scores[doc]! });
    }
    fused.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return fused.slice(0, limit);
  }

  /**
   * Re-orders each server's tools among their places in a ranking's head by meaning (see
   * {@linkcode orderSiblings}).
   *
   * @param top The ranking, best first.
   * @param queryWords The query's words.
   * @param serverOf Each tool's server number, by tool position.
   * @param settings The depth and weight.
   * @returns The ranking, best first.
   */
  orderSiblings(
    top: readonly ScoredDoc[],
    queryWords: readonly string[],
    serverOf: Int32Array,
    settings: { readonly siblingDepth: number; readonly siblingWeight: number },
  ): ScoredDoc[] {
    const { siblingDepth, siblingWeight } = settings;
    const cosines = (docs: readonly number[]) => this.cosines(queryWords, docs);
    return orderSiblings(top, serverOf, siblingDepth, siblingWeight, cosines);
  }

  /**
   * Each given tool's cosine with a query, both centred on the catalogue's mean.
   *
   * @param queryWords The query's words.
   * @param docs The tools' positions.
   * @returns The cosines, in the order of `docs`; undefined when no query word has a vector.
   */
  cosines(queryWords: readonly string[], docs: readonly number[]): Float64Array | undefined {
    const query = this.#query(queryWords);
    if (query === undefined) return undefined;
    const dimensions = this.#dimensions;
    return Float64Array.from(docs, (doc) => {
      let sum = 0;
      const offset = doc * dimensions;
      for (let d = 0; d < dimensions; d++) sum += this.#tools[offset + d]! * query[d]!;
      return sum;
    });
  }

  // A query's vector: its words' weighted mean, centred on the catalogue's mean, of unit length.
  #query(queryWords: readonly string[]): Float64Array | undefined {
    const dimensions = this.#dimensions;
    const query = new Float64Array(dimensions);
    for (const word of queryWords) {
      const v = this.#vectors.get(word);
      if (v === undefined) continue;
      for (let d = 0; d < dimensions; d++) query[d]! += v.weight * v.vector[d]!;
    }
    if (!unit(query)) return undefined;
    for (let d = 0; d < dimensions; d++) query[d]! -= this.#mean[d]!;
    return unit(query) ? query : undefined;
  }
}
