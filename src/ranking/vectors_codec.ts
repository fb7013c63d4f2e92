/**
 * The build's text form of the English word vectors (what `scripts/build_vectors.ts` reports the
 * size of, and the type of the table it builds; the vectors ship in `ranking_data.ts`'s layout):
 * `v1|dimensions|scale|words|pieces|rows`. `words` are space-separated, most frequent first (a
 * word's position is its frequency rank); `pieces` are the sub-word pieces that spell out any other
 * word, each `piece:log-probability` (a leading `_` marks a piece that starts a word); `rows` is
 * base64 of one signed byte per dimension, the words' rows first, then the pieces', each value ×
 * `scale` the vector's coordinate.
 *
 * @module
 */

/** The word vectors as plain data, as the build script produces them. */
export interface VectorTable {
  /** The coordinates per vector. */
  dimensions: number;
  /** What one step of a stored coordinate is worth. */
  scale: number;
  /** The words, most frequent first; `[a-z][a-z0-9]*` each. */
  words: string[];
  /** The pieces (`_` first for a word's first piece), each with its log-probability (< 0). */
  pieces: { piece: string; logp: number }[];
  /** The coordinates, `(words.length + pieces.length) × dimensions`, in [-127, 127]. */
  rows: Int8Array;
}

const PIECE = /^_?[a-z0-9]+$/;
const WORD = /^[a-z][a-z0-9]*$/;

/**
 * Encodes word vectors as text.
 *
 * @param table The vectors.
 * @returns The text form.
 * @throws {RangeError} When a word or piece has characters the format cannot hold, or the rows do
 * not match the word and piece counts.
 *
 * @example Usage
 * ```ts
 * import { decodeVectors, encodeVectors } from "./vectors_codec.ts";
 * import { equal } from "node:assert/strict";
 *
 * const text = encodeVectors({
 *   dimensions: 2,
 *   scale: 0.5,
 *   words: ["cat"],
 *   pieces: [{ piece: "_c", logp: -3 }],
 *   rows: Int8Array.from([1, -2, 3, 4]),
 * });
 * equal(decodeVectors(text).rows[1], -2);
 * ```
 */
export function encodeVectors(table: VectorTable): string {
  for (const word of table.words) {
    if (!WORD.test(word)) throw new RangeError(`Cannot encode the vectors: word "${word}"`);
  }
  if (!Number.isInteger(table.dimensions) || table.dimensions < 1 || !(table.scale > 0)) {
    throw new RangeError("Cannot encode the vectors: bad dimensions or scale");
  }
  for (const { piece, logp } of table.pieces) {
    if (!PIECE.test(piece) || !(Number(logp.toFixed(3)) < 0)) {
      throw new RangeError(`Cannot encode the vectors: piece "${piece}" (${logp})`);
    }
  }
  if (table.rows.length !== (table.words.length + table.pieces.length) * table.dimensions) {
    throw new RangeError("Cannot encode the vectors: rows and words do not line up");
  }
  let binary = "";
  for (const value of table.rows) binary += String.fromCharCode(value & 0xff);
  return [
    "v1",
    String(table.dimensions),
    String(table.scale),
    table.words.join(" "),
    table.pieces.map(({ piece, logp }) => `${piece}:${Number(logp.toFixed(3))}`).join(" "),
    btoa(binary),
  ].join("|");
}

/**
 * Decodes the text form of word vectors.
 *
 * @param text The text form.
 * @returns The vectors.
 * @throws {SyntaxError} When the text is not in this format.
 *
 * @example Usage
 * ```ts
 * import { decodeVectors } from "./vectors_codec.ts";
 * import { throws } from "node:assert/strict";
 *
 * throws(() => decodeVectors("v0|"), SyntaxError);
 * ```
 */
export function decodeVectors(text: string): VectorTable {
  const fields = text.split("|");
  if (fields.length !== 6 || fields[0] !== "v1") {
    throw new SyntaxError("Cannot decode the vectors: not in the v1 format");
  }
  const dimensions = /^[1-9][0-9]*$/.test(fields[1]!) ? Number(fields[1]) : NaN;
  const scale = Number(fields[2]);
  if (!Number.isInteger(dimensions) || dimensions < 1 || !(scale > 0)) {
    throw new SyntaxError("Cannot decode the vectors: bad dimensions or scale");
  }
  const words = fields[3] === "" ? [] : fields[3]!.split(" ");
  const pieces = (fields[4] === "" ? [] : fields[4]!.split(" ")).map((entry) => {
    const colon = entry.lastIndexOf(":");
    const piece = entry.slice(0, colon);
    const logp = Number(entry.slice(colon + 1));
    if (colon < 0 || !PIECE.test(piece) || !(logp < 0)) {
      throw new SyntaxError(`Cannot decode the vectors: piece "${entry}"`);
    }
    return { piece, logp };
  });
  if (!words.every((word) => WORD.test(word))) {
    throw new SyntaxError("Cannot decode the vectors: a word outside [a-z][a-z0-9]*");
  }
  let binary: string;
  try {
    binary = atob(fields[5]!);
  } catch {
    throw new SyntaxError("Cannot decode the vectors: rows are not base64");
  }
  if (binary.length !== (words.length + pieces.length) * dimensions) {
    throw new SyntaxError("Cannot decode the vectors: rows and words do not line up");
  }
  const rows = new Int8Array(binary.length);
  for (let i = 0; i < binary.length; i++) rows[i] = binary.charCodeAt(i) << 24 >> 24;
  return { dimensions, scale, words, pieces, rows };
}
