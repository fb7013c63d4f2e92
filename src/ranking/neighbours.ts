/**
 * Query expansion through the word vectors, into a catalogue's own words: each query word reaches
 * the few catalogue words closest to it in meaning (`photo` → `image`, `remember` → `memory`), at
 * a weight well below a match on the word itself. Both sides are words of the vector table (a
 * name or code spelt in pieces has no meaning to go by), and only pairs with a high cosine count,
 * so that the ranker hears another wording of the same thing rather than a vague association.
 *
 * @module
 */

import type { RelatedWord, WordVectors } from "./word_sources.ts";

/** The lowest cosine between a query word and a catalogue word for the one to reach the other. */
export const NEIGHBOUR_MIN_COSINE = 0.8;

/** The most catalogue words one query word reaches, closest first. */
export const NEIGHBOUR_COUNT = 3;

// The coordinates are summed in steps of this many; after each step, a bound on the rest
// (Cauchy–Schwarz) rules a catalogue word out as soon as it cannot reach the threshold. The
// table's leading dimensions carry most of a word, so most words go after a step or two.
const STEP = 8;

// Query words looked up so far; cleared when full, so memory stays bounded whatever is asked.
const MEMO_SIZE = 4096;

/** A built {@linkcode CatalogueNeighbours}'s data, to restore it without the word vectors' work. */
export interface NeighbourParts {
  /** The catalogue words that are words of the table. */
  words: readonly string[];
  /** Their unit vectors, `words.length × dimensions`. */
  rows: Float32Array;
  /** Each word's length of its coordinates after each step. */
  tails: Float32Array;
}

/** The catalogue words near each query word in meaning. */
export class CatalogueNeighbours {
  readonly #vectors: WordVectors;
  readonly #words: readonly string[];
  readonly #rows: Float32Array;
  // Per catalogue word, the length of its coordinates after each step.
  readonly #tails: Float32Array;
  readonly #steps: number;
  readonly #dimensions: number;
  readonly #memo = new Map<string, readonly RelatedWord[]>();

  /**
   * Keeps the catalogue's words that are words of the vector table, as unit vectors.
   *
   * @param words The catalogue's words (repeats are ignored).
   * @param vectors The word vectors.
   *
   * @example Usage
   * ```ts
   * import { CatalogueNeighbours } from "./neighbours.ts";
   * import { englishVectors } from "./vectors.ts";
   * import { ok } from "node:assert/strict";
   *
   * const near = new CatalogueNeighbours(["image", "delete", "weather"], englishVectors());
   * ok(near.related("picture", 0.2).every((r) => r.word !== "weather"));
   * ```
   */
  constructor(words: Iterable<string>, vectors: WordVectors, stored?: NeighbourParts) {
    this.#vectors = vectors;
    const dimensions = vectors.dimensions;
    this.#dimensions = dimensions;
    const steps = Math.ceil(dimensions / STEP);
    this.#steps = steps;
    // Restored as they were kept (see parts): the same words, rows and tails.
    if (stored !== undefined) {
      this.#words = stored.words;
      this.#rows = stored.rows;
      this.#tails = stored.tails;
      return;
    }
    const kept: string[] = [];
    const rows: Float32Array[] = [];
    for (const word of new Set(words)) {
      const unitVector = this.#unitOf(word);
      if (unitVector === undefined) continue;
      kept.push(word);
      rows.push(unitVector);
    }
    this.#words = kept;
    this.#rows = new Float32Array(kept.length * dimensions);
    this.#tails = new Float32Array(kept.length * steps);
    rows.forEach((row, i) => {
      this.#rows.set(row, i * dimensions);
      for (let step = 0; step < steps; step++) {
        this.#tails[i * steps + step] = tailNorm(row, (step + 1) * STEP);
      }
    });
  }

  /**
   * What a restore needs: the words kept, their unit rows and tails.
   *
   * @returns The parts (the arrays themselves, not copies).
   */
  parts(): NeighbourParts {
    return { words: this.#words, rows: this.#rows, tails: this.#tails };
  }

  /** How many catalogue words can be reached. */
  get size(): number {
    return this.#words.length;
  }

  /**
   * The catalogue words closest to a word in meaning (not the word itself): at most
   * {@linkcode NEIGHBOUR_COUNT}, each with a cosine of at least {@linkcode NEIGHBOUR_MIN_COSINE},
   * closest first (ties by word), each weighing `weight` × its cosine. `[]` for a word that is not
   * a word of the table. Time: one pass over the catalogue's words, once per distinct word.
   *
   * @param word A lower-case query word.
   * @param weight The weight of a match at cosine 1, in (0, 1].
   * @returns The related catalogue words.
   */
  related(word: string, weight: number): readonly RelatedWord[] {
    const memo = this.#memo.get(word);
    const found = memo ?? this.#nearest(word);
    if (memo === undefined) {
      if (this.#memo.size >= MEMO_SIZE) this.#memo.clear();
      this.#memo.set(word, found);
    }
    return found.map((r) => ({ word: r.word, weight: r.weight * weight }));
  }

  // The nearest catalogue words with their cosines (as weights).
  #nearest(word: string): RelatedWord[] {
    const query = this.#unitOf(word);
    if (query === undefined) return [];
    const dimensions = this.#dimensions;
    const steps = this.#steps;
    const queryTails = Float32Array.from(
      { length: steps },
      (_, s) => tailNorm(query, (s + 1) * STEP),
    );
    const rows = this.#rows;
    const tails = this.#tails;
    // The margin keeps float rounding from ruling out a word at the threshold.
    const floor = NEIGHBOUR_MIN_COSINE - 1e-6;
    const found: RelatedWord[] = [];
    words: for (let i = 0; i < this.#words.length; i++) {
      const offset = i * dimensions;
      let dot = 0;
      for (let step = 0, d = 0; step < steps; step++) {
        const end = Math.min(dimensions, d + STEP);
        for (; d < end; d++) dot += rows[offset + d]! * query[d]!;
        if (dot + queryTails[step]! * tails[i * steps + step]! < floor) continue words;
      }
      if (dot < NEIGHBOUR_MIN_COSINE || this.#words[i] === word) continue;
      found.push({ word: this.#words[i]!, weight: Math.min(1, dot) });
    }
    found.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    return found.slice(0, NEIGHBOUR_COUNT);
  }

  // A word's vector scaled to unit length, when it is a word of the table.
  #unitOf(word: string): Float32Array | undefined {
    if (!(this.#vectors.has?.(word) ?? true)) return undefined;
    const vector = this.#vectors.get(word)?.vector;
    if (vector === undefined) return undefined;
    let sum = 0;
    for (const x of vector) sum += x * x;
    if (!(sum > 0)) return undefined;
    const norm = Math.sqrt(sum);
    const out = new Float32Array(vector.length);
    for (let d = 0; d < vector.length; d++) out[d] = vector[d]! / norm;
    return out;
  }
}

// The length of a vector's coordinates from `from` on.
function tailNorm(vector: Float32Array, from: number): number {
  let sum = 0;
  for (let d = from; d < vector.length; d++) sum += vector[d]! * vector[d]!;
  return Math.sqrt(sum);
}
