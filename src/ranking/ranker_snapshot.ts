/**
 * A lexical ranker's snapshot in parts: its index (`lexical_snapshot.ts`), the semantic match
 * (`semantic_snapshot.ts`) and the names' index (`name_snapshot.ts`), joined into one byte string
 * so that a fresh Worker isolate restores the Deno default without tokenizing or embedding
 * anything.
 *
 * @module
 */

/**
 * Joins parts: their count and lengths (u32 each), then each part at an 8-byte boundary (typed
 * arrays over a part need it).
 *
 * @param parts The parts.
 * @returns The joined bytes.
 *
 * @example Usage
 * ```ts
 * import { joinParts, splitParts } from "./ranker_snapshot.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const joined = joinParts([Uint8Array.of(1, 2, 3), Uint8Array.of(4)]);
 * deepEqual(splitParts(joined, 2)?.map((part) => [...part]), [[1, 2, 3], [4]]);
 * ```
 */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  const head = Math.ceil((4 + 4 * parts.length) / 8) * 8;
  const places: number[] = [];
  let at = head;
  for (const part of parts) {
    places.push(at);
    at = Math.ceil((at + part.byteLength) / 8) * 8;
  }
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  view.setUint32(0, parts.length, true);
  parts.forEach((part, i) => {
    view.setUint32(4 + 4 * i, part.byteLength, true);
    out.set(part, places[i]!);
  });
  return out;
}

/**
 * Splits what {@linkcode joinParts} joined (views, not copies; copied once when misaligned).
 *
 * @param bytes The joined bytes.
 * @param count How many parts the caller expects.
 * @returns The parts, or `undefined` when the bytes do not hold that many.
 */
export function splitParts(bytes: Uint8Array, count: number): Uint8Array[] | undefined {
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const head = Math.ceil((4 + 4 * count) / 8) * 8;
  if (own.byteLength < head) return undefined;
  const view = new DataView(own.buffer, own.byteOffset, own.byteLength);
  if (view.getUint32(0, true) !== count) return undefined;
  const parts: Uint8Array[] = [];
  let at = head;
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(4 + 4 * i, true);
    if (at + length > own.byteLength) return undefined;
    parts.push(own.subarray(at, at + length));
    at = Math.ceil((at + length) / 8) * 8;
  }
  return parts;
}
