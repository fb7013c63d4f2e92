/**
 * A plain BM25 baseline for the evaluation: Okapi BM25 over each tool's name and description as
 * one text, words split on anything that is not a letter or a digit, lower-cased; no stemming, no
 * stop-words, no field weights, no server information.
 *
 * @module
 */

import type { McpTool, RankedTool, Ranker } from "../../mod.ts";
import { toolId } from "../../mod.ts";

/** Term-frequency saturation. */
const K1 = 1.2;
/** Length normalisation. */
const B = 0.75;
const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(WORD) ?? [];
}

/**
 * Builds the baseline over a catalogue. Score of a tool for a query with words `q1..qn` (repeats
 * counted): Σ idf(q) · tf · (K1 + 1) / (tf + K1 · (1 − B + B · len / avgLen)), with
 * idf(q) = ln(1 + (N − df + 0.5) / (df + 0.5)).
 *
 * @param tools The tools.
 * @returns A ranker: tools with a positive score, best first, ties by id.
 *
 * @example Usage
 * ```ts
 * import { bm25Ranker } from "./bm25.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = bm25Ranker([
 *   { server: "a", name: "read_file", description: "Read a file", inputSchema: { type: "object" } },
 *   { server: "a", name: "send_mail", description: "Send an email", inputSchema: { type: "object" } },
 * ]);
 * equal(ranker.search("send email", 5)[0]?.id, "a/send_mail");
 * ```
 */
export function bm25Ranker(tools: readonly McpTool[]): Ranker {
  const docs = tools.map((tool) => {
    const tf = new Map<string, number>();
    const terms = words(`${tool.name} ${tool.description}`);
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    return { id: toolId(tool), tf, length: terms.length };
  });
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const avgLength = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length);
  const idf = (term: string) => {
    const n = df.get(term) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  return {
    search(query: string, limit: number): RankedTool[] {
      const terms = words(query).filter((term) => df.has(term));
      if (terms.length === 0) return [];
      const hits: RankedTool[] = [];
      for (const doc of docs) {
        let score = 0;
        for (const term of terms) {
          const tf = doc.tf.get(term);
          if (tf === undefined) continue;
          const norm = K1 * (1 - B + B * doc.length / avgLength);
          score += idf(term) * tf * (K1 + 1) / (tf + norm);
        }
        if (score > 0) hits.push({ id: doc.id, score });
      }
      return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit);
    },
  };
}
