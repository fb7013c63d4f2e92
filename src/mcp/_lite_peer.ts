/**
 * unfold's own MCP client for stdio upstreams, as a connection's {@linkcode Peer}: the 2025
 * `initialize` handshake and JSON-RPC requests, as the MCP SDK's v2.4 `Client` sends them, without
 * loading the SDK (+21 MiB of resident memory and a schema library's parse of every message, on
 * the gateway's hot path). The connection above it checks what answers mean (`tool_list.ts`,
 * `_result.ts`, `_progress.ts`); the transport below it checks that each line is a JSON-RPC
 * message (`src/protocol/jsonrpc.ts`), so that this client only routes them.
 *
 * What it does as the SDK's client does: the version it offers and accepts, `clientInfo` and
 * empty capabilities, `notifications/initialized`, ids counted from 0, `notifications/cancelled`
 * for an abandoned request (never for `initialize`), `ping` answered with `{}` and any other
 * request of the server with -32601, a response's `resultType` dropped, a malformed progress
 * notification reported as an error. What it does not: a response to an id it is not waiting
 * for is ignored (the SDK reports it as an error, which made the connection ping the server).
 *
 * @module
 */

import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { deadline } from "../utils/deadline.ts";
import { methodNotFound } from "../protocol/jsonrpc.ts";
import { LEGACY_PROTOCOL_VERSIONS } from "../protocol/mcp.ts";
import { isRecord } from "../utils/record.ts";
import type { McpTransport, ServerIdentity } from "./types.ts";
import { type Peer, type PeerError, peerError } from "./_peer.ts";
import { isProgressParams, type ProgressParams } from "./_progress.ts";

interface Waiting {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/**
 * Makes unfold's own MCP client.
 *
 * @param clientInfo The client's name and version, sent in the handshake.
 * @returns The peer, not yet connected.
 *
 * @example Usage
 * ```ts
 * import { litePeer } from "./_lite_peer.ts";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { equal } from "node:assert/strict";
 *
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * const peer = litePeer({ name: "unfold", version: "0.1.0" });
 * await peer.connect(clientSide, 1_000);
 * equal(peer.identity.name, "demo");
 * await peer.close();
 * ```
 */
export function litePeer(clientInfo: { name: string; version: string }): Peer {
  return new LitePeer(clientInfo);
}

class LitePeer implements Peer {
  identity: ServerIdentity = { name: "", version: "" };
  instructions: string | undefined;
  #clientInfo: { name: string; version: string };
  #transport: McpTransport | undefined;
  #nextId = 0;
  #waiting = new Map<number, Waiting>();
  #listChanged = () => {};
  #progress = (_params: ProgressParams) => {};
  #closeHandler = () => {};
  #errorHandler = (_error: Error) => {};

  constructor(clientInfo: { name: string; version: string }) {
    this.#clientInfo = clientInfo;
  }

  onListChanged(handler: () => void): void {
    this.#listChanged = handler;
  }

  onProgress(handler: (params: ProgressParams) => void): void {
    this.#progress = handler;
  }

  onClose(handler: () => void): void {
    this.#closeHandler = handler;
  }

  onError(handler: (error: Error) => void): void {
    this.#errorHandler = handler;
  }

  async connect(transport: McpTransport, timeoutMs: number): Promise<void> {
    this.#transport = transport;
    transport.onmessage = (message) => this.#receive(message);
    transport.onerror = (error) => this.#errorHandler(error);
    transport.onclose = () => this.#closed();
    await transport.start();
    try {
      const result = await this.request("initialize", {
        protocolVersion: LEGACY_PROTOCOL_VERSIONS[0],
        capabilities: {},
        clientInfo: this.#clientInfo,
      }, deadline(timeoutMs)!);
      const problem = initializeProblem(result);
      if (problem !== undefined) throw new Error(`Invalid result for initialize: ${problem}`);
      const version = result.protocolVersion as string;
      if (!LEGACY_PROTOCOL_VERSIONS.includes(version)) {
        throw new Error(`Server's protocol version is not supported: ${version}`);
      }
      const info = result.serverInfo as Record<string, unknown>;
      this.identity = { name: info.name as string, version: info.version as string };
      if (typeof info.title === "string") this.identity.title = info.title;
      this.instructions = result.instructions as string | undefined;
      transport.setProtocolVersion?.(version);
      await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    } catch (error) {
      void this.close().catch(() => {});
      throw error;
    }
  }

