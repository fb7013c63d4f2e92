/**
 * The one stdio line policy of both sides (the gateway reading its host, `src/gateway/faces/stdio.ts`,
 * and unfold's client reading an upstream server, `src/mcp/_stdio_transport.ts`): newline-delimited
 * JSON-RPC, a message per line. A line over {@linkcode STDIO_MAX_MESSAGE_BYTES} is never held
 * whole: it is skipped as it streams, keeping only its first and last bytes, where the one lenient
 * finder ({@linkcode lineId}) looks for the id of the request it is about, so that request alone
 * is answered or failed and the connection stays. A line that is not UTF-8 is refused (a lenient
 * decoder would turn its bytes into U+FFFD, and a tool name or an argument would arrive changed),
 * as is one that is not JSON or that the side's check (the MCP SDK's `parseJSONRPCMessage`)
 * refuses; each refusal names the id when the line shows one. Linear in the bytes read; loads no
 * SDK (each side passes its own check).
 *
 * @module
 */

/** A request id: a string or an integer within the safe range. */
export type RequestId = string | number;

/**
 * The longest line either side reads, in bytes: the MCP SDK's `STDIO_DEFAULT_MAX_BUFFER_SIZE`
 * (10 MiB; `test/protocol/stdio_lines_test.ts` holds the two equal).
 */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The JSON-RPC error code of the answer a client makes up for a server's answer it could not read
 * (over the limit, not UTF-8), so that the request it answered fails alone, with the size and the
 * limit, not with a code of the server's.
 */
export const UNREADABLE_ANSWER_CODE = -32_099;

/**
 * Why a line was not read as a message, with the id it shows (`null`: none found); for a line
 * that is JSON but no message, whether it has a `method` (a request's id, not a response's).
 */
export type LineFault =
  | { kind: "oversized"; id: RequestId | null; bytes: number; limit: number }
  | { kind: "not_utf8" | "not_json"; id: RequestId | null }
  | { kind: "not_jsonrpc"; id: RequestId | null; method: boolean; error: unknown };

/** Where the lines of a stream go. */
export interface LineSink<T> {
  /** A line read as a message (what the side's check returned). */
  message(message: T): void;
  /** A line that could not be read, and why. */
  refused(fault: LineFault): void;
}

const NEWLINE = 0x0a;
const EMPTY = new Uint8Array(0);
// How much of a skipped line's start and end is kept to find its id.
const EDGE_BYTES = 4_096;
const STRICT = new TextDecoder("utf-8", { fatal: true });
// For the id alone: the cut may fall inside a character, which must not throw.
const LENIENT = new TextDecoder();
// An id as JSON writes one: a whole integer (the first digits of a longer one are another id), or
// a string of bounded length.
const ID = String.raw`(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,512}")`;
// The id as the first member, after the members a request or a response writes before it.
const ID_FIRST = new RegExp(
  String
    .raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.){0,512}"\s*,\s*){0,2}"id"\s*:\s*` +
    ID,
);
// The id as the last member (the SDK writes a response's id last).
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of a message that could not be read whole, when its text shows one: the top-level `"id"`
 * as the first member (after `"jsonrpc"` and `"method"`) or as the last. Lenient by design: a
 * line may be cut anywhere, and a nested `"id"` elsewhere is never taken for the message's.
 *
 * @param head The line's first characters.
 * @param tail Its last characters (the same text for a line read whole).
 * @returns The id, or `null`.
 *
 * @example Usage
 * ```ts
 * import { lineId } from "./stdio_lines.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(lineId('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"'), 7);
 * equal(lineId('{"result":{"id":1', '},"jsonrpc":"2.0","id":"a"}'), "a");
 * equal(lineId('{"jsonrpc":"2.0","id":9007199254740993,"me'), null);
 * ```
 */
export function lineId(head: string, tail: string = head): RequestId | null {
  const found = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (found === null) return null;
  try {
    const id: unknown = JSON.parse(found[1]!);
    return typeof id === "string" || Number.isSafeInteger(id) ? id as RequestId : null;
  } catch {
    return null;
  }
}

