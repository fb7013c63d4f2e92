/**
 * Pseudo-relevance feedback (RM3-style): the most distinctive words of the best tools of a first
 * search are added to the query with a small weight, so that a tool described in the words of the
 * best matches, rather than the request's, moves up.
 *
 * @module
 */

/** A tool of the first search: its words and its score. */
export interface FeedbackDoc {
  /** The tool's words (repeats count). */
  words: readonly string[];
  /** Its score in the first search, positive. */
  score: number;
}

/**
 * Chooses feedback words: each word w of the given tools is worth Σ_d p(d) · tf(w, d) / |d| · idf(w),
 * with p(d) the tool's share of the tools' total score and idf(w) = ln(1 + (N − n + 0.5) / (n + 0.5));
 * the `count` best words not in `exclude` are returned with weights relative to the best word's,
 * times `weight`; ties by word.
 *
 * @param docs The best tools of the first search.
 * @param exclude Words not to add (the query's own).
 * @param docFrequency How many of the catalogue's `total` tools have a word.
 * @param total The number of tools.
 * @param count The most words to add.
 * @param weight The weight of the best feedback word.
 * @returns Feedback words and weights.
 *
 * @example Usage
 * ```ts
 * import { feedbackWords } from "./feedback.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const words = feedbackWords(
 *   [{ words: ["image", "resize", "picture"], score: 2 }, { words: ["image", "crop"], score: 1 }],
 *   new Set(["picture"]),
 *   (word) => (word === "image" ? 2 : 1),
 *   100,
 *   2,
 *   0.5,
 * );
 * deepEqual([...words.keys()], ["image", "resize"]);
 * ```
 */
export function feedbackWords(
  docs: readonly FeedbackDoc[],
  exclude: ReadonlySet<string>,
  docFrequency: (word: string) => number,
  total: number,
  count: number,
  weight: number,
): Map<string, number> {
  const mass = docs.reduce((sum, doc) => sum + doc.score, 0);
  const worth = new Map<string, number>();
  if (!(mass > 0) || count <= 0 || !(weight > 0)) return new Map();
  for (const { words, score } of docs) {
    if (words.length === 0) continue;
    const share = score / mass / words.length;
    for (const word of words) {
      if (!exclude.has(word)) worth.set(word, (worth.get(word) ?? 0) + share);
    }
  }
  const ranked = [...worth].map(([word, w]) => {
    const n = docFrequency(word);
    return { word, w: w * Math.log(1 + (total - n + 0.5) / (n + 0.5)) };
  }).sort((a, b) => b.w - a.w || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
    .slice(0, count);
  const best = ranked[0]?.w ?? 0;
  return new Map(best > 0 ? ranked.map(({ word, w }) => [word, weight * w / best]) : []);
}
