/**
 * Splitting a long request into its clauses, so that a task that needs several tools can have
 * each of them ranked for the part of the request that asks for it.
 *
 * @module
 */

// Clause boundaries: the end of a sentence (before white space), a line break, a semicolon, and
// "then" (as in "find the file, then mail it"). General English, never words of a catalogue.
const BOUNDARY = /[.!?](?=\s)|[;\n\r]+|,?\s+(?:and\s+)?then\s+/giu;

/**
 * Splits text into clauses at sentence ends, line breaks, semicolons and "then".
 *
 * @param text A request.
 * @returns Its clauses, trimmed, without empty ones.
 *
 * @example Usage
 * ```ts
 * import { clauses } from "./segments.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(clauses("Find the report. Then mail it to Ann; and print it"), [
 *   "Find the report",
 *   "mail it to Ann",
 *   "and print it",
 * ]);
 * deepEqual(clauses("download the page, then summarise it"), ["download the page", "summarise it"]);
 * ```
 */
export function clauses(text: string): string[] {
  return text.split(BOUNDARY).map((clause) => clause.trim()).filter((clause) => clause !== "");
}

/**
 * Fuses ranked lists by reciprocal rank: a tool scores Σ 1 / (k + rank) over the lists it is in
 * (rank from 1). With a small `k` the lists take turns at the top, so each list's best tool is
 * near the top of the fused list.
 *
 * @param lists Ranked lists of tool numbers, best first.
 * @param k The rank offset.
 * @returns Tool numbers and fused scores, best first, ties by number.
 *
 * @example Usage
 * ```ts
 * import { fuseRanks } from "./segments.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(fuseRanks([[1, 2, 3], [4, 2]], 1).map((hit) => hit.doc), [2, 1, 4, 3]);
 * ```
 */
export function fuseRanks(
  lists: readonly (readonly number[])[],
  k: number,
): { doc: number; score: number }[] {
  const fused = new Map<number, number>();
  for (const list of lists) {
    list.forEach((doc, rank) => fused.set(doc, (fused.get(doc) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...fused].map(([doc, score]) => ({ doc, score }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
}
