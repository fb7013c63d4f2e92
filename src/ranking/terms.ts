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
