/**
 * The stdio client's reader of newline-delimited JSON-RPC, bounded (on the one line splitter,
 * `src/utils/line_splitter.ts`): a message over the limit is skipped as it streams (never held whole),
 * and the request it answered fails alone with its size and the limit, instead of the connection
 * closing. Linear in the bytes read.
 *
 * @module
 */

import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import type { Buffer } from "node:buffer";
import { checkMessage } from "../protocol/jsonrpc.ts";
import { OVERSIZED_CODE } from "./_peer.ts";
import { LineSplitter } from "../utils/line_splitter.ts";

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
 * import { LineReader } from "./_line_reader.ts";
 * import { OVERSIZED_CODE } from "./_peer.ts";
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
  #splitter: LineSplitter;
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
    this.#splitter = new LineSplitter(maxBytes, {
      line: (bytes) => this.#line(bytes),
      oversized: (bytes, head, tail) => this.#oversized(bytes, head, tail),
    }, EDGE_BYTES);
  }

  /**
   * Takes the next bytes of the stream.
   *
   * @param chunk The bytes.
   */
  append(chunk: Buffer | Uint8Array): void {
    this.#splitter.push(chunk);
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
    this.#splitter.clear();
    this.#queue = [];
    this.#next = 0;
  }

  #line(bytes: Uint8Array): void {
    const line = DECODER.decode(bytes).replace(/\r$/, "");
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // Not JSON: a server's stray output, skipped as the SDK's reader does.
    }
    const message = checkMessage(value);
    this.#queue.push(
      message.ok ? { message: message.value as JSONRPCMessage } : { error: message.error },
    );
  }

  #oversized(bytes: number, head: Uint8Array, tail: Uint8Array): void {
    const id = DECODER.decode(head).match(ID_FIRST)?.[1] ??
      DECODER.decode(tail).match(ID_LAST)?.[1];
    const why = `the server's answer is ${bytes} bytes, over the limit of ${this.#max} bytes ` +
      "for one message: ask for less at a time";
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