  request(
    method: string,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new Error("Not connected"));
    if (signal.aborted) return Promise.reject(abandoned(signal));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#waiting.delete(id);
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        done();
        // As the SDK: the server is told, except of a handshake it would not know to cancel.
        if (method !== "initialize") {
          const reason = String(signal.reason);
          transport.send({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason },
          }).catch((error) =>
            this.#errorHandler(new Error(`Failed to send cancellation: ${error}`))
          );
        }
        reject(abandoned(signal));
      };
      this.#waiting.set(id, {
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      signal.addEventListener("abort", onAbort, { once: true });
      const message = params === undefined
        ? { method, jsonrpc: "2.0" as const, id }
        : { method, params, jsonrpc: "2.0" as const, id };
      transport.send(message).catch((error) => this.#waiting.get(id)?.reject(error));
    });
  }

  async close(): Promise<void> {
    try {
      await this.#transport?.close();
    } finally {
      // As the SDK's client: who the server was is forgotten once closed.
      this.identity = { name: "", version: "" };
      this.instructions = undefined;
    }
  }

  // One message of the server's, checked by the transport: dispatched as it comes, in order.
  #receive(message: JSONRPCMessage): void {
    const fields = message as Record<string, unknown>;
    if (typeof fields.method === "string") {
      if ("id" in fields) this.#serve(fields.id, fields.method);
      else this.#notified(fields.method, fields.params);
    } else if ("result" in fields || "error" in fields) {
      this.#answered(fields);
    } else {
      this.#errorHandler(
        new Error("Unknown message type: neither a request, a notification nor a response"),
      );
    }
  }

  #answered(response: Record<string, unknown>): void {
    // As the SDK: an id is matched as a number, so "3" answers 3.
    const waiting = this.#waiting.get(Number(response.id));
    if (waiting === undefined) return;
    const error = response.error;
    if (isRecord(error)) {
      waiting.reject(peerError("server", String(error.message), error.code as number));
      return;
    }
    const result = response.result as Record<string, unknown>;
    if (!("resultType" in result)) return waiting.resolve(result);
    // A 2026 member the 2025 revision does not have: dropped, as the SDK's 2025 codec does.
    const { resultType: _, ...rest } = result;
    waiting.resolve(rest);
  }

  // As the SDK's client with no handlers: a ping is answered (a step later, as its handler's
  // answer is), anything else is not served.
  #serve(id: unknown, method: string): void {
    const transport = this.#transport;
    const failed = (error: unknown) =>
      this.#errorHandler(new Error(`Failed to send response: ${error}`));
    if (method === "ping") {
      void Promise.resolve().then(() =>
        transport?.send({ result: {}, jsonrpc: "2.0", id: id as string | number })
      ).catch(failed);
      return;
    }
    transport?.send(methodNotFound(id as string | number)).catch(failed);
  }

  #notified(method: string, params: unknown): void {
    try {
      if (method === "notifications/tools/list_changed") this.#listChanged();
      else if (method === "notifications/progress") {
        if (!isProgressParams(params)) {
          throw new Error("Invalid params for notification notifications/progress");
        }
        this.#progress(params);
      }
    } catch (error) {
      this.#errorHandler(error instanceof Error ? error : new Error(String(error)));
    }
  }

  // The transport has closed: every request waiting fails, after the owner is told (as the SDK).
  #closed(): void {
    this.#transport = undefined;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    try {
      this.#closeHandler();
    } finally {
      for (const { reject } of waiting) reject(peerError("closed", "Connection closed"));
    }
  }
}

// The error of a request abandoned through its signal, as the SDK rejects: a timeout, in the SDK's
// words when the time ran out (the handshake's `deadline`), else in the reason's.
function abandoned(signal: AbortSignal): PeerError {
  const reason = signal.reason as { name?: unknown } | undefined;
  return peerError(
    "timeout",
    reason?.name === "TimeoutError" ? "Request timed out" : String(signal.reason),
  );
}

// What is wrong with an `initialize` result, or `undefined`.
function initializeProblem(result: Record<string, unknown>): string | undefined {
  if (typeof result.protocolVersion !== "string") return '"protocolVersion" must be a string';
  if (!isRecord(result.capabilities)) return '"capabilities" must be an object';
  const info = result.serverInfo;
  if (!isRecord(info)) return '"serverInfo" must be an object';
  if (typeof info.name !== "string") return '"serverInfo.name" must be a string';
  if (typeof info.version !== "string") return '"serverInfo.version" must be a string';
  if (info.title !== undefined && typeof info.title !== "string") {
    return '"serverInfo.title" must be a string';
  }
  if (result.instructions !== undefined && typeof result.instructions !== "string") {
    return '"instructions" must be a string';
  }
  return undefined;
}
