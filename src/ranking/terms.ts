/**
 * Turning tool text into search terms: identifier splitting (`getFileContents`, `list_issues`,
 * `base64Encode`), Unicode normalisation, lower-casing, and bigrams for scripts written without
 * spaces (Chinese, Japanese).
 *
 * @module
 */

// Boundaries inside identifiers: camelCase, acronym-then-word (HTMLParser), letters and digits.
const CAMEL = /(\p{Ll})(\p{Lu})/gu;
const ACRONYM = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
const LETTER_DIGIT = /(\p{L})(\p{Nd})|(\p{Nd})(\p{L})/gu;
const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING = /\p{M}+/gu;
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
// An opening, closing or empty markup tag without attributes: `<tool_assistant>`, `</query>`,
// `<br/>`. With attributes allowed, `a<b and c>d` would lose its middle.
const MARKUP = /<\/?[A-Za-z][\w:.-]*\s*\/?>/g;
const NO_SPACE_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;

/**
 * English function words that carry no meaning for tool search ("how do I send a message to the
 * team" → "send message team"). General English, never words of a particular catalogue.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ("a an the and or but of to in on at by for from with into onto about as is are be been being " +
    "it its this that these those i me my we our you your he she they them their what which who " +
    "whom how when where why can could would should will shall may might must do does did done " +
    "please want need some any all just also then than so if not no").split(" "),
);

/** Longer terms are noise to a ranker (hashes, base64) and make fuzzy matching slow. */
export const MAX_TERM_CHARS = 40;

/**
 * Splits identifiers into words: `getFileContents` → `get File Contents`, `list_issues` →
 * `list issues`, `base64Encode` → `base 64 Encode`.
 *
 * @param text Text that may hold identifiers.
 * @returns The text with word boundaries as spaces.
 *
 * @example Usage
 * ```ts
 * import { splitIdentifiers } from "./terms.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(splitIdentifiers("getFileContents"), "get File Contents");
 * equal(splitIdentifiers("list_issues-v2"), "list issues v 2");
 * equal(splitIdentifiers("parseHTMLDocument"), "parse HTML Document");
 * ```
 */
export function splitIdentifiers(text: string): string {
  return text
    .replace(CAMEL, "$1 $2")
    .replace(ACRONYM, "$1 $2")
    .replace(LETTER_DIGIT, (_, l1, d1, d2, l2) => l1 ? `${l1} ${d1}` : `${d2} ${l2}`)
    .replace(/[_\-./:]+/g, " ")
    .trim();
}

/**
 * Removes markup tags from a query. Agents often wrap what they look for in tags of their own
 * prompt format (`<tool_assistant>…</tool_assistant>`); the tag names are not what they look for,
 * the text between the tags is.
 *
 * @param text A query.
 * @returns The query with each tag replaced by a space.
 *
 * @example Usage
 * ```ts
 * import { stripMarkup } from "./terms.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(stripMarkup("<tool_assistant>read a file</tool_assistant>"), " read a file ");
 * equal(stripMarkup("a < b and c > d"), "a < b and c > d");
 * ```
 */
export function stripMarkup(text: string): string {
  return text.replace(MARKUP, " ");
}

/**
 * Normalises text to comparable form: NFKD without combining marks, lower case.
 *
 * @param text Any text.
 * @returns The normalised text.
 *
 * @example Usage
 * ```ts
 * import { normalize } from "./terms.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(normalize("Café ＡＰＩ"), "cafe api");
 * ```
 */
export function normalize(text: string): string {
  return text.normalize("NFKD").replace(COMBINING, "").toLowerCase();
}

/**
 * Splits text into search terms: identifiers split, normalised, lower-cased; runs of Chinese or
 * Japanese characters become their single characters and overlapping pairs.
 *
 * @param text Any text.
 * @returns The terms, in order (with repeats).
 *
 * @example Usage
 * ```ts
 * import { tokenize } from "./terms.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(tokenize("get_file_contents of README.md"), ["get", "file", "contents", "of", "readme", "md"]);
 * deepEqual(tokenize("搜索网页"), ["搜索", "索网", "网页"]);
 * ```
 */
export function tokenize(text: string): string[] {
  return isAscii(text) ? asciiTerms(text, false) : unicodeTerms(text);
}

/**
 * The terms of an identifier-like text: the same as `tokenize(splitIdentifiers(text))` (identifier
 * boundaries are split twice, so every letter–digit boundary is split: `a1b` → `a 1 b`).
 *
 * @param text A name, or names separated by spaces.
 * @returns The terms, in order (with repeats).
 *
 * @example Usage
 * ```ts
 * import { tokenizeIdentifiers } from "./terms.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(tokenizeIdentifiers("mp3ToWav"), ["mp", "3", "to", "wav"]);
 * ```
 */
