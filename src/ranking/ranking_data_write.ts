/**
 * Writes the ranking data's layout (`ranking_data.ts`) from plain tables, and reads it back into
 * them: what the build scripts (`scripts/_ranking_file.ts`) and tests use, never a request.
 *
 * @module
 */

import {
  LAYOUT,
  RANKING_DATA_VERSION,
  type RankingViews,
  wordHash,
  type WordTable,
} from "./ranking_data.ts";
import type { VectorTable } from "./vectors_codec.ts";
import type { DecodedLexicon } from "./lexicon_codec.ts";

/** What {@linkcode encodeRankingData} writes; a part left out is written empty. */
export interface RankingTables {
  /** The word vectors. */
  vectors?: VectorTable;
  /** The thesaurus, as `decodeLexicon` of `lexicon_codec.ts` returns it. */
  lexicon?: Pick<DecodedLexicon, "words" | "start" | "others" | "codes">;
}

/**
 * The ranking data as plain data again (every word decoded: for the build scripts and tests, never
 * on a request's path).
 *
 * @param views The opened data.
 * @returns The tables {@linkcode encodeRankingData} writes them from.
 *
 * @example Usage
 * ```ts
 * import { rankingDataOf } from "./ranking_data.ts";
 * import { encodeRankingData, tablesOf } from "./ranking_data_write.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const lexicon = { words: ["a", "b"], start: Int32Array.from([0, 1, 2]), others: Int32Array.from([1, 0]), codes: Uint8Array.from([0, 0]) };
 * deepEqual(tablesOf(rankingDataOf(encodeRankingData({ lexicon }))).lexicon.words, ["a", "b"]);
 * ```
 */
export function tablesOf(views: RankingViews): Required<RankingTables> {
  const words = (table: WordTable) => Array.from({ length: table.size }, (_, i) => table.word(i));
  const { vectors: v, lexicon } = views;
  return {
    vectors: {
      dimensions: v.dimensions,
      scale: v.scale,
      words: words(v.words),
      pieces: words(v.pieces).map((piece, i) => ({ piece, logp: v.logp[i]! })),
      rows: v.rows,
    },
    lexicon: { ...lexicon, words: words(lexicon.words) },
  };
}

const WORD = /^[\x21-\x7e]+$/;

/**
 * Writes the ranking data in the layout {@linkcode rankingDataOf} opens (the build scripts'
 * last step; tests build small tables with it).
 *
 * @param tables The vectors and the thesaurus.
 * @returns The bytes.
 * @throws {RangeError} When a word is not printable ASCII or the rows do not line up.
 */
export function encodeRankingData(tables: RankingTables): Uint8Array {
  const v = tables.vectors ??
    { dimensions: 1, scale: 1, words: [], pieces: [], rows: new Int8Array() };
  const l = tables.lexicon ??
    { words: [], start: new Int32Array(1), others: new Int32Array(), codes: new Uint8Array() };
  if (v.rows.length !== (v.words.length + v.pieces.length) * v.dimensions) {
    throw new RangeError("Cannot encode the ranking data: rows and words do not line up");
  }
  const sections: ArrayBufferView[] = [
    ...tableSections(v.words),
    ...tableSections(v.pieces.map((p) => p.piece)),
    Float64Array.from(v.pieces, (p) => p.logp),
    v.rows,
    ...tableSections(l.words),
    l.start,
    l.others,
    l.codes,
  ];
  const places: number[] = [];
  let at = LAYOUT.dataAt;
  for (const s of sections) {
    places.push(at, s.byteLength);
    at = Math.ceil((at + s.byteLength) / 8) * 8;
  }
  const out = new Uint8Array(at);
  const header = new Uint32Array(out.buffer, 0, LAYOUT.headerWords + LAYOUT.sections * 2);
  header.set([
    LAYOUT.magic,
    RANKING_DATA_VERSION,
    v.dimensions,
    v.words.length,
    v.pieces.length,
    l.words.length,
    l.others.length,
  ]);
  new DataView(out.buffer).setFloat64(40, v.scale, true);
  header.set(places, LAYOUT.headerWords);
  sections.forEach((s, i) => {
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), places[2 * i]!);
  });
  // What the data is, for a stored index built with it (read, never checked, when opened).
  let digest = 0x811c9dc5;
  for (let i = LAYOUT.dataAt; i < out.length; i++) digest = Math.imul(digest ^ out[i]!, 0x01000193);
  header[7] = digest >>> 0;
  return out;
}

function tableSections(words: readonly string[]): [Uint8Array, Uint32Array, Uint32Array] {
  const start = new Uint32Array(words.length + 1);
  words.forEach((word, i) => {
    if (!WORD.test(word)) throw new RangeError(`Cannot encode the ranking data: word "${word}"`);
    start[i + 1] = start[i]! + word.length;
  });
  const text = new Uint8Array(start[words.length]!);
  words.forEach((word, i) => {
    for (let k = 0; k < word.length; k++) text[start[i]! + k] = word.charCodeAt(k);
  });
  // At most three quarters full, so a probe ends soon.
  let size = 1;
  while (size * 3 < words.length * 4 + 1) size *= 2;
  const slots = new Uint32Array(size);
  words.forEach((word, i) => {
    let slot = wordHash(word, 0, word.length) & (size - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
    slots[slot] = i + 1;
  });
  return [text, start, slots];
}
