/**
 * Coverage-aware re-ranking (xQuAD with the query's words as its aspects): a request that needs
 * several tools ("load the audio, track the beat, compute the chroma") should surface a tool for
 * each part, not fill the top with the tools of whichever words dominate the score. The best
 * candidates are re-ranked greedily; each next place goes to the tool that best combines its own
 * relevance with the query words that the tools above it have not covered yet.
 *
 * @module
 */

/** A scored candidate: its number and relevance. */
export interface Candidate {
  /** The tool's number (position in id order; ties go to the lower number). */
  doc: number;
  /** Its relevance, positive. */
  score: number;
}

/**
 * Re-ranks candidates for coverage of the query's words. Place by place, a candidate d is worth
 * (1 − λ) · √(score(d) / score(best)) + λ · Σᵢ aᵢ · p(i|d) · Πₛ (1 − p(i|s)), over query words i with
 * their weights aᵢ (summing to 1), p(i|d) ∈ [0, 1] how well d matches word i, and s the candidates
 * already placed. A candidate's worth only falls as places are filled, so the worths of the places
 * are non-increasing; the returned scores are the worths times the best candidate's score.
 *
 * @param candidates The candidates, best first (scores positive).
 * @param matches `matches[c · words + i]` = p(i | candidates[c]), in [0, 1].
 * @param weights Each query word's weight aᵢ (non-negative; normalised here).
 * @param lambda The weight of coverage against relevance, in [0, 1].
 * @param places How many places to fill greedily; the rest follow by their last worth.
 * @returns The candidates re-ranked, with scores non-increasing (ties by number).
 *
 * @example Usage
 * ```ts
 * import { coverageRerank } from "./coverage.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * // Two tools match "audio" and one matches "chroma": the chroma tool moves up to second place.
 * const candidates = [{ doc: 0, score: 3 }, { doc: 1, score: 2.9 }, { doc: 2, score: 2 }];
 * const matches = [1, 0, 1, 0, 0, 1]; // words: audio, chroma
 * const ranked = coverageRerank(candidates, matches, [1, 1], 0.5, 3);
 * deepEqual(ranked.map((c) => c.doc), [0, 2, 1]);
 * ```
 */
export function coverageRerank(
  candidates: readonly Candidate[],
  matches: ArrayLike<number>,
  weights: readonly number[],
  lambda: number,
  places: number,
): Candidate[] {
  const count = candidates.length;
  const words = weights.length;
  const best = candidates[0]?.score ?? 0;
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (count < 2 || words < 2 || !(total > 0) || !(lambda > 0) || !(best > 0)) {
    return candidates.slice();
  }
  const aspect = weights.map((w) => w / total);
  // Relevance on a compressed scale: a tool half as relevant as the best is worth √½ ≈ 0.71 of it.
  const rel = (score: number) => Math.sqrt(score / best);
  // What is still uncovered of each word: Πₛ (1 − p(i|s)) over the placed candidates.
  const open = new Float64Array(words).fill(1);
  const placed = new Uint8Array(count);
  const worth = new Float64Array(count);
  const out: Candidate[] = [];
  const value = (c: number) => {
    let coverage = 0;
    for (let i = 0; i < words; i++) coverage += aspect[i]! * matches[c * words + i]! * open[i]!;
    return (1 - lambda) * rel(candidates[c]!.score) + lambda * coverage;
  };
  const steps = Math.min(places, count);
  for (let step = 0; step < steps; step++) {
    let pick = -1;
    for (let c = 0; c < count; c++) {
      if (placed[c] === 1) continue;
      worth[c] = value(c);
      if (
        pick < 0 || worth[c]! > worth[pick]! ||
        (worth[c] === worth[pick] && candidates[c]!.doc < candidates[pick]!.doc)
      ) pick = c;
    }
    placed[pick] = 1;
    out.push({ doc: candidates[pick]!.doc, score: worth[pick]! * best });
    for (let i = 0; i < words; i++) open[i]! *= 1 - matches[pick * words + i]!;
  }
  // The rest, by their worth after the last place (never above the last placed worth).
  const rest: Candidate[] = [];
  for (let c = 0; c < count; c++) {
    if (placed[c] === 0) rest.push({ doc: candidates[c]!.doc, score: value(c) * best });
  }
  rest.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return out.concat(rest);
}
