/**
 * The parts of a lexical ranker's snapshot beyond its index (`lexical_snapshot.ts`): the semantic
 * match (`semantic_snapshot.ts`) and the tools' name words (what `./name_coverage` indexes), joined
 * into one byte string so that a fresh Worker isolate restores the Deno default without tokenizing
 * or embedding anything.
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

/**
 * Each tool's name words and its server's, as text: a line per tool, the two lists apart by a tab,
 * words by spaces (tokens hold no white space).
 *
 * @param names Each tool's name words.
 * @param servers Each tool's server words.
 * @returns The UTF-8 text.
 *
 * @example Usage
 * ```ts
 * import { decodeNameWords, encodeNameWords } from "./ranker_snapshot.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const bytes = encodeNameWords([["read", "file"], []], [["fs"], ["fs"]]);
 * deepEqual(decodeNameWords(bytes, 2), { names: [["read", "file"], []], servers: [["fs"], ["fs"]] });
 * ```
 */
export function encodeNameWords(
  names: readonly (readonly string[])[],
  servers: readonly (readonly string[])[],
): Uint8Array {
  return new TextEncoder().encode(
    names.map((name, doc) => `${name.join(" ")}\t${servers[doc]!.join(" ")}`).join("\n"),
  );
}

/**
 * Reads what {@linkcode encodeNameWords} wrote.
 *
 * @param bytes The text.
 * @param count The number of tools.
 * @returns The lists (a server's list is shared by its tools), or `undefined` for another count.
 */
export function decodeNameWords(
  bytes: Uint8Array,
  count: number,
): { names: string[][]; servers: string[][] } | undefined {
  const lines = count === 0 ? [] : new TextDecoder().decode(bytes).split("\n");
  if (lines.length !== count) return undefined;
  const words = (text: string) => text === "" ? [] : text.split(" ");
  const shared = new Map<string, string[]>();
  const names: string[][] = [];
  const servers: string[][] = [];
  for (const line of lines) {
    const tab = line.indexOf("\t");
    if (tab < 0) return undefined;
    const server = line.slice(tab + 1);
    let list = shared.get(server);
    if (list === undefined) shared.set(server, list = words(server));
    names.push(words(line.slice(0, tab)));
    servers.push(list);
  }
  return { names, servers };
}
