/**
 * The ranking data of the Deno default (the English word vectors and thesaurus) in one binary
 * layout, read in place: a header, then sections that are typed-array views over the bytes as they
 * were read or fetched. Opening it checks the header and the sections' places and sizes (constant
 * time, never decoding a word); a word is looked up by hashing it into the open-addressed slots
 * of its table and comparing its characters with the stored bytes. So a process or a Worker isolate
 * holds the data as one buffer, not as a JavaScript object per word, and opening it costs well under
 * a millisecond (`bench/cold_isolate.ts`). Every face reads this one layout through
 * {@linkcode rankingDataOf}: Deno processes from the file, Workers as a static asset
 * (`english_data.ts`); the build writes it with `ranking_data_write.ts`.
 *
 * Layout (little-endian): 12 u32 header words — magic `UNFR`, version, dimensions, the counts of
 * vector words, pieces, thesaurus words and thesaurus relation ends, a digest of the rest, then the
 * scale as an f64 —
 * followed by 14 sections, each named by an (offset, byte length) u32 pair at byte 48 and aligned
 * to 8 bytes: the vector words (text, starts, slots), the pieces (text, starts, slots,
 * log-probabilities as f64), the rows (i8), the thesaurus words (text, starts, slots) and its
 * relations in compressed sparse rows (starts and others as i32, codes as u8).
 *
 * @module
 */

/** The layout's version: a file of another version is refused, never misread. */
export const RANKING_DATA_VERSION = 1;
const MAGIC = 0x52464e55; // "UNFR"
const HEADER_WORDS = 12;
const SECTIONS = 14;
const DATA_AT = HEADER_WORDS * 4 + SECTIONS * 8;

/**
 * The layout's constants, for its writer (`ranking_data_write.ts`): the magic, the header's u32
 * words, the number of sections and where the first may start.
 */
export const LAYOUT: Readonly<
  { magic: number; headerWords: number; sections: number; dataAt: number }
> = Object.freeze({ magic: MAGIC, headerWords: HEADER_WORDS, sections: SECTIONS, dataAt: DATA_AT });

/** Words stored in place: their characters, where each starts, and a hash table over them. */
export class WordTable {
  readonly #text: Uint8Array;
  readonly #start: Uint32Array;
  readonly #slots: Uint32Array;
  readonly #mask: number;

  /**
   * Wraps a table's views (as {@linkcode rankingDataOf} finds them).
   *
   * @param text The words' characters, one byte each.
   * @param start Word i is `text[start[i] .. start[i + 1]]`.
   * @param slots A power-of-two hash table: word id + 1 per used slot, 0 for a free one.
   */
  constructor(text: Uint8Array, start: Uint32Array, slots: Uint32Array) {
    this.#text = text;
    this.#start = start;
    this.#slots = slots;
    this.#mask = slots.length - 1;
  }

  /** The number of words. */
  get size(): number {
    return this.#start.length - 1;
  }

  /**
   * The id of `text[from .. to]` (a whole word by default), without copying it.
   *
   * @param text The text.
   * @param from Where the word starts.
   * @param to Where it ends.
   * @returns Its id, or -1 when the table does not hold it.
   */
  find(text: string, from = 0, to: number = text.length): number {
    const bytes = this.#text;
    const start = this.#start;
    let slot = wordHash(text, from, to) & this.#mask;
    for (let probe = 0; probe <= this.#mask; probe++, slot = (slot + 1) & this.#mask) {
      const entry = this.#slots[slot]!;
      if (entry === 0) return -1;
      const id = entry - 1;
      const at = start[id]!;
      if (start[id + 1]! - at !== to - from) continue;
      let k = 0;
      while (k < to - from && bytes[at + k] === text.charCodeAt(from + k)) k++;
      if (k === to - from) return id;
    }
    return -1;
  }

