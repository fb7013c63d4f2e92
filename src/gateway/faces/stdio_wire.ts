/**
 * The stdio wire of the gateway's server face: newline-delimited JSON-RPC over two byte streams,
 * read from the moment it is opened, so that the host closing stdin is seen at once (before any
 * message, in either protocol era). No line is buffered beyond a bound (the one line splitter,
 * `src/utils/line_splitter.ts`): a longer one is skipped up to its newline and answered with an error,
 * and the connection stays up.
 *
 * @module
 */

import { LineSplitter } from "../../utils/line_splitter.ts";
import { readerOf, type WireInput } from "./_wire_input.ts";

export { hostStdin } from "./_wire_input.ts";
import {
  checkMessage,
  errorResponse,
  JSON_RPC_CODES,
  type JsonRpcMessage,
  messageLine,
  type RequestId,
  STDIO_MAX_MESSAGE_BYTES,
} from "../../protocol/jsonrpc.ts";

// The request id of a skipped line is looked for only in its first bytes.
const ID_PREFIX_BYTES = 4_096;
// Messages held while the gateway is still opening (bounded: it opens within its startup timeout).
const MAX_WAITING = 1_000;

/** Options of {@linkcode openStdioWire}. */
export interface StdioWireOptions {
  /**
   * The longest message read, in bytes.
   * @default {STDIO_MAX_MESSAGE_BYTES}
   */
  maxMessageBytes?: number;
}

/**
 * Where a wire writes: a byte stream, or a synchronous writer such as `Deno.stdout`. Deno runs an
 * async write to stdout on a blocking thread, and the trip there and back was about a tenth of the
 * gateway's CPU per execute (two gateways side by side, 2,000 interleaved executes each: 520 against 580 µs); a
 * synchronous write returns at once unless the host leaves the pipe full, and then waits for it.
 */
export type WireOutput = WritableStream<Uint8Array> | {
  writeSync(bytes: Uint8Array): number;
  close?(): void;
};

export type { WireInput };

/** A connection over stdin and stdout, read from the moment it is opened. */
export interface StdioWire {
  /** Resolves when the input has ended or the wire is closed. */
  readonly ended: Promise<void>;
  /** Closes the wire. */
  close(): Promise<void>;
}

/**
 * The message side of a wire: the shape of an MCP SDK `Transport`, so that the SDK's server can
 * be served on it too (the differential test does).
 */
export interface WireTransport {
  /** Delivers the messages held so far, then each as it arrives. */
  start(): Promise<void>;
  /** Writes one message. */
  send(message: JsonRpcMessage): Promise<void>;
  /** Closes the wire. */
  close(): Promise<void>;
  /** Receives each message read. */
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  /** Called once when the wire closes. */
  onclose?: (() => void) | undefined;
  /** Receives read errors. */
  onerror?: ((error: Error) => void) | undefined;
}

// The transport behind each wire: served by `stdio_face.ts`, kept out of the public types.
const TRANSPORTS = new WeakMap<StdioWire, WireTransport>();

/**
 * The transport of a wire opened by {@linkcode openStdioWire}.
 *
 * @param wire The wire.
 * @returns Its transport.
 * @throws {TypeError} When the wire was not opened by `openStdioWire`.
 */
export function transportOf(wire: StdioWire): WireTransport {
  const transport = TRANSPORTS.get(wire);
  if (transport === undefined) {
    throw new TypeError("Cannot serve a wire not opened by openStdioWire");
  }
  return transport;
}

/**
 * Opens the wire and starts reading at once; messages wait until the transport is started.
 *
 * @param input The bytes the host writes (stdin: `Deno.stdin`, or a stream).
 * @param output Where answers go: stdout (`Deno.stdout`), or a stream.
 * @param options The message size bound.
 * @returns The wire.
 *
 * @example Usage
 * ```ts
 * import { openStdioWire, transportOf } from "./stdio_wire.ts";
 * import { equal } from "node:assert/strict";
 *
 * const input = ReadableStream.from([new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')]);
 * const written: string[] = [];
 * const output = new WritableStream<Uint8Array>({ write: (chunk) => void written.push(new TextDecoder().decode(chunk)) });
 * const wire = openStdioWire(input, output);
 * const transport = transportOf(wire);
 * const seen: unknown[] = [];
 * transport.onmessage = (message) => void seen.push(message);
 * await transport.start();
 * await wire.ended;
 * equal(seen.length, 1);
 * ```
 */
