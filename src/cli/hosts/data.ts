/**
 * JSON data from files users and hosts own, handled as data: keys set and read as own properties
 * (a server named `__proto__`, `constructor` or `toString` is a name like any other), values
 * compared by what they hold (key order aside), files told apart by a hash of their bytes.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { isRecord } from "../../utils/record.ts";

/**
 * Sets an own, enumerable property, whatever the key (`__proto__` included).
 *
 * @param target The object.
 * @param key The key.
 * @param value The value.
 *
 * @example Usage
 * ```ts
 * import { defineOwn } from "./data.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const servers: Record<string, unknown> = {};
 * defineOwn(servers, "__proto__", { command: "x" });
 * deepEqual(Object.keys(servers), ["__proto__"]);
 * ```
 */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * An own property's value, or `undefined` (never one inherited from `Object.prototype`).
 *
 * @param target The object (anything: a non-object has no properties).
 * @param key The key.
 * @returns The value.
 */
export function own(target: unknown, key: string): unknown {
  return isRecord(target) && Object.hasOwn(target, key) ? target[key] : undefined;
}

/**
 * Whether two JSON values hold the same data: objects by their own keys whatever their order,
 * arrays in order.
 *
 * @param a A value.
 * @param b Another.
 * @returns Whether they are the same data.
 *
 * @example Usage
 * ```ts
 * import { sameData } from "./data.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(sameData({ a: 1, b: [2] }, { b: [2], a: 1 }), true);
 * equal(sameData({ a: 1 }, { a: 1, b: undefined }), false);
 * ```
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((item, i) => sameData(item, b[i]));
  }
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameData(a[key], b[key]));
  }
  return Object.is(a, b);
}

/**
 * A copy of a JSON value with every key an own property of an ordinary object (TOML tables come
 * without a prototype).
 *
 * @param value The value.
 * @returns The copy.
 */
export function plainData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainData);
  if (typeof value === "object" && value !== null) {
    if (value instanceof Date) return value.toISOString();
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      defineOwn(out, key, plainData((value as Record<string, unknown>)[key]));
    }
    return out;
  }
  return value;
}

/**
 * The SHA-256 of some bytes, in hex (`"absent"` for a file that is not there).
 *
 * @param bytes The bytes, or `undefined` for no file.
 * @returns The hash.
 */
export function contentHash(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? "absent" : createHash("sha256").update(bytes).digest("hex");
}
