/**
 * The gateway's stdio face: the SDK's `serveStdio` (the opening picks the connection's protocol
 * era, one instance of `server.ts` serves it) over a transport of ours on the process's stdin and
 * stdout, for desktop hosts that launch their servers (Deno and Node only). One session per
 * connection. What the transport adds to the SDK's own, on its public `Transport` interface:
 * - reading starts when the transport is made, so the host closing stdin is seen at once, whatever
 *   it sent before (a 2025-era `initialize`, a 2026-07-28 request, or nothing), and ends the
 *   connection (`ended`);
 * - the one stdio line policy (`src/protocol/stdio_lines.ts`): a line over 10 MiB, one that is not
 *   UTF-8, not JSON or not JSON-RPC is answered with an error carrying its id when it shows one,
 *   and the connection stays (the SDK's transport closes it);
 * - a piped stdin is read on the event loop (`node:net`), and answers written synchronously: Deno
 *   reads `Deno.stdin` and writes `Deno.stdout` asynchronously on a blocking thread, and those trips
 *   were a fifth of the gateway's own CPU per execute;
 * - as on the HTTP face, each request of a 2026-07-28 connection has its envelope and revision
 *   judged (the SDK's stdio entry judges the opening's only), and a subscription to nothing the
 *   gateway offers ends at once (the SDK's stdio entry keeps it open, idle).
 *
 * @module
 */

import { serveStdio } from "@modelcontextprotocol/server/stdio";
import {
  classifyInboundRequest,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  ProtocolErrorCode,
  serializeMessage,
  type Server,
  type Transport,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/server";
import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import type { Readable } from "node:stream";
import { type LineFault, type RequestId, StdioLines } from "../../protocol/stdio_lines.ts";
import { type ClientIdentity, hostServer, identityOf, type ToolHost } from "./server.ts";

/** Where the face reads: a byte stream, a reader into a buffer (`Deno.stdin`), or a Node stream. */
export type HostInput = ReadableStream<Uint8Array> | {
  read(buffer: Uint8Array): Promise<number | null>;
} | Readable;

/** Where the face writes: a byte stream, or a synchronous writer such as `Deno.stdout`. */
export type HostOutput = WritableStream<Uint8Array> | {
  writeSync(bytes: Uint8Array): number;
  close?(): void;
};

/** Options of {@linkcode HostStdioTransport}. */
export interface HostStdioTransportOptions {
  /** What the host writes. @default {the process's stdin} */
  input?: HostInput;
  /** Where answers go. @default {Deno.stdout} */
  output?: HostOutput;
  /** The longest line read, in bytes. @default {STDIO_MAX_MESSAGE_BYTES} */
  maxMessageBytes?: number;
}

// Messages held while the gateway is still opening (bounded: it opens within its startup timeout).
const MAX_WAITING = 1_000;
// The buffer a reader into a buffer reads into (Deno's own stdin stream reads 64 KiB at a time).
const READ_BYTES = 64 * 1024;
const FAULTS: Record<LineFault["kind"], [number, string]> = {
  oversized: [ProtocolErrorCode.InvalidRequest, "Invalid request: the message is over"],
  not_utf8: [ProtocolErrorCode.ParseError, "Parse error: the message is not UTF-8"],
  not_json: [ProtocolErrorCode.ParseError, "Parse error: the message is not JSON"],
  not_jsonrpc: [
    ProtocolErrorCode.InvalidRequest,
    "Invalid request: the message is not JSON-RPC 2.0",
  ],
};

/**
 * The host's stdin and stdout as an MCP transport, reading from the moment it is made; messages
 * wait until the transport is started.
 *
 * @example Usage
 * ```ts
 * import { HostStdioTransport } from "./stdio.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const written: string[] = [];
 * const transport = new HostStdioTransport({
 *   input: ReadableStream.from([new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"id":2\n')]),
 *   output: new WritableStream({ write: (chunk) => void written.push(new TextDecoder().decode(chunk)) }),
 * });
 * const seen: unknown[] = [];
 * transport.onmessage = (message) => void seen.push(message);
 * await transport.start();
 * await transport.ended;
 * deepEqual(seen, [{ jsonrpc: "2.0", id: 1, method: "ping" }]);
 * deepEqual(JSON.parse(written[0]!).id, 2);
 * ```
 */
export class HostStdioTransport implements Transport {
  /** Receives each message read, once started. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** Receives read and write errors. */
  onerror?: (error: Error) => void;
  /** Called once when the connection ends (stdin ended, or closed). */
  onclose?: () => void;
  readonly #ended = Promise.withResolvers<void>();
  readonly #write: (bytes: Uint8Array) => Promise<void> | void;
  readonly #closeOutput: () => void;
  readonly #stopReading: () => void;
  readonly #encoder = new TextEncoder();
  #waiting: JSONRPCMessage[] | undefined = [];
  #closed = false;

  /**
   * Opens the transport and starts reading.
   *
   * @param options The input, the output and the line bound.
   */
  constructor(options: HostStdioTransportOptions = {}) {
    [this.#write, this.#closeOutput] = writerOf(options.output ?? Deno.stdout);
    const lines = new StdioLines(parseJSONRPCMessage, {
      message: (message) => this.#deliver(message),
      refused: (fault) => this.#refuse(fault),
    }, options.maxMessageBytes);
    this.#stopReading = read(options.input ?? hostStdin(), (chunk) => {
      // A read still pending when the connection closed brings bytes no one is to answer.
      if (!this.#closed) lines.push(chunk);
      return !this.#closed;
    }, (error) => {
      if (error !== undefined) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
      void this.close();
    });
  }

  /** Resolves once the input has ended or the transport is closed. */
  get ended(): Promise<void> {
    return this.#ended.promise;
  }

  /**
   * Delivers the messages held so far, then each as it arrives.
   *
   * @returns Resolves at once.
   */
  start(): Promise<void> {
    const held = this.#waiting ?? [];
    this.#waiting = undefined;
    for (const message of held) this.onmessage?.(message);
    return Promise.resolve();
  }

  /**
   * Writes one message as a line.
   *
   * @param message The message.
   * @returns Resolves once written.
   * @throws {Error} When the connection is closed or the write fails (it then closes).
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("The stdio connection is closed");
    try {
      await this.#write(this.#encoder.encode(serializeMessage(message)));
    } catch (error) {
      void this.close();
      throw error;
    }
  }

  /**
   * Ends the connection: reading stops, stdout is closed, `onclose` runs once.
   *
   * @returns Resolves at once.
   */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#ended.resolve();
    this.#stopReading();
    this.#closeOutput();
    this.onclose?.();
    return Promise.resolve();
  }

  #deliver(message: JSONRPCMessage): void {
    if (this.#waiting === undefined) return this.onmessage?.(message);
    if (this.#waiting.length < MAX_WAITING) return void this.#waiting.push(message);
    // Never left unanswered: a host that floods a server still starting is told so.
    if ("method" in message && "id" in message) {
      this.#answer(message.id, -32_000, "The server is still starting: send this request again");
    }
  }

  #refuse(fault: LineFault): void {
    const [code, words] = FAULTS[fault.kind];
    const message = fault.kind === "oversized"
      ? `${words} ${fault.limit} bytes, the most this server reads; it was skipped`
      : words;
    this.#answer(fault.id, code, message);
  }

  #answer(id: RequestId | null, code: number, message: string): void {
    const answer = { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
    void this.send(answer).catch(() => {});
  }
}

