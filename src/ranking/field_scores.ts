/**
 * Field scores computed once per catalogue: for every term and document, the document's BM25+
 * score for that term summed over weighted fields, each field with its own document frequencies and
 * average length (the way MiniSearch scores fields). A search then only adds up stored numbers.
 *
 * @module
 */

/** A term's documents and their scores: `docs[start..end)` and `scores[start..end)`. */
export interface Postings {
  /** Document numbers, ascending, in arrays that all terms share. */
  docs: Int32Array;
  /** The documents' scores for the term, in the same positions. */
  scores: Float64Array;
  /**
   * How much each match counts towards the query words a document matches, in the same
   * positions: 1, less for a match that only a long text holds (see {@linkcode TextPivot});
   * absent when every match counts 1.
   */
  cover?: Float32Array;
  /** The term's first position. */
  start: number;
  /** One past the term's last position. */
  end: number;
}

/**
 * Length is not relevance: the fields that can be long (a description) count each match less in a
 * document whose text is much longer than the catalogue's mean, so that their contribution stops
 * growing with their length. A document whose text fields hold `length` terms, more than `pivot`
 * times the mean, has their part of each term's score (and, where no other field holds the term,
 * the match's weight in coordination) multiplied by pivot × mean / length.
 */
export interface TextPivot {
  /** The fields that can be long. */
  fields: ReadonlySet<string>;
  /** How many times the mean text length a document's text may hold before it counts less. */
  pivot: number;
}

/** BM25+ parameters. */
export interface Bm25Parameters {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation (0: none, 1: full). */
  b: number;
  /** What any match in a field is worth, however long the field. */
  delta: number;
}

/**
 * Computes every term's postings. For a term t, a document d and a field f with weight w, the
 * field adds w · idf · (delta + tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avgLen))), with
 * idf = ln(1 + (N − n + 0.5) / (n + 0.5)), where n counts documents with t in f, len is d's number
 * of terms in f and avgLen the mean over all documents.
 *
 * @param docs Each document's terms by field (the same fields for every document).
 * @param weights Each field's weight; fields with weight 0 or less are left out.
 * @param parameters k1, b and delta.
 * @returns Each term's postings.
 *
 * @example Usage
 * ```ts
 * import { fieldScores } from "./field_scores.ts";
 * import { equal } from "node:assert/strict";
 *
 * const postings = fieldScores(
 *   [{ name: ["read", "file"] }, { name: ["send", "mail"] }],
 *   { name: 1 },
 *   { k1: 1.2, b: 0.75, delta: 0 },
 * );
 * const file = postings.get("file")!;
 * equal(file.end - file.start, 1);
 * equal(file.docs[file.start], 0);
 * ```
 */
