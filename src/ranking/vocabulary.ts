/**
 * A catalogue's vocabulary and how a query word reaches it: exactly, as the prefix of longer
 * words (`screenshot` → `screenshots`), or, for a word the catalogue does not know at all, one
 * typo away (`scrennshot` → `screenshot`).
 *
 * @module
 */

import { compareStrings } from "../utils/compare.ts";

/** A vocabulary word a query word reaches, and how much a match on it counts (exact: 1). */
export interface Expansion {
  /** The vocabulary word. */
  term: string;
  /** Its weight in (0, 1]. */
  weight: number;
}

/** How query words expand; a weight of 0 turns that kind of expansion off. */
export interface ExpansionOptions {
  /** The shortest query word (in UTF-16 code units) that expands to longer words it begins. */
  prefixMinLength: number;
  /** The weight of a prefix match that adds nothing; it decays as the word gets longer. */
  prefixWeight: number;
  /** The shortest unknown query word (in UTF-16 code units) matched to words one edit away. */
  fuzzyMinLength: number;
  /** The weight of a match one edit away. */
  fuzzyWeight: number;
}

/**
 * A sorted set of words with prefix and one-edit lookups.
 *
 * @example Usage
 * ```ts
 * import { Vocabulary } from "./vocabulary.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const words = new Vocabulary(["file", "files", "filter"]);
 * const options = { prefixMinLength: 4, prefixWeight: 0.5, fuzzyMinLength: 5, fuzzyWeight: 0.4 };
 * deepEqual(words.expand("file", options).map((e) => e.term), ["file", "files"]);
 * deepEqual(words.expand("filtre", options).map((e) => e.term), ["filter"]);
 * ```
 */
export class Vocabulary {
  #sorted: readonly string[];
  // Built on first use, so a vocabulary restored from a stored index costs nothing until searched.
  #known: Set<string> | undefined;
  // For the one-edit search: words by length and by each of their first two characters. Two words
  // one edit apart share a character among their first two positions, and differ in length by at
  // most one, so a query word only needs checking against a few short lists.
  #byStart: Map<number, string[]> | undefined;

  /**
   * Builds the vocabulary.
   *
   * @param words The words, in any order, repeats allowed.
   */
  constructor(words: Iterable<string>) {
    this.#known = new Set(words);
    // The default sort compares UTF-16 code units, like compareStrings, without a callback.
    this.#sorted = [...this.#known].sort();
  }

  /**
   * A vocabulary over words already sorted by UTF-16 code units and distinct (a stored index's),
   * taken as they are.
   *
   * @param sorted The words, sorted, without repeats.
   * @returns The vocabulary.
   */
  static fromSorted(sorted: readonly string[]): Vocabulary {
    const vocabulary = new Vocabulary([]);
    vocabulary.#known = undefined;
    vocabulary.#sorted = sorted;
    return vocabulary;
  }

  /** The number of distinct words. */
  get size(): number {
    return this.#sorted.length;
  }

  /**
   * Whether a word is in the vocabulary.
   *
   * @param word A word.
   * @returns `true` when it is.
   */
  has(word: string): boolean {
    this.#known ??= new Set(this.#sorted);
    return this.#known.has(word);
  }

  /**
   * The vocabulary words a query word reaches: itself when known, the longer words it begins
   * (when long enough), and only when neither exists, the words one edit away (insertion,
   * deletion, substitution or swap of neighbours).
   *
   * @param word A query word, already normalised like the vocabulary.
   * @param options Minimum lengths and weights of each kind of expansion.
   * @returns The expansions, exact first, then by word.
   */
  expand(word: string, options: ExpansionOptions): Expansion[] {
    const out: Expansion[] = [];
    if (this.has(word)) out.push({ term: word, weight: 1 });
    if (options.prefixWeight > 0 && word.length >= options.prefixMinLength) {
      for (let i = this.#lowerBound(word); i < this.#sorted.length; i++) {
        const term = this.#sorted[i]!;
        if (!term.startsWith(word)) break;
        if (term === word) continue;
        const extra = term.length - word.length;
        out.push({
          term,
          weight: options.prefixWeight * term.length / (term.length + 0.3 * extra),
        });
      }
    }
    if (out.length > 0 || options.fuzzyWeight <= 0) return out;
    if (word.length < options.fuzzyMinLength) return out;
    const found = new Set<string>();
    for (const length of [word.length - 1, word.length, word.length + 1]) {
      for (const start of new Set([word.charCodeAt(0), word.charCodeAt(1)])) {
        for (const term of this.#starts().get(startKey(length, start)) ?? []) {
          if (!found.has(term) && oneEdit(word, term)) found.add(term);
        }
      }
    }
    for (const term of found) {
      out.push({ term, weight: options.fuzzyWeight * term.length / (term.length + 1) });
    }
    return out.sort((a, b) => compareStrings(a.term, b.term));
  }

  #starts(): Map<number, string[]> {
    if (this.#byStart !== undefined) return this.#byStart;
    const byStart = new Map<number, string[]>();
    const add = (key: number, word: string) => {
      const list = byStart.get(key);
      if (list === undefined) byStart.set(key, [word]);
      else list.push(word);
    };
    for (const word of this.#sorted) {
      const first = startKey(word.length, word.charCodeAt(0));
      const second = startKey(word.length, word.charCodeAt(1));
      add(first, word);
      if (second !== first) add(second, word);
    }
    return this.#byStart = byStart;
  }

  #lowerBound(word: string): number {
    let lo = 0;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#sorted[mid]! < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

// A number for (word length, character code); NaN (past the end) becomes 65536.
function startKey(length: number, code: number): number {
  return length * 65537 + (Number.isNaN(code) ? 65536 : code);
}

/**
 * Whether two different strings are exactly one edit apart: one insertion, deletion or
 * substitution, or two neighbouring characters swapped (by UTF-16 code units).
 *
 * @param a A string.
 * @param b Another string.
 * @returns `true` when they are one edit apart.
 *
 * @example Usage
 * ```ts
 * import { oneEdit } from "./vocabulary.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(oneEdit("serach", "search"), true);
 * equal(oneEdit("search", "search"), false);
 * equal(oneEdit("sarch", "search"), true);
 * equal(oneEdit("srch", "search"), false);
 * ```
 */
export function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  // Skip the common prefix and the common suffix; what differs must be one character on either
  // side (or nothing on one side), or two swapped neighbours. No slicing: this runs per word.
  let start = 0;
  while (start < a.length && start < b.length && a.charCodeAt(start) === b.charCodeAt(start)) {
    start++;
  }
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a.charCodeAt(endA) === b.charCodeAt(endB)) {
    endA--;
    endB--;
  }
  const restA = endA - start + 1;
  const restB = endB - start + 1;
  if (restA <= 1 && restB <= 1) return true;
  return restA === 2 && restB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
}