  /**
   * A word, as a string.
   *
   * @param id Its id.
   * @returns The word.
   */
  word(id: number): string {
    return String.fromCharCode(...this.#text.subarray(this.#start[id]!, this.#start[id + 1]!));
  }

  /** The length of the longest word. */
  longest(): number {
    let max = 0;
    for (let i = 0; i + 1 < this.#start.length; i++) {
      max = Math.max(max, this.#start[i + 1]! - this.#start[i]!);
    }
    return max;
  }
}

/**
 * FNV-1a over the characters' codes: where a word's slot search starts (the writer places words
 * with it).
 *
 * @param text The text.
 * @param from Where the word starts.
 * @param to Where it ends.
 * @returns The hash, an unsigned 32-bit integer.
 */
export function wordHash(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The word vectors, in place. */
export interface VectorViews {
  /** The data's digest (FNV-1a of everything after the header), written by the build. */
  digest: string;
  /** The coordinates per vector. */
  dimensions: number;
  /** What one step of a stored coordinate is worth. */
  scale: number;
  /** The words, most frequent first (an id is a frequency rank). */
  words: WordTable;
  /** The sub-word pieces (`_` first for a word's first piece). */
  pieces: WordTable;
  /** Each piece's log-probability. */
  logp: Float64Array;
  /** The coordinates: the words' rows, then the pieces'. */
  rows: Int8Array;
}

/** The thesaurus, in place: word i's relations are at `start[i] .. start[i + 1]`. */
export interface LexiconViews {
  /** The words. */
  words: WordTable;
  /** Where each word's relations start. */
  start: Int32Array;
  /** The related words' ids. */
  others: Int32Array;
  /** The relations' codes: kind index × `LEXICON_SENSES` + sense. */
  codes: Uint8Array;
}

/** The ranking data, opened. */
export interface RankingViews {
  /** The word vectors (none when the file holds no vectors). */
  vectors: VectorViews;
  /** The thesaurus. */
  lexicon: LexiconViews;
  /** The bytes the views read. */
  bytes: number;
}

/**
 * Opens the ranking data in place: no word is decoded, nothing is copied.
 *
 * @param bytes The file's bytes.
 * @returns Views over them.
 * @throws {SyntaxError} When the bytes are not this layout (another file, a truncated one, an
 * error page fetched in its place).
 *
 * @example Usage
 * ```ts
 * import { rankingDataOf } from "./ranking_data.ts";
 * import { encodeRankingData } from "./ranking_data_write.ts";
 * import { equal, throws } from "node:assert/strict";
 *
 * const bytes = encodeRankingData({
 *   vectors: { dimensions: 1, scale: 1, words: ["cat"], pieces: [{ piece: "_c", logp: -1 }], rows: Int8Array.from([3, 4]) },
 * });
 * equal(rankingDataOf(bytes).vectors.words.find("cat"), 0);
 * throws(() => rankingDataOf(new TextEncoder().encode("<html>Not found</html>")), SyntaxError);
 * ```
 */
export function rankingDataOf(bytes: Uint8Array): RankingViews {
  const fail = (why: string): never => {
    throw new SyntaxError(`Cannot open the ranking data: ${why}`);
  };
  if (bytes.byteLength < DATA_AT) fail("too short");
  // The views need their elements aligned: bytes that start mid-buffer are copied once.
  if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
  const { buffer, byteOffset } = bytes;
  const header = new Uint32Array(buffer, byteOffset, HEADER_WORDS + SECTIONS * 2);
  if (header[0] !== MAGIC) fail("not this layout");
  if (header[1] !== RANKING_DATA_VERSION) fail(`version ${header[1]}, not ${RANKING_DATA_VERSION}`);
  const [dimensions, vectorWords, pieces, lexiconWords, relations] = header.subarray(2, 7);
  const scale = new DataView(buffer, byteOffset).getFloat64(40, true);
  let next = 0;
  // Section i as `count` elements of `Type`, after checking its place in the bytes.
  const section = <T>(
    Type: { new (b: ArrayBufferLike, at: number, n: number): T; BYTES_PER_ELEMENT: number },
    count: number,
  ): T => {
    const i = next++;
    const at = header[HEADER_WORDS + 2 * i]!;
    const length = header[HEADER_WORDS + 2 * i + 1]!;
    if (
      at % 8 !== 0 || at + length > bytes.byteLength || length !== count * Type.BYTES_PER_ELEMENT
    ) {
      fail(`section ${i} is out of place`);
    }
    return new Type(buffer, byteOffset + at, count);
  };
  const table = (count: number): WordTable => {
    const text = section(Uint8Array, header[HEADER_WORDS + 2 * next + 1]!);
    const start = section(Uint32Array, count + 1);
    const slots = section(Uint32Array, header[HEADER_WORDS + 2 * next + 1]! / 4);
    checkTable(text, start, slots, fail);
    return new WordTable(text, start, slots);
  };
  const vectors: VectorViews = {
    digest: header[7]!.toString(16),
    dimensions: dimensions!,
    scale,
    words: table(vectorWords!),
    pieces: table(pieces!),
    logp: section(Float64Array, pieces!),
    rows: section(Int8Array, (vectorWords! + pieces!) * dimensions!),
  };
  const lexicon: LexiconViews = {
    words: table(lexiconWords!),
    start: section(Int32Array, lexiconWords! + 1),
    others: section(Int32Array, relations!),
    codes: section(Uint8Array, relations!),
  };
  const { start } = lexicon;
  if (start[0] !== 0 || start[lexiconWords!] !== relations) {
    fail("the thesaurus rows do not add up");
  }
  return { vectors, lexicon, bytes: bytes.byteLength };
}

// The checks take constant time: a loop over every entry would cost a cold isolate milliseconds,
// and the file is the build's own (its sections' places and sizes are what can go wrong).
function checkTable(
  text: Uint8Array,
  start: Uint32Array,
  slots: Uint32Array,
  fail: (why: string) => never,
): void {
  if (slots.length === 0 || (slots.length & (slots.length - 1)) !== 0) fail("a table's size");
  if (start[0] !== 0 || start[start.length - 1] !== text.length) fail("a word list's ends");
}
