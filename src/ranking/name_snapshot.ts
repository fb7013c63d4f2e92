/**
 * The names' index of `name_coverage.ts` as bytes, and back, read in place: for the tools' own name
 * words and for all their name words, the words sorted, where each word's tools start and the
 * tools; and each tool's count of own name words. A fresh Worker isolate then restores the Deno
 * default without building a map per catalogue (`lexical_ranker.ts` stores it with the index).
 *
 * Layout (little-endian): magic `unfn`, the tool count, the own words' and their tools' counts,
 * the name words' and their tools' counts, the words' UTF-8 length (u32 each, padded to 32 bytes),
 * then the counts (f64), the own words' starts and tools, the name words' starts and tools (i32),
 * and the own words then the name words, joined by newlines.
 *
 * @module
 */

import { readLayout, writeLayout } from "./_snapshot_layout.ts";
import { SortedRows } from "./_sorted.ts";

/** The tools that hold each word (ascending), as a map or a stored table. */
export interface WordDocs {
  /**
   * The tools that hold a word.
   *
   * @param word The word.
   * @returns Their numbers, ascending, or `undefined` when none does.
   */
  get(word: string): (ArrayLike<number> & Iterable<number>) | undefined;
}

/** What a names' index holds. */
export interface NameParts {
  /** Each own name word (less the server's words): the tools that hold it. */
  own: WordDocs;
  /** Every name word: the tools whose name holds it. */
  named: WordDocs;
  /** Each tool's number of own name words. */
  count: Float64Array;
}

const MAGIC = 0x6e666e75; // "unfn"

/**
 * Writes a names' index.
 *
 * @param own Each own name word's tools.
 * @param named Each name word's tools.
 * @param count Each tool's number of own name words.
 * @returns The bytes.
 *
 * @example Usage
 * ```ts
 * import { decodeNames, encodeNames } from "./name_snapshot.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const own = new Map([["read", [0]], ["write", [1]]]);
 * const named = new Map([["file", [0, 1]], ["read", [0]], ["write", [1]]]);
 * const parts = decodeNames(encodeNames(own, named, Float64Array.of(1, 1)));
 * deepEqual([...parts!.named.get("file")!], [0, 1]);
 * ```
 */
export function encodeNames(
  own: ReadonlyMap<string, readonly number[]>,
  named: ReadonlyMap<string, readonly number[]>,
  count: Float64Array,
): Uint8Array {
  const table = (map: ReadonlyMap<string, readonly number[]>) => {
    const words = [...map.keys()].sort();
    const start = new Int32Array(words.length + 1);
    words.forEach((word, i) => start[i + 1] = start[i]! + map.get(word)!.length);
    const docs = new Int32Array(start[words.length]!);
    words.forEach((word, i) => docs.set(map.get(word)!, start[i]!));
    return { words, start, docs };
  };
  const a = table(own);
  const b = table(named);
  const text = new TextEncoder().encode([...a.words, ...b.words].join("\n"));
  return writeLayout(
    MAGIC,
    [count.length, a.words.length, a.docs.length, b.words.length, b.docs.length, text.length],
    [count, a.start, a.docs, b.start, b.docs],
    text,
  );
}

/**
 * Reads a names' index in place (the words are decoded once).
 *
 * @param bytes What {@linkcode encodeNames} wrote.
 * @returns The index's parts, or `undefined` when the bytes are not one.
 */
export function decodeNames(bytes: Uint8Array): NameParts | undefined {
  const layout = readLayout(bytes, MAGIC, 6);
  if (layout === undefined) return undefined;
  const [tools, ownWords, ownDocs, namedWords, namedDocs, textLength] = layout.fields;
  const ints = ownWords! + 1 + ownDocs! + namedWords! + 1 + namedDocs!;
  if (layout.head + tools! * 8 + ints * 4 + textLength! !== layout.byteLength) return undefined;
  const count = layout.f64(tools!);
  const ownStart = layout.i32(ownWords! + 1);
  const ownList = layout.i32(ownDocs!);
  const namedStart = layout.i32(namedWords! + 1);
  const namedList = layout.i32(namedDocs!);
  const words = layout.words(textLength!, ownWords! + namedWords!);
  if (words === undefined) return undefined;
  return {
    own: new SortedRows(words.slice(0, ownWords), ownStart, ownList),
    named: new SortedRows(words.slice(ownWords), namedStart, namedList),
    count,
  };
}
