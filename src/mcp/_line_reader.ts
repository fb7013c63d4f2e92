/**
 * The stdio transport's reader of newline-delimited JSON-RPC, bounded: a message over the limit is
 * skipped as it streams (never held whole), and the request it answered fails alone with its size
 * and the limit, instead of the SDK's reader closing the connection. Linear in the bytes read.
 *
 * @module
 */

import { type JSONRPCMessage, parseJSONRPCMessage } from "@modelcontextprotocol/client";
import { isRecord } from "../_record.ts";
import { isProgressParams } from "./_progress.ts";
import type { Buffer } from "node:buffer";

/** The JSON-RPC error code of the answer that stands in for an oversized one. */
export const OVERSIZED_CODE = -32_099;

// How much of an oversized message's start and end is kept to find the request it answers.
const EDGE_BYTES = 256;
// The request id as a response's first member (after "jsonrpc") or as its last one.
const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const ID_LAST = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

const DECODER = new TextDecoder();

type Entry = { message: JSONRPCMessage } | { error: unknown };

/**
 * Reads newline-delimited JSON-RPC messages from a byte stream, with the interface of the SDK's
 * `ReadBuffer` (`append`, `readMessage`, `clear`).
 *
 * @example Usage
 * ```ts
 * import { LineReader, OVERSIZED_CODE } from "./_line_reader.ts";
 * import { Buffer } from "node:buffer";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const reader = new LineReader(64, () => {});
 * reader.append(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{"text":"'));
 * reader.append(Buffer.from("x".repeat(100) + '"}}\n'));
 * deepEqual(reader.readMessage(), { jsonrpc: "2.0", id: 1, result: {} });
 * const oversized = reader.readMessage() as { id: number; error: { code: number } };
 * equal(oversized.id, 2);
 * equal(oversized.error.code, OVERSIZED_CODE);
 * equal(reader.readMessage(), null);
 * ```
 */
export class LineReader {
  #max: number;
  #unattributed: (why: string) => void;
  #chunks: Uint8Array[] = [];
  #size = 0;
  // While skipping an oversized message: its bytes so far, its start and its last bytes.
  #skipped = -1;
  #head: Uint8Array = new Uint8Array(0);
  #tail: Uint8Array = new Uint8Array(0);
  #queue: Entry[] = [];
  #next = 0;

  /**
   * Makes a reader.
   *
   * @param maxBytes The largest message, in bytes.
   * @param unattributed Told when a message over the limit answers no request it can name.
   */
  constructor(maxBytes: number, unattributed: (why: string) => void) {
    this.#max = maxBytes;
    this.#unattributed = unattributed;
  }

  /**
   * Takes the next bytes of the stream.
   *
   * @param chunk The bytes.
   */
  append(chunk: Buffer | Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      this.#take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  /**
   * The next complete message, or `null` when there is none yet.
   *
   * @returns The message.
   * @throws {Error} When a line is JSON but not a JSON-RPC message.
   */
  readMessage(): JSONRPCMessage | null {
    if (this.#next >= this.#queue.length) {
      this.#queue = [];
      this.#next = 0;
      return null;
    }
    const entry = this.#queue[this.#next++]!;
    if ("error" in entry) throw entry.error;
    return entry.message;
  }

  /** Drops everything buffered. */
  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#skipped = -1;
    this.#queue = [];
    this.#next = 0;
  }

  #take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.#skipped >= 0) {
      this.#skipped += piece.length;
      this.#tail = lastBytes(this.#tail, piece);
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      this.#chunks.push(piece);
      this.#size += piece.length;
      return;
    }
    // Over the limit: keep the start and the end, let the rest go by.
    this.#head = firstBytes([...this.#chunks, piece]);
    this.#tail = lastBytes(this.#chunks.at(-1) ?? new Uint8Array(0), piece);
    this.#skipped = this.#size + piece.length;
    this.#chunks = [];
    this.#size = 0;
  }

  #endLine(): void {
    if (this.#skipped >= 0) {
      const bytes = this.#skipped;
      this.#skipped = -1;
      this.#oversized(bytes);
      return;
    }
    if (this.#size === 0) return;
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : concat(this.#chunks);
    const line = DECODER.decode(bytes).replace(/\r$/, "");
    this.#chunks = [];
    this.#size = 0;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // Not JSON: a server's stray output, skipped as the SDK's reader does.
    }
    try {
      // A progress notification is checked by hand (a server may send a flood of them); every
      // other message by the SDK's schema.
      const message = isProgress(value) ? value : parseJSONRPCMessage(value);
      this.#queue.push({ message });
    } catch (error) {
      this.#queue.push({ error });
    }
  }

  #oversized(bytes: number): void {
    const id = DECODER.decode(this.#head).match(ID_FIRST)?.[1] ??
      DECODER.decode(this.#tail).match(ID_LAST)?.[1];
    const why = `the server's answer is ${bytes} bytes, over the limit of ${this.#max} bytes ` +
      "for one message: ask for less at a time";
    this.#head = new Uint8Array(0);
    this.#tail = new Uint8Array(0);
    if (id === undefined) {
      this.#unattributed(why);
      return;
    }
    this.#queue.push({
      message: {
        jsonrpc: "2.0",
        id: JSON.parse(id),
        error: { code: OVERSIZED_CODE, message: why, data: { bytes, limit: this.#max } },
      },
    });
  }
}

function isProgress(value: unknown): value is JSONRPCMessage {
  return isRecord(value) && value.jsonrpc === "2.0" && value.method === "notifications/progress" &&
    !("id" in value) && isProgressParams(value.params);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

// The first EDGE_BYTES of runs of bytes, copying no more than that.
function firstBytes(parts: readonly Uint8Array[]): Uint8Array {
  const taken: Uint8Array[] = [];
  let length = 0;
  for (const part of parts) {
    if (length >= EDGE_BYTES) break;
    taken.push(part.subarray(0, EDGE_BYTES - length));
    length += taken.at(-1)!.length;
  }
  return concat(taken);
}

// The last EDGE_BYTES of two runs of bytes, copying no more than that.
function lastBytes(before: Uint8Array, after: Uint8Array): Uint8Array {
  if (after.length >= EDGE_BYTES) return after.slice(after.length - EDGE_BYTES);
  return concat([before.subarray(Math.max(0, before.length - (EDGE_BYTES - after.length))), after]);
}