/** A connection over the process's stdin and stdout, read from the moment it is opened. */
export interface HostStdio {
  /** Resolves once the host has closed stdin, or the connection is closed. */
  readonly ended: Promise<void>;
  /** Ends the connection. */
  close(): Promise<void>;
}

/**
 * Opens the process's stdin and stdout, reading at once: an end of stdin before the gateway is
 * ready to serve (its upstreams still starting) is seen, and messages wait.
 *
 * @returns The connection, for {@linkcode serveHostStdio}.
 *
 * @example Usage
 * ```ts ignore
 * import { openHostStdio, serveHostStdio } from "./stdio.ts";
 *
 * const stdio = openHostStdio();
 * void stdio.ended.then(() => gateway.close());
 * serveHostStdio(gatewayHost(gateway, "0.1.0"), { stdio });
 * ```
 */
export function openHostStdio(): HostStdio {
  return new HostStdioTransport();
}

/** Options of {@linkcode serveHostStdio}. */
export interface HostStdioOptions {
  /**
   * The connection to serve on, already reading (so that an early end of stdin is seen): one of
   * {@linkcode openHostStdio}.
   * @default {a connection over the process's stdin and stdout}
   */
  stdio?: HostStdio;
  /** Receives transport errors and what the client got wrong that has no answer. */
  onError?: (error: Error) => void;
  /** Runs once when the host goes away (stdin ended) or the connection is closed. */
  onClose?: () => void;
}

