/**
 * Long requests for measurements: a catalogue's own query set's requests run together and cut to
 * a length, starting at several offsets, as an agent pastes a long task.
 *
 * @module
 */

import type { EvalData } from "./eval/dataset.ts";

/** The lengths measured, in characters (up to the bridge's limit). */
export const REQUEST_LENGTHS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 8_000];

/**
 * Requests of one length from a catalogue's queries.
 *
 * @param data The catalogue and its query sets (their queries are the text).
 * @param length The length of each request, in characters.
 * @param count How many requests (each starting at another query).
 * @returns The requests.
 *
 * @example Usage
 * ```ts
 * import { lengthRequests } from "./_long_requests.ts";
 * import { equal } from "node:assert/strict";
 *
 * const data = { dir: "", tools: [], servers: [], sets: [{ name: "q", skipped: 0, queries: [
 *   { group: "1", query: "read the file", gold: [["a/b"]] },
 *   { group: "2", query: "send a message", gold: [["a/c"]] },
 * ] }] };
 * equal(lengthRequests(data, 20, 2)[1]?.length, 20);
 * ```
 */
export function lengthRequests(data: EvalData, length: number, count = 8): string[] {
  const texts = data.sets.flatMap((set) => set.queries.map((q) => q.query));
  return Array.from({ length: count }, (_, start) => {
    let text = "";
    for (let i = start; text.length < length; i++) text += `${texts[i % texts.length]} `;
    return text.slice(0, length);
  });
}
