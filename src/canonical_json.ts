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
  // Without recursion: a value of any depth the JSON parser accepts is serialised, never a stack
  // overflow. Each frame is an array or object being written, the next member to write, and
  // whether a member has been written (the text itself is never read back: asking the growing
  // string anything flattens it, which made every member cost the whole text so far).
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  let text = "";
  type Frame = {
    node: Record<string, unknown>;
    keys: string[];
    next: number;
    array: boolean;
    written: boolean;
  };
  const stack: Frame[] = [];
  const open = (node: object) => {
    const array = Array.isArray(node);
    // Array.prototype.sort compares UTF-16 code units, like compareStrings: the same everywhere.
    const keys = array ? [] : Object.keys(node).sort();
    text += array ? "[" : "{";
    stack.push({ node: node as Record<string, unknown>, keys, next: 0, array, written: false });
  };
  open(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const length = frame.array ? (frame.node as unknown as unknown[]).length : frame.keys.length;
    if (frame.next === length) {
      text += frame.array ? "]" : "}";
      stack.pop();
      continue;
    }
    const index = frame.next++;
    let member: unknown;
    if (frame.array) {
      member = (frame.node as unknown as unknown[])[index];
      if (index > 0) text += ",";
      if (skipped(member)) member = null;
    } else {
      const key = frame.keys[index]!;
      member = frame.node[key];
      if (skipped(member)) continue;
      text += `${frame.written ? "," : ""}${JSON.stringify(key)}:`;
      frame.written = true;
    }
    if (member === null || typeof member !== "object") text += JSON.stringify(member);
    else open(member);
  }
  return text;
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
