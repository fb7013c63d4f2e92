/**
 * The lexical ranker's built index as bytes, and back: what a cache that outlives its process (the
 * Worker's Durable Objects) keeps, so a fresh isolate searches a large catalogue without building
 * its index. A restored index answers every search exactly as the one that was saved (the scores
 * are stored as they were computed, as 64-bit floats).
 *
 * Layout: a 4-byte magic, a 4-byte header length, the header (UTF-8 JSON: the format, the terms,
 * the name word pairs, the servers and their words), padding to 8 bytes, then the postings' scores
 * and the server words' rarities (float64), the postings' documents, each term's first posting,
 * each pair's first document, the pairs' documents, each tool's server number, each server word's
 * first holder and the holders (int32), then, when the index has them, the postings' weights in
 * coordination (float32).
 *
 * @module
 */

import { indexInSorted, SortedRows } from "./_sorted.ts";
import type { Postings } from "./field_scores.ts";
import type { TermPostings } from "./lexical_search.ts";
import { ServerMatch } from "./server_match.ts";

/** The parts of a built lexical index that are data (the rest is rebuilt from them). */
export interface LexicalParts {
  /** Each term's postings: as built, or as stored (a sorted table, read in place). */
  postings: ReadonlyMap<string, Postings> | StoredPostings;
  /** The tools (by number, ascending) whose names hold each pair of adjacent words. */
  nameBigrams: ReadonlyMap<string, ReadonlySet<number>> | SortedRows;
  /** How each server's words match a query. */
  servers: ServerMatch;
  /** Each tool's server number. */
  serverOf: Int32Array;
}

const MAGIC = 0x756e6678; // "unfx"

interface Header {
  format: string;
  terms: string[];
  pairs: string[];
  serverNames: readonly string[];
  serverWords: readonly string[];
  serverHolders: number;
  postings: number;
  pairDocs: number;
  tools: number;
  cover?: boolean;
}

/**
 * Encodes an index's parts.
 *
 * @param parts The parts.
 * @param format The format name a restore checks (settings and version of the build).
 * @returns The bytes.
 *
 * @example Usage
 * ```ts
 * import { decodeLexicalParts, encodeLexicalParts } from "./lexical_snapshot.ts";
 * import { ServerMatch } from "./server_match.ts";
 * import { equal } from "node:assert/strict";
 *
 * const parts = {
 *   postings: new Map([["read", { docs: Int32Array.of(0), scores: Float64Array.of(1.5), start: 0, end: 1 }]]),
 *   nameBigrams: new Map([["read file", new Set([0])]]),
 *   servers: new ServerMatch(new Map([["files", ["files"]]])),
 *   serverOf: Int32Array.of(0),
 * };
 * const back = decodeLexicalParts(encodeLexicalParts(parts, "f1"), "f1")!;
 * equal(back.postings.get("read")!.scores[0], 1.5);
 * equal(decodeLexicalParts(encodeLexicalParts(parts, "f1"), "f2"), undefined);
 * ```
 */
export function encodeLexicalParts(parts: LexicalParts, format: string): Uint8Array {
  // Sorted by UTF-16 code units: a restored index finds a term or pair by binary search.
  const terms = [...parts.postings.keys()].sort();
  let postingCount = 0;
  for (const term of terms) {
    const p = parts.postings.get(term)!;
    postingCount += p.end - p.start;
  }
  const pairs = [...parts.nameBigrams.keys()].sort();
  const pairDocLists = pairs.map((pair) => [...parts.nameBigrams.get(pair)!]);
  let pairDocCount = 0;
  for (const docs of pairDocLists) pairDocCount += docs.length;
  const table = parts.servers.table();
  const withCover = terms.some((term) => parts.postings.get(term)!.cover !== undefined);
  const header: Header = {
    format,
    terms,
    pairs,
    serverNames: table.names,
    serverWords: table.words,
    serverHolders: table.holders.length,
    postings: postingCount,
    pairDocs: pairDocCount,
    tools: parts.serverOf.length,
    ...(withCover ? { cover: true } : {}),
  };
  const head = new TextEncoder().encode(JSON.stringify(header));
  const offset = align(8 + head.length);
  const layout = sections(offset, header);
  const bytes = new Uint8Array(layout.end);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, head.length, true);
  bytes.set(head, 8);
  const scores = new Float64Array(bytes.buffer, layout.scores, postingCount);
  const docs = new Int32Array(bytes.buffer, layout.docs, postingCount);
  const termStart = new Int32Array(bytes.buffer, layout.termStart, terms.length + 1);
  const cover = withCover ? new Float32Array(bytes.buffer, layout.cover, postingCount) : undefined;
  let at = 0;
  terms.forEach((term, i) => {
    const p = parts.postings.get(term)!;
    termStart[i] = at;
    scores.set(p.scores.subarray(p.start, p.end), at);
    docs.set(p.docs.subarray(p.start, p.end), at);
    if (cover !== undefined) {
      if (p.cover === undefined) cover.fill(1, at, at + p.end - p.start);
      else cover.set(p.cover.subarray(p.start, p.end), at);
    }
    at += p.end - p.start;
  });
  termStart[terms.length] = at;
  const pairStart = new Int32Array(bytes.buffer, layout.pairStart, pairs.length + 1);
  const pairDocs = new Int32Array(bytes.buffer, layout.pairDocs, pairDocCount);
  at = 0;
  pairDocLists.forEach((docs, i) => {
    pairStart[i] = at;
    for (const doc of docs) pairDocs[at++] = doc;
  });
  pairStart[pairs.length] = at;
  new Int32Array(bytes.buffer, layout.serverOf, header.tools).set(parts.serverOf);
  new Float64Array(bytes.buffer, layout.serverIdf, table.idf.length).set(table.idf);
  new Int32Array(bytes.buffer, layout.serverStart, table.starts.length).set(table.starts);
  new Int32Array(bytes.buffer, layout.serverHolders, table.holders.length).set(table.holders);
  return bytes;
}

