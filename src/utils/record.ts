/**
 * The one test for "a plain JSON object" (not null, not an array), for data from outside.
 *
 * @module
 */

/**
 * Whether a value is an object that is neither `null` nor an array.
 *
 * @param value Any value.
 * @returns Whether it is a record.
 *
 * @example Usage
 * ```ts
 * import { isRecord } from "./record.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isRecord({ a: 1 }), true);
 * equal(isRecord([1]), false);
 * equal(isRecord(null), false);
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A copy of a record keyed by names from outside (environment variables, a user's names) with no
 * prototype: looking up `toString` or `constructor` in it finds only what it holds.
 *
 * @param entries The record.
 * @returns The copy.
 *
 * @example Usage
 * ```ts
 * import { ownRecord } from "./record.ts";
 * import { equal } from "node:assert/strict";
 *
 * const env = ownRecord({ HOME: "/home/me" });
 * equal(env.toString, undefined);
 * equal(env.HOME, "/home/me");
 * ```
 */
export function ownRecord<T>(entries: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}
