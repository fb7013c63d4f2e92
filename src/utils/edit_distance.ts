/**
 * Edit distance for suggestions ("did you mean"): tool ids and bridge field names a model
 * mistyped. Inputs are capped, so the quadratic table stays small.
 *
 * @module
 */

/**
 * The Levenshtein distance with adjacent transpositions (optimal string alignment) between two
 * strings of at most 200 code units; `Infinity` for longer ones.
 *
 * @param a A string.
 * @param b Another string.
 * @returns The number of insertions, deletions, substitutions and swaps of neighbours.
 *
 * @example Usage
 * ```ts
 * import { editDistance } from "./edit_distance.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(editDistance("qeury", "query"), 1);
 * equal(editDistance("name", "limit"), 4);
 * ```
 */
export function editDistance(a: string, b: string): number {
  if (a.length > 200 || b.length > 200) return Infinity;
  const rows = Array.from(
    { length: a.length + 1 },
    (_, i) => [i, ...new Array<number>(b.length).fill(0)],
  );
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

// Longer keys get no suggestion: nobody mistypes a 65-character key by one letter.
const MAX_SUGGESTED_KEY = 64;

/**
 * The known key an unknown one most likely meant: case-insensitive edit distance of at most a
 * third of its length (at least 1); ties go to the first known key.
 *
 * @param key The key that was given.
 * @param known The keys that are accepted there.
 * @returns The nearest known key, or `undefined` when none is near.
 *
 * @example Usage
 * ```ts
 * import { closestKey } from "./edit_distance.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(closestKey("comand", ["command", "args", "env"]), "command");
 * equal(closestKey("zzz", ["command", "args", "env"]), undefined);
 * ```
 */
export function closestKey(key: string, known: Iterable<string>): string | undefined {
  if (key.length > MAX_SUGGESTED_KEY) return undefined;
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(key.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}