export function fieldScores<F extends string>(
  docs: readonly Readonly<Record<F, readonly string[]>>[],
  weights: Readonly<Record<F, number>>,
  { k1, b, delta }: Bm25Parameters,
  text?: TextPivot,
): Map<string, Postings> {
  const fields = (Object.keys(weights) as F[]).filter((field) => weights[field] > 0);
  const fieldCount = fields.length;
  const n = docs.length;
  // Terms are numbered, and every (document, field) list of terms is stored in one flat typed
  // array: maps of maps, and arrays of arrays, made building several times slower.
  const ids = new Map<string, number>();
  let total = 0;
  for (const doc of docs) for (const field of fields) total += doc[field].length;
  const coded = new Int32Array(total);
  const offsets = new Int32Array(n * fieldCount + 1); // list (d, f) is coded[offsets[d·F+f] ..)
  const lengths = new Float64Array(fieldCount);
  let at = 0;
  docs.forEach((doc, d) => {
    fields.forEach((field, f) => {
      offsets[d * fieldCount + f] = at;
      const words = doc[field];
      lengths[f]! += words.length;
      for (let i = 0; i < words.length; i++) {
        const word = words[i]!;
        let id = ids.get(word);
        if (id === undefined) ids.set(word, id = ids.size);
        coded[at++] = id;
      }
    });
  });
  offsets[n * fieldCount] = at;
  const size = ids.size;
  const df = new Int32Array(fieldCount * size);
  const stamp = new Int32Array(size).fill(-1);
  for (let list = 0; list < n * fieldCount; list++) {
    const f = list % fieldCount;
    for (let i = offsets[list]!; i < offsets[list + 1]!; i++) {
      const term = coded[i]!;
      if (stamp[term] === list) continue;
      stamp[term] = list;
      df[f * size + term]!++;
    }
  }
  const averages = Array.from(lengths, (length) => Math.max(1, length / Math.max(1, n)));
  // Each document's factor on its text fields' part: 1, less past the pivot.
  const isText = fields.map((field) => text?.fields.has(field) === true);
  const pivots = new Float64Array(n).fill(1);
  let pivoted = false;
  if (text !== undefined && text.pivot > 0 && isText.some((t) => t)) {
    const textLength = new Float64Array(n);
    let all = 0;
    for (let d = 0; d < n; d++) {
      for (let f = 0; f < fieldCount; f++) {
        if (!isText[f]) continue;
        const length = offsets[d * fieldCount + f + 1]! - offsets[d * fieldCount + f]!;
        textLength[d]! += length;
        all += length;
      }
    }
    const limit = text.pivot * all / Math.max(1, n);
    for (let d = 0; d < n; d++) {
      if (textLength[d]! > limit && limit > 0) {
        pivots[d] = limit / textLength[d]!;
        pivoted = true;
      }
    }
  }
  // Each (field, term)'s idf, computed on first use: ln(1 + (N − n + 0.5) / (n + 0.5)).
  const idfs = new Float64Array(fieldCount * size).fill(-1);
  const fieldWeights = fields.map((field) => weights[field]);
  // (term, document, score) triples, document by document, then grouped by term (a counting sort).
  // A document adds at most one triple per term it holds, so there are at most `total`.
  const tripleTerms = new Int32Array(total);
  const tripleDocs = new Int32Array(total);
  const tripleScores = new Float64Array(total);
  const tripleCover = pivoted ? new Float32Array(total) : undefined;
  let triples = 0;
  const tf = new Float64Array(size);
  const sum = new Float64Array(size);
  // Per term of the document: whether a field other than the text fields holds it.
  const held = new Uint8Array(pivoted ? size : 0);
  const touched = new Int32Array(size);
  for (let d = 0; d < n; d++) {
    let touchedCount = 0;
    for (let f = 0; f < fieldCount; f++) {
      const first = offsets[d * fieldCount + f]!;
      const end = offsets[d * fieldCount + f + 1]!;
      for (let i = first; i < end; i++) tf[coded[i]!]!++;
      const norm = k1 * (1 - b + b * (end - first) / averages[f]!);
      const weight = fieldWeights[f]!;
      for (let i = first; i < end; i++) {
        const term = coded[i]!;
        const count = tf[term]!;
        if (count === 0) continue; // a repeat, already scored for this field
        tf[term] = 0;
        let idf = idfs[f * size + term]!;
        if (idf < 0) {
          const frequency = df[f * size + term]!;
          idfs[f * size + term] = idf = Math.log(1 + (n - frequency + 0.5) / (frequency + 0.5));
        }
        if (sum[term] === 0) touched[touchedCount++] = term;
        const part = weight * idf * (delta + count * (k1 + 1) / (count + norm));
        if (!pivoted) sum[term]! += part;
        else if (isText[f]) sum[term]! += part * pivots[d]!;
        else {
          sum[term]! += part;
          held[term] = 1;
        }
      }
    }
    for (let i = 0; i < touchedCount; i++) {
      const term = touched[i]!;
      tripleTerms[triples] = term;
      tripleDocs[triples] = d;
      if (tripleCover !== undefined) {
        tripleCover[triples] = held[term] === 1 ? 1 : pivots[d]!;
        held[term] = 0;
      }
      tripleScores[triples++] = sum[term]!;
      sum[term] = 0;
    }
  }
  const start = new Int32Array(size + 1);
  for (let i = 0; i < triples; i++) start[tripleTerms[i]! + 1]!++;
  for (let term = 0; term < size; term++) start[term + 1]! += start[term]!;
  const next = start.slice(0, size);
  const allDocs = new Int32Array(triples);
  const allScores = new Float64Array(triples);
  const allCover = tripleCover === undefined ? undefined : new Float32Array(triples);
  for (let i = 0; i < triples; i++) {
    const to = next[tripleTerms[i]!]!++;
    allDocs[to] = tripleDocs[i]!;
    allScores[to] = tripleScores[i]!;
    if (allCover !== undefined) allCover[to] = tripleCover![i]!;
  }
  const postings = new Map<string, Postings>();
  for (const [word, term] of ids) {
    postings.set(word, {
      docs: allDocs,
      scores: allScores,
      ...(allCover === undefined ? {} : { cover: allCover }),
      start: start[term]!,
      end: start[term + 1]!,
    });
  }
  return postings;
}
