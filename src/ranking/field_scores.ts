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
  /** The term's first position. */
  start: number;
  /** One past the term's last position. */
  end: number;
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
): Map<string, Postings> {
  const fields = (Object.keys(weights) as F[]).filter((field) => weights[field] > 0);
  const n = docs.length;
  // Terms are numbered and counted in typed arrays: maps of maps made building several times slower.
  const ids = new Map<string, number>();
  const coded = docs.map((doc) =>
    fields.map((field) =>
      doc[field].map((word) => {
        let id = ids.get(word);
        if (id === undefined) ids.set(word, id = ids.size);
        return id;
      })
    )
  );
  const size = ids.size;
  const df = new Int32Array(fields.length * size);
  const stamp = new Int32Array(size).fill(-1);
  coded.forEach((doc, d) =>
    doc.forEach((terms, f) => {
      for (const term of terms) {
        if (stamp[term] === d * fields.length + f) continue;
        stamp[term] = d * fields.length + f;
        df[f * size + term]!++;
      }
    })
  );
  const averages = fields.map((_, f) =>
    Math.max(1, coded.reduce((sum, doc) => sum + doc[f]!.length, 0) / Math.max(1, n))
  );
  // (term, document, score) triples, document by document, then grouped by term (a counting sort).
  const triples = { term: [] as number[], doc: [] as number[], score: [] as number[] };
  const tf = new Float64Array(size);
  const sum = new Float64Array(size);
  const touched: number[] = [];
  coded.forEach((doc, d) => {
    doc.forEach((terms, f) => {
      for (const term of terms) tf[term]!++;
      const norm = k1 * (1 - b + b * terms.length / averages[f]!);
      for (const term of terms) {
        const count = tf[term]!;
        if (count === 0) continue; // a repeat, already scored for this field
        tf[term] = 0;
        const frequency = df[f * size + term]!;
        const idf = Math.log(1 + (n - frequency + 0.5) / (frequency + 0.5));
        if (sum[term] === 0) touched.push(term);
        sum[term]! += weights[fields[f]!] * idf * (delta + count * (k1 + 1) / (count + norm));
      }
    });
    for (const term of touched) {
      triples.term.push(term);
      triples.doc.push(d);
      triples.score.push(sum[term]!);
      sum[term] = 0;
    }
    touched.length = 0;
  });
  const start = new Int32Array(size + 1);
  for (const term of triples.term) start[term + 1]!++;
  for (let term = 0; term < size; term++) start[term + 1]! += start[term]!;
  const next = start.slice(0, size);
  const allDocs = new Int32Array(triples.term.length);
  const allScores = new Float64Array(triples.term.length);
  triples.term.forEach((term, i) => {
    const at = next[term]!++;
    allDocs[at] = triples.doc[i]!;
    allScores[at] = triples.score[i]!;
  });
  const postings = new Map<string, Postings>();
  for (const [word, term] of ids) {
    postings.set(word, {
      docs: allDocs,
      scores: allScores,
      start: start[term]!,
      end: start[term + 1]!,
    });
  }
  return postings;
}