/**
 * Serves a host over stdio until stdin closes. Everything but protocol messages must go to
 * stderr.
 *
 * @param host The tools.
 * @param options The connection, an error listener and a close listener.
 * @returns A handle whose `close()` ends the connection.
 *
 * @example Usage
 * ```ts ignore
 * import { serveHostStdio } from "./stdio.ts";
 *
 * serveHostStdio(gateway, { onClose: () => gateway.close() });
 * ```
 */
export function serveHostStdio(
  host: ToolHost,
  options: HostStdioOptions = {},
): { close(): Promise<void> } {
  const session = crypto.randomUUID();
  const transport = options.stdio ?? new HostStdioTransport();
  if (!(transport instanceof HostStdioTransport)) {
    throw new TypeError("Cannot serve over stdio: the connection must come from openHostStdio()");
  }
  void transport.ended.then(() => options.onClose?.());
  // The instance the SDK's entry made last: the one it serves (or probes), with its era.
  let instance: { era: "legacy" | "modern"; server: Server } | undefined;
  // The client the opening named (its instructions depend on it): the instance is made before
  // its initialize is answered.
  let client: ClientIdentity | undefined;
  return serveStdio(
    ({ era }) => {
      const server = hostServer(host, {
        session,
        changes: era === "modern" ? "at-once" : "after-initialized",
        ...(client === undefined ? {} : { client }),
      });
      instance = { era, server };
      return server;
    },
    {
      transport: stdioEntry(transport, host.serverInfo, {
        // A 2026-07-28 connection's revision: the one its instance was pinned to.
        revision: () =>
          instance?.era === "modern" ? instance.server.getNegotiatedProtocolVersion() : undefined,
        named: (named) => void (client ??= named),
      }),
      ...(options.onError ? { onerror: options.onError } : {}),
    },
  );
}

const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
// The rungs of the SDK's inbound ladder that judge a request's envelope and its revision.
const ENVELOPE_RUNGS: ReadonlySet<string> = new Set(["envelope", "era-classification"]);

type Fields = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: { _meta?: Record<string, unknown> };
};

// The transport as serveStdio is given it, with what the HTTP face does that the SDK's stdio entry
// does not: on a 2026-07-28 connection, each request's envelope and revision are judged as the
// HTTP face judges each request (the SDK's `classifyInboundRequest`), not only the opening's;
// and a subscription acknowledged with nothing honoured gets its end (the result of its
// `subscriptions/listen`) at once, the end the entry writes for it at closing not written twice.
function stdioEntry(
  wire: Transport,
  serverInfo: { name: string; version: string },
  connection: {
    revision: () => string | undefined;
    named: (client: ClientIdentity) => void;
  },
): Transport {
  const ended = new Set<unknown>();
  let deliver: Transport["onmessage"];
  const proxy: Transport = {
    start: () => wire.start(),
    close: () => wire.close(),
    async send(message, options) {
      const fields = message as Fields;
      if (fields.result?._meta?.[SUBSCRIPTION_ID] === fields.id && ended.delete(fields.id)) return;
      await wire.send(message, options);
      const honoured = fields.params?.notifications;
      if (fields.method !== ACKNOWLEDGED || Object.keys(honoured ?? {}).length > 0) return;
      const id = (fields.params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID];
      if (id === undefined) return;
      ended.add(id);
      await wire.send({
        jsonrpc: "2.0",
        id,
        result: {
          resultType: "complete",
          _meta: { [SUBSCRIPTION_ID]: id, [SERVER_INFO]: serverInfo },
        },
      } as unknown as JSONRPCMessage, options);
    },
  };
  wire.onmessage = (message, extra) => {
    const client = clientNamed(message as Fields);
    if (client !== undefined) connection.named(client);
    const pinned = connection.revision();
    const refused = pinned === undefined ? undefined : refusedEnvelope(message as Fields, pinned);
    if (refused === undefined) return deliver?.(message, extra);
    // A notification is dropped; a request answered as the HTTP face answers it.
    if ("id" in message && "method" in message) {
      void wire.send({ jsonrpc: "2.0", id: message.id, error: refused } as JSONRPCMessage)
        .catch(() => {});
    }
  };
  Object.defineProperty(proxy, "onmessage", {
    get: () => deliver,
    set: (value) => deliver = value,
  });
  // serveStdio sets its other callbacks on what it is given: they are the wire's.
  for (const key of ["onerror", "onclose"] as const) {
    Object.defineProperty(proxy, key, { get: () => wire[key], set: (value) => wire[key] = value });
  }
  return proxy;
}

// The client a message names: an initialize's clientInfo, or a 2026-07-28 envelope's.
function clientNamed(message: Fields): ClientIdentity | undefined {
  const params = message.params;
  if (message.method === "initialize") return identityOf(params?.clientInfo);
  const meta = params?._meta as Record<string, unknown> | undefined;
  return identityOf(meta?.[CLIENT_INFO]);
}