export function openStdioWire(
  input: WireInput,
  output: WireOutput,
  options: StdioWireOptions = {},
): StdioWire {
  const max = options.maxMessageBytes ?? STDIO_MAX_MESSAGE_BYTES;
  const encoder = new TextEncoder();
  // Fatal: a lenient decoder turns bytes that are not UTF-8 into U+FFFD, so that a tool name or an
  // argument would reach the host changed; such a line is a parse error, as over HTTP.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const sink = writerOf(output);
  const reader = readerOf(input);
  const waiting: JsonRpcMessage[] = [];
  const ended = Promise.withResolvers<void>();
  let started = false;
  let closed = false;

  const deliver = (message: JsonRpcMessage) => {
    if (started && wire.onmessage) wire.onmessage(message);
    else if (waiting.length < MAX_WAITING) waiting.push(message);
    else if ("method" in message && "id" in message) {
      // Never left unanswered: a host that floods a server still starting is told so.
      answerError(message.id, -32_000, "The server is still starting: send this request again");
    }
  };
  const answerError = (id: RequestId | null, code: number, message: string) => {
    void wire.send(errorResponse(id, code, message)).catch(() => {});
  };
  const line = (bytes: Uint8Array) => {
    let text: string;
    try {
      text = decoder.decode(bytes).replace(/\r$/, "");
    } catch {
      answerError(null, JSON_RPC_CODES.parseError, "Parse error: the message is not UTF-8");
      return;
    }
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      answerError(null, JSON_RPC_CODES.parseError, "Parse error: the message is not JSON");
      return;
    }
    const message = checkMessage(value);
    if (!message.ok) {
      answerError(
        idOf(text),
        JSON_RPC_CODES.invalidRequest,
        "Invalid request: the message is not JSON-RPC 2.0",
      );
      return;
    }
    deliver(message.value);
  };
  const shutdown = () => {
    if (closed) return;
    closed = true;
    ended.resolve();
    reader.cancel();
    sink.close();
    wire.onclose?.();
  };

  const splitter = new LineSplitter(max, {
    line,
    // Skipped up to its newline: the memory held never exceeds the bound.
    oversized: (_bytes, head) =>
      answerError(
        idOf(decoder.decode(head)),
        JSON_RPC_CODES.invalidRequest,
        `Invalid request: the message is over ${max} bytes, the most this server reads; it was skipped`,
      ),
  }, ID_PREFIX_BYTES);
  const pump = () =>
    reader.start((chunk) => {
      // A read still pending when the wire closed brings bytes no one is to answer.
      if (!closed) splitter.push(chunk);
      return !closed;
    }, (error) => {
      if (error !== undefined) {
        wire.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
      shutdown();
    });

  const wire: WireTransport = {
    start() {
      started = true;
      for (const message of waiting.splice(0)) wire.onmessage?.(message);
      return Promise.resolve();
    },
    async send(message) {
      if (closed) throw new Error("The stdio connection is closed");
      try {
        await sink.write(encoder.encode(messageLine(message)));
      } catch (error) {
        shutdown();
        throw error;
      }
    },
    close() {
      shutdown();
      return Promise.resolve();
    },
  };
  pump();
  const opened: StdioWire = { ended: ended.promise, close: () => wire.close() };
  TRANSPORTS.set(opened, wire);
  return opened;
}

// The id of a request that could not be read whole, when its first bytes show one (a number only
// when whole: the first digits of a longer one are another id).
function idOf(text: string): RequestId | null {
  const found = /"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")/.exec(
    text.slice(0, ID_PREFIX_BYTES),
  );
  if (found === null) return null;
  try {
    const id = JSON.parse(found[1]!);
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}

// One way to write whole messages and to close, over either kind of output.
function writerOf(output: WireOutput): {
  write(bytes: Uint8Array): Promise<void> | void;
  close(): void;
} {
  if (output instanceof WritableStream) {
    const writer = output.getWriter();
    return {
      write: (bytes) => writer.write(bytes),
      close: () => void writer.close().catch(() => {}),
    };
  }
  return {
    write(bytes) {
      // A pipe may take part of a large message at a time.
      for (let from = 0; from < bytes.length;) from += output.writeSync(bytes.subarray(from));
    },
    close() {
      try {
        output.close?.();
      } catch {
        // already closed
      }
    },
  };
}
