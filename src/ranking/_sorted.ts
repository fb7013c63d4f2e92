/**
 * Lookups in string tables sorted by UTF-16 code units (what `Array.prototype.sort` gives), for
 * indexes read in place from stored bytes instead of rebuilt into maps.
 *
 * @module
 */

/**
 * The position of a string in a sorted table.
 *
 * @param sorted The table, sorted by UTF-16 code units, without repeats.
 * @param key The string.
 * @returns Its position, or -1 when absent.
 *
 * @example Usage
 * ```ts
 * import { indexInSorted } from "./_sorted.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(indexInSorted(["a", "b", "c"], "b"), 1);
 * equal(indexInSorted(["a", "b", "c"], "d"), -1);
 * ```
 */
export function indexInSorted(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid]!;
    if (at === key) return mid;
    if (at < key) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}
