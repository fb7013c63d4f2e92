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
import { readLayout, writeLayout } from "./_snapshot_layout.ts";

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
  return writeLayout(
    MAGIC,
    [
      parts.tools.length / dimensions,
      dimensions,
      words.length,
      text.byteLength,
      words.length === 0 ? 0 : tails.length / words.length,
    ],
    [parts.mean, parts.tools, rows, tails],
    text,
  );
}

/**
 * Reads a semantic match's parts (views over the bytes; the words are decoded once).
 *
 * @param bytes What {@linkcode encodeSemantic} wrote.
 * @param dimensions The dimensions the vectors have.
 * @returns The parts, or `undefined` when the bytes are not a match of these dimensions.
 */
export function decodeSemantic(bytes: Uint8Array, dimensions: number): SemanticParts | undefined {
  const layout = readLayout(bytes, MAGIC, 5);
  if (layout === undefined) return undefined;
  const [count, dims, words, textLength, steps] = layout.fields;
  if (dims !== dimensions) return undefined;
  const floats = (count! + words!) * dims! + words! * steps!;
  if (layout.head + dims! * 8 + floats * 4 + textLength! !== layout.byteLength) return undefined;
  const mean = layout.f64(dims!);
  const tools = layout.f32(count! * dims!);
  const rows = layout.f32(words! * dims!);
  const tails = layout.f32(words! * steps!);
  const list = layout.words(textLength!, words!);
  if (list === undefined) return undefined;
  return { tools, mean, neighbours: { words: list, rows, tails } };
}
