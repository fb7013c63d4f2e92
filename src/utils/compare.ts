/**
 * The one ordering of strings used everywhere output must be deterministic: UTF-16 code units, the
 * same in every runtime and locale.
 *
 * @module
 */

/**
 * Compares two strings by code units.
 *
 * @param a A string.
 * @param b Another string.
 * @returns Negative, zero or positive, as `Array.prototype.sort` expects.
 *
 * @example Usage
 * ```ts
 * import { compareStrings } from "./compare.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(["b", "a-b", "a", "B"].sort(compareStrings), ["B", "a", "a-b", "b"]);
 * ```
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
