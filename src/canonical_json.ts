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
  // The native serialiser, handed each object with its keys in order: a sorted copy of the objects
  // whose keys are not sorted already. Several times faster than writing the text member by
  // member in JavaScript.
  try {
    return JSON.stringify(value, sortedMembers);
  } catch (e) {
    // Too deep for the native serialiser's stack, or an object that no copy can put in order.
    if (e !== UNORDERABLE && !(e instanceof RangeError)) throw e;
  }
  return walk(value);
}

const UNORDERABLE = new Error("An object whose integer-like keys no copy can put in order");
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;

function sortedMembers(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  let sorted = true;
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      sorted = false;
      break;
    }
  }
  if (sorted) return value;
  // Objects list integer-like keys first, in numeric order, whatever order they were added in
  // (and those come first in Object.keys): such an object cannot be copied into sorted order.
  if (INTEGER_LIKE.test(keys[0]!)) throw UNORDERABLE;
  const copy: Record<string, unknown> = {};
  for (const key of keys.sort()) {
    // Assigning "__proto__" would set the copy's prototype, not add a member.
    if (key === "__proto__") throw UNORDERABLE;
    copy[key] = (value as Record<string, unknown>)[key];
  }
  return copy;
}

// Member by member, without recursion: a value of any depth the JSON parser accepts is
// serialised, never a stack overflow.
function walk(value: object): string {
  // Each frame is an array or object being written, the next member to write, and
  // whether a member has been written (the text itself is never read back: asking the growing
  // string anything flattens it, which made every member cost the whole text so far).
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
