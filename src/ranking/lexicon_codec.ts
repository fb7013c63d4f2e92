/**
 * The build's text form of the English thesaurus (`scripts/build_lexicon.ts` writes it, then its
 * decoded rows into `ranking_data.ts`'s layout): a sorted word list and, for each word, its
 * relations to later words, each an id delta and a relation code in a variable-length base-32
 * number. Decoding makes the relations symmetric, in the order every face reads them.
 *
 * @module
 */

import { codeList } from "../utils/code_list.ts";

/** How two words of the thesaurus are related. */
export type RelationKind = "synonym" | "derived" | "similar" | "broader" | "narrower" | "gloss";

/** The relation kinds, in code order. */
export const RELATION_KINDS: readonly RelationKind[] = codeList<RelationKind>({
  synonym: 0,
  derived: 0,
  similar: 0,
  broader: 0,
  narrower: 0,
  gloss: 0,
});

/**
 * The most senses per word a relation's code can name (0: the most common); which of them a table
 * holds is the build's choice (`scripts/build_lexicon.ts`).
 */
export const LEXICON_SENSES = 8;

/** One relation of a word, as the build script produces it. */
export interface LexiconRelation {
  /** The related word. */
  other: string;
  /** How it is related. */
  kind: RelationKind;
  /** Which sense of the pair (0: the most common) the relation comes from. */
  sense: number;
}

/** The thesaurus as plain data: words (sorted) and each word's relations, symmetric. */
export interface LexiconTable {
  /** The words, sorted by code units. */
  words: string[];
  /** Each word's relations (if a relates to b, b relates to a, with the same kind and sense). */
  relations: LexiconRelation[][];
}

/** The decoded thesaurus: word ids and each word's relations in compressed sparse rows. */
export interface DecodedLexicon {
  /** The words, sorted; a word's id is its position. */
  words: readonly string[];
  /** Each word's id. */
  ids: ReadonlyMap<string, number>;
  /** Word i's relations are at positions `start[i] .. start[i + 1]` of `others` and `codes`. */
  start: Int32Array;
  /** The related words' ids. */
  others: Int32Array;
  /** The relations' codes: kind index × {@linkcode LEXICON_SENSES} + sense. */
  codes: Uint8Array;
}

// Digits of the variable-length numbers: every digit but the last of a number comes from HIGH.
const HIGH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const LOW = "abcdefghijklmnopqrstuvwxyz6789_-";
const CODES = RELATION_KINDS.length * LEXICON_SENSES;

/**
 * Encodes a thesaurus as text: `words` joined by spaces, `|`, then for each word its relations to
 * later words, ending with `,`.
 *
 * @param table The words and their (symmetric) relations.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { decodeLexicon, encodeLexicon } from "./lexicon_codec.ts";
 * import { equal } from "node:assert/strict";
 *
 * const text = encodeLexicon({
 *   words: ["delete", "remove"],
 *   relations: [[{ other: "remove", kind: "gloss", sense: 0 }], [{ other: "delete", kind: "gloss", sense: 0 }]],
 * });
 * equal(decodeLexicon(text).others[0], 1);
 * ```
 */
export function encodeLexicon(table: LexiconTable): string {
  const ids = new Map(table.words.map((word, i) => [word, i]));
  const rows = table.relations.map((list, i) => {
    const later = list.map((r) => ({ id: ids.get(r.other)!, r })).filter(({ id }) => id > i)
      .sort((a, b) => a.id - b.id);
    let previous = i;
    let row = "";
    for (const { id, r } of later) {
      row += number(
        (id - previous) * CODES + RELATION_KINDS.indexOf(r.kind) * LEXICON_SENSES +
          r.sense,
      );
      previous = id;
    }
    return `${row},`;
  });
  return `${table.words.join(" ")}|${rows.join("")}`;
}

function number(value: number): string {
  let text = LOW[value % 32]!;
  for (value = Math.floor(value / 32); value > 0; value = Math.floor(value / 32)) {
    text = HIGH[value % 32]! + text;
  }
  return text;
}

/**
 * Decodes the text of {@linkcode encodeLexicon}, making every relation symmetric.
 *
 * @param text The encoded thesaurus.
 * @returns The words, their ids and their relations.
 * @throws {SyntaxError} When the text is not an encoded thesaurus.
 *
 * @example Usage
 * ```ts
 * import { decodeLexicon } from "./lexicon_codec.ts";
 * import { equal } from "node:assert/strict";
 *
 * const lexicon = decodeLexicon("delete remove|Cy,,");
 * equal(lexicon.words[lexicon.others[lexicon.start[1]!]!], "delete");
 * ```
 */
export function decodeLexicon(text: string): DecodedLexicon {
  const bar = text.indexOf("|");
  if (bar < 0) throw new SyntaxError("Cannot decode the lexicon: no word list");
  const words = text.slice(0, bar).split(" ");
  const from: number[] = [];
  const to: number[] = [];
  const kinds: number[] = [];
  let word = 0;
  let previous = 0;
  let value = 0;
  for (let i = bar + 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === ",") {
      word++;
      previous = word;
      continue;
    }
    const high = HIGH.indexOf(char);
    if (high >= 0) {
      value = value * 32 + high;
      continue;
    }
    const low = LOW.indexOf(char);
    if (low < 0) throw new SyntaxError(`Cannot decode the lexicon: unexpected "${char}"`);
    value = value * 32 + low;
    const step = Math.floor(value / CODES);
    if (step === 0) throw new SyntaxError("Cannot decode the lexicon: a word related to itself");
    previous += step;
    if (word >= words.length || previous >= words.length) {
      throw new SyntaxError("Cannot decode the lexicon: a relation points past the word list");
    }
    from.push(word);
    to.push(previous);
    kinds.push(value % CODES);
    value = 0;
  }
  if (word !== words.length) {
    throw new SyntaxError("Cannot decode the lexicon: relations and words do not line up");
  }
  const start = new Int32Array(words.length + 1);
  for (let e = 0; e < from.length; e++) {
    start[from[e]! + 1]!++;
    start[to[e]! + 1]!++;
  }
  for (let i = 0; i < words.length; i++) start[i + 1]! += start[i]!;
  const next = start.slice(0, words.length);
  const others = new Int32Array(from.length * 2);
  const codes = new Uint8Array(from.length * 2);
  for (let e = 0; e < from.length; e++) {
    const a = from[e]!;
    const b = to[e]!;
    others[next[a]!] = b;
    codes[next[a]!++] = kinds[e]!;
    others[next[b]!] = a;
    codes[next[b]!++] = kinds[e]!;
  }
  return { words, ids: new Map(words.map((w, i) => [w, i])), start, others, codes };
}
