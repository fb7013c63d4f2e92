/**
 * Canonical JSON: object keys sorted at every depth, so that equal data gives equal text (and equal
 * hashes) whatever order its keys or a catalogue's tools arrived in.
 *
 * @module
 */

import { compareStrings } from "./_compare.ts";

/**
 * Serialises JSON data with object keys sorted at every depth. `undefined` members are left out,
 * as `JSON.stringify` does.
 *
 * @param value JSON data.
 * @returns The canonical text.
 *
 * @example Usage
 * ```ts
 * import { canonicalJson } from "./canonical_json.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item) => item === undefined ? "null" : canonicalJson(item)).join(",")}]`;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined && typeof v !== "function")
      .sort(([a], [b]) => compareStrings(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Hashes text to a hex digest; comes in as a parameter so the core never reaches for crypto. */
export type Hasher = (text: string) => Promise<string> | string;

/**
 * SHA-256 of UTF-8 text as lower-case hex, with Web Crypto (Deno, Workers, Node, browsers).
 *
 * @param text The text.
 * @returns The hex digest.
 *
 * @example Usage
 * ```ts
 * import { sha256Hex } from "./canonical_json.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(await sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * ```
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