// The error the HTTP face answers for a message whose envelope claims a revision, when its
// envelope is refused or it claims another revision than the connection's; else undefined.
function refusedEnvelope(
  message: Fields,
  pinned: string,
): { code: number; message: string; data?: unknown } | undefined {
  const meta = message.params?._meta as Record<string, unknown> | undefined;
  if (typeof message.method !== "string" || meta === undefined || !(PROTOCOL_VERSION in meta)) {
    return undefined;
  }
  const claimed = meta[PROTOCOL_VERSION];
  const name = message.params?.name;
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    // The headers an HTTP client sends with this body, so that only the body is judged.
    ...(typeof claimed === "string" ? { protocolVersionHeader: claimed } : {}),
    mcpMethodHeader: message.method,
    ...(typeof name === "string" ? { mcpNameHeader: name } : {}),
    body: message,
  });
  if (outcome.kind === "modern") {
    const requested = outcome.classification.revision;
    if (requested === undefined || requested === pinned) return undefined;
    const error = new UnsupportedProtocolVersionError({ supported: [pinned], requested });
    return { code: error.code, message: error.message, data: error.data };
  }
  if (outcome.kind !== "reject" || !ENVELOPE_RUNGS.has(outcome.rung)) return undefined;
  return {
    code: outcome.code,
    message: outcome.message,
    ...(outcome.data === undefined ? {} : { data: outcome.data }),
  };
}

/**
 * The host's stdin as the face reads it best: a pipe or a socket through the runtime's
 * non-blocking pipe handle (`node:net`), on the event loop as the upstreams' pipes are; anything
 * else (a file, a terminal, a socket that is stdout too) as `Deno.stdin`.
 *
 * @returns The input.
 */
export function hostStdin(): HostInput {
  if (Deno.build.os === "windows") return Deno.stdin;
  try {
    const input = fstatSync(0);
    if (!input.isFIFO() && !input.isSocket()) return Deno.stdin;
    // Made non-blocking by the pipe handle: never a descriptor the gateway writes to as well.
    for (const fd of [1, 2]) {
      const other = fstatSync(fd);
      if (other.dev === input.dev && other.ino === input.ino) return Deno.stdin;
    }
    return new Socket({ fd: 0, readable: true, writable: false });
  } catch {
    return Deno.stdin;
  }
}

// Reads chunks out of an input until it ends (each valid until the next: the line reader copies
// what it holds); `take` returning false stops. Returns what stops the reading.
function read(
  input: HostInput,
  take: (chunk: Uint8Array) => boolean,
  end: (error?: unknown) => void,
): () => void {
  if (!("on" in input)) {
    const stream = input instanceof ReadableStream ? input.getReader() : undefined;
    const buffer = stream === undefined ? new Uint8Array(READ_BYTES) : undefined;
    const next = stream !== undefined
      ? () => stream.read().then(({ value, done }) => done ? null : value)
      : () =>
        (input as { read(b: Uint8Array): Promise<number | null> }).read(buffer!)
          .then((n) => n === null ? null : buffer!.subarray(0, n));
    void (async () => {
      try {
        for (let chunk = await next(); chunk !== null && take(chunk); chunk = await next());
      } catch (error) {
        return end(error);
      }
      end();
    })();
    // A reader into a buffer leaves its pending read to the input's end, or to the process's.
    return () => void stream?.cancel().catch(() => {});
  }
  let ended = false;
  const finish = (error?: unknown) => {
    if (ended) return;
    ended = true;
    end(error);
  };
  input.on("data", (bytes: Uint8Array) => {
    // As a plain view: a Buffer's `slice` is a view too, and the reader's copies must copy.
    if (!take(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))) input.destroy();
  });
  input.on("end", () => finish());
  input.on("close", () => finish());
  input.on("error", (error: unknown) => finish(error));
  return () => void input.destroy();
}

// One way to write whole messages and to close, over either kind of output.
function writerOf(
  output: HostOutput,
): [(bytes: Uint8Array) => Promise<void> | void, () => void] {
  if (output instanceof WritableStream) {
    const writer = output.getWriter();
    return [(bytes) => writer.write(bytes), () => void writer.close().catch(() => {})];
  }
  return [(bytes) => {
    // A pipe may take part of a large message at a time.
    for (let from = 0; from < bytes.length;) from += output.writeSync(bytes.subarray(from));
  }, () => {
    try {
      output.close?.();
    } catch {
      // already closed
    }
  }];
}