export function tokenizeIdentifiers(text: string): string[] {
  return isAscii(text) ? asciiTerms(text, true) : unicodeTerms(splitIdentifiers(text));
}

// The general path, for text with any non-ASCII character.
function unicodeTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of normalize(splitIdentifiers(text)).match(WORD) ?? []) {
    if (!NO_SPACE_SCRIPT.test(word)) {
      terms.push(word);
      continue;
    }
    for (const run of word.match(NO_SPACE_RUN) ?? []) {
      if (!NO_SPACE_SCRIPT.test(run)) {
        terms.push(run);
        continue;
      }
      const chars = [...run];
      if (chars.length === 1) terms.push(run);
      for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i]! + chars[i + 1]!);
    }
  }
  return terms;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

// ASCII character classes: what \p{Ll}, \p{Lu} and \p{Nd} are on ASCII.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const ASCII_CLASS = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    if (c >= 97 && c <= 122) table[c] = LOWER;
    else if (c >= 65 && c <= 90) table[c] = UPPER;
    else if (c >= 48 && c <= 57) table[c] = DIGIT;
  }
  return table;
})();

/*
 * The ASCII fast path: one scan that yields exactly what the regular expressions of
 * `splitIdentifiers`, `normalize` and `WORD` yield on ASCII text (NFKD changes no ASCII character),
 * several times faster, as the index build tokenizes every field of every tool. Words are runs of
 * letters and digits, split where `splitIdentifiers` puts a space: lower then upper case (`aB`),
 * an upper-case letter before an upper-lower pair (`ABc`), and a letter–digit boundary. The last
 * is a global regular-expression replace over pairs, so a pair right after a replaced one is not
 * tried (`a1b` → `a 1b`); applied twice (`splitIdentifiers` before `tokenize`), every boundary is.
 */
function asciiTerms(text: string, twice: boolean): string[] {
  const lower = text.toLowerCase();
  const terms: string[] = [];
  let start = -1; // the current word's first position, -1 outside a word
  let pairAt = -2; // where the last letter–digit pair was replaced
  let previous = 0; // the class of the character before
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? ASCII_CLASS[text.charCodeAt(i)]! : 0;
    if (kind === 0) {
      if (start >= 0) terms.push(lower.slice(start, i));
      start = -1;
      previous = 0;
      continue;
    }
    if (start < 0) {
      start = i;
      previous = kind;
      continue;
    }
    let split = false;
    if (previous === LOWER && kind === UPPER) split = true;
    else if (
      previous === UPPER && kind === UPPER &&
      ASCII_CLASS[text.charCodeAt(i + 1)] === LOWER
    ) split = true;
    else if ((previous === DIGIT) !== (kind === DIGIT) && (twice || pairAt !== i - 2)) {
      split = true;
      pairAt = i - 1;
    }
    if (split) {
      terms.push(lower.slice(start, i));
      start = i;
    }
    previous = kind;
  }
  return terms;
}

/**
 * The property names and descriptions of a JSON Schema, walked through nested objects, array items
 * and `anyOf`/`oneOf`/`allOf`, to a bounded depth and count.
 *
 * @param schema A JSON Schema.
 * @returns `names` (property names) and `descriptions` (their descriptions), in schema order.
 *
 * @example Usage
 * ```ts
 * import { schemaText } from "./terms.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { repo: { type: "string", description: "owner/name" } } };
 * deepEqual(schemaText(schema), { names: ["repo"], descriptions: ["owner/name"] });
 * ```
 */
export function schemaText(schema: unknown): { names: string[]; descriptions: string[] } {
  const names: string[] = [];
  const descriptions: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 4 || names.length >= 200 || typeof node !== "object" || node === null) return;
    const n = node as Record<string, unknown>;
    const properties = n.properties;
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      for (const [name, property] of Object.entries(properties)) {
        if (names.length >= 200) return;
        names.push(name);
        const description = (property as Record<string, unknown> | null)?.description;
        if (typeof description === "string") descriptions.push(description);
        visit(property, depth + 1);
      }
    }
    visit(n.items, depth + 1);
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      const list = n[key];
      if (Array.isArray(list)) { for (const item of list) visit(item, depth + 1); }
    }
  };
  visit(schema, 0);
  return { names, descriptions };
}
