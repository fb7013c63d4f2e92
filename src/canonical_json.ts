/**
 * Canonical JSON: object keys sorted at every depth, so that equal data gives equal text (and equal
 * hashes) whatever order its keys or a catalogue's tools arrived in.
 *
 * @module
 */

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
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      text += (i === 0 ? "" : ",") + (skipped(item) ? "null" : canonicalJson(item));
    }
    return `${text}]`;
  }
  // Array.prototype.sort compares UTF-16 code units, like compareStrings: the same in every runtime.
  const keys = Object.keys(value).sort();
  let text = "{";
  for (const key of keys) {
    const member = (value as Record<string, unknown>)[key];
    if (skipped(member)) continue;
    text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${text}}`;
}

function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
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
