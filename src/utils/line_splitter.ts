/**
 * Newline-delimited messages out of a byte stream, bounded: the one line reader of both stdio
 * sides (the MCP client's reader of a server, `src/mcp/_line_reader.ts`, and the gateway's stdio
 * face, `src/gateway/faces/stdio_wire.ts`). A line over the limit is never held whole: it is skipped as
 * it streams, keeping only its first and last bytes so the caller can name the request it answers.
 * Linear in the bytes read.
 *
 * @module
 */

const NEWLINE = 0x0a;
const EMPTY = new Uint8Array(0);

/** What {@linkcode LineSplitter} hands its owner. */
export interface LineSink {
  /** A complete line, without its newline (a trailing `\r` is the owner's to drop). */
  line(bytes: Uint8Array): void;
  /**
   * A line over the limit, skipped: its length in bytes, its first and its last bytes (at most
   * the splitter's `edgeBytes` each).
   */
  oversized(bytes: number, head: Uint8Array, tail: Uint8Array): void;
}

/**
 * Splits a byte stream into lines of at most `maxBytes`.
 *
 * @example Usage
 * ```ts
 * import { LineSplitter } from "./line_splitter.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const seen: string[] = [];
 * const splitter = new LineSplitter(8, {
 *   line: (bytes) => void seen.push(new TextDecoder().decode(bytes)),
 *   oversized: (bytes) => void seen.push(`skipped ${bytes}`),
 * });
 * splitter.push(new TextEncoder().encode("one\ntw"));
 * splitter.push(new TextEncoder().encode("o\n0123456789\n"));
 * deepEqual(seen, ["one", "two", "skipped 10"]);
 * ```
 */
export class LineSplitter {
  #max: number;
  #edge: number;
  #sink: LineSink;
  #parts: Uint8Array[] = [];
  #size = 0;
  // While skipping an oversized line: its bytes so far, its start and its last bytes.
  #skipped = -1;
  #head: Uint8Array = EMPTY;
  #tail: Uint8Array = EMPTY;

  /**
   * Makes a splitter.
   *
   * @param maxBytes The longest line kept, in bytes.
   * @param sink Where lines and skipped lines go.
   * @param edgeBytes How much of a skipped line's start and end is kept.
   */
  constructor(maxBytes: number, sink: LineSink, edgeBytes = 256) {
    this.#max = maxBytes;
    this.#sink = sink;
    this.#edge = edgeBytes;
  }

  /**
   * Takes the next bytes of the stream; complete lines go to the sink at once.
   *
   * @param chunk The bytes (not kept: what is held is copied).
   */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (newline !== -1 && this.#size === 0 && this.#skipped < 0 && end - start <= this.#max) {
        // The common case, a whole line within one chunk: handed over without a copy.
        if (end > start) this.#sink.line(chunk.subarray(start, end));
      } else {
        this.#take(chunk.subarray(start, end));
        if (newline !== -1) this.#endLine();
      }
      if (newline === -1) return;
      start = newline + 1;
    }
  }

  /** Drops everything held. */
  clear(): void {
    this.#parts = [];
    this.#size = 0;
    this.#skipped = -1;
    this.#head = EMPTY;
    this.#tail = EMPTY;
  }

  #take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.#skipped >= 0) {
      this.#skipped += piece.length;
      this.#tail = lastBytes(this.#tail, piece, this.#edge);
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      this.#parts.push(piece.slice());
      this.#size += piece.length;
      return;
    }
    // Over the limit: keep the start and the end, let the rest go by.
    this.#head = concat([...this.#parts, piece], this.#edge);
    this.#tail = lastBytes(this.#parts.at(-1) ?? EMPTY, piece, this.#edge);
    this.#skipped = this.#size + piece.length;
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    if (this.#skipped >= 0) {
      const { head, tail } = { head: this.#head, tail: this.#tail };
      const bytes = this.#skipped;
      this.clear();
      this.#sink.oversized(bytes, head, tail);
      return;
    }
    if (this.#size === 0) return;
    const bytes = this.#parts.length === 1 ? this.#parts[0]! : concat(this.#parts, Infinity);
    this.#parts = [];
    this.#size = 0;
    this.#sink.line(bytes);
  }
}

// The first `limit` bytes of runs of bytes, joined, copying no more than that.
function concat(parts: readonly Uint8Array[], limit: number): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const joined = new Uint8Array(Math.min(length, limit));
  let offset = 0;
  for (const part of parts) {
    if (offset >= joined.length) break;
    const taken = part.subarray(0, joined.length - offset);
    joined.set(taken, offset);
    offset += taken.length;
  }
  return joined;
}

// The last `edge` bytes of two runs of bytes, copying no more than that.
function lastBytes(before: Uint8Array, after: Uint8Array, edge: number): Uint8Array {
  if (after.length >= edge) return after.slice(after.length - edge);
  return concat([before.subarray(Math.max(0, before.length - (edge - after.length))), after], edge);
}
