/**
 * Canonical JSON: object keys sorted at every depth, so that equal data gives equal text (and equal
 * hashes) whatever order its keys or a catalogue's tools arrived in.
 *
 * @module
 */

import { walkCanonical } from "./utils/canonical_walk.ts";

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
  // One pass in JavaScript hands the native serialiser the value with a key-sorted copy of each
  // object out of order (and of each array or object holding one); everything in order is shared.
  // A replacer function instead cost a call per value: 5-10× JSON.stringify on long arrays.
  marks ??= chooseMarks();
  const context: Context = { marks, names: 0, placed: 0, pieces: [], renamed: new Map() };
  try {
    return resolve(JSON.stringify(order(value, context)), context, 0, 0);
  } catch (e) {
    // Too deep for the stack, or data that holds a mark (see chooseMarks).
    if (e !== COLLISION && !(e instanceof RangeError)) throw e;
  }
  return walkCanonical(value);
}

/**
 * Two marks the copies use where an object alone cannot hold a key in its place: `name` before a
 * key that must be written where it sorts (a property named `"__proto__"` would set the copy's
 * prototype; integer-like keys such as `"10"` are listed first, in numeric order, by every
 * object), and `piece` naming a wide object written as text apart (`"<piece><index>"`).
 */
type Marks = { name: string; piece: string; pieces: RegExp };

// Chosen at random once, when first needed (a Worker may not draw random numbers at start up):
// the text is the same whatever they are, and data that holds one is written by the slower walk,
// so only data that guessed them (one in some 85 million) could make that path cost more.
let marks: Marks | undefined;

function chooseMarks(): Marks {
  // Latin-1, so the text stays one byte a character; a C1 control first, which no text uses, so
  // the search for it seldom stops; then four of the 96 printable Latin-1 characters.
  let tail = "";
  for (let i = 0; i < 4; i++) tail += String.fromCharCode(0xa0 + Math.floor(Math.random() * 96));
  const piece = `\u0081${tail}`;
  return { name: `\u0080${tail}`, piece, pieces: new RegExp(`"${piece}([0-9]+)"`) };
}

const COLLISION = new Error("The data holds a mark of the canonical copies");
const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;
// Keys sorted by insertion up to this count (no call into the runtime's sort); copies built by
// assignment up to this count, past which the engine stores an object's members in a dictionary
// that JSON.stringify reads several times slower, so a wider object is written as text apart.
const INSERTION_SORT_KEYS = 8;
const COPIED_KEYS = 16;
const RENAMED_KEPT = 1_024;

/** A wide object's keys as listed, sorted, and in sorted order as JSON text and a colon. */
type Wide = { keys: string[]; sorted: string[]; quoted: string[] };

/** One serialisation: the marks and the marked names and pieces not yet taken out of the text. */
type Context = {
  marks: Marks;
  /** Marked names in the text being built. */
  names: number;
  /** Pieces placed in the text being built. */
  placed: number;
  pieces: string[];
  /** Marked names made so far (the same key in many objects makes one string). */
  renamed: Map<string, string>;
  /** The last wide object out of order. */
  lastWide?: Wide;
};

/** The value itself when it is in canonical order; otherwise a copy that is, sharing the rest. */
function order(value: object, context: Context): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const member: unknown = value[i];
      if (typeof member !== "object" || member === null) continue;
      const ordered = order(member, context);
      if (ordered !== member) {
        copy ??= value.slice();
        copy[i] = ordered;
      }
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const sorted = inOrder(keys);
  if (!sorted) {
    if (keys.length > COPIED_KEYS) {
      const wide = sortWide(keys, context);
      return piece(record, wide.sorted, context, wide.quoted);
    }
    sortFew(keys);
    const copy: Record<string, unknown> = {};
    for (const key of keys) {
      const member = record[key];
      put(
        copy,
        key,
        typeof member === "object" && member !== null ? order(member, context) : member,
        context,
      );
    }
    return copy;
  }
  // In order, but holding a member that is not: a spread copy keeps the keys' order and the
  // engine's layout of the original (fast to write at any width, "__proto__" an own member), and
  // assigning to a member it has already never reorders it.
  let copy: Record<string, unknown> | undefined;
  for (const key of keys) {
    const member = record[key];
    if (typeof member !== "object" || member === null) continue;
    const ordered = order(member, context);
    if (ordered !== member) (copy ??= { ...record })[key] = ordered;
  }
  return copy ?? value;
}

// UTF-16 code unit order, as Array.prototype.sort and compareStrings: the same everywhere.
function inOrder(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

// Objects of one shape list the same key strings in the same order: comparing them with the last
// wide object's keys (by reference, mostly) is cheaper than sorting them again.
function sortWide(keys: string[], context: Context): Wide {
  const last = context.lastWide;
  if (last !== undefined && last.keys.length === keys.length) {
    let same = true;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== last.keys[i]) {
        same = false;
        break;
      }
    }
    if (same) return last;
  }
  const sorted = keys.slice().sort();
  return context.lastWide = {
    keys,
    sorted,
    quoted: sorted.map((key) => `${JSON.stringify(key)}:`),
  };
}

function sortFew(keys: string[]): void {
  if (keys.length > INSERTION_SORT_KEYS) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
}

function put(copy: Record<string, unknown>, key: string, member: unknown, context: Context): void {
  if (key !== "__proto__" && !integerLike(key)) {
    copy[key] = member;
    return;
  }
  let name = context.renamed.get(key);
  if (name === undefined) {
    name = context.marks.name + key;
    // A map of many thousand keys grows slower per key than making the name again.
    if (context.renamed.size < RENAMED_KEPT) context.renamed.set(key, name);
  }
  copy[name] = member;
  if (!skipped(member)) context.names++;
}

function integerLike(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && INTEGER_LIKE.test(key);
}

function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** Writes a wide object as text, member by member, and places a mark naming that text. */
function piece(
  record: Record<string, unknown>,
  keys: string[],
  context: Context,
  quoted: string[],
): string {
  let text = "";
  for (let i = 0; i < keys.length; i++) {
    const member = record[keys[i]!];
    if (skipped(member)) continue;
    text += text === "" ? `{${quoted[i]}` : `,${quoted[i]}`;
    if (typeof member !== "object" || member === null) {
      text += JSON.stringify(member);
      continue;
    }
    const { names, placed } = context;
    text += resolve(JSON.stringify(order(member, context)), context, names, placed);
  }
  context.pieces.push(text === "" ? "{}" : `${text}}`);
  context.placed++;
  return `${context.marks.piece}${context.pieces.length - 1}`;
}

/**
 * Takes the marks out of a text the native serialiser wrote: the marked names made and the pieces
 * placed since the counts were `names` and `placed`. A count that differs means the data holds a
 * mark, and the whole value is written by the walk instead.
 */
function resolve(text: string, context: Context, names: number, placed: number): string {
  const made = context.names - names;
  if (made > 0) {
    const out = text.replaceAll(context.marks.name, "");
    if (text.length - out.length !== made * context.marks.name.length) throw COLLISION;
    text = out;
    context.names = names;
  }
  const pieces = context.placed - placed;
  if (pieces === 0) return text;
  // Joined, not replaced: a piece's text is linked in, never copied again into each wider text
  // that holds it.
  const parts = text.split(context.marks.pieces);
  if (parts.length !== 2 * pieces + 1) throw COLLISION;
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const index = Number(parts[i]);
    out += context.pieces[index]! + parts[i + 1]!;
    context.pieces[index] = "";
  }
  context.placed = placed;
  return out;
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
