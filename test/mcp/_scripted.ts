/**
 * A scripted MCP server behind an in-process transport, for holding a connection (the SDK's
 * `Client` under it) to conversations with a misbehaving server: the script answers each message
 * the client sends with raw lines, which reach the client through the stdio client's own reader
 * (`ServerLines`, with a small limit), as a stdio server's would. Every message the client sends is
 * kept.
 *
 * @module
 */

import { type JSONRPCMessage, parseJSONRPCMessage } from "@modelcontextprotocol/client";
import { ServerLines } from "../../src/mcp/_stdio_transport.ts";
import { openConnection } from "../../src/mcp/_connection.ts";
import type { ConnectOptions, McpConnection, McpTransport } from "../../src/mcp/types.ts";

/** The largest line the scripted client reads, in bytes. */
export const SCRIPT_LINE_LIMIT = 4_096;

/** A message of the client's, as the script sees it (its params read freely by scripts). */
// deno-lint-ignore no-explicit-any
export type Sent = Record<string, unknown> & { method?: string; id?: number; params?: any };

/** What a script can do: answer with raw lines, or exit. */
export interface Server {
  /** Writes one message as a line. */
  send(message: unknown): void;
  /** Writes raw text or bytes (lines end with `\n`). */
  write(text: string | Uint8Array): void;
  /** Exits: the transport closes. */
  exit(): void;
  /** Every message the client has sent so far. */
  readonly sent: Sent[];
}

/** Answers one message of the client's; `initialize` and `notifications/initialized` included. */
export type Script = (message: Sent, server: Server) => void;

const ENCODER = new TextEncoder();

class ScriptedTransport implements McpTransport, Server {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly sent: Sent[] = [];
  #script: Script;
  #reader: ServerLines;
  #closed = false;
  unattributed = (_why: string) => {};

  constructor(script: Script) {
    this.#script = script;
    this.#reader = new ServerLines(parseJSONRPCMessage, {
      message: (message) => this.onmessage?.(message),
      error: (error) => this.onerror?.(error),
      unattributed: (why) => this.unattributed(why),
    }, SCRIPT_LINE_LIMIT);
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Not connected: the script has exited"));
    const copy = structuredClone(message) as Sent;
    this.sent.push(copy);
    // A real server answers later than the write returns.
    setTimeout(() => {
      if (!this.#closed) this.#script(copy, this);
    }, 0);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.exit();
    return Promise.resolve();
  }

  write(text: string | Uint8Array): void {
    if (this.#closed) return;
    this.#reader.push(typeof text === "string" ? ENCODER.encode(text) : text);
  }

  exit(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reader.clear();
    this.onclose?.();
  }
}

/** The tools every scripted server lists. */
export const TOOLS = [
  { name: "echo", inputSchema: { type: "object" } },
  {
    name: "typed",
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { n: { type: "number" } } },
  },
];

/**
 * A healthy server's answer to a message (initialize, tools/list, echo), or `undefined` for one
 * it does not answer: scripts fall back on it.
 *
 * @param message The client's message.
 * @returns The answer.
 */
export function healthy(message: Sent): unknown {
  const { id, method, params } = message;
  if (method === "initialize") {
    return {
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "scripted", version: "1.0.0", title: "Scripted" },
        instructions: "Use echo.",
      },
    };
  }
  if (method === "tools/list") return { jsonrpc: "2.0", id, result: { tools: TOOLS } };
  if (method === "ping") return { jsonrpc: "2.0", id, result: {} };
  if (method === "tools/call") {
    const text = String(params.arguments?.text ?? "");
    return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } };
  }
  return undefined;
}

/** What one run came to. */
export interface Run {
  /** The connection, or why it could not be made. */
  connection: McpConnection | undefined;
  /** `connect` failure, as `code: message`. */
  connectError: string | undefined;
  /** The server side. */
  server: Server;
  /** The failures the connection reported outside any call. */
  reported: string[];
}

/**
 * Connects to a scripted server.
 *
 * @param script The server.
 * @param options Connection options.
 * @returns The run.
 */
export async function connectScripted(
  script: Script,
  options: ConnectOptions = {},
): Promise<Run> {
  const transport = new ScriptedTransport(script);
  const reported: string[] = [];
  try {
    const connection = await openConnection(
      "scripted",
      transport,
      {
        onError: (error) => reported.push(outcome(error)),
        ...options,
      },
      { onConnected: (fail) => transport.unattributed = fail },
    );
    return { connection, connectError: undefined, server: transport, reported };
  } catch (error) {
    return { connection: undefined, connectError: outcome(error), server: transport, reported };
  }
}

/**
 * An outcome in words: a value as JSON, an error as `code: message`.
 *
 * @param value What a promise settled with.
 * @returns The words.
 */
export function outcome(value: unknown): string {
  if (value instanceof Error) {
    return `${(value as { code?: string }).code ?? value.name}: ${value.message}`;
  }
  return JSON.stringify(value);
}

/**
 * How a promise settles, in words.
 *
 * @param promise The promise.
 * @returns Its outcome.
 */
export function settled(promise: Promise<unknown>): Promise<string> {
  return promise.then(outcome, outcome);
}
