/**
 * Finds members of a JSON object's text without parsing their values, so a request can look its
 * catalogue up by the text that arrived and parse only the rest: on a cache hit the catalogue is
 * never parsed or validated again.
 *
 * @module
 */

/** A JSON object's text split into some members' value texts and the object without them. */
export interface SplitMembers {
  /** The text of each member taken out, by name, exactly as it arrived. */
  values: Map<string, string>;
  /** The object without those members, as JSON text. */
  rest: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Takes members out of the text of a JSON object. Equivalent to parsing it whenever it answers:
 * if the text is valid JSON, `JSON.parse(rest)` holds every other member and each value text
 * parses to that member's value. It answers `undefined` (parse the whole text instead) when the
 * text is not an object it can walk, when a key holds an escape (so no escaped spelling of a name
 * goes unnoticed), or when a name occurs twice. Invalid JSON may give spans that do not parse: the
 * caller parses what it uses.
 *
 * @param text The JSON text.
 * @param names The members to take out.
 * @returns The members' texts and the rest, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { splitMembers } from "./json_members.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const split = splitMembers('{"catalog": [{"a": "]"}], "session": "s"}', ["catalog"])!;
 * equal(split.values.get("catalog"), '[{"a": "]"}]');
 * deepEqual(JSON.parse(split.rest), { session: "s" });
 * ```
 */
export function splitMembers(text: string, names: readonly string[]): SplitMembers | undefined {
  const wanted = new Set(names.map((name) => JSON.stringify(name)));
  const values = new Map<string, string>();
  const kept: string[] = [];
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b) return undefined; // {
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 0x7d) return end(text, i) ? { values, rest: "{}" } : undefined;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyStart = i;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return undefined;
    const key = text.slice(keyStart, keyEnd);
    if (key.includes("\\")) return undefined;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 0x3a) return undefined; // :
    const valueStart = skipSpace(text, i + 1);
    const valueEnd = valueEndOf(text, valueStart);
    if (valueEnd < 0) return undefined;
    if (wanted.has(key)) {
      const name = JSON.parse(key) as string;
      if (values.has(name)) return undefined;
      values.set(name, text.slice(valueStart, valueEnd));
    } else {
      kept.push(text.slice(keyStart, valueEnd));
    }
    i = skipSpace(text, valueEnd);
    const next = text.charCodeAt(i);
    if (next === 0x7d) { // }
      return end(text, i) ? { values, rest: `{${kept.join(",")}}` } : undefined;
    }
    if (next !== 0x2c) return undefined; // ,
    i = skipSpace(text, i + 1);
  }
}

// Whether only white space follows the closing brace at `i`.
function end(text: string, i: number): boolean {
  return skipSpace(text, i + 1) === text.length;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

// One past the closing quote of the string that opens at `i`, or -1. Jumps from quote to quote
// (most of a catalogue is inside strings): a quote preceded by an odd run of backslashes is escaped.
function stringEnd(text: string, i: number): number {
  for (;;) {
    const quote = text.indexOf('"', i + 1);
    if (quote < 0) return -1;
    let before = quote - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    i = quote;
  }
}

// One past the value that starts at `i`, or -1: a string, an object or array (brackets counted,
// strings skipped), or a literal (a run up to the next delimiter).
function valueEndOf(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return stringEnd(text, i);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const after = stringEnd(text, i);
        if (after < 0) return -1;
        i = after - 1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let j = i;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
  }
  return j > i ? j : -1;
}
