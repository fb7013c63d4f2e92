/**
 * The byte layout the names' index (`name_snapshot.ts`) and the semantic match
 * (`semantic_snapshot.ts`) are stored in: a magic number and a few counts (u32 each, padded to
 * 32 bytes), then typed arrays one after another, then a text; read back as views over the bytes.
 * Each format says what its counts and arrays are and checks its own size.
 *
 * @module
 */

/** The header's size: u32 fields, padded so that the arrays after it start 8-byte aligned. */
const HEAD = 32;

/**
 * Writes the layout.
 *
 * @param magic The format's magic number.
 * @param fields Its counts (at most 7).
 * @param arrays The arrays, in order (64-bit ones first, so every array stays aligned).
 * @param text The text, last.
 * @returns The bytes.
 *
 * @example Usage
 * ```ts
 * import { readLayout, writeLayout } from "./_snapshot_layout.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const bytes = writeLayout(7, [2], [Float64Array.of(1, 2)], new TextEncoder().encode("a\nb"));
 * const layout = readLayout(bytes, 7, 1)!;
 * deepEqual([...layout.fields], [2]);
 * deepEqual([...layout.f64(2)], [1, 2]);
 * deepEqual(layout.words(3, 2), ["a", "b"]);
 * ```
 */
export function writeLayout(
  magic: number,
  fields: readonly number[],
  arrays: readonly ArrayBufferView[],
  text: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(HEAD + arrays.reduce((sum, x) => sum + x.byteLength, 0) + text.length);
  new Uint32Array(out.buffer, 0, 1 + fields.length).set([magic, ...fields]);
  let at = HEAD;
  for (const x of arrays) {
    out.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength), at);
    at += x.byteLength;
  }
  out.set(text, at);
  return out;
}

/** Stored bytes being read: the counts, and views taken in order after the header. */
export class LayoutReader {
  /** The counts after the magic number. */
  readonly fields: Uint32Array;
  /** The bytes' length; a format checks it against what its counts make. */
  readonly byteLength: number;
  /** The header's size: what a format adds to its arrays' and text's sizes. */
  readonly head: number = HEAD;
  readonly #buffer: ArrayBufferLike;
  #at: number;

  /**
   * Wraps bytes that start 8-byte aligned.
   *
   * @param bytes The bytes.
   * @param fields The counts read from them.
   */
  constructor(bytes: Uint8Array, fields: Uint32Array) {
    this.fields = fields;
    this.byteLength = bytes.byteLength;
    this.#buffer = bytes.buffer;
    this.#at = bytes.byteOffset + HEAD;
  }

  /**
   * The next 64-bit floats.
   *
   * @param n How many.
   * @returns A view over the bytes.
   */
  f64(n: number): Float64Array {
    return this.#take(Float64Array, n);
  }

  /**
   * The next 32-bit floats.
   *
   * @param n How many.
   * @returns A view over the bytes.
   */
  f32(n: number): Float32Array {
    return this.#take(Float32Array, n);
  }

  /**
   * The next 32-bit integers.
   *
   * @param n How many.
   * @returns A view over the bytes.
   */
  i32(n: number): Int32Array {
    return this.#take(Int32Array, n);
  }

  /**
   * The text, as words joined by newlines (decoded once).
   *
   * @param textLength Its UTF-8 length.
   * @param count How many words it holds.
   * @returns The words, or `undefined` when there are not `count` of them.
   */
  words(textLength: number, count: number): string[] | undefined {
    const text = new TextDecoder().decode(new Uint8Array(this.#buffer, this.#at, textLength));
    const words = count === 0 ? [] : text.split("\n");
    return words.length === count ? words : undefined;
  }

  #take<T>(
    Type: { new (buffer: ArrayBufferLike, at: number, n: number): T; BYTES_PER_ELEMENT: number },
    n: number,
  ): T {
    const view = new Type(this.#buffer, this.#at, n);
    this.#at += n * Type.BYTES_PER_ELEMENT;
    return view;
  }
}

/**
 * Opens stored bytes of a format.
 *
 * @param bytes The bytes {@linkcode writeLayout} wrote.
 * @param magic The format's magic number.
 * @param count How many counts it has.
 * @returns The reader, or `undefined` when the bytes are not of this format.
 */
export function readLayout(
  bytes: Uint8Array,
  magic: number,
  count: number,
): LayoutReader | undefined {
  if (bytes.byteLength < HEAD) return undefined;
  // Typed views need 8-byte alignment: a copy when the bytes start elsewhere.
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const head = new Uint32Array(own.buffer, own.byteOffset, 1 + count);
  return head[0] === magic ? new LayoutReader(own, head.subarray(1)) : undefined;
}