/**
 * Reads a byte stream as stdio lines, bounded: each line is read as a message by the side's check
 * or refused with its fault.
 *
 * @typeParam T The message type the check returns.
 *
 * @example Usage
 * ```ts
 * import { StdioLines } from "./stdio_lines.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const seen: unknown[] = [];
 * const lines = new StdioLines((value) => value, {
 *   message: (message) => void seen.push(message),
 *   refused: (fault) => void seen.push(fault),
 * }, 64);
 * lines.push(new TextEncoder().encode(`{"id":1}\n{"jsonrpc":"2.0","id":2,"x":"${"é".repeat(40)}"}\n`));
 * deepEqual(seen, [{ id: 1 }, { kind: "oversized", id: 2, bytes: 111, limit: 64 }]);
 * ```
 */
export class StdioLines<T> {
  readonly #check: (value: unknown) => T;
  readonly #sink: LineSink<T>;
  readonly #max: number;
  #parts: Uint8Array[] = [];
  #size = 0;
  // While skipping an oversized line: its bytes so far, its first and its last bytes.
  #skipped = -1;
  #head: Uint8Array = EMPTY;
  #tail: Uint8Array = EMPTY;

  /**
   * Makes a reader.
   *
   * @param check Reads a parsed line as a message; throws when it is none.
   * @param sink Where messages and refusals go.
   * @param maxBytes The longest line read, in bytes.
   */
  constructor(
    check: (value: unknown) => T,
    sink: LineSink<T>,
    maxBytes: number = STDIO_MAX_MESSAGE_BYTES,
  ) {
    this.#check = check;
    this.#sink = sink;
    this.#max = maxBytes;
  }

  /**
   * Takes the next bytes of the stream; complete lines are handled at once, in order.
   *
   * @param chunk The bytes (not kept: what is held is copied).
   */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (newline !== -1 && this.#size === 0 && this.#skipped < 0 && end - start <= this.#max) {
        // The common case, a whole line within one chunk: read without a copy.
        if (end > start) this.#line(chunk.subarray(start, end));
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
      this.#tail = lastBytes(this.#tail, piece);
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      this.#parts.push(piece.slice());
      this.#size += piece.length;
      return;
    }
    // Over the limit: keep the start and the end, let the rest go by.
    this.#head = firstBytes([...this.#parts, piece], EDGE_BYTES);
    this.#tail = lastBytes(this.#parts.at(-1) ?? EMPTY, piece);
    this.#skipped = this.#size + piece.length;
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    if (this.#skipped >= 0) {
      const id = lineId(LENIENT.decode(this.#head), LENIENT.decode(this.#tail));
      const bytes = this.#skipped;
      this.clear();
      return this.#sink.refused({ kind: "oversized", id, bytes, limit: this.#max });
    }
    if (this.#size === 0) return;
    const bytes = this.#parts.length === 1 ? this.#parts[0]! : firstBytes(this.#parts, Infinity);
    this.#parts = [];
    this.#size = 0;
    this.#line(bytes);
  }

  #line(bytes: Uint8Array): void {
    let text: string;
    try {
      text = STRICT.decode(bytes);
    } catch {
      const shown = LENIENT.decode(bytes.subarray(0, EDGE_BYTES));
      const end = LENIENT.decode(bytes.subarray(Math.max(0, bytes.length - EDGE_BYTES)));
      return this.#sink.refused({ kind: "not_utf8", id: lineId(shown, end) });
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.#sink.refused({ kind: "not_json", id: lineId(text) });
    }
    let message: T;
    try {
      message = this.#check(value);
    } catch (error) {
      const method = typeof value === "object" && value !== null && "method" in value;
      return this.#sink.refused({ kind: "not_jsonrpc", id: idOf(value), method, error });
    }
    this.#sink.message(message);
  }
}

// The id member of a parsed line that is not a message, when it is one an answer can carry.
function idOf(value: unknown): RequestId | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || Number.isSafeInteger(id) ? id as RequestId : null;
}

// The first `limit` bytes of runs of bytes, joined, copying no more than that.
function firstBytes(parts: readonly Uint8Array[], limit: number): Uint8Array {
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

// The last EDGE_BYTES of two runs of bytes, copying no more than that.
function lastBytes(before: Uint8Array, after: Uint8Array): Uint8Array {
  if (after.length >= EDGE_BYTES) return after.slice(after.length - EDGE_BYTES);
  const kept = before.subarray(Math.max(0, before.length - (EDGE_BYTES - after.length)));
  return firstBytes([kept, after], EDGE_BYTES);
}
