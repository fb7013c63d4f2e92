/**
 * Splitting a long request into its clauses, so that a task that needs several tools can have
 * each of them ranked for the part of the request that asks for it.
 *
 * @module
 */

// Clause boundaries: the end of a sentence (before white space), a line break, a semicolon, and
// "then" (as in "find the file, then mail it"). General English, never words of a catalogue. As a
// regular expression, /[.!?](?=\s)|[;\n\r]+|,?\s+(?:and\s+)?then\s+/giu; scanned by hand, because
// a backtracking engine retries `\s+` from every position of a run of white space (quadratic: 1 s
// for 40,000 spaces).
const SPACE = /\s/u;

/** A counter of the characters {@linkcode clauses} reads (tests). */
export interface ClauseMeter {
  /** Characters read so far. */
  steps: number;
}

/**
 * Splits text into clauses at sentence ends, line breaks, semicolons and "then", in one pass: each
 * character is read a bounded number of times.
 *
 * @param text A request.
 * @param meter Counts the characters read. @default {none}
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
export function clauses(text: string, meter: ClauseMeter = { steps: 0 }): string[] {
  const space = (at: number) => (meter.steps++, at < text.length && SPACE.test(text[at]!));
  // The end of the run of white space from `at` (`at` itself when there is none).
  const skipSpace = (at: number) => {
    while (space(at)) at++;
    return at;
  };
  const word = (at: number, w: string) => {
    meter.steps += w.length;
    return text.slice(at, at + w.length).toLowerCase() === w;
  };
  // Where a ",? \s+ (and \s+)? then \s+" boundary that starts at `at` ends, or -1. `\s+` can only
  // end where its run ends (what follows it is a letter), so one read of each run decides.
  const thenAt = (at: number) => {
    const from = text[at] === "," ? at + 1 : at;
    let end = skipSpace(from);
    if (end === from) return -1;
    if (word(end, "and")) {
      const after = skipSpace(end + 3);
      if (after > end + 3 && word(after, "then")) end = after;
    }
    if (!word(end, "then")) return -1;
    const after = skipSpace(end + 4);
    return after > end + 4 ? after : -1;
  };
  const out: string[] = [];
  const push = (clause: string) => {
    const trimmed = clause.trim();
    if (trimmed !== "") out.push(trimmed);
  };
  let start = 0;
  // A "then" boundary tried from white space failed up to here: from the rest of the same run it
  // fails too (the same run, the same words after it).
  let failedTo = -1;
  for (let at = 0; at < text.length;) {
    meter.steps++;
    const c = text[at]!;
    let end = -1;
    if ((c === "." || c === "!" || c === "?") && space(at + 1)) end = at + 1;
    else if (c === ";" || c === "\n" || c === "\r") {
      end = at + 1;
      while (end < text.length && /[;\n\r]/.test(text[end]!)) (meter.steps++, end++);
    } else if (c === "," || (at >= failedTo && space(at))) {
      end = thenAt(at);
      if (end < 0 && c !== ",") failedTo = skipSpace(at);
    }
    if (end < 0) at++;
    else {
      push(text.slice(start, at));
      start = at = end;
    }
  }
  push(text.slice(start));
  return out;
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
