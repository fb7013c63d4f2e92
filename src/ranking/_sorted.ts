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

/**
 * A sorted string table whose every key has a row of tool numbers, stored as one run of numbers
 * and each row's start (compressed rows): a stored index's word or word-pair postings, read in
 * place.
 *
 * @example Usage
 * ```ts
 * import { SortedRows } from "./_sorted.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const rows = new SortedRows(["a", "b"], Int32Array.of(0, 2, 3), Int32Array.of(1, 4, 2));
 * deepEqual([...rows.get("a")!], [1, 4]);
 * equal(rows.get("c"), undefined);
 * deepEqual([...rows.keys()], ["a", "b"]);
 * ```
 */
export class SortedRows {
  readonly #keys: readonly string[];
  readonly #starts: Int32Array;
  readonly #docs: Int32Array;

  /**
   * Wraps the stored table.
   *
   * @param keys The keys, sorted by UTF-16 code units, without repeats.
   * @param starts Each key's first number in `docs`, and one past the last key's.
   * @param docs The rows, one after another, ascending within each.
   */
  constructor(keys: readonly string[], starts: Int32Array, docs: Int32Array) {
    this.#keys = keys;
    this.#starts = starts;
    this.#docs = docs;
  }

  /**
   * The row of a key.
   *
   * @param key The key.
   * @returns Its numbers, ascending, or `undefined` when it is absent.
   */
  get(key: string): Int32Array | undefined {
    const i = indexInSorted(this.#keys, key);
    return i < 0 ? undefined : this.#docs.subarray(this.#starts[i]!, this.#starts[i + 1]!);
  }

  /**
   * The keys, sorted.
   *
   * @returns The keys.
   */
  keys(): Iterable<string> {
    return this.#keys;
  }
}
