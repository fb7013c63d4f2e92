/**
 * A catalogue's semantic match as bytes, and back: the tools' meaning vectors, the catalogue's
 * mean, and the catalogue words the query words reach by meaning (`neighbours.ts`), stored as they
 * were computed (32- and 64-bit floats), so a restored match ranks exactly as the one saved and a
 * fresh Worker isolate does no word-vector work for the catalogue. Stored with the lexical index
 * (`lexical_ranker.ts`), under a format that names the vectors' data.
 *
 * Layout (little-endian): magic `unfs`, the tool count, dimensions, neighbour word count, the
 * words' UTF-8 length and the tails' steps (u32 each, padded to 32 bytes), then the mean (f64), the
 * tools' vectors, the words' rows and tails (f32), and the words joined by newlines.
 *
 * @module
 */

import type { NeighbourParts } from "./neighbours.ts";

/** What a semantic match stores. */
export interface SemanticParts {
  /** The tools' unit vectors, centred on the mean, `count × dimensions`. */
  tools: Float32Array;
  /** The catalogue's mean vector. */
  mean: Float64Array;
  /** The catalogue words reached by meaning. */
  neighbours: NeighbourParts;
}

const MAGIC = 0x73666e75; // "unfs"
const HEAD = 32;

/**
 * Writes a semantic match's parts.
 *
 * @param parts The parts.
 * @returns The bytes.
 *
 * @example Usage
 * ```ts
 * import { decodeSemantic, encodeSemantic } from "./semantic_snapshot.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const parts = {
 *   tools: Float32Array.of(1, 0),
 *   mean: Float64Array.of(0.5, 0.5),
 *   neighbours: { words: ["cat"], rows: Float32Array.of(0, 1), tails: Float32Array.of(0) },
 * };
 * deepEqual(decodeSemantic(encodeSemantic(parts), 2)?.neighbours.words, ["cat"]);
 * ```
 */
export function encodeSemantic(parts: SemanticParts): Uint8Array {
  const dimensions = parts.mean.length;
  const { words, rows, tails } = parts.neighbours;
  const text = new TextEncoder().encode(words.join("\n"));
  const floats = [parts.tools, rows, tails];
  const size = HEAD + dimensions * 8 + floats.reduce((sum, f) => sum + f.byteLength, 0) +
    text.byteLength;
  const out = new Uint8Array(size);
  new Uint32Array(out.buffer, 0, 6).set([
    MAGIC,
    parts.tools.length / dimensions,
    dimensions,
    words.length,
    text.byteLength,
    words.length === 0 ? 0 : tails.length / words.length,
  ]);
  let at = HEAD;
  for (const array of [parts.mean, ...floats]) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  out.set(text, at);
  return out;
}

/**
 * Reads a semantic match's parts (views over the bytes; the words are decoded once).
 *
 * @param bytes What {@linkcode encodeSemantic} wrote.
 * @param dimensions The dimensions the vectors have.
 * @returns The parts, or `undefined` when the bytes are not a match of these dimensions.
 */
export function decodeSemantic(bytes: Uint8Array, dimensions: number): SemanticParts | undefined {
  if (bytes.byteLength < HEAD) return undefined;
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const [magic, count, dims, words, textLength, steps] = new Uint32Array(
    own.buffer,
    own.byteOffset,
    6,
  );
  if (magic !== MAGIC || dims !== dimensions) return undefined;
  const floats = (count! + words!) * dims! + words! * steps!;
  if (HEAD + dims! * 8 + floats * 4 + textLength! !== own.byteLength) return undefined;
  let at = own.byteOffset + HEAD;
  const take = <T>(
    Type: { new (b: ArrayBufferLike, at: number, n: number): T },
    n: number,
    size: number,
  ) => {
    const view = new Type(own.buffer, at, n);
    at += n * size;
    return view;
  };
  const mean = take(Float64Array, dims!, 8);
  const tools = take(Float32Array, count! * dims!, 4);
  const rows = take(Float32Array, words! * dims!, 4);
  const tails = take(Float32Array, words! * steps!, 4);
  const text = new TextDecoder().decode(new Uint8Array(own.buffer, at, textLength!));
  const list = words === 0 ? [] : text.split("\n");
  if (list.length !== words) return undefined;
  return { tools, mean, neighbours: { words: list, rows, tails } };
}
