/**
 * Data in a query: a run of many characters without a space (base64, a hash, a minified line)
 * names nothing a tool would be found by, but the tokenizer splits it at every letter–digit and
 * case boundary into thousands of fragments, each of which reaches catalogue words by prefix or one
 * typo away: they outvote the request's own words and make the search cost grow with the blob.
 *
 * @module
 */

/**
 * A query without its runs of `chars` or more characters with no space (each replaced by a space).
 *
 * @param query The query.
 * @param chars The shortest run left out (0 or less: none is).
 * @returns The query without them; the query itself when it has none.
 *
 * @example Usage
 * ```ts
 * import { withoutDataRuns } from "./data_runs.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(withoutDataRuns(`what is this image? ${"iVBORw0KGgo".repeat(20)} thanks`, 100), "what is this image?   thanks");
 * equal(withoutDataRuns("read_file on a short path", 100), "read_file on a short path");
 * ```
 */
export function withoutDataRuns(query: string, chars: number): string {
  // Only at a run's start (the lookbehind), so each run is read once: linear in the query.
  return chars > 0 && query.length >= chars
    ? query.replace(new RegExp(`(?<!\\S)\\S{${Math.floor(chars)},}`, "g"), " ")
    : query;
}