/**
 * Decodes an index's parts, if the bytes hold this format.
 *
 * @param bytes The bytes {@linkcode encodeLexicalParts} made.
 * @param format The format expected.
 * @returns The parts, or `undefined` for bytes of another format (or not an index).
 */
export function decodeLexicalParts(bytes: Uint8Array, format: string): LexicalParts | undefined {
  if (bytes.byteLength < 8) return undefined;
  // Typed views need 8-byte alignment: a copy when the bytes start elsewhere.
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const view = new DataView(own.buffer, own.byteOffset, own.byteLength);
  if (view.getUint32(0, true) !== MAGIC) return undefined;
  const headLength = view.getUint32(4, true);
  if (8 + headLength > own.byteLength) return undefined;
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(own.subarray(8, 8 + headLength)));
  } catch {
    return undefined;
  }
  if (header.format !== format) return undefined;
  const layout = sections(own.byteOffset + align(8 + headLength), header);
  if (layout.end > own.byteOffset + own.byteLength) return undefined;
  const buffer = own.buffer;
  const scores = new Float64Array(buffer, layout.scores, header.postings);
  const docs = new Int32Array(buffer, layout.docs, header.postings);
  const termStart = new Int32Array(buffer, layout.termStart, header.terms.length + 1);
  const pairStart = new Int32Array(buffer, layout.pairStart, header.pairs.length + 1);
  const pairDocs = new Int32Array(buffer, layout.pairDocs, header.pairDocs);
  const cover = header.cover === true
    ? new Float32Array(buffer, layout.cover, header.postings)
    : undefined;
  return {
    postings: new StoredPostings(header.terms, termStart, docs, scores, cover),
    nameBigrams: new SortedRows(header.pairs, pairStart, pairDocs),
    servers: ServerMatch.fromTable({
      names: header.serverNames,
      words: header.serverWords,
      idf: new Float64Array(buffer, layout.serverIdf, header.serverWords.length),
      starts: new Int32Array(buffer, layout.serverStart, header.serverWords.length + 1),
      holders: new Int32Array(buffer, layout.serverHolders, header.serverHolders),
    }),
    serverOf: new Int32Array(buffer, layout.serverOf, header.tools),
  };
}

function align(n: number): number {
  return Math.ceil(n / 8) * 8;
}

// Where each binary section starts (byte offsets), float64 first: they need 8-byte alignment.
function sections(start: number, header: Header) {
  const scores = start;
  const serverIdf = scores + 8 * header.postings;
  const docs = serverIdf + 8 * header.serverWords.length;
  const termStart = docs + 4 * header.postings;
  const pairStart = termStart + 4 * (header.terms.length + 1);
  const pairDocs = pairStart + 4 * (header.pairs.length + 1);
  const serverOf = pairDocs + 4 * header.pairDocs;
  const serverStart = serverOf + 4 * header.tools;
  const serverHolders = serverStart + 4 * (header.serverWords.length + 1);
  const cover = serverHolders + 4 * header.serverHolders;
  return {
    scores,
    serverIdf,
    docs,
    termStart,
    pairStart,
    pairDocs,
    serverOf,
    serverStart,
    serverHolders,
    cover,
    end: cover + (header.cover === true ? 4 * header.postings : 0),
  };
}

/** A stored index's postings: sorted terms, each with its slice of the shared arrays. */
export class StoredPostings implements TermPostings {
  readonly #starts: Int32Array;
  readonly #docs: Int32Array;
  readonly #scores: Float64Array;
  readonly #cover: Float32Array | undefined;

  /**
   * Wraps the stored table.
   *
   * @param terms The terms, sorted by UTF-16 code units.
   * @param starts Each term's first posting, and one past the last term's.
   * @param docs The postings' documents.
   * @param scores The postings' scores.
   * @param cover The postings' weights in coordination, when they are not all 1.
   */
  constructor(
    readonly terms: readonly string[],
    starts: Int32Array,
    docs: Int32Array,
    scores: Float64Array,
    cover?: Float32Array,
  ) {
    this.#starts = starts;
    this.#docs = docs;
    this.#scores = scores;
    this.#cover = cover;
  }

  /**
   * A term's postings.
   *
   * @param term A term.
   * @returns Its postings, or `undefined`.
   */
  get(term: string): Postings | undefined {
    const i = indexInSorted(this.terms, term);
    if (i < 0) return undefined;
    return {
      docs: this.#docs,
      scores: this.#scores,
      ...(this.#cover === undefined ? {} : { cover: this.#cover }),
      start: this.#starts[i]!,
      end: this.#starts[i + 1]!,
    };
  }

  /**
   * The terms, sorted.
   *
   * @returns The terms.
   */
  keys(): Iterable<string> {
    return this.terms;
  }
}
