/**
 * English word vectors for the lexical ranker's semantic match (opt-in:
 * `createLexicalRanker({vectors: englishVectors()})`). Static vectors distilled from the Universal
 * Sentence Encoder (lite) by `scripts/build_vectors.ts`: each of the 10,000 most frequent words of
 * spoken English (SUBTLEX-US) and each of the encoder's 8,000 word pieces embedded alone and in
 * short generic phrases ("to X", "the X", …), then reduced to 48 dimensions and stored as bytes
 * (licence: `VECTORS_NOTICE.md`). A word of the table has its own vector; any other word of
 * letters and digits is spelt in pieces and gets their mean.
 * A word's weight falls with its frequency (frequent words say little about a need).
 *
 * Why these names: `englishVectors()` is the table a host hands to `createLexicalRanker`
 * (`./lexical`) as its `vectors`, `vectorsOf` builds one from a host's own `VectorTable`;
 * `WordVectors`, `WordVector`, `SemanticMatch` and `ScoredDoc` are the shape a ranker uses;
 * `WORD_WEIGHT_SMOOTHING` and `MAX_SPELT_CHARS` are the two constants a table of one's own must
 * follow; `vectorsIn` reads the vectors of ranking data a host loaded itself (`VectorViews`,
 * `WordTable`: the views it reads, in place).
 *
 * @module
 */

import { SemanticIndex } from "./semantic.ts";
import type { VectorTable } from "./vectors_codec.ts";
import { rankingDataOf, type VectorViews } from "./ranking_data.ts";
import { encodeRankingData } from "./ranking_data_write.ts";
import { englishRankingData } from "./english_data.ts";
import { decodeSemantic } from "./semantic_snapshot.ts";
export type { VectorViews, WordTable } from "./ranking_data.ts";
import type { WordVector, WordVectors } from "./word_sources.ts";
export type { ScoredDoc, SemanticMatch, WordVector, WordVectors } from "./word_sources.ts";
export type { VectorTable } from "./vectors_codec.ts";

/** The smoothing of word weights: a word of probability p weighs `a / (a + p)`. */
export const WORD_WEIGHT_SMOOTHING = 1e-3;

/** The longest word spelt in pieces; longer words have no vector. */
export const MAX_SPELT_CHARS = 40;

// Out-of-table words spelt so far; cleared when full, so memory stays bounded whatever is asked.
const SPELT_CACHE_SIZE = 4096;

let english: WordVectors | undefined;

/**
 * The English word vectors, read in place from the ranking data's file on the first call
 * (`english_data.ts`; about 0.9 MiB, outside any bundle).
 *
 * @returns The vectors.
 *
 * @example Usage
 * ```ts
 * import { englishVectors } from "./vectors.ts";
 * import { ok } from "node:assert/strict";
 *
 * const vectors = englishVectors();
 * ok(vectors.get("picture") !== undefined);
 * ok(vectors.get("kubernetes") !== undefined); // spelt in pieces
 * ```
 */
export function englishVectors(): WordVectors {
  return english ??= vectorsIn(englishRankingData().vectors);
}

/**
 * Word vectors over a table of plain data (written into the ranking data's layout first, so that
 * it is read as the English vectors are).
 *
 * @param table The table.
 * @returns The vectors.
 *
 * @example Usage
 * ```ts
 * import { vectorsOf } from "./vectors.ts";
 * import { equal } from "node:assert/strict";
 *
 * const vectors = vectorsOf({
 *   dimensions: 2,
 *   scale: 1,
 *   words: ["cat"],
 *   pieces: [{ piece: "_d", logp: -4 }, { piece: "og", logp: -5 }],
 *   rows: Int8Array.from([1, 0, 0, 2, 0, 4]),
 * });
 * equal(vectors.get("cat")?.vector[0], 1);
 * equal(vectors.get("dog")?.vector[1], 3); // the mean of "_d" and "og"
 * equal(vectors.get("cow"), undefined);
 * ```
 */
export function vectorsOf(table: VectorTable): WordVectors {
  return vectorsIn(rankingDataOf(encodeRankingData({ vectors: table })).vectors);
}

/**
 * Word vectors over the ranking data's views (`ranking_data.ts`), read in place.
 *
 * @param table The views.
 * @returns The vectors.
 *
 * @example Usage
 * ```ts
 * import { vectorsIn } from "./vectors.ts";
 * import { englishRankingData } from "./english_data.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(vectorsIn(englishRankingData().vectors).has?.("picture"));
 * ```
 */
export function vectorsIn(table: VectorViews): WordVectors {
  const { dimensions, scale, rows, words, pieces, logp: pieceLogp } = table;
  const logN = Math.log(Math.max(2, words.size));
  // Found at the first word spelt in pieces (a pass over the pieces a fresh isolate need not pay).
  let longest = -1;
  const row = (index: number): Float32Array => {
    const out = new Float32Array(dimensions);
    for (let d = 0; d < dimensions; d++) out[d] = rows[index * dimensions + d]! * scale;
    return out;
  };
  const weightOf = (probability: number) =>
    WORD_WEIGHT_SMOOTHING / (WORD_WEIGHT_SMOOTHING + probability);
  const spelt = new Map<string, WordVector | undefined>();
  // The most probable spelling in pieces (Viterbi over the pieces' log-probabilities):
  // O(length × longest piece).
  const spell = (word: string): WordVector | undefined => {
    // A word starts with a word-start piece (`_q…`); when none fits (the encoder has no `_q`),
    // it is spelt with inner pieces alone.
    return spellText(`_${word}`) ?? spellText(word);
  };
  const spellText = (text: string): WordVector | undefined => {
    if (longest < 0) longest = pieces.longest();
    const n = text.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1).fill(-1);
    best[0] = 0;
    for (let end = 1; end <= n; end++) {
      for (let start = Math.max(0, end - longest); start < end; start++) {
        if (best[start] === -Infinity) continue;
        const piece = pieces.find(text, start, end);
        if (piece < 0) continue;
        const score = best[start]! + pieceLogp[piece]!;
        if (score > best[end]!) {
          best[end] = score;
          from[end] = start;
        }
      }
    }
    if (best[n] === -Infinity) return undefined;
    const vector = new Float32Array(dimensions);
    let count = 0;
    let logp = 0;
    for (let end = n; end > 0; end = from[end]!) {
      const piece = pieces.find(text, from[end]!, end);
      const v = row(words.size + piece);
      for (let d = 0; d < dimensions; d++) vector[d]! += v[d]!;
      logp += pieceLogp[piece]!;
      count++;
    }
    for (let d = 0; d < dimensions; d++) vector[d]! /= count;
    return { vector, weight: weightOf(Math.exp(logp / count)) };
  };
  const vectors: WordVectors = {
    dimensions,
    id: `vectors/${table.digest}`,
    index: (tools) => new SemanticIndex(tools, vectors),
    restore(bytes) {
      const parts = decodeSemantic(bytes, dimensions);
      return parts && new SemanticIndex([], vectors, parts);
    },
    has: (word) => words.find(word) >= 0,
    get(word) {
      const index = words.find(word);
      if (index >= 0) {
        return { vector: row(index), weight: weightOf(1 / ((index + 10) * logN)) };
      }
      if (word.length > MAX_SPELT_CHARS || !/^[a-z0-9]+$/.test(word)) return undefined;
      if (spelt.has(word)) return spelt.get(word);
      if (spelt.size >= SPELT_CACHE_SIZE) spelt.clear();
      const vector = spell(word);
      spelt.set(word, vector);
      return vector;
    },
  };
  return vectors;
}
