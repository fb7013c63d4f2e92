/**
 * Tokenising a catalogue's text once per distinct word: an index build tokenises every field of
 * every tool, and tools share most of their words, so each space-separated chunk of text is
 * tokenised on first sight and its terms reused after. The reused terms are the same strings, so
 * the maps the index is built with hash each term once. Bounded: only short chunks are kept, and
 * at most {@linkcode MAX_MEMO_CHUNKS} of them (hostile text makes the build no slower than without).
 *
 * @module
 */

/** The most distinct chunks one memo keeps; later ones are tokenised each time. */
export const MAX_MEMO_CHUNKS = 65_536;

/** Longer chunks are tokenised each time (a run without spaces is rarely repeated). */
export const MAX_MEMO_CHUNK_CHARS = 64;

/**
 * Wraps a tokeniser in a memo of its chunks. Exact when the tokeniser treats a space as a boundary
 * that no term spans and that changes nothing around it, as `tokenize` and `tokenizeIdentifiers`
 * of `./terms.ts` do (no rule of theirs reads across one: identifier splits are between letters
 * and digits, NFKD reorders only marks, lower-casing's final sigma looks past none): then the
 * terms of a text are the terms of its chunks in order. Chunks are cut at spaces only, found with
 * `indexOf` (a scan for tabs and line breaks too made the build slower than the memo made it).
 *
 * @param tokens The tokeniser (with any filter of single terms applied).
 * @returns The same tokeniser, memoised; keep it for one build, not longer.
 *
 * @example Usage
 * ```ts
 * import { memoizeTerms } from "./term_memo.ts";
 * import { tokenize } from "./terms.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const terms = memoizeTerms(tokenize);
 * deepEqual(terms("Read a file\tfrom disk"), tokenize("Read a file\tfrom disk"));
 * deepEqual(terms("read_file"), ["read", "file"]);
 * ```
 */
export function memoizeTerms(
  tokens: (text: string) => string[],
): (text: string) => string[] {
  const memo = new Map<string, readonly string[]>();
  const chunkTerms = (chunk: string): readonly string[] => {
    if (chunk.length > MAX_MEMO_CHUNK_CHARS) return tokens(chunk);
    let terms = memo.get(chunk);
    if (terms === undefined) {
      terms = tokens(chunk);
      if (memo.size < MAX_MEMO_CHUNKS) memo.set(chunk, terms);
    }
    return terms;
  };
  return (text) => {
    const out: string[] = [];
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf(" ", start);
      if (end < 0) end = text.length;
      if (end > start) {
        const terms = chunkTerms(text.slice(start, end));
        for (let t = 0; t < terms.length; t++) out.push(terms[t]!);
      }
      start = end + 1;
    }
    return out;
  };
}
